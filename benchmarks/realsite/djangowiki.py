"""A real django-wiki, wiki 0.13.0 (from PyPI, on Django 6.0), on 127.0.0.1 with generated
articles.

The wiki family's third real site, after `benchmarks.realsite.mediawiki` and
`benchmarks.realsite.dokuwiki`, and a wiki engine no crawler setting was tuned on:
django-wiki is the wiki application of Django sites, and this one is a standalone wiki as
its installation guide makes it (a small Django project of our own: the guide's app list,
sites, humanize, django_nyt, mptt, sekizai, sorl.thumbnail, the wiki and its attachments,
notifications, images and macros plugins, plus the links plugin for `wiki:` links;
django_nyt's URLs under /notifications/ and the wiki's at the root; SQLite). Every page is
rendered by django-wiki's shipped templates with its default settings. Articles live in a
tree and their URLs are the tree's paths (/workshop/lathe-notes/).

    build(folder)       fresh wiki in folder: the project (PROJECT_FILES), the schema, users,
                        the article tree with its revisions and a few attachments from a
                        generator (deterministic for n_pages, seed), written through
                        django-wiki's models (`URLPath.create_root`,
                        `URLPath.create_urlpath`, `Article.add_revision`, the attachments
                        plugin's `Attachment` and `AttachmentRevision`)
    serve(folder)       the wiki under waitress (threaded) on a free port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every article page (the UCC)

django-wiki and its dependencies (Django 6.0, django-mptt, django-nyt, django-sekizai,
sorl-thumbnail, Markdown, bleach, Pillow) live in a venv of their own, named by
ARCHIVER_DJANGOWIKI_VENV (default: djvenv in the temporary directory, /tmp/djvenv; Python
3.12 was used); `available()` says how to create it. Everything the site runs goes through
the helper script HELPER (its shared parts: `benchmarks.realsite.helpertext`), run by that
venv's python. The server is read-only: 405 to anything but GET and HEAD, the database
opened read-only (SQLite mode=ro), sessions in signed cookies, rendered articles cached in
each process's memory (Django's default cache). Anonymous users read (WIKI_ANONYMOUS, the
default) and may neither write, create nor upload (WIKI_ANONYMOUS_WRITE, _CREATE, _UPLOAD
off, the defaults); sign-up is open (the default), so every page links "Log in" and "Sign
up". No mail is sent (a dummy backend). The one link off the site is the navbar's "About"
(django-wiki's GitHub page).

The UCC (`entities`): every article page (the root article at / included): the title,
breadcrumbs, the rendered text (sections, lists, wiki links to other articles) and the
date of its last change. The tree is what the wiki's users wrote; its other views are the
wiki's machinery: an article's history (/PATH/_history/, every revision with its author,
message and date, linking a preview and a diff of each), its source (/PATH/_source/, the
Markdown of the current revision), its directory (/PATH/_dir/, the children, paginated),
its attachments (/PATH/_plugin/attachments/, the list, each file's history and download).
Old revisions, diffs and sources repeat the article's text; attachments are files users
uploaded, but the test .txt files here are a few lines each and a crawler that archives the
article pages archives what a reader of the wiki reads. So none of them counts (as on the
MediaWiki and the DokuWiki, where the page, not its history or source, is the UCC).
An article also answers at /ID/ (its article id), which no page links; `entity_of` cannot
name the article from that URL alone, so it does not count.

What a guest meets on an article page: the navbar (the wiki's root, "Home" (/), "About",
the search form (GET /PATH/_search/?q=), "Log in" (/_accounts/login/?next=PATH, a URL per
page; on a login page it nests that page's URL, an endless chain) and "Sign up"
(/_accounts/sign-up/)), the breadcrumbs (each ancestor, then two dropdowns: the article's
children (at most 20) with "Browse articles in this level" (/PATH/_dir/), and "New article
next to / below" (/PARENT/_create/, /PATH/_create/: a redirect to the login for a guest)),
the article menu ("View", "Changes" (the history), "Source" and the attachments plugin's
tab; "Edit" and "Settings" are shown to writers only), the text, and "This article was
last modified: DATE". A history's revision previews and diffs load by script (no link).
Wiki links to articles never written lead to the create form, which sends a guest to the
login. No robots.txt (/robots.txt redirects to /robots.txt/, a missing article), no
sitemap, no feed.

    python -m benchmarks.realsite.djangowiki /tmp/djbench    # build, serve, smoke test
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
    same_host_links,
    serve_helper,
    smoke_fetch,
    smoke_site,
    venv_missing,
    write_files,
)
from benchmarks.realsite.words import FIRST, LAST, NOUNS, PLACES, slug, user_name
from benchmarks.realsite.words import paragraph as _paragraph
from benchmarks.realsite.words import sentence as _sentence
from benchmarks.realsite.words import stamp as _stamp

VENV = Path(os.environ.get("ARCHIVER_DJANGOWIKI_VENV")
            or Path(tempfile.gettempdir()) / "djvenv")
WIKI_VERSION = "0.13.0"
DJANGO_VERSION = "6.0.10"
INSTALL = (f"python3.12 -m venv {VENV} && {VENV}/bin/pip install wiki=={WIKI_VERSION} "
           f"Django=={DJANGO_VERSION} waitress  (python3.12, as tested; wiki 0.13.0 declares "
           f"django>=4.2,<6.1)")
VERSION = 1  # of the generator and helper; part of the reuse marker
UCC_TYPES = {"article"}
TARGET_TYPE = "article"  # source-target's example is an article
DESCRIPTION = ("django-wiki 0.13.0 on Django 6.0.10 (a standalone wiki as its installation "
               "guide makes it, its templates and defaults, SQLite), {size} generated "
               "articles in a tree (`benchmarks/realsite/djangowiki.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("article", "history", "source", "dir", "diff", "preview", "attachments",
              "download", "images", "search", "account", "write", "article_id",
              "notifications", "admin", "static", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): none; the
# article, its history, source, directory and plugin tabs are each a template of their own
SAME_TEMPLATE: dict[str, str] = {}
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico",
              ".woff", ".woff2", ".ttf", ".eot", ".otf", ".map", ".txt")
SITE_NAME = "Workbench Wiki"
# An article's views: /PATH/_VIEW/ (the wiki's urls.py, get_article_path_urls)
VIEWS = {"_history": "history", "_source": "source", "_dir": "dir", "_search": "search",
         "_edit": "write", "_create": "write", "_delete": "write", "_deleted": "write",
         "_move": "write", "_settings": "write", "_preview": "write", "_revision": "write"}
# Plugin views: /PATH/_plugin/SLUG/REST (the attachments', images', links' and
# notifications' urls)
ATTACHMENT_VIEWS = {"": "attachments", "search": "attachments", "history": "attachments",
                    "download": "download"}  # add, replace, delete, change: "write"

PROJECT_FILES = {
    "wiki_project/__init__.py": "",
    "wiki_project/settings.py": '''# written by benchmarks/realsite/djangowiki.py: a throwaway wiki
import os

BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEBUG = False
SECRET_KEY = "realsite-bench-secret"  # fixed: the same signed cookies every build
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
SITE_ID = 1
# the installation guide's apps, in its order, and the links plugin (wiki: links)
INSTALLED_APPS = [
    "django.contrib.contenttypes", "django.contrib.auth", "django.contrib.sessions",
    "django.contrib.messages", "django.contrib.staticfiles", "django.contrib.admin",
    "django.contrib.sites.apps.SitesConfig",
    "django.contrib.humanize.apps.HumanizeConfig",
    "django_nyt.apps.DjangoNytConfig",
    "mptt",
    "sekizai",
    "sorl.thumbnail",
    "wiki.apps.WikiConfig",
    "wiki.plugins.attachments.apps.AttachmentsConfig",
    "wiki.plugins.notifications.apps.NotificationsConfig",
    "wiki.plugins.images.apps.ImagesConfig",
    "wiki.plugins.macros.apps.MacrosConfig",
    "wiki.plugins.links.apps.LinksConfig",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
ROOT_URLCONF = "wiki_project.urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.contrib.auth.context_processors.auth",
        "django.template.context_processors.debug",
        "django.template.context_processors.i18n",
        "django.template.context_processors.media",
        "django.template.context_processors.request",
        "django.template.context_processors.static",
        "django.template.context_processors.tz",
        "django.contrib.messages.context_processors.messages",
        "sekizai.context_processors.sekizai",
    ]},
}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3",
                         "NAME": os.path.join(BASE, "site.sqlite3")}}
if os.environ.get("DJANGOWIKI_BENCH_READ_ONLY"):  # the server's: SQLite opened read-only
    DATABASES["default"]["NAME"] = "file:" + DATABASES["default"]["NAME"] + "?mode=ro"
    DATABASES["default"]["OPTIONS"] = {"uri": True}
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"  # no session rows
EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
USE_TZ = True
TIME_ZONE = "UTC"
LANGUAGE_CODE = "en"
STATIC_URL = "/static/"
MEDIA_ROOT = os.path.join(BASE, "media")
MEDIA_URL = "/media/"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
LOGIN_REDIRECT_URL = "/"
WIKI_ANONYMOUS_WRITE = False  # the defaults, said aloud: guests read, nothing more
WIKI_ANONYMOUS_CREATE = False
WIKI_ANONYMOUS_UPLOAD = False
''',
    "wiki_project/urls.py": '''from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("notifications/", include("django_nyt.urls")),
    path("", include("wiki.urls")),
]
''',
}

HELPER = '''"""Run by benchmarks/realsite/djangowiki.py with django-wiki's venv (python -I), in the
site's folder: "install" (schema), "content" (the JSON spec on stdin; writes
entities.jsonl), "serve PORT THREADS" (read-only, GET and HEAD only)."""
import datetime as dt
import json
import os
import random
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # the project's package (python -I leaves the folder out)
sys.dont_write_bytecode = True
warnings.simplefilter("ignore")


def setup(read_only=False):
    os.environ["DJANGO_SETTINGS_MODULE"] = "wiki_project.settings"
    if read_only:
        os.environ["DJANGOWIKI_BENCH_READ_ONLY"] = "1"
    import django

    django.setup()


def content(spec):
    setup()
    fast_sqlite()
    random.seed(0)  # the attachments plugin names each upload's folder by random
    from django.contrib.auth.models import User
    from django.contrib.sites.models import Site
    from django.core.files.base import ContentFile

    from wiki.models import Article, ArticleRevision, URLPath
    from wiki.plugins.attachments.models import Attachment, AttachmentRevision

    site = Site.objects.get_current()
    site.domain, site.name = "127.0.0.1", spec["site_name"]
    site.save()
    users = {}
    for u in spec["users"]:
        users[u["username"]] = User.objects.create_user(
            u["username"], u["username"] + "@example.org", None,
            first_name=u["first"], last_name=u["last"])
    User.objects.create_superuser("admin", "admin@example.org", None)
    paths, dates = [], []
    for a in spec["articles"]:
        first = a["revisions"][0]
        user = users[first["user"]]
        if a["parent"] is None:
            urlpath = URLPath.create_root(site=site, title=a["title"],
                                          content=first["content"], user=user,
                                          user_message=first["message"])
            urlpath.article.owner = user
            urlpath.article.save()
        else:
            urlpath = URLPath.create_urlpath(
                paths[a["parent"]], a["slug"], site=site, title=a["title"],
                article_kwargs={"owner": user}, content=first["content"], user=user,
                user_message=first["message"])
        article = urlpath.article
        for rev in a["revisions"][1:]:
            revision = ArticleRevision()
            revision.inherit_predecessor(article)
            revision.title = a["title"]
            revision.content = rev["content"]
            revision.user = users[rev["user"]]
            revision.user_message = rev["message"]
            article.add_revision(revision)
        for k, rev in enumerate(article.articlerevision_set.order_by("revision_number")):
            when = dt.datetime.fromisoformat(a["revisions"][k]["date"])
            ArticleRevision.objects.filter(pk=rev.pk).update(created=when, modified=when)
        for f in a["attachments"]:
            attachment = Attachment(article=article, original_filename=f["name"])
            attachment.save()
            attachment.articles.add(article)
            for rev in f["revisions"]:
                revision = AttachmentRevision(attachment=attachment,
                                              user=users[rev["user"]],
                                              user_message=rev["message"],
                                              description=rev["description"])
                revision.file.save(f["name"], ContentFile(rev["text"].encode()), save=False)
                revision.save()
                attachment.current_revision = revision
                attachment.save()
                AttachmentRevision.objects.filter(pk=revision.pk).update(
                    created=dt.datetime.fromisoformat(rev["date"]),
                    modified=dt.datetime.fromisoformat(rev["date"]))
        Article.objects.filter(pk=article.pk).update(
            created=dt.datetime.fromisoformat(first["date"]),
            modified=dt.datetime.fromisoformat(a["revisions"][-1]["date"]))
        paths.append(urlpath)
    with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
        for a, urlpath in zip(spec["articles"], paths):
            urlpath.refresh_from_db()
            out.write(json.dumps({"type": "article", "path": urlpath.get_absolute_url(),
                                  "article_id": urlpath.article_id,
                                  "depth": urlpath.level,
                                  "author": a["revisions"][0]["user"],
                                  "revisions": urlpath.article.articlerevision_set.count(),
                                  "attachments": len(a["attachments"])}) + "\\n")


def serve(port, threads):
    setup(read_only=True)
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.wsgi import get_wsgi_application

    serve_read_only(StaticFilesHandler(get_wsgi_application()), port, threads, "djangowiki")
''' + DJANGO + SERVE + MAIN

# What the wiki is about: a shared workshop's know-how (the words of
# `benchmarks.realsite.words`), in sections
SECTIONS = ["Workshop", "Woodwork", "Metalwork", "Electronics", "Kitchen", "Baking",
            "Coffee", "Cycling", "Hiking", "Garden", "Photography", "Tools"]
MESSAGES = ["typo", "fixed a link", "more detail", "rewrote the intro", "added a section",
            "clarified the steps", "updated after the last session", "", "formatting",
            "corrected the measurements"]


def _title(rng: random.Random) -> str:
    return rng.choice([
        f"{rng.choice(NOUNS).capitalize()} and {rng.choice(NOUNS)}",
        f"Notes on the {rng.choice(NOUNS)} {rng.choice(NOUNS)}",
        f"{rng.choice(NOUNS).capitalize()} {rng.choice(NOUNS)}",
        f"How to fix the {rng.choice(NOUNS)}",
        f"{rng.choice(NOUNS).capitalize()} {rng.choice(NOUNS)} in {rng.choice(PLACES)}",
        f"{rng.choice(NOUNS).capitalize()} checklist"])


def _body(rng: random.Random, links: list[tuple[str, str]], toc: bool) -> list[str]:
    """An article's Markdown as blocks: an introduction, two to five sections of paragraphs
    (some with a list), the wiki links spread over them (`[Title](wiki:/path/)`)."""
    blocks = ["[TOC]"] if toc else []
    blocks.append(_paragraph(rng, (2, 4)))
    for _ in range(rng.randint(2, 5)):
        blocks.append(f"## {rng.choice(NOUNS).capitalize()} {rng.choice(NOUNS)}")
        blocks.append(_paragraph(rng, (2, 6)))
        if rng.random() < 0.3:
            blocks.append("\n".join(f"- {_sentence(rng, (3, 8))}"
                                    for _ in range(rng.randint(2, 5))))
    for title, path in links:
        k = rng.randrange(1, len(blocks))
        while blocks[k].startswith(("## ", "- ", "[")):  # into a paragraph
            k = (k + 1) % len(blocks) or 1
        blocks[k] += f" See [{title}](wiki:{path})."
    return blocks


def generate(n_pages: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """A wiki of `n_pages` articles (the root one included) written by 20 users over two
    years: the root, twelve sections under it, and every other article under a section
    (about half) or under an article of depth 1 or 2 (depth at most 3), titles unique among
    siblings. Each article has one to six revisions (each by one of the users, the first
    by its creator, dated after its parent's first), wiki links to up to four other
    articles (and, for one in twenty, to an article never written), and one in ten an
    attached .txt file (some replaced once). The root lists the sections (a bulleted list
    of wiki links), each section its children with the macros plugin's
    [article_list depth:1] (not their children)."""
    rng = random.Random(seed)
    users = []
    for first, last in zip(FIRST, rng.sample(LAST * 2, 20), strict=True):
        users.append({"username": user_name(rng, first, last).lower(), "first": first,
                      "last": last})
    names = [u["username"] for u in users]
    start = now - dt.timedelta(days=2 * 365)
    articles: list[dict[str, Any]] = [{"parent": None, "slug": "", "title": SITE_NAME,
                                       "path": "/", "depth": 0}]
    for name in SECTIONS[:max(0, min(len(SECTIONS), n_pages - 1))]:
        articles.append({"parent": 0, "slug": slug(name), "title": name,
                         "path": f"/{slug(name)}/", "depth": 1})
    taken = {(a["parent"], a["slug"]) for a in articles}
    while len(articles) < n_pages:
        if rng.random() < 0.5:
            parent = rng.randint(1, len(SECTIONS))
        else:
            parent = rng.choice([i for i, a in enumerate(articles) if 1 <= a["depth"] <= 2])
        title = first = _title(rng)
        n = 1
        while (parent, slug(title)) in taken:  # slug() drops the parentheses
            n += 1
            title = f"{first} ({n})"
        s = slug(title)
        taken.add((parent, s))
        articles.append({"parent": parent, "slug": s, "title": title,
                         "path": f"{articles[parent]['path']}{s}/",
                         "depth": articles[parent]["depth"] + 1})
    span = (now - dt.timedelta(days=1) - start) / max(1, n_pages)
    for i, a in enumerate(articles):
        created = start + span * i + dt.timedelta(minutes=rng.randint(0, 600))
        others = [j for j in range(len(articles)) if j != i]
        links = [(articles[j]["title"], articles[j]["path"])
                 for j in sorted(rng.sample(others, min(len(others), rng.randint(0, 4))))]
        if i and rng.random() < 0.05:  # a wanted article, never written
            wanted = f"{rng.choice(NOUNS).capitalize()} {rng.choice(PLACES)} guide"
            links.append((wanted, f"{a['path']}{slug(wanted)}/"))
        blocks = _body(rng, links, toc=rng.random() < 0.2)
        if i == 0:  # the main page: the sections, by hand
            blocks.insert(1, "\n".join(f"- [{b['title']}](wiki:{b['path']})"
                                        for b in articles if b["depth"] == 1))
        elif a["depth"] == 1:  # a section: its articles (not theirs: depth 1)
            blocks.insert(1, "[article_list depth:1]")
        n_revs = rng.choices([1, 2, 3, 4, 5, 6], [3, 4, 3, 2, 1, 1])[0]
        author = rng.choice(names)
        revisions, when = [], created
        for k in range(n_revs):
            if k:
                when = min(now - dt.timedelta(minutes=n_revs - k),
                           when + dt.timedelta(hours=rng.expovariate(1 / 300)))
                j = rng.randrange(1, len(blocks))
                if blocks[j].startswith(("## ", "- ", "[")) or rng.random() < 0.4:
                    blocks.append(_paragraph(rng, (1, 3)))  # a paragraph more
                else:
                    blocks[j] = _paragraph(rng, (2, 5)) + "".join(
                        f" See [{t}](wiki:{p})." for t, p in links if f"wiki:{p})" in
                        blocks[j])  # the paragraph rewritten, its links kept
            revisions.append({"user": author if not k else rng.choice(names),
                              "date": _stamp(when.replace(microsecond=0)),
                              "message": "" if not k else rng.choice(MESSAGES),
                              "content": "\n\n".join(blocks)})
        attachments = []
        if i and rng.random() < 0.1:
            name = f"{slug(rng.choice(NOUNS))}-{rng.choice(['notes', 'list', 'plan'])}.txt"
            revs = []
            for k in range(rng.choice([1, 1, 2])):
                revs.append({"user": rng.choice(names), "message": "" if not k else "updated",
                             "description": _sentence(rng, (4, 9)),
                             "text": "\n".join(_sentence(rng) for _ in range(rng.randint(3,
                                                                                         8))),
                             "date": _stamp((when + dt.timedelta(hours=k + 1)).replace(
                                 microsecond=0))})
            attachments.append({"name": name, "revisions": revs})
        a.update(revisions=revisions, attachments=attachments)
    return {"site_name": SITE_NAME, "users": users, "articles": articles}


def available() -> str | None:
    """None if django-wiki's venv is there, else how to make it."""
    return venv_missing(VENV, "wiki", WIKI_VERSION, "ARCHIVER_DJANGOWIKI_VENV", INSTALL)


def build(folder: Path, n_pages: int = 300, seed: int = 0) -> Path:
    """Build a fresh wiki in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    return build_helper_site(
        folder, VENV, {"n_pages": n_pages, "seed": seed, "version": VERSION},
        "django-wiki site", HELPER, lambda now: generate(n_pages, seed, now),
        write_files(PROJECT_FILES))


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the wiki built in folder (waitress with `workers` threads, read-only) on a free
    port; yields the home URL."""
    with serve_helper(VENV, folder, workers, "djangowiki") as seed:
        yield seed


def _view(segs: list[str]) -> list[str]:
    """The segments of an article URL's view: from the first segment beginning with "_" (no
    slug does; the ones before are the article's path); [] for the article itself."""
    for k, s in enumerate(segs):
        if s.startswith("_"):
            return segs[k:]
    return []


def page_type(url: str) -> str:
    """Ground truth from the URL alone (the project's urls.py and django-wiki's), in this
    order:
    - another host than 127.0.0.1 or localhost: "other"
    - /static/..., /media/... or a static file by its extension (robots.txt, favicon.ico):
      "static"
    - /admin/... (Django's admin) and /_admin/ (the wiki's deleted articles): "admin"
    - /notifications/... (django_nyt): "notifications"
    - /_accounts/... (log in, sign up, log out, the user's settings): "account"
    - /_revision/diff/N/: "diff" (a revision's changes, JSON); /_revision/preview/ID/ and
      /_revision/merge/...: "preview"; /_revision/change/...: "write"
    - /create-root/, /missing-root/: "write"
    - /ID/ and /ID/VIEW/ (an article by its id): "article_id"
    - /PATH/_plugin/attachments/ (the list; search, a file's history too): "attachments";
      .../download/N/ (and .../download/N/revision/M/): "download"; its add, replace,
      delete and change views: "write"; /PATH/_plugin/images/...: "images"; any other
      plugin's view (links' JSON, notifications): "write"
    - /PATH/_history/, _source/, _dir/, _search/: those types ("history", "source",
      "dir", "search"); _edit/, _create/, _delete/, _deleted/, _move/, _settings/,
      _preview/, _revision/...: "write"
    - /PATH/ (/ included, any query): "article"
    - anything else: "other"."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    if not segs:
        return "article"
    head = segs[0]
    if head in ("static", "media") or path.lower().endswith(STATIC_EXT):
        return "static"
    if head in ("admin", "_admin"):
        return "admin"
    if head == "notifications":
        return "notifications"
    if head == "_accounts":
        return "account"
    if head == "_revision":
        kind = segs[1] if len(segs) > 1 else ""
        return {"diff": "diff", "preview": "preview", "merge": "preview"}.get(kind, "write")
    if head in ("create-root", "missing-root"):
        return "write"
    if head.isdigit():
        return "article_id"
    view = _view(segs)
    if not view:
        return "article" if path.endswith("/") else "other"
    if view[0] == "_plugin":
        plugin = view[1] if len(view) > 1 else ""
        if plugin == "attachments":
            return ATTACHMENT_VIEWS.get(view[2] if len(view) > 2 else "", "write")
        return "images" if plugin == "images" else "write"
    return VIEWS.get(view[0], "other")


def entity_of(url: str) -> str | None:
    """The article a URL shows: "article /PATH/" (lowercased: django-wiki looks paths up
    without regard to case, WIKI_URL_CASE_SENSITIVE being off; a query does not change
    it); None for anything else, an article's /ID/ URL included."""
    if page_type(url) not in UCC_TYPES:
        return None
    path = urlsplit(url).path or "/"
    segs = [s for s in path.split("/") if s]
    return "article /" + "".join(f"{s}/" for s in segs).lower()


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every article page (/, /section/, /section/slug/, ...); give the server
    (e.g. "http://127.0.0.1:8123") to get absolute URLs."""
    return entity_urls(folder, server)


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: articles, by depth, revisions per article, authors,
    articles with attachments."""
    rows = entity_rows(folder)
    return {"articles": len(rows),
            "by_depth": dict(sorted(Counter(r["depth"] for r in rows).items())),
            "revisions": dict(sorted(Counter(r["revisions"] for r in rows).items())),
            "authors": len({r["author"] for r in rows}),
            "with_attachments": sum(1 for r in rows if r["attachments"])}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "pages", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        home_links = smoke.home_links
        article = ucc[len(ucc) // 2]
        article_links = same_host_links(requests.get(article, timeout=30).content, article)
        path = urlsplit(article).path
        first = {page_type(u): u for u in sorted(home_links | article_links, reverse=True)}
        smoke_fetch([seed, article, *first.values(), f"{server}{path}_history/",
                     f"{server}{path}_source/", f"{server}{path}_dir/",
                     f"{server}{path}_plugin/attachments/", f"{server}/_search/?q=bread",
                     f"{server}/_revision/diff/5/", f"{server}/2/",
                     f"{server}{path}_edit/", f"{server}/_accounts/login/",
                     f"{server}/admin/", f"{server}/robots.txt", f"{server}/sitemap.xml"],
                    page_type, follow_redirects=False)
        print(f"POST {requests.post(seed, timeout=30).status_code} (read-only)")
        print_link_types([("home", home_links), (article, article_links)], page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
