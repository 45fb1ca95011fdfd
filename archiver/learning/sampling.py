"""The SOUrCe training-data sampler (Xu, Gao & Callan 2018, §4.1) as a pure decision object.

It never fetches. The crawl loop reports each fetched page with its links; the sampler answers
which links to fetch next (one random URL per unseen (page, Apath) group), keeps every group's
full URL list U(p,x) for the navigation table, and says when the sample is done.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

import numpy as np

from archiver.learning.duplicates import mode_kind, url_kind
from archiver.learning.features import canonical_apath
from archiver.learning.urlshape import QueryWords
from archiver.urls import path_of, strip_session_ids

__all__ = ["SampleRequest", "SiteSampler", "is_refusal"]


_LAST_NUMBER = re.compile(r"/\d+/?$")   # a path's last segment, a number (a page's)
_DIGIT_RUN = re.compile(r"\d+")


def _section(url: str) -> str:
    """A URL's first path segment, digits masked ("" for the root): what the entries of a
    site's menu differ by ("Menus")."""
    return _DIGIT_RUN.sub("#", urlsplit(url).path.lstrip("/").partition("/")[0])


def _alike(before: frozenset[str], urls: list[str]) -> bool:
    """Whether a group's URLs are mostly those of its Apath on the page before (Jaccard
    at least 1/2): a menu, the same on every page ("Menus")."""
    now = set(urls)
    return 2 * len(before & now) >= len(before | now)


def _salt(random_state: int | np.random.Generator | None) -> bytes:
    """The key of the draws' hash ("Draws"): an int's digits; a Generator's next number;
    for None, a number at random."""
    if not isinstance(random_state, int):
        random_state = int(np.random.default_rng(random_state).integers(2**63))
    return hashlib.blake2b(str(random_state).encode(), digest_size=16).digest()


def is_refusal(status: int) -> bool:
    """Whether an HTTP status refuses the URL for good: a client error, but 408 and 429,
    which ask to come back later ("Refused kinds")."""
    return 400 <= status < 500 and status not in (408, 429)


class LinkLike(Protocol):
    """What the sampler reads from a link (`archiver.page.Link` fits)."""

    @property
    def url(self) -> str: ...

    @property
    def anchor_path(self) -> str: ...


@dataclass(frozen=True, slots=True)
class SampleRequest:
    """A link the sampler wants fetched: its URL, its Apath, and a priority (higher first)."""

    url: str
    apath: str
    priority: float


