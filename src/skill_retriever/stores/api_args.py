"""What `Index`'s Python methods accept, checked before anything is opened or written.

A caller's slip must fail in one line that says what to pass, not deep inside with
``'Node' object is not iterable`` or do something else than asked: one string given
where ids are taken is one id (``delete("ab")`` deletes ``ab``, never ``a`` and ``b``,
as one string for ``kinds`` is one kind in a search), one `Node` or `Edge` given where
items are taken is one item, and a dict is refused with the way to make it an item.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

from skill_retriever.exceptions import ConfigError, DuplicateItemError, InvalidItemError
from skill_retriever.model import Edge, EdgeKind, Node

if TYPE_CHECKING:
    from skill_retriever.stores.embedder import Embedder

__all__ = [
    "PathArg", "a_switch", "an_embedder", "edge_kinds", "ids_to_delete", "items_to_write", "lock_wait", "one_path", "refuse_existing", "source_paths",
]

_Item = TypeVar("_Item", Node, Edge)
#: A path as the Python API takes one.
PathArg = str | os.PathLike[str]


def one_path(path: object, what: str) -> Path:
    """``path`` (text or an ``os.PathLike``) as a `Path`.

    Args:
        what: How the message names it, e.g. ``"Index.open's path"``.

    Raises:
        ConfigError: Not text or a path, or empty (``Path("")`` is the working folder,
            which nobody means by leaving the path out).
    """
    if not isinstance(path, (str, os.PathLike)):
        raise ConfigError(f"{what} must be a path (str or os.PathLike), not {type(path).__name__}")
    text = os.fspath(path)
    if not isinstance(text, str):  # an os.PathLike of bytes
        raise ConfigError(f"{what} must be a path of text, not {type(text).__name__}")
    if not text.strip():
        raise ConfigError(f"{what} is empty; give a path (\".\" for the working folder)")
    return Path(text)


def source_paths(paths: object) -> list[Path]:
    """The sources an index run reads: a list of paths, or one path (one str is one path,
    never its letters), each once: a path given again, however spelled (``x``, ``./x/``),
    is left out (read twice, a folder's line was printed twice and its items counted twice).

    Raises:
        ConfigError: Not a path or an iterable of paths, or an empty path among them.
    """
    if isinstance(paths, (str, os.PathLike)):
        return [_without_dotdot(one_path(paths, "the source path"))]
    if isinstance(paths, (bytes, Mapping)) or not isinstance(paths, Iterable):
        raise ConfigError(f"paths must be a list of source paths (str or os.PathLike), not {type(paths).__name__}")
    given = [_without_dotdot(one_path(p, f"paths[{at}]")) for at, p in enumerate(paths)]
    once: dict[str, Path] = {}
    for path in given:  # realpath, not resolve: a link loop is the reader's to report
        once.setdefault(os.path.realpath(path), path)
    return list(once.values())


def _without_dotdot(path: Path) -> Path:
    """``path`` made absolute without its ``..`` segments, where that names the same file.
    Readers record sources absolute but with links kept (``Path.absolute``), so ``../repo``
    from a sibling folder was recorded as ``/x/sibling/../repo/...``: a path that stops
    naming the file once the sibling goes, and items that all read as changed when the
    folder is indexed as ``repo`` from ``/x``. After a link (``link/..``, the target's
    parent) the ``..`` is kept: dropping it would name another folder."""
    if ".." not in path.parts:
        return path
    plain = Path(os.path.abspath(path))
    return plain if os.path.realpath(plain) == os.path.realpath(path) else path


def _items(given: object, cls: type[_Item], what: str) -> list[_Item]:
    if isinstance(given, cls):
        return [given]
    if isinstance(given, (str, bytes, Mapping)) or not isinstance(given, Iterable):
        raise InvalidItemError(f"{what} must be {_a(cls)} or a list of them, not {_shown(given, cls)}")
    items = list(given)
    for at, item in enumerate(items):
        if not isinstance(item, cls):
            raise InvalidItemError(f"{what}[{at}] must be {_a(cls)}, not {_shown(item, cls)}")
    return items


def _a(cls: type) -> str:
    return f"{'an' if cls.__name__[0] in 'AEIOUaeiou' else 'a'} {cls.__name__}"


def _shown(value: object, cls: type) -> str:
    if isinstance(value, Mapping):  # the JSON form of an item: say how to make it one
        return f"a dict; make one {_a(cls)} with {cls.__name__}.from_dict(d)"
    return _a(type(value))


def items_to_write(nodes: object, edges: object) -> tuple[list[Node], list[Edge]]:
    """The nodes and edges an ``add`` or ``upsert`` writes: a list of each, or one of each.

    Raises:
        InvalidItemError: Not a `Node` (`Edge`) or an iterable of them.
    """
    return _items(nodes, Node, "nodes"), _items(edges, Edge, "edges")


def _ids(given: object, what: str, item: type) -> list[str]:
    if isinstance(given, str):
        return [given]
    if isinstance(given, item):  # one item where ids are taken: `add` takes one, `delete` its id
        raise InvalidItemError(f"{what} is {_a(item)}; pass its id ({item.__name__.lower()}.id)")
    if isinstance(given, (bytes, Mapping, Node, Edge)) or not isinstance(given, Iterable):
        raise InvalidItemError(f"{what} must be an id or a list of ids (str), not {_a(type(given))}")
    ids = list(given)
    for at, one in enumerate(ids):
        if isinstance(one, item):
            raise InvalidItemError(f"{what}[{at}] is {_a(item)}; pass its id ({item.__name__.lower()}.id)")
        if not isinstance(one, str):
            raise InvalidItemError(f"{what}[{at}] must be an id (str), not {_a(type(one))}")
    return ids


def ids_to_delete(node_ids: object, edge_ids: object) -> tuple[list[str], list[str]]:
    """The node and edge ids a ``delete`` takes out: a list of each, or one id (a str).

    Raises:
        InvalidItemError: Not a str or an iterable of str (a `Node` or `Edge` among them:
            its id is what to pass).
    """
    return _ids(node_ids, "node_ids", Node), _ids(edge_ids, "edge_ids", Edge)


def refuse_existing(nodes: list[Node], held: Mapping[str, Node]) -> None:
    """What ``add`` refuses: a node whose id the index holds (``upsert`` updates it).

    Raises:
        DuplicateItemError: The first such id, and how many there are.
    """
    clash = [n.id for n in nodes if n.id in held]
    if clash:
        raise DuplicateItemError(f"node id {clash[0]!r} already exists ({len(clash)} clash(es)); use upsert() to update")


def edge_kinds(kinds: Iterable[EdgeKind | str] | str) -> frozenset[EdgeKind]:
    """The edge kinds that get a vector (``embedded_edge_kinds``); one str is one kind.

    Raises:
        InvalidItemError: A kind that is not an `EdgeKind` (the message lists them).
    """
    given = [kinds] if isinstance(kinds, str) else kinds
    out = set()
    for k in given:
        try:
            out.add(EdgeKind(k if isinstance(k, EdgeKind) else str(k).upper()))
        except ValueError:
            raise InvalidItemError(
                f"embedded_edge_kinds: {k!r} is not an edge kind; use {', '.join(e.value for e in EdgeKind)}"
            ) from None
    return frozenset(out)


def lock_wait(seconds: object, what: str) -> float:
    """How long a writer waits for another (``lock_wait_s``), as ``--lock-wait`` takes it.

    Raises:
        ConfigError: Not a number (text, None, a bool), or not a finite number of seconds
            from 0: a NaN deadline is never passed, so its writer would wait for ever.
    """
    if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real):
        raise ConfigError(f"{what} must be a number of seconds, not {type(seconds).__name__}")
    value = float(seconds)
    if not math.isfinite(value) or value < 0:
        raise ConfigError(f"{what} must be 0 or more seconds, got {seconds:g}")
    return value


def a_switch(value: object, what: str) -> bool:
    """A yes-or-no argument (``create``, ``writable``, ``use_server``), taken only as a bool:
    read for its truth, ``create="no"`` made an index and ``use_server=0`` passed as False.

    Raises:
        ConfigError: Anything but True or False (None among them).
    """
    if not isinstance(value, bool):
        raise ConfigError(f"{what} must be True or False, not {type(value).__name__} {value!r:.40}")
    return value


def an_embedder(embedder: object, what: str) -> Embedder | None:
    """``embedder`` as ``Index.open`` takes it: an `Embedder`, or None for the index's own.

    Raises:
        ConfigError: A model's name or path (``--embedder`` takes one; Python takes the
            object, which would otherwise fail deep inside with ``'str' object has no
            attribute 'name'``), or an object that cannot embed.
    """
    if embedder is None:
        return None
    if isinstance(embedder, (str, os.PathLike)):
        wrapped = f"SentenceTransformerEmbedder({os.fspath(embedder)!r})"
        raise ConfigError(
            f"{what} takes an Embedder, not the model name {os.fspath(embedder)!r}: pass embedder={wrapped} "
            "(from skill_retriever.stores.embedder), or leave it out for the model the index was built with"
        )
    if not callable(getattr(embedder, "embed", None)) or not isinstance(getattr(embedder, "name", None), str):
        raise ConfigError(
            f"{what} must be an Embedder (a name, a dim and embed(texts)), not {type(embedder).__name__}"
        )
    return cast("Embedder", embedder)
