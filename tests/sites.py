"""A small WSGI fixture site with the edge cases the crawler must handle.
The site knows what a correct crawl archives."""

from __future__ import annotations

import gzip
import threading
from collections.abc import Callable, Iterable
from typing import Any

from tests.servers import serve_wsgi

__all__ = ["EdgeSite", "serve_wsgi"]

StartResponse = Callable[..., Any]


def _html(title: str, body: str) -> bytes:
    return (f"<!DOCTYPE html><html><head><title>{title}</title></head><body>"
            f"<div id=\"main\">{body}</div></body></html>").encode()


class EdgeSite:
    """Pages: / links to everything below. Counters record how often each path was served."""

    BIG = 300_000  # bytes of /big

    def __init__(self, n_pages: int = 30) -> None:
        self.n_pages = n_pages
        self.hits: dict[str, int] = {}
        self.lock = threading.Lock()
        self.external = "http://external.invalid/landing"

    # what a correct crawl fetches and archives (responses or revisits)
    def archivable_paths(self) -> set[str]:
        pages = {f"/p/{i}" for i in range(self.n_pages)}
        return pages | {"/", "/robots.txt", "/r1", "/r2", "/r3", "/big", "/flaky503",
                        "/flaky429", "/dup-a", "/dup-b", "/gz", "/away", "/missing"}

    def __call__(self, environ: dict[str, Any], start: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "/")
        with self.lock:
            self.hits[path] = self.hits.get(path, 0) + 1
            count = self.hits[path]
        html = [("Content-Type", "text/html; charset=utf-8")]
        if path == "/robots.txt":
            start("200 OK", [("Content-Type", "text/plain")])
            return [b"User-agent: *\nDisallow: /private/\n"]
        if path == "/":
            links = "".join(f'<li><a class="page" href="/p/{i}">Page {i}</a></li>'
                            for i in range(self.n_pages))
            extra = ('<a href="/private/secret">secret</a> <a href="/r1">moved</a> '
                     '<a href="/big">big</a> <a href="/flaky503">flaky</a> '
                     '<a href="/flaky429">busy</a> <a href="/dup-a">a</a> '
                     '<a href="/dup-b">b</a> <a href="/gz">gz</a> <a href="/away">away</a> '
                     f'<a href="{self.external}">ext</a> <a href="/missing">missing</a>')
            start("200 OK", html)
            return [_html("Home", f"<ul class=\"list\">{links}</ul>{extra}")]
        if path.startswith("/p/"):
            i = int(path[3:])
            nxt = f'<a class="next" href="/p/{(i + 1) % self.n_pages}">next</a>'
            start("200 OK", html)
            return [_html(f"Page {i}", f"<p>content of page {i} " + "word " * (i + 5)
                          + f"</p>{nxt}")]
        if path in ("/r1", "/r2"):
            nxt = "/r2" if path == "/r1" else "/r3"
            start("301 Moved Permanently", [("Location", nxt)])
            return [b""]
        if path == "/r3":
            start("200 OK", html)
            return [_html("Landed", "<p>end of the redirect chain</p>")]
        if path == "/away":
            start("302 Found", [("Location", self.external)])
            return [b""]
        if path == "/big":
            start("200 OK", html)
            return [_html("Big", "<p>" + "x" * self.BIG + "</p>")]
        if path == "/flaky503":
            if count <= 2:
                start("503 Service Unavailable", html)
                return [_html("Busy", "try later")]
            start("200 OK", html)
            return [_html("Flaky", "<p>finally</p>")]
        if path == "/flaky429":
            if count <= 1:
                start("429 Too Many Requests", [*html, ("Retry-After", "1")])
                return [_html("Slow down", "429")]
            start("200 OK", html)
            return [_html("Busy", "<p>served after 429</p>")]
        if path in ("/dup-a", "/dup-b"):
            start("200 OK", html)
            return [_html("Same", "<p>identical payload</p>")]
        if path == "/gz":
            body = gzip.compress(_html("Gzipped", "<p>gzip encoded body</p>"))
            start("200 OK", [*html, ("Content-Encoding", "gzip"),
                              ("Content-Length", str(len(body)))])
            return [body]
        start("404 Not Found", html)
        return [_html("Not found", "no such page")]
