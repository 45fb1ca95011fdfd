"""URL schemes of the two forum variants: phpBB-like query URLs (`viewtopic.php?f=2&t=5`)
and vBulletin-like friendly URLs (`/threads/5-title/page2`); every URL the site registers or
links is built here, so registration and rendering cannot disagree."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import quote, urlencode

from archiver.zoo.text import slugify

if TYPE_CHECKING:
    from archiver.zoo.forum import ForumSite


class ForumScheme:
    """URL scheme of one variant: root-relative paths as the site registers them."""

    def __init__(self, site: ForumSite) -> None:
        self.s = site
        self.v = site.variant

    def index(self) -> str:
        return "/"

    def index_dup(self) -> str:
        return "/index.php" if self.v == 0 else "/forum.php"

    def board(self, b: int, page: int = 1, sort: str = "") -> str:
        if self.v == 0:
            q = f"/viewforum.php?f={b}"
            q += {"": "", "subject": "&sk=s&sd=a", "replies": "&sk=r&sd=d"}[sort]
            return q + (f"&start={(page - 1) * self.s.topics_per_page}" if page > 1 else "")
        base = f"/forums/{b}-{slugify(self.s.boards[b].title)}/"
        path = base + (f"page{page}" if page > 1 else "")
        return path + {"": "", "subject": "?sort=title&order=asc",
                       "replies": "?sort=replycount&order=desc"}[sort]

    def topic(self, t: int, page: int = 1) -> str:
        tp = self.s.topics[t]
        if self.v == 0:
            start = f"&start={(page - 1) * self.s.posts_per_page}" if page > 1 else ""
            return f"/viewtopic.php?f={tp.board}&t={t}{start}"
        base = f"/threads/{t}-{slugify(tp.title)}/"
        return base + (f"page{page}" if page > 1 else "")

    def topic_short(self, t: int) -> str:
        """v0: the f-less form search results and profiles use (a duplicate)."""
        return f"/viewtopic.php?t={t}"

    def permalink(self, p: int) -> str:
        if self.v == 0:
            return f"/viewtopic.php?p={p}"
        return f"/showthread.php?t={self.s.post_topic[p]}&goto=lastpost"

    def dead_topic(self) -> str:
        """A topic that was deleted but is still linked from posts."""
        t = self.s.dead_topic
        if self.v == 0:
            return f"/viewtopic.php?f={next(iter(self.s.boards))}&t={t}"
        return f"/threads/{t}-deleted-thread/"

    def old_topic(self, t: int) -> str:
        """v1: the pre-friendly-URL scheme, answered by a 301."""
        return f"/showthread.php?t={t}"

    def print_view(self, t: int) -> str:
        tp = self.s.topics[t]
        if self.v == 0:
            return f"/viewtopic.php?f={tp.board}&t={t}&view=print"
        return f"/printthread.php?t={t}"

    def profile(self, u: int) -> str:
        if self.v == 0:
            return f"/memberlist.php?mode=viewprofile&u={u}"
        return f"/members/{u}-{slugify(self.s.users[u].name)}/"

    def profile_tab(self, u: int) -> str:
        return self.profile(u) + "?tab=aboutme"

    def memberlist(self, page: int = 1, sort: bool = False) -> str:
        if self.v == 0:
            return "/memberlist.php" + ("?sk=d&sd=d" if sort else "")
        q = [("page", str(page))] if page > 1 else []
        q += [("order", "desc"), ("sort", "posts")] if sort else []
        return "/memberlist.php" + ("?" + urlencode(q) if q else "")

    def login(self, redirect: str = "") -> str:
        if self.v == 0:
            base = "/ucp.php?mode=login"
            return base + (f"&redirect={quote('.' + redirect, safe='')}" if redirect else "")
        base = "/login.php?do=login"
        return base + (f"&url={quote(redirect, safe='')}" if redirect else "")

    def register(self) -> str:
        return "/ucp.php?mode=register" if self.v == 0 else "/register.php"

    def sso(self) -> str:
        if self.v == 0:
            return "/ucp.php?mode=login&login=external&oauth_service=exampleid"
        return "/login.php?do=sso&provider=exampleid"

    def reply(self, t: int) -> str:
        tp = self.s.topics[t]
        if self.v == 0:
            return f"/posting.php?mode=reply&f={tp.board}&t={t}"
        return f"/newreply.php?t={t}&noquote=1"

    def quote_post(self, p: int) -> str:
        if self.v == 0:
            return f"/posting.php?mode=quote&f={self.s.topics[self.s.post_topic[p]].board}&p={p}"
        return f"/newreply.php?do=newreply&p={p}"

    def new_topic(self, b: int) -> str:
        if self.v == 0:
            return f"/posting.php?mode=post&f={b}"
        return f"/newthread.php?do=newthread&f={b}"

    def pm(self, u: int) -> str:
        if self.v == 0:
            return f"/ucp.php?i=pm&mode=compose&u={u}"
        return f"/private.php?do=newpm&u={u}"

    def feed(self, b: int | None = None) -> str:
        if self.v == 0:
            return "/feed.php" + (f"?f={b}" if b is not None else "")
        return "/external.php?type=RSS2" + (f"&forumids={b}" if b is not None else "")

    def search(self, what: str, u: int = 0) -> str:
        if self.v == 0:
            return {"unanswered": "/search.php?search_id=unanswered",
                    "active": "/search.php?search_id=active_topics",
                    "user": f"/search.php?author_id={u}&sr=posts"}[what]
        return {"unanswered": "/search.php?do=process&replyless=1",
                "active": "/search.php?do=getnew",
                "user": f"/search.php?do=finduser&userid={u}"}[what]

    def faq(self) -> str:
        return "/faq.php" if self.v == 0 else "/faq.php?faq=vb3_board_faq"

    def team(self) -> str:
        return "/memberlist.php?mode=team" if self.v == 0 else "/showgroups.php"

    def attachment(self, n: int) -> str:
        return f"/download/file.php?id={n}" if self.v == 0 else f"/attachment.php?attachmentid={n}"

    def soft404_entry(self) -> str:
        return "/help/rules/" if self.v == 0 else "/content/news/"
