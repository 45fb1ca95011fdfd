"""URL shapes for crawl-for-target (archiver.learning.urlshape), on URL lists shaped like the
sites the zoo imitates (WordPress, phpBB, MediaWiki, StackExchange, Flickr)."""

from __future__ import annotations

import pytest

from archiver.learning.duplicates import mode_kind
from archiver.learning.urlshape import (
    QueryWords,
    UrlPatterns,
    UrlShape,
    learn_shape,
    page_family,
    page_form,
    page_section,
    page_types,
)

H = "http://site.test"

WORDPRESS = (
    [f"{H}/author/{name}/" for name in ("ann", "bob", "cyd", "dee", "eve", "fay")]
    + [f"{H}/author/ann/page/{n}/" for n in (2, 3, 4, 5)]              # a prolific author
    + [f"{H}/category/{c}/" for c in ("news", "art", "food", "misc", "life", "tech", "ai")]
    + [f"{H}/tag/{t}/" for t in ("x", "y", "z", "w", "v")]
    + [f"{H}/2012/0{m}/" for m in range(1, 8)]
    + [f"{H}/2012/0{m}/1{m}/post-{m}/" for m in range(1, 8)]
)


def test_wordpress_author_shape_keeps_the_keyword_and_drops_the_name() -> None:
    shape = learn_shape(f"{H}/author/ann/", WORDPRESS)
    assert shape == UrlShape(("author", "*"), ())
    assert shape.matches(f"{H}/author/zed/")
    assert shape.matches(f"{H}/author/zed/page/7/")       # the author's next archive page
    assert not shape.matches(f"{H}/category/news/")
    assert not shape.matches(f"{H}/author/")              # the index, shorter than the shape
    assert not shape.matches(f"{H}/2012/01/")


def test_rare_tokens_are_wildcards_and_numbers_are_kept() -> None:
    """A segment seen fewer than minPts times is no keyword: the shape becomes wide, matches
    the whole cluster, and the strategy does not use it (its guard)."""
    shape = learn_shape(f"{H}/about/", WORDPRESS)
    assert shape.path == ("*",)
    shape = learn_shape(f"{H}/2012/03/13/post-3/", WORDPRESS)
    assert shape.path == ("#", "#", "#", "*")
    assert shape.matches(f"{H}/2019/11/30/another/") and not shape.matches(f"{H}/2012/03/")


def test_phpbb_keeps_the_script_and_the_mode_but_not_the_ids() -> None:
    urls = ([f"{H}/memberlist.php?mode=viewprofile&u={i}" for i in range(2, 9)]
            + [f"{H}/viewtopic.php?f={i % 3}&t={i}" for i in range(20)]
            + [f"{H}/viewforum.php?f={i}" for i in range(5)]
            + [f"{H}/memberlist.php?mode=email&u={i}" for i in range(2, 4)])
    profile = learn_shape(f"{H}/memberlist.php?mode=viewprofile&u=3", urls)
    assert profile == UrlShape(("memberlist.php",), (("mode", "viewprofile"),), ("mode", "u"),
                               ("u",))
    assert str(profile) == "/memberlist.php?mode=viewprofile&u=*"
    assert profile.matches(f"{H}/memberlist.php?u=77&mode=viewprofile")
    assert not profile.matches(f"{H}/memberlist.php?mode=email&u=3")
    topic = learn_shape(f"{H}/viewtopic.php?f=1&t=4", urls)
    assert topic.matches(f"{H}/viewtopic.php?t=99")       # ids are optional
    assert not topic.matches(f"{H}/viewforum.php?f=1")
    assert topic.matches(f"{H}/viewtopic.php?t=99&start=20")   # its next page
    assert not topic.matches(f"{H}/viewtopic.php?t=99&view=print")
    assert not topic.matches(f"{H}/viewtopic.php")       # one of its ids is there


