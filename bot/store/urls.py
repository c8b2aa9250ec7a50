"""Database URLs as people write them: the password hidden for messages (``redact``) or left out of a command
to paste (``without_password``), and what makes a PostgreSQL URL unusable (``url_problem``). Plain string
work that never raises, whatever the URL holds (a port out of range, an IPv6 address without its ``]``)."""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)([^/?#]*)(.*)$", re.S)
_QUERY_PASSWORD = re.compile(r"([?&]password=)[^&#]*", re.I)


def _parts(url: str) -> tuple[str, str, str, str] | None:
    """(``scheme://``, user info, hosts, the rest) of ``url``; None when it is no URL."""
    m = _URL.match(url)
    if m is None:
        return None
    userinfo, at, hosts = m.group(2).rpartition("@")
    return m.group(1), userinfo if at else "", hosts, m.group(3)


def redact(url: str) -> str:
    """The URL with its password shown as ``***`` (for messages and logs)."""
    parts = _parts(url)
    if parts is None:
        return url
    head, userinfo, hosts, rest = parts
    if ":" in userinfo:
        userinfo = userinfo.split(":", 1)[0] + ":***"
    return head + (f"{userinfo}@" if userinfo else "") + hosts + _QUERY_PASSWORD.sub(r"\1***", rest)


def has_password(url: str) -> bool:
    parts = _parts(url)
    return parts is not None and (":" in parts[1] or _QUERY_PASSWORD.search(parts[3]) is not None)


def without_password(url: str) -> str:
    """The URL without its password (a command to paste: the password then comes from ``PGPASSWORD``, a
    ``.pgpass`` file or a prompt)."""
    parts = _parts(url)
    if parts is None:
        return url
    head, userinfo, hosts, rest = parts
    user = userinfo.split(":", 1)[0]
    path, q, query = rest.partition("?")
    kept = "&".join(p for p in query.split("&") if p and not p.lower().startswith("password="))
    return head + (f"{user}@" if user else "") + hosts + path + (f"?{kept}" if q and kept else "")


def url_problem(url: str) -> str | None:
    """What makes the PostgreSQL ``url`` unusable (a port that is not one, an IPv6 address not in brackets or
    not closed), or None. Several hosts (``host1:5432,host2:5432``) are allowed, as asyncpg allows them."""
    parts = _parts(url)
    if parts is None:
        return "it is not a URL"
    for spec in parts[2].split(","):
        if spec.startswith("["):
            address, closed, port = spec[1:].partition("]")
            if not closed:
                return f"the IPv6 address in {spec} has no closing ]"
            try:
                ipaddress.IPv6Address(address.split("%", 1)[0])
            except ValueError:
                return f"{address} is not an IPv6 address"
            if port and not port.startswith(":"):
                return f"{spec} is not host:port"
            port = port[1:]
        else:
            port = spec.partition(":")[2]
            if ":" in port:
                return f"an IPv6 address is written in brackets, e.g. [{spec}]:5432"
        if port and not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
            return f"the port {port} is not a port number from 1 to 65535"
    try:
        urlsplit(url)
    except ValueError as e:
        return str(e)
    return None
