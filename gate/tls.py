"""Whether a client that only ever talks to one URL needs the CA bundle: loading it costs ~50–100 ms a
client, and a plain-http URL reached without a proxy never uses it."""

from __future__ import annotations

import ssl
import urllib.request

import httpx


def verification_for(url: str) -> ssl.SSLContext | bool:
    """httpx's ``verify`` for a client bound to ``url``: the default (the CA bundle) unless every byte
    goes as plain http — an http URL and no proxy (an https proxy would need the bundle) — then a
    context that trusts nothing, so that any TLS through it fails closed, never unverified."""
    if httpx.URL(url).scheme == "http" and not urllib.request.getproxies():
        return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # verifies hostnames and certificates, trusts none
    return True
