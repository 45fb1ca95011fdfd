"""A real Wagtail blog, Puput 2.2.0 (from PyPI, on Wagtail 6.4 and Django 5.2), on 127.0.0.1
with generated entries.

The blog family's second real site, after `benchmarks.realsite.wordpress`, and a blog engine
no crawler setting was tuned on: Puput is the blog application of Wagtail sites, and this one
is a standalone Puput blog as its setup guide makes it: a small Django project (settings with
Puput's app list, `puput.urls` at the root, Wagtail's admin under /blog_admin/ as Puput's URLs
put it, Django's admin under /admin/), SQLite, and the blog page as the site's root page, so
that the blog is the home page and entries have Puput's "SEO friendly" dated URLs
(/2025/06/14/slug/). Every page is rendered by Puput's shipped templates with its default
settings (five entries a page, every sidebar widget on).

    build(folder)       fresh site in folder: the project (PROJECT_FILES), Wagtail's schema,
                        authors, categories (some nested), tags and entries from a generator
                        (deterministic for n_posts, seed), saved through Wagtail's page tree
    serve(folder)       the site under waitress (threaded) on a free port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every entry page (the UCC)

Puput and its dependencies (Wagtail 6.4.2, Django 5.2, django-el-pagination, django-taggit,
wagtail-markdown) live in a venv of their own, named by ARCHIVER_PUPUT_VENV (default: puvenv
in the temporary directory, /tmp/puvenv; Python 3.12 was used); `available()` says how to
create it. Everything the site runs goes through the helper script HELPER (its shared parts:
`benchmarks.realsite.helpertext`), run by that venv's python. The server is read-only: 405
to anything but GET and HEAD, the database opened read-only, sessions in signed cookies, and
the one write a page view can make (Puput's search counts each query in Wagtail's search
promotions, `Query.get(q).add_hit()`) is a no-op.

Comments: none. Puput's providers are Disqus (a script from Disqus' servers, nothing on the
page without them) and django-comments, for which Puput ships no template; the blog keeps
Puput's default, comments off. Entries have no header images (optional in Puput; their
renditions would be made, and written, at the first view).

The UCC (`entities`): every entry page (title, author, date, categories, up to five tags, the
body, share links, and for some entries "Related Entries"). An entry also answers at Wagtail's
own URL of the page, /slug/ (the blog is the root page); the rich-text links one entry makes
to an older one use that URL, as Wagtail writes every internal page link: another URL of the
same page, whose canonical link names the dated one.

What a visitor meets, on every page: the blog's title (a link home), and the sidebar with
the RSS feed (/feed/, the latest 20 entries), a search form (GET /search/?q=), the last three
entries, three "popular" ones (by comment count, so the latest three again), every top-level
category, every tag (most used first) and the archive: each year and each month with entries
(/2024/, /2024/03/; the day archives /2024/03/09/ exist but no page links them). Listings
(home, date, category, tag, author, search) show five entries each (title, author, date,
categories, tags, the first 70 words) with django-el-pagination's page links (?page=N:
"<" and ">" for the previous and next page, the first three, the last three and two either
side of the current page; page 1 is the listing's own URL).
Subcategories are linked only from the entries filed in them (the sidebar lists top-level
categories; a category's page lists only the entries filed in it directly). Share links
(Facebook, Twitter, LinkedIn), the footer's links and Google's font stylesheet are on other
hosts. No page links Wagtail's admin (its user bar shows for logged-in users only) nor the
sitemap (/sitemap.xml; it answers 500 here: Puput 2.2.0's `EntryPage.get_sitemap_urls`
hands the root URL, a string, where the root page is expected, and with the blog as the root
page the reverse of the entry URL fails); there is no robots.txt. Listings and entries carry
a canonical link (an absolute URL).

    python -m benchmarks.realsite.puput /tmp/pubench    # build, serve, smoke test
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
from urllib.parse import unquote, urlsplit

import requests

from benchmarks.realsite.helpertext import DJANGO, MAIN, SERVE
from benchmarks.realsite.php import (
    build_helper_site,
    entity_rows,
    entity_urls,
    loopback_path,
    print_link_types,
    same_host_links,
    serve_helper,
    smoke_fetch,
    smoke_site,
    venv_missing,
    write_files,
)
from benchmarks.realsite.words import FIRST, LAST, WORDS, post_title, slug
from benchmarks.realsite.words import paragraph as _paragraph
from benchmarks.realsite.words import sentence as _sentence
from benchmarks.realsite.words import stamp as _stamp

VENV = Path(os.environ.get("ARCHIVER_PUPUT_VENV")
            or Path(tempfile.gettempdir()) / "puvenv")
PUPUT_VERSION = "2.2.0"
INSTALL = (f"python3.12 -m venv {VENV} && {VENV}/bin/pip install puput=={PUPUT_VERSION} "
           f"wagtail==6.4.2 Django==5.2.19 waitress")
VERSION = 1  # of the generator and helper; part of the reuse marker
UCC_TYPES = {"entry"}
TARGET_TYPE = "entry"  # source-target's example is an entry
DESCRIPTION = ("Puput 2.2.0 on Wagtail 6.4.2 (a standalone blog as Puput's setup makes it, "
               "Puput's templates and defaults, SQLite), {size} generated entries "
               "(`benchmarks/realsite/puput.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("entry", "home", "date", "category", "tag", "author", "search", "feed",
              "admin", "static", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): Puput's
# blog_page.html renders the home page and every archive (date, category, tag, author,
# search), the archives adding a line "Entries for TYPE TERM"
SAME_TEMPLATE = {"home": "listing", "date": "listing", "category": "listing", "tag": "listing",
                 "author": "listing", "search": "listing"}
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico",
              ".woff", ".woff2", ".ttf", ".eot", ".otf", ".txt")
SITE_NAME = "Workbench Notes"
# First path segments that are no Wagtail page (Puput's routes, the admins, files)
RESERVED = {"tag", "category", "author", "search", "feed", "sitemap.xml", "blog_admin",
            "admin", "documents", "static", "media", "entry_page"}

# The project around Puput, as its setup guide has a standalone blog write it; the build
# writes them into the folder
PROJECT_FILES = {
    "site_project/__init__.py": "",
    "site_project/settings.py": '''# written by benchmarks/realsite/puput.py: a throwaway site
import os

from puput import PUPUT_APPS

BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEBUG = False
SECRET_KEY = "realsite-bench-secret"  # fixed: the same signed cookies every build
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
INSTALLED_APPS = [
    "django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes",
    "django.contrib.sessions", "django.contrib.messages", "django.contrib.staticfiles",
    "django.contrib.sitemaps",
] + list(PUPUT_APPS)
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "wagtail.contrib.redirects.middleware.RedirectMiddleware",
]
ROOT_URLCONF = "site_project.urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3",
                         "NAME": os.path.join(BASE, "site.sqlite3")}}
if os.environ.get("PUPUT_BENCH_READ_ONLY"):  # the server's: SQLite opened read-only
    DATABASES["default"]["NAME"] = "file:" + DATABASES["default"]["NAME"] + "?mode=ro"
    DATABASES["default"]["OPTIONS"] = {"uri": True}
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"  # no session rows
USE_TZ = True
TIME_ZONE = "UTC"
LANGUAGE_CODE = "en"
STATIC_URL = "/static/"
MEDIA_ROOT = os.path.join(BASE, "media")
MEDIA_URL = "/media/"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
WAGTAIL_SITE_NAME = "''' + SITE_NAME + '''"
WAGTAILADMIN_BASE_URL = "http://127.0.0.1"
PUPUT_AS_PLUGIN = False  # Puput's URLs bring Wagtail's (admin, documents, pages, sitemap)
''',
    "site_project/urls.py": '''from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path
from django.views.static import serve

urlpatterns = [
    path("admin/", admin.site.urls),
    # the uploads, served by Django (a small site without a separate web server)
    re_path(r"^media/(?P<path>.*)$", serve, {"document_root": settings.MEDIA_ROOT}),
    path("", include("puput.urls")),
]
''',
}

HELPER = '''"""Run by benchmarks/realsite/puput.py with Puput's venv (python -I), in the site's
folder: "install" (schema), "content" (the JSON spec on stdin; writes entities.jsonl),
"serve PORT THREADS" (read-only, GET and HEAD only)."""
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
        os.environ["PUPUT_BENCH_READ_ONLY"] = "1"
    import django

    django.setup()


def rich_text(paragraphs, link=None):
    """Wagtail's stored rich text: paragraphs, the second ending with a link to an older
    entry (Wagtail's internal link form, rendered as that page's URL)."""
    out = []
    for i, text in enumerate(paragraphs):
        if i == 1 and link is not None:
            text += ' See also <a linktype="page" id="%d">%s</a>.' % link
        out.append("<p>%s</p>" % text)
    return "".join(out)


def content(spec):
    setup()
    fast_sqlite()
    from django.contrib.auth.models import User
    from wagtail.models import Page, Site

    from puput.models import BlogPage, Category, CategoryEntryPage, EntryPage, EntryPageRelated
    from puput.urls import get_entry_url

    users = {}
    for a in spec["authors"]:
        users[a["username"]] = User.objects.create_user(
            a["username"], a["username"] + "@example.org", None,
            first_name=a["first"], last_name=a["last"])
    User.objects.create_superuser("admin", "admin@example.org", None)
    categories = {}
    for c in spec["categories"]:
        categories[c["slug"]] = Category.objects.create(
            name=c["name"], slug=c["slug"], description=c["description"],
            parent=categories.get(c["parent"]))
    # the blog as the site's root page, in place of Wagtail's welcome page
    root = Page.objects.get(depth=1)
    blog = root.add_child(instance=BlogPage(title=spec["site_name"], slug="blog",
                                            description=spec["description"]))
    site = Site.objects.get(is_default_site=True)
    welcome = site.root_page
    site.root_page, site.site_name, site.hostname = blog, spec["site_name"], "127.0.0.1"
    site.save()
    welcome.delete()
    pages = []
    for e in spec["entries"]:
        date = dt.datetime.fromisoformat(e["date"])
        link = None
        if e["links_to"] is not None:
            older = pages[e["links_to"]]
            link = (older.pk, older.title)
        entry = EntryPage(title=e["title"], slug=e["slug"], date=date,
                          body=rich_text(e["body"], link),
                          excerpt="<p>%s</p>" % e["excerpt"] if e["excerpt"] else "",
                          owner=users[e["author"]], first_published_at=date,
                          last_published_at=date, live=True)
        entry.tags.add(*e["tags"])
        entry.entry_categories = [CategoryEntryPage(category=categories[c])
                                  for c in e["categories"]]
        entry.related_entrypage_from = [EntryPageRelated(entrypage_to=pages[i])
                                        for i in e["related"]]
        blog.add_child(instance=entry)
        pages.append(entry)
    with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
        for entry in EntryPage.objects.order_by("pk"):
            out.write(json.dumps({"type": "entry", "slug": entry.slug,
                                  "author": entry.owner.username,
                                  "categories": [c.slug for c in entry.categories.all()],
                                  "tags": len(entry.tags.all()),
                                  "wagtail_path": entry.url,
                                  "path": get_entry_url(entry, blog.page_ptr, blog.page_ptr)})
                      + "\\n")


def serve(port, threads):
    setup(read_only=True)
    import types

    import puput.routes

    # Puput's search counts each query (Query.get(q).add_hit(), a database write): a no-op
    no_hit = types.SimpleNamespace(add_hit=lambda: None)
    puput.routes.Query = types.SimpleNamespace(get=lambda text: no_hit)
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.wsgi import get_wsgi_application

    serve_read_only(StaticFilesHandler(get_wsgi_application()), port, threads, "puput")
''' + DJANGO + SERVE + MAIN

# What the blog writes about: a workshop's notes (the words of `benchmarks.realsite.words`)
CATEGORIES = [  # (name, parent name or None)
    ("Workshop", None), ("Woodwork", "Workshop"), ("Metalwork", "Workshop"),
    ("Electronics", "Workshop"), ("Kitchen", None), ("Baking", "Kitchen"),
    ("Coffee", "Kitchen"), ("Outdoors", None), ("Cycling", "Outdoors"),
    ("Hiking", "Outdoors"), ("Garden", None), ("Photography", None), ("Notes", None),
]
TOPICS = ["bench", "lathe", "chisel", "plane", "saw", "solder", "sensor", "battery", "bread",
          "dough", "oven", "coffee", "grinder", "roast", "bike", "brake", "chain", "tyre",
          "trail", "tent", "stove", "map", "soil", "seeds", "film", "lens", "prints",
          "paint", "glue", "hinge", "weld", "steel", "winter", "summer", "repair",
          "weekend", "route", "weather", "kitchen", "tools"]


def generate(n_posts: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """Six authors' entries over three years, about one every three or four days, each in one
    or two categories (a subcategory for most) with two to six tags; a fifth link an older
    entry in their text, a sixth have related entries, a quarter have an excerpt."""
    rng = random.Random(seed)
    authors = []
    for first, last in zip(rng.sample(FIRST, 6), rng.sample(LAST, 6), strict=True):
        authors.append({"username": first.lower(), "first": first, "last": last})
    categories = [{"name": name, "slug": slug(name), "parent": parent and slug(parent),
                   "description": _sentence(rng, (6, 12))} for name, parent in CATEGORIES]
    leaves = [c["slug"] for c in categories
              if not any(d["parent"] == c["slug"] for d in categories)]
    start = now - dt.timedelta(days=3 * 365)
    step = (now - dt.timedelta(days=1) - start) / n_posts
    titles: Counter[str] = Counter()
    entries: list[dict[str, Any]] = []
    for i in range(n_posts):
        date = start + step * i + dt.timedelta(minutes=rng.randint(0, int(step.total_seconds()
                                                                          // 60)))
        date = date.replace(second=0)
        title = post_title(rng)
        titles[title] += 1
        if titles[title] > 1:  # slugs are unique among the blog's children
            title = f"{title} ({titles[title]})"
        cats = [rng.choice(leaves)]
        if rng.random() < 0.3:
            cats.append(rng.choice([c["slug"] for c in categories]))
        entries.append({
            "title": title, "slug": slug(title.replace("(", "").replace(")", "")),
            "date": _stamp(date), "author": rng.choice(authors)["username"],
            "body": [_paragraph(rng, (3, 7)) for _ in range(rng.randint(2, 6))],
            "excerpt": _sentence(rng, (15, 30)) if rng.random() < 0.25 else "",
            "tags": sorted(set(rng.sample(TOPICS, rng.randint(2, 6)))),
            "categories": sorted(set(cats)),
            "links_to": rng.randrange(i) if i and rng.random() < 0.2 else None,
            "related": sorted(set(rng.sample(range(i), min(i, rng.randint(1, 3)))))
            if i and rng.random() < 1 / 6 else []})
    return {"site_name": SITE_NAME,
            "description": f"Notes from a shared {rng.choice(WORDS[40:])} workshop",
            "authors": authors, "categories": categories, "entries": entries}


def available() -> str | None:
    """None if Puput's venv is there, else how to make it."""
    return venv_missing(VENV, "puput", PUPUT_VERSION, "ARCHIVER_PUPUT_VENV", INSTALL)


