"""Exhausted kinds of link: shingle novelty, delayed credit through the links a page found,
the run of misses that ends a kind of link, and the verdict it gives in `SourceStrategy`."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from archiver.learning.discovery import (
    CONTENT_SHARE,
    FAMILY_OWN,
    MIN_SHINGLES,
    NOVEL_SHARE,
    RUN_LENGTH,
    WORTH_FULL,
    WORTH_PRIOR,
    Discovery,
    News,
    Shingles,
    Worth,
)
from archiver.page import Link, parse_html
from archiver.strategies import Decision, Visit
from archiver.strategies.source import ANY_HOLDER, SourceStrategy

WORDS = ["river", "stone", "bread", "oven", "garden", "season", "lens", "film", "bike", "route",
         "tent", "coffee", "roast", "grinder", "joint", "glue", "frame", "wheel", "chain",
         "brake", "map", "compass", "stove", "rain", "snow", "paper"]


def _text(seed: int, n: int = 60) -> str:
    """n random words, the same for a seed (a prefix of the seed's longer texts)."""
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _tree(*paragraphs: str) -> object:
    html = "<html><body>" + "".join(f"<p>{p}</p>" for p in paragraphs) + "</body></html>"
    tree = parse_html("http://s.test/", html.encode()).tree
    assert tree is not None
    return tree


def test_a_page_is_new_until_its_text_has_been_seen() -> None:
    seen = Shingles()
    assert seen.novel(_tree(_text(1)))                     # first sight
    assert not seen.novel(_tree(_text(1)))                 # the same text again
    # a listing of two known texts and a little of its own is not new
    assert not seen.novel(_tree(_text(1), "tag archive page two", _text(1, 40)))
    assert seen.novel(_tree(_text(1), _text(3)))            # half of it new
    assert seen.novel(_tree("log in"))                      # too short to judge: new
    assert len(Shingles().of(["log in to reply"])) < MIN_SHINGLES


def test_a_short_page_is_new_only_when_some_of_its_text_is() -> None:
    """Too short to judge by the share of new shingles, a page counts as new when one of its
    words of at least `MIN_WORD` characters is, or when it has no shingle; else it needs as
    many new shingles as a page of `MIN_SHINGLES` would. A real Askbot's empty tag lists
    (15-17 shingles, all of them the site's chrome) counted as new and kept its unbounded
    tag lists productive; its users' empty tabs ("anna-b's profile - followed questions")
    were new by the two shingles their user's name made of known words. The zoo Q&A site's
    profiles are the chrome, titles already seen and a name too short for a shingle."""
    seen = Shingles()
    chrome = "questions tags users badges ask a question about this site"
    assert seen.novel(_tree(chrome))                       # first sight
    assert 0 < len(seen.of([chrome])) < MIN_SHINGLES
    assert not seen.novel(_tree(chrome))                   # an empty list: all seen
    assert seen.novel(_tree(chrome, "maria lopez joined in spring"))   # new words
    assert seen.novel(_tree(chrome, "18 reputation", "lubamo99"))     # a new word
    assert not seen.novel(_tree(chrome, "18 reputation", "lubamo99"))
    # known words in a new order: the shingles of a name are new, no word is
    assert seen.novel(_tree(chrome, "maria s profile followed questions"))
    for name in ("maria spring", "lopez maria", "spring b"):
        news = seen.judge(_tree(chrome, f"{name} s profile followed questions"))
        assert 0 < news.new < NOVEL_SHARE * MIN_SHINGLES and news.words == 0
        assert not news.novel
    assert News(shingles=0, new=0).novel and not News(shingles=5, new=0).novel
    assert News(shingles=5, new=0, words=1).novel
    assert News(shingles=10, new=4).novel and not News(shingles=10, new=3).novel
    assert News(shingles=100, new=20).novel and not News(shingles=100, new=19).novel


def test_numbers_are_not_words() -> None:
    """Dates, counts and vote numbers change from view to view: a page whose only new
    text is numbers brings nothing (a real Askbot user's karma tab: a date per vote)."""
    seen = Shingles()
    text = _text(7, 40)
    assert seen.novel(_tree(text, "asked 2024-12-11 20:11:46 by maria, 3 answers"))
    again = seen.judge(_tree(text, "asked 2025-01-02 09:30:00 by maria, 12 answers"))
    assert again.new == 0 and again.words == 0 and not again.novel
    assert seen.judge(_tree("+7 maria 2025 06 01 +0000")).words == 0
    assert seen.judge(_tree("a 3rd b2b offer")).words == 3    # words with a digit stay
    # ... but a number with a unit is one word whatever its digits: Fossil's footer, the
    # time the page took to make
    footer = seen.judge(_tree(text, "this page was generated in about 0.007s by fossil"))
    assert footer.words > 0
    later = seen.judge(_tree(text, "this page was generated in about 0.012s by fossil"))
    assert later.new == 0 and later.words == 0 and not later.novel
    assert seen.judge(_tree("a 23rd b2b offer")).words == 0            # 3rd, 23rd: 0rd
    assert seen.judge(_tree("b7b python3 python2")).words == 3         # a name keeps them


def test_ascii_art_is_not_words() -> None:
    """A real Fossil's robot wall draws a captcha in ASCII art, anew for every request: its
    runs of underscores are not words (a word has a letter), so a second fetch of the wall
    brings no new text; words with an underscore in them still count."""
    seen = Shingles(blocks=True)
    art = [" ___   ______   _  _    ____  ", "| | | || |__  | || |_ | |_) |",
           " \\___/ |______||_| \\___/ |____/ "]
    again = [" ____  ___    __   _____ ", "|___ \\ |__ \\  / /  | ____|",
             " |____/ |___/ |_|  |_____|"]
    wall = "please demonstrate that you are human, not a spider or robot"

    def page(lines: list[str]) -> object:
        html = f"<html><body><p>{wall}</p><pre>{chr(10).join(lines)}</pre></body></html>"
        return parse_html("http://f.test/blame", html.encode()).tree

    assert seen.novel(page(art))
    second = seen.judge(page(again))
    assert second.new == 0 and second.words == 0 and not second.novel
    assert seen.judge(_tree("fossil_audio_captcha __init__")).words == 2


def test_shingles_stay_within_a_text_node() -> None:
    assert len(Shingles().of(["a b c d e f"])) == 2
    assert len(Shingles().of(["a b c", "d e f"])) == 0


def test_another_rendering_of_known_sentences_is_not_new_text() -> None:
    """Shingles run within a block, across its emphases: a wiki article's source view (its
    markdown in one ``pre``, a blank line between paragraphs) repeats the sentences the
    article showed with an emphasis or inline code in them. Judged by text nodes, each of
    those breaks made shingles the article never had, and a real django-wiki's source views
    counted as new text one time in five, so their kind of link never ran out (``blocks``
    off: the old judgement)."""
    words = [_text(seed, 12).split() for seed in range(20, 32)]
    rendered = "".join(f"<p>{' '.join(w[:4])} <em>{' '.join(w[4:6])}</em> {' '.join(w[6:9])} "
                       f"<code>{w[9]}</code> {' '.join(w[10:])}</p>" for w in words)
    source = "<pre>" + "\n\n".join(" ".join(w) for w in words) + "</pre>"
    page, view = (parse_html("http://s.test/", f"<html><body>{b}</body></html>".encode()).tree
                  for b in (rendered, source))
    for blocks, new in ((True, False), (False, True)):
        seen = Shingles(blocks=blocks)
        assert seen.novel(page)
        news = seen.judge(view)
        assert news.judged and news.novel is new, (blocks, news)


def test_block_shingles_is_a_strategy_parameter_on_by_default(tmp_path: Path) -> None:
    """Measured on the real sites (benchmarks/results/source-zoo-summary.md, "Session 44"
    and "Session 45"): off in session 44, as it lost a real django-wiki's sub-articles that
    only the source views' menus led to; on once the menus' links to them were no longer
    judged duplicate views (``duplicate_endings``)."""
    from tests.test_source_strategy import _listing_strategy

    off = _listing_strategy(tmp_path / "off", block_shingles=False)
    on = _listing_strategy(tmp_path / "on")
    assert off.params()["block_shingles"] is False and not off._shingles.blocks
    assert on.params()["block_shingles"] is True and on._shingles.blocks


def test_a_run_of_misses_exhausts_a_kind_of_link_and_a_hit_resets_it() -> None:
    d = Discovery(run_length=3)
    tag = (1, "/html/body/a")
    for i in range(2):
        d.fetched(f"/tag/{i}", tag, novel=False, found=[])
    d.fetched("/tag/2", tag, novel=True, found=[])        # one productive page: run resets
    for i in range(3, 5):
        d.fetched(f"/tag/{i}", tag, novel=False, found=[])
    assert not d.exhausted(tag)
    d.settle("/tag/5", tag, productive=False)             # a 404 misses too
    assert d.exhausted(tag) and d.counts[tag] == [6, 1]
    assert not d.exhausted((1, "/other")) and not Discovery(run_length=0).exhausted(tag)


def test_a_kind_is_barren_when_its_own_run_of_misses_is_all_it_ever_brought() -> None:
    d = Discovery(run_length=3)
    tab, sort = (1, "/tabs"), (1, "/sort")
    for i in range(3):
        assert not d.barren(tab)
        d.fetched(f"/u/1?tab={i}", tab, novel=False, found=[])
    assert d.barren(tab) and d.exhausted(tab)
    d.fetched("/q/1?sort=new", sort, novel=True, found=[])  # once productive: never barren
    for i in range(5):
        d.fetched(f"/q/1?sort={i}", sort, novel=False, found=[])
    assert d.exhausted(sort) and not d.barren(sort)
    assert not Discovery(run_length=0).barren(tab)


def test_a_page_waits_for_the_links_it_found() -> None:
    """Pagination does not pass for discovery: tag page 1 found page 2, which found page 3;
    none brought new text, so all three miss, settled when the last one is fetched. A chain
    that ends on something new makes every page on it productive."""
    d = Discovery()
    first, more = (1, "/tags"), (1, "/pager")
    d.fetched("/tag/x", first, novel=False, found=["/tag/x/2"])
    d.fetched("/tag/x/2", more, novel=False, found=["/tag/x/3"])
    assert d.counts == {}                                  # both still wait
    d.fetched("/tag/x/3", more, novel=False, found=[])
    assert d.counts == {first: [1, 0], more: [2, 0]}
    d.fetched("/tag/y", first, novel=False, found=["/tag/y/2"])
    d.fetched("/tag/y/2", more, novel=False, found=["/post/9"])
    d.fetched("/post/9", (2, "/title"), novel=True, found=[])
    assert d.counts[first] == [2, 1] and d.counts[more] == [3, 1]
    assert d.runs[first] == 0 and d.runs[more] == 0
    d.fetched("/tag/z", first, novel=False, found=["/tag/z/2"])
    d.settle("/tag/z/2", None, productive=False)          # dropped unfetched: page 1 missed
    assert d.counts[first] == [3, 1] and None not in d.counts


def test_a_page_with_several_new_links_is_productive_if_one_of_them_is() -> None:
    d = Discovery()
    home = (0, "/nav")
    d.fetched("/board", home, novel=False, found=["/t/1", "/t/2", "/t/3"])
    d.settle("/t/1", (1, "/t"), productive=False)
    assert home not in d.counts                            # still two to go
    d.fetched("/t/2", (1, "/t"), novel=True, found=[])
    assert d.counts[home] == [1, 1]
    d.fetched("/t/3", (1, "/t"), novel=False, found=[])   # after its finder settled
    assert d.counts[home] == [1, 1] and d.counts[(1, "/t")] == [3, 1]


def test_source_skips_an_exhausted_kind_of_link_but_never_the_content(tmp_path: Path) -> None:
    """On the Flickr-like model (home C0, lists C1, photos C2): list pages that keep showing
    known text exhaust the home's "lists" links after `RUN_LENGTH` of them; links to photos,
    the cluster ranked first, stay followed whatever they bring. With ``exhaustion: 0`` the
    same crawl keeps following the lists."""
    from tests.test_learning_navigation import X_LISTS, X_PHOTO
    from tests.test_source_strategy import _listing_strategy

    def crawl(strategy: SourceStrategy) -> None:
        strategy.model.classify = lambda bag: 1             # (what the page is plays no part)

        def fetch(url: str, apath: str, text: str) -> None:
            strategy._via[url] = ("h", apath)
            visit = Visit(page=parse_html(url, f"<html><body><p>{text}</p>".encode()),
                          depth=1, digest=url.encode())
            strategy.describe(visit)
            strategy.decide(visit, [])

        fetch("http://m.test/d9", X_PHOTO, _text(1))                   # a photo, new
        for i in range(RUN_LENGTH):
            assert strategy._judge("http://m.test/l-next", 0, X_LISTS).follow
            fetch(f"http://m.test/l{i + 10}", X_LISTS, _text(1))       # the same list again
            fetch(f"http://m.test/d{i + 10}", X_PHOTO, _text(1))       # a photo seen before

    strategy = _listing_strategy(tmp_path)
    assert strategy._protected == 2
    crawl(strategy)
    verdict = strategy._judge("http://m.test/l-next", 0, X_LISTS)
    assert not verdict.follow and verdict.reason == "exhausted:1"
    assert strategy._judge("http://m.test/d-next", 0, X_PHOTO).follow
    off = _listing_strategy(tmp_path / "off", exhaustion=0)
    crawl(off)
    assert off._shingles is None and off._judge("http://m.test/l-next", 0, X_LISTS).follow


def test_a_barren_kind_of_view_of_a_page_is_exhausted_even_to_the_content(
        tmp_path: Path) -> None:
    """Links to the page's own path with another query (a tab, a sort) predicted to lead to
    the protected cluster lose the shield once their kind has missed `RUN_LENGTH` times in a
    row and never brought anything: a real Askbot's profiles ranked first, and every
    user's empty "favorites" tab, classified as a profile, was fetched. Links of that kind
    to other paths keep it (a blog's home page may show whole posts), and so does a kind
    that once brought something."""
    from tests.test_learning_navigation import X_PHOTO, X_THUMB
    from tests.test_source_strategy import _listing_strategy

    holder = "http://m.test/d1"

    def crawl(strategy: SourceStrategy, first_new: bool) -> None:
        strategy.model.classify = lambda bag: 2             # the views look like photos
        strategy._cluster_of[holder] = 0                    # links of the home's kind
        strategy._shingles.judge(_tree(_text(1)))
        for i in range(RUN_LENGTH + 1):
            url = f"{holder}?view={i}"
            strategy._via[url] = (holder, X_PHOTO)
            text = _text(2) if first_new and i == 0 else _text(1)
            visit = Visit(page=parse_html(url, f"<html><body><p>{text}</p>".encode()),
                          depth=1, digest=url.encode())
            strategy.describe(visit)
            strategy.decide(visit, [])
            photo = f"http://m.test/p{i}"                    # photos keep bringing text
            strategy._via[photo] = ("l1", X_THUMB)
            visit = Visit(page=parse_html(photo, f"<p>{_text(100 + i)}</p>".encode()),
                          depth=1, digest=photo.encode())
            strategy.describe(visit)
            strategy.decide(visit, [])

    strategy = _listing_strategy(tmp_path)
    assert strategy._protected == 2
    crawl(strategy, first_new=False)
    assert strategy._brings(2)
    verdict = strategy._judge(f"{holder}?view=next", 0, X_PHOTO, holder=holder)
    assert not verdict.follow and verdict.reason == "exhausted:2"
    assert strategy._judge("http://m.test/d-next", 0, X_PHOTO, holder=holder).follow
    # where the query names the page, a link that changes an argument is to another page
    assert strategy._judge("http://m.test/d?id=2", 0, X_PHOTO, holder="http://m.test/d?id=1"
                           ).follow
    once = _listing_strategy(tmp_path / "once")
    crawl(once, first_new=True)
    assert once.discovery.exhausted((0, _apath(X_PHOTO)))
    assert once._judge(f"{holder}?view=next", 0, X_PHOTO, holder=holder).follow


def test_links_of_the_kind_that_led_to_a_page_bring_it_no_credit(tmp_path: Path) -> None:
    """Tag pages list the tags of their posts: if those new links of the page's own kind
    could make it productive, every tag page would wait on the others to the last tag. A
    page waits only for new links of another kind."""
    from tests.test_learning_navigation import X_LISTS, X_PHOTO
    from tests.test_source_strategy import _listing_strategy

    strategy = _listing_strategy(tmp_path)
    strategy.model.classify = lambda bag: 0         # pages like the home page: links found
    key = (0, _apath(X_LISTS))                      # on them are of the home's kinds

    def fetch(url: str, links: list[tuple[str, str]]) -> None:
        strategy._via[url] = ("h", X_LISTS)
        visit = Visit(page=parse_html(url, f"<html><body><p>{_text(0)}</p>".encode()),
                      depth=1, digest=url.encode())
        strategy.describe(visit)
        assert all(d.follow for d in strategy.decide(visit, [Link(u, x) for u, x in links]))

    fetch("http://m.test/first", [])                       # new text: productive
    fetch("http://m.test/same", [("http://m.test/l-new", X_LISTS)])
    assert strategy.discovery.counts[key] == [2, 1]        # settled at once: a miss
    fetch("http://m.test/other", [("http://m.test/d-new", X_PHOTO)])
    assert strategy.discovery.counts[key] == [2, 1]        # waits for the photo
    strategy.discovery.settle("http://m.test/d-new", None, productive=False)
    assert strategy.discovery.counts[key] == [3, 1]


def test_a_queued_link_dropped_at_rescore_settles_the_page_that_found_it(
        tmp_path: Path) -> None:
    """A page that waits on a new link stops waiting when a later re-ranking skips that
    link (`SourceStrategy.rescore`): the link brought it nothing."""
    from archiver.strategies.base import Decision, Queued
    from tests.test_learning_navigation import X_LISTS, X_PHOTO
    from tests.test_source_strategy import _listing_strategy

    strategy = _listing_strategy(tmp_path)
    strategy.model.classify = lambda bag: 0
    key = (0, _apath(X_LISTS))
    strategy._via["http://m.test/same"] = ("h", X_LISTS)
    visit = Visit(page=parse_html("http://m.test/same", f"<p>{_text(0)}</p>".encode()),
                  depth=1, digest=b"1")
    strategy.describe(visit)
    strategy.decide(visit, [])                      # new text: a hit
    visit = Visit(page=parse_html("http://m.test/same2", f"<p>{_text(0)}</p>".encode()),
                  depth=1, digest=b"2")
    strategy._via["http://m.test/same2"] = ("h", X_LISTS)
    strategy.describe(visit)                        # known text, one new photo link
    strategy.decide(visit, [Link("http://m.test/d-new", X_PHOTO)])
    assert strategy.discovery.counts[key] == [1, 1]            # waits for the photo
    queued = [Queued(7, "http://m.test/d-new", 2, X_PHOTO, "http://m.test/same2")]
    judge = strategy._judge
    strategy._judge = lambda url, *a, **k: (
        Decision(url, False, 0.0, "low-value:2", 2) if url.endswith("d-new")
        else judge(url, *a, **k))
    assert [d.follow for _, d in strategy.rescore(queued)] == [False]
    assert strategy.discovery.counts[key] == [2, 1]            # settled: a miss
    assert strategy.discovery.runs[key] == 1


def test_a_fetch_counts_for_the_link_that_was_followed(tmp_path: Path) -> None:
    """A URL first shown by one kind of link and fetched for another (the crawl skipped it
    at the first: `archiver.linking`) counts against the kind that was followed, which is
    the kind `rescore` re-judges such URLs by. Counted against the first kind, the zoo
    blog's post calendars were exhausted while its listings' calendars, which the crawl was
    following, never were."""
    from tests.test_learning_navigation import X_LISTS, X_PHOTO
    from tests.test_source_strategy import _listing_strategy

    strategy = _listing_strategy(tmp_path)
    strategy.model.classify = lambda bag: 0

    def fetch(url: str, links: list[tuple[str, str]]) -> None:
        visit = Visit(page=parse_html(url, f"<html><body><p>{_text(0)}</p>".encode()),
                      depth=1, digest=url.encode())
        strategy.describe(visit)
        strategy.decide(visit, [Link(u, x) for u, x in links])

    fetch("http://m.test/h", [("http://m.test/l1", X_LISTS)])     # shown first here
    fetch("http://m.test/p", [("http://m.test/l1", X_PHOTO)])     # followed from here
    strategy.fetched_by("http://m.test/l1", "http://m.test/p", X_PHOTO)
    fetch("http://m.test/l1", [])                                  # known text: a miss
    assert strategy.discovery.counts.get((0, _apath(X_PHOTO))) == [1, 0]
    assert (0, _apath(X_LISTS)) not in strategy.discovery.counts


def test_with_listing_exhaustion_one_listing_s_misses_do_not_end_another_s(
        tmp_path: Path) -> None:
    """Forum 1's pagination (links from /f1 to /f1?page=N) brings only known topics
    `RUN_LENGTH` times in a row. Per kind of link that ends forum 2's pagination too; with
    ``listing_exhaustion`` only forum 1's, the listing being the path and the query
    arguments holder and link share."""
    from tests.test_learning_navigation import X_LISTS
    from tests.test_source_strategy import _listing_strategy

    def crawl(strategy: SourceStrategy) -> tuple[bool, bool]:
        strategy.model.classify = lambda bag: 0
        for forum in ("http://m.test/f1", "http://m.test/f2"):
            strategy._cluster_of[forum] = 0
        strategy._via["http://m.test/d0"] = ("h", X_LISTS)
        _fetch(strategy, "http://m.test/d0", _text(1))                # new text
        for i in range(RUN_LENGTH):
            url = f"http://m.test/f1?page={i + 2}"
            strategy._via[url] = ("http://m.test/f1", X_LISTS)
            _fetch(strategy, url, _text(1))                            # known topics
        return tuple(strategy._judge(f"http://m.test/{f}?page=30", 0, X_LISTS,
                                     holder=f"http://m.test/{f}").follow for f in ("f1", "f2"))

    assert crawl(_listing_strategy(tmp_path / "kind")) == (False, False)
    on = _listing_strategy(tmp_path / "listing", listing_exhaustion=True)
    assert on.params()["listing_exhaustion"] is True
    assert crawl(on) == (False, True)


def _fetch(strategy: SourceStrategy, url: str, text: str) -> None:
    visit = Visit(page=parse_html(url, f"<html><body><p>{text}</p>".encode()), depth=1,
                  digest=url.encode())
    strategy.describe(visit)
    strategy.decide(visit, [])


def _apath(x: str) -> str:
    from archiver.learning.features import canonical_apath

    return canonical_apath(x)


def test_the_other_views_of_a_page_that_is_not_content_are_one_kind_of_link(
        tmp_path: Path) -> None:
    """A special page's list (an outlier, or a page marked noindex) links its next page,
    its other sizes and its filters, each from an Apath of its own: per Apath no kind
    reached `RUN_LENGTH` misses on a real MediaWiki before 72 views of Special:NewPages
    were fetched. Links from such a page to its own path with another query are one kind;
    a content page's pagination keeps a kind per Apath."""
    from tests.test_learning_navigation import X_LISTS, X_NEXT
    from tests.test_source_strategy import _listing_strategy

    def crawl(strategy: SourceStrategy, holder_cluster: int, noindex: bool) -> Decision:
        strategy.model.classify = lambda bag: holder_cluster
        holder = "http://m.test/index.php?title=Special:New"
        strategy._cluster_of[holder] = holder_cluster
        if noindex:
            strategy._noindex.add(holder)
        meta = '<meta name="robots" content="noindex">' if noindex else ""
        # 21 views over two Apaths (an indexable first view brings new text): per Apath
        # at most 11 misses in a row, one kind 20 or more
        for i in range(RUN_LENGTH + 1):
            url = f"{holder}&offset={i}"
            strategy._via[url] = (holder, (X_LISTS, X_NEXT)[i % 2])
            visit = Visit(page=parse_html(url, f"<html><head>{meta}</head><body><p>"
                                               f"{_text(1)}</p>".encode()),
                          depth=1, digest=url.encode())
            strategy.describe(visit)
            strategy.decide(visit, [])
        return strategy._judge(f"{holder}&limit=500", holder_cluster, X_NEXT, holder=holder)

    for name, cluster, noindex in (("outlier", -1, False), ("noindex", 1, True)):
        closed = crawl(_listing_strategy(tmp_path / name, evidence=False), cluster, noindex)
        assert not closed.follow and closed.reason.startswith("exhausted:"), name
    # the kinds' families (both lead to lists) would pool them: this is about `_kind` alone
    content = crawl(_listing_strategy(tmp_path / "content", evidence=False, families=False,
                                      destination_families=False), 1, False)
    assert content.follow, content.reason


def test_kinds_of_one_family_are_judged_together_once_each_has_missed_a_few_times() -> None:
    """Real WordPress: once every post was known, the archives' sidebar widgets, page
    numbers and previous-page links (three kinds, all leading to archives) each needed
    `RUN_LENGTH` misses of their own. Kinds of one family (the holder's cluster and the
    cluster their links lead to most) also share a run: it ends a kind that has missed
    `FAMILY_OWN` times in a row itself, or once if it never brought anything. A kind with
    fewer misses of its own (the header menu's static pages, fetched last) and a kind
    without a family are not ended by it; a productive page anywhere in the family starts
    its run again."""
    families = {("c", "widgets"): ("c", "to 0"), ("c", "pages"): ("c", "to 0"),
                ("c", "prev"): ("c", "to 0"), ("c", "menu"): ("c", "to 0")}
    d = Discovery(family=families.get)
    kinds = [("c", "widgets"), ("c", "pages"), ("c", "prev")]
    per_kind = -(-RUN_LENGTH // len(kinds))          # each under RUN_LENGTH on its own
    assert FAMILY_OWN <= per_kind < RUN_LENGTH
    for i in range(per_kind - 1):
        for kind in kinds:
            d.settle(f"u{i}{kind[1]}", kind, productive=False)
    d.settle("menu-1", ("c", "menu"), productive=False)
    d.settle("alone", ("c", "alone"), productive=False)
    assert not any(d.exhausted(k) for k in kinds)    # the family has not missed enough
    d.settle("x", ("c", "menu"), productive=True)    # the family's run starts again
    assert d.runs[("c", "to 0")] == 0
    for i in range(per_kind):
        for kind in kinds:
            d.settle(f"v{i}{kind[1]}", kind, productive=False)
    assert d.runs[("c", "to 0")] >= RUN_LENGTH
    assert all(d.exhausted(k) for k in kinds)
    assert not d.exhausted(("c", "menu"))            # one miss of its own since its hit
    for _ in range(per_kind):
        d.settle("w", ("c", "alone"), productive=False)
    assert not d.exhausted(("c", "alone"))           # no family: its own run only
    # a kind of the family that never brought anything needs one miss of its own (a
    # real Askbot's tag lists have a kind per sort, ~30, each needing FAMILY_OWN)
    families[("c", "sort-by-age")] = ("c", "to 0")
    assert not d.exhausted(("c", "sort-by-age"))     # never followed: not judged yet
    d.settle("age-1", ("c", "sort-by-age"), productive=False)
    assert d.runs[("c", "to 0")] >= RUN_LENGTH and d.exhausted(("c", "sort-by-age"))
    d.settle("menu-2", ("c", "menu"), productive=False)
    assert not d.exhausted(("c", "menu"))            # it brought something once: 4 misses
    plain = Discovery()
    for i in range(per_kind):
        for kind in kinds:
            plain.settle(f"v{i}{kind[1]}", kind, productive=False)
    assert not any(plain.exhausted(k) for k in kinds)


def test_kinds_leading_to_one_cluster_from_any_holder_are_judged_together() -> None:
    """Real django-wiki: an article's history, source, attachment and directory views each
    link every other view, so each view cluster holds a kind of link to each of the others,
    and each (holder, destination) family needed `RUN_LENGTH` misses of its own: about 850
    requests after the last article. The destination's family (every kind leading to one
    cluster, whatever holds it) also shares a run, with the same guard on a kind's own."""
    family = {("art", "h"): ("art", "to hist"), ("src", "h"): ("src", "to hist"),
              ("dir", "h"): ("dir", "to hist"), ("art", "a"): ("art", "to art")}
    wide = {k: ("*", f[1]) for k, f in family.items()}
    d = Discovery(family=family.get, destination=wide.get)
    for i in range(RUN_LENGTH):                  # one holder's kind runs out on its own
        d.settle(f"a{i}", ("art", "h"), productive=False)
    assert d.exhausted(("art", "h")) and d.runs[("*", "to hist")] == RUN_LENGTH
    assert not d.exhausted(("src", "h"))         # not yet followed: not judged
    d.settle("s0", ("src", "h"), productive=False)
    assert d.exhausted(("src", "h"))             # never brought anything: one miss
    assert not d.exhausted(("art", "a"))         # another destination's run is its own
    # a productive page of any holder's kind starts the destination's run again
    d.settle("d0", ("dir", "h"), productive=True)
    assert d.runs[("*", "to hist")] == 0
    for i in range(FAMILY_OWN - 1):
        d.settle(f"d{i + 1}", ("dir", "h"), productive=False)
    for i in range(RUN_LENGTH):
        d.settle(f"s{i + 1}", ("src", "h"), productive=False)
    assert d.runs[("*", "to hist")] >= RUN_LENGTH
    assert not d.exhausted(("dir", "h"))         # it brought something: FAMILY_OWN misses
    d.settle("d9", ("dir", "h"), productive=False)
    assert d.exhausted(("dir", "h"))
    # without the destination's family each holder's kind waits for its own family's run
    alone = Discovery(family=family.get)
    for i in range(RUN_LENGTH):
        alone.settle(f"a{i}", ("art", "h"), productive=False)
    alone.settle("s0", ("src", "h"), productive=False)
    assert not alone.exhausted(("src", "h"))


def test_the_family_of_a_kind_is_where_its_sampled_links_led_most(tmp_path: Path) -> None:
    from archiver.learning.features import canonical_apath
    from tests.test_learning_navigation import X_LISTS, X_PHOTO, X_THUMB
    from tests.test_source_strategy import _listing_strategy

    strategy = _listing_strategy(tmp_path / "on")
    assert strategy._family((1, canonical_apath(X_THUMB))) == (1, "to 2")
    assert strategy._family((0, canonical_apath(X_LISTS))) == (0, "to 1")
    assert strategy._family((0, canonical_apath(X_PHOTO))) == (0, "to 2")
    assert strategy._family((-1, "views @/special")) is None
    assert strategy._family((1, f"{canonical_apath(X_THUMB)} @/board?f=1")) is None
    off = _listing_strategy(tmp_path / "off", families=False)
    assert off.discovery.family is None and off.params()["families"] is False
    # the destination's family: the same "to" from any holder; none toward outliers
    assert strategy._destination_family((1, canonical_apath(X_THUMB))) \
        == strategy._destination_family((0, canonical_apath(X_PHOTO))) == (ANY_HOLDER, "to 2")
    assert strategy._destination_family((-1, "views @/special")) is None
    strategy._families[(1, "/somewhere")] = (1, "to -1")
    assert strategy._destination_family((1, "/somewhere")) is None
    # a listing's links to more of itself (its pages, other months) keep their own family
    strategy._families[(1, "/pages")] = (1, "to 1")
    assert strategy._destination_family((1, "/pages")) is None
    narrow = _listing_strategy(tmp_path / "narrow", destination_families=False)
    assert narrow.discovery.destination is None
    assert narrow.params()["destination_families"] is False


def test_a_cluster_is_worth_its_pages_new_text_or_their_new_links_to_text() -> None:
    """Clusters: 0 questions, 1 question lists, 2 tag lists. A page that brought new text is
    worth 1; one that did not, y/(y+1) for the y new links it found to clusters whose pages
    bring text; a cluster, the mean of its pages with a prior of 1 as `WORTH_PRIOR` pages."""
    w = Worth(3)
    assert list(w.shares()) == [1.0] * 4                     # nothing harvested: eq. 11
    for _ in range(6):
        w.observe(0, novel=True, found=[])
    w.observe(1, novel=False, found=[0] * 9)                 # a list of 9 new questions
    assert abs(w.shares()[1] - (WORTH_PRIOR + 0.9) / (WORTH_PRIOR + 1)) < 1e-9
    for _ in range(40):                                      # tag lists that list each other
        w.observe(2, novel=False, found=[2] * 30)
    assert not w.content(2) and w.content(0) and w.content(1) and w.content(-1)
    share = w.shares()
    assert share[0] == 1.0 and share[2] < 0.5 and share[3] == 1.0
    # once its pages are known to bring no text, 30 new links to them are worth nothing
    before = w.shares()[2]
    w.observe(2, novel=False, found=[2] * 30)
    assert w.shares()[2] < before
    w.observe(1, novel=False, found=[2] * 30)
    assert w.shares()[1] < (WORTH_PRIOR + 0.9) / (WORTH_PRIOR + 1)
    assert CONTENT_SHARE > WORTH_PRIOR / (WORTH_PRIOR + 40)
    # a cluster half of whose pages bring something keeps its whole Score(C)
    factor = w.factors()
    assert factor[0] == factor[1] == 1.0 and factor[2] == w.shares()[2] / WORTH_FULL


def test_a_page_without_new_text_that_links_a_new_file_brought_content() -> None:
    """A photo page without a caption links its original: one new file is worth a page of
    content found, whatever the clusters' text shares."""
    w = Worth(2)
    for _ in range(40):
        w.observe(-1, novel=False, found=[])                 # outliers bring no text
    w.observe(0, novel=False, found=[-1], files=1)
    assert abs(w.shares()[0] - (WORTH_PRIOR + 0.5) / (WORTH_PRIOR + 1)) < 1e-9
    w.observe(1, novel=False, found=[-1])                    # a link to an outlier: nothing
    assert abs(w.shares()[1] - WORTH_PRIOR / (WORTH_PRIOR + 1)) < 1e-9


def test_a_page_whose_new_links_lead_only_to_pages_without_text_misses_at_once(
        tmp_path: Path) -> None:
    """Once the lists have shown nothing new for a while, a list that found only more lists
    does not wait for them: an unbounded space of lists that link each other (a real
    Askbot's tag combinations) never settles otherwise. Its links to content still make
    it wait."""
    from tests.test_learning_navigation import X_LISTS, X_PHOTO
    from tests.test_source_strategy import _listing_strategy

    strategy = _listing_strategy(tmp_path)
    strategy.model.classify = lambda bag: 1                  # every page fetched is a list
    key = (0, _apath(X_LISTS))
    assert strategy.worth is not None

    def fetch(url: str, links: list[tuple[str, str]]) -> None:
        strategy._via[url] = ("h", X_LISTS)
        visit = Visit(page=parse_html(url, f"<html><body><p>{_text(0)}</p>".encode()),
                      depth=1, digest=url.encode())
        strategy.describe(visit)
        strategy.decide(visit, [Link(u, x) for u, x in links])

    fetch("http://m.test/first", [])                         # new text
    for i in range(20):                                      # the same text, new lists
        fetch(f"http://m.test/l{i}", [(f"http://m.test/l{i}-{j}", X_PHOTO) for j in range(3)])
    # the lists' links were predicted to lead to photos (C2), which bring text: they wait
    assert strategy.discovery.counts.get(key, [0, 0])[0] == 1
    for _ in range(40):                                      # photos that bring no text
        strategy.worth.observe(2, novel=False, found=[])
    fetch("http://m.test/last", [("http://m.test/l-last", X_PHOTO)])
    assert strategy.discovery.counts[key] == [2, 1]          # settled at once: a miss
    assert strategy.discovery._pending.keys() >= {f"http://m.test/l{i}" for i in range(20)}


def test_links_rank_by_what_their_cluster_s_pages_have_been_worth(tmp_path: Path) -> None:
    """Crawling for UCC, Score(C) is multiplied by min(1, worth / `WORTH_FULL`) (`Worth`):
    once list pages bring neither text nor new links to content, links to lists fall
    behind links to photos; the verdict does not change. Crawling for a target the order
    is Info alone."""
    from tests.test_learning_navigation import X_LISTS, X_PHOTO
    from tests.test_source_strategy import _listing_strategy

    strategy = _listing_strategy(tmp_path)
    lists, photo = (strategy._judge(f"http://m.test/{u}", 0, x)
                    for u, x in (("l-next", X_LISTS), ("d-next", X_PHOTO)))
    assert strategy.worth is not None
    for _ in range(6 * WORTH_PRIOR):                     # worth 1/7: factor 2/7
        strategy.worth.observe(1, novel=False, found=[])
    # any page decided passes the worth on to the scorer
    strategy.decide(Visit(page=parse_html("http://m.test/l9", b"<p>x</p>"), depth=1), [])
    after = strategy._judge("http://m.test/l-next", 0, X_LISTS)
    assert after.follow and after.priority < lists.priority / 2
    assert strategy._judge("http://m.test/d-next", 0, X_PHOTO).priority == photo.priority
    target = strategy.model.scorer("target", target=2)
    before = target.cluster_scores().copy()
    target.set_worth(np.zeros(4))
    assert (target.cluster_scores() == before).all()
    ucc = strategy.model.scorer("ucc")
    ucc.set_worth(np.array([1.0, 0.5, 1.0, 1.0]))
    assert np.allclose(ucc.cluster_scores(),
                       strategy.model.scorer("ucc").cluster_scores() * [1, 0.5, 1, 1])


def test_duplicate_views_and_noindex_pages_leave_a_cluster_s_worth_alone(
        tmp_path: Path) -> None:
    """Worth counts what a cluster's new, indexable pages bring: a duplicate view (the
    same digest again) or a noindex page is the duplicate rates' to judge, per kind of
    link; counted here as well, it would also lower every link into the cluster."""
    from tests.test_source_strategy import _listing_strategy

    strategy = _listing_strategy(tmp_path)
    strategy.model.classify = lambda bag: 1
    assert strategy.worth is not None

    def fetch(url: str, digest: bytes, head: str = "") -> None:
        page = f"<html><head>{head}</head><body><p>{_text(0)}</p></body></html>"
        visit = Visit(page=parse_html(url, page.encode()), depth=1, digest=digest)
        strategy.describe(visit)
        strategy.decide(visit, [])

    fetch("http://m.test/a", b"a")
    fetch("http://m.test/a?sort=old", b"a")                       # the same page again
    fetch("http://m.test/b", b"b", '<meta name="robots" content="noindex">')
    assert strategy.worth._pages[1] == 1.0
