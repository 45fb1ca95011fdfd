"""Link extraction: the memoised URL resolution and anchor paths equal the plain ones; the
robots directives of the head and the X-Robots-Tag header."""

from __future__ import annotations

import itertools

import lxml.html
import pytest

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


@pytest.mark.parametrize(("href", "url"), [
    ("/Map Weather/Rain grinder", "http://w.org/Map%20Weather/Rain%20grinder"),
    ("Notes on it?q=a b", "http://w.org/wiki/Notes%20on%20it?q=a%20b"),
    ("/caf\u00e9?x=\u00e9", "http://w.org/caf%C3%A9?x=%C3%A9"),
    ('/a"b<c>', "http://w.org/a%22b%3Cc%3E"),
    ("/already%20encoded?x=%2F", "http://w.org/already%20encoded?x=%2F"),
    ("http://b\u00fccher.example/x", "http://xn--bcher-kva.example/x"),
])
def test_links_are_percent_encoded_as_a_browser_sends_them(href: str, url: str) -> None:
    """A real An Otter Wiki links its pages by name, spaces and all; the URL the crawler
    requests and writes as WARC-Target-URI must be a URI (the WARC standard), encoded as a
    browser would encode it, and an encoded URL is left as it is."""
    assert absolute_url("http://w.org/wiki/Page", href) == url


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


# --- robots directives ----------------------------------------------------------------------

def _head(*metas: str) -> bytes:
    return f"<html><head>{''.join(metas)}</head><body><p>x</p></body></html>".encode()


@pytest.mark.parametrize(("metas", "robots"), [
    (['<meta name="robots" content="noindex,nofollow">'], {"noindex", "nofollow"}),
    (['<META NAME="ROBOTS" CONTENT="NOINDEX, FOLLOW">'], {"noindex", "follow"}),
    (['<meta name=" Robots " content="  noindex ,  noarchive ">'], {"noindex", "noarchive"}),
    (['<meta name="robots" content="none">'], {"none", "noindex", "nofollow"}),
    (['<meta name="robots" content="index,follow">'], {"index", "follow"}),
    (['<meta name="robots" content="max-snippet:50, noindex">'], {"max-snippet", "noindex"}),
    (['<meta name="robots" content="nofollow">', '<meta name="robots" content="noindex">'],
     {"noindex", "nofollow"}),                                        # several metas add up
    (['<meta name="googlebot" content="noindex">'], set()),           # another crawler's
    (['<meta name="description" content="noindex">'], set()),
    (['<meta name="robots">'], set()),                                # no content
    ([], set()),
])
def test_robots_meta_variants(metas: list[str], robots: set[str]) -> None:
    got = parse_html("http://s.test/p", _head(*metas))
    assert got.robots == frozenset(robots)
    assert got.noindex is ("noindex" in robots)


def test_robots_meta_outside_the_head_is_not_read() -> None:
    body = b'<html><head><title>t</title></head><body><meta name="robots" content="noindex">' \
           b"<p>user-written text</p></body></html>"
    assert parse_html("http://s.test/p", body).robots == frozenset()


@pytest.mark.parametrize(("headers", "robots"), [
    (["noindex"], {"noindex"}),
    (["NoIndex, NoFollow"], {"noindex", "nofollow"}),
    (["none"], {"none", "noindex", "nofollow"}),
    (["googlebot: noindex, nofollow"], set()),                        # addressed to another
    (["unavailable_after: 25 Jun 2010 15:00:00 PST"], {"unavailable_after"}),
    (["googlebot: nofollow", "noarchive"], {"noarchive"}),
    ([], set()),
])
def test_x_robots_tag_header(headers: list[str], robots: set[str]) -> None:
    assert parse_html("http://s.test/p", _head(), robots_header=headers).robots == \
        frozenset(robots)
    both = parse_html("http://s.test/p", _head('<meta name="robots" content="noarchive">'),
                      robots_header=headers)
    assert both.robots == frozenset(robots) | {"noarchive"}        # meta and header merge
    assert parse_html("http://s.test/p", b"", robots_header=headers).robots == \
        frozenset(robots)                                           # an empty body too


