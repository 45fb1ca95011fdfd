"""Parse a fetched HTML document into a Page: title, and links with their anchor paths.

The anchor path of a link is its root-to-link element path with class and id attributes
(SOUrCe §3.3 "Apath", ACEBot §2.2 "root-to-link path"), e.g.
``/html/body/div[@id="main"]/ul[@class="topics"]/li/a[@class="title"]``.

Three head signals say what the site thinks of the page itself: ``<link rel="canonical">``
(the URL of the page this one is a view of) and the robots directives of
``<meta name="robots">`` and the ``X-Robots-Tag`` response header (e.g. ``noindex``: not
content the site wants indexed), both read by `archiver.learning.duplicates`; and
``<link rel="alternate">`` without ``hreflang`` (`Page.alternates`: this page in another
format, a feed, a CSV or plain-text export, the wiki source), read by
`archiver.strategies.source`.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import parse_qsl, urljoin, urlsplit, urlunsplit

import lxml.html
from lxml import etree
from w3lib.url import safe_url_string

from archiver.requisites import css_urls, srcset_urls

# Elements whose URL attribute leads to another page (navigation) ...
NAV_ATTRS = {"a": "href", "area": "href"}
# ... and those that embed a resource needed to render the page (page requisites).
EMBED_ATTRS = {"img": "src", "script": "src", "iframe": "src", "source": "src", "video": "src",
               "audio": "src", "embed": "src"}
# ... and those that name requisites elsewhere (`requisite_links`, `archiver.requisites`):
# image candidates, posters, objects, image buttons, legacy backgrounds, CSS in style
# attributes and elements (preloads are <link> elements).
_REQUISITES = etree.XPath("//*[@srcset or @imagesrcset or @poster or @style or @background]"
                          " | //style | //object[@data] | //input[@src]")
_PRELOADS = frozenset({"preload", "modulepreload"})
# <link> types that name another page of a sequence (HTML's "next" and "prev"; "previous"
# is an old spelling): navigation, like an anchor. Ghost's default theme names its next
# listing page only there and loads it by script (benchmarks/results/realsite-ghost.md).
_SEQUENCE_RELS = frozenset({"next", "prev", "previous"})
FETCHABLE_SCHEMES = ("http", "https")
_SPACE = re.compile(r"\s+")
_NUMBER = re.compile(r"\d+")
# Robots directives written "name: value": not mistaken for a crawler's name in X-Robots-Tag.
_VALUED_DIRECTIVES = frozenset({"max-snippet", "max-image-preview", "max-video-preview",
                                "unavailable_after"})
# Class tokens by which templates mark the link to the view being shown: Bootstrap's pager
# and tabs (`<li class="page-item active">`), WordPress's and Django apps' "current".
_CURRENT_CLASSES = frozenset({"active", "current", "selected", "is-active", "is-current"})


@dataclass(frozen=True, slots=True)
class Link:
    """A link found on a page."""

    url: str                 # absolute, fragment removed
    anchor_path: str         # root-to-link path with class/id attributes
    text: str = ""           # anchor text, whitespace-collapsed
    kind: str = "link"       # link (navigation) | embed (page requisite)
    rel: str = ""            # the rel attribute, e.g. "nofollow next"
    current: bool = False    # marked as the view being shown (`_is_current`)


@dataclass(slots=True)
class Page:
    """A parsed HTML document. `tree` is the lxml root (None if the body did not parse)."""

    url: str
    title: str = ""
    links: list[Link] = field(default_factory=list)
    tree: etree._Element | None = None
    base_url: str = ""
    canonical: str = ""      # absolute URL of <link rel="canonical"> in the head, if any
    robots: frozenset[str] = frozenset()  # lower-cased robots directives (`robots_directives`)
    # absolute URLs of <link rel="alternate"> in the head without hreflang (`alternate_urls`)
    alternates: frozenset[str] = frozenset()
    _read: tuple[Counter[str], tuple[list[str], list[str]]] | None = field(
        default=None, init=False, repr=False, compare=False)

    @property
    def noindex(self) -> bool:
        """The site asks robots not to index this page (``noindex`` or ``none``)."""
        return "noindex" in self.robots

    @property
    def asks_password(self) -> bool:
        """The page holds a password field (``<input type="password">``): a sign-in or
        sign-up form."""
        return self.tree is not None and bool(self.tree.xpath(
            "//input[translate(@type, 'PASWORD', 'pasword') = 'password']"))

    def read(self) -> tuple[Counter[str], tuple[list[str], list[str]]]:
        """`archiver.learning.features.read_tree` of the tree (its bag of XPaths and its body
        text), read once per page: the digest, the novelty check and the classifier all
        need it. Empty when the body did not parse."""
        if self._read is None:
            from archiver.learning.features import read_tree

            self._read = read_tree(self.tree) if self.tree is not None else \
                (Counter(), ([], []))
        return self._read

    def bag(self) -> Counter[str]:
        """The page's bag of XPaths (`archiver.learning.features.leaf_xpaths`), read once."""
        return self.read()[0]

    def body_text(self) -> tuple[list[str], list[str]]:
        """The page's body text (`archiver.learning.features.body_text`), read once."""
        return self.read()[1]


