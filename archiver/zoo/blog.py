"""Blog family (WordPress-like; variant 0 pretty permalinks and a Twenty-Seventeen-like
theme, variant 1 plain `?p=` permalinks and a Twenty-Ten-like theme): posts with threaded
comments, `replytocom` duplicates, categories, tags, author and date archives with an
unbounded calendar, feeds, paginated archives. ACEBot (§4) evaluated on such blogs.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar
from urllib.parse import parse_qsl, quote, urlsplit

from archiver.zoo.site import Ctx, PageTruth, Route, Site
from archiver.zoo.text import TOPICS, rng_for, slugify, username, writer

START = dt.date(2012, 1, 9)
BLOG_TOPICS = ("travel", "food", "gardening", "photography", "music", "history", "science")


@dataclass(slots=True)
class Post:
    id: int
    date: dt.date
    author: int
    cats: tuple[int, ...]
    tags: tuple[str, ...]
    title: str
    slug: str
    first_comment: int
    n_comments: int
    topic: str
    open: bool = False        # comments open (recent posts): reply and login links shown


class BlogScheme:
    """URL scheme of one variant (root-relative paths)."""

    def __init__(self, site: BlogSite) -> None:
        self.s = site
        self.v = site.variant

    def _paged(self, path: str, n: int) -> str:
        if n <= 1:
            return path
        if self.v == 0:
            return f"{path}page/{n}/"
        return f"{path}{'&' if '?' in path else '?'}paged={n}"

    def home(self, n: int = 1) -> str:
        return self._paged("/", n)

    def post(self, p: int, cpage: int = 1) -> str:
        post = self.s.posts[p]
        if self.v == 0:
            return f"/{post.date:%Y/%m/%d}/{post.slug}/"
        return f"/?p={p}" + (f"&cpage={cpage}" if cpage > 1 else "")

    def replytocom(self, p: int, c: int) -> str:
        return self.post(p) + ("?" if self.v == 0 else "&") + f"replytocom={c}"

    def post_feed(self, p: int) -> str:
        return self.post(p) + "feed/" if self.v == 0 else f"/?feed=rss2&p={p}"

    def alias(self, p: int) -> str:
        """v0: the shortlink; v1: the URL from before the blog moved (both answer 301)."""
        post = self.s.posts[p]
        return f"/?p={p}" if self.v == 0 else f"/{post.date:%Y/%m}/{post.slug}.html"

    def category(self, c: int, n: int = 1) -> str:
        name = self.s.categories[c]
        return self._paged(f"/category/{slugify(name)}/" if self.v == 0 else f"/?cat={c}", n)

    def tag(self, t: str, n: int = 1) -> str:
        return self._paged(f"/tag/{t}/" if self.v == 0 else f"/?tag={t}", n)

    def author(self, a: int, n: int = 1) -> str:
        name = self.s.authors[a]
        return self._paged(f"/author/{name.lower()}/" if self.v == 0 else f"/?author={a}", n)

    def year(self, y: int) -> str:
        return f"/{y}/" if self.v == 0 else f"/?m={y}"

    def month(self, y: int, m: int, n: int = 1) -> str:
        return self._paged(f"/{y}/{m:02}/" if self.v == 0 else f"/?m={y}{m:02}", n)

    def day(self, d: dt.date, n: int = 1) -> str:
        return self._paged(f"/{d:%Y/%m/%d}/" if self.v == 0 else f"/?m={d:%Y%m%d}", n)

    def feed(self, what: str = "posts", c: int = 0) -> str:
        if what == "cat":
            return self.category(c) + "feed/" if self.v == 0 else f"/?feed=rss2&cat={c}"
        if self.v == 0:
            return "/feed/" if what == "posts" else "/comments/feed/"
        return "/?feed=rss2" if what == "posts" else "/?feed=comments-rss2"

    def login(self, redirect: str = "") -> str:
        return "/wp-login.php" + (f"?redirect_to={quote(redirect, safe='')}" if redirect else "")

    def admin(self) -> str:
        return "/wp-admin/"

    def page(self, i: int) -> str:
        return ("/about/", "/contact/")[i] if self.v == 0 else f"/?page_id={2 + i}"

    def out(self, i: int) -> str:
        """v0: blogroll links through a click-counting redirect."""
        return f"/out/{i}/"

    def share(self, p: int) -> str:
        """v1: Jetpack-like share links, redirecting off-site."""
        return f"/?p={p}&share=twitter&nb=1"

    def search(self, q: str) -> str:
        return f"/?s={q}"

    def missing(self) -> str:
        return "/2011/02/27/hello-world/" if self.v == 0 else "/?p=1"

    def soft404_entry(self) -> str:
        return "/blog/archive/" if self.v == 0 else "/archives/old/"


class BlogSite(Site):
    """A generated blog. See the module docstring."""

    family = "blog"
    target_types: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "detail": ("post",), "profile": ("author",)}

    def _configure(self) -> None:
        self.soft404_prefix = "/blog/" if self.variant == 0 else "/archives/"
        self.robots_disallow = ("/wp-admin/", "/?s=", "/wp-login.php") if self.variant == 0 \
            else ("/wp-admin/", "/?s=")

    def _build(self) -> None:
        k, v = self.scale, self.variant
        rng = rng_for(self.seed, "blog", v, "model")
        self.url = BlogScheme(self)
        self.topic = BLOG_TOPICS[(self.seed + 2 * v) % len(BLOG_TOPICS)]
        w = writer(self.topic)
        self.name = f"{w.title(rng).split(':')[0][:30]} Blog".title()
        self.per_page = 5 if v == 0 else 8
        self.comments_per_page = 20
        self.authors = {i: username(rng).capitalize() for i in range(1, 3 + min(7, k // 3) + 1)}
        n_cats = min(12, 5 + k // 3)
        self.categories = {10 + i * 3: t.capitalize() for i, t in
                           enumerate(rng.sample(w.terms, n_cats))}
        self.categories[1] = "Uncategorized"
        tag_pool = sorted({*w.terms, *rng.sample(TOPICS["city"], 6)})
        self.posts: dict[int, Post] = {}
        self.comment_parent: list[int] = [0]
        n_posts = 10 + 32 * k
        big = rng.randrange(n_posts)
        day = START
        pid = 4
        for i in range(n_posts):
            pid += rng.randint(1, 4)
            day += dt.timedelta(days=rng.choice((0, 1, 1, 2, 3, 4, 7, 12)))
            title = w.title(rng)
            n_c = 120 + 30 * k if i == big else min(60, int(rng.lognormvariate(0.9, 1.1)))
            first = len(self.comment_parent)
            for j in range(n_c):
                parent = first + rng.randrange(j) if j and rng.random() < 0.35 else 0
                if parent and self._depth(parent) >= 4:
                    parent = 0
                self.comment_parent.append(parent)
            cats = tuple(rng.sample(sorted(self.categories), rng.choice((1, 1, 2))))
            tags = tuple(sorted(rng.sample(tag_pool, rng.randint(1, 5))))
            self.posts[pid] = Post(pid, day, rng.choice(list(self.authors)), cats, tags, title,
                                   slugify(title), first, n_c, self.topic)
        self.comment_post = [0] * len(self.comment_parent)
        for p in self.posts.values():
            for c in range(p.first_comment, p.first_comment + p.n_comments):
                self.comment_post[c] = p.id
        self.order = sorted(self.posts, key=lambda p: (self.posts[p].date, p), reverse=True)
        self.position = {p: i for i, p in enumerate(self.order)}
        for recent in self.order[: max(1, len(self.order) * 3 // 10)]:
            self.posts[recent].open = self.posts[recent].n_comments < 100
        self.months = sorted({(p.date.year, p.date.month) for p in self.posts.values()})
        self.days = sorted({p.date for p in self.posts.values()})
        n = len(self.order)
        self.inner_link = {p: self.order[(i + 7) % n] for i, p in enumerate(self.order)
                           if p % 3 == 0}
        self.alias_linked = {q for q in self.inner_link.values() if q % 5 == 0}
        self.feed_errors = {p for p in self.posts if p % 29 == 3}
        from archiver.zoo.blog_pages import BlogPages
        self.pages = BlogPages(self)
        self._routes_all()

    def _depth(self, c: int) -> int:
        d = 0
        while c:
            c = self.comment_parent[c]
            d += 1
        return d

    def comment_pages(self, p: int) -> int:
        if self.variant == 0:
            return 1
        return max(1, -(-self.posts[p].n_comments // self.comments_per_page))

    def lists(self) -> dict[tuple[str, Any], list[int]]:
        """Every listing (kind, key) with its posts, newest first."""
        out: dict[tuple[str, Any], list[int]] = {("home", None): list(self.order)}
        for p in self.order:
            post = self.posts[p]
            keys: list[tuple[str, Any]] = [("author", post.author), ("day", post.date),
                                           ("month", (post.date.year, post.date.month)),
                                           ("year", post.date.year)]
            keys += [("category", c) for c in post.cats] + [("tag", t) for t in post.tags]
            for key in keys:
                out.setdefault(key, []).append(p)
        return out

    def list_url(self, kind: str, key: Any, n: int = 1) -> str:
        """The URL of page `n` of a listing."""
        u = self.url
        urls: dict[str, Callable[[], str]] = {
            "home": lambda: u.home(n), "category": lambda: u.category(key, n),
            "tag": lambda: u.tag(str(key), n), "author": lambda: u.author(key, n),
            "month": lambda: u.month(key[0], key[1], n), "day": lambda: u.day(key, n),
            "year": lambda: u._paged(u.year(key), n)}
        return urls[kind]()

    def _routes_all(self) -> None:
        u, pg, add, redirect = self.url, self.pages, self._add, self._redirect
        self._lists = self.lists()
        for (kind, key), posts in self._lists.items():
            pages = max(1, -(-len(posts) // self.per_page))
            for n in range(1, pages + 1):
                ptype = {"home": "home", "author": "author"}.get(kind, "archive")
                add(self.list_url(kind, key, n),
                    PageTruth(ptype, False, "valid", f"{kind}:{key}/page:{n}", 200),
                    pg.listing, kind, key, n)
        y0, m0 = self.months[0]
        y1, m1 = self.months[-1]
        for y, m in _month_range((y0, m0), (y1, m1), margin=3):
            if ("month", (y, m)) not in self._lists:
                add(u.month(y, m), PageTruth("calendar", False, "invalid", None, 200),
                    pg.listing, "month", (y, m), 1)
        for p, post in self.posts.items():
            ent = f"post:{p}"
            topics = (post.topic,)
            cp = self.comment_pages(p)
            canon = add(u.post(p), PageTruth("post", True, "valid", ent, 200, topics=topics),
                        pg.post, p, 1, chunked=self.variant == 1 and p % 4 == 0)
            for n in range(2, cp + 1):
                add(u.post(p, n), PageTruth("post", True, "valid", f"{ent}/comments:{n}", 200,
                                            topics=topics), pg.post, p, n)
            for c in range(post.first_comment, post.first_comment + post.n_comments
                           if post.open else 0):
                add(u.replytocom(p, c), PageTruth("post", True, "duplicate", ent, 200,
                                                  topics=topics, canonical=canon),
                    pg.post, p, 1)
            if p in self.feed_errors:
                add(u.post_feed(p), PageTruth("error", False, "invalid", None, 500), pg.error)
            else:
                add(u.post_feed(p), PageTruth("feed", False, "duplicate", ent, 200),
                    pg.feed, "post", p, ctype="application/rss+xml; charset=UTF-8")
            if self.variant == 0 or p in self.alias_linked:
                redirect(u.alias(p), "{base}" + canon, status=301, valid="duplicate", entity=ent)
            if self.variant == 1:
                redirect(u.share(p), f"https://twitter.example/intent/tweet?url=%2F%3Fp%3D{p}")
                if post.open:
                    add(u.login(canon), PageTruth("login", False, "invalid", "login", 200),
                        pg.login)
        for what in ("posts", "comments"):
            add(u.feed(what), PageTruth("feed", False, "duplicate", f"feed:{what}", 200),
                pg.feed, what, 0, ctype="application/rss+xml; charset=UTF-8")
        for c in self.categories:
            if ("category", c) in self._lists:
                add(u.feed("cat", c), PageTruth("feed", False, "duplicate", f"feed:cat:{c}", 200),
                    pg.feed, "cat", c, ctype="application/rss+xml; charset=UTF-8")
        for i in range(2):
            add(u.page(i), PageTruth("page", False, "valid", f"page:{i}", 200), pg.static, i)
        add(u.login(), PageTruth("login", False, "invalid", "login", 200), pg.login)
        reauth = u.login(u.admin()) + "&reauth=1"
        redirect(u.admin(), "{base}" + reauth)
        add(reauth, PageTruth("login", False, "invalid", "login", 200), pg.login)
        for i in range(3 if self.variant == 0 else 0):
            redirect(u.out(i), f"http://www.partner{i}.example.com/?ref=blogroll")
        for q in self.tags_top()[:3]:
            add(u.search(q), PageTruth("search", False, "duplicate", None, 200),
                pg.listing, "search", q, 1)
        add(u.missing(), PageTruth("error", False, "invalid", None, 404), pg.not_found)
        add(u.soft404_entry(), PageTruth("soft404", False, "invalid", None, 200), pg.soft404)
        add("/wp-content/themes/theme/style.css", PageTruth("asset", False, "valid", None, 200),
            pg.asset, ctype="text/css")

    def tags_top(self) -> list[str]:
        counts: dict[str, int] = {key: len(v) for (kind, key), v in self._lists.items()
                                  if kind == "tag"}
        return sorted(counts, key=lambda t: (-counts[t], t))

    def _dynamic(self, target: str, key: str) -> Route | None:
        """The calendar widget links to every month, for ever: months not registered are
        answered as empty archive pages (the unbounded-calendar trap)."""
        parts = urlsplit(target)
        ym: tuple[int, int] | None = None
        if self.variant == 0:
            m = re.fullmatch(r"/(\d{4})/(\d{2})/", parts.path)
            if m:
                ym = int(m.group(1)), int(m.group(2))
        else:
            q = dict(parse_qsl(parts.query))
            if parts.path == "/" and set(q) == {"m"} and re.fullmatch(r"\d{6}", q["m"]):
                ym = int(q["m"][:4]), int(q["m"][4:])
        if ym and 1970 <= ym[0] <= 2100 and 1 <= ym[1] <= 12:
            return Route(target, PageTruth("calendar", False, "invalid", None, 200),
                         self.pages.listing, ("month", ym, 1))
        return super()._dynamic(target, key)

    def traps(self) -> list[dict[str, str]]:
        pattern = "/YYYY/MM/" if self.variant == 0 else "/?m=YYYYMM"
        return [*super().traps(), {"kind": "calendar", "pattern": pattern,
                                   "note": "prev/next month links never end; empty months "
                                           "answer 200 (manifest lists 3 months either side)"}]

    def _render_soft404(self, ctx: Ctx) -> str:
        return self.pages.soft404(ctx)

    def _render_not_found(self, ctx: Ctx) -> str:
        return self.pages.not_found(ctx)


def _month_range(first: tuple[int, int], last: tuple[int, int],
                 margin: int) -> list[tuple[int, int]]:
    def shift(ym: tuple[int, int], d: int) -> tuple[int, int]:
        i = ym[0] * 12 + ym[1] - 1 + d
        return i // 12, i % 12 + 1

    start, end = shift(first, -margin), shift(last, margin)
    out = []
    cur = start
    while cur <= end:
        out.append(cur)
        cur = shift(cur, 1)
    return out
