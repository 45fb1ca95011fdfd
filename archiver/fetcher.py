"""Fetch one URL over HTTP(S) and record the exchange exactly as it happened on the wire.

`Fetcher` owns one `requests.Session`. It never follows redirects and never retries: the crawl
loop archives every hop and re-queues failures with backoff (`is_retryable`, `retry_after`).
The body is read undecoded from urllib3's raw stream so the WARC keeps the server's bytes;
`decoded_body` removes the Content-Encoding for parsing.
"""

from __future__ import annotations

import contextlib
import email.utils
import errno
import http.client
import importlib
import logging
import math
import os
import socket
import ssl
import time
import zlib
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import requests
import urllib3.exceptions
from requests.adapters import HTTPAdapter
from requests.cookies import extract_cookies_to_jar

from archiver.exchange import Exchange

logger = logging.getLogger(__name__)

CHUNK_SIZE = 64 * 1024
MAX_RETRY_AFTER = 3600.0          # never wait longer than an hour for one Retry-After
RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504})
INVALID_URL = "invalid URL"       # error prefix of failures that a retry cannot fix
_HTTP_VERSIONS = {9: "HTTP/0.9", 10: "HTTP/1.0", 11: "HTTP/1.1", 20: "HTTP/2"}
# What a hostile or broken network can raise (requests wraps most; ValueError covers bad URLs).
_NETWORK_ERRORS = (requests.RequestException, OSError, ValueError,
                   http.client.HTTPException, urllib3.exceptions.HTTPError)


def _brotli_decompressor() -> Callable[[bytes], bytes] | None:
    """`brotli.decompress` (or brotlicffi's) if a decoder is installed, else None."""
    for name in ("brotli", "brotlicffi"):
        with contextlib.suppress(ImportError):
            module: Any = importlib.import_module(name)
            decompress: Callable[[bytes], bytes] = module.decompress
            return decompress
    return None


