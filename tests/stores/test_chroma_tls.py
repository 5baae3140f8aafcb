"""Chroma over https, against a real `chroma run` server behind a TLS proxy
(tests/tls_proxy.py) whose certificate a throwaway CA signed.

- The CA trusted (``SSL_CERT_FILE``): ``index``, ``query``, ``stats`` and a second process
  answer as the same index does over plain http, and as an embedded one.
- The CA not trusted: one line saying the server's certificate is not trusted and which
  setting to point at the CA bundle, exit 2, and nothing written to the index folder.
- ``http://`` to the TLS port, ``https://`` to the plain one: one line each, at once.
- The heartbeat that bounds the first request and chromadb's client trust the same CAs,
  whichever setting names them (``stores.server_trust``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from files import write_file
from tls_proxy import Certificates, TlsProxy, make_certificates

from skill_retriever.cli import main
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.server_trust import ssl_trust
from skill_retriever.stores.vectors import chroma_client

#: Settings that name the CAs to trust; each test sets the ones it means (the machine's
#: own environment names its system bundle in several of them).
TRUST_SETTINGS = ("SSL_CERT_FILE", "SSL_CERT_DIR", "CHROMA_SERVER_SSL_VERIFY")
SKILLS = {
    "pg": "postgres migrations checked before each deploy",
    "dk": "docker image builds with layer caching",
    "gh": "github pull request review comments",
    "k8": "kubernetes rollout status and rollback",
    "py": "python type checks with mypy in CI",
}
QUERIES = ("postgres migration before deploy", "review a pull request", "roll back a kubernetes deploy")


@dataclass(frozen=True)
class Tls:
    """The plain server, the TLS proxy in front of it, and the CA that signed its certificate."""

    http: str
    https: str
    certs: Certificates
    other_ca: Path  # a CA that signed nothing the server shows


@pytest.fixture(scope="module")
def tls(url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tls]:
    certs = make_certificates(tmp_path_factory.mktemp("certs"))
    other = make_certificates(tmp_path_factory.mktemp("other-certs")).ca
    proxy = TlsProxy(int(url.rsplit(":", 1)[1]), certs)
    proxy.start()
    try:
        yield Tls(url, proxy.url, certs, other)
    finally:
        proxy.stop()


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sources") / "repo"
    for name, text in SKILLS.items():
        write_file(root, f"skills/{name}/SKILL.md", f"---\nname: {name}\ndescription: {text}\n---\n{text}\n")
    return root


def _trusting(monkeypatch: pytest.MonkeyPatch, **settings: str) -> None:
    for name in TRUST_SETTINGS:
        monkeypatch.delenv(name, raising=False)
    for name, value in settings.items():
        monkeypatch.setenv(name, value)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _index(capsys: pytest.CaptureFixture[str], repo: Path, where: Path, *url: str) -> tuple[int, str]:
    code, _, err = _cli(capsys, "index", str(repo), "--index-dir", str(where), "--embedder", "hashing-64", *url)
    return code, err


def _answers(capsys: pytest.CaptureFixture[str], where: Path, *extra: str) -> list[list[tuple[Any, ...]]]:
    out = []
    for query in QUERIES:
        code, text, err = _cli(capsys, "query", query, "--index-dir", str(where), "--json", *extra)
        assert code == 0 and "searching the vectors" not in err, err  # through the server, not in memory
        out.append([(r["id"], r["score"], r["fusion_score"], r["channels"]) for r in json.loads(text)["results"]])
    return out


def _one_line(text: str) -> str:
    line = text.strip()
    assert "\n" not in line and "Traceback" not in line and len(line) < 600, text
    return line


@pytest.fixture(scope="module")
def https_index(tls: Tls, repo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index kept on the server through https (built with the CA trusted)."""
    where = tmp_path_factory.mktemp("https") / "ix"
    with pytest.MonkeyPatch.context() as mp:
        _trusting(mp, SSL_CERT_FILE=str(tls.certs.ca))
        assert main(["index", str(repo), "--index-dir", str(where), "--embedder", "hashing-64", "--chroma-url", tls.https]) == 0
    assert mf.read_manifest(where)["chroma_url"] == tls.https
    return where


