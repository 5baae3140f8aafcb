"""Two `index` runs creating one new index (the second with ``--lock-wait``): the second
checked the folder before it waited for the lock, and once the first had made the index it
wrote a new index.json over it: another index_id and collection prefix (the first run's
vectors left in collections the index no longer names) and no dim. A create that finds an
index made while it waited now opens that one."""

from __future__ import annotations

from pathlib import Path

from skill_retriever.model import Node
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.lock import WriterLock
from skill_retriever.stores.opening import open_files


class _FirstRunWins(WriterLock):
    """A lock whose first acquire waits while another run creates the index and writes one item."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.raced = False
        self.made: dict[str, object] = {}

    def acquire(self) -> None:
        if not self.raced:
            self.raced = True
            first = Index.open(self.path.parent, embedder=HashingEmbedder(32), create=True)
            first.upsert([Node(id="kept", kind="skill", name="kept", text="the first run's item")])
            first.close()
            self.made = mf.read_manifest(self.path.parent)
        super().acquire()


def test_a_create_that_waited_opens_the_index_made_meanwhile(tmp_path: Path) -> None:
    path = tmp_path / "ix"
    lock = _FirstRunWins(path)
    manifest, _embedder, items, _ = open_files(path, lock, HashingEmbedder(32), create=True, writable=True,
                                               chroma_url=None)
    try:
        assert lock.raced and lock.held
        assert manifest == mf.read_manifest(path) == lock.made  # the first run's, not written anew
    finally:
        items.close()
        lock.release()
    with Index.open(path, embedder=HashingEmbedder(32)) as index:
        assert index.get("kept") is not None  # its item is still there
