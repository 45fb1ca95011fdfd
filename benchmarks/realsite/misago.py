"""A real Django forum, Misago 0.39.6 (from PyPI), on 127.0.0.1 with generated content.

The fifth Django forum, after `benchmarks.realsite.spirit`, `benchmarks.realsite.machina`,
`benchmarks.realsite.pybbm` and Askbot's Q&A, and one the crawler was never tuned on: a
modern forum whose pages are server-side HTML that a React app takes over in the browser
(the crawler runs no JavaScript, so it reads the HTML alone). Misago needs PostgreSQL: the
build folder holds a PostgreSQL cluster of its own (Debian's `postgresql`, run as the
system user postgres when this runs as root, a Unix socket in the folder and no TCP), started
for the build and for serving and stopped after. The site is the small Django project
Misago's wheel ships as `devproject` (its settings and urls, Misago's defaults), with the
changes a deployment makes: the database, DEBUG off and no debug toolbar, an in-process
cache, Celery tasks run eagerly (no broker, no Redis), a dummy mail backend, signed-cookie
sessions, the media folder served by Django (the avatars).

    build(folder)       fresh forum in folder: a PostgreSQL cluster, the project
                        (PROJECT_FILES), Misago's migrations, content from a generator
                        (deterministic for n_topics, seed) written through Misago's own
                        models and functions (UserManager.create_user, the dynamic avatar,
                        Category trees with the default category's role ACLs, Thread.set_title,
                        the markup parser's common flavour, update_post_checksum,
                        PostEdit records, the moderation's close_thread, Thread and Category
                        synchronize, as Misago's faker and posting do)
    serve(folder)       the cluster, then Misago under waitress (threaded, read-only) on a
                        free port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every page of every thread (the UCC)

Misago and its dependencies live in a venv of their own (they are not the project's), named
by the environment variable ARCHIVER_MISAGO_VENV (default: mgvenv in the temporary
directory, /tmp/mgvenv); `available()` says how to create it. Everything Misago runs goes
through the helper script HELPER (its shared parts: `benchmarks.realsite.helpertext`),
written into the build folder and run by that venv's python.

Permissions are Misago's defaults: guests ("Guest" role) browse every category made here
(each new category gets the role ACLs of the default "First category", which is then
deleted) and read every thread; they may not post. No mail (dummy backend), no Gravatar:
avatars are Misago's dynamic ones (a letter on a colour, drawn with Pillow at build time
and served from /media/), the dynamic setting default_avatar is "dynamic". The server is
read-only: a WSGI wrapper answers 405 to anything but GET and HEAD, and Django connects
as a PostgreSQL role that may only SELECT, in read-only transactions.

The UCC (`entities`): every page of every thread. Misago shows 18 posts a page with 6
orphans (its dynamic settings posts_per_page and posts_per_page_orphans, kept), but its
PostsPaginator repeats each page's last post at the top of the next page, so it pages by 17
with 7 orphans: a thread of 24 posts is one page, one of 25 two (18, and 8 starting with
the 18th), one of 59 four (pages are counted by that paginator at build time). A thread's
URL is
/t/SLUG/ID/, page N (N >= 2) is /t/SLUG/ID/N/; /t/SLUG/ID/1/ redirects to /t/SLUG/ID/, a
page past the last to the last, and a wrong slug to the right one. A post's link
(/t/SLUG/ID/post/PID/) and /t/SLUG/ID/last/, new/, unapproved/, best-answer/ are redirects
into the page holding the post and count as nothing themselves. Profiles are not in the
UCC (members write no bio here; a profile's posts and threads repeat what the threads show),
and Misago's default robots.txt forbids them (/u/), with /search/, /api/, /login/ and the
account pages.

    python -m benchmarks.realsite.misago /tmp/mgbench    # build, serve, smoke test
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests

from benchmarks.realsite.helpertext import DJANGO, MAIN, SERVE
from benchmarks.realsite.php import (
    entity_rows,
    loopback_path,
    print_link_types,
    process_server,
    reuse_or_clear,
    run_helper,
    same_host_links,
    smoke_fetch,
    smoke_site,
    venv_missing,
    write_files,
)
from benchmarks.realsite.words import FORUM_TITLES, NOUNS, forum_users, thread_times
from benchmarks.realsite.words import paragraph as _paragraph
from benchmarks.realsite.words import sentence as _sentence
from benchmarks.realsite.words import stamp as _stamp

VENV = Path(os.environ.get("ARCHIVER_MISAGO_VENV")
            or Path(tempfile.gettempdir()) / "mgvenv")
MISAGO_VERSION = "0.39.6"
INSTALL = (f"python3.12 -m venv {VENV} && {VENV}/bin/pip install misago=={MISAGO_VERSION} "
           f"waitress  (python3.12, as tested), and Debian's PostgreSQL: apt-get install "
           f"--no-install-recommends postgresql")
PG_BIN = Path("/usr/lib/postgresql")
SITENAME = "Realmisago"
VERSION = 2  # of the generator; part of the reuse marker (2: Misago's own paginator)
POSTS_PER_PAGE = 18  # Misago's dynamic setting posts_per_page, kept
ORPHANS = 6  # posts_per_page_orphans, kept
# Misago's PostsPaginator repeats a page's last post as the next page's first: it pages by
# 17 with 7 orphans (per_page - 1, orphans + 1)
NEW_PER_PAGE, LAST_ORPHANS = POSTS_PER_PAGE - 1, ORPHANS + 1
UCC_TYPES = {"thread"}
TARGET_TYPE = "thread"  # source-target's example is a thread
DESCRIPTION = ("Misago 0.39.6 (Django 4.2, PostgreSQL 15, Misago's server-side templates, "
               "Markdown and BBCode, guests may read), {size} generated threads "
               "(`benchmarks/realsite/misago.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("thread", "goto", "index", "categories", "category", "user", "user_posts",
              "user_threads", "user_other", "users", "search", "login", "account", "legal",
              "api", "admin", "static", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): a
# category's thread list is the index's (misago/threads/category.html extends the list)
SAME_TEMPLATE: dict[str, str] = {"category": "index"}
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico",
              ".woff", ".woff2", ".ttf", ".eot", ".map", ".txt")
# /t/SLUG/ID/<word>/: a redirect to a post of the thread
GOTO = {"last", "new", "unapproved", "best-answer", "post"}
# the thread lists a guest cannot filter by (login walled)
LIST_FILTERS = {"my", "new", "unread", "watched", "unapproved", "subscribed"}
# /u/SLUG/ID/<word>/: a profile's tabs
PROFILE_TABS = {"posts": "user_posts", "threads": "user_threads"}
LOGIN = {"login", "logout", "register", "forgotten-password", "activation", "request-activation",
         "banned", "auth", "social", "oauth2", "sso"}
ACCOUNT = {"options", "notifications", "private-threads", "p", "avatar"}

SETTINGS = '''"""Written by benchmarks/realsite/misago.py: a throwaway Misago forum on 127.0.0.1,
Misago's devproject settings with what a deployment changes."""
import os

