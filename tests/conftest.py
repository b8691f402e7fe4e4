"""Shared test set-up. pytest-django reads DJANGO_SETTINGS_MODULE from pyproject.toml; nothing else is needed yet."""
