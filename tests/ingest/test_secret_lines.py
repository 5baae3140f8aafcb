"""`secret_lines`: which lines of a file the ingest secret rules change, and by which
rule; the same rules `redact_prose` applies (one list: `PROSE_RULES`)."""

from __future__ import annotations

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secret_lines import SecretLine, secret_lines

KEY = "sk-ant-api03-" + "Q7vX2mLp9RtYbN4kWz8HcJ5dFg3SaE6uIo1PqZx0" + "-AbCdEf_gH12"
BODY = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0"
PEM = f"-----BEGIN RSA PRIVATE KEY-----\n{BODY}\n{BODY}\n-----END RSA PRIVATE KEY-----"


def test_each_line_a_rule_changes_with_the_rules_kind() -> None:
    text = "\n".join(["# notes", PEM, f"client = Anthropic(api_key='{KEY}')", "export DB_PASSWORD=hunter2xyz9", "done"])
    assert redact_prose(text) != text  # the index keeps it redacted
    got = secret_lines(text)
    # the PEM block (lines 2-5) becomes one line; the lines after it keep their own numbers
    assert got == (
        *(SecretLine(n, "a private key (PEM block)") for n in range(2, 6)),
        SecretLine(6, "a token of a well-known format"),
        SecretLine(7, "a credential in a header or a secret-looking assignment"),
    )
    assert not any(KEY in s.kind or "hunter2" in s.kind for s in got)


def test_text_the_index_keeps_as_written_has_none() -> None:
    text = "export API_KEY=$API_KEY\nkey = os.environ['ANTHROPIC_API_KEY']\nghp_xxxxxxxxxxxxxxxxxxxxxxxx\n"
    assert redact_prose(text) == text
    assert secret_lines(text) == ()
