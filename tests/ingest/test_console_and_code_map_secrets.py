"""Passwords more consoles take (Cassandra's, Neo4j's, DB2's, MySQL Shell's, IPMI's,
SNMPv3's, OpenShift's and Cloud Foundry's logins, ...), values handed to readers on
their input (``kinit``, ``pass insert``, ``gpg --passphrase-fd 0``) or in a process
substitution under a secret file's flag, Django's ``create_superuser``, SQL Server's
``WITH PASSWORD = 'X'``; in hook commands, the pairs of code's maps (a JavaScript
object's bare key, a PHP hash's ``=>``, a PowerShell hashtable) and XML settings; in
prose, a Java properties file's ``<entry key=...>``, a YAML tag before a value, a Java
``-Dpassword=``, and a sentence that logs in with a user and password. Each kept its
secret before: a probe of common commands this session. Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
PW = "Xk9s2mQz7Lp"

#: Read by the command rules and by prose alike.
BOTH = [
    (f"cqlsh -u cassandra -p {PW}", f"cqlsh -u cassandra -p {R}"),
    (f"cypher-shell -u neo4j -p {PW} -a bolt://db:7687", f"cypher-shell -u neo4j -p {R} -a bolt://db:7687"),
    (f"neo4j-admin dbms set-initial-password {PW}", f"neo4j-admin dbms set-initial-password {R}"),
    (f"elasticsearch-users useradd bob -p {PW} -r superuser", f"elasticsearch-users useradd bob -p {R} -r superuser"),
    (f"osql -S db -U sa -P {PW}", f"osql -S db -U sa -P {R}"),
    (f"db2 connect to sample user bob using {PW}", f"db2 connect to sample user bob using {R}"),
    (f"mysqlsh bob:{PW}@localhost:3306", f"mysqlsh bob:{R}@localhost:3306"),
    (f"oc login -u dev -p {PW} https://api.example.com:6443", f"oc login -u dev -p {R} https://api.example.com:6443"),
    (f"cf login -a https://api.example.com -u bob -p {PW}", f"cf login -a https://api.example.com -u bob -p {R}"),
    (f"cf auth bob {PW}", f"cf auth bob {R}"),
    (f"hatch publish -u __token__ -a {PW}", f"hatch publish -u __token__ -a {R}"),
    (
        f"dotnet nuget add source https://nuget.example.com/v3 -n corp -u bob -p {PW}",
        f"dotnet nuget add source https://nuget.example.com/v3 -n corp -u bob -p {R}",
    ),
    (f"ipmitool -I lanplus -H 10.0.0.5 -U admin -P {PW} power status", f"ipmitool -I lanplus -H 10.0.0.5 -U admin -P {R} power status"),
    (f"racadm -r 10.0.0.5 -u root -p {PW} getsysinfo", f"racadm -r 10.0.0.5 -u root -p {R} getsysinfo"),
    (
        f"snmpwalk -v3 -l authPriv -u bob -a SHA -A {PW} -x AES -X {PW}2 10.0.0.1",
        f"snmpwalk -v3 -l authPriv -u bob -a SHA -A {R} -x AES -X {R} 10.0.0.1",
    ),
    (f"x11vnc -display :0 -passwd {PW}", f"x11vnc -display :0 -passwd {R}"),
    (f"drush upwd admin {PW}", f"drush upwd admin {R}"),
    (f"drush user:password admin {PW}", f"drush user:password admin {R}"),
    (f"steamcmd +login bob {PW} +quit", f"steamcmd +login bob {R} +quit"),
    (f"rabbitmqctl authenticate_user bob {PW}", f"rabbitmqctl authenticate_user bob {R}"),
    (f"curl --proxy-user bob:{PW} https://example.com", f"curl --proxy-user bob:{R} https://example.com"),
    (f"curl -U bob:{PW} -x http://proxy:3128 https://example.com", f"curl -U bob:{R} -x http://proxy:3128 https://example.com"),
    (f"echo {PW} | kinit bob@EXAMPLE.COM", f"echo {R} | kinit bob@EXAMPLE.COM"),
    (f"gopass insert -f db/prod <<< {PW}", f"gopass insert -f db/prod <<< {R}"),
    (f"pass insert -e db <<< {PW}", f"pass insert -e db <<< {R}"),
    (f"gpg --batch --passphrase-fd 0 -c notes.txt <<< {PW}", f"gpg --batch --passphrase-fd 0 -c notes.txt <<< {R}"),
    (
        f"ansible-vault encrypt --vault-password-file=<(echo {PW}) vars.yml",
        f"ansible-vault encrypt --vault-password-file=<(echo {R}) vars.yml",
    ),
    (
        f"python manage.py shell -c \"User.objects.create_superuser('admin', 'a@example.org', '{PW}')\"",
        f"python manage.py shell -c \"User.objects.create_superuser('admin', 'a@example.org', '{R}')\"",
    ),
    (f"sqlcmd -S db -Q \"CREATE LOGIN bob WITH PASSWORD = '{PW}'\"", f"sqlcmd -S db -Q \"CREATE LOGIN bob WITH PASSWORD = '{R}'\""),
]

#: Prose read these already; a hook command's rules did not.
COMMANDS = [
    (
        f"mongosh --eval \"db.createUser({{user: 'bob', pwd: '{PW}', roles: []}})\"",
        f"mongosh --eval \"db.createUser({{user: 'bob', pwd: '{R}', roles: []}})\"",
    ),
    (
        f"php artisan tinker --execute=\"User::create(['password' => '{PW}'])\"",
        f"php artisan tinker --execute=\"User::create(['password' => '{R}'])\"",
    ),
    (
        f"pwsh -c 'Invoke-RestMethod https://api.example.com -Headers @{{Authorization = \"Bearer {PW}\"}}'",
        f"pwsh -c 'Invoke-RestMethod https://api.example.com -Headers @{{Authorization = \"Bearer {R}\"}}'",
    ),
    (
        f"pwsh -c '$c = @{{ User = \"bob\"; Password = \"{PW}\" }}'",
        f"pwsh -c '$c = @{{ User = \"bob\"; Password = \"{R}\" }}'",
    ),
    (f"echo '<password>{PW}</password>' >> settings.xml", f"echo '<password>{R}</password>' >> settings.xml"),
    (
        f"echo '<property name=\"password\" value=\"{PW}\"/>' >> beans.xml",
        f"echo '<property name=\"password\" value=\"{R}\"/>' >> beans.xml",
    ),
]

#: A hook command's rules read these already; prose did not.
PROSE = [
    (f'<entry key="db.password">{PW}</entry>', f'<entry key="db.password">{R}</entry>'),
    (f"password: !!str {PW}", f"password: !!str {R}"),
    (f"mvn deploy -Dpassword={PW}", f"mvn deploy -Dpassword={R}"),
    (f"Login with admin / {PW}", f"Login with admin / {R}"),
    (f"Sign in as admin:{PW} to start.", f"Sign in as admin:{R} to start."),
    (f"Log in as `admin` with password `{PW}`.", f"Log in as `admin` with password `{R}`."),
    (f"username admin, password {PW}", f"username admin, password {R}"),
]


@pytest.mark.parametrize(("command", "expected"), BOTH + COMMANDS)
def test_the_command_rules_take_it(command: str, expected: str) -> None:
    assert redact_command(command) == expected


@pytest.mark.parametrize(("text", "expected"), BOTH + COMMANDS + PROSE)
def test_prose_takes_it(text: str, expected: str) -> None:
    assert redact_prose(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "snmpwalk -v2c -c public localhost",  # a community is not read: its examples are the defaults
        "steam +login anonymous +quit",
        "echo $KRB_PASS | kinit bob",
        "kinit -kt /etc/krb5.keytab bob@EXAMPLE.COM",
        "pass insert db",
        "diff <(echo a) <(echo b)",
        "curl -U bob:$PROXY_PASS https://example.com",
        "mysqlsh root@localhost:3306",
        "create_user('bob', 'b@example.org', os.environ['PW'])",
        "<password>${DB_PASSWORD}</password>",
        '<property name="password" value="${db.password}"/>',
        "$h = @{ Accept = 'application/json' }",
        "['password' => $request->input('password')]",
        "{user: 'bob', pwd: '/home/bob'}",
        "password: !!str ${DB_PASSWORD}",
        "-Dspring.profiles.active=prod",
        "CREATE LOGIN bob WITH PASSWORD = N'$(pw)'",
    ],
)
def test_what_stays(text: str) -> None:
    assert redact_command(text) == text
    assert redact_prose(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "Sign in with Google / GitHub",
        "Log in with your SSO credentials",
        "Sign in as admin/root with care",
        "Connect with password authentication disabled, password reset emails on.",
        "db2 connect to sample using the default instance",
    ],
)
def test_prose_keeps_its_words(text: str) -> None:
    assert redact_prose(text) == text
