"""The value passed from the fetcher to the WARC sink: one HTTP request and its response.

A plain data type so that `fetcher` and `warc` need not import each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Exchange:
    """One HTTP exchange as it happened on the wire.

    `body` is the entity body with the transfer coding removed (de-chunked) but any
    Content-Encoding intact (a gzip-encoded page stays gzip bytes), exactly what the WARC
    response record must hold. `status` is None when no response arrived; then `error`
    says why (DNS failure, connection refused, timeout, ...).
    """

    url: str
    started_at: float                    # POSIX time the request was sent (WARC-Date)
    method: str = "GET"
    request_target: str = "/"            # path?query as sent on the request line
    request_headers: tuple[tuple[str, str], ...] = ()
    status: int | None = None
    reason: str = ""
    http_version: str = "HTTP/1.1"
    response_headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    truncated: str = ""                  # '' or WARC-Truncated: length | time | disconnect
    duration: float = 0.0
    ip: str | None = None                # WARC-IP-Address
    error: str = ""
    attempts: int = field(default=1)

    def header(self, name: str, default: str = "") -> str:
        """The first response header called `name` (case-insensitive)."""
        lname = name.lower()
        for key, value in self.response_headers:
            if key.lower() == lname:
                return value
        return default

    @property
    def content_type(self) -> str:
        """The media type without parameters, lower-case ('' if none)."""
        return media_type(self.header("Content-Type"))


def media_type(content_type: str) -> str:
    """A Content-Type value's media type without parameters, lower-case ('' if none)."""
    return content_type.split(";", 1)[0].strip().lower()
