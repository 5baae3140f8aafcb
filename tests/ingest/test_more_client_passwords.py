"""Passwords and tokens more clients take in flags of their own, or by place (``zip -P X``,
``sqlcmd -P X``, ``ldapsearch -w X``, ``smbclient -U user%X``, ``rabbitmqctl add_user bob
X``, ``vault login X``, ``openssl passwd -6 X``, ...):
a flag such as ``-P`` or ``-w`` names no secret, so each kept its password (seen: a probe
of common commands this session). Each is read in its client's simple command only
(`client_passwords`), in commands and prose alike. Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
PW = "Xk9s2mQz7Lp"

CASES = [
    (f"zip -P {PW} out.zip file", f"zip -P {R} out.zip file"),
    (f"unzip -P {PW} file.zip", f"unzip -P {R} file.zip"),
    (f"7z a -p{PW} out.7z dir", f"7z a -p{R} out.7z dir"),
    (f'sqlcmd -S host -U sa -P {PW} -Q "select 1"', f'sqlcmd -S host -U sa -P {R} -Q "select 1"'),
    (f"bcp db.t out f.dat -S h -U sa -P {PW}", f"bcp db.t out f.dat -S h -U sa -P {R}"),
    (f"ldapsearch -x -D cn=admin -w {PW} -b dc=x", f"ldapsearch -x -D cn=admin -w {R} -b dc=x"),
    (f"smbclient //host/share -U admin%{PW}", f"smbclient //host/share -U admin%{R}"),
    (f"smbclient //host/share -U 'CORP\\admin%{PW}'", f"smbclient //host/share -U 'CORP\\admin%{R}'"),
    (f"lftp -u admin,{PW} ftp.example.com", f"lftp -u admin,{R} ftp.example.com"),
    (f"mosquitto_pub -u bob -P {PW} -t x -m hi", f"mosquitto_pub -u bob -P {R} -t x -m hi"),
    (f"twine upload -u bob -p {PW} dist/*", f"twine upload -u bob -p {R} dist/*"),
    (f"dotnet nuget push x.nupkg -k {PW} -s https://api.nuget.org", f"dotnet nuget push x.nupkg -k {R} -s https://api.nuget.org"),
    (f"nuget setapikey {PW}", f"nuget setapikey {R}"),
    (f"ssh-keygen -t ed25519 -N {PW} -f key", f"ssh-keygen -t ed25519 -N {R} -f key"),
    (f"ssh-keygen -p -P {PW} -N {PW}2 -f key", f"ssh-keygen -p -P {R} -N {R} -f key"),
    (f"rabbitmqctl add_user bob {PW}", f"rabbitmqctl add_user bob {R}"),
    (f"rabbitmqctl change_password bob {PW}", f"rabbitmqctl change_password bob {R}"),
    (f"bw unlock {PW}", f"bw unlock {R}"),
    (f"mc alias set s3 https://minio.example.com AKIAEXAMPLE {PW}", f"mc alias set s3 https://minio.example.com AKIAEXAMPLE {R}"),
    (f"vault login {PW}", f"vault login {R}"),
    (f"snyk auth {PW}", f"snyk auth {R}"),
    (f"ngrok config add-authtoken {PW}", f"ngrok config add-authtoken {R}"),
    (f"ngrok authtoken {PW}", f"ngrok authtoken {R}"),
    (f"consul acl set-agent-token agent {PW}", f"consul acl set-agent-token agent {R}"),
    (f"rclone obscure {PW}", f"rclone obscure {R}"),
    (f"ansible-vault encrypt_string {PW} --name db_pw", f"ansible-vault encrypt_string {R} --name db_pw"),
    (f"openssl passwd -6 -salt abc {PW}", f"openssl passwd -6 -salt abc {R}"),
    (f"mkpasswd -m sha-512 {PW}", f"mkpasswd -m sha-512 {R}"),
    (f"mysqladmin -u root password {PW}", f"mysqladmin -u root password {R}"),
    (f"az keyvault secret set --vault-name v --name n --value {PW}", f"az keyvault secret set --vault-name v --name n --value {R}"),
    (f"doctl auth init -t {PW}", f"doctl auth init -t {R}"),
    (f"codecov -t {PW}", f"codecov -t {R}"),
    (f"expo login -u bob -p {PW}", f"expo login -u bob -p {R}"),
    (f"eas login -p {PW}", f"eas login -p {R}"),
    (f"http -a bob:{PW} example.org", f"http -a bob:{R} example.org"),
]


@pytest.mark.parametrize(("command", "expected"), CASES)
def test_a_client_password_goes(command: str, expected: str) -> None:
    assert redact_command(command) == expected


@pytest.mark.parametrize(("command", "expected"), CASES)
def test_prose_takes_it_too(command: str, expected: str) -> None:
    assert redact_prose(command) == expected


@pytest.mark.parametrize(
    "command",
    [
        "gzip -P x file", "zip -r out.zip dir", "7z a -p out.7z dir", "7z x archive.7z", "smbclient //host/share -U admin",
        "ldapsearch -x -W -b dc=x", "lftp -u admin ftp.example.com", "rabbitmqctl set_user_tags bob admin",
        "bw unlock --passwordenv BW_PW", "bw unlock", 'bw unlock "$BW_PASSWORD"', "mc alias set s3 https://x",
        "ssh-keygen -t ed25519 -N '' -f key", 'ssh-keygen -N "$PW" -f key',
        "vault login", "vault login -method=github", "snyk auth", "openssl passwd -6 -stdin", "mysqladmin -u root status",
        "ngrok http 8080", "http GET example.org",
        # The same flags in another program's command mean something else.
        "docker run -P img", "grep -w word file", "ssh -N -L 8080:localhost:80 host", "pip install -k x",
        "curl http://x -a b", "python -m http.server -a 0.0.0.0", "tar -t x.tar",
    ],
)
def test_what_stays(command: str) -> None:
    assert redact_command(command) == command
