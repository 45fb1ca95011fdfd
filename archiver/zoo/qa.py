"""Q&A family (variant 0 StackExchange-like, variant 1 Question2Answer-like): questions with
answers, answer sort tabs and permalinks as duplicates, user pages, tag pages, revision
history, login-required edit/answer links. SOUrCe (§5) evaluated on stackexchange.com.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar
from urllib.parse import quote

from archiver.zoo.site import Ctx, PageTruth, Site
from archiver.zoo.text import rng_for, slugify, username, weighted_pick, writer

QA_TOPICS = ("gardening", "food", "photography", "cars")


@dataclass(slots=True)
class Question:
    id: int
    title: str
    slug: str
    asker: int
    tags: tuple[str, ...]
    answers: tuple[int, ...]      # answer post ids
    accepted: int | None
    votes: int
    views: int
    day: int
    edited: bool


@dataclass(slots=True)
class QaUser:
    id: int
    name: str
    rep: int
    about: bool
    day: int


class QaScheme:
    """URL scheme of one variant."""

    def __init__(self, site: QaSite) -> None:
        self.s = site
        self.v = site.variant

    def home(self, tab: str = "") -> str:
        return "/" + (f"?tab={tab}" if tab else "") if self.v == 0 else "/" + (
            f"?sort={tab}" if tab else "")

    def questions(self, n: int = 1, tab: str = "") -> str:
        if self.v == 0:
            q = [f"tab={tab}"] if tab else []
            q += [f"page={n}"] if n > 1 else []
            return "/questions" + ("?" + "&".join(q) if q else "")
        q = [f"sort={tab}"] if tab else []
        q += [f"start={(n - 1) * self.s.per_page}"] if n > 1 else []
        return "/questions" + ("?" + "&".join(q) if q else "")

    def question(self, q: int, tab: str = "") -> str:
        qq = self.s.questions[q]
        if self.v == 0:
            return f"/questions/{q}/{qq.slug}" + (f"?answertab={tab}" if tab else "")
        return f"/{q}/{qq.slug}" + (f"?sort={tab}" if tab else "")

    def answer_link(self, aid: int) -> str:
        """v0: the share short link (301); v1: the question shown at the answer (a dup)."""
        if self.v == 0:
            return f"/a/{aid}"
        return self.question(self.s.answer_q[aid]) + f"?show={aid}"

    def answer_permalink(self, aid: int) -> str:
        q = self.s.answer_q[aid]
        return f"/questions/{q}/{self.s.questions[q].slug}/{aid}"

    def short(self, q: int) -> str:
        return f"/q/{q}"

    def revisions(self, pid: int) -> str:
        return f"/posts/{pid}/revisions" if self.v == 0 else f"/revisions/{pid}"

    def edit(self, q: int) -> str:
        return f"/posts/{q}/edit" if self.v == 0 else self.question(q) + f"?state=edit-{q}"

    def user(self, u: int, tab: str = "") -> str:
        user = self.s.users[u]
        if self.v == 0:
            return f"/users/{u}/{slugify(user.name)}" + (f"?tab={tab}" if tab else "")
        return f"/user/{quote(user.name)}" + (f"/{tab}" if tab else "")

    def users(self, n: int = 1, tab: str = "") -> str:
        q = [f"tab={tab}"] if tab else []
        q += [f"page={n}"] if n > 1 else []
        return "/users" + ("?" + "&".join(q) if q else "")

    def tag(self, t: str, n: int = 1) -> str:
        if self.v == 0:
            return f"/questions/tagged/{t}" + (f"?page={n}" if n > 1 else "")
        return f"/tag/{t}" + (f"?start={(n - 1) * self.s.per_page}" if n > 1 else "")

    def tags(self) -> str:
        return "/tags"

    def login(self, to: str = "") -> str:
        if self.v == 0:
            return "/users/login" + (f"?ssrc={to}" if to else "")
        return "/login" + (f"?to={quote(to.lstrip('/'), safe='')}" if to else "")

    def signup(self) -> str:
        return "/users/signup" if self.v == 0 else "/register"

    def sso(self) -> str:
        return "/users/login/google" if self.v == 0 else "/facebook-login"

    def feed(self, q: int | None = None) -> str:
        if self.v == 0:
            return f"/feeds/question/{q}" if q is not None else "/feeds"
        return f"/feed/question/{q}.rss" if q is not None else "/feed/qa.rss"

    def search(self, t: str) -> str:
        return f"/search?q=%5B{t}%5D" if self.v == 0 else f"/search?q={t}"

    def dead(self) -> str:
        return "/questions/3/how-do-i-start" if self.v == 0 else "/3/how-do-i-start"

    def soft404_entry(self) -> str:
        return "/documentation/topics/" if self.v == 0 else "/docs/faq/"


class QaSite(Site):
    """A generated Q&A site. See the module docstring."""

    family = "qa"
    target_types: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "detail": ("question",), "profile": ("user",)}

    def _configure(self) -> None:
        v0 = self.variant == 0
        self.soft404_prefix = "/documentation/" if v0 else "/docs/"
        self.robots_disallow = (("/search", "/users/login", "/users/signup") if v0 else
                                ("/search", "/login", "/register"))

    def _build(self) -> None:
        k, v = self.scale, self.variant
        rng = rng_for(self.seed, "qa", v, "model")
        self.url = QaScheme(self)
        self.topic = "tech" if v == 0 else QA_TOPICS[self.seed % len(QA_TOPICS)]
        self.name = ("Stack Overflowing" if v == 0 else
                     f"{self.topic.capitalize()} Answers").replace("Food", "Cooking")
        self.per_page = 15 if v == 0 else 20
        self.users: dict[int, QaUser] = {}
        for i in range(20 + 14 * k):
            uid = 10 + i * 7
            self.users[uid] = QaUser(uid, username(rng), int(rng.paretovariate(1.2) * 10),
                                     rng.random() < 0.5, rng.randint(0, 700))
        uids = list(self.users)
        w = writer(self.topic)
        self.questions: dict[int, Question] = {}
        self.answer_q: dict[int, int] = {}
        self.answer_author: dict[int, int] = {}
        self.edited_answers: set[int] = set()
        pid = 100
        day = 800
        for _ in range(12 + 24 * k):
            pid += rng.randint(1, 3)
            qid = pid
            day += rng.randint(0, 2)
            n_ans = min(14, int(rng.lognormvariate(0.6, 0.8)))
            answers = []
            for _ in range(n_ans):
                pid += 1
                answers.append(pid)
                self.answer_q[pid] = qid
                self.answer_author[pid] = weighted_pick(rng, uids)
                if rng.random() < 0.2:
                    self.edited_answers.add(pid)
            title = w.title(rng)
            self.questions[qid] = Question(
                qid, title, slugify(title), weighted_pick(rng, uids),
                tuple(sorted(w.tags(rng, rng.randint(1, 4)))), tuple(answers),
                answers[0] if answers and rng.random() < 0.6 else None,
                int(rng.gauss(3, 6)), rng.randint(20, 9000), day, rng.random() < 0.4)
        self.order = sorted(self.questions, reverse=True)
        self.by_votes = sorted(self.questions, key=lambda q: (-self.questions[q].votes, q))
        self.tag_index: dict[str, list[int]] = {}
        for q in self.order:
            for t in self.questions[q].tags:
                self.tag_index.setdefault(t, []).append(q)
        self.user_posts: dict[int, list[int]] = {}
        for q, qq in self.questions.items():
            self.user_posts.setdefault(qq.asker, []).append(q)
            for aid in qq.answers:
                self.user_posts.setdefault(self.answer_author[aid], []).append(q)
        self.error_revisions = {q for q, qq in self.questions.items()
                                if q % 31 == 2 and qq.edited}
        from archiver.zoo.qa_pages import QaPages
        self.pages = QaPages(self)
        self._routes_all()

    def n_pages(self, n_items: int) -> int:
        return max(1, -(-n_items // self.per_page))

    def _routes_all(self) -> None:
        u, pg, add, redirect = self.url, self.pages, self._add, self._redirect
        add("/", PageTruth("home", False, "valid", "home", 200), pg.home, "")
        for tab in ("hot", "week") if self.variant == 0 else ("hot",):
            add(u.home(tab), PageTruth("home", False, "duplicate", "home", 200, canonical="/"),
                pg.home, tab)
        for n in range(1, self.n_pages(len(self.order)) + 1):
            ent = f"questions/page:{n}"
            canon = add(u.questions(n), PageTruth("questions", False, "valid", ent, 200),
                        pg.question_list, n, "")
            add(u.questions(n, "votes"), PageTruth("questions", False, "duplicate", ent, 200,
                                                   canonical=canon), pg.question_list, n, "votes")
        for q, qq in self.questions.items():
            self._question_routes(q, qq)
        for t, qs in self.tag_index.items():
            for n in range(1, self.n_pages(len(qs)) + 1):
                add(u.tag(t, n), PageTruth("tag", False, "valid", f"tag:{t}/page:{n}", 200),
                    pg.tag, t, n)
        add(u.tags(), PageTruth("tags", False, "valid", "tags", 200), pg.tags)
        for uid, user in self.users.items():
            add(u.user(uid), PageTruth("user", user.about, "valid", f"user:{uid}", 200,
                                       topics=(self.topic,)), pg.user, uid, "")
            if uid in self.user_posts:
                tab = "answers" if self.variant == 1 else "activity"
                add(u.user(uid, tab), PageTruth("user_activity", False, "valid",
                                                f"user:{uid}/activity", 200), pg.user, uid, tab)
        per_users = 36
        for n in range(1, -(-len(self.users) // per_users) + 1):
            canon = add(u.users(n), PageTruth("users", False, "valid", f"users/page:{n}", 200),
                        pg.users, n, "")
            add(u.users(n, "newusers"), PageTruth("users", False, "duplicate", f"users/page:{n}",
                                                  200, canonical=canon), pg.users, n, "newusers")
        add(u.login(), PageTruth("login", False, "invalid", "login", 200), pg.login)
        add(u.signup(), PageTruth("login", False, "invalid", "signup", 200), pg.login)
        redirect(u.sso(), "https://accounts.example.net/o/oauth2/auth?client_id=zoo-qa"
                 "&response_type=code")
        add(u.feed(), PageTruth("feed", False, "duplicate", "feed", 200), pg.feed, None,
            ctype="application/atom+xml; charset=utf-8")
        for t in sorted(self.tag_index)[:3]:
            add(u.search(t), PageTruth("search", False, "duplicate", None, 200), pg.tag, t, 1)
        add(u.dead(), PageTruth("error", False, "invalid", None, 404), pg.not_found)
        add(u.soft404_entry(), PageTruth("soft404", False, "invalid", None, 200), pg.soft404)
        add("/content/site.css", PageTruth("asset", False, "valid", None, 200), pg.asset,
            ctype="text/css")

    def _question_routes(self, q: int, qq: Question) -> None:
        u, pg, add, redirect = self.url, self.pages, self._add, self._redirect
        ent = f"question:{q}"
        topics = (self.topic, *qq.tags)
        canon = add(u.question(q), PageTruth("question", True, "valid", ent, 200, topics=topics),
                    pg.question, q, "", chunked=self.variant == 1 and q % 3 == 0)
        dup = PageTruth("question", True, "duplicate", ent, 200, topics=topics, canonical=canon)
        if len(qq.answers) > 1:
            for tab in ("oldest", "active") if self.variant == 0 else ("votes",):
                add(u.question(q, tab), dup, pg.question, q, tab)
        for aid in qq.answers:
            if self.variant == 0:
                redirect(u.answer_link(aid), f"{u.answer_permalink(aid)}#{aid}", status=301,
                         valid="duplicate", entity=ent)
                add(u.answer_permalink(aid), dup, pg.question, q, "")
            else:
                add(u.answer_link(aid), dup, pg.question, q, "")
        if self.variant == 0:
            redirect(u.short(q), "{base}" + canon, status=301, valid="duplicate", entity=ent)
            redirect(u.edit(q), "/users/login?ssrc=edit")
        else:
            redirect(u.edit(q), "../" + u.login(canon).lstrip("/"))   # relative Location
            add(u.login(canon), PageTruth("login", False, "invalid", "login", 200), pg.login)
        for pid in [q] * qq.edited + [a for a in qq.answers if a in self.edited_answers]:
            if q in self.error_revisions:
                add(u.revisions(pid), PageTruth("error", False, "invalid", None, 500), pg.error)
            else:
                add(u.revisions(pid), PageTruth("revisions", True, "duplicate", ent, 200,
                                                canonical=canon), pg.revisions, pid)
        add(u.feed(q), PageTruth("feed", False, "duplicate", ent + "/feed", 200), pg.feed, q,
            ctype="application/atom+xml; charset=utf-8")
        if self.variant == 0:
            add(u.login("edit"), PageTruth("login", False, "invalid", "login", 200), pg.login)

    def _render_soft404(self, ctx: Ctx) -> str:
        return self.pages.soft404(ctx)

    def _render_not_found(self, ctx: Ctx) -> str:
        return self.pages.not_found(ctx)

