"""robots.txt policy per origin (RFC 9309), parsed with Protego; the crawl loop does the fetching.

The loop asks `needs(url)` before fetching a URL; while it returns a robots.txt URL, the loop
fetches and archives that URL and hands the exchange to `learn`:

    while (robots_url := robots.needs(url)) is not None:
        ex = fetcher.fetch(robots_url)          # archived like any fetch; exempt from scope
        robots.learn(robots_url, ex)
    if not robots.allowed(url): mark(url, "robots:" + robots.why(url))

That loop always ends: each `learn` either settles the origin or follows one of at most five
redirects. With ``obey=False`` robots.txt is still fetched (archivists want it in the WARC and
its sitemaps are useful) but every URL is allowed and Crawl-delay is ignored.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urljoin, urlsplit

from protego import Protego

from archiver.exchange import Exchange
from archiver.fetcher import decoded_body

MAX_REDIRECTS = 5  # RFC 9309 §2.3.1.2: follow at least five consecutive redirects
_DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(slots=True)
class _Rules:
    """What is known about one origin's robots.txt."""

    parser: Protego | None   # parsed rules, or None for a blanket allow/deny
    allow_all: bool          # used when parser is None
    reason: str              # why URLs are refused when the rule is blanket-deny
    expires: float           # clock time after which `needs` asks for a fresh copy


@lru_cache(maxsize=256)
def _origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an http(s) URL, or None (memoised: asked for every URL)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").rstrip(".")
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    return scheme, host, port or _DEFAULT_PORTS[scheme]


def robots_txt_url(url: str) -> str | None:
    """The robots.txt URL governing `url` (scheme://host[:port]/robots.txt), None if not http(s)."""
    origin = _origin(url)
    if origin is None:
        return None
    scheme, host, port = origin
    netloc = f"[{host}]" if ":" in host else host
    if port != _DEFAULT_PORTS[scheme]:
        netloc += f":{port}"
    return f"{scheme}://{netloc}/robots.txt"


class RobotsPolicy:
    """Per-origin robots.txt rules for one user agent, cached in the object.

    Parameters
    ----------
    user_agent : str
        The crawler's User-Agent; rules are matched on its product token (the text before the
        first "/", e.g. "archiver-bot" for "archiver-bot/0.1 (+https://...)"; a group
        for "archiver" matches it too: Protego matches a group's name as a substring).
    obey : bool
        False for the profile's ``robots: ignore``.
    clock : callable
        Monotonic seconds, for cache expiry; injectable for tests.
    max_age : float
        Re-fetch robots.txt after this long (RFC 9309 §2.4: at most 24 hours).
    retry_unreachable : float
        After a 5xx or network failure the origin is disallowed (§2.3.1.4) and robots.txt is
        asked for again after this many seconds.
    max_crawl_delay : float
        Cap on a Crawl-delay (as Heritrix's respectCrawlDelayUpToSeconds, 300 s), so one
        robots.txt saying "Crawl-delay: 86400" cannot stall a job.
    """

    def __init__(
        self,
        user_agent: str,
        obey: bool = True,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_age: float = 86400.0,
        retry_unreachable: float = 600.0,
        max_crawl_delay: float = 300.0,
    ) -> None:
        self.token = (user_agent.split("/", 1)[0].split() or ["*"])[0].lower()
        self.obey = obey
        self.clock = clock
        self.max_age = max_age
        self.retry_unreachable = retry_unreachable
        self.max_crawl_delay = max_crawl_delay
        self._rules: dict[tuple[str, str, int], _Rules] = {}
        self._redirects: dict[tuple[str, str, int], tuple[str, int]] = {}  # target URL, hops

    def needs(self, url: str) -> str | None:
        """The robots.txt URL to fetch before `url` (or a redirect target of it), else None."""
        origin = _origin(url)
        if origin is None:
            return None
        rules = self._rules.get(origin)
        if rules is not None and self.clock() < rules.expires:
            return None
        if origin in self._redirects:
            return self._redirects[origin][0]
        return robots_txt_url(url)

    def learn(self, robots_url: str, ex: Exchange) -> None:
        """Take the fetched robots.txt (or redirect hop) `ex` for the URL `needs` returned.

        2xx: parse. 3xx: follow Location (up to five hops, then allow all). 4xx except 429:
        no robots.txt, allow all (§2.3.1.3). 429, 5xx, no response: disallow all for now
        (§2.3.1.4; Google treats 429 the same), but keep an earlier good copy if there is one
        (§2.4). A redirect target's rules apply to the origin that redirected.
        """
        origins = [o for o, (target, _) in self._redirects.items() if target == robots_url]
        own = _origin(robots_url)
        if own is not None and urlsplit(robots_url).path == "/robots.txt" and own not in origins:
            origins.append(own)
        now = self.clock()
        for origin in origins:
            hops = self._redirects.pop(origin, ("", 0))[1]
            status = ex.status
            if status is not None and 300 <= status < 400:
                location = ex.header("Location").strip()
                if location and hops < MAX_REDIRECTS:
                    self._redirects[origin] = (urljoin(robots_url, location), hops + 1)
                    continue
                rules = _Rules(None, True, "", now + self.max_age)
            elif status is not None and 200 <= status < 300:
                text = decoded_body(ex).decode("utf-8-sig", errors="replace")
                rules = _Rules(Protego.parse(text), True, "", now + self.max_age)
            elif status is not None and 400 <= status < 500 and status != 429:
                rules = _Rules(None, True, "", now + self.max_age)
            else:
                why = f"robots.txt unreachable ({status or ex.error or 'no response'})"
                old = self._rules.get(origin)
                if old is not None and old.parser is not None:
                    old.expires = now + self.retry_unreachable
                    continue
                rules = _Rules(None, False, why, now + self.retry_unreachable)
            self._rules[origin] = rules

    def allowed(self, url: str) -> bool:
        """Whether robots.txt lets us fetch `url` (False until its origin has been learned)."""
        return not self.why(url)

    def why(self, url: str) -> str:
        """'' if `url` may be fetched, else a short reason ("disallowed", "robots.txt ...")."""
        if not self.obey:
            return ""
        origin = _origin(url)
        rules = self._rules.get(origin) if origin is not None else None
        if rules is None:
            return "robots.txt not fetched yet" if origin is not None else "not an http(s) URL"
        if rules.parser is not None:
            return "" if rules.parser.can_fetch(url, self.token) else "disallowed"
        return "" if rules.allow_all else rules.reason

    def crawl_delay(self, url: str) -> float | None:
        """Seconds between requests the origin asks of us (Crawl-delay or Request-rate)."""
        parser = self._parser(url)
        if not self.obey or parser is None:
            return None
        delays = [parser.crawl_delay(self.token)]
        rate = parser.request_rate(self.token)
        if rate is not None and rate.requests > 0:
            delays.append(rate.seconds / rate.requests)
        found = [float(d) for d in delays if d is not None and d >= 0]
        return min(max(found), self.max_crawl_delay) if found else None

    def sitemaps(self, url: str) -> list[str]:
        """Sitemap URLs listed in the robots.txt of `url`'s origin (also when not obeying)."""
        parser = self._parser(url)
        return list(parser.sitemaps) if parser is not None else []

    def _parser(self, url: str) -> Protego | None:
        origin = _origin(url)
        rules = self._rules.get(origin) if origin is not None else None
        return rules.parser if rules is not None else None
