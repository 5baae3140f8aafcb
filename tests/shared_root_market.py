"""A marketplace laid out as anthropics/skills' is: several entries, each ``"source": "./"``
and ``"strict": false``, naming its own skills below the one ``skills/`` folder
(https://github.com/anthropics/skills/blob/045219e962325c583452ebd956a72f5dafc956a3/.claude-plugin/marketplace.json;
../shared/data/skills/anthropics__skills kept its skills, not that file)."""

from __future__ import annotations

import json
from pathlib import Path

from files import write_file

from skill_retriever.cli import main

MARKET = ".claude-plugin/marketplace.json"
#: As anthropics/skills' marketplace.json groups its skills (three of its six entries).
GROUPS = {
    "document-skills": ["xlsx", "docx", "pptx", "pdf"],
    "example-skills": ["algorithmic-art", "brand-guidelines", "mcp-builder"],
    "claude-api": ["claude-api"],
}


def _skill(name: str) -> str:
    return f"---\nname: {name}\ndescription: Works with {name.replace('-', ' ')} tasks.\n---\n\n# {name}\n"


def shared_root(root: Path, groups: dict[str, list[str]], extra: tuple[str, ...] = ()) -> Path:
    """A marketplace like anthropics/skills' at ``root``: one entry per group, each
    ``"source": "./"``, ``"strict": false``, listing its skills; ``extra`` skills are in
    skills/ but listed by no entry."""
    plugins = [{"name": name, "description": f"The {name} collection.", "source": "./", "strict": False,
                "skills": [f"./skills/{s}" for s in skills]} for name, skills in groups.items()]
    write_file(root, MARKET, {"name": "anthropic-agent-skills", "owner": {"name": "A"}, "plugins": plugins})
    for name in {s for skills in groups.values() for s in skills} | set(extra):
        write_file(root, f"skills/{name}/SKILL.md", _skill(name))
        write_file(root, f"skills/{name}/LICENSE.txt", "Apache-2.0\n")
    return root


def shared_root_components(root: Path) -> Path:
    """A marketplace root holding commands, agents and hooks besides skills, listed by three
    entries, each ``"source": "./"``: ``alpha`` names its own ``commands`` (one file of
    commands/ and one elsewhere), ``beta`` its own ``agents``, ``gamma`` nothing. A
    ``commands`` or ``agents`` path replaces the default folder, for that entry only."""
    plugins = [
        {"name": "alpha", "description": "Alpha deploy tools.", "source": "./", "strict": False,
         "commands": ["./commands/deploy.md", "./extras/ship.md"]},
        {"name": "beta", "description": "Beta reviewers.", "source": "./", "strict": False,
         "agents": "./agents/reviewer.md"},
        {"name": "gamma", "description": "Gamma, all by default.", "source": "./", "strict": False},
    ]
    write_file(root, MARKET, {"name": "acme-market", "owner": {"name": "A"}, "plugins": plugins})
    for rel, what in [("commands/deploy.md", "Deploy the app"), ("commands/clean.md", "Clean the build"),
                      ("extras/ship.md", "Ship a release")]:
        write_file(root, rel, f"---\ndescription: {what}\n---\n\n{what}.\n")
    for name in ("reviewer", "tester"):
        write_file(root, f"agents/{name}.md", f"---\nname: {name}\ndescription: The {name} agent.\n---\n\nWork.\n")
    write_file(root, "hooks/hooks.json", {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo stop"}]}]}})
    write_file(root, "skills/pdf/SKILL.md", _skill("pdf"))
    return root


def shared_root_components_index(root: Path) -> Path:
    """The index (``root/ix``) of `shared_root_components` written at ``root/repo``."""
    assert main(["index", str(shared_root_components(root / "repo")), "--index-dir", str(root / "ix")]) == 0
    return root / "ix"


def shared_root_requiring(root: Path) -> Path:
    """`shared_root_components` with ``beta`` naming ``extras/ship.md`` as its commands and
    ``extras/auditor.md``, an agent that requires ``deploy``, as its agents: ``deploy``
    is loaded by ``alpha`` and ``gamma`` (filed by the index under alpha, the first) and
    only required by ``beta``, which brings it along as a dependency."""
    shared_root_components(root)
    write_file(root, "extras/auditor.md",
               "---\nname: auditor\ndescription: The auditor agent.\nrequires: [deploy]\n---\n\nWork.\n")
    market = json.loads((root / MARKET).read_text(encoding="utf-8"))
    market["plugins"][1].update(commands=["./extras/ship.md"], agents="./extras/auditor.md")
    write_file(root, MARKET, market)
    return root
