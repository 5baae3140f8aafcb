"""reStructuredText headings and MDX syntax in what a document says about itself.

The walkthrough's files, rebuilt in tmp_path: ``pm/outage-2026-11.rst`` was described
by ``Summary``, the text of a section heading (a line underlined with ``-``), and
``adr/0002-kafka.mdx`` kept ``import Note from './Note'`` and its JSX tags in the indexed
text, while its description passed over the ``<Note>`` paragraph.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.ingest.document_sections import SPLIT_CHARS
from skill_retriever.ingest.document_text import first_paragraph, first_title
from skill_retriever.ingest.documents import ingest_documents
from skill_retriever.ingest.mdx_text import without_mdx_syntax
from skill_retriever.model import Node

OUTAGE = """=======================================
Postmortem: checkout outage, 2026-11-03
=======================================

Summary
-------

Checkout returned 502 for 40 minutes after a bad nginx config push.

Root cause
----------

The ingress config lost the upstream for checkout-api.
"""

KAFKA = """---
title: ADR 0002 - Adopt Kafka for events
tags: [adr, kafka]
---
import Note from './Note'
import {
  Tabs,
  TabItem,
} from '@theme/Tabs'

# ADR 0002

<Note>We adopt Kafka for order events.</Note>

<Tabs groupId="lang">
  <TabItem
    value="py"
    label="Python > 3.10">
    Consumers must be idempotent: use the `<Idempotent>` wrapper.
    ```python
    import kafka
    consumer = kafka.Consumer(group="orders")  # <Note> stays in code
    ```
  </TabItem>
</Tabs>

<Chart data={{series: [{x: 1}]}} />

