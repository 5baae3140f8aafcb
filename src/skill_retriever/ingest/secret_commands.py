"""Secrets a command puts in a secret's place without ``NAME=``: what `prose_secrets`
reads after a setter (`SETTER_RE`).

A runbook sets a variable or a setting with a command as often as with ``NAME=value``:
a Dockerfile's ``ENV API_KEY value``, fish's ``set -gx API_KEY value``, Windows'
``setx API_KEY value``, ``aws configure set aws_secret_access_key value``, ``npm config
set //registry.npmjs.org/:_authToken value``, ``git config --global github.token
value``. The name and the value are words apart, so the assignment rule does not see
them; these patterns give the same ``name`` and ``val`` groups, and `prose_secrets`
decides as it does for an assignment (a secret-looking name, a literal value).

Every pattern is linear: quantifiers are possessive and a name or value is bounded.
"""

from __future__ import annotations

import re

from skill_retriever.ingest.secret_values import PROSE_VALUE

__all__ = ["SETTER_RE"]

#: A command that sets the variable or setting named by the word after it to the word
#: after that: a Dockerfile's ``ENV`` (upper case: ``env`` runs a command), Windows'
#: ``setx``, fish's ``set`` with its scope or export flags (``set -gx``; bare ``set``
#: is also the shell's, which takes no value), ``config set`` / ``configure set``
#: (npm, yarn, pnpm, aws, ...) with flags after ``set``, and ``git config`` with its
#: ``--global`` flags. The name is any word but a flag (``//host/:_authToken``).
SETTER_RE = re.compile(
    r"(?<![\w$.-])(?:ENV|setx|set(?:[ \t]++(?:-[A-Za-z]++|--(?:export|global|universal|local)))++"
    r"|config(?:ure)?+[ \t]++set(?:[ \t]++--?+[\w-]++(?:=[^\s]*+)?+)*+"
    r"|git[ \t]++config(?:[ \t]++--[\w-]++)*+)"
    r"""[ \t]++(?P<name>(?!-)[^\s="'`]{1,256}+)[ \t]++(?P<val>""" + PROSE_VALUE + ")"
)
