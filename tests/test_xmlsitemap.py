"""XML sitemaps: parsing (defensive) and a crawl that reads them through robots.txt."""

from __future__ import annotations

import gzip
import sqlite3
from collections import Counter
from pathlib import Path

from archiver.crawl import Crawl
from archiver.page import parse_html
from archiver.xmlsitemap import MAX_LOCS, as_html, parse_sitemap
from tests.sites import serve_wsgi
from tests.test_crawl import make_profile

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def urlset(*locs: str) -> bytes:
    entries = "".join(f"<url><loc>{loc}</loc><lastmod>2026-11-01</lastmod></url>"
                      for loc in locs)
    return f'<?xml version="1.0" encoding="UTF-8"?><urlset {NS}>{entries}</urlset>'.encode()


def index(*locs: str) -> bytes:
    entries = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in locs)
    return f'<?xml version="1.0"?><sitemapindex {NS}>{entries}</sitemapindex>'.encode()


def test_a_urlset_gives_its_page_urls_in_order_once_each():
    body = urlset("https://b.example/p/2", "/p/1", "https://b.example/p/2",
                  "javascript:alert(1)", "  https://b.example/p/3\n")
    sitemap = parse_sitemap("https://b.example/sitemap.xml", body)
    assert sitemap is not None and not sitemap.index
    assert sitemap.locs == ("https://b.example/p/2", "https://b.example/p/1",
                            "https://b.example/p/3")


def test_an_index_gives_its_sitemaps_and_a_gzip_d_sitemap_is_read():
    sitemap = parse_sitemap("https://b.example/i.xml", index("/s1.xml.gz", "/s2.xml"))
    assert sitemap is not None and sitemap.index
    assert sitemap.locs == ("https://b.example/s1.xml.gz", "https://b.example/s2.xml")
    packed = parse_sitemap("https://b.example/s1.xml.gz", gzip.compress(urlset("/a")))
    assert packed is not None and packed.locs == ("https://b.example/a",)


def test_what_is_not_a_sitemap_is_none():
    for body in (b"", b"not xml at all", b"<html><body><a href='/x'>x</a></body></html>",
                 b'<?xml version="1.0"?><rss><channel><link>/x</link></channel></rss>',
                 b"\x1f\x8b broken gzip"):
        assert parse_sitemap("https://b.example/s.xml", body) is None, body


def test_entities_are_not_expanded_and_the_list_is_capped():
    bomb = (b'<?xml version="1.0"?><!DOCTYPE u [<!ENTITY a "https://b.example/aaaa">'
            b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
            + f"<urlset {NS}><url><loc>&b;</loc></url><url><loc>/ok</loc></url></urlset>"
            .encode())
    sitemap = parse_sitemap("https://b.example/s.xml", bomb)
    assert sitemap is not None and sitemap.locs == ("https://b.example/ok",)
    big = parse_sitemap("https://b.example/s.xml",
                        urlset(*(f"/p/{i}" for i in range(MAX_LOCS + 10))))
    assert big is not None and len(big.locs) == MAX_LOCS


def test_as_html_hands_every_url_on_as_a_link_of_one_anchor_path():
    sitemap = parse_sitemap("https://b.example/s.xml", urlset("/a?x=1&y=2", '/b"><script>'))
    assert sitemap is not None
    page = parse_html("https://b.example/s.xml", as_html(sitemap))
    assert [link.url for link in page.links] == list(sitemap.locs)
    assert len({link.anchor_path for link in page.links}) == 1
    assert page.tree is not None and not page.tree.xpath("//script")


class SitemapSite:
    """/ links /a only; robots.txt names a sitemap index whose sitemaps (one gzip'd) list
    /a, /hidden/1..4 (linked from nowhere) and a page on another host."""

    def __init__(self) -> None:
        self.hits: Counter[str] = Counter()
        self.base = ""

    def __call__(self, environ, start):
        path = environ["PATH_INFO"]
        self.hits[path] += 1
        xml = [("Content-Type", "application/xml")]
        if path == "/robots.txt":
            start("200 OK", [("Content-Type", "text/plain")])
            return [f"User-agent: *\nDisallow: /private/\nSitemap: {self.base}/index.xml\n"
                    .encode()]
        if path == "/index.xml":
            start("200 OK", xml)
            return [index("/pages.xml", "/more.xml.gz")]
        if path == "/pages.xml":
            start("200 OK", xml)
            return [urlset("/a", "/hidden/1", "/hidden/2", "/private/x",
                           "http://elsewhere.invalid/p")]
        if path == "/more.xml.gz":
            start("200 OK", [("Content-Type", "application/x-gzip")])
            return [gzip.compress(urlset("/hidden/3", "/hidden/4"))]
        start("200 OK", [("Content-Type", "text/html")])
        link = '<a href="/a">a</a>' if path == "/" else ""
        return [f"<html><body><p>{path}</p>{link}</body></html>".encode()]


def test_a_crawl_with_sitemaps_fetches_what_only_the_sitemaps_list(tmp_path: Path):
    site = SitemapSite()
    with serve_wsgi(site) as base:
        site.base = base
        result = Crawl(make_profile(base, tmp_path / "job", scope={"sitemaps": True})).run()
    assert result.stop_reason == "frontier-empty"
    assert set(site.hits) == {"/robots.txt", "/", "/a", "/index.xml", "/pages.xml",
                              "/more.xml.gz"} | {f"/hidden/{i}" for i in range(1, 5)}
    assert max(site.hits.values()) == 1                  # robots.txt included
    conn = sqlite3.connect(tmp_path / "job" / "crawl.sqlite3")
    rows = dict(conn.execute("SELECT url, hops FROM url WHERE url LIKE '%.xml%'").fetchall())
    assert rows == {base + "/index.xml": "I", base + "/pages.xml": "II",
                    base + "/more.xml.gz": "II"}
    skipped = dict(conn.execute("SELECT url, reason FROM url WHERE state = 'skipped'"))
    assert skipped == {base + "/private/x": "robots",
                       "http://elsewhere.invalid/p": "out-of-scope:host"}


def test_a_host_whose_robots_txt_names_no_sitemap_is_asked_for_sitemap_xml(tmp_path: Path):
    hits: Counter[str] = Counter()

    def app(environ, start):
        path = environ["PATH_INFO"]
        hits[path] += 1
        if path == "/sitemap.xml":
            start("200 OK", [("Content-Type", "application/xml")])
            return [urlset("/only-in-the-sitemap")]
        if path == "/robots.txt":
            start("404 Not Found", [("Content-Type", "text/plain")])
            return [b""]
        start("200 OK", [("Content-Type", "text/html")])
        return [b"<html><body><p>page</p></body></html>"]

    with serve_wsgi(app) as base:
        Crawl(make_profile(base, tmp_path / "job", scope={"sitemaps": True})).run()
    assert set(hits) == {"/robots.txt", "/", "/sitemap.xml", "/only-in-the-sitemap"}


def test_without_the_option_sitemaps_are_not_read(tmp_path: Path):
    site = SitemapSite()
    with serve_wsgi(site) as base:
        site.base = base
        Crawl(make_profile(base, tmp_path / "job")).run()
    assert set(site.hits) == {"/robots.txt", "/", "/a"}