def test_a_query_routed_site_needs_the_example_s_parameter() -> None:
    """WordPress with plain permalinks: every page is /?x=#. The path says nothing, so the
    example's parameter is what tells an author archive from posts, months and categories."""
    urls = ([f"{H}/?p={i}" for i in range(20)] + [f"{H}/?m=2019{i:02}" for i in range(1, 9)]
            + [f"{H}/?cat={i}" for i in range(6)] + [f"{H}/?author={i}" for i in range(5)]
            + [f"{H}/?author=1&paged={i}" for i in (2, 3)])
    author = learn_shape(f"{H}/?author=2", urls)
    assert author.path == () and author.required == ("author",)
    assert str(author) == "/?author=*"
    assert author.matches(f"{H}/?author=9") and author.matches(f"{H}/?author=9&paged=2")
    assert not any(author.matches(u) for u in (f"{H}/?p=7", f"{H}/?m=201912", f"{H}/?cat=3",
                                               f"{H}/"))
    post = learn_shape(f"{H}/?p=7", urls)
    assert post.matches(f"{H}/?p=8") and not post.matches(f"{H}/?author=2")
    # an entity slot in the path: the query is optional (a topic's next page)
    wp = learn_shape(f"{H}/author/ann/?paged=2", WORDPRESS)
    assert wp.required == () and wp.matches(f"{H}/author/bob/")


def test_a_view_selector_the_example_lacks_does_not_match() -> None:
    urls = [f"{H}/users/{i}/u{i}" for i in range(10)] + [f"{H}/questions/{i}/q" for i in range(9)]
    shape = learn_shape(f"{H}/users/3/u3", urls)
    assert shape.path == ("users", "#", "*")
    assert shape.matches(f"{H}/users/12/zed")
    assert not shape.matches(f"{H}/users/12/zed?tab=activity")
    assert shape.matches_path(f"{H}/users/12/zed?tab=activity")      # a view, same path
    assert not shape.matches_path(f"{H}/posts/12/revisions")


def test_mediawiki_namespace_is_kept() -> None:
    urls = ([f"{H}/wiki/{t}" for t in ("Paris", "Rome", "Oslo", "Bern", "Kyiv", "Riga")]
            + [f"{H}/wiki/User:{u}" for u in ("Ann", "Bob")]
            + [f"{H}/wiki/Talk:{t}" for t in ("Paris", "Rome")])
    shape = learn_shape(f"{H}/wiki/User:Ann", urls)
    assert shape.path == ("wiki", "User:", "*")
    assert shape.matches(f"{H}/wiki/User:Zed")
    assert not shape.matches(f"{H}/wiki/Talk:Paris") and not shape.matches(f"{H}/wiki/Zed")
    # an article's shape takes any title but a namespaced one: its talk page, a user's talk
    # page (MediaWiki writes the namespace with an underscore), a special page
    article = learn_shape(f"{H}/wiki/Paris", urls)
    assert article.path == ("wiki", "*") and article.matches(f"{H}/wiki/Zed")
    assert not any(article.matches(f"{H}/wiki/{t}") for t in (
        "Talk:Paris", "User_talk:Ann", "Special:Random", "User:Ann"))


def test_names_with_sub_pages_are_not_keywords() -> None:
    """/photos/<uploader>/<id>/: a prolific uploader's name is frequent, but the position
    after /photos/ takes many values, so it is not a keyword."""
    names = [f"u{i}" for i in range(30)]
    urls = ([f"{H}/photos/{n}/{100 + i}/" for i, n in enumerate(names)]
            + [f"{H}/photos/u0/{i}/" for i in range(10)]
            + [f"{H}/people/{n}/" for n in names[:8]])
    shape = learn_shape(f"{H}/photos/u0/5/", urls)
    assert shape.path == ("photos", "*")
    assert shape.matches(f"{H}/photos/u7/123/") and not shape.matches(f"{H}/people/u7/")


