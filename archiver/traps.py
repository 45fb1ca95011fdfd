"""Crawler-trap guards: URLs that a site can generate without end (calendars, soft-404 loops).

Modelled on Heritrix's default decide rules: TooManyPathSegmentsDecideRule (path depth),
PathologicalPathDecideRule (repeated path segments, its regex reproduced exactly), plus a URL
length cap, a query-parameter cap, and a cap on distinct query strings per path. A limit of 0
or less disables its rule, as in Heritrix.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from urllib.parse import urlsplit

from archiver.urls import MEMO_SIZE, host_key

# (host, path) and the hash of the sorted query string: one "query variant" of a path.
_Variant = tuple[tuple[str, str], int]


@lru_cache(maxsize=8)
def _pathological(max_repetitions: int) -> re.Pattern[str]:
    """Heritrix's PathologicalPathDecideRule: `.*?/(.*?/)\\1{N,}.*`, matched on the whole URL.

    The group may span several segments, so /a/b/a/b/a/b/ is caught as well as /a/a/a/.
    """
    return re.compile(r".*?/(.*?/)\1{" + str(max_repetitions) + ",}.*")


def _longest_run(items: list[str]) -> int:
    longest = run = 0
    previous: str | None = None
    for item in items:
        run = run + 1 if item == previous else 1
        previous = item
        longest = max(longest, run)
    return longest


class TrapGuard:
    """Reject URLs that look like crawler traps; remembers query variants seen per path.

    Parameters
    ----------
    max_path_depth : int
        Most "/" characters allowed in the path (Heritrix counts them in the whole URI).
    max_repeated_segments : int
        N in Heritrix's pathological-path regex: a segment (or run of segments) may repeat
        N times after its first occurrence; /a/a/a/ is a trap with N=2. A final segment
        without a trailing slash counts too (/x/a/a/a).
    max_url_length : int
        Longest URL accepted, in characters.
    max_query_params : int
        Most "&"-separated query parameters.
    max_query_variants : int
        Distinct query strings (parameters order-insensitive) accepted per host and path;
        counted by `check` in memory. On resume, re-seed with `load_counts`.
    """

    def __init__(
        self,
        max_path_depth: int = 20,
        max_repeated_segments: int = 2,
        max_url_length: int = 2048,
        max_query_params: int = 10,
        max_query_variants: int = 200,
    ) -> None:
        self.max_path_depth = max_path_depth
        self.max_repeated_segments = max_repeated_segments
        self.max_url_length = max_url_length
        self.max_query_params = max_query_params
        self.max_query_variants = max_query_variants
        # (host, path) -> hashes of the sorted query strings accepted there. Python's str hash
        # is salted per process, which is fine: the counts live in memory and are rebuilt.
        self._variants: dict[tuple[str, str], set[int]] = {}
        self._shape = lru_cache(maxsize=MEMO_SIZE)(self._judge_shape)

    def check(self, url: str) -> str | None:
        """None if `url` looks fine (and its query variant is then counted), else the reason.

        Reasons: "trap:url-length", "trap:path-depth", "trap:repeated-segment",
        "trap:query-params", "trap:query-variants" (checked in that order).
        """
        reason, variant = self._shape(url)
        if reason is not None or variant is None:
            return reason
        key, query = variant  # the variant count is live state: never memoised
        seen = self._variants.setdefault(key, set())
        if query not in seen:
            if len(seen) >= self.max_query_variants:
                return "trap:query-variants"
            seen.add(query)
        return None

    def _judge_shape(self, url: str) -> tuple[str | None, _Variant | None]:
        """The rules that depend on the URL alone (memoised per URL by `check`): the reason
        to reject it, else its query variant when the variant rule must count it."""
        if 0 < self.max_url_length < len(url):
            return "trap:url-length", None  # first: it also bounds the regex below
        try:
            parts = urlsplit(url)
        except ValueError:
            return None, None  # not ours to judge: scope reports "bad-url"
        if 0 < self.max_path_depth < parts.path.count("/"):
            return "trap:path-depth", None
        if self.max_repeated_segments > 0 and self._repeats(url, parts.path):
            return "trap:repeated-segment", None
        params = _params(parts.query)
        if 0 < self.max_query_params < len(params):
            return "trap:query-params", None
        if self.max_query_variants > 0 and params:
            return None, _variant_key(url, parts.path, params)
        return None, None

    def remember(self, url: str) -> None:
        """Count `url`'s query variant without checking it (e.g. a URL already queued)."""
        try:
            parts = urlsplit(url)
        except ValueError:
            return
        params = _params(parts.query)
        if params:
            key, variant = _variant_key(url, parts.path, params)
            self._variants.setdefault(key, set()).add(variant)

    def load_counts(self, urls: Iterable[str]) -> None:
        """Re-seed the query-variant counts on resume, from the URLs already in the frontier."""
        for url in urls:
            self.remember(url)

    def variants(self, url: str) -> int:
        """How many distinct query strings have been counted for `url`'s host and path."""
        try:
            key = (host_key(url), urlsplit(url).path or "/")
        except ValueError:
            return 0
        return len(self._variants.get(key, ()))

    def _repeats(self, url: str, path: str) -> bool:
        limit = self.max_repeated_segments
        if _longest_run(path.split("/")[1:]) > limit:
            return True
        # The regex backtracks (tens of ms on a hostile 2 KB URL), so run it only when it can
        # match: every segment of a repeated group occurs more than `limit` times in the URL.
        pieces = Counter(url.split("/")[1:])
        if max(pieces.values(), default=0) <= limit:
            return False
        return _pathological(limit).fullmatch(url) is not None


def _params(query: str) -> list[str]:
    return [p for p in query.split("&") if p]


def _variant_key(url: str, path: str, params: list[str]) -> _Variant:
    return (host_key(url), path or "/"), hash("&".join(sorted(params)))
