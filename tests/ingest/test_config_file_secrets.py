"""Secrets that config files and client calls hold in forms the ingest rules did not read:
a call's bare ``key="..."`` argument (``wandb.login(key="<40 hex>")``), a .NET
setting (``<add key="ApiKey" value="X" />``, either order, or ``<setting
name="ApiKey"><value>X</value>``), and in a hook's command a Spring key's dotted name
(``spring.mail.password: X``, ``{"spring.mail.password": "X"}``). Prose kept the first
two, a command the last two (and took the setting's name, ``key="[redacted]"``, for its value). The other
forms of the family (a connection string's ``Password=X;``, ``appsettings.json``'s
``"ConnectionStrings"``, ``spring.datasource.password=X``, docker-compose's
``POSTGRES_PASSWORD: X``, a Kubernetes Secret's ``stringData:``) were redacted already
and are pinned here with them. ``key`` alone is ambiguous (``key='result'``,
``dict(key="name")``; Figma's ``fileKey`` and Comet's ``experiment_key`` are IDs the
skills of ``../shared/data`` write): those stay. Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.key_arguments import strong_literal
from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command

R = REDACTED
#: An invented secret, shaped as a literal one (letters and digits, 24 characters).
V = "Jq4Tz8Wm2Rb6Xn9Kc3Vh7Lp5"
#: An invented 40-digit hexadecimal key, as W&B's are written.
HEX = "a7c3e9f1b5d2048c6e1a9f3b7d5c2e8f0a4b6c1d"

#: Forms that kept their secret before, each as prose keeps it now.
PROSE_LEAKS = [
    (f'wandb.login(key="{HEX}")', f'wandb.login(key="{R}")'),
    (f"wandb.login(relogin=True, key='{HEX}')", f"wandb.login(relogin=True, key='{R}')"),
    (f'client = Client(\n    key="{V}",\n)', f'client = Client(\n    key="{R}",\n)'),
    (f'<add key="ApiKey" value="{V}" />', f'<add key="ApiKey" value="{R}" />'),
    (f"<add key='Stripe:SecretKey' value='{V}'/>", f"<add key='Stripe:SecretKey' value='{R}'/>"),
    ('<add key="DbPassword" value="correct horse battery staple" />', f'<add key="DbPassword" value="{R}" />'),
    (f'<add value="{V}" key="ApiKey" />', f'<add value="{R}" key="ApiKey" />'),
    # a secret in braces (`braced_values`); a template's slot in braces stays (PROSE_KEPT)
    ('<add key="ApiKey" value="{Xk9;2mQz7Lp}" />', f'<add key="ApiKey" value="{R}" />'),
    (
        f'<setting name="ApiKey" serializeAs="String">\n  <value>{V}</value>\n</setting>',
        f'<setting name="ApiKey" serializeAs="String">\n  <value>{R}</value>\n</setting>',
    ),
]
#: Forms that kept their secret before, each as a hook's command keeps it now.
COMMAND_LEAKS = [
    (f'cat > web.config <<EOF\n<add key="ApiKey" value="{V}" />\nEOF', f'cat > web.config <<EOF\n<add key="ApiKey" value="{R}" />\nEOF'),
    (f"echo 'spring.mail.password: {V}' >> application.yml", f"echo 'spring.mail.password: {R}' >> application.yml"),
    (f"printf 'spring.datasource.password: {V}\\n' > app.yml", f"printf 'spring.datasource.password: {R}\\n' > app.yml"),
    (f"echo '{{\"spring.mail.password\": \"{V}\"}}' > app.json", f"echo '{{\"spring.mail.password\": \"{R}\"}}' > app.json"),
    (f'<add value="{V}" key="ApiKey" />', f'<add value="{R}" key="ApiKey" />'),
    (
        f'<setting name="ClientSecret" serializeAs="String"><value>{V}</value></setting>',
        f'<setting name="ClientSecret" serializeAs="String"><value>{R}</value></setting>',
    ),
]
#: The rest of the family, redacted before as now, by prose and by a command alike.
FAMILY = [
    (f"Server=db;Database=app;User Id=sa;Password={V};", f"Server=db;Database=app;User Id=sa;Password={R};"),
    (
        f'<add name="Db" connectionString="Server=db;User Id=sa;Password={V};" />',
        f'<add name="Db" connectionString="Server=db;User Id=sa;Password={R};" />',
    ),
    (
        f'"ConnectionStrings": {{"Db": "Host=db;Username=app;Password={V}"}}',
        f'"ConnectionStrings": {{"Db": "Host=db;Username=app;Password={R}"}}',
    ),
    (f"spring.datasource.password={V}", f"spring.datasource.password={R}"),
    (f"services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: {V}\n", f"services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: {R}\n"),
    (f"    environment:\n      - POSTGRES_PASSWORD={V}\n", f"    environment:\n      - POSTGRES_PASSWORD={R}\n"),
    (
        f"kind: Secret\ntype: Opaque\nstringData:\n  username: admin\n  password: {V}\n  api-key: \"{V}\"\n",
        f"kind: Secret\ntype: Opaque\nstringData:\n  username: admin\n  password: {R}\n  api-key: \"{R}\"\n",
    ),
]
#: Text without a secret: kept as written by prose.
PROSE_KEPT = [
    "cirq.measure(q0, q1, key='result')",
    'dict(key="name")',
    'ExactMatchFilter(key="category", value="tutorial")',
    'ln.Artifact.get(key="datasets/train.parquet")',
    'ln.Artifact("model.pkl", key="models/exp-42.pkl")',
    'set_tag(name="clf", key="user_profile_v2_settings_2024")',
    'get_metadata(fileKey="Hd3Kx9Qw2Zm7Vb4Np8Rt6Y", nodeId="10-5")',
    '"experiment_key": "5e2b9d4f7a1c8e3b6d0f9a2c4e7b1d3",',
    'wandb.login(key="your-wandb-api-key")',
    'wandb.login(key="<token>")',
    'wandb.login(key="xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")',
    'wandb.login(key="${WANDB_API_KEY}")',
    "max(results, key=results.get)",
    f'{{"key": "{HEX}"}}',  # a record's key, no call
    '<add key="ApiKey" value="your-api-key" />',
    '<add key="ApiKey" value="changeme" />',
    '<add key="DbPassword" value="${DB_PASSWORD}" />',
    '<add key="ApiKey" value="{ApiKey}" />',
    f'<add key="PageSize" value="{V}" />',
    "spring.datasource.password=changeme",
    "spring.mail.password: ${MAIL_PASSWORD}",
    "POSTGRES_PASSWORD: postgres",
]
#: Commands without a secret: kept as written.
COMMAND_KEPT = [
    '<add key="ApiKey" value="your-api-key" />',
    '<add key="ApiKey" value="${API_KEY}" />',
    f'<add key="PageSize" value="{V}" />',
    "echo 'spring.mail.password: ${MAIL_PASSWORD}' >> application.yml",
    "echo 'spring.mail.password: <password>' >> application.yml",
    '{"auth.enabled": "true", "sort.key": "name"}',
    f'<setting name="PageSize" serializeAs="String"><value>{V}</value></setting>',
    '<setting name="ApiKey" serializeAs="String"><value>your-api-key</value></setting>',
]


@pytest.mark.parametrize(("text", "kept"), PROSE_LEAKS)
def test_prose_redacts_key_arguments_and_app_settings(text: str, kept: str) -> None:
    assert redact_prose(text) == kept


@pytest.mark.parametrize(("command", "kept"), COMMAND_LEAKS)
def test_command_redacts_app_settings_and_dotted_yaml_keys(command: str, kept: str) -> None:
    assert redact_command(command) == kept


def test_command_keeps_an_app_settings_key_and_redacts_its_value() -> None:
    """The command rule read ``key="ApiKey"`` as the secret pair and kept the value."""
    assert redact_command(f'<add key="ApiKey" value="{V}"/>') == f'<add key="ApiKey" value="{R}"/>'


def test_mcp_argument_with_an_app_setting_is_redacted() -> None:
    args = ["--config-xml", f'<appSettings> <add key="ApiKey" value="{V}" /> </appSettings>']
    assert redact_args(args)[1] == f'<appSettings> <add key="ApiKey" value="{R}" /> </appSettings>'


@pytest.mark.parametrize(("text", "kept"), FAMILY)
def test_config_family_is_redacted_in_prose_and_commands(text: str, kept: str) -> None:
    assert redact_prose(text) == kept
    assert redact_command(text) == kept


@pytest.mark.parametrize("text", PROSE_KEPT)
def test_prose_keeps_ids_names_and_placeholders(text: str) -> None:
    assert redact_prose(text) == text


@pytest.mark.parametrize("command", COMMAND_KEPT)
def test_command_keeps_placeholders_and_other_settings(command: str) -> None:
    assert redact_command(command) == command


@pytest.mark.parametrize(
    ("value", "strong"),
    [(HEX, True), (V, True), ("model_v2_final_checkpoint", False), ("abcdefghijklmnop0123456789", False), ("result", False)],
)
def test_strong_literal_needs_letters_and_digits_interleaved(value: str, strong: bool) -> None:
    assert strong_literal(value) is strong


def test_prose_with_a_redacted_key_argument_is_stable() -> None:
    """Applying the rules twice changes nothing more (`redact_prose`'s promise)."""
    once = redact_prose(f'wandb.login(key="{HEX}")\n<add key="ApiKey" value="{V}" />')
    assert redact_prose(once) == once