def test_a_member_name_the_example_s_page_type_varies_is_the_entity_slot() -> None:
    """A real MediaGoblin (``/u/NAME/m/SLUG/``) with a few members: most sampled pages are
    one member's, so by the sample alone the member's name is a keyword and the other
    members' entries are not of the example's shape. Their entries among the example's
    page type (`kin`) make the name the slot; one stray URL there does not."""
    mine = [f"{H}/u/kira/m/entry-{i}/" for i in range(40)] + \
        [f"{H}/u/kira/tag/t{i}/" for i in range(10)]
    theirs = [f"{H}/u/{n}/m/photo-{i}/" for n in ("ben", "ines") for i in range(3)]
    sample = mine + theirs
    assert learn_shape(f"{H}/u/kira/m/entry-3/", sample).path == ("u", "kira", "m", "*")
    shape = learn_shape(f"{H}/u/kira/m/entry-3/", sample, kin=mine[:40] + theirs)
    assert shape.path == ("u", "*") and shape.matches(f"{H}/u/ben/m/photo-1/")
    assert learn_shape(f"{H}/u/kira/m/entry-3/", sample,
                       kin=mine[:40] + theirs[:1]).path == ("u", "kira", "m", "*")
    # kin of another path are another page type, which the shape is there to tell apart;
    # an example of two segments has no other one to compare (the zoo blog's /author/NAME/
    # in a cluster with /tag/NAME/ and /2024/05/)
    assert learn_shape(f"{H}/author/ann/", WORDPRESS, kin=[
        f"{H}/author/ann/", *(f"{H}/tag/t{i}/" for i in range(6))]).path == ("author", "*")
    # nor one whose other segments are ids (a Q&A profile /users/ID/NAME/ among questions)
    qa = [f"{H}/users/{i}/u{i}/" for i in range(8)] + [f"{H}/questions/{i}/q/" for i in range(8)]
    assert learn_shape(f"{H}/users/3/u3/", qa, kin=qa).path == ("users", "#", "*")
    others = [f"{H}/u/{n}/tag/t-{i}/" for n in ("ben", "ines") for i in range(3)]
    assert learn_shape(f"{H}/u/kira/m/entry-3/", sample + others,
                       kin=mine[:40] + others).path == ("u", "kira", "m", "*")


def test_the_shape_ends_at_the_entity_slot() -> None:
    """An example deep in an entity's pages (an author's third archive page) stands for the
    entity's pages, not only for third pages."""
    shape = learn_shape(f"{H}/author/ann/page/3/", WORDPRESS)
    assert shape == UrlShape(("author", "*"), ())
    assert shape.matches(f"{H}/author/bob/")


@pytest.mark.parametrize("shape", [UrlShape(("author", "*"), ()),
                                   UrlShape(("memberlist.php",), (("mode", "viewprofile"),),
                                            ("mode", "u"), ("u",))])
def test_json_round_trip(shape: UrlShape) -> None:
    assert UrlShape.from_json(shape.to_json()) == shape


def test_from_json_rejects_a_bad_query_token() -> None:
    with pytest.raises(ValueError, match="query token"):
        UrlShape.from_json({"path": ["a"], "query": [["only-a-name"]]})


# --- site-wide URL patterns (the navigation table's split of mixed pairs) -------------------
def flickr_urls(users: int = 40) -> list[str]:
    """A Flickr-like site: profiles, their contacts and albums tabs, photos, a few tag pages
    and a search box; one prolific user with many photos."""
    urls = [f"{H}/explore/", f"{H}/search/?text=cats", f"{H}/search/?text=dogs",
            *(f"{H}/photos/tags/{t}/?page={n}" for t in ("sun", "sea") for n in (1, 2))]
    for u in range(users):
        name = f"{'abcdefghij'[u % 10]}{'klmnopqrst'[u // 10 % 10]}{u // 100 or ''}"
        urls += [f"{H}/people/{name}/", f"{H}/people/{name}/contacts/",
                 f"{H}/photos/{name}/", f"{H}/photos/{name}/albums/",
                 *(f"{H}/photos/{name}/{1000 + 7 * u + i}/" for i in range(3))]
    urls += [f"{H}/photos/ak/{2000 + i}/" for i in range(30)]
    return urls


