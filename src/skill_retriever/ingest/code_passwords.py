"""Passwords code and SQL pass where no name before them says so: `redact_code_passwords`.

- SQL sets a user's password after a keyword, not a name and ``=``: ``CREATE USER bob
  WITH PASSWORD 'X'``, ``ALTER ROLE bob PASSWORD 'X'``, ``IDENTIFIED BY 'X'`` (``IDENTIFIED
  WITH mysql_native_password BY 'X'``), ``SET PASSWORD = PASSWORD('X')``, ``SET PASSWORD FOR
  'bob'@'%' = 'X'``.
- A call takes it by place (`_CALLS`): a login's second argument (``smtp.login('bob@x.com',
  'X')``, ``ftp.login('bob', 'X')``, ``IMAP4_SSL(host).login(user, 'X')``), an LDAP bind's,
  a database connection's (``new PDO($dsn, 'bob', 'X')``, ``mysqli_connect('db', 'bob',
  'X')``, ``DriverManager.getConnection(url, "bob", "X")``) and a keyring's; .NET's
  ``NetworkCredential("bob", "X")``, Go's ``smtp.PlainAuth("", user, "X", host)``, basic
  auth's (``req.SetBasicAuth("bob", "X")``, Rust's ``basic_auth("bob", Some("X"))``), a JWT's
  signing secret (``jwt.sign(payload, "X")``), an HMAC's or Fernet's key (``hmac.new(b"X",
  ...)``), and a setter or builder named for it (``ds.setPassword("X")``, ``.pass(Some("X"))``).
- PHP curl's ``CURLOPT_PASSWORD``, an LDAP bind with its DN (``client.bind('cn=root', 'X')``),
  ``"Basic " + btoa("bob:X")``, an HTML password field's ``value``, a literal Ansible hashes
  (``"{{ 'X' | password_hash('sha512') }}"``), and an expect script's answer to a password
  prompt (``expect "password:"`` then ``send "X\\r"``).
- A browser test types it into a password field: Playwright's ``page.fill('#password',
  'X')`` (``type``, ``press_sequentially``; ``locator('#password').fill('X')``), Selenium's
  ``find_element(By.ID, 'password').send_keys('X')``.

Each kept its password, in prose and in hook commands (``psql -c "ALTER USER postgres
PASSWORD 'X'"``). Only a quoted string is read as the password (``login(user, password)``
passes a variable); prose (`prose_secrets`) and the command rule (`secrets.redact_command`)
both redact it only when it reads as a literal secret: ``password 'X'`` may be a
sentence's. Bounded and possessive: linear on any text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from skill_retriever.ingest.auth_tuples import CALL_GAP, CODE_STRING
from skill_retriever.ingest.insert_values import redact_insert_values

__all__ = ["redact_code_passwords"]

# A quoted string of code or SQL and the space between a call's arguments are read as
# basic auth's pair reads them (`auth_tuples.CODE_STRING`, `CALL_GAP`).
#: A call's argument before the password: a string or a name (``user``, ``self.user``,
#: ``os.environ["U"]``, PHP's ``$dsn``) or a flat object (a JWT's payload, ``{ id: user.id }``).
_FIRST = r"(?:" + CODE_STRING + r"|\$?+[A-Za-z_][\w.]{0,128}+(?:\[" + CODE_STRING + r"\])?+|\{[^{}\n]{0,256}+\})"
#: Calls that take a password by place, each with how many arguments come before it: a
#: login's user (``smtp.login(user, 'X')``), an LDAP bind's DN (python-ldap's
#: ``simple_bind_s(dn, 'X')``, not jQuery's ``bind(event, handler)``;
#: PHP's ``ldap_bind($conn, $dn, 'X')``), a database connection's host or URL and user (PHP's
#: ``new PDO($dsn, 'bob', 'X')``, ``mysqli_connect('db', 'bob', 'X')``, JDBC's
#: ``DriverManager.getConnection(url, "bob", "X")``) and a keyring's service and user
#: (``keyring.set_password('svc', 'bob', 'X')``) and a Django user's username and email.
#: Each with the words (lower case) a text must hold for it to be looked for (`_RULES`).
_CALLS = (
    (r"(?<![\w$-])login", 1, ("login",)),
    (r"(?<![\w$-])(?:simple_bind(?:_s)?+|bind_s)", 1, ("bind",)),
    (r"(?<![\w$-])ldap_bind", 2, ("ldap_bind",)),
    (r"(?<![\w$-])new[ \t]++PDO|(?<![\w$-])mysqli_connect|(?<![\w$-])new[ \t]++mysqli|DriverManager\.getConnection", 2,
     ("pdo", "mysqli", "getconnection")),
    (r"keyring\.set_password", 2, ("keyring",)),
    # Django's user managers: ``create_user('bob', 'b@x.org', 'X')``, ``create_superuser``.
    (r"(?<![\w$-])create_(?:super)?+user", 2, ("create_user", "create_superuser")),
    # .NET's credential, Go's SMTP auth, HTTP clients' basic auth (Rust's ``basic_auth(user,
    # Some("X"))``), a JWT's signing secret, an HMAC's or Fernet's key.
    (r"(?<![\w$-])NetworkCredential|(?<![\w$-])(?:Set|set|With)BasicAuth|\.basic_auth", 1,
     ("networkcredential", "basicauth", "basic_auth")),
    (r"(?<![\w$-])PlainAuth", 2, ("plainauth",)),
    (r"(?<![\w$-])jwt\.(?:sign|encode)", 1, ("jwt.",)),
    (r"(?<![\w$-])hmac\.new|(?<![\w$-])Fernet", 0, ("hmac.new", "fernet")),
    # A setter or builder named for the secret: ``ds.setPassword("X")``, ``.pass(Some("X"))``.
    (r"\.(?:set_?+|Set)?+(?i:password|passwd|pass|api_?key|secret|client_?secret|token|access_?token)", 0,
     ("pass", "key(", "secret(", "token(")),
)


def _call(name: str, before: int) -> str:
    """A call's name, its parenthesis and the ``before`` arguments ahead of the password."""
    return (
        "(?:" + name + r")[ \t]*+\(" + (CALL_GAP + _FIRST + CALL_GAP + "," + CALL_GAP) * before
        + CALL_GAP + r"(?:Some\(" + CALL_GAP + r")?+(?:[bB](?=[\"']))?+"  # Rust's ``Some("X")``, Python's ``b"X"``
    )


