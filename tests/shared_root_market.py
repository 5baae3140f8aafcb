"""A marketplace laid out as anthropics/skills' is: several entries, each ``"source": "./"``
and ``"strict": false``, naming its own skills below the one ``skills/`` folder
(https://github.com/anthropics/skills/blob/045219e962325c583452ebd956a72f5dafc956a3/.claude-plugin/marketplace.json;
../shared/data/skills/anthropics__skills kept its skills, not that file)."""

from __future__ import annotations

from pathlib import Path

from files import write_file

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
