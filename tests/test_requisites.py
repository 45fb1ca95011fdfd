"""Page requisites beyond `src`: srcset candidates, CSS `url()` and `@import` (in style
attributes, style elements and fetched stylesheets), posters, objects, preloads; fetched
with `scope.embeds`, archived, and replayable."""

from __future__ import annotations

import threading
from typing import Any
from urllib.parse import urlsplit

import pytest
from warcio.archiveiterator import ArchiveIterator

from archiver.crawl import Crawl
from archiver.page import parse_html, requisite_links
from archiver.requisites import css_urls, srcset_urls
from tests.servers import serve_wsgi
from tests.test_crawl import make_profile


@pytest.mark.parametrize(("value", "urls"), [
    ("a.jpg", ["a.jpg"]),
    ("a.jpg 1x, b.jpg 2x", ["a.jpg", "b.jpg"]),
    ("a-300.jpg 300w,a-600.jpg 600w", ["a-300.jpg", "a-600.jpg"]),
    ("  a.jpg,  b.jpg  ", ["a.jpg", "b.jpg"]),            # trailing comma ends a candidate
    ("i/x,y.jpg 2x, z.jpg", ["i/x,y.jpg", "z.jpg"]),      # a comma inside a URL is the URL's
    ("a.jpg 100w (odd, descriptor), b.jpg", ["a.jpg", "b.jpg"]),
    ("", []),
    (" , ,", []),
])
def test_srcset_candidates_follow_the_html_standard(value: str, urls: list[str]) -> None:
    assert srcset_urls(value) == urls


def test_css_urls_in_every_form_once_without_comments_or_data() -> None:
    css = """
    @import "base.css";
    @import 'print.css' print;
    @import url(theme.css);
    /* a { background: url(commented.png) } */
    body { background: URL( "img/bg.png" ) no-repeat; }
    .a { background: url('img/bg.png') }
    @font-face { src: url(fonts/f.woff2) format("woff2"), url(data:font/woff;base64,AAAA); }
    .b { background: url(img/sp\\ ace.png) }
    .c { background: url("img\\2f esc.png") }
    .d { background: url() }
    .e { fill: url(#gradient) }
    """
    assert css_urls(css) == ["base.css", "print.css", "theme.css", "img/bg.png",
                             "fonts/f.woff2", "img/sp ace.png", "img/esc.png"]


def test_an_unterminated_comment_hides_the_rest() -> None:
    assert css_urls("a { background: url(x.png) } /* b { background: url(y.png) }") == ["x.png"]


def test_requisite_links_are_asked_for_apart_from_the_page_links() -> None:
    body = b"""<html><head><link rel="stylesheet" href="s.css">
    <link rel="preload" href="/f.woff2" as="font"><link rel="next" href="/p2">
    <style>@import url("imp.css"); body { background: url(/bg.png) }</style></head>
    <body background="/old.gif"><img src="a.jpg" srcset="a-300.jpg 300w, a-600.jpg 600w">
    <picture><source srcset="p.webp 1x, p2.webp 2x"><img src="p.jpg"></picture>
    <video poster="/poster.jpg" src="/v.mp4"></video><object data="/o.svg"></object>
    <input type="image" src="/btn.png"><input type="text" src="/not-an-image.png">
    <div style="background-image: url('/div.png')">x</div><a href="/next">n</a>
    <img srcset="data:image/gif;base64,R0lGOD 1x"></body></html>"""
    page = parse_html("http://s.test/dir/page", body)
    assert [(link.kind, link.url) for link in page.links] == [
        ("embed", "http://s.test/dir/a.jpg"), ("embed", "http://s.test/dir/p.jpg"),
        ("embed", "http://s.test/v.mp4"), ("link", "http://s.test/next"),
        ("embed", "http://s.test/dir/s.css"), ("link", "http://s.test/p2")]   # rel=next
    extra = requisite_links(page)
    assert all(link.kind == "embed" for link in extra)
    assert [link.url.removeprefix("http://s.test") for link in extra] == [
        "/f.woff2", "/dir/imp.css", "/bg.png", "/old.gif", "/dir/a-300.jpg", "/dir/a-600.jpg",
        "/dir/p.webp", "/dir/p2.webp", "/poster.jpg", "/o.svg", "/btn.png", "/div.png"]
    assert extra[0].anchor_path == "/html/head/link" and extra[0].rel == "preload"


