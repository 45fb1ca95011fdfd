"""URL shapes: which links into the target cluster look like the example page (an extension
to SOUrCe's crawl-for-target, §4.4.2).

Structure alone cannot always tell one page type from another. WordPress renders author,
category, tag and date archives with one template, so they fall in one cluster, and
crawl-for-target with an author page as its example then spends its budget on category
archives (zoo blog: 11 author pages among 86 other archives in the target cluster, harvest
rate 0.10). The URL usually tells them apart: ``/author/bob/`` vs ``/category/news/``,
``/wiki/User:Bob`` vs ``/wiki/Paris``, ``/users/7/bob`` vs ``/questions/7/why``. iRobot
(Cai et al. 2008, §4.1) splits its layout clusters by URL pattern for the same reason.

A URL's *shape* is a list of tokens: its path segments (a MediaWiki-style
``Namespace:Title`` segment split after the colon), then its query parameters sorted by
name. All-digit tokens become ``#``; a namespace (``User:``) is kept. Any other path token
is kept literally only when it is a *keyword* of the site: among the sampled URLs whose
shape so far is the example's, it is seen at that position in at least `MIN_SUPPORT` of
them, and that position takes few values there (at most √n for n such URLs: ``author``,
``photos``, ``viewtopic.php`` among a site's first segments, not one of the many names
after ``/author/`` or ``/photos/``). The first token that is not a keyword becomes ``*``
and ends the shape: it is the slot of the entity (author, user, article), and what follows
is that entity's sub-pages (``page/2``, a tab). Of the query, only the parameters whose
value is such a word (``mode=viewprofile``) are kept; ids and numbers vary.

A URL matches the example's shape when the example's path tokens are a prefix of the URL's
(the author's second archive page ``/author/bob/page/2/`` matches ``/author/*``), it has
each of the example's kept query parameters, and it has no word-valued parameter the
example lacks (``?tab=activity``, ``?view=print``, ``?action=history`` select another view
of the entity than the example's).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

MIN_SUPPORT = 4     # minPts: a token seen in fewer sampled URLs is not known to be a keyword
WILD = "*"
NUMBER = "#"


def _path_tokens(url: str) -> list[str]:
    tokens: list[str] = []
    for segment in urlsplit(url).path.split("/"):
        if not segment:
            continue
        head, colon, rest = segment.partition(":")
        if colon and head and rest and head.isalpha():   # Namespace:Title
            tokens += [head + ":", rest]
        else:
            tokens.append(segment)
    return [NUMBER if t.isdigit() else t for t in tokens]


def _query_tokens(url: str) -> list[tuple[str, str]]:
    pairs = parse_qsl(urlsplit(url).query, keep_blank_values=True)
    return sorted((k, NUMBER if v.isdigit() else v) for k, v in pairs)


@dataclass(frozen=True)
class UrlShape:
    """The generalised shape of one URL; see the module docstring."""

    path: tuple[str, ...]
    query: tuple[tuple[str, str], ...]          # kept parameters: (name, word)
    names: tuple[str, ...] = ()                 # every parameter name of the example

    def matches(self, url: str) -> bool:
        """Whether `url` has this shape (this shape's path a prefix of its path, and this
        shape's query parameters among its parameters)."""
        if not self.matches_path(url):
            return False
        have = _query_tokens(url)
        if any(k not in self.names and v.isalpha() for k, v in have):
            return False            # a view the example is not: ?tab=activity, ?view=print
        return all(pair in have for pair in self.query)

    def matches_path(self, url: str) -> bool:
        """Whether this shape's path is a prefix of `url`'s (the query left aside)."""
        path = _path_tokens(url)
        return len(path) >= len(self.path) and all(
            want in (WILD, got) for want, got in zip(self.path, path, strict=False))

    def to_json(self) -> dict[str, list[str] | list[list[str]]]:
        return {"path": list(self.path), "query": [list(q) for q in self.query],
                "names": list(self.names)}

    @classmethod
    def from_json(cls, data: dict[str, Sequence[object]]) -> UrlShape:
        path = tuple(str(t) for t in data.get("path", ()))
        query: list[tuple[str, str]] = []
        for pair in data.get("query", ()):
            if not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2:
                raise ValueError(f"url shape: a query token must be [name, value]; got {pair!r}")
            query.append((str(pair[0]), str(pair[1])))
        return cls(path, tuple(query), tuple(str(n) for n in data.get("names", ())))

    def __str__(self) -> str:
        path = "/" + "/".join(self.path)
        query = "&".join(f"{k}={v}" for k, v in self.query)
        return path + ("?" + query if query else "")


def learn_shape(example: str, sample: Iterable[str]) -> UrlShape:
    """The shape of `example`, with keywords learned from the sampled URLs `sample`."""
    unique = {*sample, example}
    urls = [_path_tokens(u) for u in unique]
    values = Counter(pair for u in unique for pair in set(_query_tokens(u)))  # → URLs
    path: list[str] = []
    group = urls                      # sampled URLs whose shape so far is the example's
    for i, token in enumerate(_path_tokens(example)):
        group = [t for t in group if len(t) > i]
        seen = Counter(t[i] for t in group)
        keyword = (token == NUMBER or token.endswith(":")
                   or (seen[token] >= MIN_SUPPORT and len(seen) <= math.sqrt(len(group))))
        if not keyword:             # the entity's slot: what follows is its sub-pages
            path.append(WILD)
            break
        path.append(token)
        group = [t for t in group if t[i] == token]
    own = _query_tokens(example)
    query = tuple((k, v) for k, v in own if v.isalpha() and values[(k, v)] >= MIN_SUPPORT)
    names = tuple(sorted({k for k, _ in own}))
    return UrlShape(tuple(path), query, names)
