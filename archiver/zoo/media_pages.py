"""Media-sharing themes: variant 0 Flickr-like (photo-list-photo-view, photo-page-scrappy-
view, relative "sizes/l/" links), variant 1 500px-like (photo_card grid, React-ish classes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from archiver.zoo.markup import a, ad_block, attr, document, esc, maybe, pager, spice
from archiver.zoo.site import Ctx
from archiver.zoo.text import body_length, rng_for, writer

if TYPE_CHECKING:
    from archiver.zoo.media import MediaSite

STATIC = "https://live.static.flickery.example/65535/"
STATIC1 = "https://drscdn.pixelcrowd.example/photo/"


class MediaPages:
    """Renders both media themes."""

    def __init__(self, site: MediaSite) -> None:
        self.s = site
        self.u = site.url
        self.v = site.variant

    def img(self, i: int, size: str) -> str:
        if self.v == 0:
            return f"{STATIC}{i}_{(i * 2654435761) % 16**10:010x}_{size}.jpg"
        return f"{STATIC1}{i}/{size}/{(i * 40503) % 10**8}.jpg"

    def card(self, i: int, via_set: bool = False) -> str:
        """A list-page thumbnail with the title and the uploader's name below it."""
        s, u = self.s, self.u
        it = s.items[i]
        href = u.item_in_set(i) if via_set else u.item(i)
        owner = s.users[it.owner].name
        if self.v == 0:
            return (f'<div class="photo-list-photo-view"><div class="interaction-view"><div '
                    f'class="photo-list-photo-interaction"><a class="overlay" href="{attr(href)}" '
                    f'aria-label="{attr(it.title)} by {attr(owner)}"><img src="{self.img(i, "n")}" '
                    f'alt="" width="320" height="213"></a><div class="interaction-bar"><div class='
                    f'"text">{a(href, it.title, "title")}{a(u.stream(it.owner), "by " + owner, "attribution")}'  # noqa: E501
                    f'</div><span class="engagement-item fave">{it.faves}</span></div></div></div>'
                    "</div>")
        return (f'<div class="photo_card" data-id="{i}"><a class="photo_link" href="{attr(href)}">'
                f'<img class="photo_thumbnail" src="{self.img(i, "21")}" alt="{attr(it.title)}">'
                f'</a><div class="photo_info"><a class="photo_title" href="{attr(href)}">'
                f'{esc(it.title)}</a><a class="user_link" href="{attr(u.profile(it.owner))}">'
                f"{esc(owner)}</a></div></div>")

    def grid(self, items: list[int], n: int, url: object, via_set: bool = False) -> str:
        per = self.s.per_page
        last = max(1, -(-len(items) // per))
        cards = "".join(self.card(i, via_set) for i in items[(n - 1) * per: n * per])
        nav = pager(url, n, last, cls="pagination-view" if self.v == 0 else "pagination",  # type: ignore[arg-type]
                    tag="div", prev_text="‹ Prev", next_text="Next ›")
        cls = "view photo-list-view" if self.v == 0 else "photo_grid"
        return f'<div class="{cls}">{cards}</div>{nav}'

    def shell(self, ctx: Ctx, title: str, main: str, robots: str = "") -> str:
        s, u = self.s, self.u
        rng = rng_for(s.seed, "media-chrome", ctx.url)
        ad = maybe(rng, 0.35, lambda: ad_block(rng, "ad-container"))
        topics = " ".join(a(u.tag(t), t, "tag-link") for t in ("flowers", "city", "animals"))
        if self.v == 0:
            body = (f'<div id="global-nav" class="global-nav-view"><div class="global-nav-content">'
                    f'<a href="/" class="logo">{esc(s.name)}</a><ul class="nav-menu">'
                    f'<li>{a(u.explore(), "Explore")}</li>'
                    f'<li>{a(u.explore(1, True), "Recent photos")}'
                    f'</li><li>{a(u.tags(), "Tags")}</li></ul><ul class="nav-user"><li>'
                    f'{a(u.signin(), "Log In", "gn-signin")}</li></ul></div></div>'
                    f'<div id="content" class="main fluid-centered">{main}</div>{ad}'
                    f'<footer class="foot"><div class="footer-container"><p>Popular: {topics}</p>'
                    f'<ul class="footer-links"><li>{a(u.soft404_entry(), "Groups")}</li>'
                    '<li><a href="https://help.flickery.example/">Help</a></li></ul></div></footer>')
        else:
            body = (f'<header class="Header__Container"><a class="Header__Logo" href="/">'
                    f'{esc(s.name)}</a><nav class="Header__Nav">{a(u.explore(), "Popular")} '
                    f'{a(u.explore(1, True), "Fresh")} {a(u.tags(), "Tags")} '
                    f'{a(u.signin(), "Log in", "Header__Login")}</nav></header><main class="Main__'
                    f'Container">{main}</main>{ad}<footer class="Footer__Container"><p>{topics}</p>'
                    f'{a(u.soft404_entry(), "Community")}</footer>')
        head = f'<meta name="robots" content="{robots}">' if robots else ""
        return document(f"{title} | {s.name}", body, css=["/css/site.css"], head_extra=head)

    # -- list pages -------------------------------------------------------------------
    def home(self, ctx: Ctx) -> str:
        s, u = self.s, self.u
        main = ("<h1>Find your inspiration.</h1>" + self.grid(s.popular[:12], 1, lambda i: "/")
                + f'<p class="more">{a(u.explore(), "Explore more")}</p>')
        return self.shell(ctx, "Home", main)

    def explore(self, ctx: Ctx, n: int, fresh: bool) -> str:
        s, u = self.s, self.u
        items = s.order if fresh else s.popular
        title = "Recent uploads" if fresh else "Explore"
        return self.shell(ctx, title, f"<h1>{title}</h1>" + self.grid(
            items, n, lambda i: u.explore(i, fresh)))

    def tag(self, ctx: Ctx, t: str, n: int) -> str:
        items = self.s.tag_index.get(t, [])
        return self.shell(ctx, f"Photos tagged {t}", f'<h1 class="tag-title">#{esc(t)}</h1>'
                          + self.grid(items, n, lambda i: self.u.tag(t, i)))

    def tag_cloud(self, ctx: Ctx) -> str:
        s = self.s
        tags = sorted(s.tag_index, key=lambda t: (-len(s.tag_index[t]), t))
        cloud = " ".join(a(self.u.tag(t), t, f"tag size{min(6, len(s.tag_index[t]) // 4)}")
                         for t in tags)
        search = " · ".join(a(self.u.search(t), "search " + t) for t in ("flowers", "city",
                                                                          "animals"))
        return self.shell(ctx, "Popular tags", f'<h1>Popular tags</h1><p class="tag-cloud">{cloud}'
                          f'</p><p class="searches">{search}</p>')

    def stream(self, ctx: Ctx, uid: int, n: int) -> str:
        s, u = self.s, self.u
        user = s.users[uid]
        head = (f'<div class="photostream-header"><h1>{esc(user.name)}’s photostream</h1>'
                f'{a(u.profile(uid), "About")} · {a(u.sets(uid), "Albums")} · '
                f'{a(u.feed(uid), "Feed")}</div>')
        return self.shell(ctx, f"{user.name}’s photostream", head + self.grid(
            sorted(user.items, reverse=True), n, lambda i: u.stream(uid, i)))

    def sets(self, ctx: Ctx, uid: int) -> str:
        s, u = self.s, self.u
        user = s.users[uid]
        lis = "".join(f'<li class="album">{a(u.photoset(x), s.sets[x].title)} '
                      f"({len(s.sets[x].items)} photos)</li>" for x in user.sets)
        return self.shell(ctx, f"Albums by {user.name}", f"<h1>Albums</h1><ul class=\"album-"
                          f'list">{lis}</ul>{a(u.stream(uid), "Back to photostream")}')

    def photoset(self, ctx: Ctx, sid: int) -> str:
        s, u = self.s, self.u
        ps = s.sets[sid]
        head = (f'<div class="album-header"><h1>{esc(ps.title)}</h1><p>by '
                f"{a(u.profile(ps.owner), s.users[ps.owner].name)}</p></div>")
        body = "".join(self.card(i, via_set=True) for i in ps.items)
        return self.shell(ctx, ps.title, head + f'<div class="photo-list-view">{body}</div>')

    def contacts(self, ctx: Ctx, uid: int) -> str:
        s, u = self.s, self.u
        user = s.users[uid]
        lis = "".join(f'<li class="contact">{a(u.profile(c), s.users[c].name)}</li>'
                      for c in user.contacts)
        return self.shell(ctx, f"{user.name} follows", f"<h1>Following</h1><ul class=\"contact-"
                          f'list">{lis}</ul>')

    # -- detail and profile (the focused crawler's targets) ------------------------
    def detail(self, ctx: Ctx, i: int) -> str:
        s, u = self.s, self.u
        it = s.items[i]
        owner = s.users[it.owner]
        rng = rng_for(s.seed, self.v, "item", i)
        w = writer(it.topic)
        desc = spice(rng, w.paragraphs(rng, body_length(rng, 25, 1.1, 400)), w.terms)
        tags = "".join(f'<li class="tag">{a(u.tag(t), t, title=t)}</li>' for t in it.tags)
        commenters = [c for c in owner.contacts if rng.random() < 0.4][:6]
        comments = "".join(f'<li class="comment">{a(u.profile(c), s.users[c].name, "author")}'
                           f"<p>{esc(w.sentence(rng))}</p></li>" for c in commenters)
        if i % 37 == 3:
            comments += f'<li class="comment"><p>Similar to {a(u.missing(next(iter(s.users))), "this")}</p></li>'  # noqa: E501
        more = [x for x in sorted(owner.items, reverse=True) if x != i][:6]
        more_html = "".join(f'<a href="{attr(u.item(x))}"><img src="{self.img(x, "s")}" alt=""></a>'
                            for x in more)
        sizes = u.sizes(i)
        set_link = (f'<p class="in-album">This photo is in {a(u.photoset(it.set_id), s.sets[it.set_id].title)}</p>'  # noqa: E501
                    if it.set_id is not None else "")
        exif = (f'<ul class="exif"><li>ƒ/{rng.choice(("1.8", "2.8", "4.0", "8.0"))}</li><li>'
                f'1/{rng.choice((60, 125, 250, 1000))}</li><li>ISO {rng.choice((100, 200, 800))}'
                "</li></ul>")
        if self.v == 0:
            main = (f'<div class="photo-page-scrappy-view"><div class="main-photo-view"><img '
                    f'class="main-photo" src="{self.img(i, "b")}" alt="{attr(it.title)}"></div>'
                    '<div class="attribution-view">'
                    f'{a(u.stream(it.owner), owner.name, "owner-name")}'
                    f'</div><div class="title-desc-block"><h1 class="photo-title">{esc(it.title)}'
                    f'</h1><div class="photo-desc">{desc}</div></div><div '
                    'class="sub-photo-fave-view">'
                    f'{a(u.fave(i), "Fave", "fave-star")} {it.faves} faves · {it.views} views</div>'
                    f'<div class="sub-photo-tags-view"><ul class="tags-list">{tags}</ul></div>'
                    f'{set_link}<div class="sub-photo-context-view"><h3>More from {esc(owner.name)}'
                    f'</h3>{more_html}</div>{exif}<p>{a(sizes, "View all sizes")}</p><div '
                    'class="view'
                    f' comments-view"><ul class="comments">{comments}</ul></div></div>')
        else:
            main = (f'<div class="photo_focus"><img class="photo_main" src="{self.img(i, "2048")}"'
                    f' alt="{attr(it.title)}"></div><aside class="photo_sidebar"><h1 class="photo_'
                    f'title">{esc(it.title)}</h1><a class="user_link" href="{attr(u.profile(it.owner))}">'  # noqa: E501
                    f'{esc(owner.name)}</a><div class="description">{desc}</div><div class="'
                    f'actions">{a(u.fave(i), "Like", "like_button")} {a(sizes, "Fullscreen")}</div>'
                    f'<ul class="photo_tags">{tags}</ul>{set_link}{exif}<ul class="photo_comments">'
                    f'{comments}</ul><div class="more_photos">{more_html}</div></aside>')
        return self.shell(ctx, f"{it.title} by {owner.name}", main)

    def profile(self, ctx: Ctx, uid: int) -> str:
        s, u = self.s, self.u
        user = s.users[uid]
        rng = rng_for(s.seed, self.v, "uploader", uid)
        about = ""
        if user.about:
            w = writer(user.interests[0])
            words = " and ".join(user.interests)
            about = (f"<p>I mostly shoot {esc(words)}.</p>"
                     + "".join(f"<p>{esc(p)}</p>" for p in w.paragraphs(rng, body_length(rng, 40))))
        sets = "".join(f"<li>{a(u.photoset(x), s.sets[x].title)}</li>" for x in user.sets)
        tags = " ".join(a(u.tag(t), t) for t in s.user_tags(uid))
        contacts = "".join(f"<li>{a(u.profile(c), s.users[c].name)}</li>"
                           for c in user.contacts[:8])
        main = (f'<div class="person-profile"><h1 class="truncate">{esc(user.name)}</h1><p class='
                f'"stats">{len(user.items)} photos · {len(user.contacts)} following</p>'
                f'<div class="about-me">{about}</div><div class="profile-sets"><h3>Albums</h3><ul>'
                f'{sets}</ul>{a(u.sets(uid), "All albums")}</div><div class="profile-tags"><h3>'
                f'Tags</h3><p>{tags}</p></div><div class="profile-contacts"><h3>Following</h3><ul>'
                f'{contacts}</ul>{a(u.contacts(uid), "See all")}</div><p>'
                f'{a(u.stream(uid), "Photostream")} · {a(u.feed(uid), "Feed")}</p></div>')
        return self.shell(ctx, f"{user.name} – profile", main)

    def sizes(self, ctx: Ctx, i: int) -> str:
        it = self.s.items[i]
        main = (f'<div class="sizes-view"><h1>All sizes of {esc(it.title)}</h1><ul class="sizes">'
                + "".join(f'<li>{a(self.img(i, z), label)}</li>' for z, label in
                          (("s", "Small"), ("m", "Medium"), ("b", "Large"), ("o", "Original")))
                + f'</ul><img src="{self.img(i, "b")}" '
                  f'alt=""><p>{a(self.u.item(i), "Back to photo")}'
                "</p></div>")
        return self.shell(ctx, f"All sizes | {it.title}", main, robots="noindex")

    def feed(self, ctx: Ctx, uid: int) -> str:
        s, u = self.s, self.u
        entries = "".join(f'<entry><title>{esc(s.items[i].title)}</title><link rel="alternate" '
                          f'href="{attr(ctx.base + u.item(i))}"/><category term="'
                          f'{attr(" ".join(s.items[i].tags))}"/></entry>'
                          for i in sorted(s.users[uid].items, reverse=True)[:20])
        return ('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
                f"<title>Uploads from {esc(s.users[uid].name)}</title>{entries}</feed>\n")

    def login(self, ctx: Ctx) -> str:
        return self.shell(ctx, "Log in", '<form class="login" method="post"><input name="email">'
                          '<input name="password" type="password"><button>Log in</button></form>',
                          robots="noindex")

    def error(self, ctx: Ctx) -> str:
        return ("<!DOCTYPE html>\n<html><head><title>Server error</title></head><body><h1>Oops, "
                "something broke.</h1></body></html>\n")

    def not_found(self, ctx: Ctx) -> str:
        return self.shell(ctx, "Page not found", "<h1>This page is not here.</h1>")

    def soft404(self, ctx: Ctx) -> str:
        return document(f"Groups | {self.s.name}", '<div class="group-gone"><h1>This group is no '
                        'longer available</h1><p><a href="pool/">Group pool</a> · <a href="/">'
                        "Home</a></p></div>")

    def asset(self, ctx: Ctx) -> str:
        return ".photo-list-photo-view,.photo_card{display:inline-block;width:320px}\n"



