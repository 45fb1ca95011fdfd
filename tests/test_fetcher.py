"""Fetcher against loopback servers: well-behaved WSGI and hostile raw sockets."""

from __future__ import annotations

import gzip
import socket
import time
import zlib
from collections.abc import Iterator
from email.utils import formatdate

import pytest

from archiver.exchange import Exchange
from archiver.fetcher import Fetcher, decoded_body, is_retryable, retry_after
from tests.servers import closed_port_url, reply, serve_raw, serve_wsgi

UA = "archiver-test/0.1 (+https://example.org/archive)"
HTML = b"<html><body><a href='/next'>next</a></body></html>"


def app(environ, start_response):
    path = environ["PATH_INFO"]
    if path == "/page":
        start_response("200 OK", [
            ("Content-Type", "text/html; charset=utf-8"),
            ("Set-Cookie", "a=1; Path=/"),
            ("X-Between", "yes"),
            ("Set-Cookie", "b=2; Path=/"),
            ("Content-Length", str(len(HTML))),
        ])
        return [HTML]
    if path == "/gzip":
        body = gzip.compress(HTML)
        start_response("200 OK", [("Content-Type", "text/html"), ("Content-Encoding", "gzip"),
                                  ("Content-Length", str(len(body)))])
        return [body]
    if path == "/big":
        body = b"x" * 200_000
        start_response("200 OK", [("Content-Type", "text/plain"),
                                  ("Content-Length", str(len(body)))])
        return [body]
    if path == "/redirect":
        start_response("302 Found", [("Location", "/page"), ("Content-Length", "0")])
        return [b""]
    if path == "/slow":
        time.sleep(1.5)
        start_response("200 OK", [("Content-Length", "2")])
        return [b"ok"]
    if path == "/echo":
        body = "\n".join(f"{k}: {v}" for k, v in sorted(environ.items())
                         if k.startswith("HTTP_")).encode()
        body += f"\nQUERY: {environ.get('QUERY_STRING', '')}".encode()
        start_response("200 OK", [("Content-Length", str(len(body)))])
        return [body]
    start_response("404 Not Found", [("Content-Length", "0")])
    return [b""]


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_wsgi(app) as base:
        yield base


@pytest.fixture
def fetcher() -> Iterator[Fetcher]:
    with Fetcher(UA, timeout=0.5, connect_timeout=0.5, max_bytes=50_000) as f:
        yield f


def test_status_headers_body_and_request(site: str, fetcher: Fetcher) -> None:
    ex = fetcher.fetch(site + "/page")
    assert (ex.status, ex.reason, ex.error, ex.truncated) == (200, "OK", "", "")
    assert ex.http_version in ("HTTP/1.0", "HTTP/1.1")
    assert ex.body == HTML
    assert ex.content_type == "text/html"
    assert ex.ip == "127.0.0.1"
    assert ex.request_target == "/page"
    names = [k for k, _ in ex.request_headers]
    assert names[0] == "Host"
    assert dict(ex.request_headers)["Host"] == site.removeprefix("http://")
    assert dict(ex.request_headers)["User-Agent"] == UA
    assert dict(ex.request_headers)["Accept-Encoding"].startswith("gzip, deflate")
    assert ex.duration >= 0


def test_repeated_set_cookie_kept_in_order(site: str, fetcher: Fetcher) -> None:
    ex = fetcher.fetch(site + "/page")
    names = [k.lower() for k, _ in ex.response_headers]
    cookies = [v for k, v in ex.response_headers if k.lower() == "set-cookie"]
    assert cookies == ["a=1; Path=/", "b=2; Path=/"]
    assert [n for n in names if n in ("set-cookie", "x-between")] == [
        "set-cookie", "x-between", "set-cookie"]


def test_prepared_request_matches_session_prepare_request(site: str, fetcher: Fetcher) -> None:
    """The fetcher's own request preparation builds what Session.prepare_request would."""
    import requests

    fetcher.fetch(site + "/page")  # the jar now holds a=1 and b=2
    for url in (site + "/echo?b=2&a=1", site.replace("http://", "http://user:pw@") + "/x y",
                site + "/ä?q=ö"):
        ours = fetcher._prepare(url)
        theirs = fetcher.session.prepare_request(requests.Request("GET", url))
        assert (ours.method, ours.url, ours.body) == (theirs.method, theirs.url, theirs.body)
        assert list(ours.headers.items()) == list(theirs.headers.items())


