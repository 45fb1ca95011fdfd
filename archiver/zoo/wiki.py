"""Wiki family (MediaWiki-like; variant 0 short `/wiki/Title` URLs, Vector-like skin, open
editing; variant 1 `/index.php?title=` URLs, MonoBook-like skin, login to edit): articles,
talk pages, history/diff/oldid/edit/printable variants, special pages, category pages.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar
from urllib.parse import quote

from archiver.zoo.site import Ctx, PageTruth, Site
from archiver.zoo.text import ADJECTIVES, TOPICS, rng_for, username, weighted_pick

WIKI_TOPICS = (("animals", "science", "history"), ("cars", "music", "travel"))


@dataclass(slots=True)
class Article:
    id: int
    title: str
    topic: str
    cats: tuple[str, ...]
    revs: tuple[int, ...]        # revision ids, oldest first
    talk: bool
    links: tuple[int, ...]       # linked article ids
    red: str | None              # a red link (missing article) in the text
    length: int                  # words


class WikiScheme:
    """URL scheme of one variant; titles use underscores for spaces."""

    def __init__(self, site: WikiSite) -> None:
        self.v = site.variant

    @staticmethod
    def t(title: str) -> str:
        return quote(title.replace(" ", "_"), safe=":/()_,")

    def page(self, title: str) -> str:
        return f"/wiki/{self.t(title)}" if self.v == 0 else f"/index.php?title={self.t(title)}"

    def action(self, title: str, action: str, extra: str = "") -> str:
        base = "/w/index.php" if self.v == 0 else "/index.php"
        return f"{base}?title={self.t(title)}&{action}" + extra

    def history(self, title: str) -> str:
        return self.action(title, "action=history")

    def oldid(self, title: str, rev: int) -> str:
        return self.action(title, f"oldid={rev}")

    def diff(self, title: str, rev: int) -> str:
        return self.action(title, f"diff=prev&oldid={rev}")

    def edit(self, title: str, red: bool = False) -> str:
        return self.action(title, "action=edit", "&redlink=1" if red else "")

    def printable(self, title: str) -> str:
        return self.action(title, "printable=yes")

    def special(self, name: str, sub: str = "") -> str:
        return self.page(f"Special:{name}" + (f"/{sub}" if sub else ""))

    def login(self, returnto: str = "") -> str:
        base = self.special("UserLogin")
        if not returnto:
            return base
        return base + ("?" if self.v == 0 else "&") + f"returnto={self.t(returnto)}"

    def path_form(self, title: str) -> str:
        """v1: the `/index.php/Title` form old links use (a duplicate)."""
        return f"/index.php/{self.t(title)}"


class WikiSite(Site):
    """A generated wiki. See the module docstring."""

    family = "wiki"
    target_types: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "detail": ("article",), "profile": ("user",)}

    def _configure(self) -> None:
        v0 = self.variant == 0
        self.soft404_prefix = "/files/" if v0 else "/skins/common/"
        self.robots_disallow = (("/w/api.php", "/wiki/Special:Search") if v0 else
                                ("/api.php", "/index.php?title=Special:Search"))

    def _build(self) -> None:
        k, v = self.scale, self.variant
        rng = rng_for(self.seed, "wiki", v, "model")
        self.url = WikiScheme(self)
        topics = WIKI_TOPICS[v]
        self.name = "Zoopedia" if v == 0 else "MotorMusic Wiki"
        self.users = [username(rng).capitalize() for _ in range(10 + 5 * k)]
        self.user_pages = {u for u in self.users if rng.random() < 0.5}
        self.categories: dict[str, list[int]] = {}
        titles: set[str] = set()
        self.articles: dict[int, Article] = {}
        self.by_title: dict[str, int] = {}
        rev = 1000
        for i in range(20 + 30 * k):
            topic = topics[i % len(topics)]
            title = _title(rng, topic, titles)
            n_revs = 1 + min(30, int(rng.lognormvariate(0.9, 0.9)))
            revs = tuple(range(rev + 1, rev + 1 + n_revs))
            rev += n_revs + rng.randint(0, 5)
            sub = rng.choice(("stubs", "basics", "people", "places", "terms"))
            cats = tuple(sorted({topic.capitalize(), f"{topic.capitalize()} {sub}"}))
            aid = 10 + i
            self.articles[aid] = Article(aid, title, topic, cats, revs, rng.random() < 0.4, (),
                                         None, int(rng.lognormvariate(5.2, 0.9)))
            self.by_title[title] = aid
            for c in cats:
                self.categories.setdefault(c, []).append(aid)
        ids = list(self.articles)
        self.rev_author = {r: weighted_pick(rng, list(range(len(self.users))))
                           for a in self.articles.values() for r in a.revs}
        self.missing: list[str] = []
        for art in self.articles.values():
            art.links = tuple(rng.sample(ids, min(len(ids), rng.randint(2, 8))))
            if rng.random() < 0.3:
                art.red = _title(rng, art.topic, titles)
                self.missing.append(art.red)
        self.linked_from: dict[int, list[int]] = {}
        for art in self.articles.values():
            for target in art.links:
                self.linked_from.setdefault(target, []).append(art.id)
        self.random_target = ids[self.seed % len(ids)]
        self.diff_errors = {a.revs[-1] for a in self.articles.values()
                            if a.id % 29 == 5 and len(a.revs) > 1}
        self.per_cat = 100
        from archiver.zoo.wiki_pages import WikiPages
        self.pages = WikiPages(self)
        self._routes_all()

    def _routes_all(self) -> None:
        u, pg, add, redirect = self.url, self.pages, self._add, self._redirect
        main = u.page("Main Page")
        redirect("/", main, status=301, valid="duplicate", entity="main")
        add(main, PageTruth("main", False, "valid", "main", 200), pg.main)
        for aid, art in self.articles.items():
            self._article_routes(aid, art)
        for title in self.missing:
            add(u.edit(title, red=True), PageTruth("edit", False, "invalid", None, 200),
                pg.edit, title)
        for cat, members in self.categories.items():
            pages = max(1, -(-len(members) // self.per_cat))
            for n in range(1, pages + 1):
                link = u.page(f"Category:{cat}") + (
                    ("?" if self.variant == 0 else "&") + f"pagefrom={n}" if n > 1 else "")
                add(link, PageTruth("category", False, "valid", f"category:{cat}/page:{n}", 200),
                    pg.category, cat, n)
        for i, name in enumerate(self.users):
            ent = f"user:{name}"
            if name in self.user_pages:
                add(u.page(f"User:{name}"), PageTruth("user", True, "valid", ent, 200),
                    pg.user_page, i)
            else:
                add(u.edit(f"User:{name}", red=True), PageTruth("edit", False, "invalid", None,
                                                                 200), pg.edit, f"User:{name}")
            add(u.special("Contributions", name), PageTruth("special", False, "valid",
                                                            f"contribs:{name}", 200),
                pg.contributions, i)
        for name, fn in (("RecentChanges", pg.recent), ("AllPages", pg.allpages),
                         ("Categories", pg.categories)):
            add(u.special(name), PageTruth("special", False, "valid", f"special:{name}", 200), fn)
        redirect(u.special("Random"), "{base}" + u.page(self.articles[self.random_target].title),
                 valid="duplicate", entity=f"article:{self.random_target}")
        add(u.login(), PageTruth("login", False, "invalid", "login", 200), pg.login)
        redirect(u.special("OAuth"), "https://meta.example.org/wiki/Special:OAuth/authorize")
        add(u.special("Search") + ("?search=" if self.variant == 0 else "&search=") + "index",
            PageTruth("search", False, "duplicate", None, 200), pg.allpages)
        for title in ("Sandbox", "Community portal"):
            add(u.page(title), PageTruth("error", False, "invalid", None, 404), pg.missing_page,
                title)
        add(self.soft404_entry, PageTruth("soft404", False, "invalid", None, 200),
            pg.soft404)
        add(pg.css_path, PageTruth("asset", False, "valid", None, 200), pg.asset, ctype="text/css")

    def _article_routes(self, aid: int, art: Article) -> None:
        u, pg, add, redirect = self.url, self.pages, self._add, self._redirect
        ent = f"article:{aid}"
        topics = (art.topic,)
        canon = add(u.page(art.title), PageTruth("article", True, "valid", ent, 200,
                                                 topics=topics),
                    pg.article, aid, 0, chunked=self.variant == 1 and aid % 4 == 0)
        add(u.history(art.title), PageTruth("history", False, "valid", f"{ent}/history", 200),
            pg.history, aid)
        for r in art.revs[:-1]:
            add(u.oldid(art.title, r), PageTruth("revision", True, "duplicate", ent, 200,
                                                 topics=topics, canonical=canon),
                pg.article, aid, r)
        for r in art.revs[1:]:
            if r in self.diff_errors:
                add(u.diff(art.title, r), PageTruth("error", False, "invalid", None, 500),
                    pg.error)
            else:
                add(u.diff(art.title, r), PageTruth("diff", True, "duplicate", ent, 200,
                                                    topics=topics, canonical=canon),
                    pg.diff, aid, r)
        add(u.printable(art.title), PageTruth("print", True, "duplicate", ent, 200,
                                              topics=topics, canonical=canon), pg.printable, aid)
        add(u.special("WhatLinksHere", u.t(art.title)),
            PageTruth("special", False, "valid", f"{ent}/links", 200), pg.whatlinkshere, aid)
        talk = f"Talk:{art.title}"
        if art.talk:
            add(u.page(talk), PageTruth("talk", True, "valid", f"talk:{aid}", 200,
                                        topics=topics), pg.talk, aid)
        else:
            add(u.edit(talk, red=True), PageTruth("edit", False, "invalid", None, 200),
                pg.edit, talk)
        if self.variant == 0:
            add(u.edit(art.title), PageTruth("edit", False, "invalid", None, 200),
                pg.edit, art.title)
            add(u.login(art.title), PageTruth("login", False, "invalid", "login", 200),
                pg.login)
        else:
            redirect(u.edit(art.title), u.login(art.title))
            add(u.login(art.title), PageTruth("login", False, "invalid", "login", 200),
                pg.login)
            if aid % 6 == 0:
                add(u.path_form(art.title), PageTruth("article", True, "duplicate", ent, 200,
                                                      topics=topics, canonical=canon),
                    pg.article, aid, 0)

    @property
    def soft404_entry(self) -> str:
        """The linked way into the soft-404 corner."""
        return ("/files/" if self.variant == 0 else "/skins/common/") + "archive/"

    def _render_soft404(self, ctx: Ctx) -> str:
        return self.pages.soft404(ctx)

    def _render_not_found(self, ctx: Ctx) -> str:
        return self.pages.missing_page(ctx, "")


_FORMS = ("{A} {t}", "{T}", "{T} ({n})", "{A} {t} {n}", "History of the {t}", "{T} in {c}")
_PLACES = ("Leeds", "Ohio", "Bavaria", "Lyon", "Kyoto", "Porto", "Quebec", "Otago", "Bergen")
_NOUNS = ("species", "band", "model", "river", "town", "album", "engine", "festival", "theory")


def _title(rng: random.Random, topic: str, taken: set[str]) -> str:
    while True:
        form = rng.choice(_FORMS)
        title = form.format(A=rng.choice(ADJECTIVES).capitalize(), t=rng.choice(TOPICS[topic]),
                            T=rng.choice(TOPICS[topic]).capitalize(), n=rng.choice(_NOUNS),
                            c=rng.choice(_PLACES))
        title = title[0].upper() + title[1:]
        if title not in taken:
            taken.add(title)
            return title
