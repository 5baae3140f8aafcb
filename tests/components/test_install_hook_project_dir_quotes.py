"""A hook command's bare ``$CLAUDE_PROJECT_DIR`` is written quoted, as the hooks reference
writes it (``"$CLAUDE_PROJECT_DIR"/.claude/hooks/check-style.sh``,
https://code.claude.com/docs/en/hooks): unquoted (davila7's langsmith-tracing hook runs
``bash $CLAUDE_PROJECT_DIR/.claude/hooks/langsmith-tracing.sh``), a project folder holding a
space split it, and the hook ran ``bash /path/My`` on every event instead of its script."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from skill_retriever.components.install import install
from skill_retriever.components.install.project_dir_quotes import quote_project_dir
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def test_the_installed_hook_runs_its_script_from_a_folder_with_a_space(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    command = "bash $CLAUDE_PROJECT_DIR/.claude/hooks/trace.sh >> ${CLAUDE_PROJECT_DIR}/trace.log"
    doc = {"description": "trace each stop", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": command}]}]}}
    (repo / "hooks/trace.json").write_text(json.dumps(doc))
    (repo / "hooks/trace.sh").write_text("echo traced\n")
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(index, [repo], "skills")
    project = tmp_path / "My Projects"  # a space, as macOS folders often have
    plan = install(index, [n.id for n in index.nodes.values() if n.name == "trace"], project)
    index.close()
    assert plan.ok, plan.lines()
    assert (project / ".claude/hooks/trace.sh").is_file()
    settings = json.loads((project / ".claude/settings.json").read_text())
    written = settings["hooks"]["Stop"][0]["hooks"][0]["command"]
    assert written == 'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/trace.sh >> "$CLAUDE_PROJECT_DIR"/trace.log'
    # run it as Claude Code does: through the shell, from another folder, the variable set
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(project)}
    done = subprocess.run(["bash", "-c", written], check=False, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (project / "trace.log").read_text() == "traced\n"


def test_only_a_bare_reference_is_quoted() -> None:
    assert quote_project_dir('python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/x.py"') == 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/x.py"'
    assert quote_project_dir("echo '$CLAUDE_PROJECT_DIR' \\$CLAUDE_PROJECT_DIR") == "echo '$CLAUDE_PROJECT_DIR' \\$CLAUDE_PROJECT_DIR"
    assert quote_project_dir("cd $CLAUDE_PROJECT_DIR && make") == 'cd "$CLAUDE_PROJECT_DIR" && make'
    assert quote_project_dir("echo $CLAUDE_PROJECT_DIRX") == "echo $CLAUDE_PROJECT_DIRX"  # another variable
    assert quote_project_dir('echo "a \\" b" $CLAUDE_PROJECT_DIR/x') == 'echo "a \\" b" "$CLAUDE_PROJECT_DIR"/x'
