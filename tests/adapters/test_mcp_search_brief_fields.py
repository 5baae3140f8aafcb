"""The MCP ``search`` tool's brief results keep a snippet beside the fields added whole.

A walkthrough of the README found a dated skill of the bundled sample answered with
``"snippet": ""``: its absolute ``source`` path and its ``created`` / ``updated`` dates
were counted in the brief budget, which only the snippet and the reason can give way to,
so the snippet went first. The README says each result carries a one-line reason, a
snippet, its token count, its dates and its source; the budget now bounds the text it can
cut, and the path, dates and flags are added whole.
"""

from __future__ import annotations

import json
from pathlib import Path

from mcp_in_process import tool_answers

from skill_retriever.algorithms.budget import token_counter
from skill_retriever.components.results import BRIEF_TOKENS

WHOLE = ("source", "created", "updated", "flags")


def test_a_dated_skill_keeps_its_snippet_and_the_cut_fields_keep_to_the_budget(sample_index_path: Path) -> None:
    answers = tool_answers(sample_index_path, ["*"], {"hits": ("search", {"query": "structured logging", "k": 5})})
    results = answers["hits"]["results"]
    dated = [r for r in results if "created" in r and "source" in r]
    assert dated, results  # the sample's skills carry dates and are read from files
    for r in dated:
        assert r["snippet"], r  # was "" for structured-logging
        assert Path(r["source"].split("#")[0]).is_file() and r["created"][:4].isdigit()
    count = token_counter()
    for r in results:
        cut = {key: value for key, value in r.items() if key not in WHOLE}
        assert count(json.dumps(cut, ensure_ascii=False)) <= BRIEF_TOKENS, r
