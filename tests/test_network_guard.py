"""The autouse network guard really blocks non-loopback connections."""

from __future__ import annotations

import socket

import pytest

from tests.conftest import NetworkBlocked


def test_non_loopback_connect_is_blocked() -> None:
    with socket.socket() as s, pytest.raises(NetworkBlocked):
        s.connect(("192.0.2.1", 80))  # TEST-NET-1: never routed


def test_loopback_connect_is_allowed() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with socket.socket() as client:
            client.connect(server.getsockname())