def test_session_cookies_are_sent_back_and_recorded(site: str, fetcher: Fetcher) -> None:
    assert "Cookie" not in dict(fetcher.fetch(site + "/echo").request_headers)
    fetcher.fetch(site + "/page")  # sets a=1 and b=2
    ex = fetcher.fetch(site + "/echo")
    assert b"HTTP_COOKIE: a=1; b=2" in ex.body
    assert dict(ex.request_headers)["Cookie"] == "a=1; b=2"
    assert [k for k, _ in ex.request_headers] == [
        "Host", "User-Agent", "Accept-Encoding", "Accept", "Connection", "Cookie"]


def test_credentials_in_the_url_become_basic_auth(site: str, fetcher: Fetcher) -> None:
    ex = fetcher.fetch(site.replace("http://", "http://user:pw@") + "/echo")
    assert b"HTTP_AUTHORIZATION: Basic dXNlcjpwdw==" in ex.body
    assert dict(ex.request_headers)["Authorization"] == "Basic dXNlcjpwdw=="


def test_user_agent_and_query_reach_the_server(site: str, fetcher: Fetcher) -> None:
    ex = fetcher.fetch(site + "/echo?b=2&a=1")
    assert f"HTTP_USER_AGENT: {UA}".encode() in ex.body
    assert b"QUERY: b=2&a=1" in ex.body
    assert ex.request_target == "/echo?b=2&a=1"


def test_started_at_uses_injected_clock(site: str) -> None:
    with Fetcher(UA, clock=lambda: 1_000_000.0) as f:
        assert f.fetch(site + "/page").started_at == 1_000_000.0


def test_gzip_body_stays_encoded_and_decodes(site: str, fetcher: Fetcher) -> None:
    ex = fetcher.fetch(site + "/gzip")
    assert ex.header("Content-Encoding") == "gzip"
    assert ex.body[:2] == b"\x1f\x8b"  # still gzip, as the WARC must hold it
    assert decoded_body(ex) == HTML


def test_size_cap_truncates(site: str, fetcher: Fetcher) -> None:
    ex = fetcher.fetch(site + "/big")
    assert ex.status == 200
    assert ex.truncated == "length"
    assert len(ex.body) == 50_000


def test_body_at_exactly_the_cap_is_not_truncated(site: str) -> None:
    with Fetcher(UA, max_bytes=len(HTML)) as f:
        ex = f.fetch(site + "/page")
    assert (ex.body, ex.truncated) == (HTML, "")


def test_redirect_is_not_followed(site: str, fetcher: Fetcher) -> None:
    ex = fetcher.fetch(site + "/redirect")
    assert ex.status == 302
    assert ex.header("Location") == "/page"


def test_429_with_retry_after(httpserver) -> None:
    httpserver.expect_request("/busy").respond_with_data(
        "slow down", status=429, headers={"Retry-After": "7"})
    with Fetcher(UA) as f:
        ex = f.fetch(httpserver.url_for("/busy"))
    assert ex.status == 429
    assert is_retryable(ex)
    assert retry_after(ex, time.time()) == 7.0


def test_connection_refused_is_a_value(fetcher: Fetcher) -> None:
    ex = fetcher.fetch(closed_port_url())
    assert ex.status is None
    assert ex.error == "connection refused"
    assert is_retryable(ex)


def test_read_timeout_is_a_value(site: str, fetcher: Fetcher) -> None:
    start = time.monotonic()
    ex = fetcher.fetch(site + "/slow")
    assert time.monotonic() - start < 1.4
    assert ex.status is None
    assert ex.error == "timeout after 0.5s"
    assert is_retryable(ex)


@pytest.mark.parametrize("url", ["not a url", "ftp://127.0.0.1/x", "http://", "http://[::1"])
def test_invalid_url_is_a_value_and_not_retryable(url: str, fetcher: Fetcher) -> None:
    ex = fetcher.fetch(url)
    assert ex.status is None
    assert ex.error.startswith("invalid URL")
    assert not is_retryable(ex)


