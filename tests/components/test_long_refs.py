"""An id or name that names nothing is quoted back cut short: a 100,000-character id must
not come back whole in the error an agent reads."""

from __future__ import annotations

import pytest

from skill_retriever.components.install import UnknownComponentError, install
from skill_retriever.components.view import CallerView
from skill_retriever.exceptions import MissingNodeError
from skill_retriever.stores.index import Index


def test_a_long_unknown_ref_is_cut_in_the_message(sample_index: Index, tmp_path) -> None:  # type: ignore[no-untyped-def]
    ref = "x" * 100_000
    with pytest.raises(UnknownComponentError) as caught:
        install(sample_index, [ref], tmp_path / "p", dry_run=True)
    said = str(caught.value)  # (the advised query names the index: its path is the user's)
    assert len(said) - len(str(sample_index.path)) < 400 and said.startswith("no component 'xxx")
    with pytest.raises(MissingNodeError) as missing:
        CallerView.of(sample_index, None).get(ref)
    assert len(str(missing.value)) < 300
