"""The passwords well-known clients take in their own flags, redacted in the simple
command each client starts: `redact_client_passwords` (curl's ``-u user:password``,
``mysql -pX``, ``sshpass -p X``, ``docker login -p X``, ``az login -p X``, ``htpasswd -b
FILE USER X``, ...).

The command rule (`secrets.redact_command`) redacts each of these values; the prose rule
(`secret_commands.redact_clients`) reads the same flags through `client_passwords` and
`curl_users` and redacts only a literal secret there. A flag such as ``-p`` or ``-u``
means something else to other programs (a port, ``date -u``), so it is read only in the
simple command (`SIMPLE_COMMAND_RE`) of the client that takes it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from skill_retriever.ingest.braced_values import placeholder_or_slot
from skill_retriever.ingest.masked_values import masked_value
from skill_retriever.ingest.named_values import NAMED_BRACED_RUN, NAMED_VALUE
from skill_retriever.ingest.secret_formats import REDACTED, replace_group
from skill_retriever.ingest.secret_values import is_reference

__all__ = ["SIMPLE_COMMAND_RE", "client_passwords", "curl_users", "password_starts", "redact_client_passwords"]

#: curl's ``-u user:password``: only in the same simple command as ``curl`` (no ``;``,
#: ``|``, ``&``, parenthesis or line break between), since ``-u`` means something else
#: to other programs (``date -u +%H:%M``). A ``;`` or ``&`` in braces with no blank around
#: it is a value's (`named_values.NAMED_BRACED_RUN`: ``-u admin:{Xk9;2mQ}``, ``-p{Tr0ub&3;x9}``),
#: no command's end: split there, the password was read as ``{Xk9`` and its tail kept. Nor
#: is one in quotes with no blank in them (`_QUOTED_WORD`: ``-u "admin:Tr0ub&3x9"``,
#: ``-p"Tr0ub&3x9"``), a character of the word; one with a blank may be a script's
#: (``sh -c "cd /srv; mysql -p db"``), whose commands stay apart. Each password is read as
#: the value after a secret's name (`named_values.NAMED_VALUE`).
_QUOTED_WORD = r""""[^"\s\\]*+"|'[^'\s]*+'"""
SIMPLE_COMMAND_RE = re.compile(r"(?:" + NAMED_BRACED_RUN + "|" + _QUOTED_WORD + r"|[^;&|()\n])++")
_CURL_RE = re.compile(r"(?<![\w-])curl(?![\w-])")
_CURL_USER_RE = re.compile(r"""(?<![\w-])(?:-[uU]|--(?:proxy-)?+user)(?:[ \t]+|=)?(?P<val>""" + NAMED_VALUE + ")")
#: Clients that take a password in a short flag, each with that flag, redacted in the
#: simple command the client starts (as curl's ``-u``: to other programs ``-p`` is a port,
#: parents or a plugin): mysql's tools ``-pPASS`` (only glued: ``-p db`` prompts for the
#: password and names a database), sshpass's ``-p PASS`` among its own options before the
#: command it runs (``sshpass -p X ssh -p 2222 host``), redis-cli's ``-a PASS`` /
#: ``--pass PASS``, mongosh's and the mongo tools' ``-p PASS``, a registry login's ``-p
#: PASS`` (``docker login``: ``docker run -p`` publishes a port), the Azure CLI's ``az
#: login -p PASS`` (a service principal's secret), openssl's ``-k PASS``
#: and ``-pass pass:PASS`` (``-passin``, ``-passout``; ``env:`` and ``file:`` name where
#: it is), and keytool's and jarsigner's ``-storepass PASS``, ``-keypass PASS`` (``-src``,
#: ``-dest``; ``-storepass:env`` names a variable), and htpasswd's password after its file
#: and user when a ``-b`` flag says it is on the command line (`_HTPASSWD`). And (`_MORE`)
#: archivers' ``zip -P PASS``, ``7z a -pPASS`` (glued), SQL Server's ``sqlcmd -P PASS``,
#: the LDAP tools' ``-w PASS``, ``smbclient -U user%PASS``, ``lftp -u user,PASS``,
#: Mosquitto's ``-P PASS``, ``twine upload -p PASS``, NuGet's ``-k KEY`` (and
#: ``nuget setapikey KEY``), ``ssh-keygen -N PASS`` and ``-P PASS``, and passwords a
#: command takes by place: ``rabbitmqctl add_user USER PASS``, ``bw unlock PASS``, ``mc
#: alias set NAME URL ACCESS_KEY SECRET``, ``rclone config create NAME TYPE secret_access_key
#: X``, ``vault login TOKEN``, ``snyk auth TOKEN``,
#: ``ngrok authtoken TOKEN``, ``consul acl set-agent-token KIND TOKEN``, ``rclone obscure
#: PASS``, ``ansible-vault encrypt_string PASS``, ``openssl passwd -6 PASS``, ``mkpasswd
#: PASS``, ``mysqladmin password PASS``, ``az keyvault secret set --value X``, ``pulumi
#: config set --secret NAME X``, ``doctl auth init -t TOKEN``, ``codecov -t TOKEN``,
#: ``expo login -p PASS``, ``useradd -p HASH`` (a crypt hash, which a wordlist cracks) and
#: HTTPie's ``http -a user:PASS``; on Windows
#: ``ConvertTo-SecureString "PASS" -AsPlainText``, ``net user NAME PASS``, ``net use
#: \\\\srv\\share PASS``, ``cmdkey
#: /pass:PASS``, ``schtasks /rp PASS``, ``psexec -p PASS`` and ``sc config NAME password=
#: PASS``; archives' and PDFs' (``unrar x -pPASS``, ``pdftk ... user_pw PASS``, ``qpdf
#: --encrypt USER OWNER``), Wi-Fi's (``nmcli ... password PASS``, ``wpa_passphrase SSID
#: PASS``), RDP's (``xfreerdp /p:PASS``, ``rdesktop -p PASS``), the macOS keychain's ``-w
#: PASS``, registries' (``poetry config http-basic.NAME USER PASS``, ``cargo login TOKEN``),
#: ``jenkins-cli -auth user:TOKEN``, ``mc admin user add ALIAS USER PASS``, redis-cli's ``AUTH
#: PASS``, AWS's (``ssm put-parameter --type SecureString --value X``, ``secretsmanager
#: --secret-string X``), Redis' ``requirepass PASS``, ``grafana-cli admin reset-admin-password
#: PASS``, Oracle's ``user/PASS@db``, databases' shells (``cqlsh -p PASS``, ``cypher-shell -p
#: PASS``, DB2's ``using PASS``, ``mysqlsh user:PASS@host``), platforms' logins (``oc login -p
#: PASS``, ``cf auth USER PASS``), management boards' (``ipmitool -P PASS``, ``racadm -p
#: PASS``) and SNMPv3's ``-A`` / ``-X`` passphrases (a v2c community, ``-c public``, is not
#: read: its examples are the defaults). Each kept its secret before.
_ONE_VALUE = r"(?>" + NAMED_VALUE + ")"
_MYSQL = r"(?:mysql|mariadb-?)(?:dump|admin|import|show|check|pump|slap)?|mariadb"
_SSHPASS_OPTIONS = r"(?:[ \t]+-(?:[dfP][ \t]*" + _ONE_VALUE + r"|[ehvV]\S*+))*+"
#: htpasswd's flags (``-b``, ``-bc``, ``-B -C 12``); with ``-b`` the password is the third
#: word after them (``htpasswd -b FILE USER PASS``), the second with ``-n`` (no file).
_HTPASSWD_FLAG = r"(?:[ \t]++-[A-Za-z]++(?:[ \t]++\d++)?+)"
_HTPASSWD = (
    r"\A(?=" + _HTPASSWD_FLAG + r"*?[ \t]++-[A-Za-z]*?b)(?:(?=" + _HTPASSWD_FLAG + r"*?[ \t]++-[A-Za-z]*?n)(?P<nofile>))?+"
    + _HTPASSWD_FLAG + r"*+(?(nofile)|[ \t]++(?!-)" + _ONE_VALUE + r")[ \t]++(?!-)" + _ONE_VALUE + r"[ \t]++"
)
_WORD = r"[ \t]++(?!-)" + _ONE_VALUE
#: Commands whose first word after them is a token or password (not ``k=v``: ``vault login
#: -method=userpass password=X`` is the assignment rule's).
_BY_PLACE = (
    r"vault[ \t]+login|snyk[ \t]+auth|ngrok[ \t]+(?:authtoken|config[ \t]+add-authtoken)|rclone[ \t]+obscure"
    r"|ansible-vault[ \t]+encrypt_string|cargo[ \t]+login|grafana-cli(?:[ \t]+--?[\w-]+(?:[= ][^\s-]\S*)?)*?[ \t]+admin[ \t]+reset-admin-password"
)
#: rclone's keys that hold a secret (``pass``, ``password2``, ``secret_access_key``,
#: ``client_secret``, ``token``, b2's and azureblob's ``key``, ``session_token``), not
#: ``access_key_id`` or ``user``: ``rclone config create s3r s3 secret_access_key X``.
_RCLONE_SECRET_KEY = r"(?:[\w-]{0,64}?[_-])?(?:pass(?:word)?+2?+|secret(?:_access_key)?+|token|key)"
#: ``net use`` maps a share with a password after its path (``net use Z: \\srv\share X
#: /user:bob``), before or after the switches (``/user:bob X``); ``*`` prompts for it.
_NET_USE = r"\A(?:[ \t]++(?:[A-Za-z]:|\*))?+[ \t]++\\\\[^\s]++(?:[ \t]++/[^\s]++)*+[ \t]++(?![/*-])"
#: Oracle's ``user/`` where a tool takes it: its first word after its flags, after rman's
#: ``target`` / ``catalog`` / ``auxiliary``, SQL*Plus' ``connect``, or ``userid=``.
_ORACLE_USER = (
    r"""(?:\A(?:[ \t]++-[\w-]++)*+[ \t]++|(?<![\w-])(?:target|catalog|auxiliary|connect)[ \t]++|(?<![\w-])userid=)"""
    r"""["']?+[A-Za-z][\w$#]{0,63}+/"""
)
#: A password in Oracle's ``user/password@db``: up to the ``@``, a blank or the end.
_ORACLE_PASSWORD = r"""[^\s/@"'`;|&]{1,128}+(?=@|[ \t"']|$)"""
_MORE: tuple[tuple[str, ...], ...] = (
    ("zip|unzip|zipcloak", r"(?<![\w-])-P[ \t]*+"),
    ("7z|7za|7zr|7zz", r"(?<![\w-])-p"),
    ("sqlcmd|bcp|osql|isql", r"(?<![\w-])-P[ \t]*+"),
    ("ldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn|exop)", r"(?<![\w-])-w[ \t]*+"),
    ("smbclient|rpcclient", r"""(?<![\w-])(?:-U[ \t]*+|--user(?:=|[ \t]+))["']?+[^\s%"']*+%"""),
    ("lftp", r"""(?<![\w-])-u[ \t]++["']?+[^\s,"']*+,"""),
    ("mosquitto_(?:pub|sub|rr)", r"(?<![\w-])(?:-P|--pw)[ \t]++"),
    (r"twine[ \t]+upload", r"(?<![\w-])-p[ \t]++"),
    (r"(?:dotnet[ \t]+)?nuget[ \t]+(?:push|delete)", r"(?<![\w-])-k[ \t]++"),
    (r"nuget[ \t]+setapikey", r"\A[ \t]++(?!-)"),
    ("ssh-keygen", r"(?<![\w-])-[NP][ \t]*+"),
    ("rabbitmqctl", r"(?<![\w-])(?:add_user|change_password|authenticate_user)" + _WORD + r"[ \t]++(?!-)"),
    ("rabbitmqadmin", r"(?<![\w-])-p[ \t]++"),
    (r"bw[ \t]+unlock", r"\A[ \t]++(?!-)"),
    (r"mc[ \t]+alias[ \t]+set", r"\A" + _WORD * 3 + r"[ \t]++(?!-)"),
    # rclone's remote settings, each a key and its value words apart: those a secret's key names.
    (r"rclone[ \t]+config[ \t]+(?:create|update|password)", r"(?<![\w-])" + _RCLONE_SECRET_KEY + r"[ \t]++(?!-)"),
    # Tokens and passwords a command takes by place or short flag: logins, hashes, vaults.
    (_BY_PLACE, r"\A[ \t]++(?!-)(?![^\s=]*+=)"),
    (r"consul[ \t]+acl[ \t]+set-agent-token", r"\A" + _WORD + r"[ \t]++(?!-)"),
    ("openssl", r"(?<![\w-])passwd(?:[ \t]++-(?:salt[ \t]++\S++|[\w-]++))*+[ \t]++(?!-)"),
    ("mkpasswd", r"\A(?:[ \t]++(?:-[mSR]|--method|--salt|--rounds)(?:=|[ \t]++)\S++|[ \t]++-[\w-]++)*+[ \t]++(?!-)"),
    ("mysqladmin", r"(?<![\w-])password[ \t]++(?!-)"),
    (r"az[ \t]+keyvault[ \t]+secret[ \t]+set", r"(?<![\w-])--value(?:=|[ \t]++)"),
    (r"pulumi[ \t]+config[ \t]+set", r"(?<![\w-])--secret" + _WORD + r"[ \t]++(?!-)"),
    (r"doctl[ \t]+auth[ \t]+init|codecov(?:cli)?+", r"(?<![\w-])-t[ \t]++"),
    (r"(?:expo|eas)[ \t]+login", r"(?<![\w-])-p[ \t]++"),
    ("useradd|usermod", r"(?<![\w-])-p[ \t]++"),
    ("https?+", r"""(?<![\w-])-a[ \t]++["']?+[^\s:"']*+:"""),
    # Archives' and PDFs' passwords, Wi-Fi's, RDP's, keychains', package registries'.
    ("(?:un)?+rar", r"(?<![\w-])-h?+p(?=[^\s-])"),
    ("pdftk", r"(?<![\w-])(?:user|owner)_pw[ \t]++(?!-|PROMPT(?!\S))"),
    ("qpdf", r"(?<![\w-])--encrypt(?:" + _WORD + r")?+[ \t]++(?!-)"),
    ("qpdf", r"(?<![\w-])--encrypt[ \t]++(?!-)"),
    ("nmcli", r"(?<![\w-])(?:password|wifi-sec\.psk|802-11-wireless-security\.psk)[ \t]++(?!-)"),
    ("wpa_passphrase", r"\A" + _WORD + r"[ \t]++(?!-)"),
    ("(?:x|wl|sdl-)freerdp3?+", r"(?<![\w-])/p:"),
    ("rdesktop", r"(?<![\w-])-p[ \t]*+(?!-)"),
    (r"security[ \t]+add-(?:generic|internet)-password", r"(?<![\w-])-w[ \t]++(?!-)"),
    (r"jenkins-cli(?:\.jar)?+", r"""(?<![\w-])-auth[ \t]++["']?+[^\s:@"']++:"""),
    (r"poetry[ \t]+config", r"(?<![\w-])http-basic\.[\w-]++" + _WORD + r"[ \t]++(?!-)"),
    (r"poetry[ \t]+config", r"(?<![\w-])pypi-token\.[\w-]++[ \t]++(?!-)"),
    (r"mc[ \t]+admin[ \t]+user[ \t]+add", r"\A" + _WORD * 2 + r"[ \t]++(?!-)"),
    # AWS: an SSM parameter's value when its type says it is a secret, a Secrets Manager secret's.
    (r"aws[ \t]+ssm[ \t]+put-parameter(?=[^\n;|&]{0,512}?SecureString)", r"(?<![\w-])--value(?:=|[ \t]++)"),
    (r"aws[ \t]+secretsmanager", r"(?<![\w-])--secret-string(?:=|[ \t]++)(?!fileb?+://)"),
    ("redis-cli", r"(?<![\w-])(?i:auth)(?:" + _WORD + r"(?=[ \t]++[^\s-]))?+[ \t]++(?!-)"),
    # Redis' own password settings: ``redis-server --requirepass X``, a redis.conf line
    # ``requirepass X`` (``masterauth``), ``CONFIG SET requirepass X``.
    ("redis-server", r"(?<![\w-])--(?:requirepass|masterauth)[ \t]++(?!-)"),
    ("requirepass|masterauth", r"\A[ \t]++(?!-)"),
    # Oracle's tools log in as ``user/password@db`` (``sqlplus bob/X@orcl``, ``sqlldr
    # userid=bob/X``, ``rman target sys/X@orcl``): the password ends at ``@``.
    ("sqlplus|sqlldr|expdp|impdp|rman|dgmgrl|tkprof", _ORACLE_USER, _ORACLE_PASSWORD),
    # Windows: PowerShell's plain text made a secure string, a local user's password, a
    # stored credential's, a scheduled task's and a service's run-as password, PsExec's.
    ("(?i:convertto-securestring)", r"\A[ \t]++(?!-)"),
    ("(?i:convertto-securestring)", r"(?i)(?<=[ \t])-string[ \t]++(?!-)"),
    (r"(?i:net)[ \t]+(?i:user)", r"\A[ \t]++(?![/-])" + _ONE_VALUE + r"[ \t]++(?![/*-])"),
    (r"(?i:net)[ \t]+(?i:use)", _NET_USE),
    ("(?i:cmdkey)", r"(?i)(?<![\w-])/pass:"),
    ("(?i:schtasks)", r"(?i)(?<![\w-])/rp[ \t]++"),
    ("(?i:psexec)(?:64)?+(?:\\.exe)?+", r"(?<![\w-])-p[ \t]++"),
    (r"sc(?:\.exe)?+[ \t]+(?:config|create)", r"(?i)(?<![\w-])password=[ \t]*+"),
    # Databases' shells (Cassandra's, Neo4j's, Elasticsearch's users, DB2's ``using``), and
    # MySQL Shell's ``user:PASS@host``, which ends at the ``@``.
    ("cqlsh|cypher-shell|elasticsearch-users", r"(?<![\w-])-p[ \t]++(?!-)"),
    (r"neo4j-admin(?:[ \t]+dbms)?+[ \t]+set-initial-password", r"\A[ \t]++(?!-)"),
    ("db2", r"(?i)(?<![\w-])using[ \t]++(?!-)"),
    ("mysqlsh", r"""(?<=[ \t="'])[A-Za-z_][\w.$-]{0,63}+:(?=[^\s@]{1,128}+@)""", _ORACLE_PASSWORD),
    # Platforms' logins (OpenShift, Cloud Foundry), hatch's and NuGet sources' credentials.
    (r"(?:oc|cf)[ \t]+login", r"(?<![\w-])-p[ \t]++(?!-)"),
    (r"cf[ \t]+auth", r"\A" + _WORD + r"[ \t]++(?!-)"),
    (r"hatch[ \t]+publish", r"(?<![\w-])-a[ \t]++(?!-)"),
    (r"(?:dotnet[ \t]+)?nuget[ \t]+(?:add|update)[ \t]+source", r"(?<![\w-])-p[ \t]++(?!-)"),
    # Servers' management boards (IPMI, Dell's iDRAC), SNMPv3's auth and privacy
    # passphrases, a VNC server's, Drupal's and steamcmd's.
    ("ipmitool", r"(?<![\w-])-P[ \t]*+(?!-)"),
    ("racadm", r"(?<![\w-])-p[ \t]++(?!-)"),
    ("snmp(?:walk|bulkwalk|get|getnext|bulkget|set|table|trap|inform|status|df|netstat|delta|usm|vacm)", r"(?<![\w-])-[AX][ \t]*+(?!-)"),
    ("x11vnc", r"(?<![\w-])-(?:passwd|storepasswd)[ \t]++(?!-)"),
    ("drush", r"(?<![\w-])(?:upwd|user:password|user-password)" + _WORD + r"[ \t]++(?!-)"),
    ("steamcmd|steam", r"(?<![\w-])\+login" + _WORD + r"[ \t]++(?![-+])"),
)
_CLIENT_PASSWORDS = tuple(
    (
        re.compile(r"(?<![\w-])(?:" + program + r")(?![\w.:@/=-])"),
        re.compile(flag + r"(?P<val>" + (value[0] if value else _ONE_VALUE) + ")"),
    )
    # An entry may give its own value's pattern after its flag's (Oracle's password ends at ``@``).
    for program, flag, *value in (
        (_MYSQL, r"(?<![\w-])-p"),
        ("sshpass", r"\A" + _SSHPASS_OPTIONS + r"[ \t]+-p[ \t]*"),
        ("redis-cli", r"(?<![\w-])(?:-a|--pass)[ \t]+"),
        # the legacy shell ``mongo`` only where a command starts: ``--name mongo -p 27017:27017`` is docker's
        (r"mongo(?:sh|dump|restore|export|import|stat|top|files)|\A[ \t]*+mongo|(?:(?<=`)|(?<=\$ ))mongo", r"(?<![\w-])-p[ \t]*"),
        (r"(?:docker|podman|buildah|skopeo|nerdctl|oras|helm[ \t]+registry)[ \t]+login", r"(?<![\w-])-p[ \t]*"),
        (r"az[ \t]+login", r"(?<![\w-])-p[ \t]+"),
        ("openssl", r"(?<![\w-])(?:-[kK][ \t]+|-pass(?:in|out|word)?[ \t]+pass:)"),
        ("keytool|jarsigner", r"(?<![\w-])-(?:(?:src|dest)?(?:store|key)pass|new)[ \t]+"),
        ("htpasswd", _HTPASSWD),
        *_MORE,
    )
)


