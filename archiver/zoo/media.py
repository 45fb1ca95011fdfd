"""Media-sharing family (variant 0 Flickr-like, variant 1 500px-like): list pages of
thumbnails with uploader names, detail pages with one item and its tags, and profile pages
with the uploader's sets, tags and contacts (profile-focused paper §3.2). Uploaders mostly
upload items of their interests, contacts mostly share them, and tags co-occur within a
topic, so profile ranking (§5) and cotagging topic expansion (§6) have something to find.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from archiver.zoo.site import Ctx, PageTruth, Site
from archiver.zoo.text import TOPICS, rng_for, slugify, username, weighted_pick, writer

MEDIA_TOPICS = ("flowers", "city", "animals", "food", "travel", "cars")
CAMERA_TAGS = ("nikon", "canon", "sony", "iphone", "35mm", "bw", "hdr", "2015", "2016", "2017")


@dataclass(slots=True)
class Uploader:
    id: int
    name: str
    interests: tuple[str, ...]
    about: bool
    contacts: list[int] = field(default_factory=list)
    sets: list[int] = field(default_factory=list)
    items: list[int] = field(default_factory=list)


@dataclass(slots=True)
class Item:
    id: int
    owner: int
    topic: str
    title: str
    tags: tuple[str, ...]
    set_id: int | None
    views: int
    faves: int


@dataclass(slots=True)
class PhotoSet:
    id: int
    owner: int
    title: str
    topic: str
    items: list[int] = field(default_factory=list)


class MediaScheme:
    """URL scheme of one variant."""

    def __init__(self, site: MediaSite) -> None:
        self.s = site
        self.v = site.variant

    def _user(self, u: int) -> str:
        return self.s.users[u].name

    def explore(self, n: int = 1, fresh: bool = False) -> str:
        if self.v == 0:
            base = "/explore/recent/" if fresh else "/explore/"
            return base + (f"page{n}" if n > 1 else "")
        return ("/fresh" if fresh else "/popular") + (f"?page={n}" if n > 1 else "")

    def tag(self, t: str, n: int = 1) -> str:
        if self.v == 0:
            return f"/photos/tags/{t}/" + (f"?page={n}" if n > 1 else "")
        return f"/tag/{t}" + (f"?page={n}" if n > 1 else "")

    def tags(self) -> str:
        return "/photos/tags/" if self.v == 0 else "/tags"

    def item(self, i: int) -> str:
        it = self.s.items[i]
        if self.v == 0:
            return f"/photos/{self._user(it.owner)}/{i}/"
        return f"/photo/{i}/{slugify(it.title, 40)}"

    def item_in_set(self, i: int) -> str:
        it = self.s.items[i]
        if self.v == 0:
            return self.item(i) + f"in/set-{it.set_id}/"
        return self.item(i) + f"?ctx=gallery-{it.set_id}"

    def sizes(self, i: int) -> str:
        return self.item(i) + ("sizes/l/" if self.v == 0 else "/fullscreen")

    def fave(self, i: int) -> str:
        return self.item(i) + ("fave" if self.v == 0 else "/like")

    def profile(self, u: int) -> str:
        return f"/people/{self._user(u)}/" if self.v == 0 else f"/{self._user(u)}"

    def stream(self, u: int, n: int = 1) -> str:
        if self.v == 0:
            return f"/photos/{self._user(u)}/" + (f"page{n}/" if n > 1 else "")
        return f"/{self._user(u)}/photos" + (f"?page={n}" if n > 1 else "")

    def sets(self, u: int) -> str:
        return f"/photos/{self._user(u)}/albums/" if self.v == 0 else f"/{self._user(u)}/galleries"

    def photoset(self, sid: int) -> str:
        ps = self.s.sets[sid]
        if self.v == 0:
            return f"/photos/{self._user(ps.owner)}/albums/{sid}/"
        return f"/{self._user(ps.owner)}/galleries/{slugify(ps.title)}"

    def contacts(self, u: int) -> str:
        if self.v == 0:
            return f"/people/{self._user(u)}/contacts/"
        return f"/{self._user(u)}/following"

    def feed(self, u: int) -> str:
        return (f"/services/feeds/photos_public.gne?id={u}" if self.v == 0 else
                f"/{self._user(u)}/rss")

    def signin(self) -> str:
        return "/signin/" if self.v == 0 else "/login"

    def search(self, t: str) -> str:
        return f"/search/?text={t}" if self.v == 0 else f"/search?q={t}"

    def missing(self, u: int) -> str:
        return (f"/photos/{self._user(u)}/1/" if self.v == 0 else "/photo/1/deleted")

    def soft404_entry(self) -> str:
        return "/groups/nature/" if self.v == 0 else "/community/nature/"


class MediaSite(Site):
    """A generated media-sharing site. See the module docstring."""

    family = "media"
    target_types: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "detail": ("detail",), "profile": ("profile",), "list": ("list",)}

    def _configure(self) -> None:
        self.soft404_prefix = "/groups/" if self.variant == 0 else "/community/"
        self.robots_disallow = ("/search/", "/signin/") if self.variant == 0 else \
            ("/search", "/login")

    def _build(self) -> None:
        k, v = self.scale, self.variant
        rng = rng_for(self.seed, "media", v, "model")
        self.url = MediaScheme(self)
        self.name = "Flickery" if v == 0 else "PixelCrowd"
        self.per_page = 24 if v == 0 else 20
        self.users: dict[int, Uploader] = {}
        names: set[str] = set()
        for i in range(14 + 12 * k):
            name = username(rng).lower()
            while name in names or name in _RESERVED:
                name += "x"
            names.add(name)
            first = rng.choice(MEDIA_TOPICS)
            interests = (first,) if rng.random() < 0.6 else (first, rng.choice(MEDIA_TOPICS))
            uid = 1000 + 17 * i
            self.users[uid] = Uploader(uid, name, tuple(dict.fromkeys(interests)),
                                       rng.random() < 0.7)
        uids = list(self.users)
        for user in self.users.values():       # contacts mostly share an interest
            same = [x for x in uids if x != user.id and
                    set(self.users[x].interests) & set(user.interests)]
            other = [x for x in uids if x != user.id and x not in same]
            n = rng.randint(2, 8)
            pick = rng.sample(same, min(len(same), int(n * 0.75)))
            pick += rng.sample(other, min(len(other), n - len(pick)))
            user.contacts = sorted(pick)
        self.sets: dict[int, PhotoSet] = {}
        sid = 72157600000000000 % 1000000 + 1
        for user in self.users.values():
            for topic in user.interests:
                for _ in range(rng.randint(1, 2)):
                    sid += rng.randint(1, 9)
                    title = f"{rng.choice(TOPICS[topic]).capitalize()} {rng.choice(_SET_WORDS)}"
                    self.sets[sid] = PhotoSet(sid, user.id, title, topic)
                    user.sets.append(sid)
        self.items: dict[int, Item] = {}
        iid = 5000000000 % 10000000 + 100
        for _ in range(40 + 56 * k):
            iid += rng.randint(1, 40)
            owner = weighted_pick(rng, uids, 0.4)
            user = self.users[owner]
            # uploaders mostly upload items of their interests (profile-focused §5.1)
            topic = rng.choice(user.interests) if rng.random() < 0.85 else rng.choice(MEDIA_TOPICS)
            terms = TOPICS[topic]
            tags = [topic, *rng.sample(terms, rng.randint(2, 6))]
            if rng.random() < 0.5:
                tags.append(rng.choice(CAMERA_TAGS))
            if rng.random() < 0.06:             # a misleading tag from another topic
                tags.append(rng.choice(TOPICS[rng.choice(MEDIA_TOPICS)]))
            sets = [s for s in user.sets if self.sets[s].topic == topic]
            set_id = rng.choice(sets) if sets and rng.random() < 0.7 else None
            self.items[iid] = Item(iid, owner, topic, writer(topic).title(rng)[:60],
                                   tuple(dict.fromkeys(tags)), set_id, rng.randint(10, 30000),
                                   rng.randint(0, 300))
            user.items.append(iid)
            if set_id is not None:
                self.sets[set_id].items.append(iid)
        self.order = sorted(self.items, reverse=True)
        self.popular = sorted(self.items, key=lambda i: (-self.items[i].faves, i))
        self.tag_index: dict[str, list[int]] = {}
        for i in self.order:
            for t in self.items[i].tags:
                self.tag_index.setdefault(t, []).append(i)
        self.sizes_errors = {i for i in self.items if i % 53 == 11}
        from archiver.zoo.media_pages import MediaPages
        self.pages = MediaPages(self)
        self._routes_all()

    def n_pages(self, n: int) -> int:
        return max(1, -(-n // self.per_page))

    def user_tags(self, u: int) -> list[str]:
        counts: dict[str, int] = {}
        for i in self.users[u].items:
            for t in self.items[i].tags:
                counts[t] = counts.get(t, 0) + 1
        return sorted(counts, key=lambda t: (-counts[t], t))[:20]

    def _routes_all(self) -> None:
        u, pg, add, redirect = self.url, self.pages, self._add, self._redirect
        add("/", PageTruth("home", False, "valid", "home", 200), pg.home)
        for fresh in (False, True):
            for n in range(1, self.n_pages(len(self.order)) + 1):
                ent = f"explore/page:{n}"
                add(u.explore(n, fresh), PageTruth("list", False, "duplicate" if fresh else "valid",
                                                   ent, 200, canonical=u.explore(n) if fresh
                                                   else None), pg.explore, n, fresh)
        add(u.tags(), PageTruth("tags", False, "valid", "tags", 200), pg.tag_cloud)
        for t, items in self.tag_index.items():
            for n in range(1, self.n_pages(len(items)) + 1):
                add(u.tag(t, n), PageTruth("list", False, "valid", f"tag:{t}/page:{n}", 200,
                                           topics=_topics_of(t)), pg.tag, t, n)
        for i, it in self.items.items():
            ent = f"item:{i}"
            truth = PageTruth("detail", True, "valid", ent, 200, topics=(it.topic,), tags=it.tags)
            canon = add(u.item(i), truth, pg.detail, i, chunked=self.variant == 1 and i % 5 == 0)
            dup = PageTruth("detail", True, "duplicate", ent, 200, topics=(it.topic,),
                            tags=it.tags, canonical=canon)
            if it.set_id is not None:
                add(u.item_in_set(i), dup, pg.detail, i)
            if i in self.sizes_errors:
                add(u.sizes(i), PageTruth("error", False, "invalid", None, 500), pg.error)
            else:
                add(u.sizes(i), PageTruth("sizes", False, "duplicate", ent, 200,
                                          topics=(it.topic,), canonical=canon), pg.sizes, i)
            redirect(u.fave(i), u.signin() if self.variant == 0 else "{base}" + u.signin())
        for uid, user in self.users.items():
            topics = user.interests
            add(u.profile(uid), PageTruth("profile", user.about, "valid", f"user:{uid}", 200,
                                          topics=topics, tags=tuple(self.user_tags(uid))),
                pg.profile, uid)
            for n in range(1, self.n_pages(len(user.items)) + 1):
                add(u.stream(uid, n), PageTruth("list", False, "valid",
                                                f"stream:{uid}/page:{n}", 200, topics=topics),
                    pg.stream, uid, n)
            add(u.sets(uid), PageTruth("sets", False, "valid", f"sets:{uid}", 200,
                                       topics=topics), pg.sets, uid)
            add(u.contacts(uid), PageTruth("contacts", False, "valid", f"contacts:{uid}", 200,
                                           topics=topics), pg.contacts, uid)
            add(u.feed(uid), PageTruth("feed", False, "duplicate", f"stream:{uid}/feed", 200),
                pg.feed, uid, ctype="application/atom+xml; charset=utf-8")
        for sid, ps in self.sets.items():
            add(u.photoset(sid), PageTruth("list", False, "valid", f"set:{sid}", 200,
                                           topics=(ps.topic,)), pg.photoset, sid)
        if self.variant == 0:
            redirect(u.signin(), "https://login.example.net/config/login?.src=flickery")
        else:
            add(u.signin(), PageTruth("login", False, "invalid", "login", 200), pg.login)
        for t in MEDIA_TOPICS[:3]:
            add(u.search(t), PageTruth("search", False, "duplicate", None, 200), pg.tag, t, 1)
        add(u.missing(next(iter(self.users))), PageTruth("error", False, "invalid", None, 404),
            pg.not_found)
        add(u.soft404_entry(), PageTruth("soft404", False, "invalid", None, 200), pg.soft404)
        add("/css/site.css", PageTruth("asset", False, "valid", None, 200), pg.asset,
            ctype="text/css")

    def _render_soft404(self, ctx: Ctx) -> str:
        return self.pages.soft404(ctx)

    def _render_not_found(self, ctx: Ctx) -> str:
        return self.pages.not_found(ctx)


_RESERVED = {"popular", "fresh", "tags", "tag", "photo", "login", "search", "community", "css"}
_SET_WORDS = ("collection", "series", "walks", "days", "diary", "favourites", "project", "trip")


def _topics_of(tag: str) -> tuple[str, ...]:
    """The topical vocabularies a tag belongs to."""
    return tuple(t for t in MEDIA_TOPICS if tag == t or tag in TOPICS[t])
