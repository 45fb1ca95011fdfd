"""URL keys and crawl scope: canonical seen-set keys, host keys, and the profile's scope rules.

`canonicalize` builds on w3lib's `canonicalize_url` (Scrapy's request fingerprint) and, like
Heritrix's default canonicalization rules, drops session ids from the key so that one page
reached under many sessions is fetched once. The URL actually fetched is never rewritten.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from urllib.parse import urlsplit, urlunsplit

from w3lib.url import canonicalize_url

_DEFAULT_PORTS = {"http": 80, "https": 443}

# Session ids, after Heritrix's StripSessionIDs: `sid` and vBulletin's `s` only when the value
# is a 32-character token (so WordPress's search `?s=term` survives); Java/PHP/generic session
# parameters when the value looks like a token of 16+ characters (PHP >= 7.1 makes 26).
_TOKEN32 = re.compile(r"[0-9A-Za-z]{32}")
_LONG_TOKEN = re.compile(r"[0-9A-Za-z._!~-]{16,}")
_STRICT_NAMES = frozenset({"sid", "s"})
_LOOSE_NAMES = frozenset({"jsessionid", "phpsessid", "sessionid", "session_id"})
_ASP_NAME = re.compile(r"aspsessionid[a-z]{8}", re.IGNORECASE)
_ASP_VALUE = re.compile(r"[A-Za-z]{24}")
_PATH_JSESSIONID = re.compile(r";jsessionid=[^;/?#]*", re.IGNORECASE)
# How many distinct URLs the pure URL functions below remember their answer for. A site's
# menus and footers repeat the same links on every page, so most outlinks are answered from
# memory instead of being re-parsed by urllib and w3lib; the bound keeps memory flat (a few
# MB) on huge sites. The functions are pure, so a remembered answer is always the answer.
MEMO_SIZE = 16_384


def _is_session_param(pair: str) -> bool:
    name, _, value = pair.partition("=")
    lname = name.lower()
    if lname in _STRICT_NAMES:
        return _TOKEN32.fullmatch(value) is not None
    if lname in _LOOSE_NAMES:
        return _LONG_TOKEN.fullmatch(value) is not None
    return _ASP_NAME.fullmatch(name) is not None and _ASP_VALUE.fullmatch(value) is not None


def strip_session_ids(url: str) -> str:
    """`url` without session-id query parameters and without a `;jsessionid=` path parameter."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    path = _PATH_JSESSIONID.sub("", parts.path)
    pairs = [p for p in parts.query.split("&") if p]
    kept = [p for p in pairs if not _is_session_param(p)]
    query = parts.query if len(kept) == len(pairs) else "&".join(kept)
    return urlunsplit((parts.scheme, parts.netloc, path, query, parts.fragment))


def _norm_host(host: str) -> str:
    """Lower-case, no trailing dot, IDNA (punycode) for non-ASCII names."""
    host = host.strip().lower().rstrip(".")
    if not host.isascii():
        with contextlib.suppress(UnicodeError):  # not a valid IDN: keep it as written
            host = host.encode("idna").decode("ascii")
    return host


@lru_cache(maxsize=MEMO_SIZE)
def _split(url: str) -> tuple[str, str, int | None] | None:
    """(scheme, normalized host, port or None if default) of an http(s) URL, else None.

    Memoised: called for every outlink by `host_key` and `ScopeRules.check`."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = _norm_host(parts.hostname or "")
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    return scheme, host, None if port in (None, _DEFAULT_PORTS[scheme]) else port


def _join_host(host: str, port: int | None) -> str:
    bracketed = f"[{host}]" if ":" in host else host
    return bracketed if port is None else f"{bracketed}:{port}"


def path_of(url: str) -> str:
    """A URL without its query and fragment: the page a view parameter shows a view of,
    and the path a redirect lands on whatever its query."""
    return url.partition("#")[0].partition("?")[0]


@lru_cache(maxsize=MEMO_SIZE)
def canonicalize(url: str) -> str:
    """The seen-set key of `url`.

    Lower-case scheme and host, default port removed, empty path as "/", fragment dropped,
    query arguments sorted, percent-encoding normalized (w3lib), session ids removed
    (`strip_session_ids`). Never raises: a URL that cannot be parsed is its own key.
    Memoised (bounded LRU; `canonicalize.__wrapped__` is the uncached function): w3lib
    costs ~0.1 ms a URL and most outlinks repeat across pages.
    """
    try:
        canonical = canonicalize_url(strip_session_ids(url.strip()), keep_fragments=False)
        parts = urlsplit(canonical)
        split = _split(canonical)
    except ValueError:
        return url.strip()
    if split is None:
        return canonical
    scheme, host, port = split
    netloc = _join_host(host, port)
    if parts.username is not None:  # keep credentials: they select a different resource
        userinfo = parts.netloc.rpartition("@")[0]
        netloc = f"{userinfo}@{netloc}"
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))


def host_key(url: str) -> str:
    """Lower-case host[:port] of `url`, the port only if not the scheme's default ('' if none)."""
    split = _split(url)
    return "" if split is None else _join_host(split[1], split[2])


