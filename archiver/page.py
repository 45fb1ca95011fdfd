"""Parse a fetched HTML document into a Page: title, and links with their anchor paths.

The anchor path of a link is its root-to-link element path with class and id attributes
(SOUrCe §3.3 "Apath", ACEBot §2.2 "root-to-link path"), e.g.
``/html/body/div[@id="main"]/ul[@class="topics"]/li/a[@class="title"]``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit, urlunsplit

import lxml.html
from lxml import etree

# Elements whose URL attribute leads to another page (navigation) ...
NAV_ATTRS = {"a": "href", "area": "href"}
# ... and those that embed a resource needed to render the page (page requisites).
EMBED_ATTRS = {"img": "src", "script": "src", "iframe": "src", "source": "src", "video": "src",
               "audio": "src", "embed": "src"}
FETCHABLE_SCHEMES = ("http", "https")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Link:
    """A link found on a page."""

    url: str                 # absolute, fragment removed
    anchor_path: str         # root-to-link path with class/id attributes
    text: str = ""           # anchor text, whitespace-collapsed
    kind: str = "link"       # link (navigation) | embed (page requisite)
    rel: str = ""            # the rel attribute, e.g. "nofollow next"


@dataclass(slots=True)
class Page:
    """A parsed HTML document. `tree` is the lxml root (None if the body did not parse)."""

    url: str
    title: str = ""
    links: list[Link] = field(default_factory=list)
    tree: etree._Element | None = None
    base_url: str = ""
    canonical: str = ""      # absolute URL of <link rel="canonical"> in the head, if any


def body_digest(body: bytes) -> bytes:
    """A short hash of a decoded body: equal bodies, equal digests (`Visit.digest`)."""
    return hashlib.blake2b(body, digest_size=16).digest()


def element_path(el: etree._Element) -> str:
    """Root-to-element path with tag names and class/id attributes."""
    steps = []
    node: etree._Element | None = el
    while node is not None and isinstance(node.tag, str):
        step = node.tag.lower()
        ident = node.get("id")
        klass = node.get("class")
        if ident:
            step += f'[@id="{_SPACE.sub(" ", ident.strip())}"]'
        if klass and klass.strip():
            step += f'[@class="{_SPACE.sub(" ", klass.strip())}"]'
        steps.append(step)
        node = node.getparent()
    return "/" + "/".join(reversed(steps))


def absolute_url(base: str, href: str) -> str | None:
    """Resolve `href` against `base`; drop the fragment; None unless http(s)."""
    href = href.strip()
    if not href or href.startswith(("#", "javascript:", "mailto:", "tel:", "data:")):
        return None
    try:
        joined = urljoin(base, href)
        parts = urlsplit(joined)
    except ValueError:  # e.g. an invalid IPv6 literal in a hostile page
        return None
    if parts.scheme.lower() not in FETCHABLE_SCHEMES or not parts.hostname:
        return None
    return urlunsplit((parts.scheme.lower(), parts.netloc, parts.path or "/", parts.query, ""))


def parse_html(url: str, body: bytes, encoding: str | None = None) -> Page:
    """Parse an HTML body; a malformed or empty document yields a Page without links."""
    page = Page(url=url, base_url=url)
    if not body.strip():
        return page
    try:
        parser = lxml.html.HTMLParser(encoding=encoding, remove_comments=True)
        tree = lxml.html.document_fromstring(body, parser=parser)
    except (etree.ParserError, ValueError, LookupError):
        return page
    page.tree = tree
    base = tree.find(".//base[@href]")
    if base is not None:
        page.base_url = absolute_url(url, base.get("href", "")) or url
    title = tree.find(".//title")
    if title is not None and title.text:
        page.title = _SPACE.sub(" ", title.text).strip()
    page.links = list(_links(tree, page.base_url))
    head = tree.find("head")
    canonical = head.find('link[@rel="canonical"]') if head is not None else None
    if canonical is not None:
        page.canonical = absolute_url(page.base_url, canonical.get("href") or "") or ""
    return page


def _links(tree: etree._Element, base: str) -> Iterator[Link]:
    for el in tree.iter(*NAV_ATTRS, *EMBED_ATTRS):
        tag = el.tag.lower() if isinstance(el.tag, str) else ""
        attr = NAV_ATTRS.get(tag) or EMBED_ATTRS.get(tag)
        value = el.get(attr) if attr else None
        if not value:
            continue
        target = absolute_url(base, value)
        if target is None:
            continue
        kind = "link" if tag in NAV_ATTRS else "embed"
        text = _SPACE.sub(" ", el.text_content()).strip()[:200] if kind == "link" else ""
        yield Link(url=target, anchor_path=element_path(el), text=text, kind=kind,
                   rel=(el.get("rel") or "").strip().lower())
    for el in tree.iter("link"):
        rel = (el.get("rel") or "").strip().lower()
        if "stylesheet" in rel or "icon" in rel:
            target = absolute_url(base, el.get("href") or "")
            if target:
                yield Link(url=target, anchor_path=element_path(el), kind="embed", rel=rel)