def redact_client_passwords(text: str) -> str:
    """Shell text with curl's ``-u`` passwords and the password flags of well-known
    clients (`_CLIENT_PASSWORDS`) redacted, each in the simple command its client starts."""
    return SIMPLE_COMMAND_RE.sub(_client_passwords, SIMPLE_COMMAND_RE.sub(_curl_users, text))


def _client_passwords(m: re.Match[str]) -> str:
    """One simple command with the password flags of the clients it runs redacted
    (`_CLIENT_PASSWORDS`); a value that starts with ``-`` is the next option."""
    return client_passwords(m[0], masked_value(lambda v: not v["val"].startswith("-")))


def client_passwords(segment: str, masked: Callable[[re.Match[str]], str]) -> str:
    """One simple command with each password flag of the clients it runs
    (`_CLIENT_PASSWORDS`: a match whose ``val`` group is the password) passed through
    ``masked``; prose (`prose_secrets`) redacts only a literal secret there."""
    for program_re, flag_re in _CLIENT_PASSWORDS:
        program = program_re.search(segment)
        if program is not None:
            segment = segment[: program.end()] + flag_re.sub(masked, segment[program.end() :])
    return segment


def password_starts(text: str) -> frozenset[int]:
    """Where in shell ``text`` the passwords of its clients' password flags start
    (`_CLIENT_PASSWORDS`, each in the simple command its client starts, as
    `client_passwords` reads them): ``X`` of ``mysql -pX``, ``sshpass -p X``. A flag rule
    that reads ``-psecret12`` as a flag of its own (`secret_flags`: a secret's word in
    it) asks this: a password glued to its flag is all the flag takes, and the word after
    it is the next argument (mysql's database, the command sshpass runs)."""
    starts: set[int] = set()
    for segment in SIMPLE_COMMAND_RE.finditer(text):
        for program_re, flag_re in _CLIENT_PASSWORDS:
            program = program_re.search(segment[0])
            if program is not None:
                at = segment.start() + program.end()
                starts.update(at + m.start("val") for m in flag_re.finditer(segment[0][program.end() :]))
    return frozenset(starts)