class SiteSampler:
    """Choose the training sample D of §4.1 and record U(p,x).

    For every fetched page p and every Apath x on it, the URLs of x on p form the group
    U(p,x). A group whose URLs are all unknown (neither fetched nor requested) gets one of
    them, chosen at random, requested; a group with a known URL gets nothing, since its
    destination will be observed anyway (it is *held*: see "Held groups"). Requests for
    Apaths followed fewer times before get a higher priority, so the sample spreads over
    Apaths before it deepens.

    **Held groups**: a sample that runs out of requests before `min_pages` is widened
    (`widen`, called by the strategy): each held group gets one of its unknown URLs, at
    random, of a kind of URL (`mode_kind`) the sample knows fewer than `min_pts` URLs of.
    Where a site's anchors have no class, one Apath holds a whole menu: on a MonoBook-like
    wiki the main page, each article's talk page, its history and the log-in link. Every
    article's group held the main page, the sample stopped at 72 pages ("exhausted")
    without a talk page, and the harvest left 264 of the 288 talk pages as leading to
    outliers. §4.1 draws one URL of every group; drawn always, as the paper does, the
    bigger samples cost more than they saved on the real sites whose samples reach
    `min_pages` (Trac's 95% point 675 -> 849 requests), so only a short sample is widened,
    and only with kinds it barely knows (a photo gallery's sample: 18 -> 39 pages). A
    MediaWiki namespace in a query value (``title=Talk:X``) makes a kind of its own
    (`archiver.learning.duplicates.url_kind`), as it does in a path. A held group that is
    a menu (its Apath's URLs mostly those of the page before, `_alike`) also gives one URL
    under a first path segment no known URL has, whatever its kind (``menu_sections``):
    the entries of a site's menu are often all of one kind, ``/about/``, ``/contact/``,
    ``/blog/``, and a real Mezzanine's sample (draw 1) ended after 8 pages, the about
    and contact pages, without the blog (its 95% point 2.66 times the floor, 1.30 at the
    other draws). Only a sample of fewer than `min_pts`² pages does so, too few to hold
    `min_pts` pages of `min_pts` page types: drawn in any short sample, the menus of a
    real MoinMoin, whose pages live at the root, each a section, gave its system and help
    pages (FindPage, HelpOnSearching) to a sample of 144 pages, and the harvest went to
    the help pages early (95% of its pages after 1.35 -> 1.79 times the floor, draw 1;
    `benchmarks/results/menu-sections-and-url-guard.md`).

    **Tiny samples** (``redraws``): a group whose URLs were all unknown gave one of them,
    and the rest of its URLs wait for the harvest. When that one leads nowhere the
    sample can end before it holds anything to cluster: a real mailing-list archive
    (MHonArc, `benchmarks/realsite/mhonarc.py`) lists its months on its home page under
    one Apath; at draw 0 the sampler took the oldest month, which held one message that
    links no other, and the sample ended after 4 pages, too few for a model, so the
    harvest ran without one. While the sample has fewer than 2·`min_pts` pages (too few
    for a model, `archiver.strategies.source`), `widen` also gives every group it drew
    from another of its unknown URLs, of a kind the sample knows fewer than `min_pts`
    URLs of, as it does for the held groups. Drawn while the sample had fewer than
    `min_pts`² pages, as ``menu_sections`` is, the rule gave a real MoinMoin's short sample
    (draw 1) its help and system pages, pages at the root as its content is, and 95% of
    its pages took 1.64 of the floor instead of 1.35 (source-target 1.66 instead of
    1.33; `benchmarks/results/case-rule-and-tiny-samples.md`).

    **Menus** (``menus``, off): holding a group assumes that its URLs lead to one type of
    page, so that the known one's destination stands for the rest. A site's menu is one
    Apath whose entries lead each to a section of its own. A real Fossil's main menu
    (Home, Timeline, Files, Branches, Tags, Forum, Tickets, Wiki, Login) is three Apaths
    by their anchors' class; the sampler took one entry of each on the home page, held the
    menu on every later page, and never fetched the forum, whose threads are three fifths
    of the site's content (`benchmarks/results/realsite-fossil.md`). With ``menus``, a
    held group is taken for a menu when its Apath's URLs on the page before were mostly
    the same (`_alike`: links that change from page to page, an issue's user and
    messages, are no menu); it then gets one of its URLs, at random, among those not
    known, of no closed kind, and under a first path segment, digits masked, that no
    known URL has (`_section`: ``forum`` of ``/forum?n=25``). Each section is drawn once
    so. Drawn from every held group with a new section, not only menus, a real Roundup's
    issue pages (``/issue12``, ``/user3``, ``/msg40``) grew its sample from 57 requests to
    193 and put off 95% of its issues from 350 requests to 451. Measured (session 50): the
    Fossil sample then fetches the forum's index, but one thread of it, and source-ucc's
    recall stays 0.284 (bfs 0.461) unless near-duplicate views are counted too (0.724);
    on the 22 other real sites the changed samples cost source-ucc 1.6% more requests to
    95% of the UCC (django-wiki 468 -> 572, whose articles live at the root, one section
    each; MoinMoin 411 -> 470; FlaskBB 734 -> 678). Off.

    **Kinds in a group** (``kind_draws``, off): a group whose URLs are all unknown gets one
    URL of each kind of URL (`mode_kind`) it holds, not one in all. A real Fossil's forum
    index lists its 25 threads and its "Older" link under one Apath: one draw per index
    page took a thread, the next index page was never sampled, and the sample held one
    thread, too few for a cluster. With ``menus``, ``section_priority`` and near-duplicate
    views counted (`archiver.strategies.source`), source-target finds the threads there
    (recall 0.012 with ``menus`` and near-duplicates, 0.186 with ``menus`` and this, 0.851
    with all four); on the 22 other real sites the four together cost source-ucc recall on
    five (Trac 0.955: wiki pages judged low-value; django-qa and Redmine 0.977) and
    source-target 2.9% more requests to 95% of the UCC
    (`benchmarks/results/realsite-fossil.md`, session 50). Off.

    **Priority by section** (``section_priority``, off): the requests made for an Apath are
    counted per first path segment of the page holding it (`_section`), not per Apath, so
    a table's cells on the forum's index come as early as on the first timeline page:
    Apaths without classes are shared by many page types (``/html/body/div/table/tr/td/a``
    on a real Fossil: the timeline's, the file lists', the forum's). Measured with
    ``kind_draws`` (above). Off.

    **Draws**: the URL drawn "at random" from a group is the one whose salted hash
    (BLAKE2b of its path and query, session ids left out, keyed by `random_state`) is the
    smallest (`_draw`): a random choice for a given seed, as the paper's, but one that
    depends on the group's URLs alone, and not on the host or port the site is served at
    or on a visit's session. Until 2026-11-29 every draw took the next number of one
    shared random stream, so a page whose links vary from visit to visit (a real
    MoinMoin's RecentChanges shows a random "tip of the day") moved every later draw of
    the sample and gave another sample, another model and another crawl from run to run
    (`benchmarks/results/realsite-moin.md`). Now a group that changed changes only its
    own draw, and a URL that is in two groups is drawn alike in both.

    **Spellings**: the crawl fetches a canonical URL once, under the spelling of the link
    that found it first (`archiver.urls.canonicalize`: ``?a=1&b=2`` and ``?b=2&a=1``,
    ``?next=%2F`` and ``?next=/``). A requested URL that the crawl fetches under another
    spelling is reported with `add_spelling` and takes that fetch's outcome: its page, or
    the page of a redirect the sampler had seen already, is the request's destination;
    otherwise (an error, robots.txt, a redirect fetched later) the request is dropped,
    as `drop` does. Until 2026-11-28 such a request stayed pending for ever: the sample never
    ran out of requests, and whenever the sampler had nothing queued the frontier took
    the links deferred while sampling, in the order they were found (a real HyperKitty's
    sign-in links: 24 such fetches; a real DokuWiki's media manager: 76).

    **Saturation rule** (when to stop before `sample_size`): the paper asks that "most
    (cluster, Apath) pairs" be covered with a sample "as small as possible". Clusters are not
    known while sampling, so coverage is measured on Apaths with the Good–Turing estimate of
    the missing mass: over all (page, Apath) groups seen so far (N of them), ``f1`` is the
    number of Apaths seen on exactly one page, and ``f1 / N`` estimates the probability that
    the next group's Apath is one never seen before. The sample is done when, after at least
    `min_pages` pages, that estimate falls to `saturation` or below; or when `sample_size`
    pages were fetched; or when nothing requested is still pending (the site is exhausted).

    **Settled Apaths**: an Apath whose first 2·`min_pts` destinations show at most one
    structure in four (a login wall behind every "reply" button) is requested no more.

    **Redirects**: a requested URL that answers with a redirect is reported with
    `add_redirect`; the page it leads to (fetched next, or fetched before) counts as the
    destination of the requested URL: for its Apath's settling, and for its kind. For
    settling, pages reached by redirects are alike only at one path (whatever the query): a
    forum's thread pages of one length can have one structure, and an in-post link that
    redirects to other threads does not lead to one page (a precaution: on the zoo forum
    it changed no crawl).

    **Permalinks home**: an Apath whose first `min_pts` sampled destinations were all
    reached by a redirect to the path of the page holding the link (a forum post's
    permalink, ``/post/ID/`` -> ``/topic/T/?page=N``, on the topic page itself) is settled
    too: each such request gives the holder again, or another page of it. On a real pybbm
    54 of the sample's 298 requests were such redirects (`benchmarks/results/
    realsite-pybbm.md`). The same Apath's destinations elsewhere (a member's post list
    links the permalinks of many topics) are other Apaths and stay open.

    **Aliases**: an Apath whose first `min_pts` sampled destinations were all reached by a
    redirect to the path of a URL the holder also links under another Apath, or to a later
    page of it (that path with one more number: ``/t/slug/7/`` -> ``/t/slug/7/2/``), is
    settled the same way: each such request gives a page the holder offers anyway. A real
    Misago's thread lists link every thread by its title and by a "last activity" link,
    ``/t/slug/ID/last/``, that redirects to the thread's last page: 41 of the sample's 279
    requests, 4 with this. (Its source-ucc: 584 -> 543 requests, 95% of the UCC after 539
    -> 501, with the fix of that day that stops the sample waiting for URLs robots.txt
    disallows, `drop`; either alone saved 6 to 22 requests: `benchmarks/results/
    realsite-misago.md`, session 47.) A redirect to a path the holder does not link (a
    member's post list's permalinks to many topics) keeps the Apath open. Pages by query
    (``?page=3``) are one path already; the later page by its path is the one shape taken
    besides, the last segment a number.

    **Walled kinds**: a kind of URL whose first `min_pts` sampled URLs all redirected, and
    all to one path (whatever the query) and pages of one structure, is closed too. That is
    a login wall: a real Spirit forum answers every profile, "reply", "publish" and history
    link of an anonymous visitor with a redirect to its login form, each with its own
    ``?next=``; the sample of 96 requests held 28 such redirects and 36 login forms. A
    kind whose redirects lead to several paths (a post's permalink to its topic, a URL to
    its form with a trailing slash, however alike the pages) stays open.

    **Refused kinds**: a requested URL refused for good, a client error (a 4xx but 408 and
    429, which say "later": `is_refusal`), is a destination too: of the structure "refused"
    and its status, for its Apath's settling, and for its kind, which closes when its first
    `min_pts` sampled URLs were all refused (and none gave a page or a redirect). Until
    2026-11 an error settled nothing. A real MoinMoin answers every URL with a query but
    ``action=show`` with the same 403 to a client whose User-Agent names it a crawler, and
    each page offers its own Info, Attachments and Login links: 334 of its 476 sampled
    requests were that 403 (`benchmarks/results/realsite-moin.md`). A feed is not refused
    (the caller says nothing of it): a real Mezzanine blog links a feed per category, tag,
    author and month with a plain ``<a>`` (36 of its 127 sampled requests), but a feed's
    link often shares its Apath with the page it syndicates (an icon beside each board),
    and settling those Apaths on their feeds cost the zoo forum (variant 1) recall within
    its budget (0.824 -> 0.773) and the real MoinMoin a page (recall 0.997), for 8 and 26
    requests saved on Mezzanine.

    **Noindex kinds**: a kind of URL (`archiver.learning.duplicates.url_kind`: the path
    with its last segment as ``*``, and the names of the query's parameters) whose first
    `min_pts` sampled pages were all *barren* is *closed*: its URLs are chosen no more,
    while the groups that hold them still get one of their other URLs. A page is barren
    when the site marks it noindex and it links fewer than `min_pts` URLs, unseen before, of
    kinds that had a page not marked noindex: an edit form or a diff, not a sitemap (a real
    DokuWiki's index view is noindex, and the one way to its user: namespace). The sample
    learns clusters and where Apaths lead; `min_pts` pages of a kind are enough for DBSCAN
    to give the kind a cluster, and the harvest sets noindex kinds aside anyway
    (`archiver.learning.duplicates`). Without it, every page sampled offers its own edit
    form, history, diffs and special pages, and a real MediaWiki's 200-page sample held 23
    articles and 157 such views; a real DokuWiki's, 46 pages and 73 media-manager views.
    The unit is the kind, not the Apath, because noindex follows the kind of page and one
    Apath often leads to several kinds: a real MediaWiki's tabs (talk, edit, history) share
    one Apath, and closing it when its first four destinations were edit forms left the
    talk pages out of the sample, and out of the harvest (recall 1.000 → 0.850). The
    caller says which pages are noindex; SOUrCe says so only while the sample so far trusts
    the signal (`archiver.learning.duplicates.DuplicateRates.signals`: a staging copy marks
    every page noindex, and every kind would close after four pages).

    **Sign-in forms**: a kind of URL whose first `min_pts` sampled pages all asked for a
    password (``<input type="password">``: a sign-in or sign-up form, whatever its ``?next=``)
    is closed too, as long as no more than half of the pages sampled so far asked for one (a
    site that shows a sign-in box on every page keeps its kinds open). A login wall that
    answers with a redirect is closed as a walled kind, by the kind of the URL requested;
    many sites also link the form itself, one URL per page it would return to: a real
    HyperKitty's sample of 200 pages held 78 sign-in and sign-up forms linked so, a real
    Spirit's 25 of 65. One form per kind is all the model needs: `min_pts` pages give the
    kind a cluster, and the harvest values it by what its pages hold. HyperKitty source-ucc
    then stops after 996 requests instead of 1,006 and source-target after 945 instead of
    981; Spirit reaches 95% of its topics 6 and 4 requests sooner
    (`benchmarks/results/source-zoo-summary.md`, session 41).

    **Modes of the query**: a kind is counted, and closed, twice over: as `url_kind` says,
    and with the *modes* of its query (`mode_kind`: a parameter whose value is a word that
    is a keyword of the links seen so far, `archiver.learning.urlshape.QueryWords`, as
    name=value). A real DokuWiki names every action in one parameter (``doku.php?id=X&
    do=login``): its login and register forms, edit forms, revision lists and diffs shared
    the kind ``/*?do&id`` with the index view (a sitemap) and with the page shown again by
    an empty ``do=``, so the kind never closed and 90 of the 207 sampled pages were such
    views. The test "links of kinds that had a page not noindex" uses the kinds with modes
    too: a login form's link to its register form is not one to content. The modes learned
    (`modes_`) go with the model, and the harvest counts noindex by them as well
    (`archiver.learning.duplicates.DuplicateRates.modes`).

    Parameters
    ----------
    sample_size : int, default=1000
        Upper bound on |D| (the profile's value; the paper finds 200–1,000 enough, §5.5).
    min_pages : int, default=200
        Never declare saturation before this many pages: §5.5 finds results stable from
        200 to 1,000 pages and a sharp drop for crawl-for-target at 100, where the K-dist
        histogram gets too sparse.
    saturation : float, default=0.01
        Good–Turing missing-mass threshold on Apaths: stop once fewer than 1 in 100 link
        groups is expected to show an Apath not seen yet.
    min_pts : int, default=4
        Sets how many destinations an Apath needs before it can settle (2·min_pts), and
        how many noindex pages in a row close a kind of URL.
    noindex_kinds : bool, default=True
        Close a kind of URL whose first `min_pts` sampled pages were all noindex (see
        "Noindex kinds").
    query_modes : bool, default=True
        Count and close kinds with the modes of their query too (see "Modes of the query").
    walls : bool, default=True
        Close a kind whose first `min_pts` sampled URLs all redirected to one path and
        pages of one structure (see "Walled kinds").
    homing : bool, default=True
        Settle an Apath whose first `min_pts` sampled URLs all redirected to the path of
        the page holding them (see "Permalinks home").
    alias_links : bool, default=True
        Also settle an Apath whose first `min_pts` sampled URLs all redirected to the paths
        of URLs the page holding them links under other Apaths, or to later pages of them
        (see "Aliases").
    refusals : bool, default=True
        Count a refusal (a client error) as a destination, and close a kind whose first
        `min_pts` sampled URLs were all refused (see "Refused kinds").
    login_kinds : bool, default=True
        Close a kind whose first `min_pts` sampled pages all asked for a password (see
        "Sign-in forms").
    widen : bool, default=True
        Let `widen` draw from the held groups of a sample that ran short (see "Held
        groups").
    menu_sections : bool, default=True
        Let `widen` draw from a held menu one URL of a section no known URL is in,
        whatever its kind, while the sample has fewer than `min_pts`² pages (see "Held
        groups").
    redraws : bool, default=True
        Let `widen` draw another URL from each group drawn from, while the sample has
        fewer than 2·`min_pts` pages (see "Tiny samples").
    menus : bool, default=False
        Let a held group that repeats its Apath's URLs of the page before draw one URL of
        a section no known URL is in (see "Menus").
    kind_draws : bool, default=False
        Draw one URL per kind of URL (`mode_kind`) of a group whose URLs are all unknown,
        not one per group (see "Kinds in a group").
    section_priority : bool, default=False
        Count the requests made for an Apath per section of the page holding it, for
        their priority (see "Priority by section").
    random_state : int, numpy Generator or None
        Seeds the choice of the one URL fetched per group (see "Draws"): an int is the
        salt of the draw's hash, a Generator gives one; None, a salt at random.

    Attributes
    ----------
    groups_ : dict[str, dict[str, list[str]]]
        Page URL → Apath → U(p,x), for every fetched page.
    order_ : list[str]
        Fetched page URLs in fetch order.
    aliases_ : dict[str, str]
        Requested URL → the URL it redirected to (`add_redirect`, or `add_page`'s
        `requested_url`).
    unrequested_ : list[str]
        Pages added that the sampler had not requested: links the strategy deferred while
        sampling, which the crawl fetches when no request of the sample is queued: some
        request was then pending that the crawl did not fetch (a retry's wait). Until
        2026-11-28 also URLs robots.txt disallows and other spellings, and a last pending
        request dropped when popped (`still_wanted`), after which the loop, which then
        looked for the end of the sample only after a fetch, fetched one more URL.
    missing_mass_ : float
        The current Good–Turing estimate (1.0 before any link was seen).
    available : callable or None
        Set by a caller whose URLs are not all there to fetch: only URLs it says True of
        are drawn (`archiver.learning.offline`: the URLs an archive holds). None: all.

    References
    ----------
    Xu, Gao & Callan (2018), §4.1 (one random link per unique Apath; U(p,x)); §5.5 (sample
    size). I. J. Good (1953), "The population frequencies of species", for the missing mass.
    """

    def __init__(
        self, sample_size: int = 1000, *, min_pages: int = 200, saturation: float = 0.01,
        min_pts: int = 4, noindex_kinds: bool = True, query_modes: bool = True,
        walls: bool = True, widen: bool = True, homing: bool = True, alias_links: bool = True,
        refusals: bool = True, login_kinds: bool = True, menu_sections: bool = True,
        redraws: bool = True, menus: bool = False,
        kind_draws: bool = False, section_priority: bool = False,
        random_state: int | np.random.Generator | None = None,
    ) -> None:
        if sample_size < 1:
            raise ValueError(f"sample_size must be >= 1; got {sample_size}")
        self.sample_size = sample_size
        self.min_pages = min_pages
        self.saturation = saturation
        self.min_pts = min_pts
        self.noindex_kinds = noindex_kinds
        self.query_modes = query_modes
        self.walls = walls
        self.homing = homing
        self.alias_links = alias_links
        self.refusals = refusals
        self.login_kinds = login_kinds
        self.menu_sections = menu_sections
        self.redraws = redraws
        self.menus = menus
        self.kind_draws = kind_draws
        self.section_priority = section_priority
        self.widen_held = widen
        self.random_state = random_state
        self._salt = _salt(random_state)
        self.available: Callable[[str], bool] | None = None
        self.groups_: dict[str, dict[str, list[str]]] = {}
        self.order_: list[str] = []
        self.aliases_: dict[str, str] = {}
        self._known: set[str] = set()       # fetched, failed or requested (`_know`)
        self._sections: set[str] = set()    # their first path segments ("Menus")
        self._menu_of: dict[str, frozenset[str]] = {}  # Apath → its URLs on the last page
        #                                                that had it ("Menus")
        self.dead_: set[str] = set()        # requested URLs that gave nothing (add_failure)
        self.unrequested_: list[str] = []
        self._pending: set[str] = set()     # requested, not yet reported
        self._followed: Counter[tuple[str, str]] = Counter()  # (section of the holder,
        #                                          Apath) → requests made for it ("Priority")
        self._via: dict[str, str] = {}             # requested URL → the Apath it came from
        self._holder: dict[str, str] = {}          # requested URL → the page it was on
        self._homed: Counter[str] = Counter()      # Apath → destinations reached by a
        #                       redirect to their holder's path or another of its links
        self._signatures: dict[str, set[str]] = {}  # Apath → signatures of its destinations
        self._arrived: Counter[str] = Counter()    # Apath → destinations fetched
        self.settled_: set[str] = set()
        self._kind_pages: Counter[str] = Counter()   # URL kind → pages fetched
        self._kind_barren: Counter[str] = Counter()  # URL kind → of them, barren (`_count_kind`)
        self._kind_login: Counter[str] = Counter()   # URL kind → of them, sign-in forms
        self._logins = 0                              # sampled pages that asked a password
        self._indexable: set[str] = set()             # URL kinds with a page not noindex
        self._linked: set[str] = set()                # every URL linked by a fetched page
        self._words = QueryWords()                    # keyword query values of _linked
        self.closed_kinds_: set[str] = set()
        self._landing: dict[str, str] = {}           # redirect target → the URL requested
        self._spelled: dict[str, str] = {}           # link URL → the spelling fetched for it
        self._awaiting: dict[str, list[str]] = {}    # that spelling → requests it answers
        self._signature_of: dict[str, str] = {}      # fetched page → its signature
        self._walls: dict[str, set[tuple[str, str]]] = {}  # URL kind → (path, signature)
        #                                             of the pages its redirects led to
        self._redirected: Counter[str] = Counter()   # URL kind → sampled URLs that redirected
        self._direct: Counter[str] = Counter()       # URL kind → pages fetched without one
        self._refused: Counter[str] = Counter()      # URL kind → sampled URLs refused
        self._pages_with: Counter[str] = Counter()  # Apath → pages it appeared on
        self._held: list[tuple[str, list[str], str, bool]] = []  # (Apath, U(p,x), p, a
        #                  menu: `_alike`) of groups given nothing for a known URL (`widen`)
        self._drawn: list[tuple[str, list[str], str]] = []  # (Apath, U(p,x), p) of groups
        #                                       drawn from, while the sample is tiny (`widen`)
        self._n_groups = 0
        self._f1 = 0

    # --- reporting -------------------------------------------------------------------------
    def add_seeds(self, urls: Iterable[str]) -> None:
        """Register the seeds as requested (the loop fetches them first)."""
        for url in urls:
            if url not in self._known:
                self._know(url)
                self._pending.add(url)

    def add_page(
        self, url: str, links: Iterable[LinkLike], *, requested_url: str | None = None,
        signature: str | None = None, noindex: bool = False, login: bool = False,
    ) -> list[SampleRequest]:
        """Record a fetched page and its in-scope navigation links; return links to sample.

        Parameters
        ----------
        url : str
            The page's final URL.
        links : iterable of Link
            Its navigation links (in scope, same site; §3.3 "within the same website").
        requested_url : str, optional
            The URL that was requested, when a redirect led to `url`.
        signature : str, optional
            The page's structural signature, which lets the sampler settle Apaths that
            always lead to the same page.
        noindex : bool, default=False
            The site marks the page ``noindex``, which lets the sampler close kinds of URL
            that only lead to such pages.
        login : bool, default=False
            The page asks for a password (`archiver.page.Page.asks_password`), which lets
            the sampler close kinds of URL that only lead to sign-in forms.
        """
        if requested_url is None:
            requested_url = self._landing.pop(url, None)   # reached by a redirect
        if requested_url is None and url not in self._pending and url not in self._awaiting \
                and url not in self.groups_:
            self.unrequested_.append(url)
        for u in (url, requested_url):
            if u is not None:
                self._pending.discard(u)
                self._know(u)
        if requested_url is not None and requested_url != url:
            self.aliases_[requested_url] = url
        if signature is not None:
            self._signature_of[url] = signature
            self._arrive(requested_url or url, signature,
                         landing=url if requested_url not in (None, url) else None)
        else:
            self._via.pop(requested_url or url, None)
        self._count_kind(requested_url or url, noindex, links, login=login)
        for fetched in dict.fromkeys((url, requested_url or url)):   # in a fixed order
            for twin in self._awaiting.pop(fetched, ()):
                self._answer(twin, signature)
        if url in self.groups_:
            return []
        groups: dict[str, list[str]] = {}
        for link in links:
            if link.url != url:
                groups.setdefault(canonical_apath(link.anchor_path), []).append(link.url)
        self.groups_[url] = groups
        self.order_.append(url)
        for apath in groups:
            self._n_groups += 1
            self._pages_with[apath] += 1
            on_pages = self._pages_with[apath]
            if on_pages == 1:
                self._f1 += 1
            elif on_pages == 2:
                self._f1 -= 1
        if self.n_pages >= self.sample_size or self.saturated:
            return []
        requests = []
        for apath in sorted(groups):
            urls = groups[apath]
            before = self._menu_of.get(apath)
            self._menu_of[apath] = frozenset(urls)
            if apath in self.settled_:
                continue
            if any(u in self._known for u in urls):
                menu = before is not None and _alike(before, urls)
                self._held.append((apath, urls, url, menu))
                if self.menus and menu and (new := self._new_sections(urls)):
                    requests.append(self._request(self._draw(new),
                                                  apath, url))
                continue
            fresh = [u for u in dict.fromkeys(urls) if self._drawable(u)]
            if not fresh:
                continue
            pools = [fresh]
            if self.kind_draws:                           # "Kinds in a group"
                by_kind: dict[str, list[str]] = {}
                for u in fresh:
                    by_kind.setdefault(self.mode_kind(u), []).append(u)
                pools = [by_kind[kind] for kind in sorted(by_kind)]
            for pool in pools:
                requests.append(self._request(self._draw(pool),
                                              apath, url))
            if self.redraws and self.n_pages < 2 * self.min_pts:
                self._drawn.append((apath, urls, url))
        return requests

    def _draw(self, urls: list[str]) -> str:
        """The URL of `urls` drawn for its group: the smallest salted hash of its path and
        query, session ids left out ("Draws")."""
        def rank(url: str) -> bytes:
            parts = urlsplit(strip_session_ids(url))
            return hashlib.blake2b(f"{parts.path}?{parts.query}".encode("utf-8", "replace"),
                                   digest_size=8, key=self._salt).digest()
        return min(urls, key=rank)

    def _know(self, url: str) -> None:
        self._known.add(url)
        self._sections.add(_section(url))

    def _new_sections(self, urls: list[str]) -> list[str]:
        """The URLs of a held group that are not known, of no closed kind, and under a first
        path segment no known URL has ("Menus")."""
        return [u for u in dict.fromkeys(urls) if u not in self._known
                and _section(u) not in self._sections and self._drawable(u)]

    def _request(self, url: str, apath: str, holder: str) -> SampleRequest:
        """Request `url` for `apath` (found on the page `holder`), with a higher priority
        for Apaths followed less."""
        key = (_section(holder) if self.section_priority else "", apath)
        request = SampleRequest(url, apath, 1.0 / (1.0 + self._followed[key]))
        self._followed[key] += 1
        self._know(url)
        self._pending.add(url)
        self._via[url] = apath
        self._holder[url] = holder
        return request

    def widen(self) -> list[SampleRequest]:
        """Requests for the groups given nothing because they held a known URL, when the
        sample ran out of requests before `min_pages` ("Held groups"): each gets one of its
        URLs at random among those not known, of no closed kind, and of a kind (`mode_kind`)
        the sample knows fewer than `min_pts` URLs of, counting the ones drawn here; a held
        menu, while the sample has fewer than `min_pts`² pages, also one of a first path
        segment no known URL has (``menu_sections``); and, while the sample has fewer than
        2·`min_pts` pages, each group it drew from gets another URL by the same rule
        (``redraws``). Empty otherwise; every held group is drawn from once, a group drawn
        from in a tiny sample once per widening."""
        if not self.widen_held or self._pending or not self.order_ \
                or self.n_pages >= min(self.min_pages, self.sample_size):
            return []
        held, self._held = self._held, []
        kinds = Counter(self.mode_kind(u) for u in self._known)
        sections = self.menu_sections and self.n_pages < self.min_pts ** 2
        requests = []
        drawn = self._drawn if self.redraws and self.n_pages < 2 * self.min_pts else []
        for apath, urls, holder, menu in [*held, *((a, u, h, False) for a, u, h in drawn)]:
            if apath in self.settled_:
                continue
            fresh = [u for u in dict.fromkeys(urls) if u not in self._known
                     and self._drawable(u) and (kinds[self.mode_kind(u)] < self.min_pts or (
                         menu and sections and _section(u) not in self._sections))]
            if not fresh:
                continue
            choice = self._draw(fresh)
            kinds[self.mode_kind(choice)] += 1
            requests.append(self._request(choice, apath, holder))
        return requests

    def add_redirect(self, url: str, location: str) -> None:
        """A requested URL answered with a redirect to `location` (an absolute URL). The
        page there, when the loop fetches it (or fetched it before), is the requested URL's
        destination ("Redirects")."""
        location = self._spelled.get(location, location)
        if url == location:
            return
        self.aliases_[url] = location
        signature = self._signature_of.get(location)
        if signature is not None:      # a page fetched before: no add_page will follow
            self._arrive(url, signature, landing=location)
        elif location not in self._landing:
            self._landing[location] = url

    def add_spelling(self, url: str, stored: str) -> None:
        """A link to `url` is fetched as `stored`, another spelling of the same canonical URL
        that the crawl knew first: a requested `url` takes `stored`'s outcome ("Spellings")."""
        self._spelled[url] = stored
        if url not in self._pending:
            return
        if stored in self._signature_of:
            self._answer(url, self._signature_of[stored])
        elif stored in self.aliases_:                  # it redirected
            self._pending.discard(url)
            self.add_redirect(url, self.aliases_[stored])
        elif stored in self._known and stored not in self._pending:
            self.drop(url)                              # no page, or robots.txt disallows it
        else:
            self._awaiting.setdefault(stored, []).append(url)

    def _answer(self, url: str, signature: str | None) -> None:
        """The request `url` was fetched under another spelling: a page of structure
        `signature`, or (None) no page."""
        if url not in self._pending:
            return
        if signature is None:
            self.drop(url)
        else:
            self._pending.discard(url)
            self._arrive(url, signature, landing=None)

    def _arrive(self, requested: str, signature: str, *, landing: str | None) -> None:
        """The page of structure `signature` was the destination of `requested` (at
        `landing` when it redirected): settle the Apath it was chosen for ("Settled Apaths")
        and close its kind when walled ("Walled kinds")."""
        via = self._via.pop(requested, None)
        holder = self._holder.pop(requested, None)
        # a page reached by a redirect is one destination per path and structure ("Redirects")
        wall = None if landing is None else (path_of(landing), signature)
        if via is not None:
            arrived = self._destination(via, signature if wall is None else "\t".join(wall))
            if landing is not None and holder is not None \
                    and self._lands_home(landing, holder, via):
                self._homed[via] += 1           # "Permalinks home", "Aliases"
                if self._homed[via] == arrived >= self.min_pts:
                    self.settled_.add(via)
        for kind in {url_kind(requested), self.mode_kind(requested)}:
            if wall is None:
                self._direct[kind] += 1
                continue
            self._redirected[kind] += 1
            walls = self._walls.setdefault(kind, set())
            walls.add(wall)
            if self.walls and not self._direct[kind] and len(walls) == 1 \
                    and self._redirected[kind] >= self.min_pts:
                self.closed_kinds_.add(kind)

    def _lands_home(self, landing: str, holder: str, via: str) -> bool:
        """Whether a redirect of a link of the Apath `via` on the page `holder` landed
        where the sample gains nothing: on the holder's own path ("Permalinks home"), or on
        the path of a URL the holder links under another Apath, or a later page of it
        ("Aliases"); paths without their query, as for walls."""
        path = path_of(landing)
        if self.homing and path == path_of(holder):
            return True
        if not self.alias_links:
            return False
        # a later page by its path: the path with one more number (/t/slug/7/ -> /t/slug/7/3/);
        # a number under the root (/7) is no page of the home page
        first_page = _LAST_NUMBER.sub("/", path)
        if urlsplit(first_page).path == "/":
            first_page = path
        return any(path_of(u) in (path, first_page)
                   for apath, urls in self.groups_.get(holder, {}).items()
                   if apath != via for u in urls)

    def _destination(self, via: str, signature: str) -> int:
        """One more destination of the Apath `via`, of structure `signature`: settle the
        Apath when its first 2·`min_pts` show at most one structure in four ("Settled
        Apaths"); the number of its destinations so far."""
        seen = self._signatures.setdefault(via, set())
        seen.add(signature)
        self._arrived[via] += 1
        arrived = self._arrived[via]
        if arrived >= 2 * self.min_pts and 4 * len(seen) <= arrived:
            self.settled_.add(via)
        return arrived

    def still_wanted(self, url: str) -> bool:
        """Ask before fetching a requested URL: False when the Apath it was chosen for has
        settled since, or its kind of URL closed (the URL is then dropped from the pending
        requests)."""
        via = self._via.get(url)
        if via is None or (via not in self.settled_ and not self._closed(url)):
            return True
        del self._via[url]
        self._pending.discard(url)
        return False

    def mode_kind(self, url: str) -> str:
        """`url_kind` with the query's modes, the keywords of the site's links so far
        (`archiver.learning.duplicates.mode_kind`): ``/*?do=login&id``."""
        return mode_kind(url, self._words.is_keyword) if self.query_modes else url_kind(url)

    @property
    def modes_(self) -> dict[str, list[str]]:
        """The mode values learned so far per query parameter (words of letters), for the
        harvest's kinds (`archiver.learning.duplicates.DuplicateRates.modes`)."""
        if not self.query_modes:
            return {}
        words = {k: [v for v in values if v.isalpha()]
                 for k, values in self._words.keywords().items()}
        return {k: v for k, v in words.items() if v}

    def _drawable(self, url: str) -> bool:
        """Whether `url` may be drawn: its kind is not closed, and it is `available`."""
        return not self._closed(url) and (self.available is None or self.available(url))

    def _closed(self, url: str) -> bool:
        """Whether `url`'s kind, or its kind with modes, is closed."""
        return url_kind(url) in self.closed_kinds_ or self.mode_kind(url) in self.closed_kinds_

    def _count_kind(self, url: str, noindex: bool, links: Iterable[LinkLike], *,
                    login: bool = False) -> None:
        """Count a fetched page against its URL kind and its kind with modes, as barren
        when it is noindex and links fewer than `min_pts` URLs unseen before of kinds (with
        modes) that had a page not noindex (a sitemap is not barren); close a kind when its
        first `min_pts` pages were all barren, or all sign-in forms ("Sign-in forms")."""
        new = {link.url for link in links} - self._linked
        self._linked |= new
        for u in new:
            self._words.add(u)
        kinds = {url_kind(url), self.mode_kind(url)}
        barren = noindex and sum(self.mode_kind(u) in self._indexable
                                 for u in new) < self.min_pts
        if not noindex:
            self._indexable |= kinds
        self._logins += login
        # the signal is trusted while at most half the pages so far asked for a password
        logins_trusted = 2 * self._logins <= self.n_pages + 1
        for kind in kinds:
            self._kind_pages[kind] += 1
            self._kind_barren[kind] += barren
            self._kind_login[kind] += login
            pages = self._kind_pages[kind]
            if self.noindex_kinds and pages >= self.min_pts \
                    and self._kind_barren[kind] == pages:
                self.closed_kinds_.add(kind)
            if self.login_kinds and logins_trusted and pages >= self.min_pts \
                    and self._kind_login[kind] == pages:
                self.closed_kinds_.add(kind)

    def drop(self, url: str) -> None:
        """A requested URL will not be fetched (robots.txt disallows it): no longer pending,
        and no destination of its Apath."""
        self._pending.discard(url)
        self._know(url)
        self._via.pop(url, None)
        self._holder.pop(url, None)
        for twin in self._awaiting.pop(url, ()):
            self.drop(twin)

    def add_failure(self, url: str, dead: bool = False, refused: str = "") -> None:
        """A requested URL gave no HTML page (error, non-HTML, redirect). `dead`: it gave
        nothing at all (no response, 4xx/5xx, a redirect), unlike a document or an image;
        the navigation table counts a dead destination as leading to no cluster.
        `refused`: why it gives nothing for good, if it does (a client error's status),
        which makes it a destination ("Refused kinds")."""
        self._pending.discard(url)
        self._know(url)
        for twin in self._awaiting.pop(url, ()):
            self._answer(twin, None)
        if dead:
            self.dead_.add(url)
        if not self.refusals or not refused:
            return
        self._holder.pop(url, None)
        if (via := self._via.pop(url, None)) is not None:
            self._destination(via, f"\trefused {refused}")
        for kind in {url_kind(url), self.mode_kind(url)}:
            self._refused[kind] += 1
            if not self._direct[kind] and not self._redirected[kind] \
                    and self._refused[kind] >= self.min_pts:
                self.closed_kinds_.add(kind)

    # --- state -----------------------------------------------------------------------------
    @property
    def n_pages(self) -> int:
        """Pages fetched into the sample so far."""
        return len(self.order_)

    @property
    def missing_mass_(self) -> float:
        """Good–Turing estimate of the share of (page, Apath) groups with an unseen Apath."""
        return self._f1 / self._n_groups if self._n_groups else 1.0

    @property
    def saturated(self) -> bool:
        """True when the saturation rule holds (see the class docstring)."""
        if self.saturation <= 0:  # 0 switches the rule off
            return False
        return self.n_pages >= self.min_pages and self.missing_mass_ <= self.saturation

    @property
    def done(self) -> bool:
        """True when the sample is complete: size reached, saturated, or nothing pending."""
        if self.n_pages >= self.sample_size or self.saturated:
            return True
        return self.n_pages > 0 and not self._pending

    def stop_reason(self) -> str:
        """Why `done` is true ('' while sampling), for logs and the model manifest."""
        if self.n_pages >= self.sample_size:
            return "sample_size"
        if self.saturated:
            return "saturated"
        if self.n_pages > 0 and not self._pending:
            return "exhausted"
        return ""
