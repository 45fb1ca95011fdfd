"""TrapGuard: each rule with positive and negative cases, Heritrix regex parity, resume."""

from __future__ import annotations

import random
import re
import time

import pytest

from archiver.traps import TrapGuard

H = "http://site.example.org"


def heritrix_pathological(url: str, n: int) -> bool:
    """Heritrix's PathologicalPathDecideRule, verbatim: Java matches() == Python fullmatch."""
    return re.fullmatch(r".*?/(.*?/)\1{" + str(n) + ",}.*", url) is not None


def test_ordinary_urls_pass() -> None:
    guard = TrapGuard()
    for url in (H + "/", H + "/forum/viewtopic.php?t=12&start=20", H + "/a/b/a/b/",
                H + "/2024/05/05/post-title/", H + "/wiki/Main_Page", H + "/x/a/a/"):
        assert guard.check(url) is None, url


def test_url_length() -> None:
    guard = TrapGuard(max_url_length=100)
    assert guard.check(H + "/" + "x" * (100 - len(H) - 1)) is None
    assert guard.check(H + "/" + "x" * (101 - len(H) - 1)) == "trap:url-length"


def test_path_depth() -> None:
    guard = TrapGuard(max_path_depth=5)
    assert guard.check(H + "/1/2/3/4/5") is None
    assert guard.check(H + "/1/2/3/4/5/6") == "trap:path-depth"
    assert guard.check(H + "/1/2/3/4/") is None
    assert guard.check(H + "/1/2/3/4/5/") == "trap:path-depth"
    assert guard.check(H + "/1?next=/a/b/c/d/e/f/g") is None  # query slashes are not depth


@pytest.mark.parametrize("url", [
    H + "/x/a/a/a/",              # soft-404 page with a relative link "a/" followed 3 times
    H + "/x/a/a/a/page.html",
    H + "/x/a/a/a",               # no trailing slash: caught by the segment-run rule
    H + "/a/b/a/b/a/b/",          # a repeated *sequence* (Heritrix's group spans segments)
    H + "/cal/2024/cal/2024/cal/2024/x",
    H + "/a////",                 # empty segments repeat too
])
def test_repeated_segments_trap(url: str) -> None:
    assert TrapGuard(max_repeated_segments=2).check(url) == "trap:repeated-segment"


@pytest.mark.parametrize("url", [
    H + "/x/a/a/",
    H + "/a/b/a/b/",
    H + "/a/b/a/c/a/d/",
    H + "/a/a/b/b/c/c/",
    H + "/aa/a/a/",
])
def test_repeated_segments_below_limit(url: str) -> None:
    assert TrapGuard(max_repeated_segments=2).check(url) is None


def test_repeated_segment_limit_is_configurable_and_zero_disables() -> None:
    assert TrapGuard(max_repeated_segments=1).check(H + "/x/a/a/") == "trap:repeated-segment"
    assert TrapGuard(max_repeated_segments=3).check(H + "/x/a/a/a/") is None
    assert TrapGuard(max_repeated_segments=0).check(H + "/a/a/a/a/a/") is None


def test_heritrix_regex_parity_on_random_urls() -> None:
    """Every URL Heritrix's regex rejects we reject; ours adds only the no-trailing-slash run."""
    rng = random.Random(20240501)
    alphabet = ["a", "b", "c", "", "ab"]
    for _ in range(3000):
        segments = [rng.choice(alphabet) for _ in range(rng.randint(0, 8))]
        url = H + "/" + "/".join(segments) + rng.choice(["", "/", "?q=a/a/a/", "/x.html"])
        for n in (1, 2, 3):
            ours = TrapGuard(max_repeated_segments=n, max_path_depth=0).check(url)
            if heritrix_pathological(url, n):
                assert ours == "trap:repeated-segment", (url, n)
            elif ours is not None:
                assert ours == "trap:repeated-segment", (url, n)
                assert heritrix_pathological(url + "/", n) or \
                    heritrix_pathological(url.split("?")[0] + "/", n), (url, n)


def test_query_params() -> None:
    guard = TrapGuard(max_query_params=3)
    assert guard.check(H + "/s?a=1&b=2&c=3") is None
    assert guard.check(H + "/s?a=1&b=2&c=3&d=4") == "trap:query-params"
    assert guard.check(H + "/s?a=1&&b=2&c=3&") is None  # empty pairs do not count


def test_query_variants_per_host_and_path() -> None:
    guard = TrapGuard(max_query_variants=3)
    for day in (1, 2, 3):
        assert guard.check(f"{H}/calendar?day={day}") is None
    assert guard.check(f"{H}/calendar?day=4") == "trap:query-variants"
    # Seen variants stay fine, also with parameters reordered.
    assert guard.check(f"{H}/calendar?day=2") is None
    assert guard.check(f"{H}/calendar?b=1&a=2") == "trap:query-variants"
    # Other paths and hosts have their own counts; no query is no variant.
    assert guard.check(f"{H}/events?day=4") is None
    assert guard.check("http://other.example.org/calendar?day=4") is None
    assert guard.check(f"{H}/calendar") is None
    assert guard.variants(f"{H}/calendar?x") == 3


def test_rejected_urls_do_not_use_up_variants() -> None:
    guard = TrapGuard(max_query_variants=2, max_query_params=2)
    assert guard.check(H + "/p?a=1&b=2&c=3") == "trap:query-params"
    assert guard.check(H + "/p?a=1") is None
    assert guard.check(H + "/p?a=2") is None
    assert guard.variants(H + "/p") == 2


def test_load_counts_on_resume() -> None:
    queued = [f"{H}/calendar?day={d}" for d in range(5)] + [H + "/plain"]
    guard = TrapGuard(max_query_variants=5)
    guard.load_counts(queued)
    assert guard.variants(H + "/calendar") == 5
    assert guard.check(f"{H}/calendar?day=3") is None
    assert guard.check(f"{H}/calendar?day=99") == "trap:query-variants"


def test_zero_limits_disable_rules() -> None:
    guard = TrapGuard(0, 0, 0, 0, 0)
    long_url = H + "/a" * 3000 + "?" + "&".join(f"p{i}=1" for i in range(50))
    assert guard.check(long_url) is None


def test_hostile_long_url_is_fast() -> None:
    guard = TrapGuard(max_path_depth=0)
    url = (H + "/?q=" + "/".join(f"{i}" for i in range(700)))[:2048]
    start = time.perf_counter()
    for _ in range(20):
        guard.check(url)
    assert time.perf_counter() - start < 0.5


def test_a_url_seen_again_is_judged_alike_and_counted_once() -> None:
    """The per-URL memo of the shape rules never memoises the live query-variant count."""
    guard = TrapGuard(max_query_variants=2, max_url_length=60)
    for _ in range(3):
        assert guard.check(f"{H}/c?day=1") is None
    assert guard.variants(H + "/c") == 1
    assert guard.check(f"{H}/c?day=2") is None
    for _ in range(2):
        assert guard.check(f"{H}/c?day=3") == "trap:query-variants"
    assert guard.check(f"{H}/c?day=1") is None
    assert guard.variants(H + "/c") == 2
    for _ in range(2):
        assert guard.check(H + "/" + "x" * 60) == "trap:url-length"