def _curl_users(m: re.Match[str]) -> str:
    """One simple command with the passwords of the ``-u`` options after its ``curl``
    redacted (`_curl_user`)."""
    return curl_users(m[0], lambda password: True)


def curl_users(segment: str, secret: Callable[[str], bool]) -> str:
    """One simple command with the passwords of the ``-u`` options after its ``curl``
    redacted where ``secret`` says the password (quotes and all) is one (`_curl_user`)."""
    curl = _CURL_RE.search(segment)
    if curl is None:
        return segment
    return segment[: curl.end()] + _CURL_USER_RE.sub(lambda m: _curl_user(m, secret), segment[curl.end() :])


def _curl_user(m: re.Match[str], secret: Callable[[str], bool]) -> str:
    """curl's ``-u user:password`` with the password redacted (the user name kept);
    ``-u "$USER:$PASS"`` and ``-u user:$PASS`` are kept."""
    value = m["val"]
    user, colon, password = value.partition(":")
    at = m.start("val")  # ``-u 'user:$ecretP4ss'``: a quoted ``$`` is literal (`is_reference`)
    if not colon or is_reference(value, m.string, at) or placeholder_or_slot(password):
        return m[0]
    if is_reference(password, m.string, at + len(user) + 1):
        return m[0]
    if not secret(password):
        return m[0]
    quote = value[0] if value[0] in "\"'" else ""
    closed = quote if len(value) > 1 and value.endswith(quote) and quote else ""
    if not password.rstrip("\"'"):
        return m[0]  # ``-u user:`` asks for the password: nothing to hide
    return replace_group(m, "val", f"{user}:{REDACTED}{closed}")
