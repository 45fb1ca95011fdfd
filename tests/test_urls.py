"""URL canonicalization (seen-set keys), host keys, and scope rules."""

from __future__ import annotations

import re

import pytest

from archiver.urls import ScopeRules, canonicalize, host_key, strip_session_ids

SID = "0123456789abcdef0123456789abcdef"


@pytest.mark.parametrize(("url", "key"), [
    ("HTTP://Example.COM/a", "http://example.com/a"),
    ("http://example.com", "http://example.com/"),
    ("http://example.com:80/a", "http://example.com/a"),
    ("https://example.com:443/a", "https://example.com/a"),
    ("http://example.com:443/a", "http://example.com:443/a"),
    ("https://example.com:8443/a", "https://example.com:8443/a"),
    ("http://example.com./a", "http://example.com/a"),
    ("http://example.com/a#section", "http://example.com/a"),
    ("http://example.com/a?b=2&a=1", "http://example.com/a?a=1&b=2"),
    ("http://example.com/a?", "http://example.com/a"),
    ("http://example.com/%7Euser/", "http://example.com/~user/"),
    ("http://example.com/a%2fb", "http://example.com/a%2Fb"),
    ("http://example.com/a b", "http://example.com/a%20b"),
    ("http://example.com/a/./b/../c", "http://example.com/a/c"),
    ("http://bücher.de/ä", "http://xn--bcher-kva.de/%C3%A4"),
    ("http://[::1]:80/x", "http://[::1]/x"),
    ("http://user:pw@Example.com/", "http://user:pw@example.com/"),
    # session ids are not part of the key
    (f"http://f.org/viewtopic.php?t=1&sid={SID}", "http://f.org/viewtopic.php?t=1"),
    (f"http://f.org/showthread.php?s={SID}&t=9", "http://f.org/showthread.php?t=9"),
    ("http://f.org/a;jsessionid=1A2B3C4D5E6F7A8B.node1?x=1", "http://f.org/a?x=1"),
    ("http://f.org/?PHPSESSID=abcdefghij0123456789ab&x=1", "http://f.org/?x=1"),
    # ... but short values are real parameters (WordPress search, a numeric sid)
    ("http://f.org/?s=hello", "http://f.org/?s=hello"),
    ("http://f.org/?sid=5", "http://f.org/?sid=5"),
])
def test_canonicalize_table(url: str, key: str) -> None:
    assert canonicalize(url) == key


def test_canonicalize_equivalents_collapse() -> None:
    variants = [
        "http://Forum.Example.org/viewtopic.php?t=7&f=2",
        "http://forum.example.org:80/viewtopic.php?f=2&t=7#p12",
        f"http://forum.example.org/viewtopic.php?f=2&t=7&sid={SID}",
    ]
    assert len({canonicalize(v) for v in variants}) == 1


@pytest.mark.parametrize("url", ["not a url", "mailto:a@b.org", "http://a:99999/", ""])
def test_canonicalize_never_raises(url: str) -> None:
    assert isinstance(canonicalize(url), str)


def test_strip_session_ids_leaves_other_urls_untouched() -> None:
    url = "http://a.org/x?b=&&a=1#f"
    assert strip_session_ids(url) == url
    assert strip_session_ids(f"http://a.org/x?jsessionid={SID}") == "http://a.org/x"
    assert strip_session_ids("http://a.org/x?ASPSESSIONIDQQGQQBCS=ABCDEFGHIJKLMNOPQRSTUVWX&y=2") \
        == "http://a.org/x?y=2"


@pytest.mark.parametrize(("url", "key"), [
    ("http://Example.org/a", "example.org"),
    ("https://example.org:443/", "example.org"),
    ("http://example.org:8080/", "example.org:8080"),
    ("http://[::1]:8080/", "[::1]:8080"),
    ("http://bücher.de/", "xn--bcher-kva.de"),
    ("mailto:x@y.org", ""),
    ("http://a:notaport/", ""),
])
def test_host_key(url: str, key: str) -> None:
    assert host_key(url) == key


def test_scope_hosts_exact_and_port() -> None:
    scope = ScopeRules(["forum.example.org", "127.0.0.1:8080"])
    assert scope.check("https://forum.example.org/x", 0) is None
    assert scope.check("http://FORUM.example.org:80/x", 0) is None
    assert scope.check("http://www.forum.example.org/", 0) == "out-of-scope:host"
    assert scope.check("http://example.org/", 0) == "out-of-scope:host"
    assert scope.check("http://forum.example.org:8080/", 0) == "out-of-scope:host"
    assert scope.check("http://127.0.0.1:8080/", 0) is None
    assert scope.check("http://127.0.0.1/", 0) == "out-of-scope:host"