def body_digest(body: bytes) -> bytes:
    """A short hash of a decoded body: equal bodies, equal digests."""
    return hashlib.blake2b(body, digest_size=16).digest()


def page_digest(page: Page, body: bytes) -> bytes:
    """A short hash of what a reader gets from a page (`Visit.digest`): its title, the
    visible text of its body (outside links, then inside, as `Page.body_text` lists them)
    and the URLs of its links in document order. Two fetches of
    one page then have one digest even when the site puts a per-request token in the
    markup: a CSRF token in a ``<meta>`` or a hidden form field (Flask-WTF, Django, Rails,
    phpBB), a request id in a script (MediaWiki). On a real FlaskBB every page carries one,
    so no two bodies were ever equal and a topic's ``?page=1`` view, a byte-for-byte copy
    of the topic but for its token, was not a duplicate view. Attribute values (image
    sources, form fields) are left out with the tokens. A page that did not parse gets
    `body_digest`.

    The numbers in the body's text count as one number: sites write into every page how
    long it took to make ("generated in about 0.003s": Fossil; SMF, MyBB and many themes
    do too), the time ("It is currently ...": phpBB) or a count that moves between two
    fetches (views, users online), so two fetches of one page differed in a number and
    were never equal. Measured on the pages of source-ucc's crawls of the 23 real sites:
    Fossil 75 more repeats of a page fetched before (a check-in under ``/ci/`` and
    ``/info/``), Askbot 25 (a question's sorted and ``?answer=`` views, which differed
    from it only in numbers), pybbm 8 (a forum's ``?page=1``), FlaskBB 1, the 19 others
    none. The title and the links' URLs keep their numbers: pages that differ in those are
    other pages. The links' URLs count in lower case: a site that ignores the case of its
    paths (a real An Otter Wiki) writes a page's links, its history, its source, its
    breadcrumbs, in the spelling the page was asked for (``/Map%20Weather/history`` on
    ``/Map%20Weather``, ``/Map%20weather/history`` on ``/Map%20weather``), and the two
    spellings of one page were two pages (`archiver.learning.dust`, the "case" rule)."""
    if page.tree is None:
        return body_digest(body)
    h = hashlib.blake2b(digest_size=16)
    h.update(" ".join(page.title.split()).encode())
    for part in page.body_text():
        h.update(b"\x00" + _NUMBER.sub("0", " ".join(" ".join(part).split())).encode())
    me = _self_names(page.url)
    for link in page.links:
        h.update(b"\x01" + _unself(link.url, me).lower().encode())
    return h.digest()


