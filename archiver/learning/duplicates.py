"""How often the links at one (cluster, Apath) lead to a page that is not new content:
another view of a page already known, or a page the site itself marks ``noindex``.

SOUrCe's navigation table (§4.3) predicts the *type* of page a link leads to, and its
Score(C) (§4.4.1) values types. Neither can tell the topic link of a forum's topic list from
the "last post" permalink beside it, the unsorted board from the same board sorted by author,
or a post from its `?replytocom=` view: both lead to the same cluster, and SOUrCe relies on
DSim to keep duplicates out, which works only when the duplicate views form a cluster of
their own. On the zoo's forum, a fifth of source-ucc's budget went to such views. Likewise a
wiki's revision diffs land in the article cluster (same skin, same article text): on the
zoo's wiki, source-ucc spent 60% of its budget on them.

This table adds the missing signal, learned per (source cluster, Apath) from what the crawl
actually fetched, with no per-site rule. A fetched page is

- a *duplicate view* when it names another URL as its canonical one (``<link
  rel="canonical">``, which phpBB, WordPress, MediaWiki and StackExchange emit on alternate
  views), or it shows the same title, visible text and links as a page fetched before
  (`archiver.page.page_digest`: a CSRF token or request id in the markup does not make a
  copy new), or it is a near-duplicate of one (same title, nearly the same
  words outside links: `archiver.learning.neardup`), or it is a redirect to a place already
  reached (a login wall);
- *noindex* when its ``<meta name="robots">`` or ``X-Robots-Tag`` says ``noindex`` (or
  ``none``): the site says it is not content to index. MediaWiki marks diffs, history, edit,
  login and special pages so; forums, blogs, Q&A and media sites their search results,
  empty archives, revision lists and "all sizes" views. An answer with a client error
  (4xx) counts as noindex too: no index keeps it, and dead links come in kinds as well
  (a real MediaWiki answers 404 to "what links here" and "related changes" of every page
  that does not exist, 171 of its post-sample fetches). A server error (5xx) may be the
  server's passing trouble, not the link's, and is left out.

The link score is multiplied by ``keep = (1 − r_dup) · f(r_noindex)``: the expected share
of pages that are not duplicate views, times a noindex factor (below). Each rate r is
``(d + m·p₀) / (n + m)``: n fetched pages via the link's pair, d of them duplicates (or
noindex), shrunk towards the site-wide rate p₀ = D / N with m = 2 pseudo-observations, so a
pair seen once is not condemned by one page and an unseen pair gets the site's average.

Duplicate views follow the link's *position* (the "last post" permalink beside the topic
link), so their rate is the pair's, refined while harvesting by the learned URL pattern of
the link (`archiver.learning.urlshape.UrlPatterns`; the pattern's rate shrunk towards the
pair's): one thumbnail anchor of a photo site's lists leads to the photos from a photostream
and to the same photos in an album's context (`/photos/*/#/in/*/`), and at the pair's rate
of about one half the zoo media site fetched 694 album views before its last profiles
(requests to 95% of its UCC entities 3,910 → 3,077). Pattern rows are not saved with the
model: a resumed crawl counts them again as it replays its earlier fetches
(`archiver.replay`).

One position can also hold links that are all duplicates beside links that never are,
told apart by a path *ending* the site gives every page's view of one kind
(`archiver.learning.urlshape.UrlPatterns`, ``_create``, ``_dir``). django-wiki's
breadcrumb menu, one Apath, lists an article's children, its directory view and an "add
article" link that redirects to the login page (a duplicate). The article cluster's menu
pair sampled four such redirects and two directory views, no child: at its rate, 0.54,
every child link there was skipped as a duplicate view; the children linked from nowhere
else were reached only through the menus of the articles' source views, other pairs, and
with those views judged by their blocks (``block_shingles``) three were lost. The learned
URL patterns do not help: a child's pattern is its parent's (``/garden/tent/*``), one per
article, never seen at the pair. So where the site has endings (parameter
``duplicate_endings``), a link's duplicate rate is its ending's ("" for none), over all
pairs (shrunk towards the site's) and then at its pair (shrunk towards that), before its
pattern's; on a site without endings "" is every URL's and the rates are the site's and
the pair's as before. Measured on the real django-wiki: source-ucc 862 -> 654 requests at
recall 1.000 (95% of the articles after 1.64 of the floor instead of 1.77), the
children's links followed, so the articles' source views and menus ran out sooner.

Noindex follows the *kind* of page the link leads to, and one Apath often holds links to
several kinds: a wiki's tabs (article, talk, edit, history) share ``.../nav/ul/li/a``, a
diff's header cell links the old revision and the next diff. So noindex is also counted
per *URL kind* of the destination (`url_kind`: the path with its last segment as ``*``
and digit runs as N, and the query's parameter names), site-wide and within each pair. A
link whose kind has been fetched before gets its kind's site-wide noindex rate (shrunk
towards the site's), refined by what that kind gave at the link's own pair (shrunk
towards the former); a link of a kind never fetched gets its pair's. ``/wiki/Talk:X`` and
``/w/index.php?action=edit&title=X`` then part ways inside the tab pair, and a login link
learned on article pages is known on talk pages too. Within a kind, a *mode* of the query
(`mode_kind`: ``do=login``, a word the sample found to be a keyword of the site's links,
`modes`) is a kind of its own, its rate shrunk towards its kind's: a real DokuWiki's
login, edit and revision views share ``/*?do&id`` with the page shown again by an empty
``do=``, a kind half noindex and so not demoted (DokuWiki at 2,000 pages: source-ucc
2,242 → 2,206 requests, the sample's modes alone 2,297). The weight `kind_weight` learns
is learned from the kinds by `url_kind` alone, which count each page once. Noindex marks
kinds of page (every diff, every edit form), but also the odd exception in an indexable
kind: WordPress marks the archive of an empty month noindex. With ``f = 1 − r``, two
empty months in the zoo blog's sample made the month-archive links less attractive, which
reordered the blog's hub pages and cost it 6 points of recall. So a kind is demoted only
in so far as most of it is noindex: ``f(r) = min(1, (1 − r) / (1 − NOINDEX_TOLERANCE))``,
1 up to a rate of one half, falling to 0 for a kind that is all noindex. The price,
measured on the zoo wiki: the demotion starts later (a kind needs a few noindex pages
before its rate passes one half), F 0.844 instead of 0.875 — still well above the 0.797
without the noindex signal.

How strongly a kind's own pages count against the site's rate is learned from the site. With
m = 2 pseudo-observations the rate of a kind whose n pages were all noindex is (n + 2p₀) /
(n + 2), so its factor falls like 4(1 − p₀)/(n + 2): a link predicted to lead to the best
cluster is followed until about 50 pages of its kind have been noindex. On a real
MediaWiki that was 57 "related changes", 37 "what links here", 27 user-rights and 26
contributions pages, one kind after another. But noindex is mostly all or nothing per
kind: in a breadth-first crawl of each zoo site and in source-ucc's crawl of a real
MediaWiki, every kind with two or more pages was entirely noindex or entirely not, except
WordPress-style month archives (11 of 20 noindex: the empty months), a Q&A site's revision
lists, and the odd article. So the weight is the empirical-Bayes one: with the kinds'
rates spread as a beta distribution, m = 1/ρ − 1, ρ being the intra-class correlation of
noindex within kinds (the ANOVA estimator over kinds with at least two fetched pages),
kept between `MIN_KIND_WEIGHT` and `PRIOR_WEIGHT`, and `PRIOR_WEIGHT` until `MIN_KINDS`
such kinds have been seen. Measured: 0.31 on the real MediaWiki; zoo forum 0.02, wiki 0.02
and media 0.01 (so 0.25), blog 1.0 and qa 2.2 (mixed kinds keep the old weight). At 0.25 a
kind of noindex pages is set aside after about five of them. A kind's first page weighs
as before (m = 2), so that one noindex or dead page does not hold back the rest of its kind:
without this, the zoo photo site's one deleted photo (a 404) left the photos of its user
a kind "all dead" after one page, and source-ucc's recall fell from 0.883 to 0.842.

Each signal has its own reliability guard, so that one misconfigured signal does not take
the other with it. A signal found on nearly every page says more about the site's markup
than about its links and is ignored:

- pages whose rel=canonical names another URL on more than half of all observed fetches
  (`UNRELIABLE_SHARE`): every page's rel=canonical naming the home page. Only this kind of
  duplicate view counts towards the guard: a redirect to a page already fetched and a page
  that repeats one already fetched are what the crawl saw, not markup the site can get
  wrong. (Until session 13 every duplicate view counted. On a real FlaskBB the crawl's own
  `/post/ID` permalinks, each a redirect to a topic mostly fetched already, took the
  share past one half after ~1,060 fetches of 1,500, and from there on the signal was off
  and every permalink ranked as a topic.)
- noindex on more than nine pages in ten of those that were not duplicate views
  (`UNRELIABLE_NOINDEX`): WordPress's "discourage search engines" setting, or a staging
  copy, puts noindex on every page. The bar is higher than for duplicates because noindex
  is legitimately on most of some sites: two thirds of the zoo wiki's URLs (diffs, edit
  forms, history, special and print pages) are noindex, and with a bar at one half the
  signal switched itself off on the wiki as soon as the articles were all fetched and the
  crawl moved on to what was left (measured: after ~1,950 fetches of the 2,655 budget).

Nofollow is not used. Skipping the links of nofollow pages inside SOUrCe (the crawl loop
never obeys it) was measured on the zoo wiki, the only family with nofollow pages besides a
forum's login and register pages: VR 0.809 → 0.849 at equal recall on the full-size wiki,
but VR 0.699 → 0.600 and recall 0.740 → 0.732 on the small one with half the site as the
budget (the revisions and user pages reached through history pages gave way to noindex
pages linked from the articles).

On a wiki, noindex pages are numerous and do not switch off the canonical signal, and a
noindex-everywhere blog keeps its canonical and identical-body duplicates: an ignored
signal's factor is 1. The table keeps four counts per pair (and per kind),
``[n, d, x, b]``: fetched, duplicate views, noindex pages, and pages that were both (for the
noindex guard, which leaves duplicate views out).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from urllib.parse import unquote_plus, urlsplit

PRIOR_WEIGHT = 2.0       # m: pseudo-observations at the site-wide rate
# The noindex rate of a URL kind is shrunk with a weight learned from the site (see
# `DuplicateRates.kind_weight`): at least this, at most PRIOR_WEIGHT, and learned only from
# at least MIN_KINDS kinds with two or more fetched pages each.
MIN_KIND_WEIGHT = 0.25
MIN_KINDS = 5
UNRELIABLE_SHARE = 0.5     # duplicate views on more than this share of fetches: ignored
UNRELIABLE_NOINDEX = 0.9   # noindex on more than this share of the other pages: ignored
NOINDEX_TOLERANCE = 0.5    # a kind of page with at most this noindex rate is not demoted
_DIGITS = re.compile(r"\d+")
# A hexadecimal name in a folder: a commit's or a file's hash (Fossil's
# /tarball/8afa08521b/x.tar.gz, Git web views' /tree/<hash>/), a UUID's groups. At least 8
# lower-case hex digits, at least one of them a letter and one a digit, so that a word is
# not taken for one; the digit runs alone would leave one kind per hash. A UUID is one N.
_HEX = re.compile(r"(?<![0-9A-Za-z])(?:[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}|"
                  r"(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{8,})(?![0-9A-Za-z])")
# A wiki's namespaced page name, "Special:RecentChanges", "Talk:Paris" (MediaWiki, DokuWiki)
_NAMESPACE = re.compile(r"([A-Za-z][A-Za-z_ ]{0,30}):(?!//)")
# in a query value, capitalised as MediaWiki writes them: a DokuWiki's ``id=wiki:syntax``
# names a folder of pages, not a kind of page
_QUERY_NAMESPACE = re.compile(r"([A-Z][A-Za-z_ ]{0,30}):(?!//).")


@functools.lru_cache(maxsize=1 << 16)   # asked per link and per fetch; links repeat
def url_kind(url: str) -> str:
    """What links of one kind share: the path with its last segment (the page's name, with or
    without a trailing slash) as ``*`` and digit runs and hexadecimal hashes as N
    (``/zip/8afa08521b/x.zip`` → ``/zip/N/*``), and the sorted names of the
    query parameters: ``/w/index.php?diff=2&oldid=1&title=X`` → ``/w/*?diff&oldid&title``,
    ``/2014/07/01/`` → ``/N/N/*/``, ``/2014/07/01/a-post/`` → ``/N/N/N/*/``,
    ``/t/17?sort=a`` → ``/t/*?sort``. A wiki page name's namespace stays:
    ``/wiki/Special:NewPages`` → ``/wiki/Special:*``, ``/wiki/Talk:X`` → ``/wiki/Talk:*``,
    ``/wiki/X`` → ``/wiki/*`` (a real MediaWiki's 80 special pages fetched after its
    sample, all noindex, shared ``/index.php/*`` with 600 articles and talk pages)."""
    parts = urlsplit(url)
    path = parts.path or "/"
    slash = path.endswith("/") and len(path) > 1
    head, _, name = path.rstrip("/").rpartition("/") if len(path) > 1 else ("", "", "")
    # under a namespaced page (/wiki/Special:WhatLinksHere/Talk:X) the name is an argument
    namespace = None if ":" in head.replace("://", "") else \
        _NAMESPACE.match(name.replace("%3A", ":").replace("%3a", ":"))
    star = f"{namespace.group(1)}:*" if namespace else "*"
    folder = _DIGITS.sub("N", _HEX.sub("N", head)) + (f"/{star}" if name else "/") + \
        ("/" if slash else "")
    pairs = [kv for kv in parts.query.split("&") if kv]
    if len(pairs) == 1:                       # a page named in the query (`_query_name`)
        return f"{folder}?{_query_name(pairs[0])}"
    names = sorted({kv.partition("=")[0] for kv in pairs})
    return f"{folder}?{'&'.join(names)}" if names else folder


def _query_name(pair: str) -> str:
    """The kind of a URL's only query argument: its name, and the namespace of a wiki page
    name it holds (``title=Special:*``, ``title=Talk:*``; plain ``title`` for an article,
    and for a DokuWiki's ``id=wiki:syntax``), as `url_kind` keeps a path's. On the
    zoo's MonoBook-like wiki, with ``index.php?title=`` URLs, talk pages, "what links here"
    (noindex) and articles were one kind. Only the page itself: the page's actions
    (``action=edit&title=Talk:X``) stay one kind whatever its namespace, as they were on a
    real MediaWiki, where per namespace each needed its own sampled pages to close
    (source-ucc 784 -> 1,058 requests)."""
    name, _, value = pair.partition("=")
    namespace = _QUERY_NAMESPACE.match(unquote_plus(value))
    return f"{name}={namespace.group(1)}:*" if namespace else name


def mode_kind(url: str, is_mode: Callable[[str, str], bool]) -> str:
    """`url_kind` with the *modes* of the query as name=value: the parameters whose value is
    a word of letters that `is_mode(name, value)` accepts, a keyword of the site's links
    (`archiver.learning.urlshape.QueryWords`): ``/doku.php?id=X&do=login`` →
    ``/*?do=login&id``. A real DokuWiki names every action in one parameter, so its login
    and edit forms, revision lists, index views and the page itself shown again by an empty
    ``do=`` are one kind by `url_kind`, some noindex and some not."""
    kind = url_kind(url)
    folder, mark, names = kind.partition("?")
    if not mark:
        return kind
    modes = {}
    for pair in urlsplit(url).query.split("&"):
        name, _, value = pair.partition("=")
        if value.isalpha() and is_mode(unquote_plus(name), value):
            modes[name] = value
    if not modes:
        return kind
    return folder + "?" + "&".join(f"{n}={modes[n]}" if n in modes else n
                                   for n in names.split("&"))


@dataclass
class DuplicateRates:
    """Counts of fetched, duplicate-view and noindex pages per (cluster, Apath) key, and
    their keep factor."""

    counts: dict[tuple[int, str], list[int]] = field(default_factory=dict)  # → [n, d, x, b]
    total: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    shapes: dict[tuple[int, str, str], list[int]] = field(default_factory=dict)  # per url_kind
    by_shape: dict[str, list[int]] = field(default_factory=dict)  # summed over pairs (derived)
    by_mode: dict[str, list[int]] = field(default_factory=dict)   # the same per `mode_kind`
    # per learned URL pattern within a key, for the duplicate rate; counted while harvesting
    # and not saved with the model (the sample's pages are counted before patterns apply)
    patterns: dict[tuple[int, str, str], list[int]] = field(default_factory=dict)
    # per path ending of the destination within a key, and summed over keys (derived); the
    # ending of a URL is `ending`'s, "" for none (set from the learned URL patterns)
    tails: dict[tuple[int, str, str], list[int]] = field(default_factory=dict)
    by_tail: dict[str, list[int]] = field(default_factory=dict)
    ending: Callable[[str], str] | None = None
    canonical: int = 0      # duplicate views judged by a rel=canonical naming another URL
    # the query's mode values per parameter: kinds are `mode_kind`s with them (not saved in
    # the rows; the model keeps them beside)
    modes: Mapping[str, Collection[str]] = field(default_factory=dict)
    _weight: tuple[int, float] | None = field(default=None, repr=False)  # kind_weight cache
    _kinds: dict[str, str] = field(default_factory=dict, repr=False)     # `kind` cache

    def kind(self, url: str) -> str:
        """The URL kind noindex is counted by: `url_kind`, or `mode_kind` with `modes`."""
        if not self.modes:
            return url_kind(url)
        hit = self._kinds.get(url)
        if hit is None:
            if len(self._kinds) > 200_000:
                self._kinds.clear()
            hit = self._kinds[url] = mode_kind(url, self._is_mode)
        return hit

    def _is_mode(self, name: str, value: str) -> bool:
        return value in self.modes.get(name, ())

    def observe(self, key: tuple[int, str], duplicate: bool, noindex: bool = False,
                url: str = "", pattern: str = "", canonical: bool = False) -> None:
        """One page fetched through a link at `key` (to `url`, if known, of learned URL
        `pattern`, if known): was it a duplicate view (`canonical`: by its rel=canonical),
        was it noindex."""
        self.canonical += duplicate and canonical
        row = self.counts.setdefault(key, [0, 0, 0, 0])
        rows = [row, self.total]
        if pattern:
            rows.append(self.patterns.setdefault((*key, pattern), [0, 0, 0, 0]))
        if url and self.ending is not None:
            tail = self.ending(url)
            rows.append(self.tails.setdefault((*key, tail), [0, 0, 0, 0]))
            rows.append(self.by_tail.setdefault(tail, [0, 0, 0, 0]))
        if url:
            shape, mode = url_kind(url), self.kind(url)
            rows.append(self.shapes.setdefault((*key, shape), [0, 0, 0, 0]))
            rows.append(self.by_shape.setdefault(shape, [0, 0, 0, 0]))
            if mode != shape:
                rows.append(self.shapes.setdefault((*key, mode), [0, 0, 0, 0]))
                rows.append(self.by_mode.setdefault(mode, [0, 0, 0, 0]))
        for counts in rows:
            counts[0] += 1
            counts[1] += duplicate
            counts[2] += noindex
            counts[3] += duplicate and noindex

    def site_rate(self) -> float:
        """The share of duplicate views among all observed fetches (0 before any)."""
        n, d, _, _ = self.total
        return d / n if n else 0.0

    def noindex_rate(self) -> float:
        """The share of noindex pages among the observed fetches that were not duplicate
        views (0 before any): redirects and canonical views do not dilute it."""
        n, d, x, b = self.total
        return (x - b) / (n - d) if n > d else 0.0

    def canonical_rate(self) -> float:
        """The share of observed fetches whose rel=canonical named another URL."""
        n = self.total[0]
        return self.canonical / n if n else 0.0

    def signals(self) -> tuple[bool, bool]:
        """Which signals are trusted on this site: (duplicate views, noindex)."""
        return (self.canonical_rate() <= UNRELIABLE_SHARE,
                self.noindex_rate() <= UNRELIABLE_NOINDEX)

    def keep(self, key: tuple[int, str], url: str = "", pattern: str = "") -> float:
        """Expected share of pages new to the crawl, and content, among those the links at
        `key` (to `url`, if given, of URL `pattern`, if given) lead to: (1 − r_dup) ·
        min(1, 2·(1 − r_noindex)), a factor being 1 while its signal is not trusted (module
        docstring)."""
        use_dup, use_noindex = self.signals()
        n_site = self.total[0]
        row = self.counts.get(key)
        keep = 1.0
        if use_dup and n_site:
            rate = self.site_rate()
            # the ending's rate over all pairs, then at the pair (module docstring); without
            # endings, "" is every URL's, and the two are the site's and the pair's. No
            # ending rows at all (a model saved before session 45): the pair's rate
            tail = self.ending(url) if url and self.ending is not None and self.by_tail \
                else None
            around = (row,) if tail is None else \
                (self.by_tail.get(tail), self.tails.get((*key, tail)))
            for counts in (*around, self.patterns.get((*key, pattern)) if pattern else None):
                if counts is not None:
                    rate = _shrunk(counts[1], counts[0], rate)
            keep *= 1.0 - rate
        if use_noindex and n_site:
            rate = self.total[2] / n_site
            shape = url_kind(url) if url else ""
            if shape in self.by_shape:      # the link's kind, its mode, then at its pair
                mode = self.kind(url)
                known = self.by_mode.get(mode)   # the mode, if fetched: the finer kind
                for kind in (self.by_shape[shape], known):
                    if kind is not None:    # one page says little of a kind (a deleted photo)
                        rate = _shrunk(kind[2], kind[0], rate,
                                       self.kind_weight() if kind[0] >= 2 else PRIOR_WEIGHT)
                # the pair's pages of the kind are among the kind's: a learned weight here
                # would count them twice over. Of a mode fetched elsewhere, the pair's pages
                # of other modes say nothing
                counts = self.shapes.get((*key, mode if known is not None else shape))
                if counts is not None:
                    rate = _shrunk(counts[2], counts[0], rate)
            elif row is not None:           # a kind never fetched: the pair's rate
                rate = _shrunk(row[2], row[0], rate)
            keep *= min(1.0, (1.0 - rate) / (1.0 - NOINDEX_TOLERANCE))
        return keep

    def kind_weight(self) -> float:
        """The prior weight m of a URL kind's noindex rate, learned from how all-or-nothing
        noindex is within the kinds fetched so far (module docstring); cached until the next
        observation."""
        if self._weight is not None and self._weight[0] == self.total[0]:
            return self._weight[1]
        weight = PRIOR_WEIGHT
        rho = _intraclass_correlation([(c[2], c[0]) for c in self.by_shape.values()
                                       if c[0] >= 2])
        if rho is not None:
            weight = PRIOR_WEIGHT if rho <= 0 else \
                min(PRIOR_WEIGHT, max(MIN_KIND_WEIGHT, 1.0 / rho - 1.0))
        self._weight = (self.total[0], weight)
        return weight

    def rows(self) -> Iterator[list[int | str]]:
        """The JSON form kept in the model's manifest: [cluster, apath, n, d, x, b] per key,
        then [cluster, apath, n, d, x, b, shape] per URL kind within a key, then [cluster,
        apath, n, d, x, b, "ending", ending] per path ending within a key."""
        for (cluster, apath), counts in sorted(self.counts.items()):
            yield [cluster, apath, *counts]
        for (cluster, apath, shape), counts in sorted(self.shapes.items()):
            yield [cluster, apath, *counts, shape]
        for (cluster, apath, tail), counts in sorted(self.tails.items()):
            yield [cluster, apath, *counts, "ending", tail]

    @classmethod
    def from_rows(cls, rows: Iterable[Iterable[int | str]]) -> DuplicateRates:
        """Inverse of `rows`; also reads the [cluster, apath, n, d] rows of models saved
        before noindex was counted."""
        table = cls()
        for row in rows:
            cluster, apath, *rest = row
            key = (int(cluster), str(apath))
            if len(rest) == 6:
                counts, tail = [int(v) for v in rest[:4]], str(rest[5])
                table.tails[(*key, tail)] = counts
                summed = table.by_tail.setdefault(tail, [0, 0, 0, 0])
                for i, v in enumerate(counts):
                    summed[i] += v
                continue
            if len(rest) == 5:
                counts, shape = [int(v) for v in rest[:4]], str(rest[4])
                table.shapes[(*key, shape)] = counts
                # a mode kind's query names a value (/*?do=login&id), `url_kind`'s only names
                mode = "=" in shape.partition("?")[2]
                summed = (table.by_mode if mode else table.by_shape).setdefault(
                    shape, [0, 0, 0, 0])
                for i, v in enumerate(counts):
                    summed[i] += v
                continue
            counts = [int(v) for v in rest] + [0] * (4 - len(rest))
            table.counts[key] = counts
            for i, v in enumerate(counts):
                table.total[i] += v
        return table


def _shrunk(against: int, n: int, prior: float, weight: float = PRIOR_WEIGHT) -> float:
    """(d + m·p) / (n + m): a count's rate pulled towards `prior` by m pseudo-observations."""
    return (against + weight * prior) / (n + weight)


def _intraclass_correlation(groups: list[tuple[int, int]]) -> float | None:
    """ρ of a binary outcome within groups, from (successes, trials) per group: the one-way
    ANOVA estimator, (MSB − MSW) / (MSB + (n₀ − 1)·MSW), n₀ the adjusted mean group size.
    None with fewer than `MIN_KINDS` groups or no variation at all; 1 when every group is
    all or nothing."""
    k = len(groups)
    if k < MIN_KINDS:
        return None
    total = sum(n for _, n in groups)
    mean = sum(x for x, _ in groups) / total
    if mean in (0.0, 1.0):
        return None
    between = sum(n * (x / n - mean) ** 2 for x, n in groups) / (k - 1)
    within = sum(x * (1 - x / n) for x, n in groups) / (total - k)
    n0 = (total - sum(n * n for _, n in groups) / total) / (k - 1)
    denominator = between + (n0 - 1) * within
    return 1.0 if denominator <= 0 else (between - within) / denominator