export const meta = {owner: 'platform'}
"""


def _read(root: Path) -> dict[str, Node]:
    return {n.attrs["path"]: n for n in ingest_documents(root).nodes}


def test_an_rst_description_passes_over_section_headings(tmp_path: Path) -> None:
    root = tmp_path / "runbooks"
    write_file(root, "pm/outage-2026-11.rst", OUTAGE)
    write_file(root, "pm/plain.rst", "Summary\n*******\n\nThe queue filled up.\n")  # no title over it
    write_file(root, "setext.md", "---\ntitle: From frontmatter\n---\nSummary\n-------\n\nThe disk filled up.\n")
    nodes = _read(root)
    outage = nodes["pm/outage-2026-11.rst"]
    assert outage.name == "Postmortem: checkout outage, 2026-11-03"
    assert outage.description == "Checkout returned 502 for 40 minutes after a bad nginx config push."
    assert nodes["pm/plain.rst"].description == "The queue filled up."
    assert nodes["setext.md"].description == "The disk filled up."


def test_a_paragraph_over_a_rule_after_a_blank_line_or_an_admonition_end_is_still_prose() -> None:
    assert first_paragraph("Intro line.\n\n-----\n\nNext.\n") == "Intro line."  # a transition, not an underline
    assert first_paragraph(":::note\nKeep the pager on.\n:::\n") == ":::note Keep the pager on."  # as before
    assert first_paragraph("Title\n=====\n\nBody.\n") == "Body."


def test_an_rst_title_underlined_with_any_character_names_the_document() -> None:
    assert first_title("Restart the queue\n-----------------\n\nText.\n", ".rst") == ("Restart the queue", 2)
    assert first_title("*****\nChapter\n*****\n\nText.\n", ".RST") == ("Chapter", 3)
    # In Markdown, ``---`` under a line makes a level-2 heading: no title; nor in plain text.
    assert first_title("Restart the queue\n-----------------\n\nText.\n", ".md") is None
    assert first_title("Restart the queue\n-----------------\n", "") is None


def test_an_rst_file_is_named_by_its_first_title_whatever_underlines_it(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    write_file(root, "restart.rst", "Restart the queue\n-----------------\n\nDrain it first.\n\nSteps\n~~~~~\n\nGo.\n")
    write_file(root, "restart.md", "Restart the queue\n-----------------\n\nDrain it first.\n")
    nodes = _read(root)
    assert (nodes["restart.rst"].name, nodes["restart.rst"].description) == ("Restart the queue", "Drain it first.")
    assert nodes["restart.md"].name == "restart"  # a Markdown level-2 heading names nothing


def test_mdx_syntax_goes_line_for_line_and_code_stays() -> None:
    body = KAFKA.split("---\n", 2)[2]
    out = without_mdx_syntax(body)
    assert len(out.split("\n")) == len(body.split("\n"))  # sections keep their lines
    assert "import Note" not in out and "TabItem" not in out and "export const" not in out and "<Chart" not in out
    assert "We adopt Kafka for order events." in out.split("\n")
    assert "Consumers must be idempotent: use the `<Idempotent>` wrapper." in out.split("\n")  # inline code kept
    assert ('```python\nimport kafka\nconsumer = kafka.Consumer(group="orders")  # <Note> stays in code\n```'
            in out)  # the fence and its code, only the fence's indentation out
    assert first_paragraph(out, first_title(out)[1]) == "We adopt Kafka for order events."  # type: ignore[index]
    # A "<" that opens no tag stays: a comparison, an autolink.
    assert without_mdx_syntax("a < b, see <https://example.org>.") == "a < b, see <https://example.org>."


@pytest.mark.parametrize("crafted", [
    "<a {" * 300_000, "<a \"" + "<a " * 300_000, "``a" + "`" * 100_000 + "b" * 1_000_000,
    "<Foo " + "x" * 2_000_000, "```\n" * 300_000, "import x\n" * 200_000,
], ids=["braces", "quote", "ticks", "open-tag", "fences", "esm"])
def test_crafted_mdx_bodies_are_read_in_one_pass(crafted: str) -> None:
    # Each is done in well under a second; a pattern that backtracked would take minutes.
    assert len(without_mdx_syntax(crafted).split("\n")) == len(crafted.split("\n"))


def test_an_mdx_file_is_indexed_without_its_imports_and_tags(tmp_path: Path) -> None:
    root = tmp_path / "runbooks"
    write_file(root, "adr/0002-kafka.mdx", KAFKA)
    (doc,) = _read(root).values()
    assert doc.name == "ADR 0002 - Adopt Kafka for events"
    assert doc.description == "We adopt Kafka for order events."
    for syntax in ("import Note", "<Note>We", "</Note>", "<Tabs", "TabItem", "export const", "<Chart"):
        assert syntax not in doc.text, syntax
    assert "We adopt Kafka for order events." in doc.text and "`<Idempotent>`" in doc.text
    assert 'import kafka\nconsumer = kafka.Consumer(group="orders")  # <Note> stays in code' in doc.text  # code stays


def test_a_long_mdx_files_sections_point_at_their_lines(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    filler = "Operators read this during an incident. " * 400
    body = "---\ntitle: Guide\n---\nimport A from './A'\n\n" + "".join(
        f"## Step {n}\n\n<Callout type=\"info\">\n  {filler}\n</Callout>\n\n" for n in range(1, 5))
    path = write_file(root, "guide.mdx", body)
    nodes = [n for n in ingest_documents(root).nodes if "line" in n.attrs]
    assert [n.attrs["section"] for n in nodes] == [f"Step {n}" for n in range(1, 5)]
    assert len(body) > SPLIT_CHARS
    lines = path.read_text(encoding="utf-8").split("\n")
    for node in nodes:
        assert lines[node.attrs["line"] - 1] == f"## {node.attrs['section']}"
        assert "Callout" not in node.text and node.description.startswith("Operators read this")


def test_an_rst_file_is_dated_by_its_field_list(tmp_path: Path) -> None:
    """An .rst postmortem dated by a field list (docutils' ``:Date:`` under the title,
    Sphinx's ``:date:`` above it) was undated: every since/until window left it out."""
    root = tmp_path / "pm"
    write_file(root, "docinfo.rst", OUTAGE.replace("\nSummary\n", "\n:Date: 2026-11-03\n:Author: SRE\n\nSummary\n", 1))
    write_file(root, "sphinx.rst", ":date: 2026-03-01\n:last_updated: 2026-03-05T10:00:00Z\n:tags: pm\n\n"
                                   "Payments outage\n===============\n\nPayments failed for ten minutes.\n")
    write_file(root, "later.rst", "Queue\n=====\n\nThe queue filled up.\n\n:date: 2020-01-01\n")  # not at the top
    write_file(root, "bad.rst", ":date: March 1, 2026\n\nDisk full\n=========\n\nThe disk filled up.\n")
    write_file(root, "both.rst", "---\ndate: 2026-02-01\n---\n:date: 2025-01-01\n\nBoth\n====\n\nText.\n")
    result = ingest_documents(root)
    nodes = {n.attrs["path"]: n for n in result.nodes}
    docinfo = nodes["docinfo.rst"]
    assert docinfo.created == datetime(2026, 11, 3, tzinfo=UTC)
    assert docinfo.description == "Checkout returned 502 for 40 minutes after a bad nginx config push."
    sphinx = nodes["sphinx.rst"]
    assert (sphinx.name, sphinx.created, sphinx.updated) == (
        "Payments outage", datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 3, 5, 10, tzinfo=UTC))
    assert sphinx.tags == ()  # only the dates are read from it
    assert nodes["later.rst"].created is None
    assert nodes["bad.rst"].created is None
    assert any("'date' 'March 1, 2026' is not an ISO date" in p.message for p in result.problems)
    assert nodes["both.rst"].created == datetime(2026, 2, 1, tzinfo=UTC)  # frontmatter first
