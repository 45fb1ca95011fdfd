"""Links that lead back to the page that holds them: a forum post's permalink on its topic
page, a Q&A answer's share link on its question page. An extension of SOUrCe
(`archiver.strategies.source`), learned per kind of link, (cluster, Apath) of the page
holding it, like the duplicate-view rates (`archiver.learning.duplicates`).

The duplicate-view rates say how often a kind of link led to a page already known; they
cannot say *which* page. A permalink is a view of one page: the page that lists the post.
Once that page is fetched, the permalink can only give it again, wherever else the crawl
finds the permalink. On a real FlaskBB (benchmarks/realsite) every post's `/post/ID` link
redirects to the topic page that shows the post, and users' post lists link the same
permalinks; source-ucc made 759 permalink requests of its 1,500, and before 567 of them the
topic page holding the permalink had been fetched already. phpBB's ``viewtopic.php?p=N``,
vBulletin's ``showthread.php?p=N`` and StackExchange's ``/a/N`` share links behave alike;
crawl operators exclude them by hand with a regular expression per site.

A fetched page and a link on it form one observation once both ends are known: the page
the link leads to (after redirects, `landed`) is compared with the page holding it by their
digests (`archiver.page.page_digest`, what a reader gets). A kind of link is a *self view*
when at least `MIN_SELF` of its resolved links led back to their holder, at a share of at
least `SELF_SHARE` (counted as self / (resolved + 1), so that three of three pass and a
kind with one link in five going elsewhere does not). A link of such a kind on a fetched
page is then a known view of that page: not followed from there, nor from anywhere else
the crawl finds it later, nor when it was queued before (the strategy re-judges a URL when
it is popped).

A link to the holder's own path with another query is counted apart for each difference
(`kind`): the title link of a FlaskBB topic page is the page itself on ``?page=1`` (where
permalinks lead) and page 1 on ``?page=2``; counted together, that kind stayed under the bar
and a real FlaskBB crawl fetched 238 topic pages twice, as ``/topic/N-slug?page=1`` and as
``/topic/N-slug``.

A page can also say which of its links is itself: a pager's or a tab list's item marked
as the view shown (``aria-current``, ``<li class="active">``: `archiver.page.Link.current`).
A marked link to the page's own path that adds or changes a query argument is taken as a
view of the page at once, before any kind is learned: a real django-machina's forum page
``/forum/cycling-9/`` marks its pager's ``?page=1``, and a topic page reached through a
post's permalink, ``?post=2074``, marks ``?page=2``; the pager's Apath is one kind with its
other items (Apaths keep the leaf's class only), so no kind could learn it, and
source-target fetched 47 topic pages a second time through them. A marked link that only
drops arguments is left to the kinds: a menu marks its section, and a FlaskBB member's post
list on ``?page=3`` marks the "Posts" tab, which is page 1. Each marked link fetched anyway
(found elsewhere first) checks the mark: once `MIN_SELF` of them led elsewhere, and more
than one in four, the site's marks are no longer read.

The counts are not saved with the model: a resumed crawl counts them again as it replays
its earlier fetches (`archiver.replay`), as the duplicate-view pattern rows are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit

__all__ = ["MAX_HOLDERS", "MIN_SELF", "SELF_SHARE", "SelfViews", "kind", "same_path_queries"]

MAX_HOLDERS = 3    # pages remembered per unresolved link: a permalink is on its topic page,
#                    in its author's post list and in search results; a menu link is on
#                    every page and needs no more than a few to be judged
MIN_SELF = 3       # self views a kind must have given before its links are known views
SELF_SHARE = 0.75  # ... and their share, self / (resolved + 1)

Key = tuple[int, str]   # (cluster of the page holding the link, `kind`)


def same_path_queries(a: str, b: str) -> tuple[set[tuple[str, str]], set[tuple[str, str]]] | None:
    """The query arguments of two URLs to the same path with different queries (a listing
    and its next page, a page and another view of it); None for any other two URLs."""
    sa, sb = urlsplit(a), urlsplit(b)
    if (sa.scheme, sa.netloc, sa.path) != (sb.scheme, sb.netloc, sb.path) or sa.query == sb.query:
        return None
    return (set(parse_qsl(sa.query, keep_blank_values=True)),
            set(parse_qsl(sb.query, keep_blank_values=True)))


def kind(apath: str, holder: str, link: str) -> str:
    """The kind of a link within its holder's cluster: its canonical Apath and, for a link to
    the holder's own path with another query, how the query differs, as sorted "-name=value"
    (the holder's arguments it drops), "+name" (arguments it adds) and "~name" (arguments it
    changes) after a space. One Apath can be a view of its holder on one page and a link to
    another page on the next: a FlaskBB topic's title links /topic/12-slug, which is the
    page itself on /topic/12-slug?page=1 (reached through a post's permalink) and page 1 on
    ?page=2. An added argument's value is left out: it is often an id (WordPress's
    ``?replytocom=N`` on every comment), and one kind per value would never be learned. So
    is the value of an argument the link changes, "~name": a real django-machina's topic
    page reached through a post's permalink, ``?post=3384``, links every post shown on it as
    ``?post=N``, all views of itself; counted as "-post=3384 +post", one kind per permalink,
    they were never learned (source-target fetched 169 topic pages again through a second
    permalink of a post on the same page). So is the value of an argument the link drops,
    "-name", when it adds or changes one: which view the holder was no longer names where
    the link leads, its own arguments do. The same machina page, reached as ``?post=2074``,
    marks its own page in its pager as ``?page=2``; counted as "-post=2074 +page", one kind
    per permalink again, source-target fetched 47 topic pages a second time through their
    pager's active item. A link that only drops arguments keeps their values: it leads to
    the path's first view, which is its holder on ``?page=1`` and another page on
    ``?page=2``."""
    queries = same_path_queries(holder, link)
    if queries is None:
        return apath
    hq, kq = queries
    added = {n for n, _ in kq - hq}
    dropped = hq - kq                     # (name, value) pairs: a name may repeat
    changed = added & {n for n, _ in dropped}
    # a dropped argument's value only says which view a link leads to when the link adds
    # nothing of its own (it leads to the holder's path with fewer arguments)
    diff = sorted({f"-{n}={v}" if not added else f"-{n}" for n, v in dropped if n not in added}
                  | {f"~{n}" if n in changed else f"+{n}" for n in added})
    return f"{apath} {' '.join(diff)}" if diff else apath


@dataclass
class SelfViews:
    """Which kinds of link lead back to the page holding them, and which unfetched URLs are
    therefore views of a fetched page, or marked as such by it (module docstring).

    `cluster_of` gives a fetched page's cluster, None before the model is fitted: what is
    observed until then waits in a list and is counted by `flush` after the fit."""

    cluster_of: Callable[[str], int | None]
    counts: dict[Key, list[int]] = field(default_factory=dict)   # → [resolved, self]
    # unfetched URL → cluster of the fetched page it is a view of
    known: dict[str, int] = field(default_factory=dict)
    _digest: dict[str, bytes] = field(default_factory=dict)      # fetched page → digest
    _landed: dict[str, bytes] = field(default_factory=dict)      # link URL → digest reached
    _holders: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    _waiting: list[tuple[str, str, bool]] = field(default_factory=list)
    _marked: dict[str, str] = field(default_factory=dict)   # link → page marking it as itself
    # marked links fetched anyway → [led to the page marking them, led elsewhere]
    marks: list[int] = field(default_factory=lambda: [0, 0])

    def page(self, url: str, digest: bytes, links: Iterable[tuple[str, str]],
             current: Iterable[str] = ()) -> None:
        """A fetched page, its digest, its links as (URL, canonical Apath) and the links it
        marks as the view it shows (`archiver.page.Link.current`)."""
        if not digest:
            return
        self._digest[url] = digest
        for link in current:
            if link not in self._landed and _brings_arguments(url, link):
                self._marked.setdefault(link, url)
        for link, apath in links:
            if link == url:     # the page itself (a wiki's "Article" tab): not a view of it
                continue
            reached = self._landed.get(link)
            if reached is not None:
                self._observe(url, kind(apath, url, link), reached == digest)
                continue
            holders = self._holders.setdefault(link, [])
            if len(holders) < MAX_HOLDERS and (url, apath) not in holders:
                holders.append((url, apath))

    def landed(self, link: str, digest: bytes) -> None:
        """Fetching `link` gave (after redirects) a page with this digest."""
        if not digest or link in self._landed:
            return
        self._landed[link] = digest
        self.known.pop(link, None)
        if (marker := self._marked.pop(link, None)) is not None:
            self.marks[self._digest.get(marker) != digest] += 1
        for holder, apath in self._holders.pop(link, ()):
            self._observe(holder, kind(apath, holder, link), self._digest.get(holder) == digest)

    def landed_on(self, link: str, page: str) -> None:
        """`link` redirected to `page`, fetched before (its digest, if it was a page)."""
        digest = self._digest.get(page)
        if digest is not None:
            self.landed(link, digest)

    def is_self(self, key: Key) -> bool:
        """Whether links of this kind lead back to the page holding them."""
        row = self.counts.get(key)
        return row is not None and row[1] >= MIN_SELF and row[1] >= SELF_SHARE * (row[0] + 1)

    def view(self, url: str, key: Key | None = None, holder: str = "") -> int | None:
        """If `url` (a link of (cluster, canonical Apath) `key` on the fetched page `holder`,
        if given) is a known view, of a fetched page that holds it by a self-view kind of
        link or marks it as itself: that page's cluster; else None. A URL already fetched
        is no view: it is what it is."""
        cluster = self.known.get(url)
        if cluster is not None or url in self._landed:
            return cluster
        marker = self._marked.get(url)
        if marker is not None and self.marks_hold():      # marked as itself by a fetched page
            cluster = self.cluster_of(marker)
        elif key is not None and self.is_self((key[0], kind(key[1], holder, url))):
            cluster = key[0]
        else:        # held by a page fetched before (while sampling, or kinds learned since)
            for page, apath in self._holders.get(url, ()):
                of = self.cluster_of(page)
                if of is not None and self.is_self((of, kind(apath, page, url))):
                    cluster = of
                    break
        if cluster is not None:
            self.known[url] = cluster
        return cluster

    def marks_hold(self) -> bool:
        """Whether the site's "this is the current view" marks are still believed (module
        docstring): fewer than `MIN_SELF` marked links led elsewhere, or at most one in
        four."""
        right, wrong = self.marks
        return wrong < MIN_SELF or wrong * 4 <= right + wrong

    def flush(self) -> None:
        """Count what was observed before the pages' clusters were known."""
        waiting, self._waiting = self._waiting, []
        for holder, apath, same in waiting:
            self._observe(holder, apath, same)

    def _observe(self, holder: str, apath: str, same: bool) -> None:
        cluster = self.cluster_of(holder)
        if cluster is None:
            self._waiting.append((holder, apath, same))
            return
        row = self.counts.setdefault((cluster, apath), [0, 0])
        row[0] += 1
        row[1] += same


def _brings_arguments(page: str, link: str) -> bool:
    """Whether `link` is `page`'s own path with a query argument added or changed."""
    queries = same_path_queries(page, link)
    return queries is not None and bool(queries[1] - queries[0])   # `kind`'s "+" and "~"
