"""Self views (`archiver.learning.selfviews`): kinds of link that lead back to the page
holding them, learned from fetches, and the unfetched URLs that are therefore known views."""

from __future__ import annotations

from archiver.learning.selfviews import MIN_SELF, SelfViews
from archiver.page import parse_html
from archiver.strategies import REGISTRY, Visit
from tests.test_source_strategy import _profile

PERMA = "/html/body/div/a[@class=\"permalink\"]"
AUTHOR = "/html/body/ul/li/a"


def _topics(views: SelfViews, n: int, first: int = 0) -> None:
    """Topic pages t{i} hold their post's permalink p{i}, which leads back to them."""
    for i in range(first, first + n):
        views.page(f"t{i}", f"topic {i}".encode(), [(f"p{i}", PERMA), ("home", AUTHOR)])
        views.landed(f"p{i}", f"topic {i}".encode())


def test_a_kind_whose_links_lead_back_to_their_page_makes_its_links_known_views() -> None:
    views = SelfViews(lambda url: 2 if url.startswith("t") else 5)
    _topics(views, MIN_SELF - 1)
    assert not views.is_self((2, PERMA))          # too few yet
    _topics(views, 1, first=MIN_SELF - 1)
    assert views.is_self((2, PERMA)) and views.counts[2, PERMA] == [MIN_SELF, MIN_SELF]
    # the menu link to the home page went elsewhere: not a self view
    views.landed("home", b"home")
    assert views.counts[2, AUTHOR] == [MIN_SELF, 0] and not views.is_self((2, AUTHOR))
    # a new topic page's permalink is a view of it, and stays one wherever it turns up
    views.page("t9", b"topic 9", [("p9", PERMA)])
    assert views.view("p9", (2, PERMA)) == 2
    assert views.view("p9", (5, AUTHOR)) == 2 and views.view("p9") == 2
    # a URL already fetched is what it is
    assert views.view("p0", (2, PERMA)) is None


def test_a_permalink_queued_before_its_page_was_fetched_becomes_a_known_view() -> None:
    """A user's post list holds p9 first; once the topic page holding it is fetched (it may
    have been sampled before the kind was learned), asking about the URL alone answers."""
    views = SelfViews(lambda url: 3 if url.startswith("u") else 2)
    views.page("u1", b"posts of u1", [("p9", AUTHOR)])
    assert views.view("p9") is None
    views.page("t9", b"topic 9", [("p9", PERMA)])
    assert views.view("p9") is None               # the kind is not known yet
    _topics(views, MIN_SELF)
    assert views.view("p9") == 2


def test_a_link_that_went_elsewhere_keeps_the_kind_from_being_a_self_view() -> None:
    """Counted as self / (resolved + 1) >= SELF_SHARE: three of three pass, four of five do
    not (a quote's link to another topic's post has the permalink's place in the markup)."""
    views = SelfViews(lambda url: 2)
    _topics(views, 4)
    views.page("t8", b"topic 8", [("p7", PERMA)])
    views.landed("p7", b"topic 7")
    assert views.counts[2, PERMA] == [5, 4] and not views.is_self((2, PERMA))


def test_a_link_resolved_before_its_holder_is_fetched_still_counts() -> None:
    """The permalink was fetched from a post list first; the topic page holding it comes
    later and is compared with where the permalink led."""
    views = SelfViews(lambda url: 2)
    for i in range(MIN_SELF):
        views.landed(f"p{i}", f"topic {i}".encode())
        views.page(f"t{i}", f"topic {i}".encode(), [(f"p{i}", PERMA)])
    assert views.is_self((2, PERMA))


def test_a_redirect_to_a_page_fetched_before_lands_on_its_digest() -> None:
    views = SelfViews(lambda url: 2)
    for i in range(MIN_SELF):
        views.page(f"t{i}", f"topic {i}".encode(), [(f"p{i}", PERMA)])
        views.landed_on(f"p{i}", f"t{i}")
    assert views.is_self((2, PERMA))
    views.landed_on("p99", "never-fetched")      # no digest known: nothing is counted
    assert views.counts[2, PERMA][0] == MIN_SELF


def test_observations_wait_for_the_clusters_of_the_pages_that_hold_them() -> None:
    fitted = False
    views = SelfViews(lambda url: 2 if fitted else None)
    _topics(views, MIN_SELF)
    assert views.counts == {}
    fitted = True
    views.flush()
    assert views.is_self((2, PERMA))


def test_a_page_without_a_digest_is_not_compared() -> None:
    views = SelfViews(lambda url: 2)
    views.page("t0", b"", [("p0", PERMA)])
    views.landed("p0", b"")
    assert views.counts == {} and views.view("p0") is None


