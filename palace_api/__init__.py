"""Palace API: the Django project. Loading the Celery app here makes @shared_task use it."""

from palace_api.celery import app as celery_app

__all__ = ("celery_app",)
