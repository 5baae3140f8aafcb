"""A ``.safetensors`` weights file read into NumPy arrays without holding the GIL for the read.

safetensors' own ``load_file`` holds the GIL for the whole read and copy (about 0.1 s
for the bundled MiniLM's 90 MB on an idle machine, more on a busy one), so the first
`Retriever.asearch` of an asyncio server, which loads the model in a worker thread,
stalled the server's event loop for that long: every other task waited. Here the file
goes into one buffer through ``readinto``, which lets the GIL go during the system call,
and each tensor is a view of that buffer.

The format: 8 bytes, the little-endian length of a JSON header; the header, which maps
each tensor's name to its ``dtype``, ``shape`` and ``data_offsets`` (start and end, in
bytes, from the end of the header), plus an optional ``__metadata__``; then the data,
little-endian. Only the dtypes of the bundled model are read (`DTYPES`); a file with any
other is refused with a `ValueError` that names the tensor and its dtype.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["DTYPES", "read_safetensors"]

#: The dtypes read: the bundled MiniLM's weights are F32, its ``position_ids`` I64.
DTYPES: dict[str, np.dtype[Any]] = {"F32": np.dtype("<f4"), "I64": np.dtype("<i8")}

#: A header longer than this is not a weights file's (safetensors itself caps it at 100 MB).
_MAX_HEADER = 100_000_000


def read_safetensors(path: Path) -> dict[str, NDArray[Any]]:
    """Every tensor in the safetensors file at ``path``, by name, as read-only arrays.

    Raises:
        OSError: The file cannot be read.
        ValueError: It is not a safetensors file (too short, a header that is not one),
            or holds a tensor of a dtype not in `DTYPES`; the message says which.
    """
    with path.open("rb", buffering=0) as f:
        size = path.stat().st_size
        head = f.read(8)
        n = int.from_bytes(head, "little") if len(head) == 8 else -1
        if not 0 < n <= min(size - 8, _MAX_HEADER):
            raise ValueError(f"{path}: not a safetensors file (its first 8 bytes do not give a header length that fits in it)")
        try:
            header = json.loads(f.read(n))
        except ValueError as exc:
            raise ValueError(f"{path}: not a safetensors file (its header is not JSON: {exc})") from None
        if not isinstance(header, dict):  # the file's content is wrong, not an argument's type
            raise ValueError(f"{path}: not a safetensors file (its header is not a JSON object)")  # noqa: TRY004
        body = np.empty(size - 8 - n, np.uint8)  # not zeroed: every byte is read over below
        _read_into(f, body.data, path)
    body.flags.writeable = False
    return {
        name: _tensor(body, name, spec, path) for name, spec in header.items() if name != "__metadata__"
    }


def _read_into(f: Any, buffer: memoryview, path: Path) -> None:
    """Fill ``buffer`` from ``f``: ``readinto`` may return fewer bytes than asked."""
    done = 0
    while done < len(buffer):
        got = f.readinto(buffer[done:])
        if not got:
            raise ValueError(f"{path}: cut short ({done} of {len(buffer)} bytes of tensor data)")
        done += got


def _tensor(body: NDArray[np.uint8], name: str, spec: Any, path: Path) -> NDArray[Any]:
    try:
        kind, shape, (start, end) = spec["dtype"], [int(s) for s in spec["shape"]], spec["data_offsets"]
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"{path}: tensor {name!r} lacks a dtype, shape or data_offsets pair: {spec!r}") from None
    dtype = DTYPES.get(kind)
    if dtype is None:
        raise ValueError(
            f"{path}: tensor {name!r} is {kind}; only {', '.join(DTYPES)} weights are read here"
            " (the bundled model's): a model of other dtypes is embedded by sentence-transformers"
        )
    count = math.prod(shape)
    if not (isinstance(start, int) and isinstance(end, int) and 0 <= start <= end <= len(body)) or (
        end - start != count * dtype.itemsize
    ):
        raise ValueError(f"{path}: tensor {name!r} has data_offsets {[start, end]} that do not hold {shape} {kind}")
    array = np.frombuffer(body, dtype, count, start).reshape(shape)
    if not array.dtype.isnative or not array.flags.aligned:  # big-endian machine, or an odd offset
        array = array.astype(dtype.newbyteorder("="))
        array.flags.writeable = False
    return array