def test_with_the_ca_trusted_https_answers_as_http_and_embedded_do(
    tls: Tls, repo: Path, https_index: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    _trusting(monkeypatch, SSL_CERT_FILE=str(tls.certs.ca))
    assert _index(capsys, repo, tmp_path / "plain", "--chroma-url", tls.http)[0] == 0
    assert _index(capsys, repo, tmp_path / "embedded")[0] == 0
    over_https = _answers(capsys, https_index)
    assert over_https == _answers(capsys, tmp_path / "plain") == _answers(capsys, tmp_path / "embedded")
    assert all(over_https) and over_https[0][0][0] == "repo/skills/pg/SKILL.md"

    code, out, _ = _cli(capsys, "stats", "--index-dir", str(https_index), "--json")
    server = json.loads(out)["server"]
    assert code == 0 and server["url"] == tls.https and server["reachable"] is True
    assert sorted(server["collections"].values()) == [0, len(SKILLS)]  # edges, nodes
    code, out, _ = _cli(capsys, "stats", "--index-dir", str(https_index))
    assert code == 0 and f"server: {tls.https} holds" in out

    # A second process, told of the CA the same way, reads the same answers through https.
    env = {k: v for k, v in os.environ.items() if k not in TRUST_SETTINGS}
    env["SSL_CERT_FILE"] = str(tls.certs.ca)
    other = subprocess.run(
        [sys.executable, "-m", "skill_retriever.cli", "query", QUERIES[0], "--index-dir", str(https_index), "--json"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )
    assert other.returncode == 0, other.stderr
    assert "searching the vectors" not in other.stderr
    got = [(r["id"], r["score"], r["fusion_score"], r["channels"]) for r in json.loads(other.stdout)["results"]]
    assert got == over_https[0]


def test_an_untrusted_certificate_is_one_line_saying_what_to_set(
    tls: Tls, repo: Path, https_index: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    _trusting(monkeypatch)  # httpx's default: certifi's bundle, which never signed the test CA
    fresh = tmp_path / "fresh"
    code, err = _index(capsys, repo, fresh, "--chroma-url", tls.https)
    line = _one_line(err)
    assert code == 2 and "the server's certificate is not trusted" in line, line
    assert "set SSL_CERT_FILE to the CA bundle (a PEM file) that signed the server's certificate" in line
    assert not fresh.exists()  # a new index never names a server it could not use

    assert _index(capsys, repo, tmp_path / "embedded")[0] == 0
    before = (tmp_path / "embedded" / mf.MANIFEST).read_bytes()
    code, err = _index(capsys, repo, tmp_path / "embedded", "--chroma-url", tls.https)
    assert code == 2 and "not trusted" in _one_line(err)
    assert (tmp_path / "embedded" / mf.MANIFEST).read_bytes() == before  # nor an existing one

    code, _, err = _cli(capsys, "query", QUERIES[0], "--index-dir", str(https_index))
    assert code == 2 and "not trusted" in _one_line(err) and "SSL_CERT_FILE" in err
    code, out, _ = _cli(capsys, "stats", "--index-dir", str(https_index))
    line = _one_line(next(x for x in out.splitlines() if x.startswith("server:")))
    assert code == 0 and "certificate is not trusted" in line and "SSL_CERT_FILE" in line
    code, _, err = _cli(capsys, "move-to-server", "--index-dir", str(https_index), "--chroma-url", tls.https)
    assert code == 2 and "not trusted" in _one_line(err)

    # A bundle that did not sign it is named; one that cannot be read is refused up front.
    monkeypatch.setenv("SSL_CERT_FILE", str(tls.other_ca))
    code, _, err = _cli(capsys, "query", QUERIES[0], "--index-dir", str(https_index))
    assert code == 2 and f"set SSL_CERT_FILE (now {tls.other_ca}, which did not sign it)" in _one_line(err)
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "no-such.pem"))
    code, _, err = _cli(capsys, "query", QUERIES[0], "--index-dir", str(https_index))
    line = _one_line(err)
    assert code == 2 and f"SSL_CERT_FILE={tmp_path / 'no-such.pem'} names no CA bundle that can be read" in line
    assert "point SSL_CERT_FILE at the CA bundle" in line


def test_an_untrusted_certificate_in_a_second_process_is_one_line(tls: Tls, https_index: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in TRUST_SETTINGS}
    other = subprocess.run(
        [sys.executable, "-m", "skill_retriever.cli", "query", QUERIES[0], "--index-dir", str(https_index)],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )
    assert other.returncode == 2 and other.stdout == ""
    assert "the server's certificate is not trusted" in _one_line(other.stderr)


def test_the_wrong_scheme_for_a_port_is_named_at_once(
    tls: Tls, https_index: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _trusting(monkeypatch, SSL_CERT_FILE=str(tls.certs.ca))
    tls_port, plain_port = tls.https.rsplit(":", 1)[1], tls.http.rsplit(":", 1)[1]
    wrong = {
        f"http://127.0.0.1:{tls_port}": (
            "closed the connection without answering plain HTTP, as a port that serves TLS does",
            f"use https://127.0.0.1:{tls_port}",
        ),
        f"https://127.0.0.1:{plain_port}": ("speaks plain HTTP", f"use http://127.0.0.1:{plain_port}"),
    }
    for bad, says in wrong.items():
        started = time.monotonic()
        code, _, err = _cli(capsys, "query", QUERIES[0], "--index-dir", str(https_index), "--chroma-url", bad)
        line = _one_line(err)
        assert code == 2 and all(s in line for s in says), line
        assert time.monotonic() - started < 15  # no wait for the 30 s request timeout
        code, out, _ = _cli(capsys, "stats", "--index-dir", str(https_index), "--chroma-url", bad, "--json")
        server = json.loads(out)["server"]
        assert code == 0 and server["reachable"] is False and says[0] in server["error"]
    assert mf.read_manifest(https_index)["chroma_url"] == tls.https  # a reader never rewrites it


@pytest.mark.parametrize(
    ("names", "expired", "says"),
    [
        (("localhost",), False, "the server's certificate is not for 127.0.0.1"),
        (("127.0.0.1",), True, "the server's certificate is not valid now (certificate has expired)"),
    ],
    ids=["another-host", "expired"],
)
def test_a_certificate_for_another_host_or_out_of_date_says_so(
    tls: Tls, https_index: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch, names: tuple[str, ...], expired: bool, says: str,
) -> None:
    certs = make_certificates(tmp_path / "certs", names, expired=expired)
    proxy = TlsProxy(int(tls.http.rsplit(":", 1)[1]), certs)
    proxy.start()
    try:
        _trusting(monkeypatch, SSL_CERT_FILE=str(certs.ca))  # its CA is trusted: not the problem
        code, _, err = _cli(capsys, "query", QUERIES[0], "--index-dir", str(https_index), "--chroma-url", proxy.url)
    finally:
        proxy.stop()
    line = _one_line(err)
    assert code == 2 and says in line, line
    assert "SSL_CERT_FILE" not in line  # trusting another CA would not help


# chromadb hands CHROMA_SERVER_SSL_VERIFY's path to httpx as it is, which warns about it.
@pytest.mark.filterwarnings("ignore:`verify=<str>` is deprecated:DeprecationWarning")
@pytest.mark.parametrize(
    "setting",
    [{}, {"SSL_CERT_FILE": "ca"}, {"SSL_CERT_DIR": "ca-dir"}, {"CHROMA_SERVER_SSL_VERIFY": "ca"},
     {"SSL_CERT_FILE": "ca", "CHROMA_SERVER_SSL_VERIFY": "other-ca"}],
    ids=["certifi", "SSL_CERT_FILE", "SSL_CERT_DIR", "CHROMA_SERVER_SSL_VERIFY", "chroma-setting-first"],
)
def test_the_heartbeat_trusts_what_the_client_trusts(
    tls: Tls, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: dict[str, str]
) -> None:
    from chromadb.config import Settings

    ca_dir = tmp_path / "ca-dir"
    ca_dir.mkdir()
    subject_hash = subprocess.run(
        ["openssl", "x509", "-hash", "-noout", "-in", str(tls.certs.ca)], capture_output=True, text=True, check=False
    ).stdout.strip()
    if setting.get("SSL_CERT_DIR") and not subject_hash:
        pytest.skip("openssl is not installed: no hashed CA folder for SSL_CERT_DIR")
    (ca_dir / f"{subject_hash or 'none'}.0").write_bytes(tls.certs.ca.read_bytes())
    paths = {"ca": str(tls.certs.ca), "ca-dir": str(ca_dir), "other-ca": str(tls.other_ca)}
    _trusting(monkeypatch, **{name: paths[value] for name, value in setting.items()})
    monkeypatch.chdir(tmp_path)  # chromadb's Settings also read a .env file here
    verify = ssl_trust(Settings())  # what our heartbeat verifies with
    try:
        heartbeat_ok = httpx.get(f"{tls.https}/api/v2/heartbeat", verify=verify, timeout=10).status_code == 200
    except httpx.ConnectError:
        heartbeat_ok = False
    try:
        client_ok = chroma_client(tls.https).heartbeat() > 0
    except ValueError:  # chromadb's wrapping of every connection failure
        client_ok = False
    assert client_ok == heartbeat_ok
    # Only the test CA trusts the proxy: the setting in force decides, chromadb's own first.
    assert client_ok is (bool(setting) and setting.get("CHROMA_SERVER_SSL_VERIFY", "ca") == "ca")
