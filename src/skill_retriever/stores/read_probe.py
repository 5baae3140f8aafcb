"""How long a read waits for its Chroma server's first answer before it searches in memory.

A read needs no server: ``items.sqlite`` holds every vector the server mirrors
(``stores.server_down``). Yet a read of an index whose server was paused (``kill -STOP``: its
port still accepts connections, and nothing answers) waited the whole request timeout
(``chroma_connect.CHROMA_TIMEOUT_S``, 30 s) for the heartbeat that opens the connection
before answering from memory. A read's heartbeat waits :data:`READ_PROBE_S` instead,
``SKILL_RETRIEVER_CHROMA_READ_PROBE_S`` in the environment when set, and so does the heartbeat
a reader sends before each count that looks at its server again (``remote._InStep``: a server
paused after the reader opened held each look the whole request timeout); a write still waits as
long as any request may (it cannot go on without the server), and so does every request
after a heartbeat that was answered.
"""

from __future__ import annotations

import math
import os

from skill_retriever.exceptions import ConfigError

__all__ = ["READ_PROBE_S", "READ_PROBE_VAR", "read_probe_s"]

#: Seconds a read waits for its server's heartbeat when the environment names no other wait.
READ_PROBE_S = 3.0

#: The environment variable that sets it.
READ_PROBE_VAR = "SKILL_RETRIEVER_CHROMA_READ_PROBE_S"


def read_probe_s() -> float:
    """The seconds a read waits for its server's heartbeat (:data:`READ_PROBE_VAR`, else
    :data:`READ_PROBE_S`).

    Raises:
        ConfigError: The variable is set to no positive, finite number of seconds.
    """
    said = os.environ.get(READ_PROBE_VAR)
    if said is None or not said.strip():
        return READ_PROBE_S
    try:
        seconds = float(said)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds <= 0:
        raise ConfigError(
            f"{READ_PROBE_VAR}={said!r} is not a positive number of seconds (how long a read waits for its Chroma "
            f"server to answer before searching the index's own vectors in memory); give one, such as "
            f"{READ_PROBE_S:g}, or unset it"
        )
    return seconds
