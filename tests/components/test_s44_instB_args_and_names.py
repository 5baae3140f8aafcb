"""What the Python install refuses before doing anything, and what a name that installs
nothing is told, on a small catalogue indexed by the real CLI.

- a switch that is not True or False (``force="no"``, ``with_dependencies="false"``), a
  target that is no path (``42``) and a source that is no index: one line naming it, and
  nothing written;
- a name that answers to nothing gets close names the caller may see (the plugin-prefixed
  agent first), never a hidden one; an empty one is said to be empty; a long one is cut.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.components.install import (
    UnknownComponentError,
    install,
    plan_install,
    uninstall,
)
from skill_retriever.exceptions import ConfigError
from skill_retriever.stores.index import Index

CAPTAIN = "cat/agents/release-captain.md"


def _md(name: str, *front: str) -> str:
    more = "".join(f"{line}\n" for line in front)
    return f"---\nname: {name}\ndescription: The {name} agent.\n{more}---\n\nBody of {name}.\n"


@pytest.fixture
def ix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    root = tmp_path / "cat"
    write_file(root, "agents/release-captain.md", _md("release-captain"))
    write_file(root, "agents/comprehensive-review-code-reviewer.md", _md("comprehensive-review-code-reviewer"))
    write_file(root, "agents/code-reviewer-lite.md", _md("code-reviewer-lite"))
    write_file(root, "agents/secret-code-reviewer.md", _md("secret-code-reviewer", "access: [secops]"))
    write_file(root, "skills/deploy-helper/SKILL.md", _md("deploy-helper"))
    folder = tmp_path / "ix"
    code, _, err = run(capsys, "index", root, "--index-dir", folder, "--embedder", "hashing-64")
    assert code == 0, err
    return folder


@pytest.fixture
def index(ix: Path) -> Iterator[Index]:
    opened = Index.open(ix)
    yield opened
    opened.close()


@pytest.mark.parametrize(
    ("kwargs", "said"),
    [
        ({"force": "no"}, "install's force must be True or False, not str 'no'"),
        ({"with_dependencies": "false"}, "install's with_dependencies must be True or False, not str 'false'"),
        ({"allow_conflicts": 1}, "install's allow_conflicts must be True or False, not int 1"),
        ({"target": 42}, "install's target must be a path (str or os.PathLike), not int 42"),
    ],
)
def test_a_bad_argument_is_refused_in_one_line_naming_it(
    index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kwargs: dict[str, object], said: str
) -> None:
    monkeypatch.chdir(tmp_path)  # where target=42 would have become ./42
    project = tmp_path / "p"
    write_file(project, ".claude/agents/release-captain.md", "mine\n")
    given: dict[str, object] = {"target": project, **kwargs}
    for dry_run in (True, False):
        with pytest.raises(ConfigError) as caught:
            install(index, [CAPTAIN], given.pop("target"), dry_run=dry_run, **given)  # type: ignore[arg-type]
        given["target"] = kwargs.get("target", project)
        assert str(caught.value) == said
    assert (project / ".claude/agents/release-captain.md").read_text() == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cat", "ix", "p"]  # no ./42


def test_the_user_switch_ids_and_source_are_checked_too(index: Index, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"^install's user must be True or False, not str 'yes'$"):
        plan_install(index, [CAPTAIN], None, user="yes")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"^install's ids\[1\] must be an id \(str\), not int 7$"):
        install(index, [CAPTAIN, 7], tmp_path / "p", dry_run=True)  # type: ignore[list-item]
    with pytest.raises(ConfigError, match=r"^install's source must be an Index or a CallerView, not str; "):
        install(str(index.path), [CAPTAIN], tmp_path / "p", dry_run=True)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"^install's dry_run must be True or False, not str 'no'$"):
        install(index, [CAPTAIN], tmp_path / "p", dry_run="no")  # type: ignore[arg-type]  # 'no' would write
    assert not (tmp_path / "p").exists()
    assert install(index, CAPTAIN, tmp_path / "p", dry_run=True, force=False).ok  # real bools pass


def test_a_name_that_installs_nothing_gets_close_names_the_caller_may_see(
    ix: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        capsys, "install", "code-reviewer", "--target", tmp_path / "p", "--index-dir", ix, "--dry-run",
        "--principals", "alice",
    )
    assert code == 2
    assert "no component 'code-reviewer' in the index; close names: comprehensive-review-code-reviewer, code-reviewer-lite;" in err
    assert "secret" not in err  # hidden from this caller: never named
    code, _, err = run(
        capsys, "install", "code-reviewer", "--target", tmp_path / "p", "--index-dir", ix, "--dry-run",
        "--principals", "secops",
    )
    assert "secret-code-reviewer" in err  # one who may see it is offered it
    code, _, err = run(capsys, "install", "deploy-helpr", "--target", tmp_path / "p", "--index-dir", ix, "--dry-run")
    assert code == 2 and "close names: deploy-helper;" in err  # a typo


def test_an_empty_or_long_name_is_said_so(index: Index, tmp_path: Path) -> None:
    for empty in ("", "   "):
        with pytest.raises(UnknownComponentError) as caught:
            install(index, [empty], tmp_path / "p", dry_run=True)
        assert str(caught.value).startswith("the component id or name given is empty; give one (find ids with `")
    with pytest.raises(UnknownComponentError) as caught:
        install(index, ["z" * 100_000], tmp_path / "p", dry_run=True)
    said = str(caught.value)
    assert "... (100,000 characters) in the index" in said and len(said) < 400 + len(str(index.path))


def test_uninstall_names_an_empty_or_long_name_likewise(
    index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "p"
    assert install(index, [CAPTAIN], project).ok
    for ref, said in (("", "the component id or name given is empty"), ("q" * 5000, "... (5,000 characters) installed")):
        code, _, err = run(capsys, "uninstall", ref, "--target", project)
        assert code == 2 and said in err and len(err) < 1000, err
    record = json.loads((project / ".claude/.skill-retriever/installed.json").read_text())
    assert list(record["components"]) == [CAPTAIN]  # nothing taken back


@pytest.mark.parametrize(
    ("kwargs", "said"),
    [
        ({"force": "no"}, "uninstall's force must be True or False, not str 'no'"),
        ({"dry_run": 0}, "uninstall's dry_run must be True or False, not int 0"),
        ({"user": "yes"}, "uninstall's user must be True or False, not str 'yes'"),
    ],
)
def test_uninstall_refuses_a_switch_that_is_not_a_bool(
    index: Index, tmp_path: Path, kwargs: dict[str, object], said: str
) -> None:
    project = tmp_path / "p"
    install(index, [CAPTAIN], project)
    placed = sorted(str(p.relative_to(project)) for p in project.rglob("*") if p.is_file())
    with pytest.raises(ConfigError) as caught:
        uninstall([CAPTAIN], project, **kwargs)  # type: ignore[arg-type]
    assert str(caught.value) == said
    assert sorted(str(p.relative_to(project)) for p in project.rglob("*") if p.is_file()) == placed
    with pytest.raises(ConfigError, match=r"^uninstall's target must be a path \(str or os.PathLike\), not int 42$"):
        uninstall([CAPTAIN], 42)  # type: ignore[arg-type]