def _self_names(url: str) -> tuple[str, str, frozenset[tuple[str, str]]]:
    """A page's origin, path and query arguments, for `_names_self`."""
    parts = urlsplit(url)
    return (f"{parts.scheme}://{parts.netloc}", parts.path or "/",
            frozenset(parse_qsl(parts.query, keep_blank_values=True)))


def _names_self(value: str, me: tuple[str, str, frozenset[tuple[str, str]]]) -> bool:
    """Whether a query value names the page `me` (`_self_names`) or a plainer view of it:
    its path (and origin, if the value has one) with some of its query arguments."""
    if not value.startswith(("/", "http://", "https://")) or value.startswith("//"):
        return False
    try:
        parts = urlsplit(value)
    except ValueError:
        return False
    origin = f"{parts.scheme}://{parts.netloc}" if parts.scheme else me[0]
    return (origin == me[0] and (parts.path or "/") == me[1]
            and set(parse_qsl(parts.query, keep_blank_values=True)) <= me[2])


def _unself(url: str, me: tuple[str, str, frozenset[tuple[str, str]]]) -> str:
    """`url` with every query value that names the page it is on (`_names_self`) replaced
    by one mark. Two views of one page link "log in and come back" each with its own URL
    (Spirit's ``/user/login/?next=/topic/63/slug/%3Fpage%3D1``, WordPress's
    ``redirect_to``), which was all that told a real Spirit forum's thread from its
    ``?page=1`` view; a view that names its plain page (``/?p=7&replytocom=3`` linking
    ``redirect_to=/?p=7``) is the plain page's equal too."""
    head, _, query = url.partition("?")
    if not query or "=" not in query:
        return url
    pairs = parse_qsl(query, keep_blank_values=True)
    marked = [_names_self(value, me) for _, value in pairs]
    if not any(marked):
        return url
    return head + "?" + "&".join(f"{key}=\x02" if mark else f"{key}={value}"
                                 for (key, value), mark in zip(pairs, marked, strict=True))


def element_path(el: etree._Element,
                 memo: dict[etree._Element, str] | None = None) -> str:
    """Root-to-element path with tag names and class/id attributes.

    `memo` maps elements of one document to their paths; pass the same dict for every link
    of a page so each shared ancestor (the list, the menu) is described once, not per link.
    Holding the element in the dict keeps its lxml proxy alive, so `getparent()` returns that
    same object and the dict lookup finds it.
    """
    chain: list[etree._Element] = []   # el and the ancestors whose path is not known yet
    node: etree._Element | None = el
    prefix = ""
    while node is not None and isinstance(node.tag, str):
        if memo is not None and (known := memo.get(node)) is not None:
            prefix = known
            break
        chain.append(node)
        node = node.getparent()
    path = prefix
    for node in reversed(chain):
        path = f"{path}/{_step(node)}"
        if memo is not None:
            memo[node] = path
    return path or "/"


def _step(node: etree._Element) -> str:
    step = str(node.tag).lower()
    ident = node.get("id")
    klass = node.get("class")
    if ident:
        step += f'[@id="{_SPACE.sub(" ", ident.strip())}"]'
    if klass and klass.strip():
        step += f'[@class="{_SPACE.sub(" ", klass.strip())}"]'
    return step


def absolute_url(base: str, href: str) -> str | None:
    """Resolve `href` against `base`; drop the fragment; None unless http(s). The URL is
    percent-encoded as a browser sends it (w3lib's `safe_url_string`: a space as ``%20``,
    other characters outside URIs as their UTF-8 bytes, the host by IDNA), so that the
    request and the record's WARC-Target-URI are the URI the WARC standard asks for: a
    real An Otter Wiki links its pages by their names, spaces and all (``href="/Map
    Weather"``), and the crawler wrote such URLs into its WARCs as they stood.

    A root-relative href ("/t/7") resolves the same against any URL of the same scheme and
    host, so its answer is memoised per (origin, href): a site's menus link the same paths
    from every page. Anything else is resolved afresh.
    """
    href = href.strip()
    if href[:1] == "/" and href[1:2] != "/" and (origin := _origin(base)):
        return _resolve_rooted(origin, href)
    return _resolve(base, href)