def test_the_strategy_skips_known_views_on_the_page_and_when_popped(tmp_path) -> None:
    """Through SourceStrategy: the sample's permalinks, redirected to their topic pages,
    teach the kind; after the fit a topic page's permalink is skipped as a self view, and
    the same permalink queued from a user's post list is dropped when re-judged."""
    profile = _profile("source-ucc", tmp_path, ["http://f.test/"])
    s = REGISTRY["source-ucc"].from_profile(profile)
    off = REGISTRY["source-ucc"].from_profile(
        _profile("source-ucc", tmp_path / "off", ["http://f.test/"], params={"self_views": False}))
    assert s.params()["self_views"] is True and off.params()["self_views"] is False

    def topic(i: int) -> Visit:
        body = (f'<html><body><h1>Topic {i}</h1><p>Words of post {i}.</p><div>'
                f'<a class="permalink" href="/post/{i}">#1</a></div></body></html>').encode()
        return Visit(parse_html(f"http://f.test/topic/{i}", body), 2, digest=f"t{i}".encode())

    for strategy in (s, off):
        for i in range(MIN_SELF):                 # sampled: topic, then its permalink
            visit = topic(i)
            strategy.describe(visit)
            strategy.decide(visit, visit.page.links)
            strategy.observe_fetch(visit.page.url, 200, True, content_type="text/html")
            strategy.observe_fetch(f"http://f.test/post/{i}", 302, False,
                                   location=f"http://f.test/topic/{i}")
        strategy._fitted = True                   # the fit, without a model
        strategy.views.flush()
    apath = next(iter(s.views.counts))[1]
    assert s.views.is_self((-1, apath))
    visit = topic(7)
    s.describe(visit)
    (d,) = s.decide(visit, visit.page.links)
    assert not d.follow and d.reason == "self-view:-1"
    from archiver.strategies.base import Queued

    queued = Queued(1, "http://f.test/post/7", 3, "/html/body/ul/li/a", "http://f.test/u/1")
    [(_, again)] = list(s.rescore([queued]))
    assert not again.follow and again.reason == "self-view:-1"
    # without self views nothing is learned and the permalink is judged as any link
    assert off.views.counts == {}
    off.describe(visit)
    (d_off,) = off.decide(visit, visit.page.links)
    assert not d_off.reason.startswith("self-view")


def test_a_link_to_the_page_itself_is_no_evidence() -> None:
    """A wiki's "Article" tab on the article is the page itself, fetched, and shares its
    anchor path with the talk, edit and history tabs. Counted as a self view, every
    article page added one at once while the other tabs resolved only when fetched, and
    the talk tabs became "views" of their articles (zoo wiki recall 0.960 -> 0.706)."""
    views = SelfViews(lambda url: 1)
    for i in range(2 * MIN_SELF):
        views.landed(f"a{i}", f"article {i}".encode())
        views.page(f"a{i}", f"article {i}".encode(), [(f"a{i}", PERMA), (f"talk{i}", PERMA)])
    assert views.counts == {} and views.view(f"talk{0}", (1, PERMA)) is None


def test_a_redirect_target_fetched_next_lands_for_the_link_that_redirected(tmp_path) -> None:
    """FlaskBB's /post/ID redirects to /topic/ID?page=1, a URL not fetched before: the page
    fetched next is what the permalink led to (`describe` through the redirect's cause), and
    it repeats the topic page holding the permalink."""
    s = REGISTRY["source-ucc"].from_profile(_profile("source-ucc", tmp_path, ["http://f.test/"]))
    for i in range(MIN_SELF):
        body = (f'<html><body><h1>Topic {i}</h1><div><a class="permalink" '
                f'href="/post/{i}">#1</a></div></body></html>').encode()
        topic = Visit(parse_html(f"http://f.test/topic/{i}", body), 2, digest=f"t{i}".encode())
        s.describe(topic)
        s.decide(topic, topic.page.links)
        s.observe_fetch(topic.page.url, 200, True, content_type="text/html")
        s.observe_fetch(f"http://f.test/post/{i}", 302, False,
                        location=f"http://f.test/topic/{i}?page=1")
        view = Visit(parse_html(f"http://f.test/topic/{i}?page=1", body), 3,
                     digest=f"t{i}".encode())
        s.describe(view)
    s._fitted = True
    s.views.flush()
    assert [row for row in s.views.counts.values()] == [[MIN_SELF, MIN_SELF]]


