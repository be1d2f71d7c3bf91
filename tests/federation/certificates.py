"""A certificate authority and a certificate for 127.0.0.1 it signed, made at test time with the
``openssl`` binary (a test needing them is skipped where it is not installed)."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

SERVER_EXTENSIONS = """basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1
"""


@dataclass(frozen=True)
class Certificates:
    """The authority's certificate (what an operator trusts), and the server's own."""

    authority: Path
    certificate: Path
    key: Path

    @property
    def tls(self) -> tuple[str, str]:
        """The server's certificate and key files, as ``json_api.serving`` takes them."""
        return str(self.certificate), str(self.key)


def _openssl(*arguments: str) -> None:
    subprocess.run(["openssl", *arguments], check=True, capture_output=True, timeout=60)


def make_certificates(folder: Path) -> Certificates:
    """A fresh authority (EC P-256, one day) and a server certificate for IP 127.0.0.1."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl binary is not installed: no certificate to test https with")
    ca_key, ca = folder / "ca.key", folder / "ca.pem"
    key, request, certificate = folder / "server.key", folder / "server.csr", folder / "server.pem"
    extensions = folder / "server.ext"
    extensions.write_text(SERVER_EXTENSIONS)
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-keyout", str(ca_key), "-out", str(ca), "-days", "1",
             "-subj", "/CN=arest test authority",
             "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    _openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-keyout", str(key), "-out", str(request), "-subj", "/CN=127.0.0.1")
    _openssl("x509", "-req", "-in", str(request), "-CA", str(ca), "-CAkey", str(ca_key),
             "-CAcreateserial", "-out", str(certificate), "-days", "1",
             "-extfile", str(extensions))
    return Certificates(ca, certificate, key)
