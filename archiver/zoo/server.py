"""Serve a zoo Site on loopback: a threaded HTTP/1.1 server (keep-alive, chunked bodies,
gzip when the site offers it) in a daemon thread, started on a free port."""

from __future__ import annotations

import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

from archiver.zoo.site import Site

CHUNK = 8192


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 128
    site: Site

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Stay quiet when the client hung up (wget killed at its budget); print the rest."""
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"        # keep-alive; the client closes when it likes
    server_version = "Apache/2.4.57"
    sys_version = ""
    disable_nagle_algorithm = True       # no 40 ms stalls between header and body writes
    server: _Server

    def do_GET(self) -> None:
        self._serve(head=False)

    def do_HEAD(self) -> None:
        self._serve(head=True)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.send_response(405)
        self.send_header("Allow", "GET, HEAD")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _serve(self, head: bool) -> None:
        target = self.path
        if not target.startswith("/"):   # absolute-form request target
            parts = urlsplit(target)
            target = (parts.path or "/") + ("?" + parts.query if parts.query else "")
        host = self.headers.get("Host") or "{}:{}".format(*self.server.server_address[:2])
        resp = self.server.site.respond(
            target, host=host, accept_gzip="gzip" in (self.headers.get("Accept-Encoding") or ""))
        self.send_response(resp.status, resp.reason)
        for name, value in resp.headers:
            self.send_header(name, value)
        chunked = resp.chunked and self.request_version == "HTTP/1.1"
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(resp.body)))
        self.end_headers()
        if head:
            return
        if not chunked:
            self.wfile.write(resp.body)
            return
        body = resp.body
        out = bytearray()
        for i in range(0, len(body), CHUNK):
            piece = body[i:i + CHUNK]
            out += b"%x\r\n%s\r\n" % (len(piece), piece)
        out += b"0\r\n\r\n"
        self.wfile.write(out)

    def log_message(self, format: str, *args: object) -> None:
        """Silence per-request logging."""


class ServedSite:
    """A site being served; `.url` is the base ("http://127.0.0.1:PORT"). Close when done."""

    def __init__(self, site: Site, server: _Server, thread: threading.Thread) -> None:
        self.site = site
        self._server = server
        self._thread = thread
        host, port = server.server_address[:2]
        self.host: str = host if isinstance(host, str) else host.decode()
        self.port: int = int(port)
        self.url = f"http://{self.host}:{self.port}"

    def close(self) -> None:
        """Stop serving and release the port."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ServedSite:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ServedSite {self.site.family}/{self.site.variant} at {self.url}>"


def serve(site: Site, host: str = "127.0.0.1", port: int = 0) -> ServedSite:
    """Serve `site` on `host:port` (0 = a free port) from a daemon thread."""
    server = _Server((host, port), _Handler)
    server.site = site
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1},
                              name=f"zoo-{site.family}-{site.variant}", daemon=True)
    thread.start()
    return ServedSite(site, server, thread)