class StyledSite:
    """/ links /a; both pages use /s.css (which imports /base.css and names a font, an image
    and a font on another host) and responsive images; counts what was served."""

    def __init__(self) -> None:
        self.hits: dict[str, int] = {}
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start: Any) -> list[bytes]:
        path = environ.get("PATH_INFO", "/")
        with self.lock:
            self.hits[path] = self.hits.get(path, 0) + 1
        if path in ("/", "/a"):
            link = '<a href="/a">a</a>' if path == "/" else '<a href="/">home</a>'
            start("200 OK", [("Content-Type", "text/html; charset=utf-8")])
            return [(f'<html><head><title>{path}</title><link rel="stylesheet" href="/s.css">'
                     f'</head><body><p>text of {path}</p>'
                     '<img src="/i/x.jpg" srcset="/i/x-300.jpg 300w, /i/x-900.jpg 900w">'
                     '<div style="background: url(/i/banner.png)">b</div>'
                     f'{link}</body></html>').encode()]
        if path == "/s.css":
            start("200 OK", [("Content-Type", "text/css; charset=utf-8")])
            return [b'@import "base.css";\n@font-face { src: url("fonts/f.woff2") }\n'
                    b'body { background: url(http://fonts.invalid/x.woff) }\n']
        if path == "/base.css":
            start("200 OK", [("Content-Type", "text/css")])
            return [b"h1 { background: url(i/h1.png) } .z { background: url(/s.css) }"]
        if path == "/robots.txt":
            start("404 Not Found", [("Content-Type", "text/plain")])
            return [b""]
        start("200 OK", [("Content-Type", "image/png" if path.endswith(".png")
                          else "application/octet-stream")])
        return [b"\x89PNG " + path.encode()]


REQUISITES = {"/s.css", "/base.css", "/fonts/f.woff2", "/i/h1.png", "/i/x.jpg",
              "/i/x-300.jpg", "/i/x-900.jpg", "/i/banner.png"}


def _archived(folder: Any) -> dict[str, str]:
    """URL path -> WARC record type of every response and revisit."""
    out = {}
    for path in sorted((folder / "warcs").glob("*.warc.gz")):
        with path.open("rb") as fh:
            for rec in ArchiveIterator(fh):
                if rec.rec_type in ("response", "revisit"):
                    url = rec.rec_headers.get_header("WARC-Target-URI")
                    out[urlsplit(url).path] = rec.rec_type
    return out


def test_embeds_fetch_stylesheets_their_imports_fonts_and_image_candidates(tmp_path) -> None:
    site = StyledSite()
    with serve_wsgi(site) as base:
        Crawl(make_profile(base, tmp_path / "job", scope={"embeds": True}),
              retry_base=0.05).run()
    archived = _archived(tmp_path / "job")
    assert set(archived) >= REQUISITES
    assert {"/", "/a"} <= set(archived)
    # each once, however many pages and stylesheets name it
    assert all(site.hits[path] == 1 for path in REQUISITES | {"/", "/a"})
    # nothing off the profile's hosts, even when a stylesheet names it
    assert not any("invalid" in path for path in archived)


def test_stylesheet_outlinks_go_into_its_metadata_record(tmp_path) -> None:
    with serve_wsgi(StyledSite()) as base:
        Crawl(make_profile(base, tmp_path / "job", scope={"embeds": True}),
              retry_base=0.05).run()
    metadata = {}
    for path in sorted((tmp_path / "job" / "warcs").glob("*.warc.gz")):
        with path.open("rb") as fh:
            for rec in ArchiveIterator(fh):
                if rec.rec_type == "metadata":
                    metadata[rec.rec_headers.get_header("WARC-Target-URI")] = (
                        rec.content_stream().read().decode())
    css = metadata[base + "/s.css"]
    assert f"outlink: {base}/base.css E css" in css
    assert f"outlink: {base}/fonts/f.woff2 E css" in css


def test_without_embeds_no_requisite_is_fetched(tmp_path) -> None:
    site = StyledSite()
    with serve_wsgi(site) as base:
        Crawl(make_profile(base, tmp_path / "job"), retry_base=0.05).run()
    assert set(site.hits) == {"/", "/a", "/robots.txt"}