def test_url_patterns_keep_keywords_and_generalise_names() -> None:
    p = UrlPatterns.learn(flickr_urls())
    assert p.pattern(f"{H}/people/zed/contacts/") == "/people/*/contacts"
    assert p.pattern(f"{H}/people/zed/") == "/people/*"
    assert p.pattern(f"{H}/photos/zed/albums/") == "/photos/*/albums"
    assert p.pattern(f"{H}/photos/zed/77/") == "/photos/*/#"
    # The limit of the rule: a user with more than √n of the URLs under /photos/ (34 of
    # 194) is taken for a keyword. Its links get their own pattern, which a pair only has a
    # row for if it was sampled; otherwise they keep the pair's eq. 5 row, as without
    # patterns.
    assert p.pattern(f"{H}/photos/ak/9/") == "/photos/ak/#"
    assert UrlPatterns.learn(flickr_urls(300)).pattern(f"{H}/photos/ak/9/") == "/photos/*/#"
    assert p.pattern(f"{H}/search/?text=birds") == "/*?text=*"   # 2 URLs: not a keyword
    assert p.pattern(f"{H}/photos/tags/sun/?page=3") == "/photos/*/*?page=#"
    assert p.pattern(f"{H}/never/seen/before") == "/*/*/*"
    assert p.pattern(H) == "/"


def test_url_patterns_keep_a_word_valued_query_parameter() -> None:
    urls = [f"{H}/users/{i}/u{i}" + ("?tab=activity" if i % 2 else "?tab=answers")
            for i in range(20)] + [f"{H}/questions?sort={s}" for s in "abcdefghijklmnop"]
    p = UrlPatterns.learn(urls)
    assert p.pattern(f"{H}/users/99/x?tab=activity") == "/users/#/*?tab=activity"
    assert p.pattern(f"{H}/users/99/x?tab=answers") == "/users/#/*?tab=answers"
    assert p.pattern(f"{H}/questions?sort=q") == "/questions?sort=*"


def test_url_patterns_round_trip_and_reject_bad_data() -> None:
    p = UrlPatterns.learn(flickr_urls())
    again = UrlPatterns.from_json(p.to_json())
    for url in flickr_urls(50):
        assert again.pattern(url) == p.pattern(url)
    with pytest.raises(ValueError, match="url patterns"):
        UrlPatterns.from_json({"tree": [], "words": {}})
    assert UrlPatterns().pattern(f"{H}/a/1?x=y") == "/*/#?x=*"   # nothing learned


@pytest.mark.parametrize("url", [
    f"{H}/a/b?x=1#frag", H, f"{H}?x", "https://h.test:8080/a/", "/rel/x?y", "//h.test/p",
    f"{H}/a//b/", f"{H}/a?b=c?d", f"{H}/wiki/User:Bob", "http://user@h.test/x"])
def test_fast_split_agrees_with_urlsplit(url: str) -> None:
    from urllib.parse import urlsplit

    from archiver.learning.urlshape import _split

    parts = urlsplit(url)
    assert _split(url) == (parts.path, parts.query)


def test_query_modes_are_the_site_s_word_values_not_its_names() -> None:
    # A DokuWiki names every action in one parameter: do=login on every page is a mode of
    # the page; id=start, a name (however alphabetic) seen once per action, is not; do=
    # (empty), a number or a mixed token are never modes
    words = QueryWords()
    names = ["start", "harbour", "castle", "market", "river", "valley", "island", "lake",
             "festival", "canal", "siege", "mountain"]
    for name in names:
        for action in ("login", "edit", "backlink", ""):
            words.add(f"http://s/doku.php?id={name}&do={action}")
        words.add(f"http://s/doku.php?id={name}")
        words.add(f"http://s/doku.php?id={name}&rev=17&do=diff2")
    def kind(url: str) -> str:
        return mode_kind(url, words.is_keyword)

    assert kind("http://s/doku.php?id=start&do=login") == "/*?do=login&id"
    assert kind("http://s/doku.php?id=start&do=") == "/*?do&id"
    assert kind("http://s/doku.php?id=start&rev=17&do=diff2") == "/*?do&id&rev"
    assert kind("http://s/doku.php?id=start&do=rare") == "/*?do&id"   # seen in no URL yet
    assert kind("http://s/doku.php?id=start") == "/*?id"
    assert words.is_keyword("do", "login") and not words.is_keyword("id", "start")
    assert not words.is_keyword("sort", "new")                       # no such parameter
    assert words.keywords()["do"] == ["", "backlink", "diff2", "edit", "login"]
    assert words.keywords()["rev"] == ["#"]
    assert "start" not in words.keywords()["id"]
    # UrlPatterns learns its query words with the same rule
    urls = [f"http://s/doku.php?id={n}&do=login" for n in names]
    assert UrlPatterns.learn(urls).words == {"do": frozenset({"login"}), "id": frozenset()}


