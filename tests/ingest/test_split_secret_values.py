"""Secrets whose value a line break or an argument's end cut apart from what the rules
read, through a real ingest (a skill, a hook, an MCP server config):

- basic auth in code split over lines (``auth=(\\n    "user",\\n    "X")``,
  ``HTTPBasicAuth(\\n "user",\\n "X")``): read on one line only, the password stayed;
- ``printf 'API_KEY=X\\n'`` and ``echo -e "TOKEN=X\\nOTHER=1"``: the value ran through the
  escape to the quote, so what the command writes after it went with the secret, and a
  second secret after ``\\n`` was read as part of the first one's value;
- ``curl -u user:X https://...`` as one argument of an MCP server's ``sh -c``: the
  arguments joined into one line were read again by curl's rule, which took the rest
  of the script (the URL, a pipe) for the password;
- a flag, its value and more in one argument (``"args": ["--user admin:X https://x"]``
  after ``"command": "curl"``, ``"-pX app"`` after ``mysql``): the argument's blanks
  were read as part of the value, so the URL after the password went with it; and
  after ``"command": "docker"``, ``"login -u me -p X ghcr.io"`` (the flag not the
  argument's first word): all after ``-p`` went;
- a quoted value in such an argument (``"--user 'admin:X' https://x"``): its closing
  quote went with the password, and of ``'admin:X Y'`` the ``Y'`` stayed.

The password goes, the user and the text around it stay.
"""

from __future__ import annotations

import json
from pathlib import Path

from skill_retriever.ingest.secrets import REDACTED
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import Node

R = REDACTED
PW = "Tr0ub4dor3Xq"
KEY = "Zyx987Wvu654Tsr321Qpo"


def _ingest(root: Path) -> dict[str, Node]:
    result = ingest_skill_repo(root)
    assert result.problems == []
    return {n.name: n for n in result.nodes}


def _skill(root: Path, body: str) -> Node:
    folder = root / "skills" / "demo"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(f"---\nname: demo\ndescription: A demo.\n---\n{body}", encoding="utf-8")
    return _ingest(root)["demo"]


AUTH_CODE = f"""```python
r = requests.get(url, auth=(
    "deploy",
    "{PW}"))
basic = HTTPBasicAuth(
    "deploy",
    '{PW}',
)
digest = HTTPDigestAuth("deploy",
                        "{PW}")
```
"""


def test_basic_auth_split_over_lines_loses_its_password(tmp_path: Path) -> None:
    node = _skill(tmp_path, AUTH_CODE)
    assert PW not in node.text
    assert AUTH_CODE.replace(PW, R).strip() in node.text  # user names and layout as written


def test_basic_auth_over_lines_without_a_literal_password_stays(tmp_path: Path) -> None:
    code = 'r = requests.get(url, auth=(\n    "deploy",\n    os.environ["DEPLOY_PASSWORD"]))\nHTTPBasicAuth(\n    user,\n    "<your-password>")\n'
    assert code.strip() in _skill(tmp_path, code).text


def test_a_hook_script_with_basic_auth_over_lines_loses_its_password(tmp_path: Path) -> None:
    folder = tmp_path / "hooks"
    folder.mkdir()
    script = f'python - <<\'EOF\'\nimport requests\nrequests.post(url, auth=(\n    "deploy",\n    "{PW}",\n))\nEOF'
    hook = {"name": "ping", "description": "Ping.", "event": "Stop", "command": script}
    (folder / "ping.json").write_text(json.dumps(hook), encoding="utf-8")
    assert _ingest(tmp_path)["ping"].attrs["command"] == script.replace(PW, R)


ENV_WRITES = f"""```bash
printf 'API_KEY={KEY}\\n' >> .env
echo -e "TOKEN={KEY}\\nLOG_LEVEL=debug" > .env
printf "DB_HOST=db\\nDB_PASSWORD={PW}\\tSTRIPE_SECRET_KEY={KEY}\\n" >> .env
```
"""


def test_a_value_ends_at_a_printf_escape_in_prose(tmp_path: Path) -> None:
    node = _skill(tmp_path, ENV_WRITES)
    assert PW not in node.text and KEY not in node.text
    assert ENV_WRITES.replace(PW, R).replace(KEY, R).strip() in node.text


def test_a_value_ends_at_a_printf_escape_in_a_hook(tmp_path: Path) -> None:
    folder = tmp_path / "hooks"
    folder.mkdir()
    command = f"printf 'API_KEY={KEY}\\nLOG_LEVEL=debug\\nDB_PASSWORD={PW}\\n' >> .env && ./run.sh"
    hook = {"name": "env", "description": "Writes .env.", "event": "SessionStart", "command": command}
    (folder / "env.json").write_text(json.dumps(hook), encoding="utf-8")
    assert _ingest(tmp_path)["env"].attrs["command"] == command.replace(PW, R).replace(KEY, R)


