"""Near-duplicate views (archiver.learning.neardup): same title, nearly the same words outside
links; link text, word order and short pages do not decide."""

from __future__ import annotations

from lxml import html

from archiver.learning.neardup import MIN_WORDS, NearDuplicates, content_words, simhash

ANSWERS = [f"answer {i}: " + " ".join(f"w{i}x{j}" for j in range(12)) for i in range(4)]


def _page(paragraphs: list[str], links: tuple[str, ...] | list[str] = ()) -> html.HtmlElement:
    nav = "".join(f'<a href="/{i}">{t}</a>' for i, t in enumerate(links))
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return html.fromstring(f"<html><head><title>t</title><script>var x = 1;</script></head>"
                           f"<body><div class='nav'>{nav}</div>{body}</body></html>")


def test_content_words_leave_out_links_scripts_and_case() -> None:
    words = content_words(_page(["Hello World hello"], ["Menu Item"]))
    assert words == {"hello", "world"}


def test_a_number_with_a_unit_is_one_word() -> None:
    """The time a page took to render is no word of its own: the same page, fetched twice,
    has one fingerprint (a real Fossil's footer). Words that begin with a letter keep
    their digits."""
    words = [content_words(_page([*ANSWERS, f"generated in about 0.{ms}s"]))
             for ms in ("007", "012")]
    assert words[0] == words[1] and "0s" in words[0]
    assert {"w1x2", "w2x1"} <= words[0]


def test_simhash_is_stable_and_equal_for_equal_word_sets() -> None:
    a = simhash({"alpha", "beta", "gamma"})
    assert a == simhash(["gamma", "alpha", "beta", "alpha"])
    assert a == 0xbe081bae88584653          # the same in every process: not Python's salted hash
    assert a != simhash({"alpha", "beta", "delta"})
    assert simhash([]) == 0


def test_a_sorted_view_with_other_navigation_is_a_near_duplicate() -> None:
    near = NearDuplicates()
    question = _page(["How do I sort?", *ANSWERS], ["Newest", "Oldest"])
    assert near.repeats("How do I sort? - Q&A", question) is False      # the first view
    by_oldest = _page(["How do I sort?", *reversed(ANSWERS)], ["Photo 3 of 9", "Next"])
    assert near.repeats("How do I sort? - Q&A", by_oldest) is True
    assert near.repeats("  How do I sort?   - Q&A ", by_oldest) is True   # whitespace


def test_other_pages_are_not_near_duplicates() -> None:
    near = NearDuplicates()
    assert near.repeats("Q", _page(ANSWERS)) is False
    other = [f"answer {i}: " + " ".join(f"v{i}y{j}" for j in range(12)) for i in range(4)]
    assert near.repeats("Q", _page(other)) is False                  # same title, new words
    assert near.repeats("Another question", _page(ANSWERS)) is False  # same words, new title
    one_more = _page([*ANSWERS, " ".join(f"extra{j}" for j in range(20))])
    assert near.repeats("Q", one_more) is False                      # 20 new words of ~70


def test_short_or_untitled_pages_are_never_judged() -> None:
    near = NearDuplicates()
    short = _page([" ".join(f"w{j}" for j in range(MIN_WORDS - 1))])
    assert near.repeats("Log in", short) is False
    assert near.repeats("Log in", short) is False
    assert near.repeats("", _page(ANSWERS)) is False
    assert near.repeats("", _page(ANSWERS)) is False


def test_the_strategy_counts_near_duplicates_only_when_asked(tmp_path) -> None:
    """`near_duplicates` (default false): the second view of a question is a duplicate view
    for the duplicate-view factor only with the parameter on."""
    from archiver.page import parse_html
    from archiver.profile import profile_from_dict
    from archiver.strategies import REGISTRY, Visit

    def strategy(**params: object):
        return REGISTRY["source-ucc"].from_profile(profile_from_dict({
            "name": "t", "seeds": ["http://q.test/"], "output": {"dir": str(tmp_path)},
            "strategy": {"name": "source-ucc", "params": params}}, source="<test>"))

    body = "<html><head><title>How do I sort?</title></head><body>{}</body></html>"
    first = parse_html("http://q.test/q/1", body.format(
        "".join(f"<p>{a}</p>" for a in ANSWERS)), None)
    second = parse_html("http://q.test/q/1?tab=oldest", body.format(
        "".join(f"<p>{a}</p>" for a in reversed(ANSWERS))), None)
    for params, expected in (({}, False), ({"near_duplicates": True}, True)):
        s = strategy(**params)
        assert s._is_duplicate(Visit(page=first, depth=1, digest=b"1"))[0] is False
        assert s._is_duplicate(Visit(page=second, depth=1, digest=b"2"))[0] is expected
