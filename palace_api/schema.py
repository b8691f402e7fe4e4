"""Post-processing of the OpenAPI schema (drf-spectacular's POSTPROCESSING_HOOKS)."""

from __future__ import annotations

from typing import Any


def token_schemes_either(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Make ``bearerAuth`` and ``tokenAuth`` alternatives, not both at once.

    ``players.auth.TokenScheme`` declares two schemes for one authenticator, and drf-spectacular lists the
    names of such an extension in one security requirement, which OpenAPI reads as "all of them". Either
    ``Authorization: Bearer <token>`` or ``Authorization: Token <token>`` does, so each gets a requirement of
    its own. Returns ``result``, changed in place.
    """
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "security" not in operation:
                continue
            split: list[dict[str, Any]] = []
            for requirement in operation["security"]:
                # An empty requirement ({}: no authentication needed) stays as it is.
                split.extend([{name: scopes} for name, scopes in requirement.items()] or [requirement])
            operation["security"] = split
    return result
