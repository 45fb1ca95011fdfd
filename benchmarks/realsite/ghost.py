"""A real Ghost blog, Ghost 6.65.0 (from the npm registry, on Node.js), on 127.0.0.1 with
generated posts.

The blog family's third real site, after `benchmarks.realsite.wordpress` and
`benchmarks.realsite.puput`, and a blog engine no crawler setting was tuned on. Ghost is a
Node.js publishing platform; this one is Ghost as its own release ships: the package's
files unpacked, its dependencies installed from its lockfile, SQLite (better-sqlite3), the
theme it activates by default (Source 1.7.6; Casper 5.12.5 ships beside it), the default
routes (posts at /{slug}/, /tag/{slug}/, /author/{slug}/) and the default settings but for
the few that would reach the internet (below).

    build(folder)       fresh site in folder: Ghost's config (CONFIG), its content folder
                        (the shipped themes copied), Ghost started once writable: the owner
                        set up (Admin API authentication/setup), Ghost's fixture post and
                        page deleted, then the authors, tags, posts and static pages from a
                        generator (deterministic for n_posts, seed) loaded by Ghost's own
                        JSON import (Admin API db import, the "Import content" of Ghost's
                        settings), and the post URLs read back through the Admin API
    serve(folder)       Ghost (NODE_ENV=production) on a free port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every post and static page (the UCC)

Ghost and its node_modules live outside the repo, in ARCHIVER_GHOST_DIR (default:
ghost-install in the temporary directory, /tmp/ghost-install; Ghost in its folder ghost/);
`available()` says how to install it. Ghost 6.65 declares Node ^22.23.1 || ^24.20.0 and
installs with pnpm; it was installed and run here with the machine's Node.js 20.20 (pnpm
warns of the engine and installs) and pnpm 12.4.2 (the version its package.json names),
better-sqlite3 and re2 compiled from source against /usr/include/node (their prebuilt
downloads are out of reach).

Offline: `privacy.useTinfoil` (no Gravatar, no IndexNow pings, no structured data of
third parties), the update check's URL a closed loopback port (http://127.0.0.1:9/; the
check is a daily job of production), the Explore ping's URLs empty and its setting
`explore_ping` off, the social web (ActivityPub, `social_web`) off, mail through nodemailer's
stub transport (nothing sent: the import's "done" mail, staff notifications), staff device
verification off (it mails a code). Newsletters are never sent (nothing is published by
mail; the import does not send). What stays on another host is in the pages, for a browser:
Portal (signup/signin), the search (sodo-search) and the comments UI are scripts from a
CDN; a crawler sees their `data-portal` buttons and `#/portal/...` fragment links only.

The server is "read-only-ish": each `serve` runs Ghost on a fresh copy of the built
database (serve.db), so whatever a visit writes (Ghost writes nothing for a guest's GET;
a POST to a page is answered 200 like a GET; member sign-ups would need the Portal script)
never reaches the build.

The UCC (`entities`): every post page (title, tags, authors, date, reading time, the body,
and Source's "Read more" of four more posts) and the static page "about" (Ghost's default
navigation links /about/; its text is the blog's own, so it is content, not chrome).

What a visitor meets (Source's templates, Ghost's defaults): the header (logo home, the
navigation Home and About, a search button that opens the CDN search, "Sign in" and
"Subscribe" Portal buttons); the home page (the 12 latest posts and "See all" to /page/2/);
tag pages /tag/SLUG/ and author pages /author/SLUG/ (their 12 latest posts). Every later
listing page (/page/N/, /tag/SLUG/page/N/, /author/SLUG/page/N/) is named only by
<link rel="next"> and <link rel="prev"> in the head: Source loads the next page by script,
with no <a> to it. A post links its primary tag only, its authors and four more posts; the
footer links "Sign up" (#/portal/) and, on other hosts, Ghost's site and Source's default
Facebook and X accounts. A post's head declares its Markdown copy (/SLUG.md) and the feed.
Feeds: /rss/ (the latest 15 posts, full text), per tag /tag/SLUG/rss/ and per author
/author/SLUG/rss/. Sitemaps: /sitemap.xml (an index) with /sitemap-posts.xml, -pages,
-tags, -authors (and an XSL stylesheet), named by robots.txt, which disallows /ghost/,
/email/, /members/api/comments/counts/, /r/, /webmentions/receive/ and
/.ghost/analytics/api/. /llms.txt and /llms-full.txt (Ghost 6's plain-text digest of the
site) are named by a header only (X-Llms-Txt). No AMP (Ghost 6 removed it: /slug/amp/ is a
301 to the post).

    python -m benchmarks.realsite.ghost /tmp/ghbench    # build, serve, smoke test
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import requests

from benchmarks.realsite.php import (
    entity_rows,
    entity_urls,
    loopback_path,
    print_link_types,
    process_server,
    reuse_or_clear,
    same_host_links,
    smoke_fetch,
    smoke_site,
)
from benchmarks.realsite.words import FIRST, LAST, NOUNS, WORDS, post_title, slug
from benchmarks.realsite.words import paragraph as _paragraph
from benchmarks.realsite.words import sentence as _sentence

GHOST_DIR = Path(os.environ.get("ARCHIVER_GHOST_DIR")
                 or Path(tempfile.gettempdir()) / "ghost-install")
GHOST_VERSION = "6.65.0"
PNPM_VERSION = "12.4.2"  # the packageManager of Ghost's package.json
INSTALL = (f"mkdir -p {GHOST_DIR} && cd {GHOST_DIR} && npm pack ghost@{GHOST_VERSION} && "
           f"tar xzf ghost-{GHOST_VERSION}.tgz && mv package ghost && cd ghost && "
           f"npm_config_nodedir=/usr npx -y pnpm@{PNPM_VERSION} install --prod "
           f"--frozen-lockfile  (Node.js with its headers in /usr/include/node, g++ and make: "
           f"better-sqlite3 and re2 compile from source)")
VERSION = 1  # of the generator and the build; part of the reuse marker
UCC_TYPES = {"post", "page"}
TARGET_TYPE = "post"  # source-target's example is a post
DESCRIPTION = ("Ghost 6.65.0 (Node.js 20, SQLite, the default theme Source 1.7.6, default "
               "routes and settings, offline), {size} generated posts "
               "(`benchmarks/realsite/ghost.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("post", "page", "home", "tag", "author", "markdown", "feed", "sitemap", "members",
              "admin", "static", "other")
SAME_TEMPLATE: dict[str, str] = {}  # Source has a template per listing type
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico",
              ".woff", ".woff2", ".ttf", ".eot", ".otf", ".map")
SITE_NAME = "Workbench Journal"
PAGES = ("about",)  # the static pages' slugs (the generator writes them)
# First path segments that are no post (Ghost's routes, its apps and files)
RESERVED = {"tag", "author", "page", "rss", "ghost", "members", "assets", "content",
            "public", "p", "email", "r", "webmentions", "unsubscribe", ".well-known",
            "sitemap.xml", "robots.txt", "favicon.ico", "llms.txt", "llms-full.txt",
            "sitemap.xsl", ".ghost"}
OWNER = {"name": "Site Owner", "email": "owner@example.org",
         "password": "realsite-bench-owner-1"}  # a throwaway site's, on 127.0.0.1 only

# Ghost's config (config.production.json in the site's folder, Ghost's working directory);
# the URL, port and database file are given by the environment at each start
CONFIG: dict[str, Any] = {
    "url": "http://127.0.0.1:2368/",
    "server": {"host": "127.0.0.1", "port": 2368},
    "database": {"client": "better-sqlite3", "connection": {"filename": "content/data/ghost.db"},
                 "useNullAsDefault": True},
    "paths": {"contentPath": "content/"},
    "privacy": {"useTinfoil": True},
    "updateCheck": {"url": "http://127.0.0.1:9/"},
    "explore": {"update_url": "", "testimonials_url": ""},
    "mail": {"transport": "stub", "from": "owner@example.org"},
    "security": {"staffDeviceVerification": False},
    "logging": {"level": "info", "transports": ["stdout"]},
}
# Settings changed through the Admin API: the site's name, and what phones home
SETTINGS = {"title": SITE_NAME, "description": "Notes from a shared workshop",
            "explore_ping": False, "social_web": False}

TAGS = ["Woodwork", "Metalwork", "Electronics", "Baking", "Coffee", "Cycling", "Hiking",
        "Garden", "Photography", "Repairs", "Tools", "Kitchen", "Winter", "Summer", "Weekend",
        "Routes", "Film", "Prints", "Soldering", "Sensors", "Bread", "Roasting", "Tents",
        "Maps", "Seeds", "Paint", "Steel", "Lathe", "Notes", "Weather"]


def _id(kind: int, i: int) -> str:
    """A 24-hex-digit id (Ghost's ObjectId form) for the import file; Ghost gives new ids."""
    return f"{kind:02x}{i:022x}"


def generate(n_posts: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """Six authors' posts over three years, about one every three or four days, each with two
    to five of 30 tags; a fifth link an older post in their text, a twentieth have a second
    author, one in 25 is featured, a quarter have a custom excerpt; one static page, "about".
    Returns {"authors", "tags", "posts", "pages"} (dates as ISO strings, UTC)."""
    rng = random.Random(seed)
    authors = []
    for first, last in zip(rng.sample(FIRST, 6), rng.sample(LAST, 6), strict=True):
        authors.append({"slug": first.lower(), "name": f"{first} {last}",
                        "email": f"{first.lower()}@example.org", "bio": _sentence(rng, (8, 16))})
    tags = [{"slug": slug(name), "name": name, "description": _sentence(rng, (6, 12))}
            for name in TAGS]
    start = now - dt.timedelta(days=3 * 365)
    step = (now - dt.timedelta(days=1) - start) / n_posts
    titles: Counter[str] = Counter()
    posts: list[dict[str, Any]] = []
    for i in range(n_posts):
        date = start + step * i + dt.timedelta(
            minutes=rng.randint(0, int(step.total_seconds() // 60)))
        date = date.replace(second=0, microsecond=0)
        title = post_title(rng)
        titles[title] += 1
        if titles[title] > 1:  # slugs are unique
            title = f"{title} ({titles[title]})"
        post_slug = slug(title.replace("(", "").replace(")", ""))
        names = [rng.choice(authors)["slug"]]
        if rng.random() < 0.05:
            names.append(rng.choice([a["slug"] for a in authors if a["slug"] != names[0]]))
        posts.append({
            "title": title, "slug": post_slug, "date": date.isoformat(),
            "authors": names,
            "tags": [t["slug"] for t in rng.sample(tags, rng.randint(2, 5))],
            "body": [_paragraph(rng, (3, 7)) for _ in range(rng.randint(2, 6))],
            "heading": rng.choice(NOUNS).capitalize() if rng.random() < 0.3 else None,
            "excerpt": _sentence(rng, (15, 30)) if rng.random() < 0.25 else "",
            "featured": rng.random() < 0.04,
            "links_to": rng.randrange(i) if i and rng.random() < 0.2 else None})
    pages = [{"title": "About", "slug": "about", "date": start.replace(microsecond=0).isoformat(),
              "authors": [authors[0]["slug"]], "tags": [], "heading": None, "excerpt": "",
              "featured": False, "links_to": None,
              "body": [f"{SITE_NAME}: notes from a shared {rng.choice(WORDS[40:])} workshop.",
                       *(_paragraph(rng, (3, 6)) for _ in range(3))]}]
    return {"authors": authors, "tags": tags, "posts": posts, "pages": pages}


def _html(item: dict[str, Any], posts: list[dict[str, Any]]) -> str:
    """A post's body as HTML for Ghost's importer (which turns it into Lexical): paragraphs,
    an optional subheading before the second, the second ending with a link to an older post
    (its Ghost URL, /slug/)."""
    out = []
    for i, text in enumerate(item["body"]):
        if i == 1 and item["heading"]:
            out.append(f"<h2>{item['heading']}</h2>")
        if i == 1 and item["links_to"] is not None:
            older = posts[item["links_to"]]
            text += f' See also <a href="/{older["slug"]}/">{older["title"]}</a>.'
        out.append(f"<p>{text}</p>")
    return "".join(out)


def import_file(spec: dict[str, Any]) -> dict[str, Any]:
    """The generated content as a Ghost JSON export (db[0].data: users, roles, roles_users,
    tags, posts, posts_tags, posts_authors), the form Ghost's "Import content" reads."""
    def stamp(iso: str) -> str:
        return dt.datetime.fromisoformat(iso).strftime("%Y-%m-%dT%H:%M:%S.000Z")

    users = {a["slug"]: _id(1, i) for i, a in enumerate(spec["authors"])}
    tags = {t["slug"]: _id(2, i) for i, t in enumerate(spec["tags"])}
    role = _id(4, 0)
    data: dict[str, list[dict[str, Any]]] = {
        "users": [{"id": users[a["slug"]], "name": a["name"], "slug": a["slug"],
                   "email": a["email"], "bio": a["bio"], "status": "active"}
                  for a in spec["authors"]],
        "roles": [{"id": role, "name": "Author"}],
        "roles_users": [{"user_id": u, "role_id": role} for u in users.values()],
        "tags": [{"id": tags[t["slug"]], "name": t["name"], "slug": t["slug"],
                  "description": t["description"], "visibility": "public"}
                 for t in spec["tags"]],
        "posts": [], "posts_tags": [], "posts_authors": []}
    items = [("post", p) for p in spec["posts"]] + [("page", p) for p in spec["pages"]]
    for i, (kind, item) in enumerate(items):
        pid, when = _id(3, i), stamp(item["date"])
        data["posts"].append({
            "id": pid, "title": item["title"], "slug": item["slug"], "type": kind,
            "html": _html(item, spec["posts"]), "status": "published",
            "visibility": "public", "featured": item["featured"],
            "custom_excerpt": item["excerpt"] or None, "created_at": when,
            "updated_at": when, "published_at": when})
        data["posts_tags"] += [{"post_id": pid, "tag_id": tags[t], "sort_order": k}
                               for k, t in enumerate(item["tags"])]
        data["posts_authors"] += [{"post_id": pid, "author_id": users[a], "sort_order": k}
                                  for k, a in enumerate(item["authors"])]
    return {"db": [{"meta": {"exported_on": 0, "version": GHOST_VERSION}, "data": data}]}


def available() -> str | None:
    """None if Ghost is installed in GHOST_DIR and node is on the PATH, else how to do it."""
    ghost = GHOST_DIR / "ghost"
    try:
        version = json.loads((ghost / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        version = None
    built = (ghost / "node_modules" / "better-sqlite3" / "build" / "Release"
             / "better_sqlite3.node").exists()
    if shutil.which("node") and version == GHOST_VERSION and built:
        return None
    return (f"needs Node.js (now: {shutil.which('node') or 'missing'}) and Ghost "
            f"{GHOST_VERSION} with its node_modules in ARCHIVER_GHOST_DIR (now {GHOST_DIR}, "
            f"found {version or 'nothing'}): {INSTALL}")


def _environment(folder: Path, database: Path, server: str) -> dict[str, str]:
    """Ghost's environment: production, its URL and port, the database file (nconf reads
    KEY__SUB variables over the config file)."""
    port = urlsplit(server).port
    return {**os.environ, "NODE_ENV": "production", "url": server + "/",
            "server__port": str(port), "server__host": "127.0.0.1",
            "database__connection__filename": str(database),
            "paths__contentPath": str(folder / "content")}


@contextlib.contextmanager
def _ghost(folder: Path, database: Path, log: Path) -> Iterator[str]:
    """Ghost on a free port with this database file; yields the home URL."""
    with process_server(
            lambda port: ["node", "--require", "./node20-shim.js", "current/index.js"], log, "/",
            lambda server: _environment(folder, database, server), folder,
            "Ghost") as seed:
        yield seed


# Node 20 lacks worker_threads.markAsUncloneable (Node 22.10+), which the undici under
# jsdom calls when Ghost renders a post's Lexical to HTML; it only marks an object as not
# structured-cloneable, so a no-op stands in for it (preloaded with node --require)
NODE20_SHIM = """// written by benchmarks/realsite/ghost.py: Node 20 has no markAsUncloneable
const workerThreads = require('node:worker_threads');
if (typeof workerThreads.markAsUncloneable !== 'function') {
    workerThreads.markAsUncloneable = function markAsUncloneable() {};
}
"""


class _Admin:
    """Ghost's Admin API with a staff session (the owner's cookie), as Ghost Admin uses it."""

    def __init__(self, server: str) -> None:
        self.api = server.rstrip("/") + "/ghost/api/admin/"
        self.session = requests.Session()
        self.session.headers.update({"Origin": server.rstrip("/"),
                                     "Accept-Version": "v6.0"})

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        r = self.session.request(method, self.api + path, timeout=300, **kwargs)
        if r.status_code >= 400:
            raise RuntimeError(f"Ghost Admin API {method} {path}: {r.status_code} {r.text[:800]}")
        return r.json() if "json" in r.headers.get("Content-Type", "") else None

    def all(self, resource: str, query: str) -> list[dict[str, Any]]:
        """Every post or page (Ghost 6 pages the Admin API by 100 at most)."""
        out, page = [], 1
        while page:
            got = self.call("GET", f"{resource}/?limit=100&page={page}&{query}")
            out += got[resource]
            page = got["meta"]["pagination"]["next"]
        return out

    def count(self, resource: str) -> int:
        return self.call("GET", f"{resource}/?limit=1&fields=id")["meta"]["pagination"]["total"]


def _load(server: str, spec: dict[str, Any], folder: Path) -> None:
    """The owner set up and signed in, Ghost's fixture post and page deleted, the settings,
    the import; waits for the import's background job; writes entities.jsonl."""
    admin = _Admin(server)
    admin.call("POST", "authentication/setup/", json={"setup": [{
        "name": OWNER["name"], "email": OWNER["email"], "password": OWNER["password"],
        "blogTitle": SITE_NAME}]})
    admin.call("POST", "session/", json={"username": OWNER["email"],
                                         "password": OWNER["password"]})
    # private while Ghost's fixtures go: deleting a published post sends webmentions to the
    # sites its text links (the fixtures link ghost.org) unless the site is private
    admin.call("PUT", "settings/", json={"settings": [{"key": "is_private", "value": True},
                                                      {"key": "password", "value": "build"}]})
    for resource in ("posts", "pages"):
        for item in admin.all(resource, "fields=id,slug"):
            admin.call("DELETE", f"{resource}/{item['id']}/")
    payload = json.dumps(import_file(spec))
    admin.call("POST", "db/", files={"importfile": ("content.json", payload,
                                                    "application/json")})
    want = len(spec["posts"]) + len(spec["pages"])
    deadline = time.monotonic() + 600
    while True:  # the import is a background job (202)
        got = admin.count("posts") + admin.count("pages")
        if got >= want:
            break
        if time.monotonic() > deadline:
            raise RuntimeError(f"Ghost's import made {got} of {want} posts and pages; see "
                               f"{folder / 'build.log'}")
        time.sleep(2)
    time.sleep(3)  # the job's last writes (the posts' tags and authors) after the posts
    admin.call("PUT", "settings/", json={"settings": [{"key": k, "value": v} for k, v in
                                                      {**SETTINGS, "is_private": False}.items()]})
    rows = []
    for resource, kind in (("posts", "post"), ("pages", "page")):
        for item in admin.all(resource, "include=tags,authors&"
                                        "fields=id,slug,url,published_at,status"):
            rows.append({"type": kind, "slug": item["slug"], "status": item["status"],
                         "path": urlsplit(item["url"]).path,
                         "authors": [a["slug"] for a in item["authors"]],
                         "tags": [t["slug"] for t in item["tags"]
                                  if t.get("visibility") == "public"]})
    rows.sort(key=lambda r: (r["type"], r["slug"]))
    (folder / "entities.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def build(folder: Path, n_posts: int = 300, seed: int = 0) -> Path:
    """Build a fresh site in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    folder = folder.resolve()
    params = {"n_posts": n_posts, "seed": seed, "version": VERSION, "ghost": GHOST_VERSION}
    if reuse_or_clear(folder, params, "config.production.json", "Ghost site"):
        return folder
    started = time.time()
    (folder / "config.production.json").write_text(json.dumps(CONFIG, indent=2) + "\n")
    # Ghost-CLI's layout: the working directory holds the config and `current`, a link to
    # the release (Ghost finds its package.json, hence its version, through it)
    (folder / "current").symlink_to(GHOST_DIR / "ghost", target_is_directory=True)
    (folder / "node20-shim.js").write_text(NODE20_SHIM)
    content = folder / "content"
    for sub in ("data", "images", "files", "media", "logs", "settings", "public", "adapters"):
        (content / sub).mkdir(parents=True, exist_ok=True)
    shutil.copytree(GHOST_DIR / "ghost" / "content" / "themes", content / "themes")
    now = dt.datetime.now(dt.UTC).replace(microsecond=0, tzinfo=None)
    spec = generate(n_posts, seed, now)
    with _ghost(folder, content / "data" / "ghost.db", folder / "build.log") as seed_url:
        _load(seed_url.rstrip("/"), spec, folder)
    (folder / "build.json").write_text(json.dumps({
        "params": params, "built_at": time.time(),
        "build_seconds": round(time.time() - started, 1)}))
    return folder


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve the site built in folder (Ghost on a fresh copy of its database) on a free
    port; yields the home URL."""
    folder = folder.resolve()
    database = folder / "serve.db"
    shutil.copyfile(folder / "content" / "data" / "ghost.db", database)
    with _ghost(folder, database, folder / "server.log") as seed:
        yield seed


def page_type(url: str) -> str:
    """Ground truth from the URL alone (Ghost's default routes.yaml and its own routes), in
    this order:
    - another host than 127.0.0.1 or localhost: "other"
    - / and /page/N/: "home"
    - /assets/..., /content/..., /public/..., /favicon.ico or a static file by its
      extension: "static"
    - /ghost/... (the admin app and its APIs) and /SLUG/edit/ (a redirect to the editor):
      "admin"
    - /members/... (the members API, sign-in links): "members"
    - /SLUG.md (Ghost 6's Markdown copy of a post, its <link rel="alternate">): "markdown"
    - /rss/, /tag/SLUG/rss/, /author/SLUG/rss/ (and their /N/ pages): "feed"
    - /sitemap.xml, /sitemap-*.xml, /sitemap.xsl: "sitemap"
    - /tag/SLUG/ and /author/SLUG/ (and /page/N/ of them): "tag", "author"
    - /SLUG/ (one segment, not one of Ghost's words): "page" for the static pages' slugs
      (PAGES), else "post"; /SLUG/amp/ too (Ghost 6 redirects it to the post)
    - anything else (robots.txt, llms.txt, /p/UUID/ previews, /r/, /email/, ...): "other"."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    if not segs or (len(segs) == 2 and segs[0] == "page" and segs[1].isdigit()):
        return "home"
    head = segs[0]
    if head in ("assets", "content", "public", "favicon.ico") \
            or path.lower().endswith(STATIC_EXT):
        return "static"
    if head == "ghost" or (len(segs) == 2 and segs[1] == "edit" and head not in RESERVED):
        return "admin"
    if head == "members":
        return "members"
    if len(segs) == 1 and head.endswith(".md") and head != ".md":
        return "markdown"
    if head == "rss" and (len(segs) == 1 or (len(segs) == 2 and segs[1].isdigit())):
        return "feed"
    if head.startswith("sitemap") and head.endswith((".xml", ".xsl")) and len(segs) == 1:
        return "sitemap"
    if head in ("tag", "author") and len(segs) >= 2:
        rest = segs[2:]
        if rest == ["rss"] or (len(rest) == 2 and rest[0] == "rss" and rest[1].isdigit()):
            return "feed"
        if not rest or (len(rest) == 2 and rest[0] == "page" and rest[1].isdigit()):
            return head
        return "other"
    if head not in RESERVED and (len(segs) == 1 or (len(segs) == 2 and segs[1] == "amp")):
        return "page" if head in PAGES else "post"
    return "other"


def entity_of(url: str) -> str | None:
    """The post or page a URL shows: "post SLUG" or "page SLUG" for /SLUG/ and /SLUG/amp/ (a
    query does not change it); None for anything else."""
    kind = page_type(url)
    if kind not in UCC_TYPES:
        return None
    head = unquote(urlsplit(url).path.split("/")[1])
    return f"{kind} {head}"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every post and static page, as Ghost links them (/slug/); give the server
    (e.g. "http://127.0.0.1:8123") to get absolute URLs."""
    return entity_urls(folder, server)


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: posts and pages, posts by author, tags per post, posts per
    tag."""
    rows = entity_rows(folder)
    posts = [r for r in rows if r["type"] == "post"]
    return {"posts": len(posts), "pages": len(rows) - len(posts),
            "by_author": dict(sorted(Counter(a for r in posts for a in r["authors"]).items())),
            "tags_per_post": dict(sorted(Counter(len(r["tags"]) for r in posts).items())),
            "posts_per_tag": dict(sorted(Counter(t for r in posts for t in r["tags"]).items()))}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "posts", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        home_links = smoke.home_links
        post = ucc[len(ucc) // 2]
        post_links = same_host_links(requests.get(post, timeout=30).content, post)
        first = {page_type(u): u for u in sorted(home_links | post_links, reverse=True)}
        smoke_fetch([seed, post, post + "amp/", *first.values(), f"{server}/page/2/",
                     f"{server}/rss/", f"{server}/sitemap.xml", f"{server}/robots.txt",
                     f"{server}/llms.txt", f"{server}/ghost/", f"{server}/members/api/member/"],
                    page_type, follow_redirects=False)
        print(f"POST {requests.post(seed, timeout=30).status_code}")
        print_link_types([("home", home_links), (post, post_links)], page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
