"""A call's keyword argument in code a command runs (``python -c "...OAuth2Session(
client_id, token=token, auto_refresh_url=url)"``, a heredoc's script) whose value is a
name (``token``, ``self.secret``, ``os.environ["API_TOKEN"]``) passes a variable: a
reference, kept as prose keeps it. Read as a shell assignment, ``token=token,`` went with
its comma (``token=[redacted] auto_refresh_url=url``).

A lower-case word may be a real, weak secret (`test_url_placeholders.REAL_LOOKING`): in a
shell command, outside a call's parentheses, it still goes (``--password password``,
``PASSWORD=letmein ./run``, helm's ``--set auth.password=password,...``), and so does a
name in a call that reads as a literal secret, without its comma. Through a real ingest:
hooks and an MCP server config read by the skills adapter.
"""

from __future__ import annotations

import json
from pathlib import Path

from skill_retriever.ingest.secrets import REDACTED
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import Node

R = REDACTED
PW = "Tr0ub4dor3Xq"

ONE_LINE = (
    'python3 -c "from requests_oauthlib import OAuth2Session; '
    's = OAuth2Session(client_id, token=token, auto_refresh_url=url, client_secret=self.secret)"'
)
HEREDOC = """uv run python - <<'EOF'
import os, psycopg
conn = psycopg.connect(
    host=cfg["db"]["host"],
    password=os.environ["DB_PASSWORD"],
    api_key=settings.API_KEY
)
EOF"""


def _ingest(root: Path, hooks: dict[str, str], servers: dict[str, list[str]] | None = None) -> dict[str, Node]:
    folder = root / "hooks"
    folder.mkdir()
    for name, command in hooks.items():
        hook = {"name": name, "description": "Runs code.", "event": "Stop", "command": command}
        (folder / f"{name}.json").write_text(json.dumps(hook), encoding="utf-8")
    if servers:
        (root / "mcps").mkdir()
        config = {name: {"description": "Code.", "command": "python", "args": args} for name, args in servers.items()}
        (root / "mcps" / "code.json").write_text(json.dumps({"mcpServers": config}), encoding="utf-8")
    result = ingest_skill_repo(root)
    assert result.problems == []
    return {n.name: n for n in result.nodes}


def test_a_name_a_call_passes_is_kept(tmp_path: Path) -> None:
    server = ["-c", ONE_LINE.removeprefix('python3 -c "').removesuffix('"')]
    one_word = ["-c", "print(connect(password=password))"]  # no blank: no flag's ``=`` either
    nodes = _ingest(tmp_path, {"oauth": ONE_LINE, "db": HEREDOC}, {"oauth-mcp": server, "word-mcp": one_word})
    assert nodes["oauth"].attrs["command"] == ONE_LINE
    assert nodes["db"].attrs["command"] == HEREDOC
    assert nodes["oauth-mcp"].attrs["args"] == server
    assert nodes["word-mcp"].attrs["args"] == one_word


def test_a_literal_in_a_call_goes_and_its_comma_stays(tmp_path: Path) -> None:
    command = f'python -c "f(password=hunter2, token={PW}, user=admin)"'
    nodes = _ingest(tmp_path, {"literal": command}, {"word-mcp": ["-c", "print(connect(password=hunter2))"]})
    assert nodes["literal"].attrs["command"] == f'python -c "f(password={R}, token={R}, user=admin)"'
    assert nodes["word-mcp"].attrs["args"] == ["-c", f"print(connect(password={R}))"]


def test_a_weak_literal_in_a_shell_command_still_goes(tmp_path: Path) -> None:
    commands = {
        "flag": ("mytool --password password --host db", f"mytool --password {R} --host db"),
        "env": ("PASSWORD=letmein ./run.sh", f"PASSWORD={R} ./run.sh"),
        "helm": ("helm install x --set auth.password=password,image.tag=v1", f"helm install x --set auth.password={R}"),
        "subshell": ("echo $(run, PASSWORD=password)", f"echo $(run, PASSWORD={R})"),
    }
    nodes = _ingest(tmp_path, {name: command for name, (command, _) in commands.items()})
    for name, (_, expected) in commands.items():
        assert nodes[name].attrs["command"] == expected, name
