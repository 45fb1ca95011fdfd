"""Heritrix-style crawl.log: one line per fetch attempt or precluded URL.

Format (Heritrix 3 `crawl.log`): timestamp, status, size, URL, hop path, via, mime type,
worker, fetch start+duration (ms), payload digest, source tag, annotations. Negative
status codes follow Heritrix: -2 connect failed, -4 timeout, -6 DNS failure,
-9998 precluded by robots.txt, -5000 out of scope, -4000 too many hops/trap.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import IO

ERROR_CODES = {"dns": -6, "refused": -2, "timeout": -4}
ROBOTS_PRECLUDED = -9998
OUT_OF_SCOPE = -5000
TRAP = -4000


def _iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ts)) + f".{int(ts * 1000) % 1000:03d}Z"


def error_code(error: str) -> int:
    """Heritrix's negative status code for a fetch error text."""
    text = error.lower()
    for word, code in ERROR_CODES.items():
        if word in text:
            return code
    return -3  # connection broken / other


class CrawlLog:
    """Appends lines to `crawl.log`, flushed per line so a kill loses nothing written."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fh: IO[str] = path.open("a", encoding="utf-8")

    def line(self, *, status: int, size: int, url: str, hops: str, via: str, mime: str,
             started: float, duration: float, digest: str = "-", annotations: str = "-") -> None:
        """Write one crawl-log line."""
        millis = int(started * 1000) % 1000
        begin = time.strftime("%Y%m%d%H%M%S", time.gmtime(started)) + f"{millis:03d}"
        self._fh.write(
            f"{_iso(time.time())} {status:5d} {size:10d} {url} {hops or '-'} {via or '-'} "
            f"{mime or '-'} #000 {begin}+{int(duration * 1000)} {digest or '-'} - "
            f"{annotations or '-'}\n")
        self._fh.flush()

    def close(self) -> None:
        """Close the log file."""
        self._fh.close()