from devproject.settings import *  # noqa: F401,F403 - the project Misago's wheel ships

BASE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEBUG = False
SECRET_KEY = "realsite-bench-secret"  # fixed: the same signed cookies every build
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
DATABASES = {"default": {
    "ENGINE": "django.db.backends.postgresql", "NAME": "misago",
    "USER": os.environ.get("MISAGO_BENCH_DB_USER", "postgres"),
    "HOST": os.path.join(BASE_DIR, "pg"), "PORT": "5432"}}
INSTALLED_APPS = [a for a in INSTALLED_APPS if a != "debug_toolbar"]  # noqa: F405
MIDDLEWARE = [m for m in MIDDLEWARE if "debug_toolbar" not in m]  # noqa: F405
ROOT_URLCONF = "forum.urls"
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"  # no session rows
EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
CELERY_TASK_ALWAYS_EAGER = True  # no broker, no worker
CELERY_BROKER_URL = "memory://"
STATIC_ROOT = os.path.join(BASE_DIR, "static")
MEDIA_ROOT = os.path.join(BASE_DIR, "media")
MISAGO_USER_DATA_DOWNLOADS_WORKING_DIR = os.path.join(BASE_DIR, "userdata")
MISAGO_AVATAR_GALLERY = os.path.join(BASE_DIR, "avatargallery")  # none: no gallery
LOGGING = {"version": 1, "disable_existing_loggers": False,
           "handlers": {"console": {"class": "logging.StreamHandler"}},
           "root": {"handlers": ["console"], "level": "WARNING"}}
