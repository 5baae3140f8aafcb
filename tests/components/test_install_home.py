"""Where ``install --user`` writes: the home folder's ``.claude`` (``$CLAUDE_CONFIG_DIR``
when set elsewhere: test_install_config_dir.py); an empty or relative ``$HOME`` is refused
(it would mean ``/`` or the working folder), as an empty ``--target`` is, and so is a
``$CLAUDE_CONFIG_DIR`` that is empty, relative, or the home folder (or above it). And a
folder on a read-only file system is said to be one (``chmod`` cannot help there)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.cli import main
from skill_retriever.components.install import InstallError, install, uninstall
from skill_retriever.components.install import target as target_module
from skill_retriever.components.install.target import check_writable
from skill_retriever.stores.index import Index

AGENT = ".claude/agents/api-reviewer.md"


@pytest.mark.parametrize("value", ["", "relhome"])
def test_an_empty_or_relative_home_is_refused(
    sample_index: Index,
    tmp_path: Path,
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    value: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", value)
    index_dir = str(sample_index.path)
    with pytest.raises(InstallError, match=r"\$HOME is .*not an absolute path.*set HOME"):
        install(sample_index, ["api-reviewer"], user=True, with_dependencies=False)
    sample_index.close()  # the CLI opens it itself
    for argv in (
        ["install", "api-reviewer", "--user", "--dry-run", "--index-dir", index_dir],
        ["install", "api-reviewer", "--user", "--index-dir", index_dir],
        ["uninstall", "api-reviewer", "--user"],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert f"$HOME is {value!r}" in err and "nothing written" in err
    assert not (tmp_path / ".claude").exists() and not (tmp_path / "relhome").exists()


def test_an_empty_home_given_is_refused(sample_index: Index, home: Path) -> None:
    with pytest.raises(InstallError, match="home folder given is empty"):
        install(sample_index, ["api-reviewer"], user=True, home="", with_dependencies=False)


@pytest.mark.parametrize("value", ["", "elsewhere/.claude", "claude-config", "~/.config/claude", " "])
def test_a_claude_config_dir_empty_or_not_absolute_is_refused_for_user(
    sample_index: Index,
    tmp_path: Path,
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    value: str,
) -> None:
    """Claude Code reads user settings from $CLAUDE_CONFIG_DIR when set: an empty or relative
    value names no one folder (it depends on where Claude Code starts), so neither it nor
    ~/.claude is written; the message says what to set."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", value)
    fix = "it is set but empty.*absolute path" if not value else "not an absolute path.*give an absolute path"
    shown = re.escape(repr(value))
    with pytest.raises(InstallError, match=rf"\$CLAUDE_CONFIG_DIR is {shown}: {fix}.*or unset it for .*/home/\.claude; nothing written"):
        install(sample_index, ["api-reviewer"], user=True, with_dependencies=False)
    index_dir = str(sample_index.path)
    sample_index.close()  # the CLI opens it itself
    for argv in (
        ["install", "api-reviewer", "--user", "--index-dir", index_dir],
        ["uninstall", "api-reviewer", "--user"],
    ):
        assert main(argv) == 2
        assert f"$CLAUDE_CONFIG_DIR is {value!r}" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "sample-index"]
    assert list(home.iterdir()) == []  # no ~/.claude either


def test_a_claude_config_dir_at_or_above_home_is_refused_for_user(
    sample_index: Index, tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """skills/, settings.json... would be strewn into the home folder (or one above it)."""
    for value, what in ((home, "your home folder"), (tmp_path, "a folder holding it")):
        monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(value))
        with pytest.raises(InstallError, match=rf"is '{value}': {what}.*point it at a folder of its own"):
            install(sample_index, ["api-reviewer"], user=True, with_dependencies=False)
    assert list(home.iterdir()) == []
    # an explicit home still wins (the Python API's home=): its .claude, whatever the variable
    assert install(sample_index, ["api-reviewer"], user=True, home=home, with_dependencies=False).ok
    assert (home / AGENT).is_file() and not (home / "agents").exists()


def test_a_claude_config_dir_that_is_home_claude_installs(
    sample_index: Index, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    assert install(sample_index, ["api-reviewer"], user=True, with_dependencies=False).ok
    assert (home / AGENT).is_file()
    assert uninstall(["api-reviewer"], user=True).ok and not (home / AGENT).exists()


def test_a_project_install_into_the_config_dirs_folder_is_refused(
    sample_index: Index, tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "elsewhere/.claude"
    config.mkdir(parents=True)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    with pytest.raises(InstallError, match=r"folder of \$CLAUDE_CONFIG_DIR.*--user"):
        install(sample_index, ["api-reviewer"], config.parent, with_dependencies=False)
    assert not (config / "agents").exists()


def test_a_read_only_file_system_is_named_as_such(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No read-only mount can be made here: the OS's answers are given instead.
    class ReadOnly:
        f_flag = os.ST_RDONLY

    def no_access(path: Any, mode: int) -> bool:
        return False

    monkeypatch.setattr(target_module.os, "access", no_access)
    monkeypatch.setattr(target_module.os, "statvfs", lambda path: ReadOnly())
    with pytest.raises(InstallError) as raised:
        check_writable(tmp_path, [AGENT], "or install somewhere else; nothing written")
    assert "read-only file system" in str(raised.value) and "chmod" not in str(raised.value)
    monkeypatch.setattr(target_module.os, "statvfs", lambda path: type("RW", (), {"f_flag": 0})())
    with pytest.raises(InstallError, match=r"permission denied.*chmod u\+w"):
        check_writable(tmp_path, [AGENT], "or install somewhere else; nothing written")
