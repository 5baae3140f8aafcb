"""``index``'s last line says where its time went: calibrating apart, with the embedding
model's load named there when that is where it came. Indexing a small folder on the
bundled model loads no torch at all (calibration's probes are embedded by NumPy), where
before about 11 s of importing sentence-transformers read as "the rest (calibrating...)"."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

# A fresh interpreter runs the command, then reports what it imported; argv[1] = 1 makes
# every call of more than 4 texts load sentence-transformers, as a model NumPy cannot
# compute would (the probes then load it while calibrating).
PROBE = """
import json, sys
from skill_retriever.stores import embedder
if sys.argv[1] == "1":
    embedder.LOAD_PAYS_PIECES = 0
from skill_retriever.cli import main
code = main(sys.argv[2:])
print("PROBE " + json.dumps({"code": code, "torch": "torch" in sys.modules}))
"""


def _index(folder: Path, index_dir: Path, *, force_load: bool) -> tuple[dict[str, object], str]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, "1" if force_load else "0",
         "index", str(folder), "--kind", "docs", "--index-dir", str(index_dir)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    lines = out.stdout.splitlines()
    probe = next((x for x in lines if x.startswith("PROBE ")), None)
    assert probe is not None, out.stderr[-2000:]
    took = next(x for x in lines if x.startswith("took "))
    return json.loads(probe[len("PROBE "):]), took


@pytest.fixture
def two_documents(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "deploy.md").write_text(
        "# Deploying the service\n\nRun the deploy script with the staging flag, then check the "
        "health endpoint before promoting the build.\n", encoding="utf-8")  # fmt: skip
    (folder / "migrations.md").write_text(
        "# Database migrations\n\nEvery schema change ships as a numbered migration that CI "
        "applies to a scratch Postgres.\n", encoding="utf-8")  # fmt: skip
    return folder


def test_a_small_folder_loads_no_torch_and_names_calibrating(two_documents: Path, tmp_path: Path) -> None:
    probe, took = _index(two_documents, tmp_path / "ix", force_load=False)
    assert probe == {"code": 0, "torch": False}
    assert re.search(r"embedding 2 texts and writing [\d.]+ s \(loading the model included\), "
                     r"calibrating [\d.]+ s, the rest [\d.]+ s \(removals, names across sources\)$", took), took


def test_a_model_loaded_while_calibrating_is_named_there(two_documents: Path, tmp_path: Path) -> None:
    probe, took = _index(two_documents, tmp_path / "ix", force_load=True)
    assert probe == {"code": 0, "torch": True}
    assert re.search(r", calibrating [\d.]+ s \(loading the model [\d.]+ s of it\), the rest ", took), took