'''
URLS = '''"""Written by benchmarks/realsite/misago.py: Misago's devproject URLs, and the media
folder (the avatars) served by Django, as its dev server does."""
from django.conf import settings
from django.urls import re_path
from django.views.static import serve

from devproject.urls import urlpatterns as misago_urlpatterns

urlpatterns = [
    re_path(r"^media/(?P<path>.*)$", serve, {"document_root": settings.MEDIA_ROOT}),
    *misago_urlpatterns,
]
'''
PROJECT_FILES = {
    "forum/__init__.py": "",
    "forum/settings.py": SETTINGS,
    "forum/urls.py": URLS,
}

HELPER = '''"""Run by benchmarks/realsite/misago.py with Misago's venv (python -I), in the forum's
folder (the project: forum/settings.py, forum/urls.py), with its PostgreSQL running:
"install" (schema), "content" (the JSON spec on stdin; writes entities.jsonl), "serve PORT
THREADS" (read-only role, GET and HEAD only)."""
import datetime as dt
import json
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # the project's package forum (python -I leaves the folder out)
sys.dont_write_bytecode = True
warnings.simplefilter("ignore")


def setup(read_only=False):
    os.environ["DJANGO_SETTINGS_MODULE"] = "forum.settings"
    if read_only:
        os.environ["MISAGO_BENCH_DB_USER"] = "reader"
    import django

    django.setup()


def fake_request(user):
    """What Misago's markup and moderation functions read of a request."""
    from django.test import RequestFactory
    from misago.acl.useracl import get_user_acl
    from misago.cache.versions import get_cache_versions
    from misago.conf.dynamicsettings import DynamicSettings

    request = RequestFactory().get("/", HTTP_HOST="127.0.0.1")
    request.user = user
    request.cache_versions = get_cache_versions()
    request.settings = DynamicSettings(request.cache_versions)
    request.user_acl = get_user_acl(user, request.cache_versions)
    return request


def make_users(spec, when):
    from django.contrib.auth import get_user_model
    from misago.users.avatars import dynamic
    from misago.users.signatures import set_user_signature

    User = get_user_model()
    users = {}
    for u in spec:
        extra = {"joined_on": when(u["joined"])}
        if u["role"] == "admin":
            user = User.objects.create_superuser(u["username"], u["email"], **extra)
        else:
            user = User.objects.create_user(u["username"], u["email"], **extra)
        dynamic.set_avatar(user)  # no Gravatar: Misago's drawn letter
        request = fake_request(user)  # as the signature form: parsed, with its checksum
        set_user_signature(request, user, request.user_acl, u["signature"])
        user.last_login = when(u["lastseen"])
        user.save()
        users[u["username"]] = user
    return users


def make_categories(spec):
    """The categories as Misago's admin makes them (a tree under the root), each with the
    role ACLs of the default category, which is then deleted."""
    from misago.acl.cache import clear_acl_cache
    from misago.categories.models import Category, RoleCategoryACL

    root = Category.objects.root_category()
    first = Category.objects.get(tree_id=root.tree_id, level=1)
    acls = list(RoleCategoryACL.objects.filter(category=first))
    made = []
    for c in spec:
        parent = root if c["parent"] is None else made[c["parent"]]
        cat = Category(name=c["name"], description=c["description"])
        cat.set_name(c["name"])
        cat.insert_at(parent, position="last-child", save=True)
        for acl in acls:
            RoleCategoryACL.objects.create(role=acl.role, category=cat,
                                           category_role=acl.category_role)
        made.append(cat)
    first.delete()
    Category.objects.partial_rebuild(root.tree_id)
    clear_acl_cache()
    return [Category.objects.get(pk=c.pk) for c in made]


