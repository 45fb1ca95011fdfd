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

When the example's path has no entity slot (every token a keyword, or no path at all), the
query names the entity, and a matching URL must carry one of the example's other
parameter names too, whatever its value: on a WordPress with plain permalinks every
page is ``/?x=#``, and the author archive ``/?author=2`` would otherwise match the posts
``/?p=7``, the months ``/?m=201912`` and the categories ``/?cat=3`` alike (zoo blog,
variant 1: no author page fetched while harvesting for an author example).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from archiver.learning.duplicates import _NAMESPACE, _query_name

MIN_SUPPORT = 4     # minPts: a token seen in fewer sampled URLs is not known to be a keyword
WILD = "*"
NUMBER = "#"


def _split(url: str) -> tuple[str, str]:
    """(path, query) of an absolute or host-relative URL; `urlsplit`'s answer for the URLs
    a crawl records (already canonical), at a fifth of its cost: patterns are learned from
    every link of the sample, 10⁵ URLs on a 1,000-page sample."""
    url = url.partition("#")[0]
    rest, _, query = url.partition("?")
    start = rest.find("//")
    if (start >= 0 and rest[:start].rstrip(":").isalnum()) or rest.startswith("//"):
        slash = rest.find("/", start + 2)
        rest = rest[slash:] if slash >= 0 else ""
    return rest, query


def _path_tokens(url: str) -> list[str]:
    tokens: list[str] = []
    for segment in _split(url)[0].split("/"):
        if not segment:
            continue
        head, colon, rest = segment.partition(":")
        if colon and head and rest and head.isalpha():   # Namespace:Title
            tokens += [head + ":", rest]
        else:
            tokens.append(segment)
    return [NUMBER if t.isdigit() else t for t in tokens]


def _query_tokens(url: str) -> list[tuple[str, str]]:
    query = _split(url)[1]
    if not query:
        return []
    pairs = parse_qsl(query, keep_blank_values=True)
    return sorted((k, NUMBER if v.isdigit() else v) for k, v in pairs)


@dataclass(frozen=True)
class UrlShape:
    """The generalised shape of one URL; see the module docstring."""

    path: tuple[str, ...]
    query: tuple[tuple[str, str], ...]          # kept parameters: (name, word)
    names: tuple[str, ...] = ()                 # every parameter name of the example
    required: tuple[str, ...] = ()              # one of them must be there, any value

    def matches(self, url: str) -> bool:
        """Whether `url` has this shape (this shape's path a prefix of its path, this
        shape's query parameters among its parameters, and one of its required names)."""
        if not self.matches_path(url):
            return False
        have = _query_tokens(url)
        if any(k not in self.names and v.isalpha() for k, v in have):
            return False            # a view the example is not: ?tab=activity, ?view=print
        if self.required and not any(k in self.required for k, _ in have):
            return False            # another entity of a query-routed site: ?m=2019, not ?p=7
        return all(pair in have for pair in self.query)

    def matches_path(self, url: str) -> bool:
        """Whether this shape's path is a prefix of `url`'s (the query left aside). The
        entity's slot takes any name but a wiki's namespaced one: an example with no
        namespace (``/index.php/Paris``) is not its talk page (``/index.php/Talk:Paris``),
        and one with a namespace keeps it as a keyword."""
        path = _path_tokens(url)
        return len(path) >= len(self.path) and all(
            got == want or (want == WILD and not got.endswith(":")
                            and not _NAMESPACE.match(got))
            for want, got in zip(self.path, path, strict=False))

    def to_json(self) -> dict[str, list[str] | list[list[str]]]:
        return {"path": list(self.path), "query": [list(q) for q in self.query],
                "names": list(self.names), "required": list(self.required)}

    @classmethod
    def from_json(cls, data: dict[str, Sequence[object]]) -> UrlShape:
        path = tuple(str(t) for t in data.get("path", ()))
        query: list[tuple[str, str]] = []
        for pair in data.get("query", ()):
            if not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2:
                raise ValueError(f"url shape: a query token must be [name, value]; got {pair!r}")
            query.append((str(pair[0]), str(pair[1])))
        return cls(path, tuple(query), tuple(str(n) for n in data.get("names", ())),
                   tuple(str(n) for n in data.get("required", ())))

    def __str__(self) -> str:
        path = "/" + "/".join(self.path)
        tokens = [f"{k}={v}" for k, v in self.query]
        if self.required:                          # one of them: ?author|paged=*
            tokens.append("|".join(self.required) + "=" + WILD)
        query = "&".join(tokens)
        return path + ("?" + query if query else "")


