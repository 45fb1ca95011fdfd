"""URL shapes for crawl-for-target (archiver.learning.urlshape), on URL lists shaped like the
sites the zoo imitates (WordPress, phpBB, MediaWiki, StackExchange, Flickr)."""

from __future__ import annotations

import pytest

from archiver.learning.urlshape import UrlShape, learn_shape

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
    assert profile == UrlShape(("memberlist.php",), (("mode", "viewprofile"),), ("mode", "u"))
    assert profile.matches(f"{H}/memberlist.php?u=77&mode=viewprofile")
    assert not profile.matches(f"{H}/memberlist.php?mode=email&u=3")
    topic = learn_shape(f"{H}/viewtopic.php?f=1&t=4", urls)
    assert topic.matches(f"{H}/viewtopic.php?t=99")       # ids are optional
    assert not topic.matches(f"{H}/viewforum.php?f=1")
    assert topic.matches(f"{H}/viewtopic.php?t=99&start=20")   # its next page
    assert not topic.matches(f"{H}/viewtopic.php?t=99&view=print")


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


def test_the_shape_ends_at_the_entity_slot() -> None:
    """An example deep in an entity's pages (an author's third archive page) stands for the
    entity's pages, not only for third pages."""
    shape = learn_shape(f"{H}/author/ann/page/3/", WORDPRESS)
    assert shape == UrlShape(("author", "*"), ())
    assert shape.matches(f"{H}/author/bob/")


@pytest.mark.parametrize("shape", [UrlShape(("author", "*"), ()),
                                   UrlShape(("memberlist.php",), (("mode", "viewprofile"),),
                                            ("mode", "u"))])
def test_json_round_trip(shape: UrlShape) -> None:
    assert UrlShape.from_json(shape.to_json()) == shape


def test_from_json_rejects_a_bad_query_token() -> None:
    with pytest.raises(ValueError, match="query token"):
        UrlShape.from_json({"path": ["a"], "query": [["only-a-name"]]})
