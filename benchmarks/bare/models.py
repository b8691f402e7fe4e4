"""One table: a row per ``POST /bare/``, about the size of a game's event row."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Row(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    payload = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)