def test_x_robots_tag_reaches_the_strategy_through_process_page() -> None:
    from archiver.exchange import Exchange
    from archiver.frontier import QueuedURL
    from archiver.linking import process_page
    from archiver.strategies.base import PageInfo

    seen = []

    class Recorder:
        name = "recorder"

        def describe(self, visit):  # type: ignore[no-untyped-def]
            seen.append(visit.page.robots)
            return PageInfo()

        def decide(self, visit, links):  # type: ignore[no-untyped-def]
            return []

    class Judge:
        embeds = False

        def check(self, url, depth):  # type: ignore[no-untyped-def]
            return None

    ex = Exchange(url="http://s.test/p", started_at=0.0, status=200, body=_head(),
                  response_headers=(("Content-Type", "text/html"), ("X-Robots-Tag", "noindex"),
                                    ("x-robots-tag", "nofollow")))
    item = QueuedURL(1, "http://s.test/p", "s.test", 0, "", "seed", None, "", 0.0, 0)
    process_page(Judge(), Recorder(), item, ex, "harvest")  # type: ignore[arg-type]
    assert seen == [frozenset({"noindex", "nofollow"})]


def _token_page(token: str, text: str = "First post", href: str = "/u/1") -> bytes:
    return (f'<html><head><title>Topic</title><meta name="csrf-token" content="{token}">'
            f'<script>var rid = "{token}";</script></head><body><p>{text}</p>'
            f'<form><input type="hidden" name="csrf_token" value="{token}"></form>'
            f'<a href="{href}">ann</a></body></html>').encode()


def test_page_digest_ignores_per_request_tokens_but_not_what_a_reader_sees() -> None:
    from archiver.page import body_digest, page_digest

    def digest(body: bytes, url: str = "http://s.test/topic/1") -> bytes:
        return page_digest(parse_html(url, body), body)

    a, b = _token_page("tok-A"), _token_page("tok-B")
    assert body_digest(a) != body_digest(b)                    # the bytes differ ...
    assert digest(a) == digest(b, "http://s.test/topic/1?page=1")   # ... the page does not
    assert digest(a) != digest(_token_page("tok-A", text="Second post"))   # its text
    assert digest(a) != digest(_token_page("tok-A", href="/u/2"))          # where it links
    title = _token_page("tok-A").replace(b"<title>Topic", b"<title>Other")
    assert digest(a) != digest(title)                                      # its title
    # a number in the text (the time it took, a view count) does not make it another page
    timed = _token_page("tok-A", text="First post. Page generated in 0.004s, 17 views")
    assert digest(timed) == digest(_token_page("tok-B", text="First post. Page generated "
                                                             "in 0.012s, 18 views"))
    assert digest(timed) != digest(_token_page("tok-A", text="First post. Page generated "
                                                             "in 0.004s, 17 replies"))
    numbered = _token_page("tok-A").replace(b"<title>Topic", b"<title>Topic 2")
    assert digest(numbered) != digest(numbered.replace(b"Topic 2", b"Topic 3"))
    # a body that does not parse as a page falls back to its bytes
    assert page_digest(parse_html("http://s.test/x", b""), b"") == body_digest(b"")


def test_page_digest_ignores_a_link_back_to_the_page_itself_in_a_query_value() -> None:
    """Spirit links "Log in" from every page with ?next= the page's own path and query, the
    only difference between a topic page and its ?page=1 view; WordPress writes the whole
    URL (redirect_to). A link that names another page still counts."""
    from archiver.page import page_digest

    def view(url: str, nxt: str) -> bytes:
        body = (f'<html><head><title>Topic</title></head><body><p>First post</p>'
                f'<a href="/user/login/?next={nxt}">Log in</a></body></html>').encode()
        return page_digest(parse_html(url, body), body)

    topic = "http://s.test/topic/63/weld/"
    bare = view(topic, "/topic/63/weld/")
    assert view(topic + "?page=1", "/topic/63/weld/%3Fpage%3D1") == bare
    assert view(topic + "?page=1", "http%3A%2F%2Fs.test%2Ftopic%2F63%2Fweld%2F%3Fpage%3D1") == bare
    assert view(topic + "?page=1", "/topic/64/other/") != bare
    # a view naming its plain page, as the plain page names itself
    assert view(topic + "?page=1&reply=3", "/topic/63/weld/%3Fpage%3D1") == bare
    assert view(topic + "?page=1&reply=3", "/topic/63/weld/%3Fpage%3D2") != bare


