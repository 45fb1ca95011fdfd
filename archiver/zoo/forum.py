"""Forum family (phpBB-like variant 0, vBulletin-like variant 1): boards and sub-boards,
paginated topic lists and topics, user profiles, login walls, sort/print/permalink/session
duplicates. The shape follows the forums iRobot (§6.1) and SOUrCe (§5.1) evaluated on:
list-of-board, list-of-thread, post-of-thread, profile, and login-failure pages.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from archiver.zoo.forum_pages import ForumPages
from archiver.zoo.forum_urls import ForumScheme
from archiver.zoo.site import Ctx, PageTruth, Site
from archiver.zoo.text import Writer, rng_for, username, weighted_pick, writer

BOARD_TOPICS = ("cars", "music", "photography", "gardening", "sports", "tech", "food",
                "travel", "animals", "history", "science", "city", "flowers")
CATEGORY_NAMES = ("General", "Hobbies and Interests", "Technical Corner", "Off Topic",
                  "Marketplace", "Regional Boards")
EPOCH = dt.date(2009, 3, 2)


@dataclass(slots=True)
class Board:
    id: int
    cat: int
    parent: int | None
    title: str
    desc: str
    topic: str
    topics: list[int] = field(default_factory=list)     # ordered as listed (by activity)
    children: list[int] = field(default_factory=list)


@dataclass(slots=True)
class Topic:
    id: int
    board: int
    title: str
    author: int
    first_post: int
    n_posts: int
    day: int              # days after EPOCH of the first post
    last_day: int
    views: int
    sticky: bool
    locked: bool


@dataclass(slots=True)
class User:
    id: int
    name: str
    joined: int
    interest: str
    about: bool
    location: str
    posts: int = 0
    recent: list[int] = field(default_factory=list)      # topic ids


class ForumSite(Site):
    """A generated forum. See the module docstring for what it contains."""

    family = "forum"
    target_types: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "detail": ("topic",), "profile": ("profile",)}

    def _configure(self) -> None:
        v0 = self.variant == 0
        self.session_param = "sid" if v0 else "s"
        self.soft404_prefix = "/help/" if v0 else "/content/"
        self.robots_disallow = (("/search.php", "/adm/", "/cron.php") if v0 else
                                ("/search.php", "/admincp/", "/modcp/", "/cron.php"))

    # -- model ------------------------------------------------------------------------
    def _build(self) -> None:
        k = self.scale
        rng = rng_for(self.seed, "forum", self.variant, "model")
        self.topics_per_page = 10 if self.variant == 0 else 12
        self.posts_per_page = 10 if self.variant == 0 else 8
        self.sid = f"{rng.getrandbits(128):032x}"
        main = BOARD_TOPICS[(self.seed + 3 * self.variant) % len(BOARD_TOPICS)]
        self.name = f"{main.capitalize()} {rng.choice(_NAMES)}"
        self.tagline = f"A friendly community for {main} fans, beginners and experts alike."
        self.url = ForumScheme(self)
        self._model(rng, k)
        from archiver.zoo.forum_phpbb import PhpbbPages
        from archiver.zoo.forum_vbulletin import VbPages
        self.pages: ForumPages = PhpbbPages(self) if self.variant == 0 else VbPages(self)
        self._routes_all()

    def _model(self, rng: random.Random, k: int) -> None:
        n_users = 12 + 12 * k
        self.users: dict[int, User] = {}
        for i in range(n_users):
            uid = 2 + i * (3 if self.variant else 1)
            self.users[uid] = User(uid, username(rng), rng.randint(0, 900),
                                   rng.choice(BOARD_TOPICS), rng.random() < 0.65,
                                   rng.choice(("", "", "Leeds", "Ohio", "Bavaria", "Lyon",
                                               "Ontario", "Kyoto", "Porto", "the garage")))
        uids = list(self.users)
        n_cats = min(len(CATEGORY_NAMES), 2 + k // 3)
        self.categories = list(CATEGORY_NAMES[:n_cats])
        n_top = min(40, 3 + 2 * k)
        self.boards: dict[int, Board] = {}
        bid = 1
        for i in range(n_top):
            bid += 1 + (i % 3 == 2)
            topic = BOARD_TOPICS[(i + self.seed) % len(BOARD_TOPICS)]
            w = writer(topic)
            self.boards[bid] = Board(bid, i % n_cats, None, _board_title(topic, i),
                                     w.sentence(rng), topic)
            if i % 3 == 1:                     # a sub-board under every third board
                sub = bid + 1
                bid += 1
                self.boards[sub] = Board(sub, i % n_cats, bid - 1,
                                         f"{topic.capitalize()} {rng.choice(_SUBS)}",
                                         w.sentence(rng), topic)
                self.boards[bid - 1].children.append(sub)
        board_ids = list(self.boards)
        self.topics: dict[int, Topic] = {}
        self.post_topic: list[int] = [0]     # post id -> topic id (post ids start at 1)
        self.post_author: list[int] = [0]
        n_topics = 30 * k
        mega = rng.randrange(n_topics)
        tid = 0
        day = 0
        for i in range(n_topics):
            tid += rng.randint(1, 3)
            day += rng.randint(0, 3)
            b = weighted_pick(rng, board_ids, 0.4)
            n = 100 + 40 * k if i == mega else min(120, 1 + int(rng.lognormvariate(2.0, 0.9)))
            author = weighted_pick(rng, uids)
            first = len(self.post_topic)
            for j in range(n):
                self.post_topic.append(tid)
                self.post_author.append(author if j == 0 else weighted_pick(rng, uids))
            title = writer(self.boards[b].topic).title(rng)
            last = day + (rng.randint(0, 90) if n > 1 else 0)
            self.topics[tid] = Topic(tid, b, title, author, first, n, day, last,
                                     n * rng.randint(8, 60), rng.random() < 0.06, False)
            self.boards[b].topics.append(tid)
        for board in self.boards.values():
            board.topics.sort(key=lambda t: (not self.topics[t].sticky, -self.topics[t].last_day))
        for p in range(1, len(self.post_topic)):
            u = self.users[self.post_author[p]]
            u.posts += 1
            t = self.post_topic[p]
            if t not in u.recent[-5:]:
                u.recent.append(t)
        self.dead_topic = tid + 97
        # Threads without activity in the last months are closed (vBulletin auto-close):
        recent = sorted(self.topics, key=lambda t: -self.topics[t].last_day)
        for t in recent[len(recent) // 7:]:
            self.topics[t].locked = self.variant == 1
        # Links inside posts: attachment (404), a dead topic (404), or another topic.
        self.post_links: dict[int, int] = {}
        topic_ids = list(self.topics)
        for p in range(1, len(self.post_topic)):
            r = rng.random()
            if r < 0.14:
                self.post_links[p] = -1 if r < 0.04 else -2 if r < 0.06 else rng.choice(topic_ids)
        self.short_linked = {t for user in self.users.values() for t in user.recent[-5:]}
        self.old_linked = {t for t in self.post_links.values() if t > 0}
        self.error_topics = {t for t in self.topics if t % 23 == 7 and self._n_pages(t) > 2}

    def _n_pages(self, t: int) -> int:
        return -(-self.topics[t].n_posts // self.posts_per_page)

    def board_pages(self, b: int) -> int:
        return max(1, -(-len(self.boards[b].topics) // self.topics_per_page))

    def post_page(self, p: int) -> int:
        return (p - self.topics[self.post_topic[p]].first_post) // self.posts_per_page + 1

    def date(self, day: int, minute: int = 0) -> dt.datetime:
        return dt.datetime.combine(EPOCH + dt.timedelta(days=day), dt.time()) + \
            dt.timedelta(minutes=minute % 1440)

    # -- routes -----------------------------------------------------------------------
    def _routes_all(self) -> None:
        u, pg, add = self.url, self.pages, self._add
        add("/", PageTruth("index", False, "valid", "index", 200), pg.index)
        add(u.index_dup(), PageTruth("index", False, "duplicate", "index", 200, canonical="/"),
            pg.index)
        for b in self.boards:
            last = self.board_pages(b)
            for n in range(1, last + 1):
                ent = f"board:{b}/page:{n}"
                canon = add(u.board(b, n), PageTruth("board", False, "valid", ent, 200),
                            pg.board, b, n, "")
                for sort in ("subject", "replies"):
                    add(u.board(b, n, sort), PageTruth("board", False, "duplicate", ent, 200,
                                                       canonical=canon), pg.board, b, n, sort)
            sid = f"{u.board(b)}{'&' if self.variant == 0 else '?'}{self.session_param}={self.sid}"
            if self.boards[b].parent is None:   # the index links top-level boards with a sid
                add(sid, PageTruth("board", False, "duplicate", f"board:{b}/page:1", 200,
                                   canonical=u.board(b)), pg.board, b, 1, "")
            add(u.feed(b), PageTruth("feed", False, "duplicate", f"board:{b}/feed", 200),
                pg.feed, b, ctype="application/xml; charset=utf-8")
            self._redirect(u.new_topic(b), "{base}" + u.login())
        add(u.feed(), PageTruth("feed", False, "duplicate", "index/feed", 200), pg.feed, None,
            ctype="application/xml; charset=utf-8")
        for t, tp in self.topics.items():
            self._topic_routes(t, tp)
        for uid, user in self.users.items():
            ent = f"user:{uid}"
            canon = add(u.profile(uid), PageTruth("profile", user.about, "valid", ent, 200,
                                                  topics=(user.interest,)), pg.profile, uid)
            if self.variant == 1:
                add(u.profile_tab(uid), PageTruth("profile", user.about, "duplicate", ent, 200,
                                                  topics=(user.interest,), canonical=canon),
                    pg.profile, uid)
            self._redirect(u.pm(uid), "{base}" + u.login())
            add(u.search("user", uid), PageTruth("search", False, "duplicate", None, 200),
                pg.search, "user", uid)
        self._misc_routes()

    def _topic_routes(self, t: int, tp: Topic) -> None:
        u, pg, add = self.url, self.pages, self._add
        last = self._n_pages(t)
        chunk = self.variant == 1 and t % 5 == 0
        for n in range(1, last + 1):
            ent = f"topic:{t}/page:{n}"
            if t in self.error_topics and n == 2:
                add(u.topic(t, n), PageTruth("error", False, "invalid", None, 500), pg.error)
                continue
            add(u.topic(t, n), PageTruth("topic", True, "valid", ent, 200), pg.topic, t, n,
                chunked=chunk)
        first = u.topic(t)
        ent1 = f"topic:{t}/page:1"
        add(u.print_view(t), PageTruth("print", True, "duplicate", f"topic:{t}", 200,
                                       canonical=first), pg.print_view, t)
        lastp = tp.first_post + tp.n_posts - 1
        if self.variant == 0:
            if t in self.short_linked:
                add(u.topic_short(t), PageTruth("topic", True, "duplicate", ent1, 200,
                                                canonical=first), pg.topic, t, 1)
            page = self.post_page(lastp)
            target = u.topic(t, page)
            if (t not in self.error_topics or page != 2):
                add(u.permalink(lastp), PageTruth("topic", True, "duplicate",
                                                  f"topic:{t}/page:{page}", 200,
                                                  canonical=target), pg.topic, t, page)
            self._redirect(u.reply(t), "./ucp.php?mode=login")
        else:
            self._redirect(u.permalink(lastp), u.topic(t, last).lstrip("/"), valid="duplicate",
                           entity=f"topic:{t}/page:{last}")
            if t in self.old_linked:
                self._redirect(u.old_topic(t), "{base}" + first, status=301, valid="duplicate",
                               entity=ent1)
            if not tp.locked:
                reply = u.reply(t)
                self._redirect(reply, "{base}" + u.login(reply))
                self._add(u.login(reply), PageTruth("login", False, "invalid", "login", 200),
                          self.pages.login)
                for p in range(tp.first_post, tp.first_post + tp.n_posts):
                    if t not in self.error_topics or self.post_page(p) != 2:
                        self._redirect(u.quote_post(p), "login.php?do=login")

    def _misc_routes(self) -> None:
        u, pg, add = self.url, self.pages, self._add
        add(u.login(), PageTruth("login", False, "invalid", "login", 200), pg.login)
        add(u.register(), PageTruth("register", False, "invalid", "register", 200), pg.login)
        self._redirect(u.sso(), "http://sso.example.net/oauth/authorize?client_id=zoo-forum"
                       "&response_type=code")
        add(u.faq(), PageTruth("faq", False, "valid", "faq", 200), pg.faq)
        add(u.team(), PageTruth("error", False, "invalid", None, 500), pg.error)
        ml_truth = (PageTruth("login", False, "invalid", "login", 200) if self.variant == 0
                    else PageTruth("memberlist", False, "valid", "memberlist/page:1", 200))
        add(u.memberlist(), ml_truth, pg.memberlist, 1)
        if self.variant == 1:
            n_pages = -(-len(self.users) // 30)
            for n in range(2, n_pages + 1):
                add(u.memberlist(n), PageTruth("memberlist", False, "valid",
                                               f"memberlist/page:{n}", 200), pg.memberlist, n)
            add(u.memberlist(sort=True), PageTruth("memberlist", False, "duplicate",
                                                   "memberlist/page:1", 200,
                                                   canonical=u.memberlist()),
                pg.memberlist, 1)
        for what in ("unanswered", "active") if self.variant == 0 else ("active",):
            add(u.search(what), PageTruth("search", False, "duplicate", None, 200),
                pg.search, what, 0)
        for n in range(3):
            add(u.attachment(100 + n), PageTruth("error", False, "invalid", None, 404),
                pg.not_found)
        add(u.dead_topic(), PageTruth("error", False, "invalid", None, 404), pg.not_found)
        add(u.soft404_entry(), PageTruth("soft404", False, "invalid", None, 200), pg.soft404)
        for path in self.pages.assets():
            add(path, PageTruth("asset", False, "valid", None, 200), pg.asset, path,
                ctype=pg.asset_type(path))

    def _render_soft404(self, ctx: Ctx) -> str:
        return self.pages.soft404(ctx)

    def _render_not_found(self, ctx: Ctx) -> str:
        return self.pages.not_found(ctx)

    def writer(self, t: int) -> Writer:
        return writer(self.boards[self.topics[t].board].topic)


_NAMES = ("Lounge", "Forums", "Hangout", "Community", "Talk", "Board", "Network")
_SUBS = ("Showcase", "Buy and Sell", "Beginners", "Troubleshooting", "Events", "Archive")


def _board_title(topic: str, i: int) -> str:
    forms = ("{T} Discussion", "{T} Talk", "The {T} Corner", "{T} General", "{T} Help",
             "All about {t}")
    return forms[i % len(forms)].format(T=topic.capitalize(), t=topic)

