"""Pytest plugin: fail any test that opens a non-loopback network connection.

Load it from the top-level ``tests/conftest.py`` with ``pytest_plugins = ["network_guard"]``
(``tests/`` on ``sys.path`` through ``pythonpath = ["tests"]`` in pyproject.toml).

When pytest configures, ``socket.socket.connect``, ``connect_ex``, ``sendto`` and
``socket.getaddrinfo`` are wrapped: a destination outside 127.0.0.0/8, ``::1`` and
``localhost`` (``AF_UNIX`` paths are fine) is refused with :class:`NetworkBlockedError`
(an ``OSError``, so libraries see "no network" and take their offline path; a name
lookup gets ``socket.gaierror``) and recorded; the next test to finish fails at teardown,
even when the library swallowed the error. ``socket.create_connection`` and asyncio go
through these calls, so they are covered too.

What it cannot see: native code that opens sockets without Python's ``socket`` module
(Chroma's Rust core, tokenizers). ``test_no_network.py`` checks those from the outside
with ``strace`` when it is installed.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest

_LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})


class NetworkBlockedError(OSError):
    """A test tried to reach a non-loopback address."""


class _Guard:
    def __init__(self) -> None:
        self.attempts: list[str] = []
        self.lock = threading.Lock()
        self.installed = False
        self._originals: dict[str, Any] = {}
        self._wrappers: dict[str, Any] = {}

    def install(self) -> None:
        """Wrap the socket calls; again if another plugin put its own back (pytest-socket
        restores ``socket.socket.connect`` after every test)."""
        if self._wrappers:
            for name, wrapper in self._wrappers.items():
                owner: Any = socket if name == "getaddrinfo" else socket.socket
                if getattr(owner, name) is not wrapper:
                    self._originals[name] = getattr(owner, name)
                    setattr(owner, name, wrapper)
            return
        cls = socket.socket
        for name in ("connect", "connect_ex", "sendto"):
            self._originals[name] = getattr(cls, name)
        self._originals["getaddrinfo"] = socket.getaddrinfo
        guard = self

        def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
            if host not in (None, "", b"") and not allowed(socket.AF_INET, (host, 0)):
                guard.record(f"name lookup of {host!r}")
                raise socket.gaierror(socket.EAI_NONAME, f"network access blocked in tests: lookup of {host!r}")
            return guard._originals["getaddrinfo"](host, *args, **kwargs)

        def connect(sock: socket.socket, address: Any) -> Any:
            guard.check(sock, address, "connect")
            return guard._originals["connect"](sock, address)

        def connect_ex(sock: socket.socket, address: Any) -> Any:
            guard.check(sock, address, "connect_ex")
            return guard._originals["connect_ex"](sock, address)

        def sendto(sock: socket.socket, data: Any, *args: Any) -> Any:
            guard.check(sock, args[-1], "sendto")
            return guard._originals["sendto"](sock, data, *args)

        self._wrappers = {"connect": connect, "connect_ex": connect_ex, "sendto": sendto, "getaddrinfo": getaddrinfo}
        for name, wrapper in self._wrappers.items():
            setattr(socket if name == "getaddrinfo" else cls, name, wrapper)
        self.installed = True

    def uninstall(self) -> None:
        for name, original in self._originals.items():
            setattr(socket if name == "getaddrinfo" else socket.socket, name, original)
        self._wrappers = {}
        self.installed = False

    def record(self, what: str) -> None:
        with self.lock:
            self.attempts.append(what)

    def check(self, sock: socket.socket, address: Any, how: str) -> None:
        if allowed(sock.family, address):
            return
        where = f"{how} to {address!r}"
        self.record(where)
        raise NetworkBlockedError(f"network access blocked in tests: {where} (only loopback is allowed)")

    def take(self) -> list[str]:
        with self.lock:
            found, self.attempts = self.attempts, []
        return found


def allowed(family: int, address: Any) -> bool:
    """Loopback and Unix sockets only."""
    if getattr(socket, "AF_UNIX", None) is not None and family == socket.AF_UNIX:
        return True
    host = address[0] if isinstance(address, tuple) and address else address
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    if host.lower().rstrip(".") in _LOCAL_NAMES:
        return True
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False  # any other host name would need DNS, i.e. the network
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


GUARD = _Guard()


def pytest_configure(config: pytest.Config) -> None:
    GUARD.install()


@pytest.fixture(autouse=True)
def _no_network() -> Iterator[None]:
    """Fails a test that tried to leave the machine (or whose fixtures did)."""
    GUARD.install()
    yield
    tried = GUARD.take()
    if tried:
        pytest.fail(
            "the test tried to open non-loopback network connections: " + "; ".join(tried[:5]),
            pytrace=False,
        )