def learn_shape(example: str, sample: Iterable[str], kin: Iterable[str] = ()) -> UrlShape:
    """The shape of `example`, with keywords learned from the sampled URLs `sample`.

    `kin` are the sampled URLs of the example's clusters. A path word that at least
    `MIN_SUPPORT` of them have otherwise, their paths the example's in every other segment
    but the last (the page's own name), and one of those a word, is the entity's slot,
    however few values the sample shows there: on a real MediaGoblin (``/u/NAME/m/SLUG/``)
    with a handful of members, most sampled pages were one member's, so the example's
    member name read as a keyword and the other members' entries as another page type
    (source-target fetched them after 83 tag lists). A kin page of another path
    (``/category/x/page/2/`` beside ``/author/ann/page/3/``) is another page type, which
    the shape is there to tell."""
    unique = {*sample, example}
    urls = [_path_tokens(u) for u in unique]
    values = Counter(pair for u in unique for pair in set(_query_tokens(u)))  # → URLs
    path: list[str] = []
    group = urls                      # sampled URLs whose shape so far is the example's
    tokens = _path_tokens(example)
    kindred = [t for t in (_path_tokens(u) for u in set(kin)) if len(t) == len(tokens)]
    for i, token in enumerate(tokens):
        group = [t for t in group if len(t) > i]
        seen = Counter(t[i] for t in group)
        rest = [j for j in range(len(tokens) - 1) if j != i]    # no word there: no evidence
        varied = any(tokens[j] != NUMBER for j in rest) and sum(
            t[i] != token and all(t[j] == tokens[j] for j in rest) for t in kindred
        ) >= MIN_SUPPORT
        keyword = (token == NUMBER or token.endswith(":")
                   or (seen[token] >= MIN_SUPPORT and len(seen) <= math.sqrt(len(group))
                       and not varied))
        if not keyword:             # the entity's slot: what follows is its sub-pages
            path.append(WILD)
            break
        path.append(token)
        group = [t for t in group if t[i] == token]
    own = _query_tokens(example)
    query = tuple((k, v) for k, v in own if v.isalpha() and values[(k, v)] >= MIN_SUPPORT)
    names = tuple(sorted({k for k, _ in own}))
    # No entity slot in the path: the query names the entity (?p=7, ?author=2, ?id=page)
    required = () if WILD in path else tuple(sorted({k for k, _ in own} - {k for k, _ in query}))
    return UrlShape(tuple(path), query, names, required)


def page_form(url: str) -> str:
    """The form of a page's URL that one page type keeps whatever the template shows: its
    path, with every segment but alphabetic words (``forum``, ``topic``, ``member``) and
    the last one (the page's own name) as `WILD`; when no path word is left, the sorted
    names of its query parameters as well (the query then names the page). A query does
    not change the form of a path that has words: ``?page=2`` and ``?post=7`` are views of
    the page. ``/forum/cycling-9/topic/bread-or-table-132/?post=7`` → ``forum/*/topic/*``,
    ``/forum/cycling-9/`` → ``forum/*``, ``/2024/01/02/a-post/`` → ``*/*/*/*``,
    ``/doku.php?id=a:b&do=index`` → ``*?do&id``. A wiki page's namespace stays, in the
    path or as the query's only value: ``/wiki/Talk:X`` → ``wiki/Talk:*``,
    ``/index.php?title=Special:Y`` → ``*?title=Special:*``."""
    path, query = _split(url)
    segments = [x for x in path.split("/") if x]
    form = [x if x.isalpha() and i < len(segments) - 1 else WILD for i, x in
            enumerate(segments)]
    if segments and (space := _NAMESPACE.match(segments[-1].replace("%3A", ":"))):
        form[-1] = f"{space.group(1)}:{WILD}"        # as `url_kind` keeps it
    text = "/".join(form)
    pairs = [kv for kv in query.split("&") if kv]
    if pairs and all(x == WILD for x in form):
        text += "?" + (_query_name(pairs[0]) if len(pairs) == 1 else
                       "&".join(sorted({kv.partition("=")[0] for kv in pairs})))
    return text


