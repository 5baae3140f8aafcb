"""The errors skill-retriever raises. Each message says what is wrong and what to do.

Each also derives from the builtin error it is a case of (ValueError for bad input,
TimeoutError, RuntimeError for a state the caller cannot fix by rewording): LangGraph
Server hands a client the message of a builtin error type only, so a client of the server
graphs reads "no readable index at ...; run `skill-retriever index` first" instead of
"An internal error occurred".
"""

from __future__ import annotations

import copyreg
from typing import Any, cast


class SkillRetrieverError(Exception):
    """Base class for every error this package raises on purpose."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (and copy) without calling ``__init__`` again. Python rebuilds an error
        as ``type(error)(*error.args)``, and ``args`` holds the message alone, so a class
        whose ``__init__`` takes other arguments (``QueryTooLongError(length, limit)``)
        could not be unpickled: a LangGraph Server worker or a multiprocessing pool that
        hands an error back got a TypeError instead. The builtin base's own reduction
        (``OSError``'s errno and filename, ``ImportError``'s name) is kept; the attributes
        ``__init__`` set come back from the instance's ``__dict__``."""
        # BaseException's is (type, args[, state]), never the str typeshed allows.
        _cls, args, *rest = cast("tuple[Any, ...]", super().__reduce__())
        return (copyreg.__newobj__, (type(self), *args), *rest)  # type: ignore[attr-defined]


class InvalidItemError(SkillRetrieverError, ValueError):
    """A node or edge is malformed: unknown kind, empty text, bad timestamp, ..."""


class DuplicateItemError(InvalidItemError):
    """Two nodes share one id in a batch, or an add would overwrite an existing id."""


class MissingNodeError(InvalidItemError, KeyError):
    """An edge names a node that is not in the index, or a lookup found nothing."""

    def __str__(self) -> str:  # KeyError would quote the message; keep it readable.
        return str(self.args[0]) if self.args else ""


class IndexOpenError(SkillRetrieverError, RuntimeError):
    """The index cannot be opened or read: catch this for every reason at once. Its
    subclasses tell apart what to do; only `IndexCorruptError` means the index is damaged
    (repair or rebuild it): none of the others is mended by rebuilding it::

        IndexOpenError
        ├── IndexNotFoundError       no index there: build one, or point at one
        ├── IndexCorruptError        damaged: `skill-retriever repair`, or rebuild
        ├── ServerUnreachableError   its Chroma server is down: retry when it is back
        ├── IndexPermissionError     this user may not read (or write) its files: chmod/chown
        ├── IndexLocationError       a new index cannot go there: choose an empty or new folder
        └── IndexClosedError         the Index (or a Retriever over it) was closed: open it again

    The last four were formerly `IndexCorruptError`s, so code that caught it to rebuild
    or repair an index acted on one that nothing was wrong with."""


class IndexCorruptError(IndexOpenError):
    """The index is there but damaged: half-written, a file missing or unreadable, its
    vectors another model's. The message says how to repair it (`skill-retriever repair`)
    or rebuild it."""


class IndexNotFoundError(IndexOpenError):
    """There is no index at that path: nothing there, a file, a folder of other files, or
    one still being built; or the index an open handle read was moved, deleted or built
    again since (open it again where it is now). Nothing is damaged: build one
    (`skill-retriever index`), or point at the index. It was a subclass of `IndexCorruptError`, so ``except IndexCorruptError``
    told a user with no index that theirs was corrupt; catch `IndexOpenError` for both."""


class ServerUnreachableError(IndexOpenError):
    """The index's Chroma server cannot be reached (nothing listens, the connection failed
    or timed out, the host does not resolve). The index is not damaged: do not rebuild it;
    retry once the server is back (the message says how to start it or which address to
    check). It was formerly a subclass of `IndexCorruptError`."""

    #: True when the command that raised it wrote nothing (its open refused before any
    #: write): the CLI then says so, rather than that a part-done run is to be completed.
    nothing_written: bool = False


class IndexPermissionError(IndexOpenError):
    """A file of the index cannot be read (or, by a writer, written) by this process.
    Nothing is damaged: the message says whose the file is and how to give the rights;
    deleting the index would lose what only it holds. Formerly a subclass of
    `IndexCorruptError`."""