def post_events(spec, users, categories, clock, when):
    """Write the events (oldest first) as Misago's posting and moderation do."""
    from misago.markup import common_flavour
    from misago.threads.checksums import update_post_checksum
    from misago.threads.models import Post, PostEdit, Thread
    from misago.threads.moderation import threads as moderation

    threads, posts = [], {}  # thread index -> its posts, oldest first
    requests = {}

    def request_of(user):
        if user.pk not in requests:
            requests[user.pk] = fake_request(user)
        return requests[user.pk]

    def text(body):  # [[T:i]]: a link to thread i; [[P:i:k]]: to its k-th post
        if "[[" not in body:
            return body
        for i, t in enumerate(threads):
            body = body.replace(f"[[T:{i}]]", t.get_absolute_url())
            if f"[[P:{i}:" in body:
                for k, p in enumerate(posts[i]):
                    body = body.replace(f"[[P:{i}:{k}]]", p.get_absolute_url())
        return body

    def write(thread, user, body):
        parsed = common_flavour(request_of(user), user, body)
        post = Post.objects.create(
            category=thread.category, thread=thread, poster=user, poster_name=user.username,
            original=parsed["original_text"], parsed=parsed["parsed_text"],
            posted_on=clock[0], updated_on=clock[0])
        update_post_checksum(post)
        post.save(update_fields=["checksum"])
        return post

    for e in spec:
        clock[0] = when(e["when"])
        user, kind = users[e["user"]], e["kind"]
        if kind == "topic":
            category = categories[e["forum"]]
            thread = Thread(category=category, started_on=clock[0], starter_name="-",
                            starter_slug="-", last_post_on=clock[0], last_poster_name="-",
                            last_poster_slug="-", replies=0, weight=1 if e["sticky"] else 0)
            thread.set_title(e["title"])
            thread.save()
            post = write(thread, user, text(e["body"]))
            thread.set_first_post(post)
            thread.set_last_post(post)
            thread.save()
            threads.append(thread)
            posts[len(threads) - 1] = [post]
        elif kind == "post":
            i = e["topic"]
            thread = Thread.objects.get(pk=threads[i].pk)
            body = text(e["body"])
            if e.get("quote") is not None:  # the quote button's BBCode
                quoted = posts[i][e["quote"]]
                body = (f'[quote="@{quoted.poster_name}"]\\n{quoted.original}\\n'
                        f'[/quote]\\n\\n{body}')
            post = write(thread, user, body)
            thread.set_last_post(post)
            thread.replies += 1
            thread.save()
            posts[i].append(post)
        elif kind == "edit":  # as the editor: the post's new text and a PostEdit record
            post = Post.objects.get(pk=posts[e["topic"]][e["post"]].pk)
            old = post.original
            parsed = common_flavour(request_of(user), user, old + "\\n\\n" + text(e["body"]))
            post.original, post.parsed = parsed["original_text"], parsed["parsed_text"]
            post.edits += 1
            post.last_editor, post.last_editor_name = user, user.username
            post.last_editor_slug, post.updated_on = user.slug, clock[0]
            update_post_checksum(post)
            post.save()
            PostEdit.objects.create(category=post.category, thread=post.thread, post=post,
                                    edited_on=clock[0], editor=user,
                                    editor_name=user.username, editor_slug=user.slug,
                                    edited_from=old, edited_to=post.original)
        elif kind == "close":  # as the moderation's close action
            thread = Thread.objects.get(pk=threads[e["topic"]].pk)
            moderation.close_thread(request_of(user), thread)
    return threads


