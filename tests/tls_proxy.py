"""A TLS-terminating TCP proxy in front of a plain-http server, and a throwaway CA, for
the tests of Chroma over https (tests/stores/test_chroma_tls.py).

``chroma run`` serves plain HTTP only; a deployment puts TLS in front of it (nginx, a
load balancer). :class:`TlsProxy` is that front, from the standard library alone
(asyncio + ssl, on a thread of its own): it completes the TLS handshake with the
certificate :func:`make_certificates` signed and pipes the bytes to the server. A client
that speaks plain HTTP to it fails the handshake and is disconnected, as a TLS port does.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import ipaddress
import ssl
import threading
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

__all__ = ["Certificates", "TlsProxy", "make_certificates"]


@dataclass(frozen=True)
class Certificates:
    """PEM files: the CA a client must trust, and the server's certificate and key."""

    ca: Path
    cert: Path
    key: Path


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _alt_name(name: str) -> x509.GeneralName:
    try:
        return x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        return x509.DNSName(name)


def make_certificates(
    folder: Path, names: tuple[str, ...] = ("127.0.0.1", "localhost"), *, expired: bool = False
) -> Certificates:
    """A new CA and a server certificate it signed for ``names`` (host names or addresses;
    valid from an hour ago for a day, or ``expired`` an hour ago), written under ``folder``."""
    now = datetime.datetime.now(datetime.UTC)
    ends = now - datetime.timedelta(hours=1) if expired else now + datetime.timedelta(days=1)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_cert = (
        x509.CertificateBuilder()
        .subject_name(_name("skill-retriever test CA"))
        .issuer_name(_name("skill-retriever test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=3))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True, content_commitment=False, key_encipherment=False, data_encipherment=False,
                key_agreement=False, key_cert_sign=True, crl_sign=True, encipher_only=False, decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(names[0]))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=2 if expired else 0, hours=1))
        .not_valid_after(ends)
        .add_extension(x509.SubjectAlternativeName([_alt_name(n) for n in names]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    out = Certificates(folder / "ca.pem", folder / "server.pem", folder / "server-key.pem")
    out.ca.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    out.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    out.key.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return out


class TlsProxy:
    """TLS on a free loopback port, forwarding each connection to ``127.0.0.1:upstream``.

    :meth:`start` returns once it listens; :meth:`stop` closes it and every connection.
    """

    def __init__(self, upstream: int, certificates: Certificates) -> None:
        self.upstream = upstream
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.load_cert_chain(certificates.cert, certificates.key)
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="tls-proxy", daemon=True)
        self._server: asyncio.Server | None = None
        self._open: set[asyncio.StreamWriter] = set()
        self._serving: set[asyncio.Task[None]] = set()

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def start(self) -> None:
        self._thread.start()
        self._server = asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(timeout=10)
        self.port = int(self._server.sockets[0].getsockname()[1])

    async def _listen(self) -> asyncio.Server:
        return await asyncio.start_server(
            self._serve, "127.0.0.1", 0, ssl=self.context, ssl_handshake_timeout=10
        )

    async def _serve(self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._serving.add(task)
            task.add_done_callback(self._serving.discard)
        try:
            server_in, server_out = await asyncio.open_connection("127.0.0.1", self.upstream)
        except OSError:  # the server is down: the client sees the connection closed
            client_out.close()
            return
        ends = (client_out, server_out)
        self._open.update(ends)
        pipes = {asyncio.ensure_future(_pipe(client_in, server_out)), asyncio.ensure_future(_pipe(server_in, client_out))}
        # Either end closing closes both (HTTP clients never half-close): a client kept on
        # a connection the server dropped would wait for an answer that never comes.
        await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
        for writer in ends:
            writer.close()
            self._open.discard(writer)
        await asyncio.wait(pipes)

    def stop(self) -> None:
        """Stop listening and close every connection."""

        async def close() -> None:
            if self._server is not None:
                self._server.close()
            for writer in list(self._open):
                writer.transport.abort()  # ends both pipes of its connection, not cancelled
            if self._serving:
                await asyncio.wait(set(self._serving), timeout=5)

        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(close(), self._loop).result(timeout=10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
        self._loop.close()


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    """Copy ``source`` to ``sink`` until either end closes (a reset ends it the same way)."""
    with contextlib.suppress(ConnectionError, ssl.SSLError, OSError):
        while data := await source.read(65536):
            sink.write(data)
            await sink.drain()
