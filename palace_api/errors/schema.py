"""The API's error shape in the OpenAPI schema: ``ErrorSerializer`` and ``error_responses``.

Views list the errors each operation answers beside its success responses, with the codes each status carries as
an enum::

    @extend_schema(responses={201: GameOut, **error_responses("GamesCreate", {400: ("invalid",)}, 401, 429)})

400 with ``invalid`` carries ``errors``, 429 ``retry_after``, 413 ``limit``. In the served schema every operation's
error of one status is one component (``Error409``; ``errors_shared``), the operation's codes listed on its
response (``x-error-codes``). The token schemes (``Bearer`` and
``Token``) reach the schema through ``players.auth.TokenScheme``.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

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

# Codes every operation may answer with at a status, whatever it does.
_GENERIC_CODES: dict[int, tuple[str, ...]] = {
    401: (ErrorCode.NOT_AUTHENTICATED, ErrorCode.AUTHENTICATION_FAILED),
    405: (ErrorCode.METHOD_NOT_ALLOWED,),
    413: (ErrorCode.PAYLOAD_TOO_LARGE,),
    415: (ErrorCode.UNSUPPORTED_MEDIA_TYPE,),
    429: (ErrorCode.THROTTLED,),
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
    ``codes``: status -> the codes the operation raises at it; ``statuses``: further statuses whose codes are
    generic (401, 405, 413, 415, 429). Each status gets its own component whose ``code`` is an enum of those
    codes, on the right base: ``errors`` on a 400 that lists ``invalid``, ``retry_after`` on 429, ``limit`` on
    413.

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
        wanted.setdefault(status, _GENERIC_CODES[status])
    responses = {}
    for status in sorted(wanted):
        choices = [str(code) for code in dict.fromkeys(wanted[status])]
        # Only the serializers' refusal (``invalid``) names fields: a 400 that cannot carry it has no ``errors``.
        plain_400 = status == 400 and ErrorCode.INVALID not in choices
        base = ErrorSerializer if plain_400 else _BASE_BY_STATUS.get(status, ErrorSerializer)
        description = _PLAIN_400 if plain_400 else ERROR_DESCRIPTIONS.get(status, "Error.")
        serializer = type(
            f"{operation}Error{status}",
            (base,),
            {
                "code": serializers.ChoiceField(choices=choices, help_text="Machine-readable; clients match on it."),
                "__doc__": description,
            },
        )
        responses[status] = OpenApiResponse(response=serializer, description=description)
    return responses


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
