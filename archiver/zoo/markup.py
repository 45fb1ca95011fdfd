"""HTML building blocks shared by the zoo's families: document skeleton, escaping,
pagination, and template noise (ads, varying sidebars, "related" boxes, external links)."""

from __future__ import annotations

import html
import random
from collections.abc import Callable, Sequence

from archiver.zoo.text import NOUNS, TOPICS

# Hosts for external links in content: never resolvable in practice (".example" TLDs),
# and the crawler must not fetch them anyway (out of scope).
EXTERNAL_HOSTS = (
    "http://en.wikipedia.example/wiki/", "https://www.youtube.example/watch?v=",
    "https://github.example/", "http://imgur.example/", "https://news.example.org/story/",
    "http://www.shop.example.com/item/", "https://docs.example.net/", "http://blog.example.org/",
)
AD_HOST = "http://ads.example.com"
_CITE = ("See {} for more.", "There is a good write-up on {}.", "(source: {})",
         "Found this: {}", "More about {} here.", "Relevant: {}")


def esc(text: str) -> str:
    """Escape text content."""
    return html.escape(text, quote=False)


def attr(value: str) -> str:
    """Escape an attribute value (hrefs: `&` becomes `&amp;`)."""
    return html.escape(value, quote=True)


def a(href: str, text: str, cls: str = "", **extra: str) -> str:
    """An anchor; `text` is escaped, `href` attribute-escaped."""
    attrs = f' class="{cls}"' if cls else ""
    attrs += "".join(f' {k.rstrip("_").replace("_", "-")}="{attr(v)}"' for k, v in extra.items())
    return f'<a href="{attr(href)}"{attrs}>{esc(text)}</a>'


def document(title: str, body: str, *, css: Sequence[str] = (), scripts: Sequence[str] = (),
             description: str = "", canonical: str = "", base: str = "", lang: str = "en",
             head_extra: str = "", body_attrs: str = "", generator: str = "") -> str:
    """A complete HTML5 document."""
    head = ['<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">']
    if base:
        head.append(f'<base href="{attr(base)}">')
    head.append(f"<title>{esc(title)}</title>")
    if description:
        head.append(f'<meta name="description" content="{attr(description[:155])}">')
    if generator:
        head.append(f'<meta name="generator" content="{attr(generator)}">')
    if canonical:
        head.append(f'<link rel="canonical" href="{attr(canonical)}">')
    head.extend(f'<link rel="stylesheet" href="{attr(c)}" type="text/css">' for c in css)
    head.extend(f'<script src="{attr(s)}"></script>' for s in scripts)
    if head_extra:
        head.append(head_extra)
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n' + "\n".join(head)
            + f"\n</head>\n<body{(' ' + body_attrs) if body_attrs else ''}>\n{body}\n"
            "</body>\n</html>\n")


def pages_window(current: int, last: int, width: int = 2) -> list[int | None]:
    """Page numbers to show: first, a window around `current`, last; None = ellipsis."""
    shown = sorted({1, last, *range(max(1, current - width), min(last, current + width) + 1)})
    out: list[int | None] = []
    prev = 0
    for n in shown:
        if n - prev > 1:
            out.append(None)
        out.append(n)
        prev = n
    return out


def pager(url: Callable[[int], str], current: int, last: int, *, cls: str = "pagination",
          tag: str = "ul", prev_text: str = "Previous", next_text: str = "Next") -> str:
    """Pagination links ("Previous", numbers, "Next"); empty if one page."""
    if last <= 1:
        return ""
    item = "li" if tag in ("ul", "ol") else "span"
    parts = []
    if current > 1:
        parts.append(f'<{item} class="arrow previous">'
                     f'{a(url(current - 1), prev_text, rel="prev")}</{item}>')
    for n in pages_window(current, last):
        if n is None:
            parts.append(f'<{item} class="ellipsis"><span>…</span></{item}>')
        elif n == current:
            parts.append(f'<{item} class="active"><span>{n}</span></{item}>')
        else:
            parts.append(f"<{item}>{a(url(n), str(n))}</{item}>")
    if current < last:
        parts.append(f'<{item} class="arrow next">{a(url(current + 1), next_text, rel="next")}'
                     f"</{item}>")
    return f'<{tag} class="{cls}">' + "".join(parts) + f"</{tag}>"


def external_url(rng: random.Random, word: str) -> str:
    """An external URL about `word` on a non-resolvable host."""
    host = rng.choice(EXTERNAL_HOSTS)
    if host.endswith("="):
        return host + "".join(rng.choice("abcdefghijkLMNOPQ0123456789") for _ in range(11))
    return host + word.capitalize() + ("" if rng.random() < 0.5 else f"_{rng.choice(NOUNS)}")


def ad_block(rng: random.Random, cls: str = "ad-slot") -> str:
    """An advertisement (template noise whose size and content vary per page)."""
    topic = rng.choice(list(TOPICS))
    word = rng.choice(TOPICS[topic])
    n = rng.randint(1, 3)
    items = "".join(
        f'<li><a href="{AD_HOST}/click?cid={rng.randint(1000, 9999)}&amp;kw={word}" '
        f'rel="nofollow sponsored">{esc(word.capitalize())} {esc(rng.choice(NOUNS))} '
        f"deals</a></li>" for _ in range(n))
    return (f'<div class="{cls}" data-slot="{rng.randint(1, 9)}"><span class="ad-label">'
            f'Advertisement</span><ul>{items}</ul>'
            f'<img src="{AD_HOST}/banner/{rng.randint(1, 40)}.gif" alt="" width="300" '
            'height="50"></div>')


def link_list(items: Sequence[tuple[str, str]], *, cls: str, title: str = "",
              tag: str = "div", heading: str = "h3") -> str:
    """A titled box of links (sidebars, "related" and "similar" boxes)."""
    if not items:
        return ""
    lis = "".join(f"<li>{a(href, text)}</li>" for href, text in items)
    head = f"<{heading}>{esc(title)}</{heading}>" if title else ""
    return f'<{tag} class="{cls}">{head}<ul>{lis}</ul></{tag}>'


def maybe(rng: random.Random, p: float, block: Callable[[], str]) -> str:
    """`block()` with probability `p` (varying template noise), else ''."""
    return block() if rng.random() < p else ""


def paragraphs_html(paras: Sequence[str]) -> str:
    """Paragraph strings as <p> elements."""
    return "".join(f"<p>{esc(p)}</p>" for p in paras)


def spice(rng: random.Random, paras: list[str], topic_terms: Sequence[str],
          extra_links: Sequence[tuple[str, str]] = ()) -> str:
    """Paragraphs as HTML with occasional external links, inline images, and the given
    internal links (e.g. old-scheme URLs users paste into posts)."""
    out = []
    for i, p in enumerate(paras):
        body = esc(p)
        if rng.random() < 0.1:
            word = rng.choice(topic_terms)
            body += " " + rng.choice(_CITE).format(a(external_url(rng, word), word))
        if i < len(extra_links):
            href, text = extra_links[i]
            body += f" Also: {a(href, text)}"
        out.append(f"<p>{body}</p>")
        if rng.random() < 0.05:
            out.append(f'<p><img src="http://imgur.example/{rng.randint(10**5, 10**6)}.jpg" '
                       'alt="image" class="postimage"></p>')
    return "".join(out)
