"""The bundled model's weights are read by `stores.safetensors_read` (safetensors'
``load_file`` held the GIL for the whole read, stalling an asyncio server's event loop in
its first ``asearch``): the same arrays, the same vectors, and a clear refusal of what
it does not read."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import load_file, save_file

from skill_retriever.stores.embedder import bundled_model_path
from skill_retriever.stores.numpy_encoder import numpy_encoder_for
from skill_retriever.stores.safetensors_read import read_safetensors

WEIGHTS = Path(bundled_model_path()) / "model.safetensors"


def test_every_array_is_the_one_load_file_gives() -> None:
    ours, theirs = read_safetensors(WEIGHTS), load_file(str(WEIGHTS))
    assert sorted(ours) == sorted(theirs) and len(ours) > 100
    for name, expected in theirs.items():
        got = ours[name]
        assert (got.dtype, got.shape) == (expected.dtype, expected.shape), name
        assert np.array_equal(got, expected), name
        assert got.dtype.isnative and got.flags.aligned and not got.flags.writeable
    assert {a.dtype for a in ours.values()} == {np.dtype(np.float32), np.dtype(np.int64)}


def test_twenty_texts_embed_bit_for_bit_as_with_load_file() -> None:
    texts = [f"text {i}: " + "deploy the service and check its health " * (i % 7) for i in range(18)]
    texts += ["", "Akinoshū café naïve ＦＵＬＬＷＩＤＴＨ 東京"]
    encoder = numpy_encoder_for(bundled_model_path(), None)
    assert encoder is not None
    ours = np.stack([encoder.encode(t) for t in texts])
    batch = encoder.encode_many(texts)
    encoder._w = load_file(str(WEIGHTS))  # the weights as they were read before
    assert np.array_equal(ours, np.stack([encoder.encode(t) for t in texts]))
    assert np.array_equal(batch, encoder.encode_many(texts))


def test_tensors_round_trip_through_save_file(tmp_path: Path) -> None:
    tensors = {"w": np.arange(12, dtype=np.float32).reshape(3, 4) / 7, "ids": np.arange(5, dtype=np.int64) - 2}
    save_file(tensors, str(tmp_path / "m.safetensors"))
    read = read_safetensors(tmp_path / "m.safetensors")
    assert set(read) == {"w", "ids"}
    for name, array in tensors.items():
        assert read[name].dtype == array.dtype and np.array_equal(read[name], array)


def test_another_dtype_is_refused_by_name(tmp_path: Path) -> None:
    save_file({"half": np.ones((2, 2), np.float16)}, str(tmp_path / "m.safetensors"))
    with pytest.raises(ValueError, match=r"tensor 'half' is F16; only F32, I64 weights are read"):
        read_safetensors(tmp_path / "m.safetensors")


def _file(path: Path, header: object, body: bytes) -> Path:
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + body)
    return path


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "not a safetensors file"),
        (b"garbage that is no weights file at all", "not a safetensors file"),
        (struct.pack("<Q", 4) + b"{no}", "its header is not JSON"),
        (struct.pack("<Q", 2) + b"[]", "not a JSON object"),
    ],
)
def test_a_file_that_is_not_safetensors_says_so(tmp_path: Path, content: bytes, message: str) -> None:
    (tmp_path / "m.safetensors").write_bytes(content)
    with pytest.raises(ValueError, match=message):
        read_safetensors(tmp_path / "m.safetensors")


def test_offsets_that_do_not_fit_are_refused(tmp_path: Path) -> None:
    short = _file(tmp_path / "a.safetensors", {"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}, b"\0" * 8)
    with pytest.raises(ValueError, match=r"tensor 'w' has data_offsets \[0, 16\] that do not hold \[4\] F32"):
        read_safetensors(short)
    wrong = _file(tmp_path / "b.safetensors", {"w": {"dtype": "F32", "shape": [3], "data_offsets": [0, 16]}}, b"\0" * 16)
    with pytest.raises(ValueError, match="do not hold"):
        read_safetensors(wrong)
    bare = _file(tmp_path / "c.safetensors", {"w": {"dtype": "F32"}}, b"")
    with pytest.raises(ValueError, match="lacks a dtype, shape or data_offsets"):
        read_safetensors(bare)


def test_a_damaged_weights_file_leaves_the_query_to_sentence_transformers(tmp_path: Path) -> None:
    """numpy_encoder_for takes a ValueError as 'not this model' (sentence-transformers then
    embeds, and says what is wrong with the file if it cannot read it either)."""
    import shutil

    folder = tmp_path / "model"
    shutil.copytree(bundled_model_path(), folder, ignore=shutil.ignore_patterns("model.safetensors", "*.md"))
    save_file({"half": np.ones(2, np.float16)}, str(folder / "model.safetensors"))
    assert numpy_encoder_for(str(folder), None) is None


def test_a_tensor_at_an_odd_offset_is_read_aligned(tmp_path: Path) -> None:
    """safetensors pads its header to 8 bytes; a file that does not is still read right."""
    value = np.array([1.5, -2.25], np.float32)
    odd = _file(tmp_path / "m.safetensors", {"w": {"dtype": "F32", "shape": [2], "data_offsets": [1, 9]}},
                b"\0" + value.tobytes())
    read = read_safetensors(odd)["w"]
    assert read.flags.aligned and np.array_equal(read, value) and read.dtype == np.float32
