"""A real Mezzanine 6.1.1 blog (from PyPI, on Django 4.2), on 127.0.0.1 with generated posts
and threaded comments.

The blog family's fourth real site, and a CMS no crawler setting was tuned on: Mezzanine is
the Django CMS with a page tree and a blog app. The site is what its project template makes
(`mezzanine-project`: settings.py and urls.py as shipped, the default theme, the static
"Congratulations" home page of the template's default home pattern), with the per-machine
file the template provides for a deployment (local_settings.py: DEBUG off, SQLite, fixed
keys, no mail, signed-cookie sessions, the database opened read-only by the server), and
Mezzanine's own `createdb --noinput`, which installs the demo pages of the page tree (About
with Team and History, Contact (a form) with Legals, a Gallery of the demo images, and the
"Blog" page). Every post, category, keyword and comment is made through Mezzanine's models
(BlogPost, BlogCategory, Keyword and AssignedKeyword, ThreadedComment), so slugs, dates,
keyword strings and comment counts are Mezzanine's.

    build(folder)       fresh site in folder: the project from the template, createdb,
                        authors, categories, keywords, posts and comments from a generator
                        (deterministic for n_posts, seed)
    serve(folder)       the site under waitress (threaded) on a free port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every post page and every static page (the UCC)

Mezzanine and its dependencies (Django 4.2, django-contrib-comments, grappelli_safe,
filebrowser_safe, bleach, Pillow) live in a venv of their own, named by
ARCHIVER_MEZZANINE_VENV (default: mzvenv in the temporary directory, /tmp/mzvenv). Mezzanine
6.1.1 says it runs on Python 3.8 to 3.12, but on 3.12 its `mezzanine-project` command imports
distutils and the template's settings.py imports `imp` (both gone in 3.12): Python 3.11 is
used. `available()` says how to create it. Everything the site runs goes through the helper
script HELPER (its shared parts: `benchmarks.realsite.helpertext`), run by that venv's
python. The server is read-only: 405 to anything but GET and HEAD (the comment and rating
forms post), the database opened read-only, and the one write a page view makes is skipped
(a post's page saves its short URL at every view, `Displayable.set_short_url`: the marker
"unset" when no bit.ly account is configured, whereupon it shows the post's own URL; the
page shows the same URL without the write). The Site record's domain is the
served origin (set on every Site the server loads, not written: createdb would ask a deployer
for it), so the
feeds' links are on the site.

The UCC (`entities`): every blog post's page (title, author, date, categories, keywords,
the body, its threaded comments and the comment form, "Related posts" for none) and every
static page of the page tree (About, Team, History, Contact, Legals, Gallery: the content
the owner wrote, one URL each). Not UCC: the post lists (/blog/ and its category, keyword,
author, year and month archives, each with ?page=N) show each post's title and first words
only, so they repeat the posts; the home page is the template's "Congratulations" page; the
"Blog" page of the tree answers at /blog/, the list. A post also answers at
/blog/YYYY/slug/, /blog/YYYY/MM/slug/ and /blog/YYYY/MM/DD/slug/ (Mezzanine's dated URL
forms, whatever the date; no page links them with the default BLOG_URLS_DATE_FORMAT): the
same page, one entity.

What a visitor meets: the top navigation of the page tree (Blog, About, Contact, Gallery;
Team, History and Legals in their drop-downs and the section menus), a search form (GET
/search/?q=, with a type selector), and on the blog's pages the filter panel: recent posts,
every month with posts (/blog/archive/YYYY/M/), every category, the keyword cloud, every
author, the RSS and Atom feeds (/blog/feeds/rss/, /blog/feeds/atom/). Lists show five posts
a page (BLOG_POST_PER_PAGE) with Mezzanine's paging links (?page=N: previous and next and up
to ten numbered pages). A post's page links its author, categories, keywords, and the
comments' reply links are in-page (script); commenters' names link their own web sites
(other hosts). No robots.txt with DEBUG off (404); /sitemap.xml lists every post and page.
The admin (/admin/, a login form) is linked from the home page.

    python -m benchmarks.realsite.mezzanine /tmp/mzbench    # build, serve, smoke test
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests

from benchmarks.realsite.helpertext import DJANGO, MAIN, SERVE
from benchmarks.realsite.php import (
    build_helper_site,
    entity_rows,
    entity_urls,
    loopback_path,
    print_link_types,
    run_checked,
    same_host_links,
    serve_helper,
    smoke_fetch,
    smoke_site,
    venv_missing,
)
from benchmarks.realsite.words import FIRST, LAST, WORDS, post_title
from benchmarks.realsite.words import paragraph as _paragraph
from benchmarks.realsite.words import sentence as _sentence
from benchmarks.realsite.words import stamp as _stamp

VENV = Path(os.environ.get("ARCHIVER_MEZZANINE_VENV")
            or Path(tempfile.gettempdir()) / "mzvenv")
MEZZANINE_VERSION = "6.1.1"
INSTALL = (f"python3.11 -m venv {VENV} && {VENV}/bin/pip install "
           f"mezzanine=={MEZZANINE_VERSION} waitress")
VERSION = 1  # of the generator and helper; part of the reuse marker
UCC_TYPES = {"post", "page"}
TARGET_TYPE = "post"  # source-target's example is a post
DESCRIPTION = ("Mezzanine 6.1.1 on Django 4.2 (the project template with its default theme "
               "and settings, createdb's demo pages, SQLite), {size} generated posts with "
               "threaded comments (`benchmarks/realsite/mezzanine.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("post", "page", "home", "blog", "archive", "category", "tag", "author",
              "feed", "search", "action", "admin", "static", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): Mezzanine's
# blog_post_list.html renders the blog's list and every archive (category, keyword, author,
# year, month), the archives adding a heading
SAME_TEMPLATE = {"blog": "listing", "archive": "listing", "category": "listing",
                 "tag": "listing", "author": "listing"}
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico",
              ".woff", ".woff2", ".ttf", ".eot", ".otf", ".txt", ".map")
SITE_TITLE = "Workbench Journal"
BLOG = "blog"  # Mezzanine's BLOG_SLUG (default)
# Words that are no post slug in /blog/WORD/ (Mezzanine's blog routes take them first)
BLOG_WORDS = {"tag", "category", "author", "archive", "feeds"}
# mezzanine.core.urls and mezzanine.generic.urls: forms' targets and the editor's views
ACTIONS = {"edit", "set_site", "comment", "rating", "i18n"}
ACCOUNT = {"admin", "password_reset", "reset"}

# The deployment's local_settings.py, the file Mezzanine's project template execs at the end
# of its settings.py for per-machine settings (the template ships one with DEBUG on)
LOCAL_SETTINGS = '''# written by benchmarks/realsite/mezzanine.py: a throwaway public read-only site
DEBUG = False
SECRET_KEY = "realsite-bench-secret"  # fixed: the same signed cookies every build
NEVERCACHE_KEY = "realsite-bench-nevercache"
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3",
                         "NAME": os.path.join(PROJECT_ROOT, "site.sqlite3")}}
if os.environ.get("MEZZANINE_BENCH_READ_ONLY"):  # the server's: SQLite opened read-only
    DATABASES["default"]["NAME"] = "file:" + DATABASES["default"]["NAME"] + "?mode=ro"
    DATABASES["default"]["OPTIONS"] = {"uri": True}
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"  # no session rows
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"  # no mail
SITE_TITLE = "''' + SITE_TITLE + '''"
'''

HELPER = '''"""Run by benchmarks/realsite/mezzanine.py with Mezzanine's venv (python -I), in the
site's folder: "install" (Mezzanine's createdb), "content" (the JSON spec on stdin; writes
entities.jsonl), "serve PORT THREADS" (read-only, GET and HEAD only)."""
import datetime as dt
import json
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # the project's package (python -I leaves the folder out)
sys.dont_write_bytecode = True
warnings.simplefilter("ignore")


def setup(read_only=False):
    os.environ["DJANGO_SETTINGS_MODULE"] = "site_project.settings"
    if read_only:
        os.environ["MEZZANINE_BENCH_READ_ONLY"] = "1"
    import django

    django.setup()


def content(spec):
    setup()
    fast_sqlite()
    from django.contrib.auth.models import User
    from django.contrib.sites.models import Site
    from django.test import Client

    from mezzanine.blog.models import BlogCategory, BlogPost
    from mezzanine.conf import settings
    from mezzanine.core.models import CONTENT_STATUS_PUBLISHED
    from mezzanine.generic.models import AssignedKeyword, Keyword, ThreadedComment
    from mezzanine.pages.models import Page

    site = Site.objects.get()
    site.domain, site.name = "127.0.0.1", spec["site_title"]
    site.save()
    users = {}
    for a in spec["authors"]:
        users[a["username"]] = User.objects.create_user(
            a["username"], a["username"] + "@example.org", None,
            first_name=a["first"], last_name=a["last"])
    User.objects.create_superuser("admin", "admin@example.org", None)
    categories = {c: BlogCategory.objects.create(title=c) for c in spec["categories"]}
    keywords = {}
    posts = []
    for p in spec["posts"]:
        date = dt.datetime.fromisoformat(p["date"])
        body = ["<p>%s</p>" % text for text in p["body"]]
        if p["links_to"] is not None:
            older = posts[p["links_to"]]
            body[1] = body[1][:-4] + ' See also <a href="%s">%s</a>.</p>' % (
                older.get_absolute_url(), older.title)
        post = BlogPost.objects.create(
            title=p["title"], content="".join(body), user=users[p["author"]],
            publish_date=date, status=CONTENT_STATUS_PUBLISHED)
        post.categories.set([categories[c] for c in p["categories"]])
        for word in p["keywords"]:
            if word not in keywords:
                keywords[word] = Keyword.objects.create(title=word)
            AssignedKeyword.objects.create(keyword=keywords[word], content_object=post)
        made = []
        for c in p["comments"]:
            user = users.get(c["user"])
            made.append(ThreadedComment.objects.create(
                content_object=post, site=site, user=user,
                user_name=c["name"], user_email=c["email"], user_url=c["url"],
                comment=c["text"], submit_date=dt.datetime.fromisoformat(c["date"]),
                is_public=True, by_author=user is not None and user == post.user,
                replied_to=made[c["reply_to"]] if c["reply_to"] is not None else None))
        posts.append(post)
    # the gallery's thumbnails are made (written) at its first view: made here, not by the
    # read-only server
    client = Client()
    for page in Page.objects.all():
        client.get(page.get_absolute_url())
    with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
        for post in BlogPost.objects.order_by("pk"):
            out.write(json.dumps({"type": "post", "slug": post.slug,
                                  "author": post.user.username,
                                  "categories": [c.slug for c in post.categories.all()],
                                  "keywords": post.keywords.count(),
                                  "comments": post.comments_count,
                                  "path": post.get_absolute_url()}) + "\\n")
        blog = "/%s/" % settings.BLOG_SLUG.strip("/")
        for page in Page.objects.order_by("pk"):
            if page.get_absolute_url() == blog:  # the blog's list answers there
                continue
            out.write(json.dumps({"type": "page", "slug": page.slug,
                                  "model": page.content_model,
                                  "path": page.get_absolute_url()}) + "\\n")


def serve(port, threads):
    setup(read_only=True)
    from django.conf import settings
    from django.contrib.sites.models import Site
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.wsgi import get_wsgi_application
    from django.db.models.signals import post_init
    from django.views.static import serve as serve_file

    # A post's page stores its short URL at every view (Displayable.set_short_url saves the
    # marker "unset" when no bit.ly account is configured, then shows the page's own URL): the
    # URL it shows, without the write
    from mezzanine.core.models import Displayable

    def set_short_url(self):
        self.short_url = self.get_absolute_url_with_host()

    Displayable.set_short_url = set_short_url
    # the Site record's domain, which createdb asks a deployer for: the served origin, set
    # on every Site loaded (the database is not written), so that the feeds and the sitemap
    # link the site
    def served_domain(sender, instance, **kwargs):
        instance.domain = "127.0.0.1:%d" % port

    post_init.connect(served_domain, sender=Site, weak=False)

    class MediaFiles(StaticFilesHandler):
        """The uploads (the gallery's images), served by Django as /static/ is: a small
        site without a separate web server."""

        def get_base_url(self):
            return settings.MEDIA_URL

        def serve(self, request):
            return serve_file(request, self.file_path(request.path),
                              document_root=settings.MEDIA_ROOT)

    app = MediaFiles(StaticFilesHandler(get_wsgi_application()))
    serve_read_only(app, port, threads, "mezzanine")
''' + DJANGO + '''

def install():
    """Mezzanine's createdb: the schema, the site record and the pages of the page tree
    (with its demo pages: About, Contact, Gallery), no account with DEBUG off."""
    setup()
    fast_sqlite()
    from django.core.management import call_command

    call_command("createdb", interactive=False, verbosity=0)

''' + SERVE + MAIN

# What the blog writes about: a shared workshop's journal (the words of
# `benchmarks.realsite.words`)
CATEGORIES = ["Woodwork", "Metalwork", "Electronics", "Baking", "Coffee", "Cycling", "Hiking",
              "Garden", "Photography", "Repairs"]
KEYWORDS = ["bench", "lathe", "chisel", "plane", "saw", "solder", "sensor", "battery", "bread",
            "dough", "oven", "coffee", "grinder", "roast", "bike", "brake", "chain", "tyre",
            "trail", "tent", "stove", "map", "soil", "seeds", "film", "lens", "prints",
            "paint", "glue", "hinge", "weld", "steel", "winter", "summer", "weekend", "route"]


def _comments(rng: random.Random, posted: dt.datetime, now: dt.datetime,
              authors: list[dict[str, Any]], author: str) -> list[dict[str, Any]]:
    """A post's threaded comments: none for a third, else 1 to 14 (mostly few); a third of
    the later ones reply to an earlier comment; some by the blog's authors (the post's own
    author answering), the rest by visitors, a few with a web site."""
    r = rng.random()
    n = 0 if r < 0.3 else rng.randint(1, 3) if r < 0.7 else rng.randint(4, 8) if r < 0.92 \
        else rng.randint(9, 14)
    room = max(60.0, min((now - posted).total_seconds() - 60, 30 * 86400))
    times = sorted(rng.uniform(60, room) for _ in range(n))
    out: list[dict[str, Any]] = []
    for i, t in enumerate(times):
        reply_to = rng.randrange(i) if i and rng.random() < 0.35 else None
        if reply_to is not None and rng.random() < 0.4:
            user = author
        elif rng.random() < 0.1:
            user = rng.choice(authors)["username"]
        else:
            user = None
        if user is not None:
            who = next(a for a in authors if a["username"] == user)
            name, email, url = f"{who['first']} {who['last']}", f"{user}@example.org", ""
        else:
            first, last = rng.choice(FIRST), rng.choice(LAST)
            name = rng.choice([f"{first} {last}", first, f"{first.lower()}{rng.randint(1, 99)}"])
            email = f"{first.lower()}.{last.lower()}@example.net"
            url = f"https://{last.lower()}.example.net/" if rng.random() < 0.15 else ""
        out.append({"name": name, "email": email, "url": url, "user": user,
                    "text": " ".join(_sentence(rng, (5, 16)) for _ in range(rng.randint(1, 3))),
                    "date": _stamp(posted + dt.timedelta(seconds=round(t))),
                    "reply_to": reply_to})
    return out


def generate(n_posts: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """Twelve authors' posts over two years, about one a day and a half, each in one category
    (a quarter in two) with one to five keywords and threaded comments (`_comments`); a
    fifth link an older post in their text. Titles may repeat (Mezzanine makes the slugs
    unique)."""
    rng = random.Random(seed)
    authors = [{"username": first.lower(), "first": first, "last": last}
               for first, last in zip(rng.sample(FIRST, 12), rng.sample(LAST, 12),
                                      strict=True)]
    start = now - dt.timedelta(days=2 * 365)
    step = (now - dt.timedelta(days=1) - start) / n_posts
    posts: list[dict[str, Any]] = []
    for i in range(n_posts):
        date = start + step * i + dt.timedelta(
            minutes=rng.randint(0, int(step.total_seconds() // 60)))
        date = date.replace(second=0)
        title = post_title(rng)
        cats = {rng.choice(CATEGORIES)}
        if rng.random() < 0.25:
            cats.add(rng.choice(CATEGORIES))
        author = rng.choice(authors)["username"]
        posts.append({
            "title": title, "date": _stamp(date), "author": author,
            "body": [_paragraph(rng, (3, 7)) for _ in range(rng.randint(2, 6))],
            "keywords": sorted(set(rng.sample(KEYWORDS, rng.randint(1, 5)))),
            "categories": sorted(cats),
            "links_to": rng.randrange(i) if i and rng.random() < 0.2 else None,
            "comments": _comments(rng, date, now, authors, author)})
    return {"site_title": SITE_TITLE,
            "description": f"A shared {rng.choice(WORDS[40:])} workshop's journal",
            "authors": authors, "categories": CATEGORIES, "posts": posts}


def available() -> str | None:
    """None if Mezzanine's venv is there, else how to make it."""
    return venv_missing(VENV, "mezzanine", MEZZANINE_VERSION, "ARCHIVER_MEZZANINE_VENV",
                        INSTALL)