@lru_cache(maxsize=64)
def _origin(base: str) -> str:
    """"scheme://netloc" of an http(s) `base` ('' otherwise): all that urljoin takes from the
    base for a root-relative reference (its path, params and query are not used)."""
    try:
        parts = urlsplit(base)
    except ValueError:
        return ""
    if parts.scheme not in FETCHABLE_SCHEMES or not parts.netloc:
        return ""
    return f"{parts.scheme}://{parts.netloc}"


@lru_cache(maxsize=16_384)
def _resolve_rooted(origin: str, href: str) -> str | None:
    return _resolve(origin + "/", href)


def _resolve(base: str, href: str) -> str | None:
    if not href or href.startswith(("#", "javascript:", "mailto:", "tel:", "data:")):
        return None
    try:
        joined = urljoin(base, href)
        parts = urlsplit(joined)
    except ValueError:  # e.g. an invalid IPv6 literal in a hostile page
        return None
    if parts.scheme.lower() not in FETCHABLE_SCHEMES or not parts.hostname:
        return None
    return safe_url_string(urlunsplit((parts.scheme.lower(), parts.netloc, parts.path or "/",
                                       parts.query, "")))


def robots_directives(values: Iterable[str], *, header: bool = False) -> frozenset[str]:
    """The lower-cased directives of robots meta contents or X-Robots-Tag header values.

    ``"NOINDEX, Follow"`` gives {noindex, follow}; ``none`` stands for ``noindex, nofollow``
    and adds both. A directive with a value (``max-snippet:50``, ``unavailable_after: ...``)
    is kept by name only. A header value addressed to one crawler (``googlebot: noindex``)
    is not addressed to us and is skipped (with `header`; in a meta, the crawler is named by
    the meta's name instead, and only ``name="robots"`` is read).
    """
    out: set[str] = set()
    for value in values:
        tokens = [t.strip().lower() for t in value.split(",")]
        head, sep, _ = tokens[0].partition(":") if tokens else ("", "", "")
        if header and sep and head.strip() not in _VALUED_DIRECTIVES:
            continue                                   # "googlebot: noindex, nofollow"
        for token in tokens:
            name = token.partition(":")[0].strip()
            if name:
                out.add(name)
    if "none" in out:
        out |= {"noindex", "nofollow"}
    return frozenset(out)


def parse_html(url: str, body: bytes, encoding: str | None = None,
               robots_header: Iterable[str] = ()) -> Page:
    """Parse an HTML body; a malformed or empty document yields a Page without links.

    `robots_header`: the response's X-Robots-Tag values, merged into `Page.robots`.
    """
    page = Page(url=url, base_url=url, robots=robots_directives(robots_header, header=True))
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
    if head is not None:
        metas = [el.get("content") or "" for el in head.iter("meta")
                 if (el.get("name") or "").strip().lower() == "robots"]
        if metas:
            page.robots |= robots_directives(metas)
        page.alternates = alternate_urls(head, page.base_url or url, url)
    return page


def alternate_urls(head: etree._Element, base: str, url: str) -> frozenset[str]:
    """The URLs the head declares as this page in another format: ``<link rel="alternate">``
    (``rel`` may hold more tokens) without ``hreflang`` (another language is another page)
    and other than the page's own `url`, resolved against `base` (the page's URL, or its
    ``<base href>`` when it has one), absolute and without fragments. Trac declares each
    ticket's CSV, TSV and RSS exports and each wiki page's plain text, MediaWiki its edit
    form and feeds, DokuWiki its plain-HTML and wiki-markup exports, WordPress its feeds,
    REST and oEmbed copies."""
    own = urlsplit(url)._replace(fragment="").geturl()
    out = set()
    for el in head.iter("link"):
        rel = (el.get("rel") or "").lower().split()
        if "alternate" not in rel or el.get("hreflang") is not None:
            continue
        href = absolute_url(base, el.get("href") or "")
        if href and href != own:
            out.add(href)
    return frozenset(out)


