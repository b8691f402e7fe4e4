"""The API's error shape in the OpenAPI schema: ``ErrorSerializer`` and ``error_responses``.

Views list the errors each operation answers beside its success responses, with the codes each status carries as
an enum::

    @extend_schema(responses={201: GameOut, **error_responses("GamesCreate", {400: ("invalid",)}, 401, 429)})

400 with ``invalid`` carries ``errors``, 429 and 503 ``retry_after``, 413 ``limit``. ``AutoSchema`` (REST_FRAMEWORK's
DEFAULT_SCHEMA_CLASS) adds to those the refusals DRF makes around an operation, derived from its view
(``framework_refusals``: 406, 503, the session's CSRF 403). The token schemes (``Bearer`` and ``Token``) reach
the schema through ``players.auth.TokenScheme``. In the served schema every operation's error of one status is one
component (``Error409``; ``errors_shared``), the operation's codes listed on its response (``x-error-codes``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.views import APIView

from palace_api.errors.codes import ErrorCode


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Machine-readable snake_case code; clients match on it.")
    detail = serializers.CharField(help_text="Human-readable explanation; may change wording.")


class ValidationErrorSerializer(ErrorSerializer):
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text='Only with code "invalid": the messages of each field of the request body.',
    )


class ThrottledErrorSerializer(ErrorSerializer):
    retry_after = serializers.IntegerField(help_text="Seconds to wait; also sent as the Retry-After header.")


class PayloadTooLargeErrorSerializer(ErrorSerializer):
    limit = serializers.IntegerField(help_text="The largest body accepted, in bytes.")


ERROR_DESCRIPTIONS = {
    400: "Invalid request: `invalid` (with `errors` naming each field or parameter), `malformed_json`, or a "
    "refusal with its own code.",
    401: "`not_authenticated` (no token) or `authentication_failed` (a malformed header, or an unknown, revoked "
    "or expired token).",
    403: "Not allowed: the code says why.",
    406: "`not_acceptable`: the `Accept` header names no type the operation answers (`application/json`).",
    404: "Not found: the code says what.",
    405: "`method_not_allowed`: the path does not take this method (`Allow` lists those it takes).",
    409: "A conflict with the current state: the code says which.",
    413: "`payload_too_large`: the body is over `limit` bytes.",
    415: "`unsupported_media_type`: the request body must be `application/json`.",
    422: "A well-formed request the current state cannot accept: the code says why.",
    429: "`throttled`: wait `retry_after` seconds (also the `Retry-After` header).",
    503: "`service_unavailable`: the database cannot be reached; wait `retry_after` seconds (also `Retry-After`).",
}
_PLAIN_400 = "Refused: the code says why (this operation names no fields in its refusals)."

_SESSION_CSRF = (
    " `permission_denied` also refuses a POST, PUT, PATCH or DELETE that a session cookie authenticates without "
    "the session's CSRF token (`X-CSRFToken`)."
)

# Codes every operation may answer with at a status, whatever it does.
_GENERIC_CODES: dict[int, tuple[str, ...]] = {
    401: (ErrorCode.NOT_AUTHENTICATED, ErrorCode.AUTHENTICATION_FAILED),
    405: (ErrorCode.METHOD_NOT_ALLOWED,),
    406: (ErrorCode.NOT_ACCEPTABLE,),
    413: (ErrorCode.PAYLOAD_TOO_LARGE,),
    415: (ErrorCode.UNSUPPORTED_MEDIA_TYPE,),
    429: (ErrorCode.THROTTLED,),
    503: (ErrorCode.SERVICE_UNAVAILABLE,),
}
# The generic statuses an operation passes to ``error_responses``, by how it reads its request.
BODY = (405, 413, 415, 429)
"""An operation that takes a JSON body."""
BODYLESS_POST = (405, 413, 429)
"""A POST that reads no body: a body over the limit is still refused before the view (413)."""
NO_BODY = (405, 429)
"""An operation without a body (GET, DELETE): it reads none, whatever its size."""
INVALID_BODY = (ErrorCode.INVALID, ErrorCode.MALFORMED_JSON, ErrorCode.NESTING_TOO_DEEP)
"""The 400 codes of a JSON body that the parser or the serializer refuses."""
GAME_NOT_FOUND = {404: (ErrorCode.GAME_NOT_FOUND, ErrorCode.NOT_FOUND)}
"""An operation under ``games/{id}/``: no game of that id, or (``not_found``) a path that names no game at all."""
PLAYER_NOT_FOUND = {404: (ErrorCode.PLAYER_NOT_FOUND, ErrorCode.NOT_FOUND)}
"""An operation under ``players/{name}/``: no such player, or a path that names none."""

_BASE_BY_STATUS: dict[int, type[serializers.Serializer]] = {
    400: ValidationErrorSerializer,
    413: PayloadTooLargeErrorSerializer,
    429: ThrottledErrorSerializer,
    503: ThrottledErrorSerializer,
}


def error_responses(
    operation: str | int, codes: dict[int, tuple[str, ...]] | int | None = None, *statuses: int
) -> dict[int, OpenApiResponse]:
    """``{status: OpenApiResponse}`` for ``@extend_schema(responses=...)``: the errors one operation answers.

    ``operation``: a CamelCase name for the components (``GamesCreate`` gives ``GamesCreateError400``...);
    ``codes``: status -> the codes the operation raises at it; ``statuses``: further statuses whose generic codes
    are added (401, 405, 406, 413, 415, 429, 503). Each status gets its own component whose ``code`` is an enum
    of those codes, on the right base: ``errors`` on a 400 that lists ``invalid``, ``retry_after`` on 429 and
    503, ``limit`` on 413. ``AutoSchema`` adds the framework's refusals (406, 503, the session's CSRF 403).

    The older form, statuses alone (``error_responses(400, 401, 404)``), still gives each status its shape with
    ``code`` a free string; an operation documented so has not yet said which codes it answers.
    """
    if isinstance(operation, int):
        every = [operation, *([codes] if isinstance(codes, int) else []), *statuses]
        return {
            status: OpenApiResponse(
                response=_BASE_BY_STATUS.get(status, ErrorSerializer),
                description=ERROR_DESCRIPTIONS.get(status, "Error."),
            )
            for status in every
        }
    if isinstance(codes, int):
        raise TypeError("error_responses(name, {status: codes}, *statuses): the codes come as a mapping")
    wanted = dict(codes or {})
    for status in statuses:
        wanted[status] = (*wanted.get(status, ()), *_GENERIC_CODES[status])
    return {status: _error_response(operation, status, wanted[status]) for status in sorted(wanted)}


def _error_response(operation: str, status: int, codes: tuple[str, ...]) -> OpenApiResponse:
    """One status of ``error_responses``: a component ``<operation>Error<status>`` whose ``code`` is an enum of
    ``codes``. The serializer keeps ``operation`` and ``codes`` (``error_operation``, ``error_codes``), so that
    ``AutoSchema`` can add the framework's refusals to them."""
    choices = [str(code) for code in dict.fromkeys(codes)]
    # Only the serializers' refusal (``invalid``) names fields: a 400 that cannot carry it has no ``errors``.
    plain_400 = status == 400 and ErrorCode.INVALID not in choices
    base = ErrorSerializer if plain_400 else _BASE_BY_STATUS.get(status, ErrorSerializer)
    description = _PLAIN_400 if plain_400 else ERROR_DESCRIPTIONS.get(status, "Error.")
    if status == 403 and ErrorCode.PERMISSION_DENIED in choices:
        description += _SESSION_CSRF
    serializer = type(
        f"{operation}Error{status}",
        (base,),
        {
            "code": serializers.ChoiceField(choices=choices, help_text="Machine-readable; clients match on it."),
            "__doc__": description,
            "error_operation": operation,
            "error_codes": tuple(choices),
        },
    )
    return OpenApiResponse(response=serializer, description=description)