def test_dns_failure_is_a_value(fetcher: Fetcher, monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", fail)
    ex = fetcher.fetch("http://no-such-host.invalid/")
    assert (ex.status, ex.error) == (None, "DNS lookup failed")


# --- hostile raw-socket servers -------------------------------------------------------------

def test_chunked_body_is_dechunked() -> None:
    wire = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
            b"5\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n")
    with serve_raw(reply(wire)) as base, Fetcher(UA, timeout=2) as f:
        ex = f.fetch(base + "/")
    assert (ex.status, ex.body, ex.truncated) == (200, b"hello, world", "")
    assert ex.header("Transfer-Encoding") == "chunked"
    assert ex.http_version == "HTTP/1.1"
    assert ex.ip == "127.0.0.1"  # from the kept-alive socket this time


def test_garbage_status_line() -> None:
    with serve_raw(reply(b"SPAM SPAM SPAM\r\n\r\n")) as base, Fetcher(UA, timeout=2) as f:
        ex = f.fetch(base + "/")
    assert ex.status is None
    assert ex.error == "bad status line"


def test_server_closes_before_answering() -> None:
    with serve_raw(reply(b"")) as base, Fetcher(UA, timeout=2) as f:
        ex = f.fetch(base + "/")
    assert ex.status is None
    assert ex.error


def test_close_mid_body_with_content_length() -> None:
    wire = b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + b"a" * 10
    with serve_raw(reply(wire)) as base, Fetcher(UA, timeout=2) as f:
        ex = f.fetch(base + "/")
    assert (ex.status, ex.body, ex.truncated) == (200, b"a" * 10, "disconnect")
    assert ex.error
    assert is_retryable(ex)


def test_close_mid_chunked_body() -> None:
    wire = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n10\r\nabc"
    with serve_raw(reply(wire)) as base, Fetcher(UA, timeout=2) as f:
        ex = f.fetch(base + "/")
    assert ex.status == 200
    assert ex.truncated == "disconnect"
    assert ex.body.startswith(b"hello")


def test_endless_headers() -> None:
    def endless(conn: socket.socket, head: bytes) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\n")
        for i in range(100_000):
            conn.sendall(b"X-Spam-%d: yes\r\n" % i)

    with serve_raw(endless) as base, Fetcher(UA, timeout=2) as f:
        ex = f.fetch(base + "/")
    assert ex.status is None
    assert ex.error == "too many headers"


def test_header_line_too_long() -> None:
    wire = b"HTTP/1.1 200 OK\r\nX-Long: " + b"a" * 70_000 + b"\r\n\r\n"
    with serve_raw(reply(wire)) as base, Fetcher(UA, timeout=2) as f:
        ex = f.fetch(base + "/")
    assert (ex.status, ex.error) == (None, "header line too long")


def test_slow_drip_body_is_cut_at_max_time() -> None:
    def drip(conn: socket.socket, head: bytes) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
        for _ in range(100):
            conn.sendall(b"x")
            time.sleep(0.05)

    with serve_raw(drip) as base, Fetcher(UA, timeout=2, max_time=0.4) as f:
        start = time.monotonic()
        ex = f.fetch(base + "/")
        elapsed = time.monotonic() - start
    assert ex.truncated == "time"
    assert 0 < len(ex.body) < 100
    assert elapsed < 2.0


# --- decoded_body ---------------------------------------------------------------------------

def _ex(body: bytes, *headers: tuple[str, str], status: int | None = 200) -> Exchange:
    return Exchange(url="http://h/", started_at=0.0, status=status, body=body,
                    response_headers=headers)


def test_decoded_body_variants() -> None:
    deflate_raw = zlib.compressobj(wbits=-15)
    raw = deflate_raw.compress(HTML) + deflate_raw.flush()
    assert decoded_body(_ex(zlib.compress(HTML), ("Content-Encoding", "deflate"))) == HTML
    assert decoded_body(_ex(raw, ("Content-Encoding", "deflate"))) == HTML
    assert decoded_body(_ex(HTML, ("Content-Encoding", "identity"))) == HTML
    assert decoded_body(_ex(HTML)) == HTML
    double = gzip.compress(zlib.compress(HTML))
    assert decoded_body(_ex(double, ("Content-Encoding", "deflate, gzip"))) == HTML
    assert decoded_body(_ex(gzip.compress(b"a") + gzip.compress(b"b"),
                            ("Content-Encoding", "GZIP"))) == b"ab"


