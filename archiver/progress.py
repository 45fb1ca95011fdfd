"""Progress display: a live tqdm bar on a terminal, plain log lines otherwise."""

from __future__ import annotations

import logging
import sys
import time
from typing import Any

from archiver.crawl import Stats

logger = logging.getLogger("archiver.progress")
LOG_EVERY = 10.0  # seconds between plain progress lines


class Progress:
    """Callable given to `Crawl(on_progress=...)`: shows pages, bytes, queue, rate, errors."""

    def __init__(self, total: int, live: bool | None = None) -> None:
        self.live = sys.stderr.isatty() if live is None else live
        self.total = total
        self._last = 0.0
        self._bar: Any = None
        if self.live:
            from tqdm import tqdm

            self._bar = tqdm(total=total, unit="req", dynamic_ncols=True, file=sys.stderr)

    def __call__(self, stats: Stats) -> None:
        elapsed = max(1e-9, time.monotonic() - stats.started)
        if self._bar is not None:
            self._bar.n = stats.requests
            self._bar.set_postfix_str(
                f"pages={stats.pages} {_size(stats.bytes)} err={stats.errors} "
                f"{stats.pages / elapsed:.1f} pages/s", refresh=False)
            self._bar.refresh()
            return
        now = time.monotonic()
        if now - self._last >= LOG_EVERY:
            self._last = now
            logger.info("%d requests, %d pages, %s, %d errors, %.1f pages/s", stats.requests,
                        stats.pages, _size(stats.bytes), stats.errors, stats.pages / elapsed)

    def close(self) -> None:
        """Remove the live bar."""
        if self._bar is not None:
            self._bar.close()


def _size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000:
            return f"{n:.0f}{unit}" if unit == "B" else f"{n:.1f}{unit}"
        n /= 1000
    return f"{n:.1f}TB"