def build(folder: Path, n_posts: int = 300, seed: int = 0) -> Path:
    """Build a fresh site in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    return build_helper_site(
        folder, VENV, {"n_posts": n_posts, "seed": seed, "version": VERSION},
        "Puput site", HELPER, lambda now: generate(n_posts, seed, now),
        write_files(PROJECT_FILES))


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the site built in folder (waitress with `workers` threads, read-only) on a free
    port; yields the home URL."""
    with serve_helper(VENV, folder, workers, "puput") as seed:
        yield seed


def page_type(url: str) -> str:
    """Ground truth from the URL alone (the project's urls.py, Puput's and Wagtail's, the
    blog being the root page), in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - /static/..., /media/... or a static file by its extension: "static"
    - /admin/... and /blog_admin/... (Django's and Wagtail's admin; their login forms):
      "admin"
    - /feed/: "feed" (RSS); /sitemap.xml: "other"
    - / (any query, e.g. ?page=N): "home"; /search/: "search"
    - /tag/SLUG/, /category/SLUG/, /author/NAME/: their own types
    - /YYYY/, /YYYY/MM/, /YYYY/MM/DD/: "date"; /YYYY/MM/DD/SLUG/: "entry" (Puput serves the
      entry named by the slug, whatever the date)
    - /SLUG/ (one segment, not one of Puput's words): "entry" (Wagtail's URL of the page)
    - anything else: "other"."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    if not segs:
        return "home"
    head = segs[0]
    if head in ("static", "media") or path.lower().endswith(STATIC_EXT):
        return "static"
    if head in ("admin", "blog_admin"):
        return "admin"
    if len(segs) == 1 and head in ("feed", "search"):
        return head
    if len(segs) == 2 and head in ("tag", "category", "author"):
        return head
    if head.isdigit():
        if len(head) == 4 and len(segs) <= 3 and all(s.isdigit() for s in segs):
            return "date"
        if len(segs) == 4 and all(s.isdigit() for s in segs[:3]):
            return "entry"
        return "other"
    if len(segs) == 1 and head not in RESERVED:
        return "entry"
    return "other"


def entity_of(url: str) -> str | None:
    """The entry page a URL shows: "entry SLUG" for its dated URL (any date) and Wagtail's
    /SLUG/ (a query does not change it); None for anything else."""
    if page_type(url) not in UCC_TYPES:
        return None
    segs = [unquote(s) for s in urlsplit(url).path.split("/") if s]
    return f"entry {segs[-1]}"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every entry page, as the site links them (/YYYY/MM/DD/slug/); give the server
    (e.g. "http://127.0.0.1:8123") to get absolute URLs."""
    return entity_urls(folder, server)


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: entries, by author, by category, tags per entry."""
    rows = entity_rows(folder)
    return {"entries": len(rows),
            "by_author": dict(sorted(Counter(r["author"] for r in rows).items())),
            "by_category": dict(sorted(Counter(c for r in rows
                                               for c in r["categories"]).items())),
            "tags_per_entry": dict(sorted(Counter(r["tags"] for r in rows).items()))}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "posts", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        home_links = smoke.home_links
        entry = ucc[len(ucc) // 2]
        entry_links = same_host_links(requests.get(entry, timeout=30).content, entry)
        slug = f"{server}/{urlsplit(entry).path.rstrip('/').rsplit('/', 1)[-1]}/"
        first = {page_type(u): u for u in sorted(home_links | entry_links, reverse=True)}
        smoke_fetch([seed, entry, slug, *first.values(), f"{server}/?page=2",
                     f"{server}/search/?q=bread", f"{server}/sitemap.xml",
                     f"{server}/blog_admin/", f"{server}/admin/", f"{server}/robots.txt"],
                    page_type, follow_redirects=False)
        print(f"POST {requests.post(seed, timeout=30).status_code} (read-only)")
        print_link_types([("home", home_links), (entry, entry_links)], page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
