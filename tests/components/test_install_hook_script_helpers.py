"""A hook script's helpers beside it: QA's plugin ``guard`` runs
``python3 ${CLAUDE_PLUGIN_ROOT}/hooks/guard.py``, and guard.py does ``from rules import
RULES`` (``hooks/rules.py`` beside it). Install copied guard.py alone and said nothing; the
installed hook died with ``ModuleNotFoundError`` on every Bash call, so the guard's
protection was silently gone. A shell script sourcing ``lib.sh`` beside it broke the same
way. Now the siblings a copied script names (a Python import, a file name in its text)
go with it, beside the copy, and the installed hook runs from the target as it ran in
the source; a sibling it does not name stays behind. Real files, real install, the
installed hook run for real."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file
from hook_repos import indexed_repo, only_hook_id

from skill_retriever.components.install import install, uninstall
from skill_retriever.stores.index import Index

GUARD = "import os, sys\nsys.path.insert(0, os.path.dirname(__file__))\n{imports}\nprint(RULES)\n"


def _hook(command: str) -> dict[str, object]:
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}
    return {"description": "guard bash calls", "hooks": {"PreToolUse": [group]}}


def _indexed(tmp_path: Path, files: dict[str, str | dict[str, object]]) -> Path:
    """An index of a repository holding ``files``."""
    repo = tmp_path / "repo"
    for rel, content in files.items():
        write_file(repo, rel, content, 0o755 if rel.endswith(".sh") else None)
    return indexed_repo(repo, tmp_path / "ix")


def _install(ix: Path, project: Path) -> tuple[str, str, list[str]]:
    """The one hook's status and reason, and the commands written to settings.json."""
    index = Index.open(ix)
    try:
        plan = install(index, [only_hook_id(ix, index)], project)
    finally:
        index.close()
    (hook,) = plan.components
    settings = project / ".claude/settings.json"
    data = json.loads(settings.read_text()) if settings.is_file() else {"hooks": {}}
    return hook.status, hook.reason, [h["command"] for gs in data["hooks"].values() for g in gs for h in g["hooks"]]


def _ran(command: str, project: Path, elsewhere: Path) -> subprocess.CompletedProcess[str]:
    """``command`` run as Claude Code runs a hook: by the shell, the variable set, from a
    folder that is not the project's."""
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(project)}
    return subprocess.run(["sh", "-c", command], cwd=elsewhere, env=env, capture_output=True, text=True, check=False)


def _hooks_folder(project: Path) -> list[str]:
    folder = project / ".claude/hooks"
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def _guard_plugin(imports: str, **more: str) -> dict[str, str | dict[str, object]]:
    return {
        "plugins/guard/.claude-plugin/plugin.json": {"name": "guard", "description": "guard bash"},
        "plugins/guard/hooks/hooks.json": _hook("python3 ${CLAUDE_PLUGIN_ROOT}/hooks/guard.py"),
        "plugins/guard/hooks/guard.py": GUARD.format(imports=imports),
        "plugins/guard/hooks/rules.py": "RULES = ['no rm -rf']\n",
        "plugins/guard/hooks/other.py": "raise SystemExit('not this guard')\n",  # beside it, never named
        **more,
    }


