"""Middleware of every request: the request log line, and JSON errors under /api/ whatever Django's mode.

- ``RequestLogMiddleware``: one line per request on the ``palace.requests`` logger (stderr, settings.LOGGING):
  method, path, status, milliseconds, user id and game id (``-`` where there is none).
- ``ApiErrorMiddleware``: under /api/, a POST, PUT or PATCH body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes is
  refused before anything reads it (413 ``payload_too_large`` with ``limit``), and an error page that Django
  made in HTML (its DEBUG 404 and 500 pages, which bypass handler404/handler500) is answered in the API's JSON
  shape instead.
- ``ContentSecurityPolicyMiddleware``: django-csp's middleware (settings.CONTENT_SECURITY_POLICY on every
  response), with inline styles allowed on the pages of DRF's browsable API, whose templates write them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from csp.constants import SELF, UNSAFE_INLINE
from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from rest_framework.renderers import BrowsableAPIRenderer

from palace_api.errors import API_PREFIX, ErrorCode, error_body

request_log = logging.getLogger("palace.requests")

BODY_METHODS = ("POST", "PUT", "PATCH")
"""Methods whose body the API reads; the body of any other is never read, so never refused."""

_HTML_ERRORS = {
    400: (ErrorCode.BAD_REQUEST, "Bad request."),
    403: (ErrorCode.PERMISSION_DENIED, "You do not have permission to perform this action."),
    404: (ErrorCode.NOT_FOUND, "Not found."),
    500: (ErrorCode.SERVER_ERROR, "Server error."),
}


class RequestLogMiddleware:
    """Logs ``<method> <path> <status> <ms>ms user=<id> game=<id>`` once per request, at INFO (WARNING for 5xx)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = (time.perf_counter() - started) * 1000
        user = getattr(request, "user", None)
        user_id = getattr(user, "pk", None) if user is not None and user.is_authenticated else None
        match = getattr(request, "resolver_match", None)
        game_id = match.kwargs.get("game_id") if match is not None else None
        level = logging.WARNING if response.status_code >= 500 else logging.INFO
        request_log.log(
            level,
            "%s %s %s %.1fms user=%s game=%s",
            request.method,
            request.path,
            response.status_code,
            elapsed,
            "-" if user_id is None else user_id,
            "-" if game_id is None else game_id,
        )
        return response


class ApiErrorMiddleware:
    """JSON errors under /api/ in every mode; see the module docstring."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith(API_PREFIX):
            return self.get_response(request)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if limit is not None and length > limit and request.method in BODY_METHODS:
            body = error_body(ErrorCode.PAYLOAD_TOO_LARGE, f"The body is over {limit} bytes.", limit=limit)
            return JsonResponse(body, status=413)
        response = self.get_response(request)
        known = _HTML_ERRORS.get(response.status_code)
        if known is not None and not response.get("Content-Type", "").startswith("application/json"):
            status = response.status_code
            response = JsonResponse(error_body(*known), status=status)
        return response


LIBRARY_STYLES = {"style-src": [SELF, UNSAFE_INLINE]}
"""The policy's change on the pages of libraries whose templates or scripts write inline styles (DRF's browsable
API; Redoc, palace_api/urls.py): their styles, never their scripts, may be inline. Those pages show the API's own
data and schema, escaped."""


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware (the extension point its docs name: ``get_policy_parts``); a page of DRF's browsable
    API gets ``LIBRARY_STYLES`` (its base template writes a <style> and style attributes)."""

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request=request, response=response, report_only=report_only)
        if parts.replace is None and isinstance(getattr(response, "accepted_renderer", None), BrowsableAPIRenderer):
            parts.replace = LIBRARY_STYLES
        return parts
