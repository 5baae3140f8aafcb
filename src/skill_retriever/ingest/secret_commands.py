"""Secrets a command puts in a secret's place without ``NAME=``: what `prose_secrets`
reads after a setter (`SETTER_RE`), a secret-named flag (`FLAG_RE`) and a client's
password flag (`redact_clients`).

A runbook sets a variable or a setting with a command as often as with ``NAME=value``:
a Dockerfile's ``ENV API_KEY value``, fish's ``set -gx API_KEY value``, Windows'
``setx API_KEY value``, ``aws configure set aws_secret_access_key value``, ``npm config
set //registry.npmjs.org/:_authToken value``, ``git config --global github.token
value``. The name and the value are words apart, so the assignment rule does not see
them; these patterns give the same ``name`` and ``val`` groups, and `prose_secrets`
decides as it does for an assignment (a secret-looking name, a literal value). So does
a flag and the word after it (``--password X``, ``--api-key X``): a word that starts
with ``-`` is the next flag, and ``--password-file`` or ``--token-url`` name no secret.
So does a call without parentheses that is a line of its own, as Gradle's
``signingConfigs`` sets a keystore's passwords (``storePassword "X"``, ``keyPassword
'X'``): a name and one quoted value, a comment at most after it.
GitHub's CLI names the secret and its value apart too: ``gh secret set API_KEY --body X``
(``-b X``), its other flags (``--repo o/r``, ``-e prod``) before or after the name.
That command, ``flyctl secrets set NAME=X`` and ``kubectl create secret generic n
--from-literal=KEY=X`` say themselves that the value is a secret, so their values go
whatever the name (``DEPLOY_SSH``, ``DATABASE_URL``): `secret_setters`.
A client's own password flag (``docker login -p X``, ``keytool -storepass X``,
``openssl enc -k X``, ``mysql -pX``, ``curl -u user:X``) is read as hook commands read
it (`client_passwords`, `client_passwords.curl_users`: only in the simple command the
client starts, where ``-p`` is no port), its value redacted when it is a literal secret.

Every pattern is linear: quantifiers are possessive and a name or value is bounded.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from skill_retriever.ingest.client_passwords import SIMPLE_COMMAND_RE, client_passwords, curl_users
from skill_retriever.ingest.named_values import NAMED_VALUE
from skill_retriever.ingest.prose_values import PROSE_VALUE
from skill_retriever.ingest.secret_setters import GH_SECRET_RE, redact_secret_commands

__all__ = [
    "CALL_RE",
    "CLIENT_LINE_RE",
    "CLIENT_WORDS",
    "FLAG_RE",
    "GH_SECRET_RE",
    "SETTER_RE",
    "SHELL_SETTER_RE",
    "redact_clients",
    "redact_secret_commands",
]

#: A command that sets the variable or setting named by the word after it to the word
#: after that: a Dockerfile's ``ENV`` (upper case: ``env`` runs a command), Windows'
#: ``setx``, fish's ``set`` with its scope or export flags (``set -gx``; bare ``set``
#: is also the shell's, which takes no value), ``config set`` / ``configure set``
#: (npm, yarn, pnpm, aws, ...) with flags after ``set``, ``git config`` with its
#: ``--global`` flags, a key-value store's ``consul kv put`` and ``etcdctl put`` (the key's
#: last word names it: ``app/db_password``), ``doppler secrets set``, ``netlify
#: env:set``, csh's (or macOS ``launchctl``'s) ``setenv``, Apache's ``SetEnv`` and C's ``#define``. The
#: name is any word but a flag (``//host/:_authToken``).
_SETTER = (
    r"(?<![\w$.-])(?:ENV|setx|set(?:[ \t]++(?:-[A-Za-z]++|--(?:export|global|universal|local)))++"
    r"|config(?:ure)?+[ \t]++set(?:[ \t]++--?+[\w-]++(?:=[^\s]*+)?+)*+"
    r"|git[ \t]++config(?:[ \t]++--[\w-]++)*+"
    r"|consul[ \t]++kv[ \t]++put|etcdctl(?:[ \t]++--?+[\w-]++(?:=[^\s]*+)?+)*+[ \t]++put"
    r"|doppler[ \t]++secrets[ \t]++set|netlify[ \t]++env:set|(?:launchctl[ \t]++)?+setenv|SetEnv|\#define)"
    r"""[ \t]++(?P<name>(?!-)[^\s="'`]{1,256}+)[ \t]++(?P<val>"""
)
SETTER_RE = re.compile(_SETTER + PROSE_VALUE + ")")
#: The same in shell text (`secrets.redact_command`), its value a shell word (braces with
#: a ``&`` in them read whole: `named_values`).
SHELL_SETTER_RE = re.compile(_SETTER + NAMED_VALUE + ")")
#: A flag and the word after it, apart (``--password X``, ``-Password X``); one that
#: names a secret is `prose_secrets`' to redact. A ``--no-`` flag takes no value
#: (``psexec.py -k -no-pass host``: the host is the next argument).
FLAG_RE = re.compile(
    r"(?<![\w$.-])--?+(?![Nn]o-)(?P<name>[A-Za-z][\w-]{0,128}+)[ \t]++(?P<val>(?!-)" + PROSE_VALUE + ")"
)
#: A Groovy (Gradle) call without parentheses, alone on its line: ``storePassword "X"``.
#: Only a quoted value, and nothing but a comment after it, so that prose (``Password
#: "x" is ...``) and code (``storePassword System.getenv("X")``) are no such call.
CALL_RE = re.compile(
    r"""^[ \t]*+(?P<name>[A-Za-z_]\w{0,128}+)[ \t]++(?P<val>"(?:[^"\\\n]|\\.){0,256}+"|'[^'\n]{0,256}+')"""
    r"""(?=[ \t]*+(?://[^\n]*+)?+\r?$)"""
)
#: A line that may start a client with a password flag (`redact_clients` reads no other),
#: and the pattern's words (`word_lines.on_words` finds them).
CLIENT_WORDS = ("mysql", "mariadb", "sshpass", "redis-cli", "mongo", "login", "openssl", "keytool", "jarsigner", "curl", "htpasswd",
                "zip", "7z", "sqlcmd", "bcp", "osql", "isql", "ldap", "smbclient", "rpcclient", "lftp", "mosquitto", "twine", "nuget",
                "ssh-keygen", "rabbitmqctl", "unlock", "alias", "vault", "snyk", "ngrok", "rclone", "consul", "passwd",
                "pulumi", "doctl", "codecov", "http ", "https ",
                "SecureString", "securestring", "net use", "NET USE", "cmdkey", "schtasks", "psexec", "PsExec",
                "sc.exe", "sc config", "sc create", "useradd", "usermod", "unrar", "rar a", "rar x", "rar e",
                "pdftk", "qpdf", "nmcli", "wpa_passphrase", "freerdp", "rdesktop", "security add-", "jenkins-cli",
                "poetry config", "cargo login", "mc admin", "sqlplus", "sqlldr", "expdp", "impdp", "rman ",
                "dgmgrl", "tkprof", "aws ssm", "aws secretsmanager", "rabbitmqadmin", "requirepass", "masterauth",
                "grafana-cli", "cqlsh", "cypher-shell", "elasticsearch-users", "neo4j-admin", "db2", "mysqlsh",
                "oc login", "cf login", "cf auth", "hatch publish", "ipmitool", "racadm", "snmp", "x11vnc",
                "drush", "steam")
CLIENT_LINE_RE = re.compile("|".join(CLIENT_WORDS))


def redact_clients(line: str, masked: Callable[[re.Match[str]], str], secret: Callable[[str], bool]) -> str:
    """A line with the password flags of the clients it runs passed through ``masked``
    (a match whose ``val`` group is the password) and curl's ``-u user:password``
    redacted where ``secret`` says the password is one; a value that starts with ``-``
    is the next option."""

    def one(m: re.Match[str]) -> str:
        return m[0] if m["val"].startswith("-") else masked(m)

    def segment(m: re.Match[str]) -> str:
        return client_passwords(curl_users(m[0], secret), one)

    return SIMPLE_COMMAND_RE.sub(segment, line)