def page_section(url: str) -> str:
    """The first part of a page's URL form (`page_form`): the site's section the page type
    lives in, ``forum`` of ``forum/*/topic/*``, ``member`` of ``member/profile/*/*``; ``*``
    for a path that starts with a name or a number (``/2024/01/a-post/``, ``/about/``)."""
    return page_form(url).partition("/")[0]


def page_family(urls: Sequence[str], labels: Sequence[int], cluster: int,
                n_clusters: int) -> list[int]:
    """The clusters (of `n_clusters`) holding the page type of `cluster`, by `page_form`:
    `cluster` itself, and when at least half of its sampled `urls` share one form, every
    cluster at least half of whose sampled URLs have that form. One template can fall in
    several clusters (a forum's topics of one post and of fifteen, `?post=` views and
    plain ones: five clusters on a real django-machina), and one form in several
    templates' clusters only when the site names them alike."""
    forms: dict[int, Counter[str]] = {}
    for url, label in zip(urls, labels, strict=True):
        forms.setdefault(int(label), Counter())[page_form(url)] += 1
    own = forms.get(cluster)
    family = {cluster}
    if own:
        form, count = own.most_common(1)[0]
        if form and 2 * count >= sum(own.values()):     # "": a site's root, no page type
            family |= {c for c, seen in forms.items()
                       if 0 <= c < n_clusters and 2 * seen[form] >= sum(seen.values())}
    return sorted(family)


def page_types(urls: Sequence[str], labels: Sequence[int], n_clusters: int,
               linked: Callable[[int], Collection[int]] | None = None,
               apart: Collection[int] = ()) -> list[int]:
    """The page type of each of the `n_clusters` clusters, as a number: two clusters are
    of one type when `page_family` joins them (either way) and, given `linked`, one is
    among the clusters ``linked(other)`` names (`NavigationTable.co_destinations`: one kind
    of sampled link led to both); a third can join them through either. A cluster in
    `apart` (those the site marks noindex) is a type of its own. Numbered from 0 in the
    order of their lowest cluster, so a site whose every cluster is a page type of its own
    gets ``[0, 1, …, n_clusters - 1]``.

    The URL form alone joins a user's tabs (FlaskBB's ``/user/NAME/posts`` and
    ``/user/NAME/topics``: one form, two templates a profile links from two Apaths) and a
    wiki's actions (``doku.php?do=…&id=…``); one kind of link leading to both is what a
    template the clustering split does (a blog's title links to posts with and without a
    list in their text). A wiki's links to pages not written yet lead to pages of its
    pages' URL form from the same Apath as links to written ones (a real DokuWiki: a
    "create this page" cluster, marked noindex, beside its pages)."""
    import scipy.sparse as sp
    from scipy.sparse.csgraph import connected_components

    alone = set(apart)
    rows: list[int] = []
    cols: list[int] = []
    for cluster in sorted(set(range(n_clusters)) - alone):
        together = None if linked is None else set(linked(cluster))
        for other in page_family(urls, labels, cluster, n_clusters):
            if other not in alone and (together is None or other in together):
                rows.append(cluster)
                cols.append(other)
    joined = sp.coo_matrix(([1] * len(rows), (rows, cols)), shape=(n_clusters, n_clusters))
    # components are numbered in the order of their lowest node
    return connected_components(joined, directed=False)[1].tolist() if n_clusters else []


