"""``query --json`` says what the text says, and ``--principals`` that names no one is noted.

A walkthrough found that the text printed, under each result, the query words it matches,
what it requires and what requires it (``matches scaffold, fastapi, service, tracing;
requires structured-logging; required by observability-engineer, ...``) while the JSON
left all of it out. Each JSON result now carries ``reason`` (that very line), ``matches``,
``requires`` and ``required_by`` (``{"id", "name"}`` objects), made by the code that
prints the text (`render.explain`). A private item never appears in them for a caller who
may not see it. ``--principals ""`` (an unset variable) or ``" , "`` searched public items
only without a word; it now says so on stderr and, with ``--json``, in ``warnings``.
``stats --json``'s shape: `stats_lines.stats_json` always holds ``unfinished_runs``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.cli import main
from skill_retriever.stats_lines import stats_json

HASHING = ("--embedder", "hashing-64")
QUERY = "scaffold a FastAPI service with tracing"
SAMPLE = "sample_catalogue/skills/"


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The bundled sample catalogue, indexed by the CLI."""
    ix = str(tmp_path_factory.mktemp("sample") / "ix")
    assert main(["index", "--sample", "--index-dir", ix, *HASHING]) == 0
    return ix


def _skill(root: Path, name: str, description: str, extra: str = "") -> None:
    write_file(root, f"skills/{name}/SKILL.md",
               f"---\nname: {name}\ndescription: {description}\n{extra}---\n\n# {name}\n\n{description}\n")


