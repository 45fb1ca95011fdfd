"""RobotsPolicy: RFC 9309 status handling, matching by product token, redirects, expiry."""

from __future__ import annotations

import gzip

import pytest

from archiver.exchange import Exchange
from archiver.fetcher import Fetcher
from archiver.profile import Politeness
from archiver.robots import RobotsPolicy, robots_txt_url
from tests.servers import closed_port_url, serve_wsgi

UA = Politeness().user_agent     # the default: its "archiver" group below must apply
ROBOTS = """\
User-agent: *
Disallow: /private/
Crawl-delay: 2

User-agent: archiver
Disallow: /forum/posting.php
Allow: /forum/
Disallow: /search
Crawl-delay: 3.5

User-agent: otherbot
Disallow: /

Sitemap: https://forum.example.org/sitemap.xml
"""


def ex(url: str, status: int | None, body: bytes = b"", *headers: tuple[str, str],
       error: str = "") -> Exchange:
    return Exchange(url=url, started_at=0.0, status=status, body=body,
                    response_headers=headers, error=error)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def learned(text: str = ROBOTS, obey: bool = True, ua: str = UA) -> RobotsPolicy:
    policy = RobotsPolicy(ua, obey)
    url = policy.needs("https://forum.example.org/")
    assert url == "https://forum.example.org/robots.txt"
    policy.learn(url, ex(url, 200, text.encode()))
    return policy


def test_robots_txt_url() -> None:
    assert robots_txt_url("HTTPS://Forum.Example.org/a/b?c#d") == \
        "https://forum.example.org/robots.txt"
    assert robots_txt_url("http://h.org:80/x") == "http://h.org/robots.txt"
    assert robots_txt_url("http://h.org:8080/x") == "http://h.org:8080/robots.txt"
    assert robots_txt_url("http://[::1]:8080/x") == "http://[::1]:8080/robots.txt"
    assert robots_txt_url("mailto:a@b.org") is None


def test_needs_until_learned_then_none() -> None:
    policy = RobotsPolicy(UA)
    assert policy.needs("https://forum.example.org/forum/") == \
        "https://forum.example.org/robots.txt"
    assert not policy.allowed("https://forum.example.org/forum/")
    assert policy.why("https://forum.example.org/forum/") == "robots.txt not fetched yet"
    policy.learn("https://forum.example.org/robots.txt",
                 ex("https://forum.example.org/robots.txt", 200, ROBOTS.encode()))
    assert policy.needs("https://forum.example.org/forum/") is None
    # Another origin (scheme or port differ) is separate.
    assert policy.needs("http://forum.example.org/") == "http://forum.example.org/robots.txt"
    assert policy.needs("https://forum.example.org:8443/") == \
        "https://forum.example.org:8443/robots.txt"


def test_allow_and_disallow_for_our_product_token() -> None:
    policy = learned()
    base = "https://forum.example.org"
    assert policy.allowed(base + "/forum/viewtopic.php?t=1")
    assert not policy.allowed(base + "/forum/posting.php?mode=reply")
    assert not policy.allowed(base + "/search?q=x")
    assert policy.why(base + "/search?q=x") == "disallowed"
    # Our group replaces "*": /private/ is allowed for archiver.
    assert policy.allowed(base + "/private/x")
    # robots.txt itself is always allowed.
    assert policy.allowed(base + "/robots.txt")


def test_the_default_user_agent_names_a_robot() -> None:
    """Sites that sniff the User-Agent give robots the whole page (HyperKitty's threads hold
    their replies only for a name its robot_detection knows: "bot", "crawler", "spider")."""
    assert RobotsPolicy(UA).token == "archiver-bot"
    assert UA.startswith("archiver-bot/") and "+http" in UA    # who we are, how to reach us


def test_star_group_when_no_group_names_us() -> None:
    policy = learned(ua="SomeCrawler/2.0")
    base = "https://forum.example.org"
    assert not policy.allowed(base + "/private/x")
    assert policy.allowed(base + "/search")
    assert policy.crawl_delay(base + "/") == 2.0


def test_crawl_delay_and_request_rate_and_cap() -> None:
    assert learned().crawl_delay("https://forum.example.org/") == 3.5
    assert learned("User-agent: *\nRequest-rate: 1/10\n").crawl_delay(
        "https://forum.example.org/") == 10.0
    assert learned("User-agent: *\nCrawl-delay: 86400\n").crawl_delay(
        "https://forum.example.org/") == 300.0
    assert learned("User-agent: *\nDisallow:\n").crawl_delay("https://forum.example.org/") is None
    assert RobotsPolicy(UA).crawl_delay("https://forum.example.org/") is None


def test_sitemaps() -> None:
    assert learned().sitemaps("https://forum.example.org/x") == [
        "https://forum.example.org/sitemap.xml"]
    assert learned(obey=False).sitemaps("https://forum.example.org/x") == [
        "https://forum.example.org/sitemap.xml"]
    assert RobotsPolicy(UA).sitemaps("https://forum.example.org/x") == []


