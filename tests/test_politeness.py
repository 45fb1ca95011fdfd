"""Politeness: fake-clock unit tests, plus one real-time test with a negative control."""

from __future__ import annotations

import time

import pytest

from archiver.fetcher import Fetcher
from archiver.politeness import Politeness
from archiver.urls import host_key
from tests.servers import serve_wsgi


class Clock:
    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_unknown_host_is_ready_now() -> None:
    clock = Clock()
    p = Politeness(1.0, clock)
    assert p.ready_at("a.org") == 100.0
    assert p.wait_time("a.org") == 0.0


def test_delay_between_fetches_per_host() -> None:
    clock = Clock()
    p = Politeness(1.5, clock)
    p.fetched("a.org")
    assert p.ready_at("a.org") == 101.5
    assert p.wait_time("a.org") == 1.5
    assert p.wait_time("b.org") == 0.0  # hosts are independent
    clock.now = 101.0
    assert p.wait_time("a.org") == pytest.approx(0.5)
    clock.now = 102.0
    assert p.wait_time("a.org") == 0.0


def test_crawl_delay_wins_when_longer() -> None:
    clock = Clock()
    p = Politeness(1.0, clock)
    p.fetched("a.org", crawl_delay=5.0)
    assert p.ready_at("a.org") == 105.0
    p.fetched("b.org", crawl_delay=0.2)  # shorter than our own delay: ours applies
    assert p.ready_at("b.org") == 101.0
    p.fetched("c.org", crawl_delay=None)
    assert p.ready_at("c.org") == 101.0


def test_a_long_retry_after_is_not_shortened_by_a_later_fetch() -> None:
    clock = Clock()
    p = Politeness(1.0, clock)
    p.fetched("a.org", crawl_delay=60.0)  # e.g. 429 Retry-After: 60
    p.fetched("a.org")                    # robots.txt fetched meanwhile
    assert p.ready_at("a.org") == 160.0


def test_zero_delay_and_negative_rejected() -> None:
    clock = Clock()
    p = Politeness(0.0, clock)
    p.fetched("a.org")
    assert p.wait_time("a.org") == 0.0
    with pytest.raises(ValueError, match="delay must be >= 0"):
        Politeness(-1.0)


def _crawl(base: str, delay: float, n: int) -> float:
    politeness = Politeness(delay)
    host = host_key(base)
    start = time.monotonic()
    with Fetcher("archiver-test/0.1") as fetcher:
        for _ in range(n):
            time.sleep(politeness.wait_time(host))
            assert fetcher.fetch(base + "/").status == 200
            politeness.fetched(host)
    return time.monotonic() - start


def test_real_time_delay_with_negative_control() -> None:
    def app(environ, start_response):
        start_response("200 OK", [("Content-Length", "2")])
        return [b"ok"]

    with serve_wsgi(app) as base:
        polite = _crawl(base, 0.2, 5)
        control = _crawl(base, 0.0, 5)
    assert polite >= 4 * 0.2       # four gaps between five fetches
    assert control < 0.4           # the same fetches without a delay are much quicker
