"""A pasted stack trace, read for what it says rather than for the words every trace has.

An agent's task often carries a traceback. Read as it is, its boilerplate outweighs its
content: every Python frame says ``File "...", line N, in f``, so the keyword channel
matched "file", "line" and "module" in unrelated items, and the header "Traceback (most
recent call last)" was read as the time phrase "most recent", which asked the temporal
channel for this week's items. `condense_stack_traces` rewrites each frame to what
names the code (the file's name and the function), drops the header's parenthesis and
the lines that only join chained exceptions, and keeps everything else as written: the
exception line, the source lines a frame shows, and any text around the trace.

A frame in installed code names its package too: the file's own name alone says
``base.py`` where the path says ``site-packages/sqlalchemy/engine/base.py``, and the
library a trace runs through is often what the task is about (a SQLAlchemy error wants the
database skill). So a Python frame under ``site-packages`` or ``dist-packages``, and a
JavaScript frame under ``node_modules``, starts with the package's name
(``sqlalchemy session.py commit``; ``@nestjs/core Router.handle router.js``); the standard
library and the user's own files keep the file's name alone.

Recognised anywhere in the text (newlines are spaces by the time a query is searched),
and nothing else is changed:

* Python: ``File "/app/main.py", line 12, in run`` becomes ``main.py run``;
  ``Traceback (most recent call last):`` becomes ``Traceback``;
  ``During handling of the above exception, ...`` and ``The above exception was the
  direct cause ...`` go.
* JavaScript (V8): ``at handler (/srv/app.js:10:5)`` becomes ``handler app.js``; a frame
  with no function (``at /srv/app.js:10:5``) becomes ``app.js``.
* Java and the JVM languages: ``at com.acme.Repo.load(Repo.java:42)`` becomes
  ``com.acme.Repo.load``; ``... 12 more`` after a frame goes.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["condense_stack_traces"]

# Not anchored to lines: `querytext.clean_query` has made every newline a space by now.
_PY_HEADER_RE = re.compile(r"\bTraceback \(most recent call last\):")
_PY_FRAME_RE = re.compile(r'\bFile "([^"\n]*)", line \d+(?:, in (\S+))?')
_PY_CHAIN_RE = re.compile(
    r"During handling of the above exception, another exception occurred:"
    r"|The above exception was the direct cause of the following exception:"
)
# V8: "at fn (path:line:col)", "at async fn (path:line:col)", "at path:line:col" (a path
# with a folder in it, so that prose such as "at 10:30:00" is left alone).
_JS_FRAME_RE = re.compile(
    r"\bat (?:async )?(?:((?:new )?[\w$.<>\[\]]+) \(([^\s()]+):\d+:\d+\)|([^\s()]*[/\\][^\s()]*):\d+:\d+)"
)
_JVM_FRAME_RE = re.compile(r"\bat ([\w$.<>/]+\.[\w$<>]+)\((?:[\w$.-]+:\d+|Native Method|Unknown Source)\)")
# Only right after a frame: "... 3 more items" in prose is text.
_JVM_MORE_RE = re.compile(r"(\))\s+\.\.\. \d+ more\b")


def _basename(path: str) -> str:
    """The file's own name: ``/home/me/app/main.py`` -> ``main.py`` (also ``file://``,
    Windows paths and ``<stdin>``)."""
    return re.split(r"[/\\]", path.rstrip("/\\"))[-1]


def _package(path: str, folder: str) -> str:
    """The installed package a frame's file lies in: the name after the last ``folder``
    (``site-packages``, ``node_modules``) in ``path``, with its scope when it has one
    (``@nestjs/core``); "" for a file outside any such folder, or a one-file module lying
    in it (its file's name already names it)."""
    parts = [p for p in re.split(r"[/\\]", path) if p]
    at = max((i for i, p in enumerate(parts) if p == folder), default=-1)
    rest = parts[at + 1 :] if at >= 0 else []
    if len(rest) < 2:
        return ""
    if rest[0].startswith("@") and len(rest) >= 3:
        return f"{rest[0]}/{rest[1]}"
    return rest[0]


def _python_frame(m: re.Match[str]) -> str:
    path, func = m.group(1), m.group(2) or ""
    if func == "<module>":  # every top-level frame says so
        func = ""
    package = _package(path, "site-packages") or _package(path, "dist-packages")
    return " ".join(w for w in (package, _basename(path), func) if w)


def _js_frame(m: re.Match[str]) -> str:
    func, path = m.group(1) or "", m.group(2) or m.group(3)
    func = func.removeprefix("new ")
    if func in ("Object.<anonymous>", "<anonymous>"):
        func = ""
    return " ".join(w for w in (_package(path, "node_modules"), func, _basename(path)) if w)


@lru_cache(maxsize=64)  # the same query is read for the search and for each result's words
def condense_stack_traces(text: str) -> str:
    """``text`` with the frames of any stack trace in it reduced to the code they name.

    Text with no frame comes back unchanged (the same string), so a query that is not a
    trace costs one scan per pattern and nothing else.
    """
    if 'File "' not in text and "at " not in text and "Traceback (" not in text:
        return text
    out = _PY_HEADER_RE.sub("Traceback", text)
    out = _PY_CHAIN_RE.sub("", out)
    out = _PY_FRAME_RE.sub(_python_frame, out)
    out = _JVM_MORE_RE.sub(r"\1", out)
    out = _JVM_FRAME_RE.sub(r"\1", out)
    return _JS_FRAME_RE.sub(_js_frame, out)