@pytest.mark.parametrize("status", [400, 401, 403, 404, 410])
def test_4xx_allows_all(status: int) -> None:
    policy = RobotsPolicy(UA)
    url = "https://h.org/robots.txt"
    policy.learn(url, ex(url, status))
    assert policy.needs("https://h.org/x") is None
    assert policy.allowed("https://h.org/anything")
    assert policy.crawl_delay("https://h.org/anything") is None


@pytest.mark.parametrize(("status", "error"), [
    (500, ""), (503, ""), (429, ""), (None, "connection refused"), (None, "timeout after 30s")])
def test_unreachable_disallows_all_then_retries(status: int | None, error: str) -> None:
    clock = Clock()
    policy = RobotsPolicy(UA, clock=clock, retry_unreachable=600)
    url = "https://h.org/robots.txt"
    policy.learn(url, ex(url, status, error=error))
    assert not policy.allowed("https://h.org/x")
    assert policy.why("https://h.org/x").startswith("robots.txt unreachable")
    assert policy.needs("https://h.org/x") is None
    clock.now = 601
    assert policy.needs("https://h.org/x") == url
    policy.learn(url, ex(url, 200, b"User-agent: *\nDisallow: /no\n"))
    assert policy.allowed("https://h.org/x")
    assert not policy.allowed("https://h.org/no")


def test_expiry_refetches_and_keeps_old_copy_if_unreachable() -> None:
    clock = Clock()
    policy = RobotsPolicy(UA, clock=clock, max_age=86400)
    url = "https://h.org/robots.txt"
    policy.learn(url, ex(url, 200, b"User-agent: *\nDisallow: /no\n"))
    clock.now = 86401
    assert policy.needs("https://h.org/x") == url
    policy.learn(url, ex(url, 503))
    # RFC 9309 §2.4: while unreachable, the cached copy still applies.
    assert policy.allowed("https://h.org/x")
    assert not policy.allowed("https://h.org/no")


def test_obey_false_allows_everything_but_still_asks_for_robots() -> None:
    policy = RobotsPolicy(UA, obey=False)
    url = policy.needs("https://h.org/x")
    assert url == "https://h.org/robots.txt"
    assert policy.allowed("https://h.org/x")  # even before learning
    policy.learn(url, ex(url, 200, b"User-agent: *\nDisallow: /\nCrawl-delay: 9\n"))
    assert policy.allowed("https://h.org/x")
    assert policy.crawl_delay("https://h.org/x") is None
    policy.learn(url, ex(url, 503))
    assert policy.allowed("https://h.org/x")


def test_redirect_is_followed_and_applies_to_the_origin() -> None:
    policy = RobotsPolicy(UA)
    first = policy.needs("http://h.org/page")
    assert first == "http://h.org/robots.txt"
    policy.learn(first, ex(first, 301, b"", ("Location", "https://h.org/robots.txt")))
    second = policy.needs("http://h.org/page")
    assert second == "https://h.org/robots.txt"
    policy.learn(second, ex(second, 200, b"User-agent: *\nDisallow: /page\n"))
    assert policy.needs("http://h.org/page") is None
    assert not policy.allowed("http://h.org/page")
    # The target's own origin learned it too.
    assert policy.needs("https://h.org/") is None
    assert not policy.allowed("https://h.org/page")


def test_redirect_loop_ends_after_five_hops_with_allow_all() -> None:
    policy = RobotsPolicy(UA)
    fetched = []
    while (url := policy.needs("http://h.org/x")) is not None:
        fetched.append(url)
        assert len(fetched) < 10
        policy.learn(url, ex(url, 302, b"", ("Location", f"/loop{len(fetched)}")))
    assert len(fetched) == 6  # the original plus five redirects
    assert policy.allowed("http://h.org/x")


def test_gzip_encoded_robots_and_bom() -> None:
    policy = RobotsPolicy(UA)
    url = "https://h.org/robots.txt"
    body = gzip.compress("\ufeffUser-agent: *\nDisallow: /no\n".encode())
    policy.learn(url, ex(url, 200, body, ("Content-Encoding", "gzip")))
    assert not policy.allowed("https://h.org/no")
    assert policy.allowed("https://h.org/yes")


def test_against_a_local_server() -> None:
    def app(environ, start_response):
        if environ["PATH_INFO"] == "/robots.txt":
            body = b"User-agent: archiver\nDisallow: /secret\nCrawl-delay: 1\n"
            start_response("200 OK", [("Content-Type", "text/plain")])
            return [body]
        start_response("404 Not Found", [])
        return [b""]

    with serve_wsgi(app) as base, Fetcher(UA) as fetcher:
        policy = RobotsPolicy(UA)
        while (url := policy.needs(base + "/secret/x")) is not None:
            policy.learn(url, fetcher.fetch(url))
        assert not policy.allowed(base + "/secret/x")
        assert policy.allowed(base + "/public")
        assert policy.crawl_delay(base + "/") == 1.0

        down = RobotsPolicy(UA)
        dead = closed_port_url()
        while (url := down.needs(dead)) is not None:
            down.learn(url, fetcher.fetch(url))
        assert not down.allowed(dead)
        assert "connection refused" in down.why(dead)