class IndexLocationError(IndexOpenError):
    """A new index cannot be made at that path: it is a file, a folder that holds other
    files, or a folder that cannot be created. Nothing is damaged and nothing there was
    touched: choose an empty or new folder. Formerly an `IndexCorruptError`."""


class IndexClosedError(IndexOpenError):
    """The `Index` was closed (``close()``, or its ``with`` block ended) and is used again,
    directly or by a `Retriever` over it: a mistake of the calling code, not damage; open
    it again with ``Index.open``. Formerly an `IndexCorruptError`."""


class RetrieverClosedError(SkillRetrieverError, RuntimeError):
    """The `Retriever` was closed (``close()``, or its ``with`` block ended) and is used
    again: a mistake of the calling code; make a new ``Retriever(index)``. Not an
    `IndexOpenError`: its index may well be open (a closed index raises `IndexClosedError`)."""


class IndexLockedError(SkillRetrieverError, RuntimeError):
    """Another process is writing this index directory (one writer at a time).

    The message names the Python way to wait (``Index.open(..., lock_wait_s=...)``);
    ``directory``, ``holder`` (the writer's pid, None when unknown) and ``waited_s`` let
    another entry point, such as the CLI with its ``--lock-wait``, say it its own way.
    """

    def __init__(
        self, message: str, directory: str | None = None, holder: int | None = None, waited_s: float = 0.0
    ) -> None:
        super().__init__(message)
        self.directory = directory
        self.holder = holder
        self.waited_s = waited_s


class QueryError(SkillRetrieverError, ValueError):
    """A query is unusable: empty, whitespace only, too long, or not text."""


class QueryTooLongError(QueryError):
    """A query over ``max_query_chars``; ``length`` and ``limit`` in characters."""

    def __init__(self, length: int, limit: int, message: str | None = None) -> None:
        self.length = length
        self.limit = limit
        super().__init__(
            message or f"the query is {length:,} characters, over the limit of {limit:,}; "
            "shorten it or raise max_query_chars (CLI: --max-query-chars)"
        )

    def said_of(self, what: str, *, served: bool) -> QueryTooLongError:
        """The same refusal named as the caller's own input ``what`` (a coding agent's
        ``task``). ``served``: for a client of a server (LangGraph Server's graphs), whose
        limit is the deployment's (a run may lower it, never raise it): it can only shorten."""
        head = f"the {what} is {self.length:,} characters, over "
        if served:
            return QueryTooLongError(self.length, self.limit, f"{head}this server's limit of {self.limit:,}; shorten it")
        return QueryTooLongError(
            self.length, self.limit,
            f"{head}the limit of {self.limit:,}; shorten it or raise max_query_chars in the context's RetrievalConfig",
        )

    @property
    def to_agent(self) -> str:
        """The message for a model calling a tool (LangChain, MCP): it can only shorten the
        query, not raise the deployment's limit or pass a CLI flag."""
        return (
            f"the query is {self.length:,} characters, over this tool's limit of {self.limit:,}. "
            "Shorten it to the task itself and call the tool again."
        )


class ConfigError(SkillRetrieverError, ValueError):
    """A configuration value has the wrong type or is out of range."""


class CommandArgumentError(ConfigError):
    """A command-line argument refused after argparse took it (``index`` with no path): the
    CLI says it as argparse says its own, ``skill-retriever index: error: ...``."""


class PhaseTimeoutError(SkillRetrieverError, TimeoutError):
    """A retrieval phase ran past its limit (``phase_timeout_s`` / ``phase_timeouts``)."""


class IngestError(SkillRetrieverError, RuntimeError):
    """A source cannot be read at all (a per-file problem is reported, not raised)."""


class PowerIterationFailedConvergence(SkillRetrieverError, RuntimeError):
    """Personalized PageRank did not converge within the iteration limit."""

    def __init__(self, max_iter: int, error: float) -> None:
        super().__init__(
            f"PPR power iteration did not converge in {max_iter} iterations "
            f"(last L1 change {error:.3g}); raise max_iter or tol."
        )
        self.max_iter = max_iter
        self.error = error
