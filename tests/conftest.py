"""Shared fixtures. Tests never touch the internet: an autouse fixture fails any
connection to a non-loopback address."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator

import pytest

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex
_real_getaddrinfo = socket.getaddrinfo


def _is_loopback(address: object) -> bool:
    if isinstance(address, (str, bytes)):  # AF_UNIX path
        return True
    host = address[0] if isinstance(address, tuple) else address
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class NetworkBlocked(AssertionError):
    pass


def _guarded_connect(self: socket.socket, address: object) -> None:
    if not _is_loopback(address):
        raise NetworkBlocked(f"test tried to connect to non-loopback address {address!r}")
    return _real_connect(self, address)


def _guarded_connect_ex(self: socket.socket, address: object) -> int:
    if not _is_loopback(address):
        raise NetworkBlocked(f"test tried to connect to non-loopback address {address!r}")
    return _real_connect_ex(self, address)


def _guarded_getaddrinfo(host, *args, **kwargs):  # type: ignore[no-untyped-def]
    infos = _real_getaddrinfo(host, *args, **kwargs)
    for info in infos:
        if not _is_loopback(info[4]):
            raise NetworkBlocked(f"test tried to resolve non-loopback host {host!r}")
    return infos


@pytest.fixture(autouse=True)
def block_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail any connection (or name resolution) that is not to 127.0.0.0/8 or ::1."""
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", _guarded_connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", _guarded_getaddrinfo)
    yield
