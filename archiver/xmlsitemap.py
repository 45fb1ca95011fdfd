"""XML sitemaps (sitemaps.org protocol 0.9): the URLs a site lists for crawlers.

With ``scope.sitemaps`` on, the loop queues the ``Sitemap:`` URLs of each host's robots.txt
(`archiver.robots.RobotsPolicy.sitemaps`), or ``/sitemap.xml`` when it names none (one
request, perhaps a 404); a fetched sitemap index queues its sitemaps, and
a sitemap's URLs reach the strategy as the links of a page (`as_html`), so that each
strategy judges them as it judges any link: bfs follows them all, a learned strategy by
what the links of that page have led to. A real WordPress (5.5 and later) advertises
``/wp-sitemap.xml`` in its robots.txt, with every post, page, category, tag and author;
Heritrix (ExtractorRobotsTxt, ExtractorSitemap) and Browsertrix (``--sitemap``) read them
too. The sitemap itself is archived as fetched; `as_html` is only how its links are handed on.

Parsing is defensive: no entity expansion and no network access (lxml's XMLParser with
``resolve_entities=False, no_network=True``), a gzip'd sitemap (``.xml.gz``) inflated to at
most `MAX_BYTES`, at most `MAX_LOCS` URLs per file (the protocol's own limit), only http(s)
URLs. A body that is not a sitemap yields None and is handled as any other response.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from html import escape

from lxml import etree

from archiver.fetcher import inflate
from archiver.page import absolute_url

MAX_LOCS = 50_000            # URLs in one sitemap file (sitemaps.org protocol)
MAX_BYTES = 50 * 2**20       # uncompressed size of one sitemap file (sitemaps.org protocol)
_ROOTS = {"urlset": "url", "sitemapindex": "sitemap"}   # root element -> entry element


@dataclass(frozen=True, slots=True)
class Sitemap:
    """A parsed sitemap: an index of sitemaps, or a set of page URLs."""

    index: bool
    locs: tuple[str, ...]


def parse_sitemap(url: str, body: bytes) -> Sitemap | None:
    """The sitemap in `body` (fetched from `url`), or None if it is not one."""
    data = inflate(body, 16 + zlib.MAX_WBITS, MAX_BYTES) if body[:2] == b"\x1f\x8b" \
        else body[:MAX_BYTES]
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=True,
                             remove_comments=True, remove_pis=True, huge_tree=False)
    try:
        root = etree.fromstring(data, parser)
    except (etree.XMLSyntaxError, ValueError):
        return None
    if root is None or not isinstance(root.tag, str):
        return None
    entry = _ROOTS.get(etree.QName(root).localname)
    if entry is None:
        return None
    locs: dict[str, None] = {}
    for item in root:
        if not isinstance(item.tag, str) or etree.QName(item).localname != entry:
            continue
        for child in item:
            if isinstance(child.tag, str) and etree.QName(child).localname == "loc":
                target = absolute_url(url, (child.text or "").strip())
                if target is not None:
                    locs[target] = None
                break
        if len(locs) >= MAX_LOCS:
            break
    return Sitemap(index=entry == "sitemap", locs=tuple(locs))


def as_html(sitemap: Sitemap) -> bytes:
    """The sitemap's URLs as the links of a plain HTML list, one anchor path for all: how
    the loop hands them to a strategy."""
    items = "".join(f'<li><a href="{escape(loc)}">{escape(loc)}</a></li>'
                    for loc in sitemap.locs)
    return (f'<!DOCTYPE html><html><head><title>sitemap</title></head><body>'
            f'<ul class="sitemap">{items}</ul></body></html>').encode()

