"""An index remembers its embedding model; when that model no longer loads (its folder
moved or deleted, its cache cleared), the error says so and what to do: put it back, or
re-index into a new directory. It used to give the advice for a model the user names
(``--embedder``): "use a local folder path ... or the default", which the index refuses
(it keeps the model it was built with) and which ``query`` has no option to pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever.exceptions import ConfigError
from skill_retriever.stores.embedder import SentenceTransformerEmbedder, bundled_model_path
from skill_retriever.stores.index import Index

pytestmark = pytest.mark.slow


def test_an_index_whose_model_folder_is_gone_says_to_put_it_back_or_reindex(tmp_path: Path) -> None:
    model = tmp_path / "my-model"
    model.symlink_to(bundled_model_path(), target_is_directory=True)
    where = tmp_path / "ix"
    Index.open(where, create=True, writable=True, embedder=SentenceTransformerEmbedder(str(model))).close()
    model.unlink()  # the folder moved away

    index = Index.open(where)
    try:
        with pytest.raises(ConfigError) as caught:
            index.embedder.embed(["pytest fixtures"])
    finally:
        index.close()
    message = str(caught.value)
    assert f"cannot load embedding model {str(model)!r} offline" in message
    assert f"index {where} was built with it" in message
    assert "put it back" in message and f"--index-dir {where}" not in message
    assert "skill-retriever index <sources> --index-dir <new directory>" in message
    assert "or the default" not in message  # the index refuses another model


def test_a_model_the_user_names_keeps_the_advice_to_name_another(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="or the default 'bundled:all-MiniLM-L6-v2'"):
        SentenceTransformerEmbedder(str(tmp_path / "nothing-here")).embed(["x"])
