"""Passwords SQL and code pass where no name before them says so (``CREATE USER bob WITH
PASSWORD 'X'``, ``IDENTIFIED BY 'X'``, ``smtp.login(user, 'X')``, ``new PDO($dsn, 'bob',
'X')``, ``page.fill('#password', 'X')``): each kept its password in prose and hook commands (seen: a probe of prose shapes
this session; in the data, three Playwright skills' ``page.fill(... 'password123')``).
Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
PW = "Xk9s2mQz7Lp"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"CREATE USER bob WITH PASSWORD '{PW}';", f"CREATE USER bob WITH PASSWORD '{R}';"),
        (f"ALTER ROLE bob WITH LOGIN PASSWORD '{PW}';", f"ALTER ROLE bob WITH LOGIN PASSWORD '{R}';"),
        (f"CREATE USER 'bob'@'%' IDENTIFIED BY '{PW}';", f"CREATE USER 'bob'@'%' IDENTIFIED BY '{R}';"),
        (
            f"CREATE USER 'bob'@'%' IDENTIFIED WITH mysql_native_password BY '{PW}';",
            f"CREATE USER 'bob'@'%' IDENTIFIED WITH mysql_native_password BY '{R}';",
        ),
        (f"SET PASSWORD FOR 'bob'@'localhost' = PASSWORD('{PW}');", f"SET PASSWORD FOR 'bob'@'localhost' = PASSWORD('{R}');"),
        (f"smtp.login('bob@x.com', '{PW}')", f"smtp.login('bob@x.com', '{R}')"),
        (f"imaplib.IMAP4_SSL('x').login(user, '{PW}')", f"imaplib.IMAP4_SSL('x').login(user, '{R}')"),
        (f'client.login(\n    "bob",\n    "{PW}",\n)', f'client.login(\n    "bob",\n    "{R}",\n)'),
        (f"await page.fill('#password', '{PW}');", f"await page.fill('#password', '{R}');"),
        (f"await page.type('input[name=\"password\"]', '{PW}')", f"await page.type('input[name=\"password\"]', '{R}')"),
        (f"page.getByLabel('Password').fill('{PW}')", f"page.getByLabel('Password').fill('{R}')"),
        (f"driver.find_element(By.ID, 'password').send_keys('{PW}')", f"driver.find_element(By.ID, 'password').send_keys('{R}')"),
        (f"$conn = new PDO($dsn, 'bob', '{PW}');", f"$conn = new PDO($dsn, 'bob', '{R}');"),
        (f"mysqli_connect('db', 'bob', '{PW}', 'shop');", f"mysqli_connect('db', 'bob', '{R}', 'shop');"),
        (f'DriverManager.getConnection(url, "bob", "{PW}")', f'DriverManager.getConnection(url, "bob", "{R}")'),
        (f"conn.simple_bind_s('cn=admin,dc=x', '{PW}')", f"conn.simple_bind_s('cn=admin,dc=x', '{R}')"),
        (f"ldap_bind($conn, 'cn=admin,dc=x', '{PW}')", f"ldap_bind($conn, 'cn=admin,dc=x', '{R}')"),
        (f"keyring.set_password('svc', 'bob', '{PW}')", f"keyring.set_password('svc', 'bob', '{R}')"),
        (f'psql -c "ALTER USER postgres PASSWORD \'{PW}\'"', f'psql -c "ALTER USER postgres PASSWORD \'{R}\'"'),
        (f"mysql -e \"CREATE USER 'bob'@'%' IDENTIFIED BY '{PW}'\"", f"mysql -e \"CREATE USER 'bob'@'%' IDENTIFIED BY '{R}'\""),
    ],
)
def test_the_password_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_command(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "ALTER USER bob PASSWORD 'your_password';", "CREATE USER bob WITH PASSWORD '<password>';", "IDENTIFIED BY $PW",
        "ALTER USER bob PASSWORD NULL;", "smtp.login(user, password)", "smtp.login(os.environ['U'], os.environ['P'])",
        "page.fill('#email', 'bob@example.com')", "page.fill('#password', process.env.PASSWORD)",
        "The password 'must' be strong", "enter your password (see below)", "reset password (admin only)",
        "new PDO($dsn, $user, $pass);", "mysqli_connect('db', 'bob', getenv('DB_PASS'))",
        "keyring.set_password('svc', 'bob', password)", "$('#x').bind('click', 'handler1234x')",
        "socket.bind(('0.0.0.0', 8080))",
    ],
)
def test_what_stays(text: str) -> None:
    assert redact_prose(text) == text
    assert redact_command(text) == text
