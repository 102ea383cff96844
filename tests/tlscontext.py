"""What a test asks of the TLS context an httpx client was built with."""

from __future__ import annotations

import ssl


def trusts_nothing(verify: object) -> bool:
    """A TLS context that verifies hostnames and certificates against no CA: TLS fails, never unverified."""
    return (isinstance(verify, ssl.SSLContext) and verify.cert_store_stats()["x509_ca"] == 0
            and verify.verify_mode is ssl.CERT_REQUIRED and verify.check_hostname)
