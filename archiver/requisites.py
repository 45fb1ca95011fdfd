"""Page requisites written where a `src` attribute is not: image candidate lists (`srcset`),
CSS (`url(...)`, `@import`), posters, objects, preloads.

A page replayed from the archive asks for every resource its markup and its stylesheets
name: the image candidate its viewport picks from a ``srcset``, the fonts and background
images of its stylesheets, the stylesheets those import. An archive that holds only the
``src`` fallbacks replays with broken images and missing fonts, so with `scope.embeds` on
these are fetched as page requisites too, as wget's ``--page-requisites`` and Heritrix's
ExtractorHTML and ExtractorCSS find them.

Pure functions over strings; `archiver.page` calls them on each document, and
`archiver.linking` on each stylesheet fetched as a requisite.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_CSS_COMMENT = re.compile(r"/\*.*?(?:\*/|$)", re.S)
# url( "a" ) | url('a') | url(a)  and  @import "a" | @import 'a' (an @import url(...) is a url)
_CSS_URL = re.compile(r"""url\(\s*(?:"((?:\\.|[^"\\])*)"|'((?:\\.|[^'\\])*)'"""
                      r"""|((?:\\.|[^)"'\s\\])*))\s*\)"""
                      r"""|@import\s+(?:"((?:\\.|[^"\\])*)"|'((?:\\.|[^'\\])*)')""",
                      re.I | re.S)
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6}\s?|.)", re.S)
_SPACE = " \t\n\r\f"


def css_urls(text: str) -> list[str]:
    """The URLs a stylesheet (or a ``style`` attribute or element) refers to, in order,
    duplicates, ``data:`` URIs and references within the document (SVG's ``url(#grad)``)
    left out; CSS escapes (``\\2f``, ``\\)``) undone.

    >>> css_urls('@import "base.css"; a { background: url( "i/bg.png" ) } /* url(x) */')
    ['base.css', 'i/bg.png']
    """
    seen: dict[str, None] = {}
    for match in _CSS_URL.finditer(_CSS_COMMENT.sub(" ", text)):
        raw = next(g for g in match.groups() if g is not None)
        url = _CSS_ESCAPE.sub(_unescape, raw).strip()
        if url and not url.startswith("#") and not url.lower().startswith("data:"):
            seen.setdefault(url)
    return list(seen)


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1)
    if len(code) > 1 or code in "0123456789abcdefABCDEF":
        try:
            return chr(int(code.strip(), 16))
        except (ValueError, OverflowError):
            return ""
    return code


def srcset_urls(value: str) -> list[str]:
    """The candidate URLs of a ``srcset`` (or ``imagesrcset``) attribute, parsed as the HTML
    standard says: a URL is a run of non-space characters (commas inside it are part of it,
    trailing commas end the candidate), followed by optional descriptors up to a comma
    outside parentheses.

    >>> srcset_urls("a.jpg 1x, b,c.jpg 2x,d.jpg")
    ['a.jpg', 'b,c.jpg', 'd.jpg']
    """
    return list(_candidates(value))


def _candidates(value: str) -> Iterator[str]:
    i, n = 0, len(value)
    while i < n:
        while i < n and (value[i] in _SPACE or value[i] == ","):
            i += 1
        start = i
        while i < n and value[i] not in _SPACE:
            i += 1
        url = value[start:i]
        if not url:
            return
        if url.endswith(","):
            url = url.rstrip(",")
        else:                             # skip descriptors ("300w", "2x") to the next comma
            depth = 0
            while i < n and (value[i] != "," or depth):
                depth += {"(": 1, ")": -1}.get(value[i], 0)
                depth = max(depth, 0)
                i += 1
        if url:
            yield url