def _project(folder: Path) -> None:
    """The project as Mezzanine's template makes it (`mezzanine-project`), with the
    deployment's local_settings.py in place of the template's (DEBUG on)."""
    run_checked([str(VENV / "bin" / "mezzanine-project"), "site_project", str(folder)],
                folder, name="mezzanine-project")
    (folder / "site_project" / "local_settings.py").write_text(LOCAL_SETTINGS)


def build(folder: Path, n_posts: int = 300, seed: int = 0) -> Path:
    """Build a fresh site in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    return build_helper_site(
        folder, VENV, {"n_posts": n_posts, "seed": seed, "version": VERSION},
        "Mezzanine site", HELPER, lambda now: generate(n_posts, seed, now), _project)


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the site built in folder (waitress with `workers` threads, read-only) on a free
    port; yields the home URL."""
    with serve_helper(VENV, folder, workers, "mezzanine") as seed:
        yield seed


def page_type(url: str) -> str:
    """Ground truth from the URL alone (the template's urls.py, mezzanine.urls and the blog's
    and pages' URLs, BLOG_SLUG "blog"), in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - / (any query): "home" (the template's static home page)
    - /static/..., /media/..., /jsi18n/... or a static file by its extension: "static"
    - /admin/... (Django's admin, Grappelli's and filebrowser's; its login form),
      /password_reset/..., /reset/...: "admin"
    - /search/: "search"; /sitemap.xml: "feed"
    - /comment/, /rating/, /edit/, /set_site/, /i18n/: "action" (forms' targets, POST only)
    - /blog/: "blog" (the list; ?page=N); /blog/feeds/F/ and every archive's
      /blog/KIND/X/feeds/F/: "feed"; /blog/tag/X/, /blog/category/X/, /blog/author/X/:
      "tag", "category", "author"; /blog/archive/YYYY/ and /blog/archive/YYYY/M/: "archive"
    - /blog/SLUG/ and the dated forms /blog/YYYY/[MM/[DD/]]SLUG/: "post" (Mezzanine serves
      the post named by the slug, whatever the date); /blog/ + one of the blog's words
      alone, or anything else under /blog/: "other"
    - any other path: "page" (the page tree's catch-all, /about/team/)."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    if not segs:
        return "home"
    head = segs[0]
    if head in ("static", "media", "jsi18n") or path.lower().endswith(STATIC_EXT):
        return "static"
    if head in ACCOUNT:
        return "admin"
    if len(segs) == 1 and head == "search":
        return "search"
    if len(segs) == 1 and head == "sitemap.xml":
        return "feed"
    if len(segs) == 1 and head in ACTIONS:
        return "action"
    if head != BLOG:
        return "page"
    rest = segs[1:]
    if not rest:
        return "blog"
    if rest[0] == "feeds" and len(rest) == 2:
        return "feed"
    if rest[0] in ("tag", "category", "author"):
        if len(rest) == 2:
            return rest[0]
        if len(rest) == 4 and rest[2] == "feeds":
            return "feed"
        return "other"
    if rest[0] == "archive":
        if 2 <= len(rest) <= 3 and len(rest[1]) == 4 and all(s.isdigit() for s in rest[1:]):
            return "archive"
        return "other"
    if len(rest) == 1:
        return "other" if rest[0] in BLOG_WORDS else "post"
    dated = rest[:-1]
    if len(dated) <= 3 and len(dated[0]) == 4 and all(s.isdigit() and len(s) <= 4
                                                      for s in dated):
        return "post"
    return "other"


def entity_of(url: str) -> str | None:
    """The UCC page a URL shows: "post SLUG" for a post's URL in any of its forms, "page
    PATH" for a page of the page tree (a query does not change either); None for anything
    else."""
    kind = page_type(url)
    if kind not in UCC_TYPES:
        return None
    segs = [s for s in (loopback_path(url) or ("", []))[1]]
    return f"post {segs[-1]}" if kind == "post" else "page " + "/".join(segs)


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every post page (/blog/slug/) and static page (/about/team/); give the server
    (e.g. "http://127.0.0.1:8123") to get absolute URLs."""
    return entity_urls(folder, server)


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: posts, pages, by author, by category, comments."""
    rows = entity_rows(folder)
    posts = [r for r in rows if r["type"] == "post"]
    return {"posts": len(posts), "pages": [r["path"] for r in rows if r["type"] == "page"],
            "by_author": dict(sorted(Counter(r["author"] for r in posts).items())),
            "by_category": dict(sorted(Counter(c for r in posts
                                               for c in r["categories"]).items())),
            "comments": sum(r["comments"] for r in posts),
            "posts_by_comments": dict(sorted(Counter(r["comments"] for r in posts).items()))}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "posts", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        home_links = smoke.home_links
        posts = [u for u in ucc if page_type(u) == "post"]
        post = posts[len(posts) // 2]
        post_links = same_host_links(requests.get(post, timeout=30).content, post)
        blog = f"{server}/{BLOG}/"
        blog_links = same_host_links(requests.get(blog, timeout=30).content, blog)
        slug = urlsplit(post).path.rstrip("/").rsplit("/", 1)[-1]
        first = {page_type(u): u for u in sorted(home_links | post_links | blog_links,
                                                 reverse=True)}
        smoke_fetch([seed, post, f"{server}/{BLOG}/2024/05/01/{slug}/", *first.values(),
                     f"{blog}?page=2", f"{server}/search/?q=bread", f"{server}/sitemap.xml",
                     f"{blog}feeds/rss/", f"{server}/admin/", f"{server}/robots.txt",
                     f"{server}/comment/"], page_type, follow_redirects=False)
        print(f"POST {requests.post(post, timeout=30).status_code} (read-only)")
        print_link_types([("home", home_links), ("blog", blog_links), (post, post_links)],
                         page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