def test_page_digest_reads_link_urls_in_lower_case() -> None:
    """A real An Otter Wiki ignores the case of its paths and writes a page's own links in
    the spelling it was asked for: the two spellings are one page. A link to another page
    still counts."""
    from archiver.page import page_digest

    def view(url: str, own: str, other: str = "/Garden") -> bytes:
        body = (f'<html><head><title>Rain</title></head><body><p>Notes</p>'
                f'<a href="{own}/history">History</a><a href="{other}">G</a>'
                f'</body></html>').encode()
        return page_digest(parse_html(url, body), body)

    w = "http://w.test"
    bare = view(w + "/Map%20weather/Rain", "/Map%20weather/Rain")
    assert view(w + "/Map%20Weather/Rain", "/Map%20Weather/Rain") == bare
    assert view(w + "/Map%20weather/Rain", "/Map%20weather/Rain", "/Kitchen") != bare


def test_a_head_link_to_the_next_or_previous_page_is_a_navigation_link() -> None:
    """Ghost's default theme names its next listing page only in the head (``<link
    rel="next">``) and loads it by script: read as navigation, like an anchor. Style sheets
    and icons stay requisites; canonical, alternate and preload links are not links here."""
    html = ('<html><head><link rel="next" href="/page/3/"><link rel="Prev" href="/page/1/"'
            ' title=" Page  1 "><link rel="previous" href="/old/"><link rel="stylesheet"'
            ' href="/s.css"><link rel="canonical" href="/page/2/"><link rel="alternate"'
            ' type="application/rss+xml" href="/rss/"><link rel="preload" href="/f.woff2">'
            '<link rel="next" href="javascript:x()"></head><body><a href="/p/1/">1</a>'
            '</body></html>')
    links = parse_html("http://g.test/page/2/", html.encode()).links
    nav = {(link.url, link.anchor_path, link.text) for link in links if link.kind == "link"}
    assert nav == {("http://g.test/page/3/", "/html/head/link", ""),
                   ("http://g.test/page/1/", "/html/head/link", "Page 1"),
                   ("http://g.test/old/", "/html/head/link", ""),
                   ("http://g.test/p/1/", "/html/body/a", "1")}
    assert {link.url for link in links if link.kind == "embed"} == {"http://g.test/s.css"}


@pytest.mark.parametrize(("body", "asks"), [
    (b'<form><input name="u"><input type="password" name="p"></form>', True),
    (b'<form><input TYPE="PassWord" name="p"></form>', True),      # any case
    (b'<form><input type="text" name="password"></form>', False),   # a name is no field type
    (b"<p>Forgot your password? Write to us.</p>", False),
])
def test_a_page_asks_for_a_password_when_it_holds_a_password_field(body: bytes,
                                                                    asks: bool) -> None:
    assert parse_html("https://x.test/login/", b"<html><body>" + body + b"</body></html>"
                      ).asks_password is asks
    assert parse_html("https://x.test/", b"").asks_password is False   # nothing parsed


def test_a_link_marked_as_the_view_shown_is_current() -> None:
    """``aria-current`` on the anchor, or a class such as "active" on it or on its list
    item, marks the link to the view being shown; anything else is not marked."""
    body = b"""<html><body><ul class="pagination">
      <li class="page-item active"><a class="page-link" href="?page=2">2</a></li>
      <li class="page-item"><a class="page-link" href="?page=3">3</a></li></ul>
      <nav><a aria-current="page" href="/a">A</a> <a aria-current="false" href="/b">B</a>
      <a class="nav-link Current" href="/c">C</a> <a class="inactive" href="/d">D</a></nav>
      <img src="/e.png" class="active"></body></html>"""
    p = parse_html("http://s.test/t/?post=9", body)
    marked = {link.url.rsplit("/", 1)[-1]: link.current for link in p.links}
    assert marked == {"?page=2": True, "?page=3": False, "a": True, "b": False, "c": True,
                      "d": False, "e.png": False}
