"""What every ``skill-retriever`` subcommand shares: the parser, the index options and how
an index is opened from them, and the query's checked options. Its own module so that
feature commands (benchmark, install, mcp) use the same options without importing the main
CLI module."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from skill_retriever.advice import default_index_dir
from skill_retriever.safety.terminal import printable_json

if TYPE_CHECKING:
    from skill_retriever.exceptions import IndexLockedError, SkillRetrieverError
    from skill_retriever.stores.index import Index

DEFAULT_INDEX_DIR = str(default_index_dir())  # $SKILL_RETRIEVER_INDEX unless blank, else .skill-retriever
#: Where ``--index-dir``'s default comes from, for every command's help.
INDEX_DIR_DEFAULT = f"default: $SKILL_RETRIEVER_INDEX, else .skill-retriever; now {DEFAULT_INDEX_DIR}"

__all__ = [
    "DEFAULT_INDEX_DIR", "INDEX_DIR_DEFAULT", "Parser", "add_index_options", "add_lock_wait_option", "add_query_limits", "error_line",
    "error_text", "folder_named", "kind_list", "lock_wait_of", "open_for_repair", "open_index", "print_json_error",
]


class Parser(argparse.ArgumentParser):
    """argparse's parser, except that a usage error on a command line holding ``--json`` is
    also ``{"error": ...}`` on stdout: a program reading the output (``... --json | jq``)
    gets JSON, not nothing. argparse makes the subcommands' parsers of the same class."""

    _json = False
    given: Sequence[str] = ()

    def parse_known_args(  # type: ignore[override]  # one signature for typeshed's overloads
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> tuple[Any, list[str]]:
        # a subcommand's parser is given the arguments after its name, --json among them
        self.given = list(sys.argv[1:] if args is None else args)
        self._json = "--json" in self.given
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        """One line on stderr, exit 2: argparse's own prints the whole usage block first
        (ten lines for ``query``), which buries the line that says what is wrong."""
        from skill_retriever.dash_words import dash_word_advice

        message += dash_word_advice(self, message, self.given)  # `query --no-verify`: "required: query"
        if self._json:
            print_json_error(message)
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def print_json_error(message: str, exc: BaseException | None = None) -> None:
    """An error as ``--json`` output: ``{"error": message}`` on stdout (the one line on
    stderr and the exit status stay as they are); with ``"candidates"``, the ids of the
    components a name given to install (or the installed ones a name given to uninstall)
    answers to (``exc``: several, of which the caller
    must pick one by id, said only inside the sentence before)."""
    candidates = list(getattr(exc, "candidates", None) or ())
    data = {"error": message, **({"candidates": candidates} if candidates else {})}
    print(printable_json(json.dumps(data, ensure_ascii=False)))


def add_index_options(sp: argparse.ArgumentParser) -> None:
    """``--index-dir``, ``--chroma-url`` and ``--json``."""
    add_location_options(sp)
    add_json_option(sp)


def add_location_options(sp: argparse.ArgumentParser) -> None:
    """``--index-dir`` and ``--chroma-url``: for a command that reads an index."""
    sp.add_argument(
        "--index-dir", default=DEFAULT_INDEX_DIR, type=folder_named,
        help=f"index directory ({INDEX_DIR_DEFAULT})",
    )
    sp.add_argument(
        "--chroma-url", default=None,
        help="the Chroma server that holds the index's vectors (e.g. http://127.0.0.1:8000; default: the one index.json names, if any)",
    )


def folder_named(text: str) -> str:
    """An ``--index-dir`` value: an empty one (``--index-dir "$UNSET"``) would be the
    current folder, read or written without a word."""
    from skill_retriever.empty_args import not_empty  # what every empty path option says

    return not_empty(text, "give the index's folder (or leave --index-dir out)")


def add_json_option(sp: argparse.ArgumentParser) -> None:
    """``--json``: for a command that prints a result."""
    sp.add_argument("--json", action="store_true", help="machine-readable output")


def add_lock_wait_option(sp: argparse.ArgumentParser) -> None:
    """``--lock-wait``: for a command that writes the index. One process writes an index at
    a time; without it a second writer fails at once with a message naming this option."""
    sp.add_argument(
        "--lock-wait",
        type=_seconds,
        default=0.0,
        metavar="SECONDS",
        help="when another process is writing the index, wait up to this long for it (default 0: fail at "
        "once, exit status 75)",
    )


def _seconds(text: str) -> float:
    """A ``--lock-wait`` value: a finite number of seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value):  # `inf` is 0 or more: saying so refused it in words it met
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds (86400 waits up to a day), got {text}")
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more seconds, got {text}")
    return value


def add_query_limits(q: argparse.ArgumentParser) -> None:
    """``-k``, ``--budget``, ``--max-query-chars``, ``--clause-coverage``, ``--feedback-docs`` and
    ``--multifactor-ranking``, each refused by argparse outside its setting's range in words
    that name the flag: the search's own check names the Python setting (``token_budget``),
    which the command line does not have."""
    q.add_argument("-k", type=_at_least(1, "results"), default=10, help="results to return (default 10)")
    q.add_argument("--budget", type=_at_least(0, "tokens"), default=None, help="token budget for the results (default: none, no limit)")
    q.add_argument(
        "--max-query-chars", type=_at_least(1, "characters"), default=None,
        help="longest query accepted (default 100,000 characters)",
    )
    q.add_argument(
        "--clause-coverage",
        type=_fraction,
        default=None,
        metavar="LAMBDA",
        help="how much a request's separate asks shape the top, 0-1 (0 = off; default: as the index suggests, "
        "0.5 for a component or tool catalogue)",
    )
    q.add_argument(
        "--feedback-docs",
        type=_at_least(0, "items"),
        default=None,
        metavar="N",
        help="search the semantic channel again from the query moved toward the N best items of a keyword + "
        "semantic fusion (0 = off; default: as the index suggests, 2 where most items are long, such as skills)",
    )
    q.add_argument(
        "--multifactor-ranking",
        type=_on_off,
        default=None,
        metavar="{on,off}",
        help="fuse the smart route's own ranking of its graph neighbourhood (mostly each item's cosine to the "
        "query) as the graph channel (default: as the index suggests, off where at least 50%% of the items run "
        "past 200 words, such as skills; on elsewhere)",
    )


def _at_least(low: int, unit: str) -> Callable[[str], int]:
    """The argparse type of a whole number of ``unit``, ``low`` or more."""

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of {unit}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be {low} or more {unit}, got {text}")
        return value

    return whole


def _on_off(text: str) -> bool:
    """A ``--multifactor-ranking`` value: on or off, in any case."""
    word = text.strip().lower()
    if word not in ("on", "off"):
        raise argparse.ArgumentTypeError(f"must be on or off, got {text!r}")
    return word == "on"


def _fraction(text: str) -> float:
    """A ``--clause-coverage`` value: a number from 0 (off) to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number from 0 to 1") from None
    if not 0.0 <= value <= 1.0:  # NaN too
        raise argparse.ArgumentTypeError(f"must be a number from 0 (off) to 1, got {text}")
    return value


def kind_list(text: str) -> list[str]:
    """A ``--kinds`` value: comma-separated kinds, in any case (``Skill,AGENT``), as a JSON
    graph's ``kind`` may be written. Empty entries (``skill,,agent``, a trailing comma) are
    dropped rather than read as a kind named ''. A plural or a near miss (``skills``,
    ``mcp-server``) is refused with the kind it most likely means: read silently, ``skills``
    would blur the item kind with ``index --kind skills``, the source kind."""
    import difflib

    from skill_retriever.model import NodeKind

    names = sorted(k.value for k in NodeKind)
    asked = [k for k in (part.strip() for part in text.split(",")) if k]
    if not asked:
        raise argparse.ArgumentTypeError(f"names no kind; give one or more of: {', '.join(names)}")
    if unknown := [k for k in asked if k.lower() not in names]:

        def guess(kind: str) -> str:
            stem = kind.lower().removesuffix("s")  # skills, incidents; docs, mcp: a name's start
            near = difflib.get_close_matches(stem, names, n=1, cutoff=0.75)
            near = near or [n for n in names if len(stem) >= 3 and n.startswith(stem)][:1]
            return f"{kind} (did you mean {near[0]}?)" if near else kind

        raise argparse.ArgumentTypeError(
            f"unknown kind(s) {', '.join(map(guess, unknown))}; give one or more of: {', '.join(names)}")
    return list(dict.fromkeys(k.lower() for k in asked))


def tag_list(text: str) -> list[str]:
    """A ``--tags`` value: comma-separated tags, empty entries dropped."""
    tags = [t for t in (part.strip() for part in text.split(",")) if t]
    if not tags:
        raise argparse.ArgumentTypeError("names no tag; give one or more, e.g. deploy,kubernetes")
    return tags


def time_arg(text: str) -> str:
    """A ``--since`` / ``--until`` value: an ISO-8601 date or time (UTC when no zone is
    given), checked here so that a typo, or an empty value (``--since "$UNSET"``), is
    argparse's one line naming the option, not a search's error naming the Python filter.
    A date alone is its whole day: ``--until 2026-11-01`` takes that day in
    (`filters.Filters`)."""
    from skill_retriever.exceptions import InvalidItemError
    from skill_retriever.model import parse_timestamp

    if not text.strip():
        raise argparse.ArgumentTypeError(
            f"is {'empty' if not text else 'blank'}; give a time such as 2026-11-01 or 2026-11-01T12:00:00Z, "
            "or leave the option out for no limit")
    try:
        parse_timestamp(text, "the time")
    except InvalidItemError as exc:
        raise argparse.ArgumentTypeError(f"{text!r:.60} is no time; give one such as 2026-11-01 or 2026-11-01T12:00:00Z") from exc
    return text


def lock_wait_of(args: argparse.Namespace) -> float:
    """The command's ``--lock-wait`` (0 for a command without it: it does not write)."""
    return float(getattr(args, "lock_wait", 0.0))


def error_text(exc: SkillRetrieverError, args: argparse.Namespace) -> str:
    """What the CLI prints for an error: its message, except that another process writing
    the index is told in the command's terms (``--lock-wait``, not the Python parameter)."""
    from skill_retriever.exceptions import IndexLockedError
    from skill_retriever.filters import ReversedWindowError

    if isinstance(exc, ReversedWindowError):  # the command's options, not the Python filter's names
        return exc.worded("--since", "--until")
    return _locked_advice(exc, args) if isinstance(exc, IndexLockedError) else str(exc)


def error_line(message: str, exc: SkillRetrieverError, args: argparse.Namespace) -> str:
    """The one line on stderr for an error: ``skill-retriever: error: ...``, except for an
    argument refused after argparse took it (the query: empty, too long, a date that does
    not exist; ``--since`` after ``--until``; `CommandArgumentError`), said as argparse says
    the command's other arguments' errors: ``skill-retriever query: error: ... (see
    skill-retriever query --help)``."""
    from skill_retriever.exceptions import CommandArgumentError, QueryError
    from skill_retriever.filters import ReversedWindowError

    queried = args.command == "query" and isinstance(exc, QueryError | ReversedWindowError)
    if (queried or isinstance(exc, CommandArgumentError)) and (parser := getattr(args, "command_parser", None)):
        return f"{parser.prog}: error: {message} (see {parser.prog} --help)"
    return f"skill-retriever: error: {message}"


def _locked_advice(exc: IndexLockedError, args: argparse.Namespace) -> str:
    """The CLI's words for another process writing the index: the message names
    ``--lock-wait`` where the command has it, not the Python parameter."""
    from skill_retriever.stores.lock import locked_message

    if exc.directory is None:  # raised without the details: its own words are all there is
        return str(exc)
    how = "pass --lock-wait SECONDS" if hasattr(args, "lock_wait") else None
    return locked_message(exc.directory, exc.holder, exc.waited_s, how, "--index-dir")


def open_index(args: argparse.Namespace, *, create: bool = False) -> Index:
    """The index the options name; ``create`` makes a new one (the ``index`` command only).
    A new index uses ``--embedder`` when the command has it; an existing one keeps its own.
    A command with ``--lock-wait`` waits that long for another writer at its first write."""
    from skill_retriever.stores.embedder import embedder_for
    from skill_retriever.stores.index import Index

    name = getattr(args, "embedder", None)
    # ``index`` writes: opened as the writer, it brings a Chroma server in step at once
    # (a wiped server refilled) instead of first warning, as a reader, to run `repair`.
    return Index.open(
        args.index_dir, chroma_url=args.chroma_url, create=create, embedder=embedder_for(name) if name else None,
        lock_wait_s=lock_wait_of(args), writable=create,
    )


def open_for_repair(args: argparse.Namespace) -> tuple[Index, str | None]:
    """The index ``repair`` mends, open for writing, and what it did to the manifest.

    An ``index.json`` that cannot be read, beside the items ``items.sqlite`` holds, is first
    set aside (kept as ``index.json.bad-<time>``), so that the open writes a new one from
    the items as it does for a missing one; put back if the open fails. A model named
    there that does not load, where the items record one that does, is put back first
    (``stores.embedder_repair``).
    """
    from skill_retriever.stores import manifest as mf
    from skill_retriever.stores import opening
    from skill_retriever.stores.embedder_repair import restore_recorded_embedder
    from skill_retriever.stores.index import Index

    path = Path(args.index_dir)
    aside = opening.set_aside_damaged_manifest(path, lock_wait_of(args))
    missing = not (path / mf.MANIFEST).exists()
    dim = None if missing else _manifest_dim(path)
    embedder = None if missing else restore_recorded_embedder(path, lock_wait_of(args))
    try:
        index = Index.open(path, chroma_url=args.chroma_url, writable=True, lock_wait_s=lock_wait_of(args))
    except BaseException:
        if aside is not None:
            opening.put_back_manifest(path, aside)
        raise
    wrote = f"wrote a new {mf.MANIFEST} from the {len(index)} items in {mf.DATABASE}"
    if aside is not None:
        return index, f"set the unreadable {mf.MANIFEST} aside as {aside.name} and {wrote}"
    if missing:
        return index, f"{wrote} (it was missing)"
    now = mf.read_manifest(path).get("dim")  # the open corrects a dim the vectors disagree with
    done = [embedder] + [f"set {mf.MANIFEST}'s dim {dim} to {now}, the stored vectors' length" if now != dim else None]
    return index, "; ".join(d for d in done if d) or None


def _manifest_dim(path: Path) -> object:
    """The ``dim`` ``index.json`` states (None when it cannot be read: the open then says why)."""
    from skill_retriever.exceptions import IndexOpenError
    from skill_retriever.stores import manifest as mf

    try:
        return mf.read_manifest(path).get("dim")
    except IndexOpenError:
        return None
