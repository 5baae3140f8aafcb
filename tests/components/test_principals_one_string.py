"""One string given as ``principals`` is one principal, at every entry point: never its
characters, of which a ``*`` would see every item (``principals="team-*"``). A mapping
or a number is refused in one line, not read as its keys."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.components.install import UnknownComponentError, install
from skill_retriever.components.service import ComponentService
from skill_retriever.components.view import CallerView
from skill_retriever.exceptions import ConfigError
from skill_retriever.model import Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    built = Index.open(tmp_path / "idx", embedder=HashingEmbedder(), create=True)
    built.upsert([
        Node("pub/vault", NodeKind.SKILL, "vault-public", "zebra vault migrator, public"),
        Node("priv/vault", NodeKind.SKILL, "vault-red", "zebra vault migrator, red team", access=("red",)),
    ], [])
    yield built
    built.close()


def test_one_string_is_one_principal_everywhere(index: Index, tmp_path: Path) -> None:
    assert set(CallerView.of(index, "team-*").nodes) == {"pub/vault"}
    assert set(CallerView.of(index, "red").nodes) == {"pub/vault", "priv/vault"}
    service = ComponentService(index, Retriever(index), principals="team-*")
    assert {r.id for r in service.search("zebra vault migrator").results} == {"pub/vault"}
    red = ComponentService(index, Retriever(index), principals="red")
    assert "priv/vault" in {r.id for r in red.search("zebra vault migrator").results}
    plan = install(index, ["pub/vault"], tmp_path / "p", principals="ops*", dry_run=True)
    assert plan.ok
    with pytest.raises(UnknownComponentError, match="priv/vault"):  # as if it did not exist
        install(index, ["priv/vault"], tmp_path / "p", principals="ops*", dry_run=True)


@pytest.mark.parametrize("bad", [{"red": 1}, 5, b"red", [1]])
def test_principals_that_are_not_names_are_refused(index: Index, bad: Any) -> None:
    with pytest.raises(ConfigError, match="principals must be a list of strings"):
        CallerView.of(index, bad)
    with pytest.raises(ConfigError, match="principals must be a list of strings"):
        ComponentService(index, Retriever(index), principals=bad)
    with pytest.raises(ConfigError, match="principals must be a list of strings"):
        Retriever(index).search("zebra vault", principals=bad)
