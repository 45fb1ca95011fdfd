"""Different URLs with the same page (DUST): URL rewrite rules learned from the crawl's own
duplicates, an extension of SOUrCe (`archiver.strategies.source`) after Bar-Yossef, Keidar &
Schonfeld (2009) and Dasgupta, Kumar & Sasturkar (2008).

A CMS reaches one page under several URLs, and its templates link all of them: FlaskBB links
a topic as ``/topic/12-slug``, ``/topic/12?page=2`` (a forum's page links) and
``/topic/12-slug?page=1`` (where a post's permalink redirects). The duplicate-view rates
(`archiver.learning.duplicates`) say how often a kind of link led to a known page, and the
self views (`archiver.learning.selfviews`) catch a link back to the page holding it; neither
knows that ``/topic/12?page=2`` is the ``/topic/12-slug?page=2`` fetched an hour ago. On a
real FlaskBB, 121 of source-ucc's 1,207 requests fetched a topic page already fetched under
another URL.

Two kinds of rule, each scoped to a path *shape* (the path with every segment that starts with
a number written as ``N`` and the slug after one as ``S``: ``/topic/N``, ``/topic/N/S/``),
are learned from pairs of fetched pages with the same digest (`archiver.page.page_digest`)
whose URLs differ only by them:

- a default query argument: ``page=1`` dropped from ``/topic/N`` URLs;
- an id-and-slug path segment: in segment ``i`` of ``/topic/N`` URLs only the leading number
  counts (``12-slug``, ``12-other-slug`` and ``12`` are one page).

A third kind is scoped to a script's path: the rest of the path after it is the value of
one query argument (PHP's PATH_INFO): ``/index.php/Castle`` is ``/index.php?title=Castle``
(MediaWiki without a rel=canonical, as old installations and the zoo's MonoBook-like wiki
serve it), ``/doku.php/start`` is ``/doku.php?id=start``. A URL is rewritten to the query
form. On the zoo wiki (variant 1) source-ucc met a sixth of the articles first through old
``/index.php/Title`` links in article text, and then fetched 92 of them again from "what
links here" lists under ``?title=``; with the rule it stops after 1,006 requests instead
of 1,106 (recall within the budget 0.742 -> 0.752). Every other zoo crawl and all eight
real sites (the real MediaWiki and DokuWiki emit rel=canonical) are identical.

A fourth kind is the site's: paths that differ in letter case alone are one page, as a
server that looks its pages up without regard to case serves them (IIS and the sites on
it, a real An Otter Wiki: its sidebar names each page in title case, ``/Map Weather``,
where the page's own links and the text's links write ``/Map weather``). On that wiki
53 of source-ucc's 660 requests (draw 0) fetched a page again under its other spelling.
A URL is rewritten to its path in lower case. A site whose paths keep their case shows
no such pairs (or contradicts the rule with its first two pages that differ in case
alone), and the rule never holds.

A rule holds once `MIN_SUPPORT` pairs showed it and at most one pair in ten contradicted it
(two fetched pages whose URLs the rule makes equal, with different digests). A link whose URL,
rewritten by the rules that hold, is the rewritten URL of a fetched page is a known view of
that page. Rules are learned from fetches only, so a site where the slug matters (a number
that is not an id) contradicts the rule with its first two pages that differ, and it never
holds.

The state is not saved with the model: a resumed crawl learns it again while replaying its
earlier fetches (`archiver.replay`).

References
----------
Bar-Yossef, Keidar & Schonfeld (2009), "Do not crawl in the DUST: different URLs with similar
text", ACM TWEB 3(1). Dasgupta, Kumar & Sasturkar (2008), "De-duping URLs via rewrite rules",
KDD.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

__all__ = ["MIN_SUPPORT", "Dust"]

MIN_SUPPORT = 3        # pairs of same-page URLs a rule needs before it is used
MAX_PER_DIGEST = 4     # fetched URLs remembered per page digest (pairs are formed with them)
_NUMBER = re.compile(r"^(\d+)(?=\D|$)")

# ("query", shape, "name=value"), ("segment", shape, index), ("pathinfo", script, name) or
# ("case", scheme://host, "")
Rule = tuple[str, str, str | int]


def _parts(url: str) -> tuple[str, list[str], list[tuple[str, str]]]:
    """(scheme://host, path segments, query pairs) of `url`."""
    s = urlsplit(url)
    return (f"{s.scheme}://{s.netloc}", s.path.split("/"),
            parse_qsl(s.query, keep_blank_values=True))


def _shape(origin: str, segments: list[str]) -> str:
    """The path with every segment that starts with a number written ``N`` and the segment
    after one written ``S`` (a slug: ``/topic/63/recipe-weld/`` is ``/topic/N/S/``, as
    Spirit, Askbot and Stack Exchange write a thread's URL; FlaskBB's ``/topic/12-slug``
    is one segment, ``/topic/N``)."""
    out: list[str] = []
    after_id = False
    for seg in segments:
        numbered = bool(_NUMBER.match(seg))
        out.append("N" if numbered else "S" if after_id and seg else seg)
        after_id = numbered
    return origin + "/".join(out)


@dataclass
class Dust:
    """Rewrite rules learned from same-page URLs, and the fetched pages they name (module
    docstring). `cluster_of` gives a fetched page's cluster (-1 when not known)."""

    cluster_of: Callable[[str], int]
    support: dict[Rule, int] = field(default_factory=dict)
    against: dict[Rule, int] = field(default_factory=dict)
    _by_digest: dict[bytes, list[str]] = field(default_factory=dict)
    _digest: dict[str, bytes] = field(default_factory=dict)     # fetched URL → digest
    _rewritten: dict[Rule, dict[str, bytes]] = field(default_factory=dict)
    _holding: frozenset[Rule] = frozenset()
    _index: dict[str, str] = field(default_factory=dict)    # rewritten URL → a fetched URL
    _memo: dict[str, str] = field(default_factory=dict)     # URL → `rewrite` (menus repeat)

    def page(self, url: str, digest: bytes) -> None:
        """A fetched page and its digest."""
        if not digest or url in self._digest:
            return
        self._digest[url] = digest
        same = self._by_digest.setdefault(digest, [])
        for other in same:
            for rule in _rules_between(other, url):
                self.support[rule] = self.support.get(rule, 0) + 1
                self._check(rule)
        if len(same) < MAX_PER_DIGEST:
            same.append(url)
        for rule in list(self._rewritten):
            self._test(rule, url, digest)
        self._refresh()
        self._index.setdefault(self.rewrite(url), url)

    def holds(self, rule: Rule) -> bool:
        n = self.support.get(rule, 0)
        return n >= MIN_SUPPORT and 10 * self.against.get(rule, 0) <= n

    def rewrite(self, url: str) -> str:
        """`url` rewritten by every rule that holds (memoised until the rules change)."""
        if not self._holding:
            return url
        hit = self._memo.get(url)
        if hit is None:
            if len(self._memo) > 200_000:
                self._memo.clear()
            hit = self._memo[url] = self._rewrite(url)
        return hit

    def _rewrite(self, url: str) -> str:
        origin, segments, query = _parts(url)
        for kind, where, what in self._holding:
            if kind == "pathinfo":
                segments, query = _to_query(origin, segments, query, where, str(what))
        shape = _shape(origin, segments)
        for kind, where, what in self._holding:
            if where != shape or kind in ("pathinfo", "case"):
                continue
            if kind == "segment":
                i = int(what)
                match = _NUMBER.match(segments[i])
                if match:
                    segments[i] = match.group(1)
            else:
                query = [pair for pair in query if f"{pair[0]}={pair[1]}" != what]
        if ("case", origin, "") in self._holding:       # last: shapes keep their case
            segments = _folded(segments)
        s = urlsplit(url)
        return urlunsplit((s.scheme, s.netloc, "/".join(segments), urlencode(sorted(query)),
                           ""))

    def view(self, url: str) -> int | None:
        """If `url` is not fetched and names a fetched page by the rules that hold: that
        page's cluster; else None."""
        if not self._holding or url in self._digest:
            return None
        page = self._index.get(self.rewrite(url))
        return None if page is None or page == url else self.cluster_of(page)

    # --- rules ------------------------------------------------------------------------------
    def _check(self, rule: Rule) -> None:
        """Start testing a newly supported rule against every page fetched so far."""
        if rule in self._rewritten:
            return
        self._rewritten[rule] = {}
        for url, digest in self._digest.items():
            self._test(rule, url, digest)

    def _test(self, rule: Rule, url: str, digest: bytes) -> None:
        """Count a contradiction when `rule` makes `url` equal to a fetched page with
        another digest."""
        key = _apply(rule, url)
        if key is None:
            return
        seen = self._rewritten[rule].setdefault(key, digest)
        if seen != digest:
            self.against[rule] = self.against.get(rule, 0) + 1

    def _refresh(self) -> None:
        holding = frozenset(rule for rule in self._rewritten if self.holds(rule))
        if holding != self._holding:
            self._holding = holding
            self._memo.clear()
            self._index = {}
            for url in self._digest:
                self._index.setdefault(self.rewrite(url), url)


def _apply(rule: Rule, url: str) -> str | None:
    """`url` rewritten by `rule` alone, None when the rule does not apply to it."""
    kind, where, what = rule
    origin, segments, query = _parts(url)
    if kind == "case":
        if origin != where:
            return None
        return origin + "/".join(_folded(segments)) + "?" + urlencode(sorted(query))
    if kind == "pathinfo":
        path = origin + "/".join(segments)
        if path != where and not path.startswith(where + "/"):
            return None
        segments, query = _to_query(origin, segments, query, where, str(what))
        return origin + "/".join(segments) + "?" + urlencode(sorted(query))
    if _shape(origin, segments) != where:
        return None
    if kind == "segment":
        match = _NUMBER.match(segments[int(what)])
        segments[int(what)] = match.group(1) if match else segments[int(what)]
    else:
        query = [pair for pair in query if f"{pair[0]}={pair[1]}" != what]
    return origin + "/".join(segments) + "?" + urlencode(sorted(query))


def _to_query(origin: str, segments: list[str], query: list[tuple[str, str]], where: str,
              name: str) -> tuple[list[str], list[tuple[str, str]]]:
    """A URL's path and query with the rest of its path after the script `where` moved into
    the query argument `name` (a "pathinfo" rule); unchanged when its path does not go on
    after that script, or when it already has the argument."""
    path = origin + "/".join(segments)
    if not path.startswith(where + "/") or any(k == name for k, _ in query):
        return segments, query
    rest = unquote(path[len(where) + 1:])
    return (where[len(origin):].split("/"), [*query, (name, rest)]) if rest else \
        (segments, query)


def _pathinfo_rule(a: str, b: str) -> Rule | None:
    """The "pathinfo" rule under which two URLs of one page are equal: one is a script's
    path plus a rest (``/index.php/Castle``), the other the script's path with the rest as
    the value of one query argument (``/index.php?title=Castle``), and their other query
    arguments are the same."""
    for long_url, short_url in ((a, b), (b, a)):
        origin_l, seg_l, query_l = _parts(long_url)
        origin_s, seg_s, query_s = _parts(short_url)
        script = origin_s + "/".join(seg_s)
        path = origin_l + "/".join(seg_l)
        if origin_l != origin_s or not path.startswith(script + "/") or seg_s[-1] == "":
            continue
        rest = unquote(path[len(script) + 1:])
        extra = [pair for pair in query_s if pair not in query_l]
        if len(extra) == 1 and extra[0][1] == rest and \
                sorted(query_l) == sorted(p for p in query_s if p != extra[0]):
            return ("pathinfo", script, extra[0][0])
    return None


def _folded(segments: list[str]) -> list[str]:
    """Path segments as a server that ignores letter case reads them (a "case" rule)."""
    return [unquote(seg).lower() for seg in segments]


def _rules_between(a: str, b: str) -> list[Rule]:
    """The rules under which two URLs of one page are equal: at most one path segment that
    differs but for its leading number, and query arguments that only one of them has; or
    the rest of one's path as a query argument of the other (`_pathinfo_rule`); or paths
    that differ in letter case alone, with the same query (a "case" rule of the site)."""
    origin_a, seg_a, query_a = _parts(a)
    origin_b, seg_b, query_b = _parts(b)
    if origin_a == origin_b and list(map(unquote, seg_a)) != list(map(unquote, seg_b)) \
            and _folded(seg_a) == _folded(seg_b) and sorted(query_a) == sorted(query_b):
        return [("case", origin_a, "")]
    if origin_a == origin_b and len(seg_a) != len(seg_b):
        rule = _pathinfo_rule(a, b)
        return [rule] if rule is not None else []
    if origin_a != origin_b:
        return []
    shape = _shape(origin_a, seg_a)
    if shape != _shape(origin_b, seg_b):
        return []
    rules: list[Rule] = []
    for i, (x, y) in enumerate(zip(seg_a, seg_b, strict=True)):
        if x == y:
            continue
        mx, my = _NUMBER.match(x), _NUMBER.match(y)
        if not (mx and my and mx.group(1) == my.group(1)) or any(r[0] == "segment"
                                                               for r in rules):
            return []
        rules.append(("segment", shape, i))
    only_a, only_b = set(query_a) - set(query_b), set(query_b) - set(query_a)
    if only_a and only_b:
        return []
    rules += [("query", shape, f"{k}={v}") for k, v in sorted(only_a | only_b)]
    return rules