def test_the_same_apath_with_another_query_is_a_kind_of_its_own() -> None:
    """A FlaskBB topic's title links /topic/N: on /topic/N?page=1 (where a post's permalink
    leads) that is the page itself, on /topic/N?page=2 it is page 1. Counted as one kind
    (three self views in six) it stays under the bar; split by how the query differs,
    "-page=1" is a self view and "-page=2" is not."""
    from archiver.learning.selfviews import kind

    title = "/html/body/div/h1/a"
    views = SelfViews(lambda url: 2)
    for i in range(MIN_SELF):
        plain = f"http://f.test/topic/{i}"
        views.page(plain + "?page=1", f"first {i}".encode(), [(plain, title)])
        views.page(plain + "?page=2", f"second {i}".encode(), [(plain, title)])
        views.landed(plain, f"first {i}".encode())
    assert views.counts == {(2, title + " -page=1"): [MIN_SELF, MIN_SELF],
                            (2, title + " -page=2"): [MIN_SELF, 0]}
    assert views.view("http://f.test/topic/9", (2, title), "http://f.test/topic/9?page=1") == 2
    assert views.view("http://f.test/topic/8", (2, title), "http://f.test/topic/8?page=2") \
        is None
    views.page("http://f.test/topic/7?page=1", b"first 7", [("http://f.test/topic/7", title)])
    assert views.view("http://f.test/topic/7") == 2         # held by a page fetched before
    assert kind("x", "http://a.test/t?page=1&s=2", "http://a.test/t?s=2") == "x -page=1"
    assert kind("x", "http://a.test/t?s=1", "http://a.test/t?s=2") == "x ~s"
    assert kind("x", "http://a.test/t?s=1&p=2", "http://a.test/t?s=2&r=1") == "x +r -p ~s"
    # a link that brings an argument of its own: the dropped one's value no longer matters
    assert kind("x", "http://a.test/t?post=2074", "http://a.test/t?page=2") == "x +page -post"
    assert kind("x", "http://a.test/t?post=9", "http://a.test/t?page=2") == "x +page -post"
    assert kind("x", "http://a.test/t", "http://a.test/t?reply=7") == "x +reply"
    assert kind("x", "http://a.test/t?page=1", "http://a.test/u") == "x"    # another path


def test_the_strategy_judges_a_link_with_another_query_by_its_own_kind(tmp_path) -> None:
    """Through SourceStrategy (the page being judged is the holder): topic pages reached as
    ?page=1 link their plain URL, fetched later with the same content; then the plain URL
    on another ?page=1 page is a self view, and on a ?page=2 page it is not."""
    s = REGISTRY["source-ucc"].from_profile(_profile("source-ucc", tmp_path, ["http://f.test/"]))
    s._fitted = True                              # the fit, without a model

    def topic(url: str, i: int) -> Visit:
        body = (f'<html><body><h1><a href="/topic/{i}">Topic {i}</a></h1>'
                f'<p>Words of post {i}.</p></body></html>').encode()
        second = url.endswith("page=2")               # page 1's content, or page 2's
        return Visit(parse_html(url, body), 2, digest=f"t{i}{second}".encode())

    for i in range(MIN_SELF):
        for url in (f"http://f.test/topic/{i}?page=1", f"http://f.test/topic/{i}"):
            visit = topic(url, i)
            s.describe(visit)
            s.decide(visit, visit.page.links)
    for i, page, skipped in ((9, "1", True), (8, "2", False)):
        visit = topic(f"http://f.test/topic/{i}?page={page}", i)
        s.describe(visit)
        (d,) = s.decide(visit, visit.page.links)
        assert d.reason.startswith("self-view") is skipped, page


def test_a_page_reached_through_a_permalink_holds_its_other_posts_permalinks_as_views() -> None:
    """A real django-machina's topic page reached through a post's permalink (``?post=N``)
    links every post it shows by its permalink: views of itself. The link changes the
    holder's ``post`` argument, a kind of its own whatever the holder's post ("~post"), so
    it is learned from a few pages, and a permalink to another post on a fetched page is
    then a known view wherever the crawl finds it (a member's post list)."""
    subject = "/html/body/div/h4/a"
    views = SelfViews(lambda url: 2)
    for i in range(MIN_SELF):
        topic = f"http://m.test/topic/{i}/"
        views.page(f"{topic}?post={10 * i}", f"topic {i}".encode(),
                   [(f"{topic}?post={10 * i + 1}", subject)])
        views.landed(f"{topic}?post={10 * i + 1}", f"topic {i}".encode())
    assert views.counts == {(2, subject + " ~post"): [MIN_SELF, MIN_SELF]}
    views.page("http://m.test/topic/9/?post=90", b"topic 9",
               [("http://m.test/topic/9/?post=91", subject)])
    assert views.view("http://m.test/topic/9/?post=91") == 2
    assert views.view("http://m.test/topic/8/?post=81") is None