@pytest.fixture(scope="module")
def private(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A public skill that requires a private one and is required by another private one."""
    root = tmp_path_factory.mktemp("private")
    _skill(root / "repo", "deploy-api", "Deploy the payments API to kubernetes with helm.",
           "requires: [vault-rotate, helm-basics]\n")
    _skill(root / "repo", "helm-basics", "Write helm charts for a kubernetes service.")
    _skill(root / "repo", "vault-rotate", "Rotate the vault keys the payments API reads.",
           "access: [secretteam]\n")
    _skill(root / "repo", "release-train", "Run the weekly release train that deploys the payments API.",
           "access: [secretteam]\nrequires: [deploy-api]\n")
    ix = str(root / "ix")
    assert main(["index", str(root / "repo"), "--index-dir", ix, *HASHING]) == 0
    return ix


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[dict, str]:
    code, out, err = run(capsys, "query", *argv, "--json")
    assert code == 0, err
    return json.loads(out), err


def _reason_lines(text: str) -> dict[str, str]:
    """Each entry's name and the reason line printed under it."""
    lines = text.splitlines()
    return {line.split(". ", 1)[1].split(" [")[0]: lines[n + 1].strip()
            for n, line in enumerate(lines) if line[:3].strip().rstrip(".").isdigit()}


def test_each_json_result_carries_the_texts_reason_as_data(sample: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = (QUERY, "--kinds", "skill,command", "--index-dir", sample, "-k", "5")
    data, _ = _json(capsys, *argv)
    code, text, _ = run(capsys, "query", *argv)
    assert code == 0
    shown = _reason_lines(text)
    assert [r["name"] for r in data["results"]] == list(shown)  # the same entries
    for r in data["results"]:
        assert r["reason"] == shown[r["name"]]  # the very line the text prints
        if r["matches"]:
            assert r["reason"].startswith("matches " + ", ".join(r["matches"][:6]))
        for key, said in (("requires", "requires "), ("required_by", "required by ")):
            names = [x["name"] for x in r[key]]
            assert all(set(x) == {"id", "name"} for x in r[key])
            assert (said + ", ".join(names[:3])) in r["reason"] if names else said not in r["reason"]
    by_name = {r["name"]: r for r in data["results"]}
    tracing = by_name["opentelemetry-tracing"]
    assert {"tracing", "service"} <= set(tracing["matches"])
    assert tracing["requires"] == [{"id": SAMPLE + "structured-logging/SKILL.md", "name": "structured-logging"}]
    assert {x["name"] for x in tracing["required_by"]} >= {"observability-engineer", "trace-request"}


def test_a_private_item_is_never_named_to_a_caller_who_may_not_see_it(
    private: str, capsys: pytest.CaptureFixture[str]
) -> None:
    def deploy(principals: str) -> dict:
        data, _ = _json(capsys, "deploy the payments API", "--index-dir", private, "-k", "4", "--principals", principals)
        (entry,) = [r for r in data["results"] if r["name"] == "deploy-api"]
        return entry

    outsider = deploy("alice")
    assert [x["name"] for x in outsider["requires"]] == ["helm-basics"]
    assert outsider["required_by"] == []
    assert "vault" not in json.dumps(outsider) and "release" not in json.dumps(outsider)
    insider = deploy("secretteam")
    assert {x["name"] for x in insider["requires"]} == {"helm-basics", "vault-rotate"}
    assert [x["name"] for x in insider["required_by"]] == ["release-train"]
    assert "vault-rotate" in insider["reason"] and "required by release-train" in insider["reason"]
    code, text, _ = run(capsys, "query", "deploy the payments API", "--index-dir", private, "--principals", "alice")
    assert code == 0 and "vault" not in text and "release-train" not in text


@pytest.mark.parametrize("principals", ["", " , "])
def test_principals_naming_no_one_say_public_items_only(
    principals: str, private: str, capsys: pytest.CaptureFixture[str]
) -> None:
    data, err = _json(capsys, "deploy the payments API", "--index-dir", private, "--principals", principals)
    (note,) = err.strip().splitlines()
    assert note.startswith(f"note: --principals {principals!r} names no principal") and "public items only" in note
    assert note.removeprefix("note: ") in data["warnings"]
    assert {r["name"] for r in data["results"]} <= {"deploy-api", "helm-basics"}
    code, text, err = run(capsys, "query", "deploy the payments API", "--index-dir", private, "--principals", principals)
    assert code == 0 and "public items only" in err and "public items only" not in text  # stderr, once


@pytest.mark.parametrize("principals", [None, "alice", "*"])
def test_principals_naming_someone_add_no_note(
    principals: str | None, private: str, capsys: pytest.CaptureFixture[str]
) -> None:
    asked = () if principals is None else ("--principals", principals)
    data, err = _json(capsys, "deploy the payments API", "--index-dir", private, *asked)
    assert "--principals" not in err and not any("names no principal" in w for w in data["warnings"])


def test_stats_json_always_holds_unfinished_runs() -> None:
    assert stats_json({"path": "ix", "version": 3})["unfinished_runs"] == {}
    marks = {"repo": {"started": "2026-01-01T00:00:00+00:00", "pid": 1, "path": "/src"}}
    assert stats_json({"path": "ix", "unfinished_runs": marks})["unfinished_runs"] == marks


def test_one_name_more_is_named_not_counted(sample: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A CLI audit: the demo's postgres-schema-design said "required by backend-architect,
    database-reviewer, migrations-alembic and 1 more", hiding a name behind as many
    characters; past one more, the count stays."""
    data, _ = _json(capsys, "set up a postgres migration check before deploy", "--index-dir", sample, "-k", "20")
    seen = {len(r["required_by"]) for r in data["results"]} | {len(r["requires"]) for r in data["results"]}
    assert 4 in seen  # postgres-schema-design: the case this is about
    for r in data["results"]:
        for key, said in (("requires", "requires "), ("required_by", "required by ")):
            names = [x["name"] for x in r[key]]
            if len(names) <= 4:
                assert not names or (said + ", ".join(names)) in r["reason"], r["reason"]
            else:
                assert (said + ", ".join(names[:3]) + f" and {len(names) - 3} more") in r["reason"]
    assert "and 1 more" not in json.dumps(data)
