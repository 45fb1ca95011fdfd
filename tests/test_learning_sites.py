"""Synthetic but realistic forum sites for the learning tests, and a tiny sampling loop.

`Forum` renders phpBB-like pages (shared chrome, page types with their own templates,
varying lengths, optional blocks) from a seed, and knows every page's type. `sample_site`
plays the crawl loop for `SiteSampler` without any network: it fetches from the generator.
The other tests/test_learning_*.py modules import these helpers.
"""

from __future__ import annotations

import heapq
import itertools
import random
import zlib
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

from archiver.learning.features import leaf_xpaths, signature
from archiver.learning.sampling import SiteSampler
from archiver.page import Page, parse_html

HOST = "http://forum.test"
UCC_TYPES = {"topic", "profile"}
WORDS = ("crawler", "archive", "forum", "thread", "reply", "moderator", "board", "topic",
         "member", "post", "quote", "lorem", "ipsum", "dolor", "sit", "amet", "consectetur",
         "adipiscing", "elit", "sed", "do", "eiusmod", "tempor", "incididunt", "labore",
         "dolore", "magna", "aliqua", "enim", "minim", "veniam", "quis", "nostrud")


def _words(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


@dataclass
class Forum:
    """A generated forum: boards, topics with 1–4 pages of posts, users, and the usual
    worthless pages (login walls behind every action link, print views, static pages)."""

    seed: int = 0
    n_boards: int = 5
    n_topics: int = 120
    n_users: int = 40
    per_page: int = 8
    # topic → (board, number of posts, author)
    topics: dict[int, tuple[int, int, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        rng = random.Random(self.seed)
        for t in range(self.n_topics):
            self.topics[t] = (rng.randrange(self.n_boards), 1 + int(rng.expovariate(1 / 9)),
                              rng.randrange(self.n_users))

    # --- truth -----------------------------------------------------------------------------
    def page_type(self, url: str) -> str | None:
        """The page type of a URL, None if the site has no such page."""
        path = urlsplit(url).path
        parts = path.strip("/").split("/")
        if path == "/":
            return "index"
        if parts[0] == "board" and len(parts) == 2:
            return "board"
        if parts[0] == "topic" and len(parts) == 3 and parts[2] == "print":
            return "print"
        if parts[0] == "topic" and len(parts) == 2:
            return "topic"
        if parts[0] == "user" and len(parts) == 2:
            return "profile"
        if parts[0] in ("login", "post", "report"):
            return "login"
        if parts[0] in ("faq", "terms", "privacy", "register", "search"):
            return "static"
        return None

    # --- rendering -------------------------------------------------------------------------
    def fetch(self, url: str) -> Page | None:
        """Parse the page at `url`, None for unknown URLs (404)."""
        html = self.render(url)
        return None if html is None else parse_html(url, html.encode())

    def render(self, url: str) -> str | None:
        """The HTML at `url`, or None."""
        kind = self.page_type(url)
        if kind is None:
            return None
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        rng = random.Random(zlib.crc32(f"{self.seed}:{url}".encode()))
        segs = parts.path.strip("/").split("/")
        page = int(query.get("page", ["1"])[0])
        if kind == "index":
            return self._chrome(rng, "Board index", self._index(rng), url)
        if kind == "board":
            return self._chrome(rng, "Board", self._board(rng, int(segs[1]), page), url)
        if kind == "topic":
            return self._chrome(rng, "Topic", self._topic(rng, int(segs[1]), page), url)
        if kind == "print":
            return self._print(int(segs[1]))
        if kind == "profile":
            return self._chrome(rng, "Profile", self._profile(rng, int(segs[1])), url)
        if kind == "login":
            return self._chrome(rng, "Login", self._login(), url)
        return self._chrome(rng, segs[0].title(), self._static(rng, segs[0]), url)

    def _chrome(self, rng: random.Random, title: str, body: str, url: str) -> str:
        here = urlsplit(url).path
        notice = (f'<div class="announce"><p>{_words(rng, 12)}</p></div>'
                  if rng.random() < 0.3 else "")
        return (
            f"<!DOCTYPE html><html><head><title>{title}</title>"
            '<link rel="stylesheet" href="/style.css"><script src="/app.js"></script></head>'
            '<body class="forum"><div id="wrap"><div id="header">'
            '<a class="logo" href="/"><img src="/logo.png" alt=""></a><h1>Test forum</h1>'
            '<ul class="nav"><li><a href="/faq">FAQ</a></li>'
            f'<li><a class="login" href="/login?from={here}">Login</a></li>'
            '<li><a href="/register">Register</a></li><li><a href="/search">Search</a></li></ul>'
            '<div class="breadcrumbs"><a href="/">Board index</a></div></div>'
            f'{notice}<div id="content">{body}</div>'
            '<div id="footer"><a href="/terms">Terms</a> <a href="/privacy">Privacy</a>'
            "<p>Powered by a test forum</p></div></div></body></html>")

    def _user(self, u: int) -> str:
        return f'<a class="username" href="/user/{u}">user{u}</a>'

    def _index(self, rng: random.Random) -> str:
        rows = []
        for b in range(self.n_boards):
            last = max((t for t, v in self.topics.items() if v[0] == b), default=0)
            rows.append(
                f'<tr><td class="icon"><img src="/board.png" alt=""></td>'
                f'<td><a class="forumtitle" href="/board/{b}">Board {b}</a>'
                f'<p class="desc">{_words(rng, 8)}</p></td><td class="stats">{b * 7} topics</td>'
                f'<td class="lastpost"><a class="lastsubject" href="/topic/{last}">last</a> by '
                f"{self._user(self.topics[last][2])}</td></tr>")
        online = ", ".join(self._user(u) for u in range(0, self.n_users, 7))
        return (f'<table class="forums">{"".join(rows)}</table>'
                f'<div class="online"><h3>Who is online</h3><p>{online}</p></div>')

    def _pager(self, base: str, page: int, last: int) -> str:
        if last <= 1:
            return ""
        links = "".join(f'<a class="page" href="{base}?page={p}">{p}</a>'
                        for p in range(1, last + 1) if p != page)
        return f'<div class="pagination">{links}</div>'

    def _board(self, rng: random.Random, b: int, page: int) -> str:
        mine = [t for t, v in self.topics.items() if v[0] == b]
        last = max(1, -(-len(mine) // 15))
        rows = "".join(
            f'<li class="row"><dl><dt><a class="topictitle" href="/topic/{t}">{_words(rng, 5)}'
            f"</a><br>by {self._user(self.topics[t][2])}</dt>"
            f'<dd class="posts">{self.topics[t][1]}</dd></dl></li>'
            for t in mine[(page - 1) * 15 : page * 15])
        return (f'<h2>Board {b}</h2><a class="button newtopic" href="/post?mode=new&amp;b={b}">'
                f'New topic</a><ul class="topiclist">{rows}</ul>'
                + self._pager(f"/board/{b}", page, last))

    def _topic(self, rng: random.Random, t: int, page: int) -> str:
        board, n_posts, author = self.topics[t]
        last = max(1, -(-n_posts // self.per_page))
        posts = []
        first = (page - 1) * self.per_page
        for i in range(first, min(n_posts, first + self.per_page)):
            u = author if i == 0 else (t * 31 + i * 7) % self.n_users
            paras = "".join(f"<p>{_words(rng, rng.randint(8, 60))}</p>"
                            for _ in range(rng.randint(1, 6)))
            if rng.random() < 0.2:
                quote = f"<cite>user{u}</cite><p>{_words(rng, 10)}</p>"
                paras = f"<blockquote>{quote}</blockquote>{paras}"
            if rng.random() < 0.15:
                paras += f'<p>see <a href="/topic/{rng.randrange(self.n_topics)}">this</a></p>'
            if rng.random() < 0.1:
                paras += "<ul>" + "".join(f"<li>{_words(rng, 4)}</li>" for _ in range(3)) + "</ul>"
            sig = f'<div class="signature">{_words(rng, 6)}</div>' if rng.random() < 0.4 else ""
            posts.append(
                f'<div class="post"><div class="postprofile">{self._user(u)}'
                f"<dd>Posts: {u * 3}</dd></div><div class=\"postbody\"><h3>Re: topic {t}</h3>"
                f'<div class="content">{paras}</div>{sig}<ul class="post-buttons">'
                f'<li><a class="button quote" href="/post?mode=quote&amp;p={t * 100 + i}">'
                "Quote</a></li>"
                f'<li><a class="button report" href="/report?p={t * 100 + i}">Report</a></li>'
                "</ul>"
                "</div></div>")
        return (f'<h2>Topic {t}</h2><a class="button reply" href="/post?mode=reply&amp;t={t}">'
                f'Post a reply</a> <a class="print" href="/topic/{t}/print">Print view</a>'
                f'<a class="back" href="/board/{board}">Back to board</a>'
                + "".join(posts) + self._pager(f"/topic/{t}", page, last))

    def _print(self, t: int) -> str:
        rng = random.Random(t)
        posts = "".join(f"<div><b>user{i}</b><p>{_words(rng, 20)}</p></div>"
                        for i in range(self.topics[t][1]))
        return (f"<html><head><title>Print</title></head><body><h1>Topic {t}</h1>{posts}"
                "</body></html>")

    def _profile(self, rng: random.Random, u: int) -> str:
        mine = [t for t, v in self.topics.items() if v[2] == u][:10]
        recent = "".join(f'<li><a class="topictitle" href="/topic/{t}">topic {t}</a></li>'
                         for t in mine)
        fields = "".join(f"<dt>{k}</dt><dd>{_words(rng, rng.randint(1, 5))}</dd>"
                         for k in ("Joined", "Location", "Interests", "Occupation")[
                             : rng.randint(2, 4)])
        about = "".join(f"<p>{_words(rng, 15)}</p>" for _ in range(rng.randint(0, 3)))
        about = f'<div class="about">{about}</div>'
        return (f'<h2>user{u}</h2><dl class="details">{fields}</dl>{about}'
                f'<h3>Recent topics</h3><ul class="recent">{recent}</ul>'
                f'<a class="button contact" href="/post?mode=pm&amp;u={u}">Send message</a>')

    def _login(self) -> str:
        return ('<h2>Login</h2><form method="post" action="/login"><fieldset>'
                '<label>Username <input type="text" name="username"></label>'
                '<label>Password <input type="password" name="password"></label>'
                '<input type="submit" value="Login"></fieldset></form>'
                '<p>You need to be registered to do this.</p><a href="/register">Register</a>')

    def _static(self, rng: random.Random, name: str) -> str:
        return f"<h2>{name}</h2>" + "".join(f"<h3>{_words(rng, 3)}</h3><p>{_words(rng, 40)}</p>"
                                            for _ in range(rng.randint(2, 8)))


@dataclass
class Sample:
    """What `sample_site` collected: the sampler, pages in fetch order, and their bags."""

    sampler: SiteSampler
    pages: dict[str, Page]
    urls: list[str]
    bags: list[dict[str, int]]


def sample_site(site: Forum, sampler: SiteSampler, seeds: tuple[str, ...] = (f"{HOST}/",),
                ) -> Sample:
    """Play the crawl loop for the sampler: priority order, FIFO among equals."""
    sampler.add_seeds(seeds)
    counter = itertools.count()
    heap = [(0.0, next(counter), url) for url in seeds]
    pages: dict[str, Page] = {}
    bags: dict[str, dict[str, int]] = {}
    while heap and not sampler.done:
        _, _, url = heapq.heappop(heap)
        if not sampler.still_wanted(url):
            continue
        page = site.fetch(url)
        if page is None or page.tree is None:
            sampler.add_failure(url)
            continue
        pages[url] = page
        bags[url] = dict(leaf_xpaths(page.tree))
        links = [link for link in page.links
                 if link.kind == "link" and link.url.startswith(HOST)]
        for req in sampler.add_page(url, links, signature=signature(bags[url])):
            heapq.heappush(heap, (-req.priority, next(counter), req.url))
    urls = list(pages)
    return Sample(sampler, pages, urls, [bags[u] for u in urls])


def test_forum_generator_is_deterministic_and_typed() -> None:
    a, b = Forum(seed=3), Forum(seed=3)
    for path in ("/", "/board/1", "/topic/5", "/topic/5?page=2", "/user/2", "/login?from=/"):
        assert a.render(HOST + path) == b.render(HOST + path)
        assert a.page_type(HOST + path) is not None
    assert a.page_type(HOST + "/nowhere") is None
    assert a.fetch(HOST + "/nowhere") is None


def test_sample_site_visits_every_page_type() -> None:
    s = sample_site(Forum(seed=1), SiteSampler(300, random_state=0))
    kinds = {Forum(seed=1).page_type(u) for u in s.urls}
    assert kinds == {"index", "board", "topic", "print", "profile", "login", "static"}
