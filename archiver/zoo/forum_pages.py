"""What the two forum skins share: post bodies, signatures, feeds, error pages, assets."""

from __future__ import annotations

import datetime as dt
import functools
from typing import TYPE_CHECKING

from archiver.zoo.markup import a, attr, esc, spice
from archiver.zoo.site import Ctx
from archiver.zoo.text import body_length, rng_for, writer

if TYPE_CHECKING:
    from archiver.zoo.forum import ForumSite


class ForumPages:
    """Base of a forum skin; subclasses render the page types in their own markup."""

    generator = ""
    css = ""
    js = ""
    logo = ""

    def __init__(self, site: ForumSite) -> None:
        self.s = site
        self.u = site.url

    # -- hrefs as the skin writes them -------------------------------------------
    def h(self, path: str) -> str:
        """An href for a root-relative `path` in this skin's style."""
        return path

    # -- shared content -----------------------------------------------------------
    def post_body(self, p: int) -> str:
        """The HTML of post `p`: paragraphs, sometimes a quote, links, images."""
        s = self.s
        t = s.post_topic[p]
        w = s.writer(t)
        rng = rng_for(s.seed, s.variant, "post", p)
        first = s.topics[t].first_post
        median = 60 if p == first else 30
        paras = w.paragraphs(rng, body_length(rng, median, 1.0, 900))
        html = ""
        if p > first and rng.random() < 0.22:
            q = rng.randint(first, p - 1)
            quoted = w.sentence(rng_for(s.seed, s.variant, "post", q))
            html += self.quote(s.users[s.post_author[q]].name, quoted)
        extra: list[tuple[str, str]] = []
        link = s.post_links.get(p)
        if link == -1:
            extra.append((self.h(self.u.attachment(100 + p % 3)), "attached file"))
        elif link == -2:
            extra.append((self.h(self.u.dead_topic()), "the old thread"))
        elif link is not None:
            path = self.u.old_topic(link) if s.variant == 1 else self.u.topic(link)
            extra.append((self.h(path), s.topics[link].title))
        return html + spice(rng, paras, w.terms, extra)

    def quote(self, who: str, text: str) -> str:
        return f"<blockquote><cite>{esc(who)} wrote:</cite><p>{esc(text)}</p></blockquote>"

    def signature(self, uid: int) -> str:
        s = self.s
        rng = rng_for(s.seed, s.variant, "sig", uid)
        if rng.random() < 0.45:
            return ""
        user = s.users[uid]
        return esc(writer(user.interest).sentence(rng))

    def about(self, uid: int) -> list[str]:
        s = self.s
        user = s.users[uid]
        if not user.about:
            return []
        rng = rng_for(s.seed, s.variant, "about", uid)
        return writer(user.interest).paragraphs(rng, body_length(rng, 40, 0.8, 300))

    def when(self, day: int, minute: int) -> str:
        return _when(self.s.variant, day, minute % 1440)

    def post_time(self, p: int) -> tuple[int, int]:
        s = self.s
        tp = s.topics[s.post_topic[p]]
        i = p - tp.first_post
        span = max(1, tp.last_day - tp.day)
        return tp.day + span * i // max(1, tp.n_posts - 1), (p * 37) % 1440

    # -- pages both skins render the same way -------------------------------------
    def feed(self, ctx: Ctx, b: int | None) -> str:
        s = self.s
        topics = s.boards[b].topics[:15] if b is not None else sorted(
            s.topics, key=lambda t: -s.topics[t].last_day)[:15]
        items = []
        for t in topics:
            tp = s.topics[t]
            link = ctx.base + self.u.topic(t)
            items.append(f"<entry><title>{esc(tp.title)}</title><link href=\"{attr(link)}\"/>"
                         f"<id>{attr(link)}</id><updated>{s.date(tp.last_day):%Y-%m-%dT%H:%M:%SZ}"
                         f"</updated><author><name>{esc(s.users[tp.author].name)}</name>"
                         "</author></entry>")
        title = s.boards[b].title if b is not None else "All boards"
        return ('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
                f"<title>{esc(title)}</title><link href=\"{attr(ctx.base + '/')}\"/>"
                + "".join(items) + "</feed>\n")

    def error(self, ctx: Ctx) -> str:
        return ("<!DOCTYPE html>\n<html><head><title>General Error</title></head><body>"
                "<div id=\"message\"><h1>General Error</h1><p>SQL ERROR [ mysqli ]</p>"
                "<p>Too many connections [1040]</p><p>An sql error occurred while fetching "
                "this page. Please contact the Board Administrator if this problem persists."
                "</p></div></body></html>\n")

    def not_found(self, ctx: Ctx) -> str:
        return ("<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body>"
                "<h1>Not Found</h1><p>The requested URL was not found on this server.</p>"
                "</body></html>\n")

    def search(self, ctx: Ctx, what: str, uid: int) -> str:
        s = self.s
        if what == "user":
            topics = s.users[uid].recent[-10:]
        elif what == "unanswered":
            topics = [t for t in s.topics if s.topics[t].n_posts == 1][:20]
        else:
            topics = sorted(s.topics, key=lambda t: -s.topics[t].last_day)[:20]
        rows = "".join(f"<li>{a(self.h(self.u.topic(t)), s.topics[t].title)}</li>"
                       for t in topics)
        return self.shell(ctx, "Search results", f'<h2>Search found {len(topics)} matches</h2>'
                          f'<ul class="search-results">{rows}</ul>', [])

    def assets(self) -> list[str]:
        return [p for p in (self.css, self.js, self.logo) if p]

    def asset_type(self, path: str) -> str:
        if path.endswith(".css"):
            return "text/css"
        if path.endswith(".js"):
            return "application/javascript"
        return "image/svg+xml"

    def asset(self, ctx: Ctx, path: str) -> str:
        if path.endswith(".css"):
            return ("body{font-family:Verdana,sans-serif;font-size:10px;background:#f5f7fa}"
                    ".post,.tborder{border:1px solid #ccc;margin:4px 0}"
                    ".pagination li{display:inline;margin:0 2px}.ad-slot{display:none}\n")
        if path.endswith(".js"):
            return "function toggle(id){var e=document.getElementById(id);" \
                   "e.style.display=e.style.display=='none'?'':'none';}\n"
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40">'
                '<text x="4" y="28" font-size="22">forum</text></svg>\n')

    # -- to be provided by the skins ----------------------------------------------
    def shell(self, ctx: Ctx, title: str, body: str, crumbs: list[tuple[str, str]]) -> str:
        raise NotImplementedError

    def index(self, ctx: Ctx) -> str:
        raise NotImplementedError

    def board(self, ctx: Ctx, b: int, page: int, sort: str) -> str:
        raise NotImplementedError

    def topic(self, ctx: Ctx, t: int, page: int) -> str:
        raise NotImplementedError

    def print_view(self, ctx: Ctx, t: int) -> str:
        raise NotImplementedError

    def profile(self, ctx: Ctx, uid: int) -> str:
        raise NotImplementedError

    def memberlist(self, ctx: Ctx, page: int) -> str:
        raise NotImplementedError

    def login(self, ctx: Ctx) -> str:
        raise NotImplementedError

    def faq(self, ctx: Ctx) -> str:
        raise NotImplementedError

    def soft404(self, ctx: Ctx) -> str:
        raise NotImplementedError


@functools.lru_cache(maxsize=4096)
def _when(variant: int, day: int, minute: int) -> str:
    from archiver.zoo.forum import EPOCH
    d = dt.datetime.combine(EPOCH + dt.timedelta(days=day), dt.time(minute // 60, minute % 60))
    if variant == 0:
        return f"{d:%a %b %d, %Y} {d.hour % 12 or 12}:{d:%M} {'am' if d.hour < 12 else 'pm'}"
    return d.strftime("%m-%d-%Y, %I:%M %p")
