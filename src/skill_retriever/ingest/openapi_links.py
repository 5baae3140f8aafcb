"""Producer-consumer links between the operations of one REST API.

An operation whose path takes an identifier (``POST /playlists/{playlist_id}/tracks``)
can only be called once some other operation has produced that identifier: one that
lists the resource (``GET /me/playlists``, ``GET /users/{user_id}/playlists``), a search
(``GET /search``), or, for a user, the current user (``GET /me``). A request such as "add
this song to my playlist 'Road trip'" names neither the search nor the list, yet the
agent must call both. These links make them the consumer's graph neighbours, so the
graph channel and the completeness check can reach them. RESTler (Atlidakis, Godefroid
and Polishchuk 2019, "RESTler: stateful REST API fuzzing", ICSE) infers the same
producer-consumer dependencies from a specification to order its requests; it reads the
response schemas, which a tool catalogue seldom carries, so here the path alone decides:

* the resource a path parameter names: ``{playlist_id}`` / ``{playlistId}`` -> playlist;
  any other parameter (``{id}``) -> the literal segment before it (``/albums/{id}`` ->
  album);
* its producers: every ``GET`` whose path ends in a literal segment naming that resource
  (a plural or singular form, ``-`` or ``_``), every ``GET`` whose last literal segment is
  ``search``, and for a user the ``GET /me`` operation.

Each link is a ``DEPENDS_ON`` edge from the consumer to the producer. With them a catalogue
of one API takes the ppr route for every query (`calibration.defaults`: most of its edges
say one item needs another). Measured with ``skill-retriever benchmark --only
skills,toolret --max-queries 500``, the default search before (0b634b1) and after
(b063547): restbench-spotify 67.7 -> 74.2 nDCG@10 and 43.9 -> 61.4 Completeness@10,
restbench-tmdb 52.4 -> 61.1 and 32.0 -> 57.0 (the README's table).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from skill_retriever.model import Edge, EdgeKind

__all__ = ["operation_links", "parameter_resource"]

_PARAM = re.compile(r"^\{([^{}]+)\}$")
_ID_SUFFIX = re.compile(r"(?:_id|Id|ID|_ids|Ids)$")
#: Literal segments that name the caller: a GET on such a path produces the user's id.
_SELF_SEGMENTS = frozenset({"me", "self", "user", "whoami"})


def _singular(word: str) -> str:
    w = word.lower().replace("-", "_")
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith("s") and not w.endswith("ss") and len(w) > 3:
        return w[:-1]
    return w


def _segments(path: str) -> list[str]:
    return [s for s in path.split("?", 1)[0].strip("/").split("/") if s]


def parameter_resource(segments: list[str], position: int) -> str | None:
    """The resource the path parameter at ``position`` identifies (singular, lower case),
    or None when neither its name nor the segment before it names one."""
    match = _PARAM.match(segments[position])
    if match is None:
        return None
    name = match.group(1).strip()
    stem = _ID_SUFFIX.sub("", name)
    if stem and stem != name:
        return _singular(re.sub(r"(?<=[a-z])(?=[A-Z])", "_", stem))
    before = segments[position - 1] if position > 0 else ""
    return _singular(before) if before and not _PARAM.match(before) else None


def operation_links(operations: Mapping[str, tuple[str, str]]) -> list[Edge]:
    """``DEPENDS_ON`` edges from each operation to those that produce its path parameters.

    Args:
        operations: Node id -> ``(method, path)`` for every REST operation of one API.

    Returns:
        One edge per (consumer, producer) pair, in the order of ``operations``; never an
        edge from an operation to itself.
    """
    listing: dict[str, list[str]] = {}
    searches: list[str] = []
    current_user: list[str] = []
    for node_id, (method, path) in operations.items():
        segments = _segments(path)
        if method.upper() != "GET" or not segments or _PARAM.match(segments[-1]):
            continue
        last = segments[-1].lower()
        if last == "search":
            searches.append(node_id)
        elif len(segments) == 1 and last in _SELF_SEGMENTS:
            current_user.append(node_id)
        else:
            listing.setdefault(_singular(last), []).append(node_id)
    edges: dict[tuple[str, str], Edge] = {}
    for node_id, (_method, path) in operations.items():
        segments = _segments(path)
        for position in range(len(segments)):
            resource = parameter_resource(segments, position)
            if resource is None:
                continue
            producers: Iterable[str] = [
                *listing.get(resource, ()), *searches, *(current_user if resource == "user" else ()),
            ]
            for producer in producers:
                if producer != node_id and (node_id, producer) not in edges:
                    # No description: an edge's text is embedded and seeds the walk, and
                    # "{id} comes from /search" on every edge made the seeds worse (a
                    # scratch run on restbench-spotify; its figures are in issue 14's notes).
                    edges[(node_id, producer)] = Edge(node_id, producer, EdgeKind.DEPENDS_ON)
    return list(edges.values())
