"""``POST /bare/``: authenticate (the product's knox token auth), parse JSON, insert one row, answer 201."""

from __future__ import annotations

from django.db import transaction
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from benchmarks.bare.models import Row


class BareView(APIView):
    """Same authentication, permission, parser and throttle classes as the product's views (the defaults)."""

    def post(self, request: Request) -> Response:
        with transaction.atomic():
            row = Row.objects.create(user=request.user, payload={"body": request.data})
        return Response({"id": row.pk}, status=status.HTTP_201_CREATED)