class Fetcher:
    """One HTTP client per crawl: GET a URL, return an `Exchange`, never raise for the network.

    Parameters
    ----------
    user_agent : str
        Sent as User-Agent on every request (the profile's politeness.user_agent).
    timeout, connect_timeout : float
        Seconds to wait for each read from the socket, and for the TCP/TLS connect.
    max_bytes : int
        Body cap (profile limits.max_page_bytes); longer bodies are cut and marked
        ``truncated="length"``.
    max_time : float or None
        Wall-clock cap on reading one body; beyond it ``truncated="time"``.
    clock : callable
        POSIX-time source for ``Exchange.started_at`` (WARC-Date); injectable for tests.
    """

    def __init__(
        self,
        user_agent: str,
        *,
        timeout: float = 30.0,
        connect_timeout: float = 10.0,
        max_bytes: int = 20_000_000,
        max_time: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.user_agent = user_agent
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.max_bytes = max_bytes
        self.max_time = max_time
        self.clock = clock
        self.session = requests.Session()
        # No environment proxies, CA bundles or ~/.netrc: a netrc password would otherwise be
        # sent (and archived in the WARC request record) without the operator noticing.
        self.session.trust_env = False
        for prefix in ("http://", "https://"):
            # max_retries=0: the crawl loop re-queues failures, so each attempt is logged.
            self.session.mount(prefix, HTTPAdapter(max_retries=0))
        encodings = "gzip, deflate, br" if _brotli_decompressor() else "gzip, deflate"
        self.session.headers.update({"User-Agent": user_agent, "Accept-Encoding": encodings})

    def fetch(self, url: str) -> Exchange:
        """GET `url` once (no redirects, no retries) and return what happened."""
        started_at = self.clock()
        start = time.monotonic()
        try:
            # Straight to the adapter, not Session.send: with allow_redirects=False requests
            # still runs resolve_redirects() on a 3xx, which reads (and content-decodes) the
            # body before we can read it raw; a gzip-encoded redirect body then fails.
            prepared = self._prepare(url)
            resp = self.session.get_adapter(prepared.url or url).send(
                prepared, stream=True, verify=True, proxies={},
                timeout=(self.connect_timeout, self.timeout))
            if _sets_cookies(resp):  # cookielib does nothing for a response without any
                extract_cookies_to_jar(self.session.cookies, prepared, resp.raw)
        except _NETWORK_ERRORS as err:
            reason = self._describe(err)
            logger.debug("fetch %s failed: %s (%r)", url, reason, err)
            return Exchange(url=url, started_at=started_at, error=reason,
                            duration=time.monotonic() - start,
                            request_target=_request_target(url))
        try:
            ip = _peer_ip(resp)
            body, truncated, read_error = self._read_body(resp, start)
        finally:
            resp.close()
        if read_error:
            logger.debug("fetch %s: body cut short: %s", url, read_error)
        prepared = resp.request
        return Exchange(
            url=url,
            started_at=started_at,
            method=prepared.method or "GET",
            request_target=prepared.path_url,
            request_headers=_sent_headers(prepared),
            status=resp.status_code,
            reason=resp.reason or "",
            http_version=_HTTP_VERSIONS.get(getattr(resp.raw, "version", 11), "HTTP/1.1"),
            response_headers=_received_headers(resp),
            body=body,
            truncated=truncated,
            duration=time.monotonic() - start,
            ip=ip,
            error=read_error,
        )

    def _prepare(self, url: str) -> requests.PreparedRequest:
        """What `Session.prepare_request(Request("GET", url))` builds, without its per-call
        merging: that copies the session's cookie jar and merges headers, params, auth and
        hooks, and this session has no params, auth or hooks and never reads the environment
        (trust_env is off, so no netrc). Same steps, same order, as PreparedRequest.prepare;
        the cookie step is skipped while the jar is empty, when it adds no header.
        """
        prepared = requests.PreparedRequest()
        prepared.prepare_method("GET")
        prepared.prepare_url(url, None)
        prepared.prepare_headers(self.session.headers)
        if len(self.session.cookies):
            prepared.prepare_cookies(self.session.cookies)
        prepared.prepare_body(None, None, None)
        prepared.prepare_auth(None, url)  # user:password@ in the URL becomes Basic auth
        return prepared

    def _read_body(self, resp: requests.Response, start: float) -> tuple[bytes, str, str]:
        """Read the still content-encoded body: (bytes, WARC-Truncated reason, error text).

        ``decode_content=False`` leaves gzip/deflate alone, but http.client underneath always
        removes the chunked *transfer* coding, and we want that: the body is then the payload
        that digests and parsers need. The Transfer-Encoding header stays in the Exchange as
        received, so the WARC writer must not emit it unchanged over de-chunked bytes
        (pywb#584); `warc.py` renames it.
        """
        # read1 returns what one socket read brings, so a server dripping bytes cannot hold us
        # past max_time inside a single 64 KiB read (urllib3 >= 2.3; read() otherwise).
        read = getattr(resp.raw, "read1", None) or resp.raw.read
        parts: list[bytes] = []
        size = 0
        while True:
            if self.max_time is not None and time.monotonic() - start > self.max_time:
                return b"".join(parts), "time", ""
            try:
                chunk = read(min(CHUNK_SIZE, self.max_bytes + 1 - size), decode_content=False)
            except _NETWORK_ERRORS as err:
                # Server closed mid-body, short Content-Length, broken chunk framing, read timeout.
                return b"".join(parts), "disconnect", self._describe(err)
            if not chunk:
                return b"".join(parts), "", ""
            parts.append(chunk)
            size += len(chunk)
            if size > self.max_bytes:
                return b"".join(parts)[: self.max_bytes], "length", ""

    def _describe(self, err: BaseException) -> str:
        """A short, stable text for a network failure ("connection refused", "timeout ...")."""
        chain = _cause_chain(err)
        kinds = tuple(type(e) for e in chain)

        def has(*types: type[BaseException]) -> bool:
            return any(issubclass(k, types) for k in kinds)

        if has(requests.exceptions.InvalidURL, requests.exceptions.MissingSchema,
               requests.exceptions.InvalidSchema, urllib3.exceptions.LocationParseError):
            return f"{INVALID_URL}: {err}"[:200]
        # Before the timeouts: urllib3's NewConnectionError subclasses ConnectTimeoutError.
        if has(urllib3.exceptions.NameResolutionError, socket.gaierror):
            return "DNS lookup failed"
        if has(ConnectionRefusedError) or any(
                getattr(e, "errno", None) == errno.ECONNREFUSED for e in chain):
            return "connection refused"
        if has(requests.exceptions.ConnectTimeout):
            return f"connect timeout after {self.connect_timeout:g}s"
        if has(requests.exceptions.ReadTimeout, urllib3.exceptions.ReadTimeoutError,
               TimeoutError):
            return f"timeout after {self.timeout:g}s"
        if has(requests.exceptions.SSLError, ssl.SSLError):
            return f"TLS error: {_last_words(chain)}"[:200]
        if has(http.client.BadStatusLine):
            return "bad status line"
        if has(http.client.LineTooLong):
            return "header line too long"
        if any("more than" in str(e) and "headers" in str(e) for e in chain):
            return "too many headers"
        if has(urllib3.exceptions.IncompleteRead, http.client.IncompleteRead):
            return "connection closed mid-body"
        if has(ConnectionResetError, ConnectionAbortedError, http.client.RemoteDisconnected):
            return "connection reset"
        return f"{type(chain[-1]).__name__}: {_last_words(chain)}"[:200]

    def close(self) -> None:
        """Close the session and its pooled connections."""
        self.session.close()

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _sets_cookies(resp: requests.Response) -> bool:
    """Whether the response has a Set-Cookie or Set-Cookie2 header (any case)."""
    return any(name in resp.raw.headers for name in ("set-cookie", "set-cookie2"))


def _cause_chain(err: BaseException) -> list[BaseException]:
    """`err` and everything it wraps (__cause__/__context__, requests' and urllib3's .reason)."""
    seen: list[BaseException] = []
    todo: list[BaseException] = [err]
    while todo:
        e = todo.pop(0)
        if any(e is s for s in seen):
            continue
        seen.append(e)
        for nxt in (e.__cause__, e.__context__, getattr(e, "reason", None),
                    *(a for a in getattr(e, "args", ()) if isinstance(a, BaseException))):
            if isinstance(nxt, BaseException):
                todo.append(nxt)
    return seen


def _last_words(chain: list[BaseException]) -> str:
    return str(chain[-1]) or type(chain[-1]).__name__


def _request_target(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:
        return "/"
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _host_header(url: str) -> str:
    """The Host header http.client adds: lower-case host, IPv6 in brackets, non-default port."""
    parts = urlsplit(url)
    host = (parts.hostname or "").rstrip(".")
    if ":" in host:
        host = f"[{host}]"
    default = 443 if parts.scheme == "https" else 80
    return host if parts.port in (None, default) else f"{host}:{parts.port}"


def _sent_headers(prepared: requests.PreparedRequest) -> tuple[tuple[str, str], ...]:
    """Request headers in wire order: Host (added by http.client's putrequest), then ours."""
    headers = [(str(k), str(v)) for k, v in prepared.headers.items()]
    if not any(k.lower() == "host" for k, _ in headers):
        headers.insert(0, ("Host", _host_header(prepared.url or "")))
    return tuple(headers)


def _received_headers(resp: requests.Response) -> tuple[tuple[str, str], ...]:
    """Response headers in order, duplicates kept (two Set-Cookie lines stay two)."""
    original = getattr(resp.raw, "_original_response", None)
    msg = getattr(original, "msg", None)
    if msg is not None:
        return tuple((str(k), str(v)) for k, v in msg.items())
    return tuple((str(k), str(v)) for k, v in resp.raw.headers.items())


def _peer_ip(resp: requests.Response) -> str | None:
    """The server's IP address from the socket (best effort; None if unobtainable).

    Must run before the body is read. On a keep-alive connection urllib3 still holds the
    socket; when the server said "Connection: close", http.client has already dropped its
    socket object and only the response's file keeps the descriptor, so ask that (via a dup).
    """
    with contextlib.suppress(Exception):
        conn = getattr(resp.raw, "_connection", None)
        sock = getattr(conn, "sock", None)
        if sock is not None:
            return str(sock.getpeername()[0])
    with contextlib.suppress(Exception):
        original: Any = getattr(resp.raw, "_fp", None)
        fileno = original.fileno()
        with socket.socket(fileno=os.dup(fileno)) as dup:
            return str(dup.getpeername()[0])
    return None


def _content_encodings(ex: Exchange) -> list[str]:
    codings: list[str] = []
    for key, value in ex.response_headers:
        if key.lower() == "content-encoding":
            codings += [c.strip().lower() for c in value.split(",") if c.strip()]
    return codings


def inflate(data: bytes, wbits: int, limit: int) -> bytes:
    """Decompress as much of `data` as possible (at most `limit` bytes); partial on corruption.

    Input is fed in slices because zlib discards a call's output when it hits an error; this
    way everything before the damaged slice survives. Concatenated gzip members are all read.
    """
    out = bytearray()
    decoder = zlib.decompressobj(wbits)
    pos = 0
    with contextlib.suppress(zlib.error):
        while len(out) < limit:
            if decoder.eof:
                data, pos = decoder.unused_data + data[pos:], 0
                if not data:
                    break
                decoder = zlib.decompressobj(wbits)
            if decoder.unconsumed_tail:
                piece = decoder.unconsumed_tail
            elif pos < len(data):
                piece, pos = data[pos : pos + CHUNK_SIZE], pos + CHUNK_SIZE
            else:
                break
            out += decoder.decompress(piece, limit - len(out))
    return bytes(out)


def _decode_one(data: bytes, coding: str, limit: int) -> bytes:
    if coding in ("gzip", "x-gzip"):
        out = inflate(data, 16 + zlib.MAX_WBITS, limit)
    elif coding == "deflate":
        # RFC 9110 says zlib-wrapped; some servers send raw deflate, so try both.
        out = inflate(data, zlib.MAX_WBITS, limit) or inflate(data, -zlib.MAX_WBITS, limit)
    elif coding == "br" and (brotli := _brotli_decompressor()) is not None:
        try:
            out = brotli(data)[:limit]
        except Exception:  # brotli raises its own error type
            out = b""
    else:
        return data  # identity, or a coding we cannot decode: leave as is
    if not out and not _looks_compressed(data, coding):
        return data  # the header lied: these bytes were never compressed
    return out


def _looks_compressed(data: bytes, coding: str) -> bool:
    """Whether `data` starts like a gzip member or a zlib stream (raw deflate cannot tell)."""
    if data[:2] == b"\x1f\x8b":
        return True
    return len(data) >= 2 and data[0] & 0x0F == 8 and (data[0] * 256 + data[1]) % 31 == 0


def decoded_body(ex: Exchange, *, max_size: int = 100_000_000) -> bytes:
    """The body with its Content-Encoding(s) removed, for parsing; never raises.

    Codings are undone in reverse order of application. A truncated or corrupt stream yields
    what could be decoded; a body that does not decode at all is returned unchanged (servers
    sometimes label plain bytes gzip). `max_size` bounds the output (decompression bombs).
    """
    data = ex.body
    for coding in reversed(_content_encodings(ex)):
        data = _decode_one(data, coding, max_size)
    return data[:max_size]


def is_retryable(ex: Exchange) -> bool:
    """Whether another attempt later may succeed: network failures, 429 and 5xx gateways.

    An invalid URL is not retryable; a body cut by a disconnect is (the retry may be whole).
    """
    if ex.status is None:
        return not ex.error.startswith(INVALID_URL)
    return ex.status in RETRYABLE_STATUSES or ex.truncated == "disconnect"


def retry_after(ex: Exchange, now: float) -> float | None:
    """Seconds to wait from the Retry-After header (delta-seconds or HTTP-date), ≤ 1 hour.

    `now` is the current POSIX time, for HTTP-dates. None if the header is absent or garbage.
    """
    value = ex.header("Retry-After").strip()
    if not value:
        return None
    if value.isascii() and value.isdigit():
        seconds = float(value)
    else:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:  # RFC 9110 HTTP-dates are GMT
            return None
        seconds = when.timestamp() - now
    if not math.isfinite(seconds):
        return None
    return min(max(seconds, 0.0), MAX_RETRY_AFTER)
