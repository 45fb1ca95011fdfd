"""Per-host politeness: when may each host next be fetched, read from an injected clock.

The crawl loop calls `fetched(host, crawl_delay)` after every request to a host (robots.txt
fetches and failed attempts included) and asks `wait_time(host)` / `ready_at(host)` before the
next. Hosts are `urls.host_key` strings. A 429/503 Retry-After can be honoured by passing it as
the crawl_delay of that fetch.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class Politeness:
    """Spacing between requests to the same host.

    Parameters
    ----------
    delay : float
        Minimum seconds between two requests to one host (profile politeness.delay).
    clock : callable
        Monotonic seconds; tests pass a fake clock and never sleep.
    """

    def __init__(self, delay: float, clock: Callable[[], float] = time.monotonic) -> None:
        if delay < 0:
            raise ValueError(f"politeness delay must be >= 0; got {delay!r}")
        self.delay = delay
        self.clock = clock
        self._ready: dict[str, float] = {}

    def ready_at(self, host: str) -> float:
        """Clock time at which `host` may next be fetched (now, if it never was)."""
        ready = self._ready.get(host)
        return self.clock() if ready is None else ready

    def wait_time(self, host: str) -> float:
        """Seconds to wait before fetching `host` (0 if it may be fetched now)."""
        return max(0.0, self.ready_at(host) - self.clock())

    def fetched(self, host: str, crawl_delay: float | None = None) -> None:
        """Record a request to `host` now; the next is allowed after max(delay, crawl_delay).

        Never moves the ready time earlier: a long Retry-After recorded before stays in force.
        """
        gap = max(self.delay, crawl_delay or 0.0)
        ready = self.clock() + gap
        self._ready[host] = max(ready, self._ready.get(host, ready))