@pytest.mark.parametrize(("url", "form"), [
    ("http://m.test/forum/cycling-9/topic/bread-132/", "forum/*/topic/*"),
    ("http://m.test/forum/cycling-9/topic/bread-132/?post=7", "forum/*/topic/*"),  # a view
    ("http://m.test/forum/cycling-9/topic/bread-132/?page=2", "forum/*/topic/*"),
    ("http://m.test/forum/cycling-9/", "forum/*"),                 # the forum's topic list
    ("http://m.test/member/profile/3/", "member/profile/*"),
    ("http://m.test/member/profile/3/posts/?page=2", "member/profile/*/*"),
    ("http://b.test/2024/01/02/a-post/", "*/*/*/*"),
    ("http://b.test/2024/01/02/", "*/*/*"),                         # a day's archive
    ("http://w.test/wiki/Paris", "wiki/*"),
    ("http://w.test/wiki/Special:RecentChanges", "wiki/Special:*"),
    ("http://w.test/doku.php?id=wiki:syntax", "*?id"),              # the query names the page
    ("http://w.test/doku.php?id=wiki:syntax&do=index", "*?do&id"),
    ("http://w.test/index.php?title=Special%3ANewPages", "*?title=Special:*"),
    ("http://b.test/?p=7", "?p"),
    ("http://b.test/", ""),
])
def test_page_form(url: str, form: str) -> None:
    assert page_form(url) == form


@pytest.mark.parametrize(("url", "section"), [
    ("http://m.test/forum/cycling-9/topic/bread-132/?page=2", "forum"),
    ("http://m.test/member/profile/3/posts/", "member"),
    ("http://b.test/2024/01/02/a-post/", "*"),                    # a name or number first
    ("http://b.test/about/", "*"),
    ("http://w.test/doku.php?id=wiki:syntax&do=index", "*?do&id"),
    ("http://b.test/", ""),
])
def test_page_section(url: str, section: str) -> None:
    assert page_section(url) == section


def test_page_family_joins_the_clusters_of_one_page_type() -> None:
    """A real django-machina's sample put its topic pages in five clusters (pages of one post
    and of fifteen, `?post=` views and plain ones); its forum lists and profiles are not
    the topics' page type, and a cluster whose URLs are mostly of another form stays out."""
    topic = "http://m.test/forum/f-{0}/topic/t-{0}/{1}"
    rows = [(topic.format(i, ""), 3) for i in range(6)] + \
        [(topic.format(i, "?post=9"), 3) for i in range(6, 10)] + \
        [(topic.format(i, "?page=2"), 4) for i in range(5)] + \
        [(topic.format(i, ""), 5) for i in range(3)] + \
        [(f"http://m.test/forum/f-{i}/", 0) for i in range(4)] + \
        [(f"http://m.test/member/profile/{i}/", 1) for i in range(5)] + \
        [(topic.format(1, ""), 2), (topic.format(2, "?post=1"), 2),     # half: in
         ("http://m.test/forum/f-2/", 2), ("http://m.test/forum/f-3/", 2)] + \
        [(topic.format(1, ""), 6)] + [(f"http://m.test/member/profile/{i}/", 6)
                                      for i in range(2)]                 # a third: out
    urls, labels = zip(*rows, strict=True)
    assert page_family(urls, labels, 3, 7) == [2, 3, 4, 5]
    assert page_family(urls, labels, 0, 7) == [0, 2]    # half of 2 are lists too
    assert page_family(urls, labels, 3, 4) == [2, 3]    # clusters the model has, only


def test_page_family_without_a_dominant_form_is_the_cluster_alone() -> None:
    urls = ["http://b.test/tag/a/", "http://b.test/author/b/", "http://b.test/?page=2",
            "http://b.test/2024/01/", "http://b.test/2024/01/02/a/", "http://b.test/2024/02/"]
    labels = [0, 0, 0, 1, 2, 1]
    assert page_family(urls, labels, 0, 3) == [0]
    assert page_family(urls, labels, 7, 3) == [7]           # a cluster with no sampled URL


