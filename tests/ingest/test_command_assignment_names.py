"""A command's ``NAME=value`` where the name is a setting's key, not a shell variable:
after a flag's ``=`` (``docker run --env=API_TOKEN=X``), in a comma list (``helm --set
a=1,auth.password=X``), dotted (``--set auth.rootPassword=X``) or with hyphens
(``--from-literal=admin-password=X``). Prose redacted these (`prose_secrets` reads
such names) while `redact_command` kept the value; a dotted name is judged by its last
part, so ``auth.enabled=true`` names no secret.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secret_formats import REDACTED as R
from skill_retriever.ingest.secrets import redact_command

V = "Zyx987Wvu654"

GOES = [
    (f"docker run --env=API_TOKEN={V} img", f"docker run --env=API_TOKEN={R} img"),
    (f"helm install x --set auth.rootPassword={V}", f"helm install x --set auth.rootPassword={R}"),
    (f"helm install x --set image.tag=v1,auth.password={V}", f"helm install x --set image.tag=v1,auth.password={R}"),
    (f"x --set-string db.password='{V}'", f"x --set-string db.password='{R}'"),
    (f"tool --from-literal=admin-password={V}", f"tool --from-literal=admin-password={R}"),
    (f"env API-TOKEN={V} ./run", f"env API-TOKEN={R} ./run"),
]
STAYS = [
    "helm install x --set auth.enabled=true,image.tag=v1",
    "helm install x --set auth.password=$DB_PASSWORD",
    "docker run --env=API_TOKEN=${API_TOKEN} img",
    "tool --from-literal=admin-user=admin",
    "git log --format=%H --author=alice",
    "cmd --output=file.key.json",
]


@pytest.mark.parametrize(("command", "expected"), GOES)
def test_setting_keys_with_secret_names_lose_their_values(command: str, expected: str) -> None:
    assert redact_command(command) == expected
    assert R in redact_prose(command)


@pytest.mark.parametrize("command", STAYS)
def test_other_settings_and_references_stay(command: str) -> None:
    assert redact_command(command) == command
