"""Commands that say themselves that a value is a secret, so that it goes whatever its
name (``DEPLOY_SSH``, ``DATABASE_URL``): ``gh secret set NAME --body X`` (``-b X``, its
other flags before or after the name), ``fly secrets set NAME=X`` (``flyctl``) and
``kubectl create secret generic n --from-literal=KEY=X``: `redact_secret_commands`.
A runbook breaks such a command over lines, each but the last ending in a backslash, and
the command goes on past it; gh also reads the value from its input (``echo X | gh secret
set NAME``, ``gh secret set NAME <<< X``), as do commands that read a password or token
there (`_STDIN_READER`: ``echo X | docker login --password-stdin``, ``gh auth login
--with-token <<< X``, ``wrangler secret put NAME``, ``gcloud secrets create NAME
--data-file=-``, ``vercel env add NAME``, ``chpasswd``). Prose is read line by line, so it reads such a
command with the lines it goes on to (`redact_continued_commands`).
Prose (`prose_secrets`) and hook commands (`secrets.redact_command`) both read them;
the caller decides whether a value is a literal secret (a reference or a placeholder
stays). Patterns are possessive and bounded: a crafted line is read in linear time.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from skill_retriever.ingest.prose_values import PROSE_VALUE

__all__ = ["GH_SECRET_RE", "SECRET_COMMAND_WORDS_RE", "redact_continued_commands", "redact_secret_commands"]

#: A backslash that continues a command on the next line (``\`` then ``\n`` or ``\r\n``):
#: runbooks break a long command over lines, one flag to a line; the command goes on.
_CONTINUATION = r"\\\r?+\n"
#: Blanks between a command's words, a line continuation among them.
_GAP = r"(?:[ \t]|" + _CONTINUATION + r")++"
#: One of ``gh secret set``'s flags but ``-b`` / ``--body``, with its value (``--repo
#: o/r``, ``-e prod``, ``--env-file=.env``); ``--no-store`` takes none.
_GH_FLAG = _GAP + r"""-(?!b(?![\w-])|-body(?![\w-]))(?:-no-[\w-]{1,64}+|[\w-]{1,64}+(?:=[^\s;|&`]*+|""" + _GAP + r"""(?!-)[^\s;|&`\\]{1,256}+)?+)"""
#: ``gh secret set``, its flags and the secret's ``name`` (other flags before it).
_GH_SET_NAME = (
    r"gh" + _GAP + r"secret" + _GAP + r"set(?:" + _GH_FLAG + r"){0,8}+" + _GAP
    + r"""(?P<name>(?!-)[^\s;|&`=\"'\\]{1,256}+)"""
)
#: ``gh secret set NAME --body VALUE``: the secret's ``name`` and ``val`` (the value of
#: ``-b`` / ``--body``, after a space or ``=``; or of a here-string, ``<<< VALUE``, which
#: gh reads from its input), other flags around the name.
GH_SECRET_RE = re.compile(
    r"(?<![\w-])" + _GH_SET_NAME + r"(?:" + _GH_FLAG + r"){0,8}+"
    r"(?:" + _GAP + r"(?:--body|-b)(?:" + _GAP + r"|=)|[ \t]*+<<<[ \t]*+)(?P<val>(?!-)" + PROSE_VALUE + ")"
)
#: Up to 8 words of a command (its flags, a name) before the one that says it reads a
#: secret from its input.
_WORDS = r"(?:" + _GAP + r"[^\s;|&<>`]{1,256}+){0,8}?" + _GAP
#: Commands but ``gh secret set`` that read a secret from their input: a registry login's
#: ``--password-stdin`` (``docker login -u bob --password-stdin``), ``gh auth login
#: --with-token``, ``wrangler secret put NAME``, ``gcloud secrets create NAME
#: --data-file=-`` (``versions add``), ``docker secret create NAME -``, ``vercel env add
#: NAME``, ``sudo -S`` (the user's password), ``passwd`` (the new password, twice) and
#: ``vncpasswd -f``, Kerberos' ``kinit``, ``pass insert`` (``gopass``) and ``gpg
#: --passphrase-fd 0``; and ``chpasswd``, whose ``user:password`` lines keep the user
#: (`_CHPASSWD_RES`). A value echoed into one, or given in a here-string, was kept.
_STDIN_READER = (
    r"(?:(?:docker|podman|nerdctl|buildah|skopeo|oras|helm(?:" + _GAP + r"registry)?+)" + _GAP + r"login"
    + _WORDS + r"--password-stdin|gh" + _GAP + r"auth" + _GAP + r"login" + _WORDS + r"--with-token"
    r"|(?:npx" + _GAP + r")?+wrangler" + _GAP + r"secret" + _GAP + r"put" + _GAP + r"[^\s;|&<>`-][^\s;|&<>`]{0,255}+"
    r"|gcloud" + _GAP + r"secrets" + _GAP + r"(?:create|versions" + _GAP + r"add)" + _WORDS + r"--data-file[= ]-"
    r"|docker" + _GAP + r"secret" + _GAP + r"create" + _GAP + r"[^\s;|&<>`-][^\s;|&<>`]{0,255}+" + _GAP + r"-"
    r"|vercel" + _GAP + r"env" + _GAP + r"add|sudo(?:[ \t]++-[A-Za-z]++)*?[ \t]++-[A-Za-z]*?S[A-Za-z]*+"
    r"|passwd(?:[ \t]++--stdin)?+|vncpasswd[ \t]++-f|kinit|(?:go)?+pass" + _GAP + r"insert"
    r"|gpg(?:" + _GAP + r"--?[\w-]++)*?" + _GAP + r"--passphrase-fd[= ]0)(?![\w-])"
)
#: ``echo`` (``-n``, ``-e``) or ``printf`` (``printf '%s\\n'``) before the value it writes.
_ECHO = r"""(?<![\w-])(?:echo(?:[ \t]++-[neE]{1,3}+(?![\w-]))*+|printf(?:[ \t]++(["']?+)%s(?:\\n)?+\1)?+)[ \t]++"""
#: A pipe into a command, run as root or not (``| sudo docker login ...``; ``| sudo -S`` is
#: a reader of its own: the ``sudo`` is not skipped when no reader follows it).
_PIPE = r"[ \t]*+\|[ \t]*+(?:sudo[ \t]++)?"
#: A ``user:password`` line of ``chpasswd``: only the password (``val``) goes, the user stays.
_USER_PASSWORD = r"""(?P<q>["']?+)[\w.$-]{1,64}+:(?P<val>[^\s"'|;&<>`]{1,256}+)(?P=q)"""
#: ``echo "bob:X" | chpasswd`` and ``chpasswd <<< "bob:X"``.
_CHPASSWD_RES = (
    re.compile(_ECHO + _USER_PASSWORD + r"(?=" + _PIPE + r"chpasswd(?![\w-]))"),
    re.compile(r"(?<![\w-])chpasswd(?:[ \t]++-[\w-]++)*+[ \t]*+<<<[ \t]*+" + _USER_PASSWORD),
)
#: A value piped into ``gh secret set`` (which reads it from its input when no ``--body``
#: is given) or another `_STDIN_READER`: ``echo X | gh secret set NAME`` (``echo -n``),
#: ``printf '%s' X | docker login --password-stdin``. The match ends at the value (as a
#: ``--body``'s does); the command after it is looked at.
_GH_PIPED_RE = re.compile(
    _ECHO + r"(?P<val>(?!-)" + PROSE_VALUE + r")(?=" + _PIPE + r"(?:" + _GH_SET_NAME + "|" + _STDIN_READER + "))"
)
#: A literal a process substitution hands a command as a file: ``gcloud secrets versions add
#: NAME --data-file=<(echo -n X)``, ``docker secret create NAME <(echo X)``, WireGuard's ``wg
#: set wg0 private-key <(echo X)``, a flag named for a secret's file (``ansible-vault
#: --vault-password-file=<(echo X)``).
_SUBSTITUTED_RE = re.compile(
    r"(?:--(?:data-file|[\w-]{0,64}?(?:pass|secret|token|key)[\w-]{0,64}+)(?:=|[ \t]++)|(?<![\w-])private-key[ \t]++|(?<![\w-])secret[ \t]++create[ \t]++[^\s;|&<>`]{1,256}+[ \t]++)"
    r"<\([ \t]*+" + _ECHO + r"(?P<val>(?!-)" + PROSE_VALUE + r")[ \t]*+\)"
)
#: A here-string into a `_STDIN_READER` (``gh auth login --with-token <<< X``; ``gh secret
#: set``'s is `GH_SECRET_RE`'s).
_READER_HERE_RE = re.compile(
    r"(?<![\w-])" + _STDIN_READER + r"(?:" + _GAP + r"[^\s;|&<>`]{1,256}+){0,8}?[ \t]*+<<<[ \t]*+(?P<val>(?!-)"
    + PROSE_VALUE + ")"
)
#: What a line holds when it may hold a command `redact_secret_commands` reads.
SECRET_COMMAND_WORDS_RE = re.compile(
    r"secret|stdin|with-token|chpasswd|vercel|sudo[ \t]++-|passwd|private-key|kinit|pass[ \t]++insert|passphrase-fd"
    r"|<\([ \t]*+(?:echo|printf)"
)
#: ``fly secrets set`` (``flyctl``) and ``kubectl create secret generic``, up to the
#: end of their simple command, past a line continuation; each names and sets secrets only.
_SECRET_COMMAND_RE = re.compile(
    r"(?<![\w-])(?P<cmd>fly(?:ctl)?+[ \t]++secrets[ \t]++set|kubectl[ \t]++create[ \t]++secret[ \t]++generic)"
    r"(?![\w-])(?:[^;|&\n\\]|" + _CONTINUATION + r"|\\.){0,4096}+"
)
#: ``NAME=VALUE`` of ``fly secrets set`` (a flag's ``--app=x`` is none: a ``-`` precedes it).
_FLY_PAIR_RE = re.compile(r"(?<![\w$.-])(?P<name>[A-Za-z_]\w{0,128}+)=(?P<val>(?!-)" + PROSE_VALUE + ")")
#: ``--from-literal=KEY=VALUE`` of ``kubectl create secret generic``.
_KUBECTL_PAIR_RE = re.compile(
    r"(?<![\w-])--from-literal[= ](?P<name>[^\s=\"']{1,253}+)=(?P<val>(?!-)" + PROSE_VALUE + ")"
)


