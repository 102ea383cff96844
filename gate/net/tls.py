"""What an httpx client takes from TLS and the environment: whether a client that only ever talks to
one URL needs the CA bundle (loading it is a noticeable part of a short process's start: see
benchmarks/README.md, and a plain-http URL reached without a proxy never uses it), and a clear
error when the environment's CA bundle or proxy cannot be used."""

from __future__ import annotations

import os
import ssl
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from gate.errors import GateError
from gate.redaction.secrets import redact


def verification_for(url: str) -> ssl.SSLContext | bool:
    """httpx's ``verify`` for a client bound to ``url``: the default (the CA bundle) unless every byte
    goes as plain http — an http URL and no proxy (an https proxy would need the bundle) — then a
    context that trusts nothing, so that any TLS through it fails closed, never unverified."""
    if httpx.URL(url).scheme == "http" and not urllib.request.getproxies():
        return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # verifies hostnames and certificates, trusts none
    return True


@contextmanager
def built_from_environment() -> Iterator[None]:
    """Around building an httpx client: a CA bundle (``SSL_CERT_FILE``, ``SSL_CERT_DIR``) that is
    missing or not PEM, or a proxy variable httpx cannot use (a bad address, SOCKS without
    ``httpx[socks]``), is a GateError naming the variables instead of a traceback."""
    try:
        yield
    except (OSError, ValueError, ImportError, httpx.InvalidURL) as exc:
        problem = _unusable_environment(exc)
        if problem is None:
            raise
        raise problem from None


_CA_VARIABLES = ("SSL_CERT_FILE", "SSL_CERT_DIR")


def _unusable_environment(exc: Exception) -> GateError | None:
    """The GateError for a client the environment's settings cannot build, or None when they are not
    the cause (a bug). A proxy's credentials never appear in the message."""
    detail = str(exc) or type(exc).__name__
    if isinstance(exc, OSError):  # ssl.SSLError too: a bundle that is missing, a directory, or not PEM
        named = ", ".join(f"{name}={os.environ[name]}" for name in _CA_VARIABLES if os.environ.get(name))
        return GateError(f"the CA certificates could not be loaded ({named or 'the default bundle'}): {detail}")
    proxies = {name: value for name, value in os.environ.items()
               if name.lower().endswith("_proxy") and name.lower() != "no_proxy" and value}
    if not proxies:
        return None
    # "http://user:secret@proxy:3128": what is before the address's last "@" is a credential
    credentials = {name: userinfo for name, value in proxies.items()
                   if (userinfo := value.split("://", 1)[-1].rpartition("@")[0])}
    passwords = {f"{name} password": userinfo.partition(":")[2] for name, userinfo in credentials.items()}
    message = f"the proxy settings in the environment ({', '.join(sorted(proxies))}) cannot be used: {detail}"
    return GateError(redact(message, {**credentials, **passwords}))