# --- the refusals the framework makes around every operation ---


UNSAFE_METHODS = ("POST", "PUT", "PATCH", "DELETE")


def framework_refusals(view: APIView, method: str) -> dict[int, tuple[str, ...]]:
    """``{status: codes}`` DRF and the project answer around an operation, whatever its view does:

    - 503 ``service_unavailable``: every operation reads the database (authentication, throttling by user, its
      own work), and a database that cannot be reached is a 503 (``handlers.exception_handler``);
    - 406 ``not_acceptable``: DRF's content negotiation, unless the view answers one type whatever the client
      accepts (the event streams, ``games.api.streams.AsyncAPIView``);
    - 403 ``permission_denied``: DRF's ``SessionAuthentication`` refuses an unsafe method that the session
      cookie authenticates without the CSRF token, on every view that accepts sessions.
    """
    refusals: dict[int, tuple[str, ...]] = {503: _GENERIC_CODES[503]}
    if type(view).perform_content_negotiation is APIView.perform_content_negotiation:
        refusals[406] = _GENERIC_CODES[406]
    sessions = any(isinstance(auth, SessionAuthentication) for auth in view.get_authenticators())
    if method.upper() in UNSAFE_METHODS and sessions:
        refusals[403] = (ErrorCode.PERMISSION_DENIED,)
    return refusals


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's AutoSchema (REST_FRAMEWORK's DEFAULT_SCHEMA_CLASS) that adds ``framework_refusals`` to
    the errors an operation documents with ``error_responses``: merged into the codes of a status it lists, or
    as a status of their own. They are derived from the view, so a view that changes what it accepts changes its
    documentation with it."""

    def get_operation(self, path: str, path_regex: str, path_prefix: str, method: str, registry: Any) -> Any:
        self.method = method.upper()
        if self.is_excluded():
            return super().get_operation(path, path_regex, path_prefix, method, registry)
        declared = self.get_response_serializers()
        operation = _documented_operation(declared)
        if operation is not None:
            refusals = framework_refusals(self.view, method)
            merged = dict(declared)
            for status, codes in refusals.items():
                own = getattr(getattr(declared.get(status), "response", None), "error_codes", ())
                merged[status] = _error_response(operation, status, (*own, *codes))
            # A key is a status, or (status, media type) where an operation answers several types.
            ordered = dict(sorted(merged.items(), key=lambda item: int(str(_first(item[0])))))
            # An instance attribute: drf-spectacular's @extend_schema class answers the declared responses.
            self.get_response_serializers = lambda: ordered  # type: ignore[method-assign]
        return super().get_operation(path, path_regex, path_prefix, method, registry)


def _documented_operation(declared: Any) -> str | None:
    """The name ``error_responses`` was given for these responses, or None where they were not made by it."""
    if not isinstance(declared, dict):
        return None
    for response in declared.values():
        operation = getattr(getattr(response, "response", None), "error_operation", None)
        if operation is not None:
            return operation
    return None


def _first(key: Any) -> Any:
    return key[0] if isinstance(key, tuple) else key


def no_content_responses(
    description: str, operation: str, codes: dict[int, tuple[str, ...]], *statuses: int
) -> dict[int, OpenApiResponse]:
    """``responses`` of an operation that answers 204 with no body (``description`` says what was done) or the
    errors ``error_responses(operation, codes, *statuses)`` documents."""
    return {204: OpenApiResponse(description=description), **error_responses(operation, codes, *statuses)}


SHARED_ERROR = "Error{status}"
"""The component every operation's error of one status shares (``Error404``...); a 400 that names no fields (its
codes do not include ``invalid``) shares ``Refusal400``, which has no ``errors``."""
CODE_HELP = "Machine-readable; clients match on it. The response lists the codes its operation answers."
CODES_EXTENSION = "x-error-codes"
"""A response's list of the codes that operation answers at that status (the shared component's ``code`` enum
holds those of every operation)."""


def errors_shared(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: one error component per status instead of one per operation.

    ``error_responses`` gives each operation's each status its own component (``GamesCreateError400``), so a
    generated client had a class per operation and status, with no common type to catch. Each response now
    refers to the status's shared component (``SHARED_ERROR``), whose ``code`` enum is the union of every
    operation's; the operation's own codes stay on the response, in ``CODES_EXTENSION``. Returns ``result``.
    """
    schemas = result.get("components", {}).get("schemas", {})
    shared: dict[str, dict[str, Any]] = {}
    used: set[str] = set()
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            for status, response in operation.get("responses", {}).items():
                media = response.get("content", {}).get("application/json", {})
                ref = media.get("schema", {}).get("$ref", "")
                own = ref.rsplit("/", 1)[-1]
                if not own.endswith(f"Error{status}") or own == SHARED_ERROR.format(status=status):
                    continue
                component = schemas[own]
                codes = list(component["properties"]["code"].get("enum", ()))
                name = SHARED_ERROR.format(status=status)
                if status == "400" and "errors" not in component["properties"]:
                    name = "Refusal400"
                target = shared.setdefault(name, {**component, "properties": dict(component["properties"])})
                enum = dict.fromkeys([*target["properties"]["code"].get("enum", ()), *codes])
                code = {key: value for key, value in component["properties"]["code"].items() if key != "x-spec-enum-id"}
                target["properties"]["code"] = {**code, "enum": list(enum), "description": CODE_HELP}
                plain = name == "Refusal400"
                target["description"] = _PLAIN_400 if plain else ERROR_DESCRIPTIONS.get(int(status), "Error.")
                media["schema"] = {"$ref": f"#/components/schemas/{name}"}
                response[CODES_EXTENSION] = codes
                used.add(own)
    for own in used:
        schemas.pop(own, None)
    schemas.update(shared)
    result["components"]["schemas"] = dict(sorted(schemas.items()))
    return result
