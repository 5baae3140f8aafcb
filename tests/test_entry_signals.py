"""Ctrl-C (and SIGTERM) in the first moments of any command exits as the README promises.

Found calibrating: a Ctrl-C within about 0.1 s of `skill-retriever calibrate` landed while
`cli`'s modules were still importing, or while its parser was being built, before `main`
handles it: a traceback, and the process died of SIGINT (exit -2 to its parent) instead of
"skill-retriever: interrupted" and 130. The console script's target (`entry.main`) handles
both from its first line. Here a real process is stopped at a fixed point: while
`skill_retriever.cli` imports (held there by an import hook), or while the parser is built.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

# The console script's entry, with the import of the CLI (or its parser) held until stopped.
_HELD = """
import sys, time
from importlib.abc import MetaPathFinder

WHERE = sys.argv.pop(1)

class Hold(MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "skill_retriever.cli" and WHERE == "import":
            print("HELD", flush=True)
            time.sleep(120)
        return None

sys.meta_path.insert(0, Hold())
if WHERE == "parser":
    import skill_retriever.cli as cli
    def held():
        print("HELD", flush=True)
        time.sleep(120)
    cli._parser = held
from skill_retriever.entry import main
sys.exit(main())
"""


def _stopped(where: str, signum: int, tmp_path: Path) -> tuple[int, str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _HELD, where, "calibrate", "--index-dir", str(tmp_path / "ix")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip() == "HELD", (line, proc.communicate(timeout=60))
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err


@pytest.mark.parametrize("where", ["import", "parser"])
def test_ctrl_c_before_the_command_runs_exits_130_without_a_traceback(where: str, tmp_path: Path) -> None:
    code, err = _stopped(where, signal.SIGINT, tmp_path)
    assert (code, err) == (130, "skill-retriever: interrupted\n")
    assert not (tmp_path / "ix").exists()


def test_sigterm_while_the_cli_imports_exits_143_and_says_so(tmp_path: Path) -> None:
    code, err = _stopped("import", signal.SIGTERM, tmp_path)
    assert (code, err) == (143, "skill-retriever: terminated (SIGTERM)\n")


def test_the_console_script_is_the_entry() -> None:
    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["skill-retriever"] == "skill_retriever.entry:main"


def test_the_entry_runs_a_command_and_gives_its_status(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "skill_retriever.entry", "stats", "--index-dir", str(tmp_path / "none")],
        capture_output=True, text=True, timeout=120, env={**os.environ, "HF_HUB_OFFLINE": "1"}, check=False,
    )
    assert run.returncode == 2 and "error:" in run.stderr and "Traceback" not in run.stderr


def test_python_m_the_package_is_the_command(tmp_path: Path) -> None:
    # where the console script is not on PATH: the same command, its name in the usage and errors
    run = subprocess.run(
        [sys.executable, "-m", "skill_retriever", "stats", "--index-dir", str(tmp_path / "none")],
        capture_output=True, text=True, timeout=120, env={**os.environ, "HF_HUB_OFFLINE": "1"}, check=False,
    )
    assert run.returncode == 2 and run.stderr.startswith("skill-retriever") and "Traceback" not in run.stderr
    assert not (tmp_path / "none").exists()


def test_the_entry_puts_back_the_sigterm_handler_it_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `mcp` leaves SIGTERM to the server: it must find the handler the process had
    from skill_retriever.entry import main

    before = signal.getsignal(signal.SIGTERM)
    monkeypatch.setattr(sys, "argv", ["skill-retriever", "stats", "--index-dir", str(tmp_path / "none")])
    assert main() == 2
    assert signal.getsignal(signal.SIGTERM) is before
