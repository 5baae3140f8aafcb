"""An SSH public key, which no rule redacts: `ssh_public_key`.

A public key line (``ssh-ed25519 AAAA... user@host``) is meant to be shared: pasted into
``authorized_keys``, a deploy-key form, a cloud-init file. Under a key's name
(``public_key:``, ``SSH_KEY="..."``, ``--ssh-key``) the rules read its key type as an auth
scheme and the base64 after it as the credential, or the quoted line as a secret phrase;
each asks this first. Only the format's own shape is one: a key type OpenSSH writes, then
base64 that starts ``AAAA`` (the length of the key type's name, in four bytes); a private
key is a PEM block, redacted whole (`secret_formats`).
"""

from __future__ import annotations

import re

__all__ = ["ssh_public_key"]

#: The key types OpenSSH writes before a public key.
_KEY_TYPE = r"(?:ssh-(?:rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp(?:256|384|521)|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)"
#: A public key's body: base64 of a length-prefixed key type, so ``AAAA`` first.
_BODY = r"AAAA[A-Za-z0-9+/]{16,}+={0,2}"
#: A whole public key line, a comment (``user@host``) after it or not.
_LINE_RE = re.compile(_KEY_TYPE + r"[ \t]++" + _BODY + r"(?:[ \t]++[^\n]*+)?+")
#: A key type right before a value: the value is the body when it has the body's shape.
_TYPE_BEFORE_RE = re.compile(_KEY_TYPE + r"[ \t]++$")
_BODY_RE = re.compile(_BODY)


def ssh_public_key(value: str, text: str | None = None, at: int = 0) -> bool:
    """Whether ``value`` (quotes and all) is an SSH public key line, or, standing at
    ``at`` of ``text``, the body of one whose key type comes right before it."""
    word = value.strip("\"'`")
    if _LINE_RE.fullmatch(word) is not None:
        return True
    if text is None or _BODY_RE.fullmatch(word) is None:
        return False
    return _TYPE_BEFORE_RE.search(text, max(0, at - 64), at) is not None
