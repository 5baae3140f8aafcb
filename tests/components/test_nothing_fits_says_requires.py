"""A ``search_components`` answer where nothing fits shows its closest matches with nothing
added, through a real MCP client connected in-process: each still says what it requires
(what the caller may see of it). It said ``"requires": []`` of a component that requires
two others, which an agent read as "needs nothing" before installing it; a private
requirement stays unnamed."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_calls import run
from mcp_in_process import tool_answers

QUERY = "quantum chromodynamics lattice gauge xylophone"
SKILLS = {
    "deploy-service": "requires: [json-logging, vault-rotation]\n",
    "json-logging": "",
    "vault-rotation": "access: [secops]\n",
    "theme-slides": "",
}


@pytest.fixture
def ix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    for name, front in SKILLS.items():
        path = tmp_path / f"cat/skills/{name}/SKILL.md"
        path.parent.mkdir(parents=True)
        text = f"---\nname: {name}\ndescription: The {name} skill for web services.\n{front}---\n\nBody of {name}.\n"
        path.write_text(text, encoding="utf-8")
    folder = tmp_path / "ix"
    code, _, err = run(capsys, "index", tmp_path / "cat", "--index-dir", folder)
    assert code == 0, err
    return folder


def test_the_closest_matches_say_what_they_require(ix: Path) -> None:
    for principals, shown in ((["*"], ["json-logging", "vault-rotation"]), (["alice"], ["json-logging"])):
        out = tool_answers(ix, principals, {
            "brief": ("search_components", {"query": QUERY, "k": 4}),
            "full": ("search_components", {"query": QUERY, "k": 4, "detail": "full"}),
        })  # fmt: skip
        brief, full = out["brief"], out["full"]
        assert brief["nothing_fits"] and "nothing they need was added" in brief["note"]
        assert all(r["role"] == "match" for r in brief["results"])  # nothing added
        deploy = next(r for r in brief["results"] if r["name"] == "deploy-service")
        assert deploy["requires"] == shown
        deploy = next(r for r in full["results"] if r["name"] == "deploy-service")
        assert deploy["rationale"]["requires"] == shown and deploy["brings"] == []
        if principals == ["alice"]:
            assert "vault-rotation" not in str(out)
