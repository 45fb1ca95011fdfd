"""Wiki skins: variant 0 Vector-like (mw-head/mw-panel, vector-menu tabs), variant 1
MonoBook-like (column-content/column-one portlets)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from archiver.zoo.markup import a, attr, document, esc, external_url
from archiver.zoo.site import Ctx
from archiver.zoo.text import rng_for, writer

if TYPE_CHECKING:
    from archiver.zoo.wiki import WikiSite

EPOCH = dt.datetime(2010, 2, 1, 9, 0)
SECTIONS = ("History", "Description", "Distribution", "Design", "Reception", "Legacy",
            "Variants", "Etymology", "In popular culture", "See also")


class WikiPages:
    """Renders both wiki skins."""

    def __init__(self, site: WikiSite) -> None:
        self.s = site
        self.u = site.url
        self.v = site.variant
        self.css_path = "/w/load.php.css" if self.v == 0 else "/skins/monobook/main.css"

    def when(self, rev: int) -> str:
        d = EPOCH + dt.timedelta(hours=rev * 7 % 100000)
        return f"{d:%H:%M, %-d %B %Y}"

    def link(self, aid: int, in_text: bool = False) -> str:
        title = self.s.articles[aid].title
        if in_text and self.v == 1 and aid % 6 == 0:   # old links in the `/index.php/T` form
            return a(self.u.path_form(title), title, title=title)
        return a(self.u.page(title), title, title=title)

    # -- chrome -----------------------------------------------------------------------
    def shell(self, ctx: Ctx, title: str, content: str, page: str = "", talk: str = "",
              robots: str = "", heading: str = "") -> str:
        s, u = self.s, self.u
        heading = heading or title
        tabs = ""
        if page:
            art = s.by_title.get(page)
            talk_link = (u.page(f"Talk:{page}") if art is not None and s.articles[art].talk
                         else u.edit(f"Talk:{page}", red=True))
            edit = "Edit" if self.v == 0 else "View source"
            tabs = "".join(f'<li id="ca-{i}" class="mw-list-item">{a(h, t)}</li>' for i, h, t in (
                ("nstab-main", u.page(page), "Article"), ("talk", talk_link, "Talk"),
                ("edit", u.edit(page), edit), ("history", u.history(page), "View history")))
        login = u.login(page) if page else u.login()
        nav = "".join(f"<li>{a(h, t)}</li>" for h, t in (
            (u.page("Main Page"), "Main page"), (u.special("RecentChanges"), "Recent changes"),
            (u.special("Random"), "Random page"), (u.special("AllPages"), "All pages"),
            (u.special("Categories"), "Categories"),
            (u.page("Community portal"), "Community portal"),
            (u.page("Sandbox"), "Sandbox")))
        tools = ""
        if page:
            tools = (f'<li id="t-whatlinkshere">{a(u.special("WhatLinksHere", u.t(page)), "What links here")}</li>'  # noqa: E501
                     f'<li id="t-print">{a(u.printable(page), "Printable version")}</li>')
        footer = (f'<ul id="footer-places"><li>{a(s.soft404_entry, "File archive")}'
                  "</li><li><a href=\"https://www.mediawiki.example/\">Powered by "
                  "MediaWiki</a></li>"
                  "</ul>")
        body_head = (f'<h1 id="firstHeading" class="firstHeading mw-first-heading">{esc(heading)}'
                     '</h1><div id="bodyContent" class="vector-body mw-body-content"><div '
                     'id="siteSub">'
                     f"From {esc(s.name)}</div>{content}</div>")
        if self.v == 0:
            body = (
                '<div id="mw-page-base" class="noprint"></div><div id="content" class="mw-body" '
                f'role="main"><a id="top"></a>{body_head}</div><div id="mw-navigation"><h2>'
                'Navigation menu</h2><div id="mw-head"><nav id="p-personal" class="vector-menu '
                f'mw-portlet"><ul class="vector-menu-content-list"><li id="pt-login">'
                f'{a(login, "Log in", accesskey="o")}</li>'
                f'<li>{a(u.special("OAuth"), "Log in with SUL")}'
                '</li></ul></nav><div id="left-navigation"><nav id="p-namespaces" class="vector-'
                'menu vector-menu-tabs"><ul '
                f'class="vector-menu-content-list">{tabs}</ul></nav></div>'
                '<div id="p-search" role="search" class="vector-search-box"><form action="/w/index'
                '.php" id="searchform"><input type="hidden" name="title" value="Special:Search">'
                '<input type="search" name="search" id="searchInput"></form></div></div><div id="'
                f'mw-panel"><div id="p-logo" role="banner"><a class="mw-wiki-logo" href="'
                f'{attr(u.page("Main Page"))}" title="Visit the main page"></a></div><nav id="p-'
                f'navigation" class="vector-menu mw-portlet portal"><h3>Navigation</h3><ul>{nav}'
                '</ul></nav><nav id="p-tb" class="vector-menu mw-portlet '
                'portal"><h3>Tools</h3><ul>'
                f'{tools}</ul></nav></div></div><footer id="footer" class="mw-footer" role="content'
                f'info">{footer}</footer>')
        else:
            body = (
                f'<div id="globalWrapper"><div id="column-content"><div id="content" class="mw-'
                f'body" role="main"><a id="top"></a>{body_head}<div class="visualClear"></div>'
                '</div></div><div id="column-one"><h2>Navigation menu</h2><div id="p-cactions" '
                f'class="portlet" role="navigation"><h3>Views</h3><div class="pBody"><ul>{tabs}'
                '</ul></div></div><div class="portlet" id="p-personal" role="navigation"><h3>'
                f'Personal tools</h3><div class="pBody"><ul><li id="pt-login">{a(login, "Log in")}'
                f'</li><li>{a(u.special("OAuth"), "Log in with SUL")}</li></ul></div></div><div '
                f'class="portlet" id="p-logo" role="banner"><a href="{attr(u.page("Main Page"))}" '
                'class="mw-wiki-logo"></a></div><div class="generated-sidebar portlet" id="p-'
                f'navigation"><h3>Navigation</h3><div class="pBody"><ul>{nav}</ul></div></div><div '
                f'class="portlet" id="p-tb"><h3>Tools</h3><div class="pBody"><ul>{tools}</ul></div>'
                f'</div></div><div class="visualClear"></div><div id="footer" role="contentinfo">'
                f"{footer}</div></div>")
        head = f'<meta name="robots" content="{robots}">' if robots else ""
        return document(f"{title} - {s.name}", body, css=[self.css_path], head_extra=head,
                        generator="MediaWiki 1.39.5",
                        body_attrs=f'class="mediawiki ltr skin-{"vector" if self.v == 0 else "monobook"}"')  # noqa: E501

    # -- articles and their variants --------------------------------------------------
    def content(self, aid: int, upto: int | None = None) -> str:
        """The article's parsed content; `upto` keeps only the sections an older revision had."""
        s, u = self.s, self.u
        art = s.articles[aid]
        rng = rng_for(s.seed, self.v, "article", aid)
        w = writer(art.topic)
        sections = max(1, min(len(SECTIONS), art.length // 120))
        if upto is not None:
            sections = max(1, sections * upto // len(art.revs))
        links = list(art.links)
        parts = [f'<table class="infobox"><tbody><tr><th colspan="2" class="infobox-above">'
                 f"{esc(art.title)}</th></tr><tr><th>Type</th><td>{esc(art.topic)}</td></tr>"
                 f"<tr><th>First described</th><td>{1800 + aid % 200}</td></tr></tbody></table>"]
        parts.append(f"<p><b>{esc(art.title)}</b> {esc(w.paragraph(rng, 3))}</p>")
        toc = "".join(f'<li class="toclevel-1"><a href="#{SECTIONS[i].replace(" ", "_")}"><span '
                      f'class="toctext">{SECTIONS[i]}</span></a></li>' for i in range(sections))
        parts.append(f'<div id="toc" class="toc" role="navigation"><h2 id="mw-toc-heading">'
                     f"Contents</h2><ul>{toc}</ul></div>")
        per = max(1, art.length // sections // 60)
        for i in range(sections):
            sec = SECTIONS[i]
            parts.append(f'<h2><span class="mw-headline" id="{sec.replace(" ", "_")}">{sec}</span>'
                         "</h2>")
            for _ in range(per):
                extra = ""
                if links:
                    extra = " See also " + self.link(links.pop(), in_text=True) + "."
                parts.append(f"<p>{esc(w.paragraph(rng, rng.randint(2, 6)))}{extra}</p>")
        if art.red:
            parts.append(f'<p>Compare {a(u.edit(art.red, red=True), art.red, "new", title=art.red + " (page does not exist)")}.</p>')  # noqa: E501
        refs = "".join(f'<li id="cite_note-{n}"><span class="reference-text">'
                       f'{a(external_url(rng, rng.choice(w.terms)), w.title(rng), "external text", rel="nofollow")}'  # noqa: E501
                       "</span></li>" for n in range(1, rng.randint(2, 6)))
        parts.append(f'<h2><span class="mw-headline" id="References">References</span></h2>'
                     f'<div class="reflist"><ol class="references">{refs}</ol></div>')
        cats = "".join(f"<li>{a(u.page('Category:' + c), c)}</li>" for c in art.cats)
        parts.append(f'<div id="catlinks" class="catlinks"><div class="mw-normal-catlinks">'
                     f'{a(u.special("Categories"), "Categories")}: <ul>{cats}</ul></div></div>')
        return '<div id="mw-content-text"><div class="mw-parser-output">' + "".join(parts) + \
            "</div></div>"

    def article(self, ctx: Ctx, aid: int, rev: int) -> str:
        art = self.s.articles[aid]
        notice = ""
        upto = None
        if rev:
            j = art.revs.index(rev)
            upto = j + 1
            notice = (f'<div id="mw-revision-info" class="mw-revision warningbox">This is an old '
                      "revision of this page, as edited by "
                      f"{self.user_link(self.s.rev_author[rev])} at "
                      f"{self.when(rev)}. It may differ significantly from the "
                      f'{a(self.u.page(art.title), "current revision")}.</div>')
        last = f'<p id="footer-info-lastmod">This page was last edited on {self.when(art.revs[-1])}.</p>'  # noqa: E501
        return self.shell(ctx, art.title, notice + self.content(aid, upto) + last, art.title)

    def printable(self, ctx: Ctx, aid: int) -> str:
        art = self.s.articles[aid]
        return document(f"{art.title} - {self.s.name}", f'<div id="content"><h1 id="firstHeading">'
                        f"{esc(art.title)}</h1>{self.content(aid)}<div class=\"printfooter\">"
                        f"Retrieved from {esc(ctx.base + self.u.page(art.title))}</div></div>",
                        css=[self.css_path], head_extra='<meta name="robots" '
                                                        'content="noindex,follow">')

    def diff(self, ctx: Ctx, aid: int, rev: int) -> str:
        s, u = self.s, self.u
        art = s.articles[aid]
        j = art.revs.index(rev)
        rng = rng_for(s.seed, self.v, "diff", rev)
        w = writer(art.topic)
        nav_prev = (a(u.diff(art.title, art.revs[j - 1]), "← Previous edit") if j > 1 else "")
        nav_next = (a(u.diff(art.title, art.revs[j + 1]), "Newer edit →")
                    if j + 1 < len(art.revs) else "")
        old = a(u.oldid(art.title, art.revs[j - 1]), f"Revision as of {self.when(art.revs[j - 1])}")
        new = (a(u.oldid(art.title, rev), f"Revision as of {self.when(rev)}")
               if rev != art.revs[-1] else a(u.page(art.title), "Latest revision"))
        table = (f'<table class="diff diff-contentalign-left"><tr class="diff-title"><td class="'
                 f'diff-otitle">{old}<br>{self.user_link(s.rev_author[art.revs[j - 1]])}<br>'
                 f'{nav_prev}'
                 f'</td><td class="diff-ntitle">{new}<br>{self.user_link(s.rev_author[rev])}<br>'
                 f'{nav_next}</td></tr><tr><td class="diff-deletedline"><div>'
                 f'{esc(w.sentence(rng))}</div></td><td class="diff-addedline"><div>'
                 f"{esc(w.paragraph(rng, 2))}</div></td></tr></table>")
        return self.shell(ctx, f"{art.title}: Difference between revisions", table
                          + self.content(aid, j + 1), art.title, robots="noindex,nofollow")

    def history(self, ctx: Ctx, aid: int) -> str:
        s, u = self.s, self.u
        art = s.articles[aid]
        rows = []
        for j in range(len(art.revs) - 1, -1, -1):
            r = art.revs[j]
            date = (a(u.oldid(art.title, r), self.when(r), "mw-changeslist-date")
                    if j < len(art.revs) - 1 else a(u.page(art.title), self.when(r)))
            prev = a(u.diff(art.title, r), "prev") if j > 0 else "prev"
            rows.append(f'<li data-mw-revid="{r}">({prev}) {date} '
                        f'{self.user_link(s.rev_author[r])} '
                        f'<span class="history-size">({400 + r % 9000} bytes)</span></li>')
        return self.shell(ctx, f"{art.title}: Revision history", f'<ul id="pagehistory">'
                          f'{"".join(rows)}</ul>', art.title, robots="noindex,nofollow",
                          heading=f"{art.title}: Revision history")

    def talk(self, ctx: Ctx, aid: int) -> str:
        s = self.s
        art = s.articles[aid]
        rng = rng_for(s.seed, self.v, "talk", aid)
        w = writer(art.topic)
        threads = []
        for _ in range(rng.randint(1, 4)):
            posts = "".join(f"<dl><dd>{esc(w.paragraph(rng, rng.randint(1, 4)))} — "
                            f"{self.user_link(rng.randrange(len(s.users)))} "
                            f"{self.when(rng.randint(1000, 9000))} (UTC)</dd></dl>"
                            for _ in range(rng.randint(1, 5)))
            threads.append(f'<h2><span class="mw-headline">{esc(w.title(rng))}</span></h2>{posts}')
        return self.shell(ctx, f"Talk:{art.title}", "".join(threads), art.title)

    def user_link(self, idx: int) -> str:
        s, u = self.s, self.u
        name = s.users[idx]
        if name in s.user_pages:
            who = a(u.page(f"User:{name}"), name, "mw-userlink", title=f"User:{name}")
        else:
            who = a(u.edit(f"User:{name}", red=True), name, "mw-userlink new")
        return f'{who} <span class="mw-usertoollinks">({a(u.special("Contributions", name), "contribs")})</span>'  # noqa: E501

    def user_page(self, ctx: Ctx, idx: int) -> str:
        s = self.s
        name = s.users[idx]
        rng = rng_for(s.seed, self.v, "userpage", idx)
        topic = next(iter(s.articles.values())).topic
        text = "".join(f"<p>{esc(p)}</p>" for p in writer(topic).paragraphs(rng, 60))
        return self.shell(ctx, f"User:{name}", f"<p>Hello, I am {esc(name)}.</p>{text}"
                          f'<p>{a(self.u.special("Contributions", name), "My contributions")}</p>')

    # -- lists and special pages ------------------------------------------------------
    def _ul(self, ids: list[int]) -> str:
        return "<ul>" + "".join(f"<li>{self.link(i)}</li>" for i in ids) + "</ul>"

    def main(self, ctx: Ctx) -> str:
        s = self.s
        ids = sorted(s.articles)
        featured = ids[s.seed % len(ids)]
        text = self.content(featured).split("</table>", 1)[-1][:1500]
        cats = " · ".join(a(self.u.page("Category:" + c), c) for c in sorted(s.categories)[:12])
        search = a(self.u.special("Search") + ("?search=" if self.v == 0 else "&search=") + "index",
                   "Search the index")
        return self.shell(ctx, "Main Page", f'<div id="mp-tfa"><h2>Featured article</h2>'
                          f"<p>{self.link(featured)}</p></div><div id=\"mp-itn\"><h2>Recently "
                          f"updated</h2>{self._ul(ids[-8:])}</div><p>{cats}</p><p>{search}</p>"
                          f"<!-- {len(text)} -->")

    def category(self, ctx: Ctx, cat: str, n: int) -> str:
        s, u = self.s, self.u
        members = sorted(s.categories[cat], key=lambda i: s.articles[i].title)
        shown = members[(n - 1) * s.per_cat: n * s.per_cat]
        pages = -(-len(members) // s.per_cat)
        sep = "?" if self.v == 0 else "&"
        nxt = (a(u.page(f"Category:{cat}") + f"{sep}pagefrom={n + 1}", "next page")
               if n < pages else "")
        return self.shell(ctx, f"Category:{cat}", f'<div id="mw-pages"><h2>Pages in category '
                          f"“{esc(cat)}”</h2>{self._ul(shown)}({nxt})</div>")

    def allpages(self, ctx: Ctx) -> str:
        s = self.s
        return self.shell(ctx, "All pages", self._ul(sorted(s.articles, key=lambda i: s.articles[i].title)))  # noqa: E501

    def categories(self, ctx: Ctx) -> str:
        cats = "".join(f"<li>{a(self.u.page('Category:' + c), c)} ({len(m)} members)</li>"
                       for c, m in sorted(self.s.categories.items()))
        return self.shell(ctx, "Categories", f"<ul>{cats}</ul>")

    def recent(self, ctx: Ctx) -> str:
        s, u = self.s, self.u
        revs = sorted(((r, art) for art in s.articles.values() for r in art.revs[1:]),
                      key=lambda x: -x[0])[:40]
        rows = "".join(f"<li>({a(u.diff(art.title, r), 'diff')} | "
                       f"{a(u.history(art.title), 'hist')}) "
                       f"{self.link(art.id)}; {self.when(r)} {self.user_link(s.rev_author[r])}</li>"
                       for r, art in revs)
        return self.shell(ctx, "Recent changes", f'<ul class="special">{rows}</ul>',
                          robots="noindex,nofollow")

    def whatlinkshere(self, ctx: Ctx, aid: int) -> str:
        art = self.s.articles[aid]
        return self.shell(ctx, f"Pages that link to “{art.title}”",
                          self._ul(self.s.linked_from.get(aid, [])), robots="noindex,nofollow")

    def contributions(self, ctx: Ctx, idx: int) -> str:
        s, u = self.s, self.u
        rows = "".join(f"<li>{self.when(r)} {a(u.diff(art.title, r), 'diff') if r != art.revs[0] else 'diff'} "  # noqa: E501
                       f"{self.link(art.id)}</li>"
                       for art in s.articles.values() for r in art.revs if s.rev_author[r] == idx)
        return self.shell(ctx, f"User contributions for {s.users[idx]}", f"<ul>{rows}</ul>",
                          robots="noindex,nofollow")

    def edit(self, ctx: Ctx, title: str) -> str:
        return self.shell(ctx, f"Editing {title}", '<div class="mw-anon-edit-warning">You are not '
                          "logged in. Your IP address will be publicly visible if you make any "
                          'edits.</div><form id="editform" method="post"><textarea '
                          'name="wpTextbox1" '
                          'rows="25" cols="80"></textarea><input type="submit" name="wpSave" '
                          'value="Save changes"></form>', robots="noindex,nofollow")

    def login(self, ctx: Ctx) -> str:
        return self.shell(ctx, "Log in", '<form name="userlogin" method="post"><input name='
                          '"wpName"><input name="wpPassword" type="password"><button name="'
                          'wpLoginAttempt">Log in</button></form>', robots="noindex,nofollow")

    def error(self, ctx: Ctx) -> str:
        return ("<!DOCTYPE html>\n<html><head><title>Internal error</title></head><body><h1>"
                "Internal error</h1><p>[a1b2c3] Database error: Lost connection to MySQL server"
                "</p></body></html>\n")

    def missing_page(self, ctx: Ctx, title: str) -> str:
        return self.shell(ctx, title or "Not found", f"<p>{esc(self.s.name)} does not have an "
                          "article with this exact name.</p>", robots="noindex,nofollow")

    def soft404(self, ctx: Ctx) -> str:
        return document("File not found", '<div class="filemissing"><h1>No file by this name '
                        'exists</h1><p><a href="archive/">Browse the archive</a> · <a href="/">'
                        "Main page</a></p></div>")

    def asset(self, ctx: Ctx) -> str:
        return "body{font-family:sans-serif}.infobox{float:right;border:1px solid #a2a9b1}\n"