class UrlPatterns:
    """Site-wide URL patterns learned from every URL seen while sampling: the tokens of a URL
    that are the site's *keywords* kept, the others (names, slugs, search terms) as ``*``.

    iRobot (Cai et al. 2008, §4.1) refines its layout clusters by URL pattern; here the
    patterns refine SOUrCe's navigation table (`archiver.learning.navigation`): one Apath
    often holds links to pages of several types (a profile's "contacts" and "albums" tabs,
    ``/people/*/contacts/`` and ``/photos/*/albums/``, drawn by one menu template whose
    anchors differ only in text), and the pattern of the link's URL tells them apart.

    The keywords are learned as a tree over the path tokens (the tokenisation of
    `UrlShape`: digit runs are ``#``, a ``Namespace:`` is its own token). At each node, over
    the n URLs that reached it with a path at least that long, a token is a keyword when it
    is ``#``, a namespace, or seen in at least `MIN_SUPPORT` of them and in at least √n of
    them (a share of 1/√n: ``photos`` or ``contacts`` among a site's URLs, not one of the
    many user names after ``/people/``). The other tokens share the ``*`` branch, and the
    tree goes on below it (``/people/*/contacts``). A query parameter keeps its name; its
    value is ``#`` when numeric, kept when it is a keyword by the same rule among the URLs
    with that parameter (``tab=activity``), else ``*``.

    A tree node sees a page's own views once each: on a wiki whose paths are the page
    hierarchy (django-wiki: ``/garden/``, ``/garden/tent/``, ``/garden/_create/``,
    ``/garden/tent/_create/``), ``_create`` under ``/garden/`` is one URL among its
    children's, and falls in their ``*``. So a last path token that ends the URLs of at
    least `MIN_SUPPORT` distinct parents, each itself the path of a URL seen
    (``_create``, ``_history``, ``feed``: a view every page has), is an *ending*, a keyword
    wherever it is met. A child's name ends one parent's URLs; a wiki title ends its
    namespaces' (``/index.php/Talk:X``), which are no pages.
    """

    def __init__(self, tree: Mapping[str, Any] | None = None,
                 words: Mapping[str, Collection[str]] | None = None,
                 endings: Collection[str] = ()) -> None:
        self.tree: dict[str, Any] = dict(tree or {})
        self.words: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in (words or {}).items()}
        self.endings: frozenset[str] = frozenset(endings)

    @classmethod
    def learn(cls, urls: Iterable[str]) -> UrlPatterns:
        """Learn the keywords from `urls` (each distinct URL counted once)."""
        unique = set(urls)
        values = QueryWords()
        for url in unique:
            values.add(url)
        paths = [_path_tokens(u) for u in unique]
        pages = {tuple(tokens) for tokens in paths}
        parents: dict[str, set[tuple[str, ...]]] = {}
        for tokens in paths:
            if len(tokens) >= 2 and tokens[-1] != NUMBER and tuple(tokens[:-1]) in pages:
                parents.setdefault(tokens[-1], set()).add(tuple(tokens[:-1]))
        endings = frozenset(t for t, seen in parents.items() if len(seen) >= MIN_SUPPORT)
        return cls(_grow(paths, 0, endings), values.keywords(), endings)

    def pattern(self, url: str) -> str:
        """The pattern of `url`: ``/people/*/contacts?page=#``."""
        node: Mapping[str, Any] | None = self.tree
        out: list[str] = []
        for token in _path_tokens(url):
            key = token if token == NUMBER or token in self.endings or (
                node is not None and token in node) else WILD
            out.append(key)
            node = node.get(key) if node is not None else None
        query = "&".join(f"{k}={v if v == NUMBER or v in self.words.get(k, ()) else WILD}"
                         for k, v in _query_tokens(url))
        return "/" + "/".join(out) + ("?" + query if query else "")

    def ending(self, url: str) -> str:
        """The last path token of `url` if it is one of the site's `endings` (``_create``),
        else ""."""
        tokens = _path_tokens(url) if self.endings else []
        return tokens[-1] if tokens and tokens[-1] in self.endings else ""

    def outline(self, pattern: str) -> str:
        """The outline of a learned `pattern`: every path token that is a word of the site,
        not an ending, a number or a namespace, as ``*``; the query as it is.
        ``/cycling/oven-checklist/*`` and ``/garden/*/tent`` are both ``/*/*/*``,
        ``/cycling/*/_create`` is ``/*/*/_create``. A tree node keeps a name as a keyword
        once enough URLs below it were seen (a wiki article with its children and views,
        a forum with its topics), so one kind of link, a breadcrumb's child articles,
        takes a pattern per parent; the outline is what such patterns share."""
        path, mark, query = pattern.partition("?")
        tokens = [t if t == NUMBER or t.endswith(":") or t in self.endings else WILD
                  for t in path.split("/") if t]
        return "/" + "/".join(tokens) + mark + query

    def to_json(self) -> dict[str, Any]:
        return {"tree": self.tree, "words": {k: sorted(v) for k, v in self.words.items()},
                "endings": sorted(self.endings)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> UrlPatterns:
        tree, words = data.get("tree", {}), data.get("words", {})
        endings = data.get("endings", [])     # models saved before session 36 have none
        if not isinstance(tree, dict) or not isinstance(words, dict) or not all(
                isinstance(v, list) for v in words.values()) or not isinstance(endings, list):
            raise ValueError("url patterns: 'tree' must be an object, 'words' an object "
                             "of lists and 'endings' a list")
        return cls(tree, {str(k): [str(w) for w in v] for k, v in words.items()},
                   [str(e) for e in endings])


class QueryWords:
    """Which query values are keywords of a site, learned from URLs as they come: a value
    seen in `count` of the `n` URLs that carry its parameter is one when `_keyword` says so
    (``do=login`` on every page of a DokuWiki, not ``id=start``). Add each distinct URL
    once."""

    def __init__(self) -> None:
        self._values: dict[str, Counter[str]] = {}
        self._carriers: Counter[str] = Counter()  # parameter → its (name, value) pairs in URLs

    def add(self, url: str) -> None:
        for k, v in set(_query_tokens(url)):
            self._values.setdefault(k, Counter())[v] += 1
            self._carriers[k] += 1

    def keywords(self) -> dict[str, list[str]]:
        """Parameter → its keyword values, sorted (``#`` stands for numbers)."""
        return {k: sorted(v for v, c in seen.items() if _keyword(v, c, self._carriers[k]))
                for k, seen in self._values.items()}

    def is_keyword(self, name: str, value: str) -> bool:
        """Whether `value` is a keyword of the parameter `name` so far."""
        seen = self._values.get(name)
        return seen is not None and _keyword(value, seen[value], self._carriers[name])


def _keyword(token: str, count: int, n: int) -> bool:
    """Whether a token seen in `count` of `n` URLs at one place is a keyword there."""
    return token == NUMBER or token.endswith(":") or (
        count >= MIN_SUPPORT and count * count >= n)


def _grow(paths: list[list[str]], depth: int, endings: frozenset[str] = frozenset()
          ) -> dict[str, Any]:
    """The keyword tree below one node, from the token lists of the URLs that reached it;
    `endings` are keywords wherever met (`UrlPatterns`)."""
    longer = [p for p in paths if len(p) > depth]
    if not longer:
        return {}
    seen = Counter(p[depth] for p in longer)
    keep = {t for t, c in seen.items() if t in endings or _keyword(t, c, len(longer))}
    branches: dict[str, list[list[str]]] = {}
    for p in longer:
        branches.setdefault(p[depth] if p[depth] in keep else WILD, []).append(p)
    return {t: _grow(group, depth + 1, endings) for t, group in branches.items()}