@pytest.mark.parametrize(
    "imports",
    ["from rules import RULES", "import rules\nRULES = rules.RULES", "import json, rules as r\nRULES = r.RULES"],
)
def test_qa_s_plugin_guard_brings_the_module_it_imports_and_runs(tmp_path: Path, imports: str) -> None:
    ix = _indexed(tmp_path, _guard_plugin(imports))
    project = tmp_path / "proj"
    status, reason, commands = _install(ix, project)
    assert status == "install", reason
    assert _hooks_folder(project) == ["guard.py", "rules.py"]  # not other.py: not named
    done = _ran(commands[0], project, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['no rm -rf']"
    uninstall([only_hook_id(ix)], project)
    assert not (project / ".claude/hooks").exists()  # the helper taken back with its script


def test_a_relative_import_and_a_package_folder_go_along(tmp_path: Path) -> None:
    files = _guard_plugin(
        "from .rules import RULES as _\nfrom checks.core import RULES",
        **{
            "plugins/guard/hooks/checks/__init__.py": "",
            "plugins/guard/hooks/checks/core.py": "RULES = ['no curl | sh']\n",
            "plugins/guard/hooks/checks/__pycache__/core.cpython-312.pyc": "stale",
        },
    )
    ix = _indexed(tmp_path, files)
    project = tmp_path / "proj"
    status, reason, _ = _install(ix, project)
    assert status == "install", reason
    assert _hooks_folder(project) == ["checks/__init__.py", "checks/core.py", "guard.py", "rules.py"]


def test_a_missing_module_it_imports_changes_nothing(tmp_path: Path) -> None:
    ix = _indexed(tmp_path, _guard_plugin("import yaml_rules_not_here\nRULES = []"))
    project = tmp_path / "proj"
    status, reason, _ = _install(ix, project)
    assert status == "install", reason
    assert _hooks_folder(project) == ["guard.py"]


def _shell_hook() -> dict[str, str | dict[str, object]]:
    """A project-dir hook whose script sources ``lib.sh`` beside it, which sources
    ``colors.sh``, which names ``deep.sh`` (one level past the helpers' helpers); a
    comment of it names ``fmt.sh``, another hook's script in the shared folder."""
    return {
        "hooks/check.json": _hook('"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh'),
        "hooks/check.sh": '#!/bin/sh\n# runs after fmt.sh\n. "$(dirname "$0")/lib.sh"\nsay "$(cat "$(dirname "$0")/words.txt")"\n',
        "hooks/lib.sh": 'HERE="$(dirname "$0")"\n. "$HERE/colors.sh"\nsay() { echo "$PREFIX$1"; }\n',
        "hooks/colors.sh": "PREFIX=checked:\nDEEP=deep.sh\n",
        "hooks/deep.sh": "echo too deep\n",
        "hooks/words.txt": "fine\n",
        "hooks/fmt.sh": "echo another hook's script\n",  # the shared folder's other hook
    }


def test_a_project_dir_shell_hook_brings_what_it_sources_and_reads(tmp_path: Path) -> None:
    ix = _indexed(tmp_path, _shell_hook())
    project = tmp_path / "proj"
    status, reason, commands = _install(ix, project)
    assert status == "install", reason
    assert _hooks_folder(project) == ["check.sh", "colors.sh", "lib.sh", "words.txt"]
    done = _ran(commands[0], project, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "checked:fine"


def test_source_by_bare_name_and_a_plugin_script_outside_its_hooks_folder(tmp_path: Path) -> None:
    ix = _indexed(tmp_path, {
        "plugins/lint/.claude-plugin/plugin.json": {"name": "lint", "description": "lint"},
        "plugins/lint/hooks/hooks.json": _hook("sh ${CLAUDE_PLUGIN_ROOT}/scripts/check.sh"),
        "plugins/lint/scripts/check.sh": 'cd "$(dirname "$0")" && source lib.sh && ok\n',
        "plugins/lint/scripts/lib.sh": "ok() { echo linted; }\n",
        "plugins/lint/scripts/unused.sh": "echo unused\n",
    })
    project = tmp_path / "proj"
    status, reason, commands = _install(ix, project)
    assert status == "install", reason
    assert _hooks_folder(project) == ["scripts/check.sh", "scripts/lib.sh"]
    done = _ran(commands[0].replace("sh ", "bash ", 1), project, tmp_path)  # `source` is bash's
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "linted"


def test_a_helper_the_target_holds_otherwise_clashes_as_a_script_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ix = _indexed(tmp_path, _guard_plugin("from rules import RULES"))
    project = tmp_path / "proj"
    write_file(project, ".claude/hooks/rules.py", "RULES = ['mine']\n")
    code, out, _ = run(capsys, "install", "guard", "--target", project, "--index-dir", ix)
    assert code == 1, out
    assert "kept .claude/hooks/rules.py: exists and differs; force overwrites it" in out
    assert (project / ".claude/hooks/rules.py").read_text() == "RULES = ['mine']\n"
    assert not (project / ".claude/hooks/guard.py").exists()


def test_an_exec_form_plugin_hook_brings_them_too(tmp_path: Path) -> None:
    # its plugin's files are substituted as placeholders, so the helpers count as the plugin's
    files = _guard_plugin("from rules import RULES")
    exec_form = {"type": "command", "command": "python3", "args": ["${CLAUDE_PLUGIN_ROOT}/hooks/guard.py"]}
    files["plugins/guard/hooks/hooks.json"] = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [exec_form]}]}}
    ix = _indexed(tmp_path, files)
    project = tmp_path / "proj"
    status, reason, _ = _install(ix, project)
    assert status == "install", reason
    assert _hooks_folder(project) == ["guard.py", "rules.py"]