def test_a_page_reached_through_a_permalink_marks_its_own_pager_item_as_a_view() -> None:
    """The same machina page, reached as ``?post=N``, links its own page in its pager's
    active item as ``?page=K``: the link drops ``post`` and adds ``page``, one kind
    whatever the post ("+page -post"), so it is learned from a few pages; the pager's
    other items (another Apath) lead to the topic's other pages and stay unknown."""
    active, other = "/html/body/ul/li[@class=\"active\"]/a", "/html/body/ul/li/a"
    views = SelfViews(lambda url: 2)
    for i in range(MIN_SELF):
        topic = f"http://m.test/topic/{i}/"
        views.page(f"{topic}?post={10 * i + 7}", f"topic {i} page 2".encode(),
                   [(f"{topic}?page=2", active), (f"{topic}?page=1", other)])
        views.landed(f"{topic}?page=2", f"topic {i} page 2".encode())
        views.landed(f"{topic}?page=1", f"topic {i} page 1".encode())
    assert views.counts == {(2, active + " +page -post"): [MIN_SELF, MIN_SELF],
                            (2, other + " +page -post"): [MIN_SELF, 0]}
    views.page("http://m.test/topic/9/?post=95", b"topic 9 page 3",
               [("http://m.test/topic/9/?page=3", active),
                ("http://m.test/topic/9/?page=1", other)])
    assert views.view("http://m.test/topic/9/?page=3") == 2     # wherever it is found next
    assert views.view("http://m.test/topic/9/?page=1") is None


def test_a_link_the_page_marks_as_itself_is_a_view_at_once() -> None:
    """A page that marks a link to its own path with an added or changed argument as the
    view it shows (a machina topic reached as ``?post=N`` marking ``?page=2``): that link
    is a view of it before any kind is learned. A marked link that only drops arguments
    (a member's "Posts" tab on page 3 of their posts) is left to the kinds."""
    views = SelfViews(lambda url: 4)
    views.page("http://m.test/t/?post=95", b"page 2", [], ["http://m.test/t/?page=2"])
    views.page("http://m.test/f/", b"forum", [], ["http://m.test/f/?page=1"])
    views.page("http://m.test/u/posts?page=3", b"posts 3", [], ["http://m.test/u/posts"])
    views.page("http://m.test/x/", b"x", [], ["http://m.test/forums/"])   # a menu's section
    assert views.view("http://m.test/t/?page=2") == 4
    assert views.view("http://m.test/f/?page=1") == 4
    assert views.view("http://m.test/u/posts") is None
    assert views.view("http://m.test/forums/") is None


def test_marks_that_keep_leading_elsewhere_are_no_longer_read() -> None:
    """Marked links fetched anyway check the marks: once MIN_SELF of them led to another
    page than the one marking them, and more than one in four, no mark is believed."""
    views = SelfViews(lambda url: 4)
    for i in range(MIN_SELF):
        views.page(f"http://m.test/{i}/", f"page {i}".encode(), [],
                   [f"http://m.test/{i}/?sort=new"])
        views.landed(f"http://m.test/{i}/?sort=new", f"other {i}".encode())
    assert views.marks == [0, MIN_SELF]
    views.page("http://m.test/9/", b"page 9", [], ["http://m.test/9/?sort=new"])
    assert views.view("http://m.test/9/?sort=new") is None
    for i in range(10, 10 + 4 * MIN_SELF):          # right 12, wrong 3: believed again
        views.page(f"http://m.test/{i}/", f"page {i}".encode(), [],
                   [f"http://m.test/{i}/?page=1"])
        views.landed(f"http://m.test/{i}/?page=1", f"page {i}".encode())
    assert views.marks_hold()
    assert views.view("http://m.test/9/?sort=new") == 4


def test_the_strategy_skips_the_link_a_page_marks_as_itself(tmp_path) -> None:
    """Through SourceStrategy: a topic page reached as ``?post=7`` marks ``?page=2`` in its
    pager; that link is skipped as a view of the page, its neighbour is judged."""
    s = REGISTRY["source-ucc"].from_profile(_profile("source-ucc", tmp_path, ["http://f.test/"]))
    s._fitted = True                              # the fit, without a model
    body = (b'<html><body><ul><li class="active"><a href="/t/?page=2">2</a></li>'
            b'<li><a href="/t/?page=3">3</a></li></ul><p>Post seven.</p></body></html>')
    visit = Visit(parse_html("http://f.test/t/?post=7", body), 2, digest=b"t2")
    s.describe(visit)
    marked, other = s.decide(visit, visit.page.links)
    assert marked.reason.startswith("self-view") and not marked.follow
    assert not other.reason.startswith("self-view")
