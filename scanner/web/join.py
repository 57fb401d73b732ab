"""Joining from another phone: the address phones on the table's network can open, as a link
and a QR code (drawn by segno as an inline SVG: no script, no image file)."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from typing import Any

import segno

LOOPBACK = {"localhost", "127.0.0.1", "::1"}


def network_address() -> str | None:
    """This machine's address on its network (the one its default route leaves by). A UDP
    socket's connect sends nothing; it only chooses the route."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))
        address = probe.getsockname()[0]
        if not ipaddress.ip_address(address).is_loopback:
            return address
    return None


def join_links(request: Any) -> dict:
    """The address to give other phones and its QR code. ``local``: the page was opened on
    this machine itself, so the address shown is the machine's network address, which phones
    reach only when ``handfoot serve`` listens on the network (``--host 0.0.0.0``)."""
    host = request.url.hostname or "localhost"
    port = request.url.port
    local = host in LOOPBACK or host.startswith("127.")
    if local:
        host = network_address() or host
    shown = f"[{host}]" if ":" in host else host
    default = {"http": 80, "https": 443}.get(request.url.scheme)
    url = f"{request.url.scheme}://{shown}{'' if port in (None, default) else f':{port}'}/"
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=6, border=2, dark="#000", light="#fff", omitsize=True)
    return {"url": url, "local": local, "svg": svg}