def _links(tree: etree._Element, base: str) -> Iterator[Link]:
    paths: dict[etree._Element, str] = {}  # anchor paths of this document's elements
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
        yield Link(url=target, anchor_path=element_path(el, paths), text=text, kind=kind,
                   rel=(el.get("rel") or "").strip().lower(),
                   current=kind == "link" and _is_current(el))
    for el in tree.iter("link"):
        rel = (el.get("rel") or "").strip().lower()
        if "stylesheet" in rel or "icon" in rel:
            target = absolute_url(base, el.get("href") or "")
            if target:
                yield Link(url=target, anchor_path=element_path(el, paths),
                           kind="embed", rel=rel)
        elif not _SEQUENCE_RELS.isdisjoint(rel.split()):
            target = absolute_url(base, el.get("href") or "")
            if target:
                yield Link(url=target, anchor_path=element_path(el, paths),
                           text=_SPACE.sub(" ", el.get("title") or "").strip()[:200],
                           rel=rel)


def _is_current(el: etree._Element) -> bool:
    """Whether the page marks this anchor as the view it shows: ``aria-current`` (WAI-ARIA
    1.1, any value but "false") on it, or a class token of `_CURRENT_CLASSES` on it or on
    its parent, a pager's or a tab list's item. A menu marks its section that way too (the
    "Forums" tab on a topic page), so what the mark means is for the reader to decide
    (`archiver.learning.selfviews`)."""
    current = el.get("aria-current")
    if current is not None and current.strip().lower() != "false":
        return True
    parent = el.getparent()
    return any(not _CURRENT_CLASSES.isdisjoint((e.get("class") or "").lower().split())
               for e in (el, parent) if e is not None)


def requisite_links(page: Page) -> list[Link]:
    """The page requisites `Page.links` leaves out (`archiver.requisites`: preloads, image
    candidates, posters, objects, CSS in style attributes and elements), as embeds; asked
    for only when a crawl fetches requisites (`scope.embeds`), so other crawls do not pay
    for the scan of every element."""
    if page.tree is None:
        return []
    paths: dict[etree._Element, str] = {}
    out: list[Link] = []
    for el in page.tree.iter("link"):
        rel = (el.get("rel") or "").strip().lower()
        if not _PRELOADS.isdisjoint(rel.split()) and (target := absolute_url(
                page.base_url, el.get("href") or "")):
            out.append(Link(url=target, anchor_path=element_path(el, paths), kind="embed",
                            rel=rel))
    for el in _REQUISITES(page.tree):
        for value in _requisites(el):
            target = absolute_url(page.base_url, value)
            if target:
                out.append(Link(url=target, anchor_path=element_path(el, paths), kind="embed"))
    return out


def _requisites(el: etree._Element) -> Iterator[str]:
    """The references of `el` to page requisites outside `EMBED_ATTRS` (`_REQUISITES`)."""
    tag = el.tag.lower() if isinstance(el.tag, str) else ""
    if tag == "style":
        yield from css_urls(el.text or "")
        return
    for attr in ("srcset", "imagesrcset"):
        if value := el.get(attr):
            yield from srcset_urls(value)
    for attr in ("poster", "background"):
        if value := el.get(attr):
            yield value
    if tag == "object" and (value := el.get("data")):
        yield value
    if tag == "input" and (el.get("type") or "").lower() == "image" and (value := el.get("src")):
        yield value
    if value := el.get("style"):
        yield from css_urls(value)
