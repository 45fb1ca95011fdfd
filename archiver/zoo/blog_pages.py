"""Blog themes: variant 0 Twenty-Seventeen-like (numbered pagination, sections), variant 1
Twenty-Ten-like (only "Older posts" flipping, list widgets, login-to-comment)."""

from __future__ import annotations

import calendar
import datetime as dt
import functools
import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from archiver.zoo.markup import a, ad_block, attr, document, esc, maybe, pager, spice
from archiver.zoo.site import Ctx
from archiver.zoo.text import body_length, rng_for, username, writer

if TYPE_CHECKING:
    from archiver.zoo.blog import BlogSite

TITLES = {"home": "", "category": "Category: {}", "tag": "Tag: {}", "author": "Author: {}",
          "month": "Month: {}", "day": "Day: {}", "year": "Year: {}", "search": "Search Results "
                                                                                "for: {}"}


class BlogPages:
    """Renders both blog themes; `v` picks the markup."""

    def __init__(self, site: BlogSite) -> None:
        self.s = site
        self.u = site.url
        self.v = site.variant

    # -- content ---------------------------------------------------------------------
    def _post_rng(self, p: int) -> tuple[random.Random, int]:
        rng = rng_for(self.s.seed, self.v, "post", p)
        return rng, body_length(rng, 220, 0.8, 2600)

    def body(self, p: int) -> str:
        rng, words = self._post_rng(p)
        w = writer(self.s.posts[p].topic)
        paras = w.paragraphs(rng, words)
        links: list[tuple[str, str]] = []
        q = self.s.inner_link.get(p)
        if q is not None:
            links.append((self.u.alias(q) if q in self.s.alias_linked and self.v else
                          self.u.post(q), self.s.posts[q].title))
        if p % 17 == 5:
            links.append((self.u.missing(), "my very first post"))
        return spice(rng, paras, w.terms, links)

    def excerpt(self, p: int) -> str:
        rng, _ = self._post_rng(p)
        text = writer(self.s.posts[p].topic).paragraph(rng, rng.randint(2, 7))
        words = text.split()
        return " ".join(words[:55]) + (" […]" if len(words) > 55 else "")

    def comment(self, c: int) -> tuple[str, str, str]:
        """(author html, date, text html) of comment `c`."""
        rng = rng_for(self.s.seed, self.v, "comment", c)
        name = username(rng)
        who = (f'<a href="http://{name.lower()}.blog.example.org/" rel="external nofollow ugc" '
               f'class="url">{esc(name)}</a>' if rng.random() < 0.3 else esc(name))
        post = self.s.posts[self.s.comment_post[c]]
        when = post.date + dt.timedelta(days=(c - post.first_comment) // 3)
        w = writer(post.topic)
        paras = [w.paragraph(rng, rng.randint(1, 4)) for _ in range(rng.choice((1, 1, 1, 2, 3)))]
        return who, f"{when:%B %-d, %Y}", "".join(f"<p>{esc(x)}</p>" for x in paras)

    # -- chrome -----------------------------------------------------------------------
    @functools.cached_property
    def _widgets(self) -> tuple[str, str]:
        """The sidebar widgets that are the same on every page (before, after the calendar)."""
        s, u = self.s, self.u
        widgets = [
            ("search", "Search", '<form role="search" method="get" class="search-form" '
             'action="/"><input type="search" class="search-field" name="s"></form>'),
            ("recent-posts", "Recent Posts",
             _ul((u.post(p), s.posts[p].title) for p in s.order[:5])),
            ("recent-comments", "Recent Comments", _ul(
                (u.post(s.comment_post[c]) + f"#comment-{c}", s.posts[s.comment_post[c]].title)
                for c in range(len(s.comment_parent) - 1, max(0, len(s.comment_parent) - 6), -1))),
            ("archives", "Archives", _ul((u.month(y, m), f"{calendar.month_name[m]} {y}")
                                         for y, m in reversed(s.months))),
            ("categories", "Categories", _ul((u.category(c), name) for c, name in
                                             s.categories.items() if ("category", c) in s._lists)),
        ]
        after = [
            ("tag_cloud", "Tags", " ".join(a(u.tag(t), t, f"tag-cloud-link tag-link-{i}")
                                           for i, t in enumerate(s.tags_top()[:25]))),
            ("searches", "Popular searches", _ul((u.search(q), q) for q in s.tags_top()[:3])),
            ("meta", "Meta", _ul([(u.admin(), "Site Admin"), (u.login(), "Log in"),
                                  (u.feed(), "Entries feed"),
                                  (u.feed("comments"), "Comments feed")])),
        ]
        if self.v == 0:
            after.append(("links", "Blogroll", _ul((u.out(i), f"Friends of {s.name} #{i + 1}")
                                                   for i in range(3))))
        return ("".join(self.widget(*w) for w in widgets),
                "".join(self.widget(*w) for w in after))

    def shell(self, ctx: Ctx, title: str, main: str, month: tuple[int, int] | None = None,
              robots: str = "") -> str:
        s, u = self.s, self.u
        rng = rng_for(s.seed, "sidebar", ctx.url)
        before, after = self._widgets
        popular = ""
        if rng.random() < 0.5:   # a "popular posts" plugin whose picks vary per page
            popular = self.widget("popular", "Popular", _ul(
                (u.post(p), s.posts[p].title) for p in rng.sample(s.order, min(4, len(s.order)))))
        cal = self.widget("calendar", "", self.calendar(*(month or s.months[-1])))
        side = popular + before + cal + after
        ad = maybe(rng, 0.5, lambda: ad_block(rng, "widget ad-widget"))
        nav = _ul([("/", "Home"), (u.page(0), "About"), (u.page(1), "Contact")])
        if self.v == 0:
            body = (
                '<div id="page" class="site"><a class="skip-link screen-reader-text" '
                'href="#content">Skip to content</a><header id="masthead" class="site-header" '
                f'role="banner"><div class="site-branding"><h1 class="site-title"><a href="/" '
                f'rel="home">{esc(s.name)}</a></h1><p class="site-description">Notes on '
                f"{esc(s.topic)}</p></div><nav id=\"site-navigation\" class=\"main-navigation\" "
                f'role="navigation"><div class="menu-top-container">{nav}</div></nav></header>'
                '<div class="site-content-contain"><div id="content" class="site-content"><div '
                'class="wrap"><div id="primary" class="content-area"><main id="main" class="site-'
                f'main" role="main">{main}</main></div><aside id="secondary" class="widget-area" '
                f'role="complementary">{side}{ad}</aside></div></div><footer id="colophon" class='
                '"site-footer" role="contentinfo"><div class="wrap"><div class="site-info">'
                '<a href="/blog/archive/">Old blog</a> · <a href="https://wordpress.example/">'
                "Proudly powered by WordPress</a></div></div></footer></div></div>")
        else:
            body = (
                '<div id="wrapper" class="hfeed"><div id="header"><div id="masthead"><div '
                f'id="branding" role="banner"><h1 id="site-title"><span><a href="/" title="'
                f'{attr(s.name)}" rel="home">{esc(s.name)}</a></span></h1><div id="site-'
                f'description">Notes on {esc(s.topic)}</div></div><div id="access" role="'
                f'navigation"><div class="menu">{nav}</div></div></div></div><div id="main">'
                f'<div id="container"><div id="content" role="main">{main}</div></div><div '
                f'id="primary" class="widget-area" role="complementary"><ul class="xoxo">{side}'
                f'</ul>{ad}</div></div><div id="footer" role="contentinfo"><div id="colophon">'
                f'<div id="site-info"><a href="/" rel="home">{esc(s.name)}</a> · <a href='
                '"/archives/old/">Archives</a></div><div id="site-generator"><a href="https://'
                'wordpress.example/">Proudly powered by WordPress.</a></div></div></div></div>')
        head = '<meta name="robots" content="noindex,follow">' if robots else ""
        return document(f"{title} – {s.name}" if title else s.name, body,
                        css=["/wp-content/themes/theme/style.css"], generator="WordPress 6.4.2",
                        head_extra=head + f'<link rel="alternate" type="application/rss+xml" '
                        f'title="{attr(s.name)} » Feed" href="{u.feed()}">',
                        body_attrs=f'class="{"home blog" if ctx.url == "/" else "archive"}"')

    def widget(self, name: str, title: str, inner: str) -> str:
        if self.v == 0:
            head = f'<h2 class="widget-title">{esc(title)}</h2>' if title else ""
            return f'<section id="{name}-2" class="widget widget_{name}">{head}{inner}</section>'
        head = f'<h3 class="widget-title">{esc(title)}</h3>' if title else ""
        return f'<li id="{name}-2" class="widget-container widget_{name}">{head}{inner}</li>'

    def calendar(self, y: int, m: int) -> str:
        s, u = self.s, self.u
        days = {d.day for d in s.days if (d.year, d.month) == (y, m)}
        weeks = []
        for week in calendar.Calendar(0).monthdayscalendar(y, m):
            cells = "".join(
                "<td></td>" if d == 0 else
                f"<td>{a(u.day(dt.date(y, m, d)), str(d))}</td>" if d in days else f"<td>{d}</td>"
                for d in week)
            weeks.append(f"<tr>{cells}</tr>")
        py, pm = (y, m - 1) if m > 1 else (y - 1, 12)
        ny, nm = (y, m + 1) if m < 12 else (y + 1, 1)
        prev = a(u.month(py, pm), "« " + calendar.month_abbr[pm]) if py >= 1970 else ""
        nxt = a(u.month(ny, nm), calendar.month_abbr[nm] + " »") if ny <= 2100 else ""
        return (f'<table id="wp-calendar" class="wp-calendar-table"><caption>'
                f"{calendar.month_name[m]} {y}</caption><thead><tr>"
                + "".join(f'<th scope="col">{d}</th>' for d in "MTWTFSS") + "</tr></thead><tbody>"
                + "".join(weeks) + '</tbody></table><nav class="wp-calendar-nav">'
                f'<span class="wp-calendar-nav-prev">{prev}</span>'
                f'<span class="wp-calendar-nav-next">{nxt}</span></nav>')

    # -- page types -------------------------------------------------------------------
    def listing(self, ctx: Ctx, kind: str, key: Any, n: int) -> str:
        s, u = self.s, self.u
        posts = (s._lists.get((kind, key), []) if kind != "search" else
                 [p for p in s.order if key in s.posts[p].tags])
        per = s.per_page
        last = max(1, -(-len(posts) // per)) if kind != "search" else 1
        shown = posts[(n - 1) * per: n * per]
        label = _label(s, kind, key)
        title = TITLES[kind].format(label) if kind != "home" else ""
        arts = "".join(self.summary(p) for p in shown) or (
            '<section class="no-results not-found"><header class="page-header"><h1 class='
            '"page-title">Nothing Found</h1></header><div class="page-content"><p>It seems we '
            "can’t find what you’re looking for. Perhaps searching can help.</p></div></section>")
        head = (f'<header class="page-header"><h1 class="page-title">{esc(title)}</h1></header>'
                if title else "")
        if kind == "category":
            head += f'<p class="category-feed">{a(u.feed("cat", key), "Category feed")}</p>'
        if kind == "month":
            y = key[0]
            head += f'<p class="archive-year">{a(u.year(y), str(y))}</p>' \
                if ("year", y) in s._lists else ""
        if self.v == 0:
            nav = pager(lambda i: s.list_url(kind, key, i), n, last,
                        cls="nav-links page-numbers", tag="div")
            nav = f'<nav class="navigation pagination" role="navigation">{nav}</nav>' if nav else ""
        else:
            older = (f'<div class="nav-previous">{a(s.list_url(kind, key, n + 1), "← Older posts")}'
                     "</div>" if n < last else "")
            newer = (f'<div class="nav-next">{a(s.list_url(kind, key, n - 1), "Newer posts →")}'
                     "</div>" if n > 1 else "")
            nav = f'<div id="nav-below" class="navigation">{older}{newer}</div>'
        month = key if kind == "month" else (key.year, key.month) if kind == "day" else None
        return self.shell(ctx, title + (f" – Page {n}" if n > 1 else ""), head + arts + nav,
                          month, robots="noindex" if not shown else "")

    def summary(self, p: int) -> str:
        s, u = self.s, self.u
        post = s.posts[p]
        link = a(u.post(p), post.title, rel="bookmark")
        more = a(u.post(p), "Continue reading", "more-link")
        ncom = a(u.post(p) + "#comments", f"{post.n_comments} Comments")
        meta = f'<time class="entry-date" datetime="{post.date}">{post.date:%B %-d, %Y}</time>'
        if self.v == 0:
            return (f'<article id="post-{p}" class="post-{p} post type-post status-publish hentry">'
                    f'<header class="entry-header"><div class="entry-meta">{meta}</div><h2 class='
                    f'"entry-title">{link}</h2></header><div class="entry-summary"><p>'
                    f"{esc(self.excerpt(p))}</p><p>{more}</p></div></article>")
        cats = ", ".join(a(u.category(c), s.categories[c]) for c in post.cats)
        return (f'<div id="post-{p}" class="post-{p} post type-post hentry"><h2 class="entry-'
                f'title">{link}</h2><div class="entry-meta">Posted on {meta}</div><div class='
                f'"entry-summary"><p>{esc(self.excerpt(p))}</p></div><div class="entry-utility">'
                f'Posted in {cats} | <span class="comments-link">{ncom}</span></div></div>')

    def post(self, ctx: Ctx, p: int, cpage: int) -> str:
        s, u = self.s, self.u
        post = s.posts[p]
        author = a(u.author(post.author), s.authors[post.author], "url fn n")
        cats = ", ".join(a(u.category(c), s.categories[c], rel="category tag") for c in post.cats)
        tags = ", ".join(a(u.tag(t), t, rel="tag") for t in post.tags)
        i = s.position[p]
        prev_p = s.order[i + 1] if i + 1 < len(s.order) else None
        next_p = s.order[i - 1] if i > 0 else None
        nav = "".join(f'<div class="nav-{k}">{a(u.post(q), s.posts[q].title, rel=k[:4])}</div>'
                      for k, q in (("previous", prev_p), ("next", next_p)) if q is not None)
        date = f'<time class="entry-date published" datetime="{post.date}">{post.date:%B %-d, %Y}</time>'  # noqa: E501
        if self.v == 0:
            art = (f'<article id="post-{p}" class="post-{p} post type-post status-publish format-'
                   f'standard hentry"><header class="entry-header"><div class="entry-meta"><span '
                   f'class="posted-on"><a href="{attr(u.post(p))}" '
                   f'rel="bookmark">{date}</a></span> '
                   f'<span class="byline">by <span class="author vcard">{author}</span></span>'
                   f'</div><h1 class="entry-title">{esc(post.title)}</h1></header><div class='
                   f'"entry-content">{self.body(p)}</div><footer class="entry-footer"><span class='
                   f'"cat-links">{cats}</span> <span class="tags-links">{tags}</span> '
                   f'{a(u.alias(p), "Shortlink", "shortlink")}</footer></article>'
                   f'<nav class="navigation post-navigation" role="navigation"><div class="nav-'
                   f'links">{nav}</div></nav>')
        else:
            art = (f'<div id="post-{p}" class="post-{p} post type-post hentry"><h1 class="entry-'
                   f'title">{esc(post.title)}</h1><div class="entry-meta">Posted on {date} by '
                   f'<span class="author vcard">{author}</span></div><div class="entry-content">'
                   f'{self.body(p)}</div><div class="entry-utility">Posted in {cats}. Tagged '
                   f'{tags}. {a(u.share(p), "Share on X", "share-twitter", rel="nofollow")}'
                   f'</div></div><div id="nav-below" class="navigation">{nav}</div>')
        return self.shell(ctx, post.title, art + self.comments(p, cpage),
                          (post.date.year, post.date.month))

    def comments(self, p: int, cpage: int) -> str:
        s, u = self.s, self.u
        post = s.posts[p]
        ids = list(range(post.first_comment, post.first_comment + post.n_comments))
        pages = s.comment_pages(p)
        if pages > 1:
            ids = ids[(cpage - 1) * s.comments_per_page: cpage * s.comments_per_page]
        shown = set(ids)
        kids: dict[int, list[int]] = {}
        for c in ids:
            parent = s.comment_parent[c]
            kids.setdefault(parent if parent in shown else 0, []).append(c)
        tag = "ol" if self.v == 0 else "ul"

        def render(c: int, depth: int) -> str:
            who, when, text = self.comment(c)
            reply = a(u.replytocom(p, c) + "#respond", "Reply", "comment-reply-link",
                      rel="nofollow") if post.open else ""
            children = kids.get(c, [])
            sub = (f'<{tag} class="children">' + "".join(render(x, depth + 1) for x in children)
                   + f"</{tag}>") if children else ""
            meta = a(u.post(p, cpage) + f"#comment-{c}", when)
            if self.v == 0:
                return (f'<li id="comment-{c}" class="comment depth-{depth}"><article id="div-'
                        f'comment-{c}" class="comment-body"><footer class="comment-meta"><div '
                        f'class="comment-author vcard"><b class="fn">{who}</b> <span class="says">'
                        f'says:</span></div><div class="comment-metadata">{meta}</div></footer>'
                        f'<div class="comment-content">{text}</div><div class="reply">{reply}'
                        f"</div></article>{sub}</li>")
            return (f'<li class="comment depth-{depth}" id="li-comment-{c}"><div id="comment-{c}">'
                    f'<div class="comment-author vcard"><cite class="fn">{who}</cite> <span '
                    f'class="says">says:</span></div><div class="comment-meta commentmetadata">'
                    f'{meta}</div><div class="comment-body">{text}</div><div class="reply">'
                    f"{reply}</div></div>{sub}</li>")

        items = "".join(render(c, 1) for c in kids.get(0, []))
        cnav = ""
        if pages > 1:
            cnav = ('<div class="navigation">' + " ".join(
                a(u.post(p, n), f"Comments page {n}") for n in range(1, pages + 1) if n != cpage)
                + "</div>")
        form = ('<p class="comments-closed">Comments are closed.</p>' if not post.open else
                f'<p class="must-log-in">You must be {a(u.login(u.post(p)), "logged in")} to post '
                "a comment.</p>" if self.v == 1 else
                '<form action="/wp-comments-post.php" method="post" id="commentform" class="comment'
                '-form"><p class="comment-form-comment"><label for="comment">Comment</label>'
                '<textarea id="comment" name="comment" cols="45" rows="8"></textarea></p><p class='
                '"form-submit"><input name="submit" type="submit" id="submit" class="submit" value'
                '="Post Comment"></p></form>')
        title = f"{post.n_comments} Replies to “{esc(post.title)}”" if post.n_comments else ""
        rss = a(u.post_feed(p), "RSS feed for comments on this post", "comments-rss")
        return (f'<div id="comments" class="comments-area"><h2 class="comments-title">{title}</h2>'
                f'<p class="comments-feed">{rss}</p>'
                f'<{tag} class="{"comment-list" if self.v == 0 else "commentlist"}">{items}</{tag}>'
                f'{cnav}<div id="respond" class="comment-respond"><h3 id="reply-title" class='
                f'"comment-reply-title">Leave a Reply</h3>{form}</div></div>')

    def feed(self, ctx: Ctx, what: str, key: int) -> str:
        s, u = self.s, self.u
        if what == "post":
            post = s.posts[key]
            items = [(f"Comment on {post.title}", u.post(key) + f"#comment-{c}")
                     for c in range(post.first_comment, post.first_comment + post.n_comments)]
        elif what == "comments":
            items = [(f"Comment on {s.posts[s.comment_post[c]].title}",
                      u.post(s.comment_post[c]) + f"#comment-{c}")
                     for c in range(len(s.comment_parent) - 1, max(0, len(s.comment_parent) - 11),
                                    -1)]
        else:
            posts = s.order if what == "posts" else s._lists.get(("category", key), [])
            items = [(s.posts[p].title, u.post(p)) for p in posts[:10]]
        xml = "".join(f"<item><title>{esc(t)}</title><link>{esc(ctx.base + link)}</link>"
                      f"<guid isPermaLink=\"false\">{esc(ctx.base + link)}</guid></item>"
                      for t, link in items[:20])
        return ('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>'
                f"{esc(s.name)}</title><link>{esc(ctx.base)}/</link><description>Notes on "
                f"{esc(s.topic)}</description>{xml}</channel></rss>\n")

    def static(self, ctx: Ctx, i: int) -> str:
        title = ("About", "Contact")[i]
        rng = rng_for(self.s.seed, self.v, "page", i)
        text = "".join(f"<p>{esc(x)}</p>" for x in writer(self.s.topic).paragraphs(rng, 120))
        return self.shell(ctx, title, f'<article class="page"><h1 class="entry-title">{title}'
                          f'</h1><div class="entry-content">{text}</div></article>')

    def login(self, ctx: Ctx) -> str:
        body = ('<div id="login"><h1><a href="https://wordpress.example/">Powered by WordPress</a>'
                '</h1><form name="loginform" id="loginform" action="/wp-login.php" method="post">'
                '<p><label for="user_login">Username or Email Address</label><input type="text" '
                'name="log" id="user_login" class="input" size="20"></p><p><label for="user_pass">'
                'Password</label><input type="password" name="pwd" id="user_pass" class="input" '
                'size="20"></p><p class="submit"><input type="submit" name="wp-submit" id="wp-'
                'submit" class="button button-primary button-large" value="Log In"></p></form>'
                f'<p id="backtoblog"><a href="/">← Go to {esc(self.s.name)}</a></p></div>')
        return document(f"Log In ‹ {self.s.name} — WordPress", body,
                        head_extra='<meta name="robots" content="noindex,noarchive">',
                        body_attrs='class="login wp-core-ui"')

    def error(self, ctx: Ctx) -> str:
        return ("<!DOCTYPE html>\n<html><head><title>WordPress › Error</title></head><body "
                'id="error-page"><div class="wp-die-message"><p>There has been a critical error '
                "on this website.</p></div></body></html>\n")

    def not_found(self, ctx: Ctx) -> str:
        return self.shell(ctx, "Page not found", '<section class="error-404 not-found"><header '
                          'class="page-header"><h1 class="page-title">Oops! That page can’t be '
                          'found.</h1></header></section>', robots="noindex")

    def soft404(self, ctx: Ctx) -> str:
        return document(f"Archives – {self.s.name}", '<div class="archive-missing"><h1>Nothing '
                        'here yet</h1><p>This part of the archive is being moved. <a href="older/">'
                        'Older entries</a> · <a href="/">Home</a></p></div>')

    def asset(self, ctx: Ctx) -> str:
        return ("body{font:16px/1.6 Georgia,serif;color:#222}.site-content{max-width:70em;margin:"
                "auto}.widget-area{font-size:.9em}.comment-list .children{margin-left:2em}\n")


def _ul(items: Iterable[tuple[str, str]]) -> str:
    return "<ul>" + "".join(f"<li>{a(h, t)}</li>" for h, t in items) + "</ul>"


def _label(s: BlogSite, kind: str, key: Any) -> str:
    if kind == "category":
        return s.categories[key]
    if kind == "author":
        return s.authors[key]
    if kind == "month":
        return f"{calendar.month_name[key[1]]} {key[0]}"
    if kind == "day":
        return f"{key:%B %-d, %Y}"
    return str(key)
