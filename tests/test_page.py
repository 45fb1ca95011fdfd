"""Link extraction: the memoised URL resolution and anchor paths equal the plain ones."""

from __future__ import annotations

import itertools

import lxml.html

from archiver import page
from archiver.page import absolute_url, element_path, parse_html

BASES = ["http://f.org/a/b.php?x=1", "https://F.org:8443/dir/", "http://u:p@f.org/a;p?q#f",
         "http://f.org", "http://[::1]:81/x", "ftp://f.org/a", "not a url"]
HREFS = ["/t/7", "/t/7?b=2#frag", "/", "/../x/./y", "/a b", "/\t/evil.org/x", "//g.org/p",
         "rel/page", "?q=2", "#top", "", "  /sp  ", "javascript:x()", "HTTP://F.ORG/Up",
         "/[bad", "http://[bad/", "/ä?ö=1", "mailto:a@b"]


def test_absolute_url_memo_equals_plain_resolution() -> None:
    for _ in range(2):  # the second round is answered from the memo
        for base, href in itertools.product(BASES, HREFS):
            assert absolute_url(base, href) == page._resolve(base, href.strip()), (base, href)
    assert page._resolve_rooted.cache_info().hits > 0


def _plain_path(el: lxml.html.HtmlElement) -> str:
    return element_path(el)  # no memo: walks every ancestor


def test_anchor_paths_with_and_without_memo_agree() -> None:
    html = ('<html><body><div id="nav" class=" a  b "><ul class="m"><li><a href="/1">1</a></li>'
            '<li><a href="/2">2</a></li></ul></div><div class="c"><p><a href="/3">3</a>'
            '<img src="/i.png"></p></div><!-- <a href="/c"> --></body></html>')
    tree = lxml.html.document_fromstring(html)
    memo: dict[object, str] = {}
    els = list(tree.iter("a", "img"))
    got = [element_path(el, memo) for el in els]  # type: ignore[arg-type]
    assert got == [_plain_path(el) for el in els]
    assert got[0] == '/html/body/div[@id="nav"][@class="a b"]/ul[@class="m"]/li/a'
    links = parse_html("http://f.org/", html.encode()).links
    assert [link.anchor_path for link in links] == got