class ScopeRules:
    """Whether a discovered URL belongs to the crawl (profile `scope:` and `max_depth`).

    Host entries are lower-case ``host[:port]`` and match exactly (``example.org`` matches the
    default ports of http and https; ``example.org:8080`` only that port). An entry
    ``*.example.org`` matches every subdomain *and* example.org itself, as a Heritrix SURT
    prefix does. `include`/`exclude` regexes are searched (``re.search``) in the URL as
    discovered; if any `include` is given, a URL must match one.
    """

    def __init__(
        self,
        hosts: Iterable[str],
        include: Sequence[re.Pattern[str] | str] = (),
        exclude: Sequence[re.Pattern[str] | str] = (),
        max_depth: int = 30,
    ) -> None:
        self.exact: set[str] = set()
        self.wildcards: list[tuple[str, str]] = []   # (domain, ":port" or "")
        for entry in hosts:
            entry = entry.strip().lower()
            wildcard = entry.startswith("*.")
            host, port = _split_entry(entry[2:] if wildcard else entry)
            if wildcard:
                self.wildcards.append((host, port))
            else:
                self.exact.add(_join_host(host, int(port[1:]) if port else None))
        if not self.exact and not self.wildcards:
            raise ValueError("ScopeRules needs at least one host (the seeds' hosts by default)")
        self.include = [re.compile(p) if isinstance(p, str) else p for p in include]
        self.exclude = [re.compile(p) if isinstance(p, str) else p for p in exclude]
        self.max_depth = max_depth
        self._url_reason = lru_cache(maxsize=MEMO_SIZE)(self._judge_url)

    def host_in_scope(self, url: str) -> bool:
        """Whether the host (and port) of `url` is one of the scope's hosts."""
        key = host_key(url)
        if not key:
            return False
        if key in self.exact:
            return True
        host, port = _split_entry(key)
        return any(port == wport and (host == domain or host.endswith("." + domain))
                   for domain, wport in self.wildcards)

    def check(self, url: str, depth: int) -> str | None:
        """None if `url` at link depth `depth` is in scope, else the reason it is not.

        Reasons: "bad-url", "out-of-scope:host", "excluded:<pattern>", "out-of-scope:include",
        "too-deep" (checked in that order).
        """
        reason = self._url_reason(url)
        if reason is None and depth > self.max_depth:
            return "too-deep"
        return reason

    def _judge_url(self, url: str) -> str | None:
        """The reasons that depend on the URL alone (memoised per URL by `check`; the rules
        never change after construction)."""
        if _split(url) is None:
            return "bad-url"
        if not self.host_in_scope(url):
            return "out-of-scope:host"
        for pattern in self.exclude:
            if pattern.search(url):
                return f"excluded:{pattern.pattern}"
        if self.include and not any(p.search(url) for p in self.include):
            return "out-of-scope:include"
        return None


def _split_entry(entry: str) -> tuple[str, str]:
    """Split a scope entry: 'h:8080' -> ('h', ':8080'), '[::1]:81' -> ('::1', ':81').

    A default port (80, 443) is dropped, as `host_key` drops it: 'h:443' -> ('h', '').
    """
    if entry.startswith("["):
        host, _, rest = entry[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, sep, port = entry.rpartition(":")
        if not sep or ":" in host:
            host, port = entry, ""
    if not port.isdigit() or int(port) in _DEFAULT_PORTS.values():
        return _norm_host(host), ""
    return _norm_host(host), f":{int(port)}"