def test_decoded_body_corrupt_or_truncated_never_raises() -> None:
    big = b"".join(b"<p>%d %x</p>" % (i, i * 7919 % 65521) for i in range(50_000))
    stream = gzip.compress(big)
    assert len(stream) > 4 * 65536
    partial = decoded_body(_ex(stream[: len(stream) // 2], ("Content-Encoding", "gzip")))
    assert len(partial) > len(big) // 4 and big.startswith(partial)
    middle = len(stream) // 2
    corrupt = stream[:middle] + b"\xff" * 64 + stream[middle + 64 :]
    decoded = decoded_body(_ex(corrupt, ("Content-Encoding", "gzip")))
    # Everything before the damage survives (what follows it may be garbage or missing).
    assert decoded[: len(big) // 4] == big[: len(big) // 4]
    damaged_header = b"\x1f\x8b\xff\xff" + stream[4:]
    assert decoded_body(_ex(damaged_header, ("Content-Encoding", "gzip"))) == b""
    # The header lied: plain bytes labelled gzip come back unchanged.
    assert decoded_body(_ex(HTML, ("Content-Encoding", "gzip"))) == HTML
    assert decoded_body(_ex(b"", ("Content-Encoding", "gzip"))) == b""


def test_decoded_body_bounds_output() -> None:
    bomb = gzip.compress(b"\0" * 5_000_000)
    assert len(decoded_body(_ex(bomb, ("Content-Encoding", "gzip")), max_size=1000)) == 1000


# --- retry helpers --------------------------------------------------------------------------

@pytest.mark.parametrize(("status", "expected"), [
    (200, False), (301, False), (404, False), (429, True), (500, True), (501, False),
    (502, True), (503, True), (504, True),
])
def test_is_retryable_by_status(status: int, expected: bool) -> None:
    assert is_retryable(_ex(b"", status=status)) is expected


def test_retry_after() -> None:
    now = 1_700_000_000.0
    assert retry_after(_ex(b""), now) is None
    assert retry_after(_ex(b"", ("Retry-After", "120")), now) == 120.0
    assert retry_after(_ex(b"", ("Retry-After", "999999")), now) == 3600.0
    date = formatdate(now + 30, usegmt=True)
    assert retry_after(_ex(b"", ("Retry-After", date)), now) == pytest.approx(30.0)
    past = formatdate(now - 30, usegmt=True)
    assert retry_after(_ex(b"", ("Retry-After", past)), now) == 0.0
    for garbage in ("soon", "-5", "1.5", "²", "Mon, 99 Foo 2024 99:99:99 GMT"):
        assert retry_after(_ex(b"", ("Retry-After", garbage)), now) is None


def test_gzip_encoded_redirect_body_is_read_raw() -> None:
    """requests' resolve_redirects() must not consume a 3xx body before the raw read
    (it did, and a gzip-encoded redirect body then raised RuntimeError)."""
    import gzip as _gzip

    from archiver.fetcher import Fetcher, decoded_body
    from tests.servers import serve_wsgi

    body = _gzip.compress(b"<html><body>moved <a href='/new'>here</a></body></html>")

    def app(environ, start):
        start("302 Found", [("Location", "/new"), ("Content-Encoding", "gzip"),
                            ("Content-Type", "text/html"), ("Content-Length", str(len(body))),
                            ("Set-Cookie", "sid=abc; Path=/")])
        return [body]

    with serve_wsgi(app) as base, Fetcher("archiver-test/1") as fetcher:
        ex = fetcher.fetch(base + "/old")
        assert ex.status == 302 and ex.header("Location") == "/new"
        assert ex.body == body and b"moved" in decoded_body(ex)
        assert fetcher.session.cookies.get("sid") == "abc"   # cookies still kept per crawl