def content(spec):
    setup()
    from django.utils import timezone

    clock = [None]
    timezone.now = lambda: clock[0] or dt.datetime.now(dt.timezone.utc)  # what Misago stamps

    def when(stamp):
        return dt.datetime.fromisoformat(stamp)

    from django.contrib.auth import get_user_model
    from django.db import connection
    from misago.cache.versions import invalidate_all_caches
    from misago.categories.models import Category
    from misago.conf.models import Setting
    from misago.threads.models import Post, Thread
    from misago.threads.paginator import PostsPaginator

    Setting.objects.filter(setting="forum_name").update(dry_value=spec["sitename"])
    Setting.objects.filter(setting="default_avatar").update(dry_value="dynamic")
    users = make_users(spec["users"], when)
    categories = make_categories(spec["categories"])
    threads = post_events(spec["events"], users, categories, clock, when)
    for thread in Thread.objects.all():
        thread.synchronize()
        thread.save()
    for category in Category.objects.all_categories():
        category.synchronize()
        category.save()
    User = get_user_model()
    for user in User.objects.all():
        user.threads = Thread.objects.filter(starter=user).count()
        user.posts = Post.objects.filter(poster=user, is_event=False).count()
        user.save(update_fields=["threads", "posts"])
    invalidate_all_caches()
    from misago.cache.versions import get_cache_versions
    from misago.users.bans import get_user_ban

    versions = get_cache_versions()
    for user in User.objects.all():  # each poster's ban cache, which a thread page would
        get_user_ban(user, versions)  # write when it is missing or stale (read-only server)
    settings = {s.setting: s.value for s in Setting.objects.all()}
    per_page, orphans = settings["posts_per_page"], settings["posts_per_page_orphans"]
    with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
        for thread in Thread.objects.select_related("category").order_by("pk"):
            path = thread.get_absolute_url()
            ids = list(thread.post_set.filter(is_event=False).order_by("id")
                       .values_list("pk", flat=True))
            pages = PostsPaginator(ids, per_page, orphans=orphans).num_pages  # the view's
            for page in range(1, pages + 1):
                out.write(json.dumps({
                    "type": "thread", "id": thread.pk, "page": page, "posts": len(ids),
                    "pages": pages, "forum": thread.category.name,
                    "path": path + (f"{page}/" if page > 1 else "")}) + "\\n")
        for user in User.objects.order_by("pk"):
            out.write(json.dumps({"type": "user", "id": user.pk, "name": user.username,
                                  "written": False, "posts": user.posts,
                                  "path": user.get_absolute_url()}) + "\\n")
    with connection.cursor() as cursor:  # the server's role: SELECT only, read-only
        cursor.execute("CREATE ROLE reader LOGIN")
        cursor.execute("GRANT USAGE ON SCHEMA public TO reader")
        cursor.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader")
        cursor.execute("ALTER ROLE reader SET default_transaction_read_only = on")


def serve(port, threads):
    setup(read_only=True)
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.wsgi import get_wsgi_application

    app = StaticFilesHandler(get_wsgi_application())  # /static/: Misago's script and styles
    serve_read_only(app, port, threads, "misago")