def test_scope_default_port_in_entry_is_ignored() -> None:
    scope = ScopeRules(["example.org:443"])
    assert scope.check("https://example.org/", 0) is None


def test_scope_wildcard_matches_subdomains_and_apex() -> None:
    scope = ScopeRules(["*.example.org"])
    assert scope.check("http://example.org/", 0) is None
    assert scope.check("http://a.example.org/", 0) is None
    assert scope.check("http://a.b.example.org/", 0) is None
    assert scope.check("http://badexample.org/", 0) == "out-of-scope:host"
    assert scope.check("http://example.org.evil.com/", 0) == "out-of-scope:host"
    assert scope.check("http://a.example.org:8080/", 0) == "out-of-scope:host"
    assert ScopeRules(["*.example.org:8080"]).check("http://a.example.org:8080/", 0) is None


def test_scope_include_exclude_depth_and_bad_urls() -> None:
    scope = ScopeRules(
        ["f.org"],
        include=[re.compile(r"/forum/"), r"/topic/"],
        exclude=[re.compile(r"/logout"), re.compile(r"[?&]mode=reply")],
        max_depth=3,
    )
    assert scope.check("http://f.org/forum/1", 3) is None
    assert scope.check("http://f.org/topic/1", 0) is None
    assert scope.check("http://f.org/about", 0) == "out-of-scope:include"
    assert scope.check("http://f.org/forum/logout", 0) == "excluded:/logout"
    assert scope.check("http://f.org/forum/p?mode=reply", 0) == "excluded:[?&]mode=reply"
    assert scope.check("http://f.org/forum/1", 4) == "too-deep"
    assert scope.check("http://other.org/forum/1", 0) == "out-of-scope:host"
    for bad in ("mailto:a@f.org", "javascript:void(0)", "ftp://f.org/forum/", "http:///x",
                "http://f.org:99999/forum/", "not a url"):
        assert scope.check(bad, 0) == "bad-url", bad


def test_scope_without_include_accepts_everything_on_the_host() -> None:
    scope = ScopeRules(["f.org"])
    assert scope.check("http://f.org/anything?at=all", 30) is None
    assert scope.check("http://f.org/anything", 31) == "too-deep"


def test_scope_needs_hosts() -> None:
    with pytest.raises(ValueError, match="at least one host"):
        ScopeRules([])


def test_memoised_canonicalize_and_host_key_equal_uncached() -> None:
    """The bounded LRU memo returns what the uncached functions return, on hits and misses."""
    import random

    from archiver import urls

    rng = random.Random(3)
    pool = [f"HTTP://Forum.Example.org:80/t.php?t={i % 7}&f={i % 3}#p{i}" for i in range(40)]
    pool += [f"http://f.org/a;jsessionid={SID.upper()}?sid={SID}&x={i}" for i in range(5)]
    pool += ["not a url", "http://a:99999/", "", "http://bücher.de/ä", "http://[::1]:80/x"]
    for url in [rng.choice(pool) for _ in range(500)]:  # repeats: mostly cache hits
        assert canonicalize(url) == urls.canonicalize.__wrapped__(url)
        assert host_key(url) == (
            "" if (s := urls._split.__wrapped__(url)) is None else urls._join_host(s[1], s[2]))
    assert urls.canonicalize.cache_info().hits > 0
    assert urls.canonicalize.cache_info().maxsize == urls.MEMO_SIZE


def test_scope_verdict_of_a_url_is_remembered_but_depth_is_judged_each_time() -> None:
    scope = ScopeRules(["f.org"], exclude=[r"/logout"], max_depth=2)
    for depth, reason in ((2, None), (3, "too-deep"), (1, None), (9, "too-deep")):
        assert scope.check("http://f.org/a", depth) == reason
    # URL reasons come before depth, whatever was asked before.
    assert scope.check("http://f.org/logout", 0) == "excluded:/logout"
    assert scope.check("http://f.org/logout", 9) == "excluded:/logout"
    assert scope.check("http://other.org/", 9) == "out-of-scope:host"
    assert scope.check("not a url", 9) == "bad-url"
