"""Passwords code and SQL pass where no name before them says so: `CODE_PASSWORD_RE`.

- SQL sets a user's password after a keyword, not a name and ``=``: ``CREATE USER bob
  WITH PASSWORD 'X'``, ``ALTER ROLE bob PASSWORD 'X'``, ``IDENTIFIED BY 'X'`` (``IDENTIFIED
  WITH mysql_native_password BY 'X'``), ``SET PASSWORD = PASSWORD('X')``, ``SET PASSWORD FOR
  'bob'@'%' = 'X'``.
- A call takes it by place (`_CALLS`): a login's second argument (``smtp.login('bob@x.com',
  'X')``, ``ftp.login('bob', 'X')``, ``IMAP4_SSL(host).login(user, 'X')``), an LDAP bind's,
  a database connection's (``new PDO($dsn, 'bob', 'X')``, ``mysqli_connect('db', 'bob',
  'X')``, ``DriverManager.getConnection(url, "bob", "X")``) and a keyring's.
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

from skill_retriever.ingest.auth_tuples import CALL_GAP, CODE_STRING

__all__ = ["CODE_PASSWORD_RE"]

# A quoted string of code or SQL and the space between a call's arguments are read as
# basic auth's pair reads them (`auth_tuples.CODE_STRING`, `CALL_GAP`).
#: A call's argument before the password: a string or a name (``user``, ``self.user``,
#: ``os.environ["U"]``, PHP's ``$dsn``).
_FIRST = r"(?:" + CODE_STRING + r"|\$?+[A-Za-z_][\w.]{0,128}+(?:\[" + CODE_STRING + r"\])?+)"
#: Calls that take a password by place, each with how many arguments come before it: a
#: login's user (``smtp.login(user, 'X')``), an LDAP bind's DN (python-ldap's
#: ``simple_bind_s(dn, 'X')``, not jQuery's ``bind(event, handler)``;
#: PHP's ``ldap_bind($conn, $dn, 'X')``), a database connection's host or URL and user (PHP's
#: ``new PDO($dsn, 'bob', 'X')``, ``mysqli_connect('db', 'bob', 'X')``, JDBC's
#: ``DriverManager.getConnection(url, "bob", "X")``) and a keyring's service and user
#: (``keyring.set_password('svc', 'bob', 'X')``).
_CALLS = (
    (r"(?<![\w$-])login", 1),
    (r"(?<![\w$-])(?:simple_bind(?:_s)?+|bind_s)", 1),
    (r"(?<![\w$-])ldap_bind", 2),
    (r"(?<![\w$-])new[ \t]++PDO|(?<![\w$-])mysqli_connect|(?<![\w$-])new[ \t]++mysqli|DriverManager\.getConnection", 2),
    (r"keyring\.set_password", 2),
)
_BEFORE_PASSWORD = "|".join(
    "(?:" + name + r")[ \t]*+\(" + (CALL_GAP + _FIRST + CALL_GAP + "," + CALL_GAP) * before for name, before in _CALLS
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
CODE_PASSWORD_RE = re.compile(
    r"(?:(?<![\w.$-])(?i:password)[ \t]++(?!\w)"
    r"|(?<![\w.$-])(?i:identified)(?:[ \t]++(?i:with)[ \t]++\w{1,64}+)?+[ \t]++(?i:by)[ \t]++(?:(?i:password)[ \t]*+\([ \t]*+)?+"
    r"|(?<![\w.$-])(?i:password)\([ \t]*+"
    r"|(?<![\w.$-])(?i:set)[ \t]++(?i:password)(?:[ \t]++(?i:for)[ \t]++[^\s=]{1,128}+)?+[ \t]*+=[ \t]*+"
    r"|" + _BEFORE_PASSWORD
    + r"|\.(?:fill|type|press_sequentially|pressSequentially)\(" + CALL_GAP + _PASSWORD_FIELD + CALL_GAP + "," + CALL_GAP
    + r"|" + _PASSWORD_FIELD + r"[ \t]*+\)\.(?:send_keys|fill|type|press_sequentially|pressSequentially)\([ \t]*+"
    + r"|" + _EXPECT_SEND
    + r")(?P<val>" + CODE_STRING + r""")(?=""" + CALL_GAP + r"""[)\],;"'`]|\s|$)"""
)
