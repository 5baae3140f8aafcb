"""A pasted stack trace is searched for the code and the error it names.

Before, a Python traceback's header "Traceback (most recent call last)" was read as the
time phrase "most recent" (the temporal channel asked for this week's items, and the
answer warned that no item carries a date), and every frame's "File", "line" and
"<module>" were searched as topics.
"""

from __future__ import annotations

import pytest

from skill_retriever.algorithms.stack_traces import condense_stack_traces
from skill_retriever.components.rationale import matched_terms
from skill_retriever.config import RetrievalConfig
from skill_retriever.model import Node, NodeKind
from skill_retriever.querytext import clean_query, search_text_of
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

PYTHON_TRACE = """Traceback (most recent call last):
  File "/home/me/app/main.py", line 12, in <module>
    run()
  File "/home/me/app/util.py", line 3, in load_config
    return open(p).read()
FileNotFoundError: [Errno 2] No such file or directory: 'cfg.yaml'"""


def searched(text: str) -> str:
    """What the channels read of ``text`` typed as a query (newlines are spaces by then)."""
    return search_text_of(clean_query(text, 100_000), RetrievalConfig())[0]


def test_a_python_traceback_keeps_its_error_and_code_and_loses_its_boilerplate() -> None:
    text = searched(PYTHON_TRACE)
    words = text.split()
    assert "FileNotFoundError:" in words and "'cfg.yaml'" in words
    assert "main.py" in words and "util.py" in words and "load_config" in words
    assert "run()" in words and "open(p).read()" in words  # the source lines it shows
    for boilerplate in ("File", "line", "<module>", "(most", "recent", "last):", '"/home/me/app/main.py",'):
        assert boilerplate not in words
    assert words[0] == "Traceback"


def test_the_traceback_header_is_no_time_phrase() -> None:
    _, window = search_text_of(clean_query(PYTHON_TRACE, 100_000), RetrievalConfig())
    assert window is None
    # The same words outside a traceback still name a time.
    _, window = search_text_of("the most recent deploy logs", RetrievalConfig())
    assert window is not None and window.phrase.lower() == "most recent"


def test_chained_python_exceptions_lose_their_joining_sentences() -> None:
    trace = PYTHON_TRACE + (
        "\n\nDuring handling of the above exception, another exception occurred:\n\n" + PYTHON_TRACE
    )
    text = searched(trace)
    assert "During handling" not in text and "another exception" not in text
    assert text.count("FileNotFoundError") == 2


@pytest.mark.parametrize(
    ("frame", "becomes"),
    [
        ("    at renderList (/srv/app/src/list.js:10:15)", "renderList list.js"),
        ("    at async Server.handle (file:///srv/app/server.mjs:44:3)", "Server.handle server.mjs"),
        ("    at /srv/app/index.js:3:1", "index.js"),
        ("    at new Foo (/srv/foo.js:1:1)", "Foo foo.js"),
        ("    at Object.<anonymous> (C:\\app\\x.js:1:2)", "x.js"),
        ("\tat com.acme.Repo.load(Repo.java:42)", "com.acme.Repo.load"),
        ("\tat java.base/java.lang.Thread.run(Native Method)", "java.base/java.lang.Thread.run"),
    ],
)
def test_javascript_and_jvm_frames_name_their_code(frame: str, becomes: str) -> None:
    assert condense_stack_traces(frame).strip() == becomes


@pytest.mark.parametrize(
    ("frame", "becomes"),
    [
        # Installed code names its package: the library the trace runs through.
        (
            '  File "/home/me/.venv/lib/python3.11/site-packages/sqlalchemy/engine/base.py", line 9, in execute',
            "sqlalchemy base.py execute",
        ),
        ('  File "/usr/lib/python3/dist-packages/requests/api.py", line 5, in get', "requests api.py get"),
        ("    at Router.handle (/srv/app/node_modules/@nestjs/core/router/router.js:10:5)",
         "@nestjs/core Router.handle router.js"),
        ("    at next (C:\\app\\node_modules\\express\\lib\\router\\index.js:1:2)", "express next index.js"),
        # A one-file module says its name already; the standard library and the user's
        # own files name no package.
        ('  File "/venv/lib/python3.11/site-packages/six.py", line 3, in reraise', "six.py reraise"),
        ('  File "/usr/lib/python3.11/json/decoder.py", line 337, in decode', "decoder.py decode"),
        ('  File "/home/me/app/site-packages-notes/x.py", line 1, in f', "x.py f"),
    ],
)
def test_a_frame_in_installed_code_names_its_package(frame: str, becomes: str) -> None:
    assert condense_stack_traces(frame).strip() == becomes


def test_the_channels_search_the_package_a_trace_runs_through() -> None:
    trace = PYTHON_TRACE.replace('"/home/me/app/util.py"', '"/venv/lib/python3.11/site-packages/sqlalchemy/orm/session.py"')
    words = searched(trace).split()
    assert words[words.index("session.py") - 1] == "sqlalchemy"
    assert "sqlalchemy" not in searched(PYTHON_TRACE).split()


def test_prose_is_left_as_written() -> None:
    for text in (
        "look at this: the most recent deploy at 10:30:00 at home",
        'File "notes" and line 3 of the plan',
        "meet at 12:30 ... 3 more items",
    ):
        assert condense_stack_traces(text) == text


def test_a_jvm_trace_loses_its_elided_frame_count() -> None:
    trace = "java.io.IOException: disk\n\tat com.acme.Disk.read(Disk.java:3)\n\t... 12 more"
    assert condense_stack_traces(trace).split() == ["java.io.IOException:", "disk", "com.acme.Disk.read"]


def test_the_answer_explains_with_the_words_searched(shared_tiny_index: Index) -> None:
    node = Node(id="t/x", kind=NodeKind.SKILL, name="x", description="", text="open the path, read each line, most recent first")
    assert matched_terms(PYTHON_TRACE, node) == ("open", "read")  # not "line", "recent"
    response = Retriever(shared_tiny_index, reranker=None, cache_size=0).search(PYTHON_TRACE)
    assert response.results
    assert not any("names a time" in w for w in response.warnings)
    assert "temporal" not in response.stats.get("channels", {})
