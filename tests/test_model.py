"""Node / Edge validation at the point where data enters, and validate_graph."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta, timezone
from types import MappingProxyType

import pytest

from skill_retriever.exceptions import DuplicateItemError, InvalidItemError, MissingNodeError
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind, validate_graph


def node(**kw: object) -> Node:
    args: dict[str, object] = {"id": "skill:x", "kind": "skill", "name": "x", "text": "some text"}
    args.update(kw)
    return Node(**args)  # type: ignore[arg-type]


class TestNode:
    def test_unknown_kind_names_item_and_allowed_kinds(self) -> None:
        with pytest.raises(InvalidItemError) as err:
            node(id="skill:odd", kind="widget")
        msg = str(err.value)
        assert "'skill:odd'" in msg and "'widget'" in msg
        assert "skill" in msg and "mcp_server" in msg  # lists what is allowed

    def test_kind_string_becomes_enum(self) -> None:
        assert node(kind="mcp_server").kind is NodeKind.MCP_SERVER
        assert node(kind=NodeKind.AGENT).kind is NodeKind.AGENT

    @pytest.mark.parametrize("text", ["", "   ", "\n\t"])
    def test_empty_text(self, text: str) -> None:
        with pytest.raises(InvalidItemError, match=r"'skill:x'.*text is empty"):
            node(text=text)

    def test_text_must_be_str(self) -> None:
        with pytest.raises(InvalidItemError):
            node(text=None)

    def test_empty_name(self) -> None:
        with pytest.raises(InvalidItemError, match="name is empty"):
            node(name=" ")

    @pytest.mark.parametrize(
        "bad",
        ["", "   ", "a\nb", "x" * 513, None, 7, "skill:x\n", "skill:x\r", "skill:\ud800", "skill:\x85x", "\n"],
        ids=["empty", "blank", "newline", "long", "none", "int", "trailing-lf", "trailing-cr", "lone-surrogate", "c1-nel", "lf-only"],
    )
    def test_bad_id(self, bad: object) -> None:
        with pytest.raises(InvalidItemError, match="id .* is invalid"):
            node(id=bad)

    def test_edge_end_with_trailing_newline(self) -> None:
        with pytest.raises(InvalidItemError, match="edge source id"):
            Edge("a\n", "b", "USES")

    # "20240601-01-01" is a year no datetime holds; Python alone reads it as 2024-06-01
    # 01:00 at UTC-1 (any character may part date and time), found by the fuzz run.
    @pytest.mark.parametrize("bad", ["yesterday", "2026-13-45", "11/28/2026", "20240601-01-01", "2026-01-01X10:00"])
    def test_bad_timestamp_names_item(self, bad: str) -> None:
        with pytest.raises(InvalidItemError, match=r"'skill:x'.*not ISO-8601"):
            node(updated=bad)

    def test_timestamp_of_wrong_type(self) -> None:
        with pytest.raises(InvalidItemError, match="timestamp must be"):
            node(created=[2026, 1, 1])

    @pytest.mark.parametrize(
        "good", ["2026-11-01", "20261101", "2026-11-01T12:00:00Z", "2026-11-01 12:00", "2026-11-01t12:00", "2026-W44-7",
                 "2026-11-01T12:00:00z", "2026-11-01t12:00z", "2026-11-01Z", "2026-11-01z", "20261101Z"]
    )
    def test_iso_forms_are_read(self, good: str) -> None:
        created = node(created=good).created
        assert created is not None and (created.year, created.month, created.day) == (2026, 11, 1)

    def test_naive_timestamps_become_utc(self) -> None:
        n = node(created="2026-11-01T12:00:00", updated=datetime(2026, 11, 2, 8, 30))
        assert n.created == datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
        assert n.updated == datetime(2026, 11, 2, 8, 30, tzinfo=UTC)
        assert n.created.utcoffset() == timedelta(0)

    def test_aware_timestamps_keep_their_instant(self) -> None:
        n = node(updated="2026-11-01T12:00:00+02:00", created="2026-11-01T10:00:00Z")
        assert n.updated == datetime(2026, 11, 1, 10, 0, tzinfo=UTC)
        assert n.updated.tzinfo == timezone(timedelta(hours=2))
        assert n.created == n.updated
        assert n.last_changed == n.updated

    def test_epoch_seconds(self) -> None:
        assert node(created=0).created == datetime(1970, 1, 1, tzinfo=UTC)

    def test_tags_and_access_normalised(self) -> None:
        n = node(tags=["a", "b"], access="team-a")
        assert n.tags == ("a", "b") and n.access == ("team-a",)
        with pytest.raises(InvalidItemError, match="tags"):
            node(tags=[1, 2])

    def test_round_trip(self) -> None:
        n = node(
            id="skill:round",
            kind="skill",
            name="round",
            text="body\nwith lines",
            description="desc",
            tags=("t1", "t2"),
            created="2025-01-02T03:04:05Z",
            updated="2026-02-03T04:05:06+01:00",
            source="skills/round/SKILL.md",
            access=("team-a",),
            attrs={"files": ["a.md"], "n": 3},
        )
        d = n.to_dict()
        assert d["kind"] == "skill" and d["tags"] == ["t1", "t2"] and d["access"] == ["team-a"]
        assert d["created"] == "2025-01-02T03:04:05+00:00"
        back = Node.from_dict(d)
        assert back == n
        assert back.content_hash() == n.content_hash()
        assert back.to_dict() == d

    def test_from_dict_extra_fields_go_to_attrs(self) -> None:
        n = Node.from_dict({"id": "a", "kind": "agent", "name": "a", "text": "t", "model": "opus"})
        assert n.attrs == {"model": "opus"}

    def test_from_dict_missing_field_names_item(self) -> None:
        with pytest.raises(InvalidItemError, match=r"node 'a': missing field 'text'"):
            Node.from_dict({"id": "a", "kind": "agent", "name": "a"})
        with pytest.raises(InvalidItemError, match="without an id"):
            Node.from_dict({"kind": "agent", "name": "a", "text": "t"})
        with pytest.raises(InvalidItemError, match="JSON object"):
            Node.from_dict(["not", "a", "mapping"])  # type: ignore[arg-type]

    @pytest.mark.parametrize(
        "attrs, path",
        [
            ({"score": float("nan")}, "attrs['score'] is nan"),
            ({"runs": [{"ok": 1}, {"ratio": float("inf")}]}, "attrs['runs'][1]['ratio'] is inf"),
            ({"a": {"b": [0.5, -float("inf")]}}, "attrs['a']['b'][1] is -inf"),
        ],
    )
    def test_non_finite_attrs_are_refused_with_their_path(self, attrs: dict[str, object], path: str) -> None:
        with pytest.raises(InvalidItemError) as err:
            node(attrs=attrs)
        assert str(err.value).startswith("node 'skill:x': ") and path in str(err.value)

    @pytest.mark.parametrize(
        "attrs, found",
        [
            ({"when": date(2026, 1, 1)}, "attrs['when'] is a date"),
            ({"tags": {"a", "b"}}, "attrs['tags'] is a set"),
            ({"raw": b"bytes"}, "attrs['raw'] is a bytes"),
            ({"x": [object()]}, "attrs['x'][0] is a object"),
            ({"m": MappingProxyType({"a": 1})}, "attrs['m'] is a mappingproxy"),
            ({1: "one"}, "attrs has the key 1"),
            ({"by_n": {2: "two"}}, "attrs['by_n'] has the key 2"),
        ],
    )
    def test_attrs_that_are_not_json_are_refused(self, attrs: dict[object, object], found: str) -> None:
        with pytest.raises(InvalidItemError, match=r"node 'skill:x'") as err:
            node(attrs=attrs)
        assert found in str(err.value)

    def test_nan_from_a_json_document_is_refused(self) -> None:
        data = json.loads('{"id": "n", "kind": "tool", "name": "n", "text": "t", "score": NaN}')
        with pytest.raises(InvalidItemError, match=r"node 'n': attrs\['score'\] is nan"):
            Node.from_dict(data)

    def test_attrs_nesting_is_capped(self) -> None:
        deep: object = "leaf"
        for _ in range(200):
            deep = [deep]
        with pytest.raises(InvalidItemError, match="nests deeper than 100 levels"):
            node(attrs={"deep": deep})

    def test_json_attrs_are_kept_and_store_as_strict_json(self) -> None:
        attrs = {"n": 3, "f": 0.5, "ok": True, "none": None, "s": "x", "l": [1, [2.0, {"k": "v"}]], "t": (1, 2)}
        n = node(attrs=attrs)
        assert n.attrs == attrs
        assert json.loads(json.dumps(n.to_dict(), allow_nan=False))["attrs"]["l"] == [1, [2.0, {"k": "v"}]]
        assert node(attrs=MappingProxyType({"a": 1})).attrs == {"a": 1}

    def test_content_hash_ignores_metadata(self) -> None:
        a = node()
        assert a.content_hash() == node(tags=("x",), access=("t",)).content_hash()
        assert a.content_hash() != node(text="other text").content_hash()
        assert a.content_hash() != node(description="d").content_hash()


class TestEdge:
    def test_kind_case_insensitive(self) -> None:
        assert Edge("a", "b", "depends_on").kind is EdgeKind.DEPENDS_ON

    def test_unknown_kind_names_edge(self) -> None:
        with pytest.raises(InvalidItemError, match=r"edge 'a' -> 'b'.*unknown edge kind 'LIKES'"):
            Edge("a", "b", "LIKES")

    @pytest.mark.parametrize("bad", [0, -1.0, float("inf"), float("nan"), "1", True, None])
    def test_bad_weight(self, bad: object) -> None:
        with pytest.raises(InvalidItemError, match=r"edge 'a' -> 'b'.*weight"):
            Edge("a", "b", "USES", weight=bad)  # type: ignore[arg-type]

    def test_int_weight_becomes_float(self) -> None:
        e = Edge("a", "b", "USES", weight=2)
        assert e.weight == 2.0 and isinstance(e.weight, float)

    def test_blank_end(self) -> None:
        with pytest.raises(InvalidItemError, match="edge target id"):
            Edge("a", " ", "USES")

    def test_id_and_round_trip(self) -> None:
        e = Edge("a", "b", "PART_OF", weight=0.5, description="belongs")
        assert e.id == "a|PART_OF|b"
        assert Edge.from_dict(e.to_dict()) == e
        with pytest.raises(InvalidItemError, match="missing field 'kind'"):
            Edge.from_dict({"source": "a", "target": "b"})


class TestValidateGraph:
    def test_duplicate_id_named(self) -> None:
        with pytest.raises(DuplicateItemError, match=r"duplicate node id 'skill:x'"):
            validate_graph([node(), node(text="again")], [])

    def test_edge_to_missing_node_named(self) -> None:
        with pytest.raises(MissingNodeError) as err:
            validate_graph([node()], [Edge("skill:x", "skill:ghost", "DEPENDS_ON")])
        msg = str(err.value)
        assert "'skill:ghost' does not exist" in msg
        assert not msg.startswith('"')  # readable, not KeyError-quoted

    def test_known_ids_satisfy_edges(self) -> None:
        validate_graph([node()], [Edge("skill:x", "old", "USES")], known_ids={"old"})
        with pytest.raises(MissingNodeError, match="'old'"):
            validate_graph([node()], [Edge("old", "skill:x", "USES")])