def test_an_mcp_script_argument_keeps_what_follows_curls_password(tmp_path: Path) -> None:
    folder = tmp_path / "mcps"
    folder.mkdir()
    scripts = {
        "c": ("sh", ["-c", f"curl -u admin:{PW} https://api.example.com/v1/sse"]),
        "lc": ("bash", ["-lc", f"curl -s -u 'admin:{PW}' https://api.example.com/mcp | jq ."]),
    }
    servers = {name: {"description": "Remote.", "command": c, "args": a} for name, (c, a) in scripts.items()}
    (folder / "remote.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    nodes = _ingest(tmp_path)
    for name, (_, args) in scripts.items():
        assert nodes[name].attrs["args"] == [args[0], args[1].replace(PW, R)]
        assert PW not in nodes[name].text and "https://api.example.com" in nodes[name].text


def _servers(root: Path, invocations: dict[str, tuple[str, list[str]]]) -> dict[str, Node]:
    folder = root / "mcps"
    folder.mkdir()
    servers = {name: {"description": "Remote.", "command": c, "args": a} for name, (c, a) in invocations.items()}
    (folder / "remote.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    return _ingest(root)


def test_a_flag_argument_keeps_what_follows_its_password(tmp_path: Path) -> None:
    invocations = {
        "user": ("curl", [f"--user admin:{PW} https://api.example.com/v1/sse"]),
        "u": ("curl", ["-s", f"-u admin:{PW} https://api.example.com/mcp", "-H", "Accept: text/event-stream"]),
        "glued": ("curl", [f"--user=admin:{PW}\thttps://api.example.com/v1"]),
        "mysql": ("mysql", [f"-u root -p{PW} app"]),
        "sshpass": ("sshpass", [f"-p {PW} ssh deploy@host.example"]),
    }
    nodes = _servers(tmp_path, invocations)
    for name, (_, args) in invocations.items():
        assert nodes[name].attrs["args"] == [a.replace(PW, R) for a in args], name
        assert PW not in nodes[name].text


def test_a_value_argument_with_blanks_still_goes_whole(tmp_path: Path) -> None:
    # No program splits an argument: after ``-u`` it is the value, blanks and all.
    nodes = _servers(tmp_path, {"u": ("curl", ["-u", f"admin:{PW} https://api.example.com", "-s"])})
    assert nodes["u"].attrs["args"] == ["-u", f"admin:{R}", "-s"]


def test_words_with_a_flag_among_them_keep_what_follows_its_password(tmp_path: Path) -> None:
    # ``-p`` is not the argument's first word: the whole rest after it went with the password.
    invocations = {
        "login": ("docker", [f"login -u me -p {PW} ghcr.io"]),
        "glued": ("docker", [f"login ghcr.io -p{PW} -u me"]),
    }
    nodes = _servers(tmp_path, invocations)
    for name, (_, args) in invocations.items():
        assert nodes[name].attrs["args"] == [a.replace(PW, R) for a in args], name
        assert PW not in nodes[name].text


def test_a_quoted_value_keeps_its_closing_quote(tmp_path: Path) -> None:
    invocations = {
        "single": ("curl", [f"--user 'admin:{PW}' https://api.example.com/v1/sse"]),
        "double": ("curl", ["-s", f'--user="admin:{PW}" https://api.example.com/mcp']),
        "docker": ("docker", [f"login -u me -p '{PW}' ghcr.io"]),
    }
    nodes = _servers(tmp_path, invocations)
    for name, (_, args) in invocations.items():
        assert nodes[name].attrs["args"] == [a.replace(PW, R) for a in args], name


def test_a_password_with_blanks_in_words_still_goes_whole(tmp_path: Path) -> None:
    # A quoted password with a blank, or one that is a flag's or htpasswd's whole value:
    # no word of it stays.
    invocations = {
        "quoted": ("curl", [f"--user 'admin:{PW} {KEY}' https://api.example.com"]),
        "sshpass": ("sshpass", ["-p", f"{PW} -x {KEY}", "ssh", "host"]),
        "htpasswd": ("htpasswd", ["-b", "users", "deploy", f"{PW} -x {KEY}"]),
    }
    nodes = _servers(tmp_path, invocations)
    for name in invocations:
        assert KEY not in nodes[name].text and PW not in nodes[name].text, name
    assert nodes["quoted"].attrs["args"] == [f"--user 'admin:{R}"]
    assert nodes["sshpass"].attrs["args"] == ["-p", R, "ssh", "host"]
    assert nodes["htpasswd"].attrs["args"] == ["-b", "users", "deploy", R]
