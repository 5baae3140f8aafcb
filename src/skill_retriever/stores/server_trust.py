"""Which certificates a Chroma server's https is checked against: one rule for the
heartbeat that bounds the first request (``chroma_connect._answers_in_time``) and for chromadb's
``HttpClient``, so the two never disagree about a server.

chromadb builds its HTTP session with ``verify=chroma_server_ssl_verify`` when its
``Settings`` have one (``CHROMA_SERVER_SSL_VERIFY`` in the environment or a ``.env`` file:
a CA bundle file or folder), else with its HTTP library's default, which trusts the CA
bundle ``SSL_CERT_FILE`` names (PEM), else the folder ``SSL_CERT_DIR`` names, else
certifi's bundle: never the system's store, nor ``REQUESTS_CA_BUNDLE``. :func:`ssl_trust`
builds that same context for the heartbeat. It also checks the setting up front: the
library reads it for every client, plain http too, and a path that names no bundle failed
deep inside it ("FileNotFoundError", or a TLS error that blamed the server).
"""

from __future__ import annotations

import os
import ssl
from typing import Any

from skill_retriever.exceptions import ConfigError

__all__ = ["TrustSettingError", "ssl_trust", "trust_advice"]


class TrustSettingError(ConfigError):
    """A CA setting that names no usable bundle: ``what`` is wrong, ``todo`` says what to do."""

    def __init__(self, what: str, todo: str) -> None:
        super().__init__(f"{what}; {todo}")
        self.what, self.todo = what, todo


def _context(name: str, path: str) -> ssl.SSLContext:
    try:
        if os.path.isdir(path):
            return ssl.create_default_context(capath=path)
        return ssl.create_default_context(cafile=path)
    except (OSError, ssl.SSLError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise TrustSettingError(
            f"{name}={path} names no CA bundle that can be read ({why})",
            f"point {name} at the CA bundle (a PEM file) that signed the Chroma server's certificate, or unset it",
        ) from exc


def ssl_trust(settings: Any) -> ssl.SSLContext | bool:
    """What chromadb's client, built with ``settings``, verifies a server's certificate
    with: ``False`` (no check), or the context of the bundle the settings or environment
    name; ``True`` is the HTTP library's default (certifi's bundle).

    Raises:
        TrustSettingError: The bundle named cannot be read or holds no certificate.
    """
    verify = getattr(settings, "chroma_server_ssl_verify", None)
    if isinstance(verify, bool):
        return verify
    if verify is not None:
        return _context("CHROMA_SERVER_SSL_VERIFY", str(verify))
    for name in ("SSL_CERT_FILE", "SSL_CERT_DIR"):  # the HTTP library's order (with trust_env, its default)
        if os.environ.get(name):
            return _context(name, os.environ[name])
    return True


def trust_advice() -> str:
    """What to do when a server's certificate is not trusted, naming the setting in force."""
    if os.environ.get("CHROMA_SERVER_SSL_VERIFY"):
        return (
            f"point CHROMA_SERVER_SSL_VERIFY (now {os.environ['CHROMA_SERVER_SSL_VERIFY']}) at the CA bundle "
            "(a PEM file) that signed the server's certificate"
        )
    now = f" (now {os.environ['SSL_CERT_FILE']}, which did not sign it)" if os.environ.get("SSL_CERT_FILE") else ""
    return f"set SSL_CERT_FILE{now} to the CA bundle (a PEM file) that signed the server's certificate, and run again"
