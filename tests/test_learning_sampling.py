"""The §4.1 sampler: one random link per (page, Apath), U(p,x) kept, and early stopping."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from archiver.learning.sampling import SiteSampler, is_refusal
from tests.test_learning_sites import Forum, sample_site

LIST = "/html/body/ul/li/a"
NAV = '/html/body/div/a[@class="nav"]'


@dataclass(frozen=True)
class L:
    url: str
    anchor_path: str


def list_page(n: int) -> list[L]:
    return [L(f"http://s/{i}", '/html/body[@class="x"]/ul[@id="l"]/li/a') for i in range(n)]


def test_one_random_link_per_group_and_the_whole_url_list_is_kept() -> None:
    sampler = SiteSampler(10, random_state=0)
    sampler.add_seeds(["http://s/"])
    links = [*list_page(10), L("http://s/about", '/html/body/div/a[@class="nav"]')]
    requests = sampler.add_page("http://s/", links)
    assert sorted(r.apath for r in requests) == [NAV, LIST]
    chosen = next(r.url for r in requests if r.apath == LIST)
    assert chosen in {f"http://s/{i}" for i in range(10)}
    assert sampler.groups_["http://s/"][LIST] == [f"http://s/{i}" for i in range(10)]
    assert sampler.groups_["http://s/"][NAV] == ["http://s/about"]
    # the same choice for the same seed, and a group with a known URL asks for nothing
    again = SiteSampler(10, random_state=0)
    assert [r.url for r in again.add_page("http://s/", links)] == [r.url for r in requests]
    assert sampler.add_page("http://s/about", [L(chosen, LIST), L("http://s/", NAV)]) == []


def test_a_group_s_draw_depends_on_its_own_urls_alone() -> None:
    """A page whose links vary from visit to visit (a real MoinMoin's random "tip of the
    day") must not move the draws of the other groups ("Draws"): until 2026-11-29 one
    extra group took a number of the shared random stream, and every later draw changed."""
    tip = '/html/body/div[@class="tip"]/a'
    other = '/html/body/div[@class="side"]/ul/li/a'
    side = [L(f"http://s/side{i}", other) for i in range(40)]

    def draws(extra: list[L], seed: int = 0) -> list[str]:
        sampler = SiteSampler(100, random_state=seed)
        first = sampler.add_page("http://s/", [*extra, *list_page(40)])
        then = sampler.add_page("http://s/next", side)
        return [r.url for r in [*first, *then]]

    plain = draws([])
    with_tip = draws([L("http://s/tip", tip)])
    assert len(plain) == 2 and "http://s/tip" in with_tip
    with_tip.remove("http://s/tip")
    assert with_tip == plain                    # the other groups drew the same URLs
    # a random choice all the same: other seeds draw other URLs of the 40
    assert len({draws([], seed)[1] for seed in range(20)}) > 10
    # a URL in two groups is drawn alike in both, whatever the order of the group
    sampler = SiteSampler(100, random_state=3)
    urls = [f"http://s/{i}" for i in range(40)]
    assert sampler._draw(urls) == sampler._draw(urls[::-1])
    # a Generator seeds the salt, so one Generator's state gives one draw
    assert SiteSampler(10, random_state=np.random.default_rng(5))._draw(urls) \
        == SiteSampler(10, random_state=np.random.default_rng(5))._draw(urls)


def test_a_draw_ignores_the_host_port_and_session() -> None:
    """The same site served at another address (a test server's port 0), or visited in
    another session (phpBB's ``sid``), draws the same URLs ("Draws")."""
    def drawn(host: str, query: str = "") -> str:
        urls = [f"http://{host}/t/{i}{query}" for i in range(40)]
        return SiteSampler(10, random_state=0)._draw(urls).removeprefix(f"http://{host}")

    assert drawn("127.0.0.1:40001") == drawn("127.0.0.1:40002") == drawn("forum.example")
    one, other = (drawn("f", f"?sid={c * 32}").partition("?")[0] for c in "ab")
    assert one == other == drawn("f")


def test_only_available_urls_are_drawn() -> None:
    """Learning from an archive draws among the URLs it holds (`available`); a group with
    none of them asks for nothing."""
    sampler = SiteSampler(100, random_state=0)
    held = {"http://s/7", "http://s/12"}
    sampler.available = held.__contains__
    links = [*list_page(40), L("http://s/about", NAV)]
    requests = sampler.add_page("http://s/", links)
    assert [r.url for r in requests] in (["http://s/7"], ["http://s/12"])
    drawn = [r.url for r in SiteSampler(100, random_state=0).add_page("http://s/", links)]
    assert "http://s/about" in drawn and not held & set(drawn)    # all of them: another


def test_a_sample_that_runs_short_draws_from_the_groups_it_held() -> None:
    """A group with a known URL gets nothing, and is held. When the sample runs out of
    requests before `min_pages`, `widen` draws one URL of each held group, of a kind the
    sample knows fewer than min_pts URLs of: a MonoBook-like wiki's sidebar is one Apath
    (no classes), the main page beside each article's talk link, and no talk page was ever
    sampled (the zoo's wiki v1: 24 of 288 talk pages archived). Each group once; nothing
    with ``widen=False`` or once `min_pages` pages were fetched."""
    side = "/html/body/div/div/ul/li/a"

    def run(widen: bool = True, min_pages: int = 100) -> tuple[SiteSampler, list[str]]:
        sampler = SiteSampler(100, min_pages=min_pages, random_state=0, widen=widen)
        sampler.add_seeds(["http://w/index.php?title=Main"])
        sampler.add_page("http://w/index.php?title=Main",
                         [L(f"http://w/index.php?title=A{i}", LIST) for i in range(10)])
        for i in range(10):     # every article: the main page, its talk page, the log in
            sampler.add_page(f"http://w/index.php?title=A{i}", [
                L("http://w/index.php?title=Main", side),
                L(f"http://w/index.php?title=Talk:A{i}", side),
                L(f"http://w/index.php?title=Special:Login&returnto=A{i}", side)])
        assert sampler.done and sampler.stop_reason() == "exhausted"
        return sampler, [r.url for r in sampler.widen()]

    sampler, drawn = run()
    # ten held groups, four URLs of each kind at most (talk pages, log-in forms): the last
    # two groups get nothing
    assert len(drawn) == 8
    assert sum("Talk:" in u for u in drawn) == 4 == sum("Login" in u for u in drawn)
    assert not sampler.done and sampler.widen() == []          # pending, and held once
    for url in drawn:
        sampler.add_failure(url)
    assert sampler.done and sampler.widen() == []              # nothing held any more
    assert run()[1] == drawn                                    # one seed, one draw
    assert run(widen=False)[1] == []
    assert run(min_pages=11)[1] == []                           # 11 pages: not short


def _short_menu_sample(**kw: Any) -> tuple[SiteSampler, list[str]]:
    """A Mezzanine-like site: one Apath holds the menu (about, contact, help, legal, blog,
    gallery) on every page, the first four entries known from the start; the sample runs
    out after them. Returns the sampler and what `widen` draws."""
    site = "http://m"
    known = [f"{site}/{p}/" for p in ("about", "contact", "help", "legal")]
    menu = [*known, f"{site}/blog/", f"{site}/gallery/"]
    sampler = SiteSampler(100, min_pages=100, random_state=0, **kw)
    sampler.add_seeds([f"{site}/", *known])
    for page in [f"{site}/", *known]:
        assert sampler.add_page(page, [L(u, NAV) for u in menu if u != page]) == []
    assert sampler.done and sampler.stop_reason() == "exhausted"
    return sampler, sorted(r.url for r in sampler.widen())


def test_a_short_sample_draws_a_held_menu_s_new_sections_whatever_their_kind() -> None:
    """A real Mezzanine's menu (about, contact, blog, gallery) is one Apath held on every
    page for its known entries, and the sample (draw 1) ended after 8 pages, none of the
    blog: ``/blog/`` is of the kind ``/*/`` of the about and contact pages, of which the
    sample knew 4, so `widen` left it (95% of the posts after 2.66 times the floor, 1.30
    at the other draws). From a held menu (`_alike`), `widen` also draws a URL under a
    first path segment no known URL has, each such section once ("Held groups")."""
    assert _short_menu_sample()[1] == ["http://m/blog/", "http://m/gallery/"]
    assert _short_menu_sample(menu_sections=False)[1] == []
    # only while the sample is shorter than min_pts² pages (5 pages here, minPts 2: 4)
    assert _short_menu_sample(min_pts=2)[1] == []
    # links that change from page to page are no menu: a new section of a kind known
    # min_pts times is left there
    sampler = SiteSampler(100, min_pages=100, random_state=0)
    pages = [f"http://m/{p}/" for p in ("about", "contact", "help", "legal")]
    sampler.add_seeds(["http://m/", *pages])
    assert sampler.add_page("http://m/", [L(u, NAV) for u in pages]) == []
    for i, page in enumerate(pages):
        assert sampler.add_page(page, [L("http://m/", NAV), L(f"http://m/s{i}/", NAV)]) == []
    assert sampler.done and len(sampler._held) == 5
    assert sampler.widen() == []


def _archive_sample(months: list[int], **kw: Any) -> tuple[SiteSampler, list[str]]:
    """A MHonArc-like list archive: the home page lists each month's date index under one
    Apath; a month's index links its messages, and a message links its index. The crawl
    fetches whatever the sampler (and `widen`, once the sample runs dry) requests, in
    order; returns the sampler and the URLs fetched. `months` gives each month's
    message count."""
    home, month_links = "http://a/", '/html/body/table/tr/td/a'
    pages = {home: [L(f"http://a/{m}/maillist.html", month_links) for m in range(len(months))]}
    for m, n in enumerate(months):
        index = f"http://a/{m}/maillist.html"
        pages[index] = [L(f"http://a/{m}/msg{i}.html", LIST) for i in range(n)]
        for i in range(n):
            pages[f"http://a/{m}/msg{i}.html"] = [L(index, NAV)]
    sampler = SiteSampler(100, min_pages=100, random_state=0, **kw)
    sampler.add_seeds([home])
    queue, fetched = [home], []
    while queue:
        url = queue.pop(0)
        fetched.append(url)
        queue += [r.url for r in sampler.add_page(url, pages[url])]
        if not queue:
            queue = [r.url for r in sampler.widen()]
    return sampler, fetched


def test_a_tiny_sample_draws_again_from_the_groups_it_drew_from() -> None:
    """A real MHonArc archive's home page lists its months under one Apath; at draw 0 the
    sampler took a month of one message, which links nothing new, and the sample ended
    after 4 pages: no model ("Tiny samples"). While the sample has fewer than 2·min_pts
    pages, `widen` gives each group it drew from another URL, of a kind it knows fewer
    than min_pts URLs of."""
    # the month the salt's draw takes first holds one message: it ends the sample
    first = SiteSampler(100, random_state=0)._draw(
        [f"http://a/{m}/maillist.html" for m in range(10)])
    dead = int(first.split("/")[3])
    months = [12] * 10
    months[dead] = 1
    sampler, fetched = _archive_sample(months)
    assert fetched[:3] == ["http://a/", first, f"http://a/{dead}/msg0.html"]
    assert len(fetched) > 3 and sampler.done
    kinds = {sampler.mode_kind(u) for u in fetched[1:]}
    assert kinds == {"/N/*"}                     # one kind: 4 URLs of it, then no more draws
    redrawn = [u for u in fetched[3:] if u.endswith("maillist.html")]
    assert len(redrawn) == 1                     # the second month, and its messages' draw
    # without the rule the sample ends after the dead month, as before
    assert _archive_sample(months, redraws=False)[1] == fetched[:3]
    # a sample of 2·min_pts pages or more is not tiny: min_pts 1 allows 1 page only
    assert _archive_sample(months, min_pts=1)[1] == fetched[:3]


def _walk_menu(sampler: SiteSampler) -> list[str]:
    """A Fossil-like site: one Apath holds the main menu on every page (its entries lead to
    different sections), and each section page links a list of its items. The crawl fetches
    whatever the sampler requests, in order; returns the fetched URLs."""
    menu = ["/timeline", "/dir", "/ticket", "/forum", "/wiki", "/login", "/brlist",
            "/taglist"]
    menu_path = '/html/body/div/a[@class="wideonly"]'

    def links(url: str) -> list[L]:
        out = [L(f"http://f{m}", menu_path) for m in menu if f"http://f{m}" != url]
        if url != "http://f/" and "/item/" not in url:
            out += [L(f"{url}/item/{i}", LIST) for i in range(6)]
        return out

    sampler.add_seeds(["http://f/"])
    queue, fetched = ["http://f/"], []
    while queue and not sampler.done:
        url = queue.pop(0)
        fetched.append(url)
        queue += [r.url for r in sampler.add_page(url, links(url))]
    return fetched


def test_a_menu_held_for_a_known_entry_still_gives_its_other_sections() -> None:
    """A group holding a known URL is held: its destination stands for the group's ("Held
    groups"). A menu's entries lead each to a section of its own: on a real Fossil the
    sampler took one menu entry on the home page and held the menu on every later page, and
    the forum, three fifths of the site's content, was never sampled. A group that repeats
    its Apath's URLs of the page before (a menu) draws one of its entries under a first
    path segment no known URL has ("Menus", off by default); without ``menus`` only the first
    is taken."""
    fetched = _walk_menu(SiteSampler(100, min_pages=100, random_state=0, widen=False,
                                     menus=True))
    assert {"http://f/forum", "http://f/wiki", "http://f/ticket"} <= set(fetched)
    sections = [u for u in fetched if "/item/" not in u]
    assert len(sections) == 9                       # the home page and the eight entries
    without = _walk_menu(SiteSampler(100, min_pages=100, random_state=0, widen=False))
    # the home page's draw, then one more where the menu held no known URL: the page of
    # the entry drawn, which does not link itself
    assert len([u for u in without if "/item/" not in u]) == 3


def test_a_menu_gives_only_urls_of_sections_the_sample_has_not_requested() -> None:
    """A repeated menu's unknown entry under a section already requested (the forum's
    second page beside the forum) is not drawn; one under a new section is."""
    sampler = SiteSampler(100, min_pages=100, random_state=0, widen=False, menus=True)
    sampler.add_seeds(["http://f/"])
    menu = [L("http://f/", NAV), L("http://f/forum", NAV), L("http://f/forum?x=25", NAV)]
    sampler.add_page("http://f/", [L("http://f/forum", LIST)])
    assert sampler.add_page("http://f/a", menu) == []       # first time: held, no menu yet
    assert sampler.add_page("http://f/b", menu) == []       # a menu, but no new section
    drawn = sampler.add_page("http://f/c", [*menu, L("http://f/wiki", NAV)])
    assert [r.url for r in drawn] == ["http://f/wiki"]


def test_a_held_group_that_changes_from_page_to_page_is_no_menu() -> None:
    """Links that differ on every page (an issue's related issues, a post's tags beside one
    known) are no menu, whatever their first path segments: a real Roundup links
    /issue123, /user7, /msg45 so, and drawing from them cost its sample a hundred
    requests."""
    sampler = SiteSampler(100, min_pages=100, random_state=0, widen=False, menus=True)
    sampler.add_seeds(["http://r/"])
    sampler.add_page("http://r/", [L(f"http://r/issue{n}", LIST) for n in range(1, 6)])
    for n in range(1, 6):           # each issue: the home page (known), its user, a message
        assert sampler.add_page(f"http://r/issue{n}", [
            L("http://r/", NAV), L(f"http://r/user{n}", NAV), L(f"http://r/msg{n}", NAV)
        ]) == []
    assert len(sampler._held) == 5
    # the same group on every page is a menu: its new sections are drawn
    menu = SiteSampler(100, min_pages=100, random_state=0, widen=False, menus=True)
    menu.add_seeds(["http://r/"])
    menu.add_page("http://r/", [L(f"http://r/issue{n}", LIST) for n in range(1, 6)])
    drawn = [r.url for n in range(1, 4) for r in menu.add_page(f"http://r/issue{n}", [
        L("http://r/", NAV), L("http://r/user?@sort=id", NAV), L("http://r/msg", NAV)])]
    assert sorted(drawn) == ["http://r/msg", "http://r/user?@sort=id"]


def test_kind_draws_take_one_url_of_each_kind_in_a_group() -> None:
    """A forum index lists its threads and its "Older" link under one Apath (a real
    Fossil's): one draw per group takes a thread nearly always; `kind_draws` takes one URL
    of each kind, a thread and the next index page."""
    links = [*(L(f"http://f/forumpost/{i:010x}", LIST) for i in range(25)),
             L("http://f/forum?x=25&n=25", LIST)]
    one = SiteSampler(100, random_state=0).add_page("http://f/forum", links)
    assert len(one) == 1
    each = SiteSampler(100, random_state=0, kind_draws=True).add_page("http://f/forum", links)
    assert len(each) == 2 and "http://f/forum?x=25&n=25" in {r.url for r in each}


def test_section_priority_counts_an_apath_per_section_of_its_holder() -> None:
    """The same Apath (a table's cells) on the timeline and on the forum's index: counted
    per Apath, the forum's first request waits behind the timeline's; counted per section
    of the holding page, both come first."""
    def second(**kw: bool) -> float:
        sampler = SiteSampler(100, random_state=0, **kw)
        sampler.add_page("http://f/timeline", [L("http://f/info/1", LIST)])
        sampler.add_page("http://f/timeline?b=2", [L("http://f/info/2", LIST)])
        (r,) = sampler.add_page("http://f/forum", [L("http://f/forumpost/1", LIST)])
        return r.priority

    assert second() == 1 / 3
    assert second(section_priority=True) == 1.0


def test_priorities_prefer_apaths_followed_less() -> None:
    sampler = SiteSampler(10, random_state=0)
    first = sampler.add_page("http://s/a", [L("http://s/1", LIST)])
    second = sampler.add_page("http://s/b", [L("http://s/2", LIST), L("http://s/3", NAV)])
    assert first[0].priority == 1.0
    assert {r.apath: r.priority for r in second} == {LIST: 0.5, NAV: 1.0}


def test_redirects_failures_and_exhaustion() -> None:
    sampler = SiteSampler(100, random_state=0)
    sampler.add_seeds(["http://s/"])
    (req,) = sampler.add_page("http://s/", [L("http://s/old", LIST)])
    assert not sampler.done
    sampler.add_page("http://s/new", [L("http://s/gone", NAV)], requested_url=req.url)
    assert sampler.aliases_ == {"http://s/old": "http://s/new"}
    assert not sampler.done                       # http://s/gone is pending
    sampler.add_failure("http://s/gone")
    assert sampler.done and sampler.stop_reason() == "exhausted"
    assert sampler.order_ == ["http://s/", "http://s/new"]


def test_sample_size_is_an_upper_bound() -> None:
    s = sample_site(Forum(seed=2), SiteSampler(60, saturation=0.0, random_state=0))
    assert len(s.urls) == 60
    assert s.sampler.stop_reason() == "sample_size"


def test_saturation_stops_early_on_a_small_site() -> None:
    site = Forum(seed=4, n_boards=3, n_topics=60, n_users=20)
    full = sample_site(site, SiteSampler(2000, saturation=0.0, random_state=0))
    assert full.sampler.stop_reason() == "exhausted"
    s = sample_site(site, SiteSampler(2000, min_pages=50, random_state=0))
    assert s.sampler.stop_reason() == "saturated"
    assert s.sampler.missing_mass_ <= 0.01
    # a third of the exhausted sample saved at least (the exhausted one is 89 to 140 pages
    # by the seed, the saturated one 58 to 66)
    assert 50 <= len(s.urls) <= 2 * len(full.urls) // 3
    # the early sample still saw every Apath that appears on more than a few pages
    def apaths(sample, min_pages):
        counts: dict[str, int] = {}
        for groups in sample.sampler.groups_.values():
            for x in groups:
                counts[x] = counts.get(x, 0) + 1
        return {x for x, n in counts.items() if n >= min_pages}
    assert apaths(full, 10) <= apaths(s, 1)


def test_apaths_to_one_repeated_page_settle() -> None:
    site = Forum(seed=5)
    s = sample_site(site, SiteSampler(300, saturation=0.0, random_state=0))
    settled = s.sampler.settled_
    assert any('class="button quote"' in x for x in settled)      # a login wall
    assert not any("topictitle" in x or "username" in x for x in settled)
    kinds = [site.page_type(u) for u in s.urls]
    assert kinds.count("login") < kinds.count("topic")
    unsettled = sample_site(site, SiteSampler(300, saturation=0.0, min_pts=1000,
                                              random_state=0))
    assert [site.page_type(u) for u in unsettled.urls].count("login") > 2 * kinds.count("login")


TABS = "/html/body/div/ul/li/a"


def _walk_tabs(sampler: SiteSampler, indexable_views: int) -> list[str]:
    """Articles 0, 1, … 23 each with tabs (talk, edit, history: one Apath, as on a real
    MediaWiki) and a link to the next article. Talk pages are indexable, and so are the
    first `indexable_views` edit or history pages sampled; the others are noindex.
    Returns the tabs sampled: "talk", "edit" or "history"."""
    sampled: list[str] = []
    for i in range(24):
        page = f"http://s/a{i}"
        tabs = [f"http://s/talk{i}", f"http://s/a{i}?do=edit", f"http://s/a{i}?do=history"]
        links = [L(f"http://s/a{i + 1}", LIST), *(L(u, TABS) for u in tabs)]
        for r in sampler.add_page(page, links):
            if r.apath == TABS and sampler.still_wanted(r.url):
                views = len(sampled) - sampled.count("talk")
                tab = r.url.rpartition("=")[2] if "?" in r.url else "talk"
                sampled.append(tab)
                sampler.add_page(r.url, [], noindex=tab != "talk" and views >= indexable_views)
    return sampled


def test_a_kind_of_url_whose_first_pages_were_all_noindex_is_closed() -> None:
    # edit forms and histories share a kind (/*?do), noindex page after page: once four
    # were, the tabs (an Apath that stays open) are sampled for the talk pages only
    sampler = SiteSampler(100, saturation=0.0, min_pts=4, random_state=0)
    sampled = _walk_tabs(sampler, indexable_views=0)
    assert sampler.closed_kinds_ == {"/*?do"} and TABS not in sampler.settled_
    assert len(sampled) == 24 and len(sampled) - sampled.count("talk") == 4
    # an indexable first view keeps the kind open (each mode of its query, ``do=edit``
    # and ``do=history``, still closes after four noindex pages of its own), as does the
    # switch
    for indexable_views, close in ((1, True), (0, False)):
        sampler = SiteSampler(100, saturation=0.0, min_pts=4, noindex_kinds=close,
                              random_state=0)
        sampled = _walk_tabs(sampler, indexable_views)
        assert "/*?do" not in sampler.closed_kinds_
        assert len(sampled) - sampled.count("talk") > 4


def _walk_logins(sampler: SiteSampler, everywhere: bool = False) -> list[str]:
    """Topics 0, 1, … each linking the next topic and its own sign-in form
    (``/accounts/login/?next=/t{i}``, as on a real HyperKitty or Spirit), on an Apath of its
    own. `everywhere`: every topic holds a sign-in box too. Returns the URLs sampled."""
    sampled: list[str] = []
    for i in range(12):
        links = [L(f"http://s/t{i + 1}", LIST), L(f"http://s/accounts/login/?next=/t{i}", NAV)]
        for r in sampler.add_page(f"http://s/t{i}", links, login=everywhere):
            if sampler.still_wanted(r.url):
                sampled.append(r.url)
                if r.apath == NAV:      # the next topic is added by the loop
                    sampler.add_page(r.url, [], login=True)
    return sampled


def test_a_kind_of_url_whose_first_pages_were_all_sign_in_forms_is_closed() -> None:
    sampler = SiteSampler(100, saturation=0.0, min_pts=4, random_state=0)
    sampled = _walk_logins(sampler)
    forms = [u for u in sampled if "login" in u]
    assert len(forms) == 4 and "/accounts/*/?next" in sampler.closed_kinds_
    assert len(sampled) - len(forms) == 12      # every next topic is still sampled
    assert NAV not in sampler.settled_          # the kind closed, not the Apath
    # switched off, or on a site whose every page asks for a password: sampled throughout
    for sampler in (SiteSampler(100, saturation=0.0, min_pts=4, login_kinds=False,
                                random_state=0),
                    SiteSampler(100, saturation=0.0, min_pts=4, random_state=0)):
        forms = [u for u in _walk_logins(sampler, everywhere=sampler.login_kinds)
                 if "login" in u]
        assert len(forms) == 12 and not sampler.closed_kinds_


def test_a_noindex_sitemap_is_no_dead_end() -> None:
    # A real DokuWiki's index view (noindex) is the one way to its user: namespace: a
    # noindex page that links min_pts pages never seen before, of kinds that were
    # indexable, does not count towards closing its kind; noindex pages linking fewer
    # (an edit form links its editor's pages), or only known or noindex URLs, do
    sampler = SiteSampler(100, saturation=0.0, min_pts=4, random_state=0)
    sampler.add_page("http://s/wiki/a0", [L("http://s/wiki/a1", LIST)])    # indexable
    for i in range(6):
        sampler.add_page(f"http://s/wiki/a0?idx=ns{i}",
                         [L(f"http://s/wiki/ns{i}:p{j}", LIST) for j in range(5)], noindex=True)
        sampler.add_page(f"http://s/wiki/a0?do=edit&n={i}",          # an editor's pages
                         [L(f"http://s/wiki/u{i}", LIST), L(f"http://s/wiki/v{i}", LIST)],
                         noindex=True)
        sampler.add_page(f"http://s/wiki/d{i}?diff=1",
                         [L(f"http://s/wiki/d{i + 1}?diff=1", LIST)], noindex=True)
    assert sampler.closed_kinds_ == {"/wiki/*?do&n", "/wiki/*?diff"}


def _walk_actions(sampler: SiteSampler) -> list[str]:
    """A DokuWiki-like walk: pages doku.php?id=pN, each with its login form (noindex,
    linking its own register, password and profile forms), its index view (noindex, a
    sitemap of five new pages) and the page shown again by do= (indexable), each from its
    own Apath, and a link to the next page. Returns the actions sampled."""
    sampled: list[str] = []
    for i in range(16):
        page = f"http://s/doku.php?id=p{i}"
        actions = {f"{page}&do={a}": f'/html/body/div/a[@class="{a or "show"}"]'
                   for a in ("login", "index", "")}
        links = [L(f"http://s/doku.php?id=p{i + 1}", LIST),
                 *(L(u, x) for u, x in actions.items())]
        for r in sampler.add_page(page, links):
            if r.url in actions and sampler.still_wanted(r.url):
                action = r.url.rpartition("=")[2]
                sampled.append(action)
                found = {"index": [f"http://s/doku.php?id=n{i}x{j}" for j in range(5)],
                         "login": [f"{page}&do={a}" for a in
                                   ("register", "resendpwd", "profile", "remind")]}
                sampler.add_page(r.url, [L(u, LIST) for u in found.get(action, [])],
                                 noindex=action != "")
    return sampled


def test_a_mode_of_the_query_makes_a_kind_of_its_own() -> None:
    # One parameter names every action (doku.php?id=X&do=login): the login forms, the
    # index views (a sitemap) and the page shown by do= (indexable) share the kind
    # /*?do&id, which never closes. Once do=login is a keyword of the site's links (a mode,
    # `QueryWords.modes`), the login forms are a kind of their own; and once their links
    # to the register and password forms are modes too, those are no links to a kind that
    # had an indexable page, as /*?do&id had: the login forms are barren, and close
    on = SiteSampler(100, saturation=0.0, min_pts=4, random_state=0)
    sampled = _walk_actions(on)
    assert on.closed_kinds_ == {"/*?do=login&id"}
    assert on.mode_kind("http://s/doku.php?id=p1&do=login") == "/*?do=login&id"
    assert 4 <= sampled.count("login") < 16
    assert sampled.count("index") == sampled.count("") == 16     # still sampled
    off = SiteSampler(100, saturation=0.0, min_pts=4, query_modes=False, random_state=0)
    sampled = _walk_actions(off)
    assert not off.closed_kinds_ and sampled.count("login") == 16
    assert off.mode_kind("http://s/doku.php?id=p1&do=login") == "/*?do&id"


PROFILE = '/html/body/div/a[@class="author"]'
PERMALINK = '/html/body/div/a[@class="permalink"]'


def _walk_walls(sampler: SiteSampler, lands: str, topics: int = 12,
                direct_first: bool = False) -> list[str]:
    """Topics 0, 1, … each linking the next topic and its author's profile (PROFILE).
    Every profile redirects: to the login form, its own ``?next=`` each time, when `lands`
    is "login" (one path, one structure); to the topic holding the link, fetched before,
    when "topic" (a structure each); to the profile with a trailing slash, a page of one
    structure each time, when "slash". `direct_first`: the first profile sampled answers
    with a page. Returns the profiles sampled."""
    sampled: list[str] = []
    for i in range(topics):
        links = [L(f"http://s/t/{i + 1}/", LIST), L(f"http://s/user/{i}/name{i}/", PROFILE)]
        requests = sampler.add_page(f"http://s/t/{i}/", links, signature=f"topic{i}")
        for url in [r.url for r in requests if r.apath == PROFILE]:
            sampled.append(url)
            if direct_first and len(sampled) == 1:
                sampler.add_page(url, [], signature="profile")
                continue
            sampler.add_failure(url, dead=True)
            if lands in ("login", "slash"):
                to = f"http://s/login/?next={url[len('http://s'):]}" if lands == "login" \
                    else f"{url}/"
                sampler.add_redirect(url, to)
                sampler.add_page(to, [], signature="login" if lands == "login" else "profile")
            else:
                sampler.add_redirect(url, f"http://s/t/{i}/")   # fetched before
    return sampled


def test_a_kind_of_url_that_redirects_to_one_wall_is_closed() -> None:
    # a forum answers an anonymous visitor's profile links with its login form, each with
    # its own ?next=: after min_pts such redirects the kind is chosen no more
    sampler = SiteSampler(100, saturation=0.0, min_pts=4, random_state=0)
    sampled = _walk_walls(sampler, "login")
    assert len(sampled) == 4 and sampler.closed_kinds_ == {"/user/N/*/"}
    assert sampler.aliases_[sampled[0]] == f"http://s/login/?next={sampled[0][8:]}"
    # the login form counts for the profile's kind, not for its own
    assert "/login/?next" not in sampler.closed_kinds_
    # redirects to pages of several structures, to pages of one structure at several paths,
    # a page first, or the switch: the kind stays open (the Apath still settles after
    # 2 * min_pts destinations of one structure at one path)
    for lands, direct_first, walls, n in (("topic", False, True, 12), ("slash", False, True, 12),
                                          ("login", True, True, 8), ("login", False, False, 8)):
        sampler = SiteSampler(100, saturation=0.0, min_pts=4, walls=walls, homing=False,
                              random_state=0)
        sampled = _walk_walls(sampler, lands, direct_first=direct_first)
        assert not sampler.closed_kinds_ and len(sampled) == n, (lands, direct_first, walls)


def test_an_apath_settles_through_redirects() -> None:
    # the page a redirect leads to is the destination of the Apath the requested URL was
    # chosen for: eight profiles sampled, all landing on the login form, settle PROFILE;
    # landing on the topics, or on pages of one structure at paths of their own, it does not
    for lands, settled in (("login", True), ("topic", False), ("slash", False)):
        sampler = SiteSampler(100, saturation=0.0, min_pts=4, walls=False, homing=False,
                              random_state=0)
        sampled = _walk_walls(sampler, lands)
        assert (PROFILE in sampler.settled_) is settled
        assert len(sampled) == (8 if settled else 12)


def test_an_apath_whose_redirects_lead_home_settles() -> None:
    """A forum post's permalink on its topic page redirects to that topic page (a real
    pybbm: 54 of the sample's 298 requests). After min_pts such redirects, each back to
    the path of the page holding the link, the Apath is requested no more; redirects to
    another path (a login wall's) or a destination reached without one keep it open."""
    sampler = SiteSampler(100, saturation=0.0, min_pts=4, walls=False, random_state=0)
    assert sampler.homing
    sampled = _walk_walls(sampler, "topic")
    assert PROFILE in sampler.settled_ and len(sampled) == 4
    assert not sampler.closed_kinds_                        # the kind is not a wall
    for lands, direct_first in (("slash", False), ("topic", True)):
        sampler = SiteSampler(100, saturation=0.0, min_pts=4, walls=False, random_state=0)
        sampled = _walk_walls(sampler, lands, direct_first=direct_first)
        assert PROFILE not in sampler.settled_ and len(sampled) == 12, lands
    # the page holding the link counts without its query: a topic's second page
    sampler = SiteSampler(100, saturation=0.0, min_pts=4, walls=False, random_state=0)
    for i in range(6):
        holder = f"http://s/t/{i}/?page=2"
        for r in sampler.add_page(holder, [L(f"http://s/post/{i}/", PROFILE)],
                                  signature=f"topic{i}"):
            sampler.add_failure(r.url, dead=True)
            sampler.add_redirect(r.url, f"http://s/t/{i}/?page=3")
            sampler.add_page(f"http://s/t/{i}/?page=3", [], signature=f"topic{i}b")
    assert PROFILE in sampler.settled_
    assert sum(u.startswith("http://s/post/") for u in sampler.aliases_) == 4


LAST = '/html/body/ul/li/a[@class="last"]'
HOME = '/html/body/div/a[@class="home"]'


def _walk_aliases(sampler: SiteSampler, lands: str, lists: int = 12) -> list[str]:
    """Thread lists 0, 1, … each linking the next list (NAV), a thread (LIST) and the
    thread's "last post" link (LAST), which redirects: to the thread, linked under LIST,
    when `lands` is "thread"; to the thread's first page by its query, the same path, when
    "query"; to the thread's second page by its path when "page2"; to another thread,
    linked nowhere, when "elsewhere"; to a number under the root, when "root" (each list
    links the home page too); to a URL the list links only under LAST when "self". Threads
    are pages of a structure each. Returns the "last post" links sampled."""
    sampled: list[str] = []
    for i in range(lists):
        thread = f"http://s/t/slug{i}/{i}/"
        landing = {"thread": thread, "query": f"{thread}?page=1", "page2": f"{thread}2/",
                   "elsewhere": f"http://s/t/other/{i + 100}/", "root": f"http://s/{i + 100}",
                   "self": f"{thread}latest/"}[lands]
        links = [L(f"http://s/list/{i + 1}/", NAV), L(thread, LIST), L(f"{thread}last/", LAST),
                 L("http://s/", HOME)]
        if lands == "self":
            links.append(L(landing, LAST))
        for r in sampler.add_page(f"http://s/list/{i}/", links, signature=f"list{i}"):
            if r.apath == LIST:
                sampler.add_page(r.url, [], signature=f"thread{i}")
            elif r.apath == LAST:
                sampled.append(r.url)
                sampler.add_failure(r.url, dead=True)
                sampler.add_redirect(r.url, landing)   # (the fetcher drops "#post-9")
                if landing != thread:                    # else fetched under LIST
                    sampler.add_page(landing, [], signature=f"thread{i}b")
    return sampled


def test_an_apath_whose_redirects_land_on_the_holder_s_other_links_settles() -> None:
    """A real Misago's thread lists link each thread by its title and by a "last post"
    link that redirects to the thread at its last post: 41 of the sample's 279 requests.
    After min_pts such redirects, each to the path of a URL the list also links under
    another Apath or to a later page of it (Misago's ``/t/slug/ID/2/``), the Apath is
    requested no more ("Aliases"); redirects to a path the list does not link, or links
    only under the same Apath, or the switch off, keep it open."""
    assert SiteSampler(100).alias_links
    for lands in ("thread", "query", "page2"):
        sampler = SiteSampler(100, saturation=0.0, min_pts=4, walls=False, random_state=0)
        sampled = _walk_aliases(sampler, lands)
        assert LAST in sampler.settled_ and len(sampled) == 4, lands
        assert LIST not in sampler.settled_ and not sampler.closed_kinds_
    for lands, alias_links in (("elsewhere", True), ("root", True), ("self", True),
                               ("thread", False)):
        sampler = SiteSampler(100, saturation=0.0, min_pts=4, walls=False,
                              alias_links=alias_links, random_state=0)
        sampled = _walk_aliases(sampler, lands)
        assert LAST not in sampler.settled_ and len(sampled) == 12, (lands, alias_links)


NEXT = '/html/body/a[@class="next"]'


def test_a_request_fetched_under_another_spelling_takes_that_fetch_s_outcome() -> None:
    """Each topic links the next with its query in another order than the link the crawl
    found first (``/t?page=1&id=N`` for ``/t?id=N&page=1``): one canonical URL, fetched
    once, as the frontier spells it. Told (`add_spelling`), the sampler takes that fetch as
    the request's destination, and the next-topic Apath settles after 2·min_pts of them;
    untold, every request stays pending for ever (a real HyperKitty's sign-in links,
    ``?next=%2F`` for ``?next=/``: 24 deferred fetches in its sample)."""
    def topic(i: int) -> str:
        return f"http://s/t?id={i}&page=1"

    for told in (True, False):
        sampler = SiteSampler(100, saturation=0.0, min_pts=4, random_state=0)
        sampler.add_seeds([topic(0)])
        asked = []
        for i in range(1, 13):
            requests = sampler.add_page(topic(i - 1), [L(f"http://s/t?page=1&id={i}", NEXT)],
                                        signature="topic")
            if not requests:
                break
            asked.append(requests[0].url)
            if told:
                sampler.add_spelling(requests[0].url, topic(i))
        assert (NEXT in sampler.settled_) is told
        assert len(asked) == (8 if told else 12)
        assert sampler.done is told               # untold: 12 requests pending
    # the topics fetched before the spelling is reported: their pages are the destinations
    # at once (a drop instead would leave the Apath open: 12 requests)
    sampler = SiteSampler(100, saturation=0.0, min_pts=4, random_state=0)
    for i in range(1, 13):
        sampler.add_page(topic(i), [], signature="topic")
    asked = []
    for i in range(1, 13):
        for r in sampler.add_page(f"http://s/x{i}", [L(f"http://s/t?page=1&id={i}", NEXT)],
                                  signature="index"):
            asked.append(r.url)
            sampler.add_spelling(r.url, topic(i))
    assert NEXT in sampler.settled_ and len(asked) == 8
    # the URL as stored was fetched before (a page), refused by robots.txt, or redirected
    sampler = SiteSampler(100, random_state=0)
    sampler.add_page("http://s/a?y=1&x=1", [], signature="page")
    sampler.drop("http://s/b?y=1&x=1")
    sampler.add_failure("http://s/c?y=1&x=1", dead=True)
    sampler.add_redirect("http://s/c?y=1&x=1", "http://s/a?y=1&x=1")
    requests = sampler.add_page("http://s/", [L(f"http://s/{k}?x=1&y=1", f"/html/body/a[{n}]")
                                              for n, k in enumerate("abc")])
    assert len(requests) == 3 and not sampler.done
    for r in requests:
        sampler.add_spelling(r.url, r.url.replace("x=1&y=1", "y=1&x=1"))
    assert sampler.done
    assert sampler.aliases_["http://s/c?x=1&y=1"] == "http://s/a?y=1&x=1"
    # a redirect's location the crawl fetches under another spelling
    sampler.add_spelling("http://s/d?x=1&y=1", "http://s/a?y=1&x=1")
    sampler.add_redirect("http://s/z", "http://s/d?x=1&y=1")
    assert sampler.aliases_["http://s/z"] == "http://s/a?y=1&x=1"


def _walk_refusals(sampler: SiteSampler, statuses: list[int], topics: int = 12) -> list[str]:
    """Topics 0, 1, … each linking the next topic and its own "info" view (PROFILE,
    ``?action=info``), the views answered with `statuses` in turn (a page for 200).
    Returns the views sampled."""
    sampled: list[str] = []
    for i in range(topics):
        links = [L(f"http://s/t/{i + 1}/", LIST), L(f"http://s/t/{i}/?action=info", PROFILE)]
        for r in sampler.add_page(f"http://s/t/{i}/", links, signature=f"topic{i}"):
            if r.apath != PROFILE:
                continue
            status = statuses[len(sampled) % len(statuses)]
            sampled.append(r.url)
            if status == 200:
                sampler.add_page(r.url, [], signature=f"info{i}")
            else:
                sampler.add_failure(r.url, dead=True,
                                    refused=str(status) if is_refusal(status) else "")
    return sampled


def test_a_kind_of_url_the_site_refuses_is_closed() -> None:
    """A real MoinMoin answers every action view with one 403 to a crawler's User-Agent,
    and each page links its own: 334 of 476 sampled requests. After min_pts refusals the
    kind is chosen no more."""
    sampler = SiteSampler(100, saturation=0.0, min_pts=4, random_state=0)
    assert sampler.refusals
    sampled = _walk_refusals(sampler, [403])
    assert len(sampled) == 4 and "/t/*/?action" in sampler.closed_kinds_
    assert all(u in sampler.dead_ for u in sampled)
    # come back later (429, 408), a server error, a page among them, or the switch off:
    # nothing closes, and an Apath of pages of a structure each never settles
    for statuses, refusals in (([429], True), ([408], True), ([503], True),
                               ([200, 403, 403, 403], True), ([403], False)):
        sampler = SiteSampler(100, saturation=0.0, min_pts=4, refusals=refusals,
                              random_state=0)
        sampled = _walk_refusals(sampler, statuses)
        assert not sampler.closed_kinds_ and len(sampled) == 12, (statuses, refusals)
        assert PROFILE not in sampler.settled_


def test_an_apath_of_refusals_settles() -> None:
    """Refusals are destinations of one structure per status: an Apath whose kinds differ
    (``/alpha/info``, ``/beta/info``, … each refused fewer than min_pts times) still
    settles after 2·min_pts of them."""
    sampler = SiteSampler(100, saturation=0.0, min_pts=4, random_state=0)
    sampled: list[str] = []
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota",
             "kappa", "lambda", "mu"]
    for i, word in enumerate(words):
        links = [L(f"http://s/t/{i + 1}/", LIST), L(f"http://s/{word}/info", PROFILE)]
        for r in sampler.add_page(f"http://s/t/{i}/", links, signature=f"topic{i}"):
            if r.apath == PROFILE:
                sampled.append(r.url)
                sampler.add_failure(r.url, dead=True, refused="403")
    assert PROFILE in sampler.settled_ and len(sampled) == 8
    assert not sampler.closed_kinds_


def test_missing_mass_is_good_turing() -> None:
    sampler = SiteSampler(100, random_state=0)
    assert sampler.missing_mass_ == 1.0
    sampler.add_page("http://s/a", [L("http://s/1", LIST), L("http://s/2", NAV)])
    sampler.add_page("http://s/b", [L("http://s/3", LIST)])
    # groups: a:LIST, a:NAV, b:LIST → N = 3; NAV was seen on one page only → f1 = 1
    assert sampler.missing_mass_ == pytest.approx(1 / 3)


def test_invalid_sample_size() -> None:
    with pytest.raises(ValueError, match="sample_size"):
        SiteSampler(0)