def redact_secret_commands(line: str, masked: Callable[[re.Match[str]], str]) -> str:
    """``line`` with each value ``gh secret set``, ``fly secrets set`` or ``kubectl
    create secret generic`` sets passed through ``masked`` (a match whose ``name`` and
    ``val`` groups are the secret's), whatever its name."""

    def command(m: re.Match[str]) -> str:
        pairs = _KUBECTL_PAIR_RE if m["cmd"].startswith("kubectl") else _FLY_PAIR_RE
        return pairs.sub(masked, m[0])

    text = GH_SECRET_RE.sub(masked, _SECRET_COMMAND_RE.sub(command, line))
    text = _READER_HERE_RE.sub(masked, text) if "<<<" in text else text
    text = _SUBSTITUTED_RE.sub(masked, text) if "<(" in text else text
    if "chpasswd" in text:
        for chpasswd_re in _CHPASSWD_RES:
            text = chpasswd_re.sub(masked, text)
    return _GH_PIPED_RE.sub(masked, text) if "|" in text else text


def redact_continued_commands(text: str, masked: Callable[[re.Match[str]], str]) -> str:
    """`redact_secret_commands` over each line of ``text`` that names a secret command
    (it says ``secret``, ``stdin``, ``with-token``, ``chpasswd``, ``vercel``, ``sudo -``, ``passwd``,
    ``private-key``, ``kinit``, ``pass insert``, ``passphrase-fd`` or ``<(echo``:
    `SECRET_COMMAND_WORDS_RE`), with the lines a backslash at a line's end joins it to,
    before and after: prose is read line by line, and a runbook's ``gh secret set NAME
    \\`` has its ``--body X`` on the next line (``echo X | docker login \\`` its
    ``--password-stdin``). Only those lines are read (found by that pattern)."""
    out, pos = [], 0
    word = SECRET_COMMAND_WORDS_RE.search(text)
    i = -1 if word is None else word.start()
    while i >= 0:
        start = text.rfind("\n", 0, i) + 1
        while start > pos and _continued(text, start - 1):  # ``echo X | docker login \`` above it
            start = text.rfind("\n", 0, start - 1) + 1
        start = max(start, pos)
        end = text.find("\n", i)
        while end >= 0 and _continued(text, end):
            end = text.find("\n", end + 1)
        end = len(text) if end < 0 else end
        out += [text[pos:start], redact_secret_commands(text[start:end], masked)]
        pos = end
        word = SECRET_COMMAND_WORDS_RE.search(text, end)
        i = -1 if word is None else word.start()
    return "".join(out) + text[pos:] if out else text


def _continued(text: str, end: int) -> bool:
    """Whether the line of ``text`` that ends at ``end`` (its ``\\n``) ends in a backslash
    that continues it (`_CONTINUATION`)."""
    tail = text[max(end - 2, 0) : end]
    return tail.endswith("\\") or tail == "\\\r"
