"""Reusable loopback servers for tests: a threaded WSGI server and a raw-socket "hostile" server.

Everything binds 127.0.0.1 on port 0 and runs in daemon threads, so tests need no fixed ports
and never touch the internet. Use them as context managers:

    with serve_wsgi(app) as base_url: ...           # well-behaved HTTP (wsgiref, HTTP/1.0)
    with serve_raw(reply(b"HTTP/1.1 200 OK\\r\\n...")) as base_url: ...   # exact bytes
    url = closed_port_url()                          # nothing listens there: connection refused
"""

from __future__ import annotations

import contextlib
import socket
import socketserver
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
RawHandler = Callable[[socket.socket, bytes], None]


class _ThreadingWSGIServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True
    block_on_close = False


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def html_or_404(start: Callable[..., Any], body: bytes | None) -> list[bytes]:
    """A WSGI answer: the HTML page `body`, or 404 Not Found when it is None."""
    if body is None:
        start("404 Not Found", [("Content-Type", "text/plain")])
        return [b"not found"]
    start("200 OK", [("Content-Type", "text/html; charset=utf-8")])
    return [body]


@contextlib.contextmanager
def serve_wsgi(app: WSGIApp) -> Iterator[str]:
    """Serve a WSGI app on 127.0.0.1:<free port> in a thread; yield its base URL (no slash)."""
    server = make_server(
        "127.0.0.1", 0, app, server_class=_ThreadingWSGIServer, handler_class=_QuietHandler
    )
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def read_request(conn: socket.socket, limit: int = 65536) -> bytes:
    """Read one request head (up to the blank line) from `conn`; b'' if the client went away."""
    data = b""
    while b"\r\n\r\n" not in data and len(data) < limit:
        try:
            chunk = conn.recv(4096)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    return data


@contextlib.contextmanager
def serve_raw(handler: RawHandler) -> Iterator[str]:
    """Serve raw TCP: for each connection, read the request head and call handler(conn, head).

    The handler writes whatever bytes it likes (malformed status lines, truncated bodies,
    endless headers); the connection is closed when it returns. Yields the base URL.
    """
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.05)
    stop = threading.Event()
    workers: list[threading.Thread] = []

    def serve_one(conn: socket.socket) -> None:
        with conn:
            conn.settimeout(10)
            head = read_request(conn)
            with contextlib.suppress(OSError):
                handler(conn, head)

    def accept_loop() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except (TimeoutError, OSError):
                continue
            worker = threading.Thread(target=serve_one, args=(conn,), daemon=True)
            workers.append(worker)
            worker.start()

    thread = threading.Thread(target=accept_loop, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        listener.close()
        for worker in workers:
            worker.join(5)


def reply(data: bytes, *, then_sleep: float = 0.0) -> RawHandler:
    """A raw handler that sends `data` verbatim, optionally waits, then closes."""

    def handler(conn: socket.socket, head: bytes) -> None:
        conn.sendall(data)
        if then_sleep:
            threading.Event().wait(then_sleep)

    return handler


def closed_port_url() -> str:
    """A loopback URL on which nothing listens (connection refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/"