''' + DJANGO + SERVE + MAIN

# The board: categories (name, description, parent index or None, weight of new threads;
# a weight of 0: a parent that only holds the ones below it)
CATEGORIES = [
    ("General", "The forum and everything else.", None, 0),
    ("Announcements", "News about the forum itself.", 0, 1),
    ("Off-topic", "Anything that fits nowhere else.", 0, 3),
    ("Workshop", "Making things.", None, 0),
    ("Woodworking", "Joints, tools and the bench.", 3, 6),
    ("Metalwork", "Lathes, welding and files.", 3, 3),
    ("Electronics", "Boards, sensors and solder.", 3, 4),
    ("Microcontrollers", "Firmware, pins and programmers.", 6, 2),
    ("Outdoors", "Out of the house.", None, 0),
    ("Gardening", "Beds, seeds and soil.", 8, 5),
    ("Cycling", "Bikes, routes and repairs.", 8, 5),
    ("Hiking", "Trails, huts and ridges.", 8, 3),
    ("Kitchen", "Food and drink.", None, 0),
    ("Baking", "Bread and the oven.", 12, 4),
    ("Coffee", "Beans, roasts and grinders.", 12, 3),
]
ANNOUNCEMENTS = 1
CODE_FORUMS = {6, 7}  # their posts show code blocks
def _replies(rng: random.Random) -> int:
    """Replies to a thread: mostly short threads, some over two to four pages of 18."""
    r = rng.random()
    for share, low, high in ((0.50, 0, 5), (0.75, 6, 16), (0.90, 17, 40)):
        if r < share:
            return rng.randint(low, high)
    return rng.randint(41, 75)


def generate(n_topics: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """The categories, users, and the threads, posts, edits and closings as events oldest
    first (the helper's "content" mode)."""
    rng = random.Random(seed)
    users = forum_users(rng, now, lambda s: f"*{s}*", underscores=True, real_names=False)
    names = [u["username"] for u in users]
    staff = names[:3]
    activity = {n: (8.0 if n in staff else rng.paretovariate(1.2)) for n in names}
    joined = {u["username"]: dt.datetime.fromisoformat(u["joined"]) for u in users}
    targets = [(k, w) for k, (_, _, _, w) in enumerate(CATEGORIES) if w]

    def author(when: dt.datetime, pool: list[str]) -> str:
        ok = [n for n in pool if joined[n] < when] or staff
        return rng.choices(ok, [activity[n] for n in ok])[0]

    end = now - dt.timedelta(minutes=30)
    threads = []  # (category index, times of its posts)
    for i in range(n_topics):
        start = now - dt.timedelta(days=730 * (1 - i / n_topics), seconds=rng.randint(0, 80_000))
        times = thread_times(rng, start, end, _replies(rng), min_gap=1.0)
        forum = rng.choices([k for k, _ in targets], [w for _, w in targets])[0]
        threads.append((forum, times))
    order = sorted((t, i, k) for i, (_, times) in enumerate(threads) for k, t in enumerate(times))
    topic_index: dict[int, int] = {}  # thread -> its index (creation order)
    posts: dict[int, list[str]] = {}  # thread -> authors of its posts
    events: list[dict[str, Any]] = []
    for when, i, k in order:
        forum = threads[i][0]
        user = author(when, staff if forum == ANNOUNCEMENTS and k == 0 else names)
        earlier = posts.get(i, [])
        parts, quote = [], None
        if earlier and rng.random() < 0.2:  # Misago's quote button
            quote = rng.randrange(len(earlier))
        parts += [_paragraph(rng, (1, 4) if k else (2, 5))
                  for _ in range(rng.randint(1, 2) if k else rng.randint(1, 3))]
        if forum in CODE_FORUMS and rng.random() < 0.2:
            parts.append("```\n" + "\n".join(f"{rng.choice(NOUNS)} = {rng.randint(0, 255)}"
                                             for _ in range(rng.randint(2, 6))) + "\n```")
        if topic_index and rng.random() < 0.06:  # a link to an older thread or post
            j = rng.choice(list(topic_index))
            target = (f"[[T:{topic_index[j]}]]" if rng.random() < 0.7
                      else f"[[P:{topic_index[j]}:{rng.randrange(len(posts[j]))}]]")
            parts.append(f"See also [this thread]({target}).")
        if rng.random() < 0.05:
            parts.append(rng.choice([":)", ";)", ":D", "**Thanks!**"]))
        event: dict[str, Any] = {"when": _stamp(when), "user": user, "body": "\n\n".join(parts)}
        if k == 0:
            a, b, c = rng.sample(NOUNS, 3)
            topic_index[i] = len(topic_index)
            sticky = (forum == ANNOUNCEMENTS and rng.random() < 0.5) or (
                user in staff and rng.random() < 0.1)
            event.update(kind="topic", forum=forum, sticky=sticky,
                         title=rng.choice(FORUM_TITLES).format(A=a.capitalize(), a=a, b=b, c=c))
        else:
            event.update(kind="post", topic=topic_index[i], quote=quote)
        events.append(event)
        posts.setdefault(i, []).append(user)
    extra: list[tuple[dt.datetime, dict[str, Any]]] = []
    for i, (_, times) in enumerate(threads):  # edits and closings, after what they change
        for n, who in enumerate(posts[i]):
            if rng.random() < 0.05:
                extra.append((min(times[n] + dt.timedelta(minutes=rng.randint(2, 600)), end),
                              {"kind": "edit", "user": who, "topic": topic_index[i], "post": n,
                               "body": f"**Edit:** {_sentence(rng, (6, 14))}"}))
        if rng.random() < 0.04:
            extra.append((min(times[-1] + dt.timedelta(hours=6), end),
                          {"kind": "close", "user": rng.choice(staff),
                           "topic": topic_index[i]}))
    timed = [(dt.datetime.fromisoformat(e["when"]), 0, n, e) for n, e in enumerate(events)]
    timed += [(t, 1, n, {**e, "when": _stamp(t)}) for n, (t, e) in enumerate(extra)]
    events = [e for _, _, _, e in sorted(timed, key=lambda x: x[:3])]
    return {"sitename": SITENAME, "users": users,
            "categories": [{"name": n, "description": d, "parent": p}
                           for n, d, p, _ in CATEGORIES],
            "events": events}


def _pg(name: str) -> str:
    """A PostgreSQL program of the newest Debian cluster version installed."""
    versions = sorted((p for p in PG_BIN.glob("*/bin") if (p / name).exists()),
                      key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)
    if not versions:
        raise FileNotFoundError(f"no {name} under {PG_BIN}")
    return str(versions[-1] / name)


def _as_db_user() -> list[str]:
    """PostgreSQL refuses to run as root: as root, run it as the system user postgres."""
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


def available() -> str | None:
    """None if Misago's venv and PostgreSQL are there, else how to make them."""
    missing = venv_missing(VENV, "misago", MISAGO_VERSION, "ARCHIVER_MISAGO_VENV", INSTALL)
    if missing is None and not list(PG_BIN.glob("*/bin/postgres")):
        return "needs Debian's PostgreSQL: apt-get install --no-install-recommends postgresql"
    return missing


@contextlib.contextmanager
def database(folder: Path) -> Iterator[None]:
    """Run the forum's own PostgreSQL (its cluster in folder/pg, a Unix socket there, no
    TCP) while inside."""
    data = folder / "pg"
    (data / "postmaster.pid").unlink(missing_ok=True)  # left by a killed run
    log = open(folder / "postgres.log", "ab")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [*_as_db_user(), _pg("postgres"), "-D", str(data), "-c", "listen_addresses=",
         "-c", f"unix_socket_directories={data}", "-c", "fsync=off",
         "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
        stdout=log, stderr=log, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while subprocess.run([_pg("pg_isready"), "-q", "-h", str(data)]).returncode != 0:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"postgres did not come up; see {folder / 'postgres.log'}")
            time.sleep(0.2)
        yield
    finally:
        proc.terminate()  # runuser passes it on; postgres's smart shutdown
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _init_cluster(folder: Path) -> None:
    data = folder / "pg"
    data.mkdir()
    if os.geteuid() == 0:
        shutil.chown(data, "postgres")
        folder.chmod(0o755)
    done = subprocess.run([*_as_db_user(), _pg("initdb"), "-D", str(data), "-U", "postgres",
                           "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"initdb failed:\n{done.stdout}{done.stderr}")


def build(folder: Path, n_topics: int = 300, seed: int = 0) -> Path:
    """Build a fresh forum in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    import json

    folder = folder.resolve()
    params = {"n_topics": n_topics, "seed": seed, "version": VERSION}
    if reuse_or_clear(folder, params, "helper.py", "Misago forum"):
        return folder
    started = time.time()
    write_files(PROJECT_FILES)(folder)
    (folder / "helper.py").write_text(HELPER)
    _init_cluster(folder)
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    with database(folder):
        subprocess.run([_pg("createdb"), "-h", str(folder / "pg"), "-U", "postgres", "misago"],
                       check=True)
        run_helper(VENV, folder, "install")
        run_helper(VENV, folder, "content", stdin=json.dumps(generate(n_topics, seed, now)))
    (folder / "build.json").write_text(json.dumps({
        "params": params, "built_at": time.time(),
        "build_seconds": round(time.time() - started, 1)}))
    return folder


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the forum built in folder (its PostgreSQL, then waitress with `workers`
    threads, read-only) on a free port; yields the home URL."""
    folder = folder.resolve()
    with database(folder), process_server(
            lambda port: [str(VENV / "bin" / "python"), "-I", str(folder / "helper.py"),
                          "serve", str(port), str(workers)],
            folder / "server.log", "/", lambda server: dict(os.environ), folder,
            "misago") as seed:
        yield seed


def _id(segment: str) -> int | None:
    return int(segment) if segment.isdigit() else None


def _thread_type(segs: list[str]) -> str:
    """/t/SLUG/ID/ and /t/SLUG/ID/N/: "thread"; /t/SLUG/ID/post/PID/, last/, new/,
    unapproved/, best-answer/: "goto" (redirects)."""
    n = len(segs)
    if n < 3 or _id(segs[2]) is None:
        return "other"
    if n == 3 or (n == 4 and _id(segs[3]) is not None):
        return "thread"
    if segs[3] in GOTO and (n == 4 or (n == 5 and segs[3] == "post" and _id(segs[4]))):
        return "goto"
    return "other"


def page_type(url: str) -> str:
    """Ground truth from the URL alone (Misago's routes at the root, threads on the index,
    its admin at /admincp/), in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - /static/..., /media/..., /a/... (attachments), /django-i18n.js, /robots.txt or a
      static file: "static"; /admincp/..., /django-admin/...: "admin" (login walled)
    - /: "index" (the threads list); /my/, /new/, /unread/, /watched/, /unapproved/,
      /subscribed/ (and under /threads/): "account" (a guest's is login walled)
    - /categories/: "categories"; /c/SLUG/ID/: "category" (its threads list), its filters
      (/c/SLUG/ID/my/, ...): "account"
    - /t/SLUG/ID/ and /t/SLUG/ID/N/: "thread"; /t/SLUG/ID/post/PID/, last/, new/,
      unapproved/, best-answer/: "goto"
    - /u/SLUG/ID/: "user"; its posts/: "user_posts"; threads/: "user_threads"; any other
      tab (followers/, follows/, details/, username-history/, ban-details/): "user_other"
    - /users/...: "users" (the member lists)
    - /search/...: "search"; /api/...: "api"; /terms-of-service/, /privacy-policy/: "legal"
    - /login/, /logout/, /register/, /forgotten-password/..., /activation/...: "login"
    - /options/..., /notifications/..., /private-threads/..., /p/...: "account"
    - anything else: "other"."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    if not segs:
        return "index"
    head, n = segs[0], len(segs)
    if head in ("static", "media", "a") or path.lower().endswith(STATIC_EXT):
        return "static"
    if head in ("admincp", "django-admin"):
        return "admin"
    if head == "threads" and n == 1:
        return "index"
    if head in LIST_FILTERS or (head == "threads" and segs[1] in LIST_FILTERS):
        return "account"
    if head == "categories":
        return "categories" if n == 1 else "other"
    if head == "c":
        if n < 3 or _id(segs[2]) is None:
            return "other"
        if n == 3:
            return "category"
        return "account" if n == 4 and segs[3] in LIST_FILTERS else "other"
    if head == "t":
        return _thread_type(segs)
    if head == "u":
        if n < 3 or _id(segs[2]) is None:
            return "other"
        return "user" if n == 3 else PROFILE_TABS.get(segs[3], "user_other")
    if head == "users":
        return "users"
    if head == "search":
        return "search"
    if head == "api":
        return "api"
    if head in ("terms-of-service", "privacy-policy"):
        return "legal"
    if head in LOGIN:
        return "login"
    if head in ACCOUNT:
        return "account"
    return "other"


def entity_of(url: str) -> str | None:
    """The UCC page a URL shows: "thread ID page N" for a view of a thread's page (no page
    segment is page 1; the slug and the query change nothing). None for anything else, and
    for an explicit page 1 or 0 (a redirect to the thread, a 404)."""
    if page_type(url) != "thread":
        return None
    segs = [s for s in urlsplit(url).path.split("/") if s]
    thread = int(segs[2])
    if len(segs) == 3:
        return f"thread {thread} page 1"
    page = int(segs[3])
    return f"thread {thread} page {page}" if page >= 2 else None


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every page of every thread, as the forum links them (/t/SLUG/ID/,
    /t/SLUG/ID/2/); give the server (e.g. "http://127.0.0.1:8123") to get absolute URLs."""
    return {server.rstrip("/") + r["path"] for r in entity_rows(folder)
            if r["type"] == "thread"}


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: threads, posts, users, pages per thread."""
    rows = entity_rows(folder)
    threads = [r for r in rows if r["type"] == "thread" and r["page"] == 1]
    users = [r for r in rows if r["type"] == "user"]
    pages = Counter(r["pages"] for r in threads)
    return {"threads": len(threads), "posts": sum(r["posts"] for r in threads),
            "users": len(users), "users_who_posted": sum(1 for u in users if u["posts"]),
            "thread_pages": sum(pages[p] * p for p in pages),
            "pages_per_thread": dict(sorted(pages.items())),
            "threads_per_category": dict(Counter(r["forum"] for r in threads).most_common())}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "topics", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        home_links = smoke.home_links
        category = next(u for u in sorted(home_links) if page_type(u) == "category")
        category_links = same_host_links(requests.get(category, timeout=30).content, category)
        thread = max(ucc, key=lambda u: len(u))
        thread_links = same_host_links(requests.get(thread, timeout=30).content, thread)
        first = {page_type(u): u for u in sorted(home_links | category_links | thread_links,
                                                 reverse=True)}
        smoke_fetch([seed, category, thread, *first.values(), f"{server}/categories/",
                     f"{server}/login/", f"{server}/robots.txt", f"{server}/search/"],
                    page_type, follow_redirects=False)
        print(f"POST {requests.post(seed, timeout=30).status_code} (read-only)")
        print_link_types([("home", home_links), (category, category_links),
                          (thread, thread_links)], page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
