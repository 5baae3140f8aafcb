"""A Chroma server that asks for credentials, against a real `chroma run` server behind a
proxy that checks a token (tests/auth_proxy.py), as a deployment or Chroma Cloud asks.

- No credentials: one line saying the server refused the request for want of them and
  which of chromadb's settings give them (it said to start the server, which answered),
  exit 2, and nothing written; the same for the HTML page a proxy such as nginx sends.
- The token in chromadb's settings (the environment): ``index``, ``query`` and ``stats``
  work through the proxy, sent as ``Authorization: Bearer`` or as ``X-Chroma-Token``.
- A wrong token: the line says the credentials given were refused.
- A provider setting that names no class: one line naming the setting (chromadb failed
  with "not enough values to unpack").
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from auth_proxy import AuthProxy
from cli_calls import run
from files import write_file

from skill_retriever.stores import manifest as mf

TOKEN = "s3cret-token"
PROVIDER = "chromadb.auth.token_authn.TokenAuthClientProvider"
AUTH_SETTINGS = ("CHROMA_CLIENT_AUTH_PROVIDER", "CHROMA_CLIENT_AUTH_CREDENTIALS", "CHROMA_AUTH_TOKEN_TRANSPORT_HEADER")
SKILLS = {"pg": "postgres migrations checked before each deploy", "dk": "docker image builds with layer caching"}


@pytest.fixture(scope="module")
def proxy(url: str) -> Iterator[AuthProxy]:
    found = AuthProxy(url, TOKEN)
    try:
        yield found
    finally:
        found.close()


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sources") / "repo"
    for name, text in SKILLS.items():
        write_file(root, f"skills/{name}/SKILL.md", f"---\nname: {name}\ndescription: {text}\n---\n{text}\n")
    return root


def _auth(monkeypatch: pytest.MonkeyPatch, **settings: str) -> None:
    for name in AUTH_SETTINGS:
        monkeypatch.delenv(name, raising=False)
    for name, value in settings.items():
        monkeypatch.setenv(name, value)


def _one_line(text: str) -> str:
    line = text.strip()
    assert "\n" not in line and "Traceback" not in line and "<html" not in line.lower() and len(line) < 700, text
    return line


def _index(capsys: pytest.CaptureFixture[str], repo: Path, where: Path, server: str) -> tuple[int, str]:
    code, _, err = run(capsys, "index", repo, "--index-dir", where, "--embedder", "hashing-64", "--chroma-url", server)
    return code, err


@pytest.mark.parametrize("html", [False, True], ids=["chroma-json", "proxy-html"])
def test_no_credentials_names_the_settings_and_writes_nothing(
    url: str, repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    html: bool,
) -> None:
    _auth(monkeypatch)
    guard = AuthProxy(url, TOKEN, html=html)
    try:
        code, err = _index(capsys, repo, tmp_path / "ix", guard.url)
    finally:
        guard.close()
    line = _one_line(err)
    assert code == 2 and guard.refused, err
    assert "refused the request without valid credentials (HTTP 401" in line, line
    assert f"CHROMA_CLIENT_AUTH_PROVIDER={PROVIDER}" in line and "CHROMA_CLIENT_AUTH_CREDENTIALS=<token>" in line
    assert "chroma run" not in line and "not as a Chroma server" not in line  # it runs, and is one
    assert not (tmp_path / "ix" / mf.MANIFEST).exists()


def test_a_token_in_chromadb_settings_reaches_the_server(
    url: str, proxy: AuthProxy, repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _auth(monkeypatch, CHROMA_CLIENT_AUTH_PROVIDER=PROVIDER, CHROMA_CLIENT_AUTH_CREDENTIALS=TOKEN)
    where = tmp_path / "ix"
    code, err = _index(capsys, repo, where, proxy.url)
    assert code == 0, err
    code, out, err = run(capsys, "query", "postgres migration before deploy", "--index-dir", where, "--json")
    assert code == 0 and "searching the vectors" not in err, err  # through the server, not in memory
    assert json.loads(out)["results"][0]["id"].endswith("pg/SKILL.md")
    code, out, _ = run(capsys, "stats", "--index-dir", where, "--json")
    server = json.loads(out)["server"]
    assert code == 0 and server["reachable"] and set(server["collections"].values()) == {2, 0}, server

    # the same collections, as X-Chroma-Token
    monkeypatch.setenv("CHROMA_AUTH_TOKEN_TRANSPORT_HEADER", "X-Chroma-Token")
    code, out, err = run(capsys, "stats", "--index-dir", where, "--json")
    assert code == 0 and json.loads(out)["server"]["reachable"], out

    # a wrong token: the credentials given were refused, and nothing changes
    monkeypatch.setenv("CHROMA_CLIENT_AUTH_CREDENTIALS", "not-the-token")
    before = (where / mf.MANIFEST).read_bytes()
    code, _, err = run(capsys, "query", "review a pull request", "--index-dir", where)
    line = _one_line(err)
    assert code == 2 and "CHROMA_CLIENT_AUTH_CREDENTIALS gives" in line and "were refused: check them" in line, line
    assert (where / mf.MANIFEST).read_bytes() == before


def test_a_provider_that_names_no_class_is_named(
    proxy: AuthProxy, tmp_path: Path, repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _auth(monkeypatch, CHROMA_CLIENT_AUTH_PROVIDER=PROVIDER, CHROMA_CLIENT_AUTH_CREDENTIALS=TOKEN)
    where = tmp_path / "ix"
    assert _index(capsys, repo, where, proxy.url)[0] == 0
    monkeypatch.setenv("CHROMA_CLIENT_AUTH_PROVIDER", "token")
    code, _, err = run(capsys, "query", "docker layer caching", "--index-dir", where)
    line = _one_line(err)
    assert code == 2 and "CHROMA_CLIENT_AUTH_PROVIDER=token names no class chromadb can load" in line, line
    assert PROVIDER in line and "unpack" not in line
    code, out, _ = run(capsys, "stats", "--index-dir", where)
    held = next(x for x in out.splitlines() if x.startswith("server:"))
    assert code == 0 and "CHROMA_CLIENT_AUTH_PROVIDER=token names no class" in held and "chroma run" not in held, held


@pytest.mark.parametrize(
    ("settings", "said"),
    [
        ({"CHROMA_CLIENT_AUTH_PROVIDER": PROVIDER}, "Missing required config value 'chroma_client_auth_credentials'"),
        (
            {"CHROMA_CLIENT_AUTH_PROVIDER": PROVIDER, "CHROMA_CLIENT_AUTH_CREDENTIALS": "two words"},
            "Invalid token",
        ),
        (
            {"CHROMA_CLIENT_AUTH_PROVIDER": PROVIDER, "CHROMA_CLIENT_AUTH_CREDENTIALS": TOKEN,
             "CHROMA_AUTH_TOKEN_TRANSPORT_HEADER": "X-Token"},
            "Invalid token transport header: X-Token",
        ),
    ],
    ids=["no-credentials", "token-with-a-space", "unknown-header"],
)
def test_auth_settings_chromadb_refuses_are_named_not_the_server(
    proxy: AuthProxy, tmp_path: Path, repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    settings: dict[str, str], said: str,
) -> None:
    """A provider without its credentials (or with a token or header chromadb refuses)
    failed inside chromadb's client as a ValueError, which was told as the server's fault:
    "cannot be used: ValueError: ...; start it (`chroma run ...`)", of a server that runs."""
    _auth(monkeypatch, CHROMA_CLIENT_AUTH_PROVIDER=PROVIDER, CHROMA_CLIENT_AUTH_CREDENTIALS=TOKEN)
    where = tmp_path / "ix"
    assert _index(capsys, repo, where, proxy.url)[0] == 0
    _auth(monkeypatch, **settings)
    code, _, err = run(capsys, "query", "docker layer caching", "--index-dir", where)
    line = _one_line(err)
    assert code == 2 and said in line, line
    assert "CHROMA_CLIENT_AUTH_CREDENTIALS" in line and "chroma run" not in line, line
    code, out, _ = run(capsys, "stats", "--index-dir", where)
    held = next(x for x in out.splitlines() if x.startswith("server:"))
    assert code == 0 and said in held and "chroma run" not in held, held