def test_page_types_join_clusters_of_one_form_that_one_kind_of_link_reached() -> None:
    """A blog's posts in three clusters (C1-C3; C3 reached through C2's links only), its
    tag lists (C0) and a user's two tabs of one URL form (C4, C5: FlaskBB's
    ``/user/NAME/posts`` and ``/user/NAME/topics``)."""
    rows = [(f"http://b.test/tag/t{i}/", 0) for i in range(4)] + \
        [(f"http://b.test/2024/01/0{i}/p-{i}/", 1 + i % 3) for i in range(9)] + \
        [(f"http://b.test/user/u{i}/posts", 4) for i in range(4)] + \
        [(f"http://b.test/user/u{i}/topics", 5) for i in range(4)]
    urls, labels = zip(*rows, strict=True)
    assert page_family(urls, labels, 4, 6) == [4, 5]         # one form ...
    linked = {0: [], 1: [2], 2: [1, 3], 3: [2], 4: [], 5: []}
    assert page_types(urls, labels, 6, linked.__getitem__) == [0, 1, 1, 1, 2, 3]
    assert page_types(urls, labels, 6) == [0, 1, 1, 1, 2, 2]  # ... by form alone
    # a cluster the site marks noindex stays apart, and C2 no longer joins C1 and C3
    assert page_types(urls, labels, 6, linked.__getitem__, apart=[2]) == [0, 1, 2, 3, 4, 5]
    assert page_types(urls, labels, 6, linked.__getitem__, apart=[3]) == [0, 1, 1, 2, 3, 4]
    assert page_types(urls, labels, 0) == []


def test_a_view_every_page_has_is_a_keyword_wherever_it_ends_a_url() -> None:
    """django-wiki's paths are its page tree: ``/garden/_create/`` is one URL among the
    garden's children and fell in their ``*``, so a breadcrumb menu's "create" link and its
    child links had one pattern. A last token that ends the URLs of at least four pages
    (``_create``, ``_history``) is an ending, kept wherever met; a child's name ends one
    page's URLs, and a wiki title its namespaces', which are no pages."""
    sections = ["garden", "baking", "hiking", "cycling"]
    urls = [f"{H}/"]
    for sec in sections:
        urls += [f"{H}/{sec}/", f"{H}/{sec}/_create/", f"{H}/{sec}/_history/"]
        for i in range(6):
            urls += [f"{H}/{sec}/c{sec}{i}/", f"{H}/{sec}/c{sec}{i}/_create/"]
    p = UrlPatterns.learn(urls)
    assert p.endings == {"_create", "_history"}
    assert p.pattern(f"{H}/garden/_create/") == "/garden/_create"
    assert p.pattern(f"{H}/garden/new-child/") == "/garden/*"
    assert p.pattern(f"{H}/garden/cgarden1/_create/") == "/garden/*/_create"
    assert p.pattern(f"{H}/other/deep/x/_history/") == "/*/*/*/_history"
    # round trip, and a model saved before endings existed
    assert UrlPatterns.from_json(p.to_json()).endings == p.endings
    data = p.to_json()
    del data["endings"]
    assert UrlPatterns.from_json(data).endings == frozenset()
    # titles under MediaWiki's namespaces (no page of their own) are no endings
    wiki = [f"{H}/index.php/{ns}{t}" for t in ("Paris", "Rome", "Oslo", "Bern", "Riga")
            for ns in ("", "Talk:", "User_talk:", "Special:WhatLinksHere/")]
    assert UrlPatterns.learn(wiki).endings == frozenset()


def test_an_outline_keeps_endings_numbers_namespaces_and_the_query() -> None:
    """The outline of a pattern (`UrlPatterns.outline`) turns the site's words in its path to
    ``*`` and keeps what says which view or entity it is: an ending, a number, a
    namespace, the query."""
    p = UrlPatterns(endings=["_create"])
    assert p.outline("/cycling/oven-checklist/*") == "/*/*/*"
    assert p.outline("/garden/*/_create") == "/*/*/_create"
    assert p.outline("/forum/#/topic/*?page=#") == "/*/#/*/*?page=#"
    assert p.outline("/index.php/Talk:/*?action=history") == "/*/Talk:/*?action=history"
    assert p.outline("/") == "/"
