"""What to do when a Chroma server refuses a request for want of credentials (HTTP 401
or 403): a server behind an authenticating proxy, or Chroma Cloud.

This package passes no credentials of its own: chromadb's ``HttpClient`` sends them when
its ``Settings`` name a client auth provider, and those settings are read from the
environment (or a ``.env`` file) by every process that opens the index, as
``CHROMA_CLIENT_AUTH_PROVIDER`` and ``CHROMA_CLIENT_AUTH_CREDENTIALS`` (with
``CHROMA_AUTH_TOKEN_TRANSPORT_HEADER`` to send a token as ``X-Chroma-Token`` rather than
``Authorization: Bearer``). Telling the user to start a server that already answered, as
any other HTTP error is told, sent them the wrong way.
"""

from __future__ import annotations

from typing import Any

from skill_retriever.exceptions import ConfigError

__all__ = ["AUTH_STATUSES", "AuthSettingError", "check_provider", "credentials_advice", "credentials_in_address"]

#: HTTP statuses that mean the server wants credentials it was not given, or refused them.
AUTH_STATUSES = (401, 403)

class AuthSettingError(ConfigError):
    """An auth provider setting that names no class: ``what`` is wrong, ``todo`` says what to do."""

    def __init__(self, what: str, todo: str) -> None:
        super().__init__(f"{what}; {todo}")
        self.what, self.todo = what, todo


_TOKEN = "chromadb.auth.token_authn.TokenAuthClientProvider"
_BASIC = "chromadb.auth.basic_authn.BasicAuthClientProvider"


def _provider() -> str | None:
    """The client auth provider chromadb's settings name now (the environment, or ``.env``)."""
    from chromadb.config import Settings

    settings: Any = Settings()
    found = getattr(settings, "chroma_client_auth_provider", None)
    return str(found) if found else None


def check_provider(settings: Any) -> None:
    """Refuse a ``CHROMA_CLIENT_AUTH_PROVIDER`` that names no class chromadb can load: it
    failed inside chromadb's client as "not enough values to unpack" or an import error.

    Raises:
        AuthSettingError: The setting is no ``module.Class`` that imports.
    """
    import importlib

    fqn = getattr(settings, "chroma_client_auth_provider", None)
    if not fqn:
        return
    module, _, name = str(fqn).rpartition(".")
    try:
        found = bool(module) and hasattr(importlib.import_module(module), name)
    except ImportError:
        found = False
    if not found:
        raise AuthSettingError(
            f"CHROMA_CLIENT_AUTH_PROVIDER={fqn} names no class chromadb can load",
            f"give a provider's full name, {_TOKEN} (a token) or {_BASIC} (<user>:<password>), or unset it for a "
            "server that asks for none",
        )
    _check_credentials(settings, str(fqn), getattr(importlib.import_module(module), name))


def _check_credentials(settings: Any, fqn: str, provider: Any) -> None:
    """Refuse what the provider itself refuses (no CHROMA_CLIENT_AUTH_CREDENTIALS, a token
    chromadb will not send, an unknown CHROMA_AUTH_TOKEN_TRANSPORT_HEADER): its ValueError
    came out of chromadb's client and was told as the server's fault, with the advice to
    start a server that was running. The provider is built as the client builds it, on the
    same settings; it sends nothing.

    Raises:
        AuthSettingError: The provider refused the settings (its own words).
    """
    from chromadb.config import System

    try:
        provider(System(settings))
    except ValueError as exc:
        raise AuthSettingError(
            f"chromadb refused the auth settings of CHROMA_CLIENT_AUTH_PROVIDER={fqn} ({exc})",
            "set CHROMA_CLIENT_AUTH_CREDENTIALS to the server's token (ASCII letters, digits and punctuation, no spaces) "
            f"or, with {_BASIC}, to <user>:<password>; CHROMA_AUTH_TOKEN_TRANSPORT_HEADER is Authorization (the default) "
            "or X-Chroma-Token; or unset CHROMA_CLIENT_AUTH_PROVIDER for a server that asks for none",
        ) from exc


def credentials_advice() -> str:
    """What to do about a refusal, naming the setting in force when there is one."""
    provider = _provider()
    if provider:
        return (
            f"the credentials CHROMA_CLIENT_AUTH_CREDENTIALS gives ({provider}) were refused: check them, and "
            "CHROMA_AUTH_TOKEN_TRANSPORT_HEADER (Authorization or X-Chroma-Token) if the server reads the other header"
        )
    return (
        f"give every process that opens the index the server's credentials through chromadb's own settings: "
        f"CHROMA_CLIENT_AUTH_PROVIDER={_TOKEN} and CHROMA_CLIENT_AUTH_CREDENTIALS=<token> (sent as "
        "`Authorization: Bearer <token>`; CHROMA_AUTH_TOKEN_TRANSPORT_HEADER=X-Chroma-Token sends it in that header), "
        f"or CHROMA_CLIENT_AUTH_PROVIDER={_BASIC} with <user>:<password>"
    )


def credentials_in_address(fix: str) -> str:
    """What to do instead of writing a ``user:password@`` into a server address, which
    chromadb's client never sends; ``fix`` says where the address goes without it."""
    return (
        f"{fix} instead, and give every process that opens the index the credentials "
        f"through chromadb's own settings: CHROMA_CLIENT_AUTH_PROVIDER={_BASIC} and "
        f"CHROMA_CLIENT_AUTH_CREDENTIALS=<user>:<password> (a token: CHROMA_CLIENT_AUTH_PROVIDER={_TOKEN}; "
        "README, Scaling)"
    )
