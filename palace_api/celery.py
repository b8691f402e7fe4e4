"""The Celery app ``palace_api``: configured from Django's CELERY_* settings, tasks found in each app's tasks.py."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "palace_api.settings")

app = Celery("palace_api")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