#: PHP curl's password options: ``curl_setopt($ch, CURLOPT_PASSWORD, "X")`` (``CURLOPT_USERPWD``
#: takes ``user:X``, which goes whole).
_CURL_OPTION = (
    r"(?<![\w$-])curl_setopt[ \t]*+\(" + CALL_GAP + r"\$\w{1,64}+" + CALL_GAP + "," + CALL_GAP
    + r"CURLOPT_(?:USERPWD|PASSWORD|PROXYPASSWORD|PROXYUSERPWD|KEYPASSWD|XOAUTH2_BEARER)" + CALL_GAP + "," + CALL_GAP
)
#: An LDAP client's bind with a DN before the password (ldapjs' ``client.bind('cn=root,dc=x',
#: 'X', cb)``; a bare ``bind`` is jQuery's too, so the DN must show), and basic auth's
#: ``user:X`` encoded after ``"Basic " +`` (``btoa("bob:X")``, ``Buffer.from("bob:X")``).
_DN_BIND = r"""\.bind[ \t]*+\(""" + CALL_GAP + r"""(["'])(?i:cn|uid|ou|dc)=[^"'\n]{0,256}+\1""" + CALL_GAP + "," + CALL_GAP
#: An HTML password field's value (``<input type="password" name="pw" value="X">``).
_PASSWORD_INPUT = (
    r"""<input\b(?=[^<>]{0,512}?\btype=["']?+password\b)[^<>]{0,512}?\bvalue=(?=["'])"""
)
#: A password Ansible hashes in a template (``"{{ 'X' | password_hash('sha512') }}"``).
_HASHED_IN_TEMPLATE = r"""\{\{[ \t]*+(?=""" + CODE_STRING + r"""[ \t]*+\|[ \t]*+password_hash\b)"""
_BASIC_ENCODED = (
    r"""(?i:basic)[ \t]++["'`][ \t]*+\+[ \t]*+(?:btoa|Buffer\.from|base64\.b64encode|Base64\.encode64)\("""
    + CALL_GAP + r"(?:[bB](?=[\"']))?+"
)
#: A selector or locator that names a password field (``#password``, ``input[name=pwd]``).
_PASSWORD_FIELD = r"""(?:"[^"\n]{0,128}?(?i:passw|pwd|passcode)[^"\n]{0,128}+"|'[^'\n]{0,128}?(?i:passw|pwd|passcode)[^'\n]{0,128}+')"""
#: An expect script's prompt for a password (Tcl's ``expect "*assword:"``, pexpect's
#: ``child.expect('Password:')``) and what it sends next, on its line or the two after it
#: (``send "X\\r"``, ``child.sendline('X')``), or in the prompt's own block (``expect {
#: "*assword:" { send -- "X\\r" } }``).
_PROMPT = r"""(?:"[^"\n]{0,128}?(?i:assword|passphrase|passcode)[^"\n]{0,128}+"|'[^'\n]{0,128}?(?i:assword|passphrase|passcode)[^'\n]{0,128}+')"""
_SEND = r"(?<![\w$-])send(?:line)?+(?:[ \t]++--)?+[ \t]*+\(?+[ \t]*+"
_EXPECT_SEND = (
    r"(?:(?<![\w$-])expect(?:[ \t]++-[\w-]++)*+[ \t]*+\(?+[ \t]*+" + _PROMPT
    + r"[^\n]{0,128}?(?:\n[^\n]{0,128}?){0,2}?|" + _PROMPT + r"[ \t]*+\{[ \t]*+)" + _SEND
)
#: SQL's keyword forms: ``PASSWORD 'X'``, ``IDENTIFIED [WITH plugin] BY 'X'``,
#: ``PASSWORD('X')``, ``SET PASSWORD [FOR user] = 'X'``, SQL Server's ``CREATE LOGIN bob WITH
#: PASSWORD = 'X'``.
_SQL = (
    r"(?<![\w.$-])(?i:password)[ \t]++(?!\w)"
    r"|(?<![\w.$-])(?i:identified)(?:[ \t]++(?i:with)[ \t]++\w{1,64}+)?+[ \t]++(?i:by)[ \t]++(?:(?i:password)[ \t]*+\([ \t]*+)?+"
    r"|(?<![\w.$-])(?i:password)\([ \t]*+"
    r"|(?<![\w.$-])(?i:set)[ \t]++(?i:password)(?:[ \t]++(?i:for)[ \t]++[^\s=]{1,128}+)?+[ \t]*+=[ \t]*+"
    r"|(?<![\w.$-])(?i:with)[ \t]++(?i:password)[ \t]*+=[ \t]*+"
)
#: A browser test's password field filled (Playwright's ``fill('#password', 'X')``, a
#: locator's or Selenium's ``...('password')).send_keys('X')``).
_FIELD = (
    r"\.(?:fill|type|press_sequentially|pressSequentially)\(" + CALL_GAP + _PASSWORD_FIELD + CALL_GAP + "," + CALL_GAP
    + r"|" + _PASSWORD_FIELD + r"[ \t]*+\)\.(?:send_keys|fill|type|press_sequentially|pressSequentially)\([ \t]*+"
)
#: The forms before the password's string (``val``), each with the words (lower case) a
#: text must hold for it to be looked for: the regular expression engine tries every
#: alternative at every position, and one pattern of them all took seven times as long over
#: the skills data's Markdown as these do, each run only on a text that may hold it
#: (`bench.secret_rule_times`: 13.7 s against 1.8 s).
_FORMS = (
    (_SQL, ("password", "identified")),
    *((_call(name, before), hints) for name, before, hints in _CALLS),
    (_CURL_OPTION, ("curlopt_",)),
    (_DN_BIND, (".bind",)),
    (_BASIC_ENCODED, ("basic",)),
    (_PASSWORD_INPUT, ("<input",)),
    (_HASHED_IN_TEMPLATE, ("password_hash",)),
    (_FIELD, ("passw", "pwd", "passcode")),
    (_EXPECT_SEND, ("assword", "passphrase", "passcode")),
)
_RULES = tuple(
    (re.compile(r"(?:" + form + r")(?P<val>" + CODE_STRING + r""")(?=""" + CALL_GAP + r"""[)\],;"'`>/]|\s|$)"""), hints)
    for form, hints in _FORMS
)


def redact_code_passwords(text: str, masked: Callable[[re.Match[str]], str]) -> str:
    """``text`` with each password code or SQL passes (see the module) passed through
    ``masked`` (a match whose ``val`` group is the password's quoted string)."""
    low = text.lower()
    for rule, hints in _RULES:
        if any(hint in low for hint in hints):
            text = rule.sub(masked, text)
    return redact_insert_values(text, masked)  # ``INSERT ... (name, password) VALUES ('bob', 'X')``
