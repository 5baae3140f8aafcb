"""An SSH public key (``ssh-ed25519 AAAA... user@host``) is kept under a key's name in
prose, hook commands, MCP arguments and frontmatter: it is public, meant to be pasted
into ``authorized_keys`` and a deploy-key form, and the key type before it read as an
auth scheme (``public_key: ssh-ed25519 [redacted]``) or the quoted line as a secret
phrase, so the index lost it. Only the public key's own shape is kept (a key type, then
base64 that starts ``AAAA``); a private key is a PEM block (`secret_formats`), and other
text after a key type still goes."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.redact_fields import redact_frontmatter
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command

R = REDACTED
ED = "AAAAC3NzaC1lZDI1NTE5AAAAIGk9vQ2xY7pR4mN8tL3wB6cH1jD5fG0sA2eV9uKq1Xr8"
RSA = "AAAAB3NzaC1yc2EAAAADAQABAAABAQC7Zk9vQ2xY7pR4mN8tL3wB6cH1jD5fG0sA2eV9uKq1"


@pytest.mark.parametrize(
    "text",
    [
        f"public_key: ssh-ed25519 {ED} user@host",
        f"deploy_key: ssh-rsa {RSA}",
        f'SSH_PUBLIC_KEY="ssh-ed25519 {ED} user@host"',
        f'SSH_KEY="ssh-ed25519 {ED}"',
        f'"ssh_key": "ecdsa-sha2-nistp256 {ED}"',
        f'--ssh-key "ssh-ed25519 {ED} me@laptop"',
        f"authorized_key: sk-ssh-ed25519@openssh.com {ED} yubikey",
    ],
)
def test_an_ssh_public_key_stays(text: str) -> None:
    assert redact_prose(text) == text
    assert redact_command(text) == text


def test_an_ssh_public_key_argument_and_frontmatter_value_stay() -> None:
    assert redact_args(["--ssh-key", f"ssh-ed25519 {ED}"]) == ["--ssh-key", f"ssh-ed25519 {ED}"]
    fm = {"public_key": f"ssh-ed25519 {ED} user@host", "ssh_key": f"ssh-rsa {RSA}"}
    assert redact_frontmatter(fm) == fm


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ssh_key: ssh-ed25519 Zk9vQ2xY7pR4mN8tL3wB6cH1jD5fG0sA", f"ssh_key: ssh-ed25519 {R}"),  # no public key's shape
        ("api_key: ssh-rsa Tr0ub4dor3Xq9f8e7d", f"api_key: ssh-rsa {R}"),
    ],
)
def test_a_secret_after_a_key_type_still_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_command(text) == expected
