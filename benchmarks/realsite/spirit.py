"""A real Django forum, Spirit 0.14.3 (from PyPI), on 127.0.0.1 with generated content.

The Django counterpart of `benchmarks.realsite.flaskbb`: a Discourse-like forum as `spirit
startproject` makes it (its development settings, SQLite, Spirit's shipped templates and
static files): the latest active topics, categories with subcategories and their paged topic
lists, topics with their paged comments, comment permalinks that redirect into the right
topic page, user profiles with their topics, comments and likes, search, login, registration,
password reset, ... everything a crawler must learn to skip to spend its requests on the
threads.

    build(folder)       fresh forum in folder: `spirit startproject forum`'s project, an
                        SQLite database, content from a generator (deterministic for n_topics,
                        seed) written through Spirit's own forms and models (TopicForm,
                        CommentForm and comment_posted as the publish views use them,
                        LikeForm, the comment update and moderation paths, Category, User)
    serve(folder)       Spirit under waitress (threaded) on a free port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every page of every topic (the UCC)

Spirit and its dependencies live in a venv of their own (they are not the project's: Spirit
pins Django < 6, mistune 0.8, whoosh, haystack, ...), named by the environment variable
ARCHIVER_SPIRIT_VENV (default: spvenv in the temporary directory, /tmp/spvenv);
`available()` says how to create it: Python 3.10 to 3.13 (Django 5.2's range; Spirit 0.14
needs >= 3.9). Everything Spirit runs goes through the helper script HELPER (its shared
parts: `benchmarks.realsite.helpertext`), written into the build folder and run by that
venv's python; the project's settings are its development settings (forum/settings/dev.py,
SQLite in the folder, local-memory caches) with EXTRA_SETTINGS in forum/settings/bench.py
on top.

No task manager (ST_TASK_MANAGER None, Spirit's default: tasks run inline, and the mail
and search-index tasks do nothing without one), no mail (a dummy backend; notification mail
is never sent), no rate limits, DEBUG off, no MathJax (off by default; the only CDN script
in the templates): nothing the crawler fetches leaves 127.0.0.1 (the share menu of every
comment links Twitter and Facebook, which a crawler scoped to the host does not follow).
The server is read-only: a WSGI wrapper answers 405 to anything but GET and HEAD, the
database is opened read-only (SQLite mode=ro), sessions live in signed cookies, and the
topic view's bookkeeping (`spirit.topic.utils.topic_viewed`: the view count, a database
write on every GET, and for users the bookmark, unread and notification marks) is a no-op,
so crawling cannot change the forum and every crawl of a build sees the same pages (but for
relative dates, "3 days ago"). The search index (whoosh, in the folder) is built once at the
end of the build.

The UCC (`entities`): every page of every topic. A topic's entity is (topic, page): Spirit
shows `comments_per_page` (20, its default) comments a page, the opening post being the first
comment and moderation notes ("topic closed", "topic pinned") taking a slot each, so a thread
of 57 comments is three pages, each holding comments no other page shows. /topic/12/slug/
and /topic/12/slug/?page=1 show the first page; /topic/12/ or a wrong slug is a 301 to
/topic/12/slug/ (dropping ?page=); a page past the last, ?page=0 or a page that is not a
number is a 404. Comment permalinks (/comment/ID/find/) are 302 redirects into the topic page
holding the comment (/topic/12/slug/?page=2#c27; page 1 has no ?page=) and count as nothing
themselves. Profiles are not in the UCC: Spirit's profile has no field a user writes (it
shows the user's comments, topics or likes, and counts), and every profile tab is behind a
login for guests anyway.

What a guest meets: the home page is the latest active topics (also /topic/active/: the same
view, linked from every list's category menu), 20 a page with links to the next six pages;
it links the top-level categories, and a parent's page its subcategories (a parent's list
holds its subcategories' topics too; the category index /category/ is linked nowhere); a
topic list links each topic's first page only, so a long thread's later pages are reached
from its own paginator (page 1 links the next and the last page, other pages their
neighbours, the last "First" as ?page=1, a duplicate view of page 1). Every page links "Log
in" with ?next= its own path and query, the login page too, so each page adds a login URL
and each login page another, nested one level deeper (/user/login/?next=/user/login/%3Fnext
%3D/...), an unbounded chain of 200 pages that show the same form; the login page links
register, password reset and resend activation. Every comment links its author's profile
(/user/ID/SLUG/, a 302 to the login) and its share menu (Twitter, Facebook, mailto: off the
host); a topic links "Reply" (/comment/ID/publish/, a 302 to the login), a list "Create
Topic" (/topic/publish/[ID/], the same); edited comments link their history
(/comment/history/ID/, login walled); comments link older topics (/topic/ID/SLUG/) and
comment permalinks (/comment/ID/find/). Likes are stored (and listed on the likers'
profiles), but Spirit shows like counts to signed-in users only. Search, notifications,
unread and private topics and the admin are login walls too. Every page loads one stylesheet
and one script; the stylesheet names some 1,600 emoji images (/static/spirit/emojis/*.svg)
in url(), which a crawler fetching page requisites fetches. No page says noindex, there is
no robots.txt and no favicon.ico (404).

    python -m benchmarks.realsite.spirit /tmp/spbench    # build, serve, smoke test
"""

from __future__ import annotations

import contextlib
import datetime as dt
import math
import os
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import requests

from benchmarks.realsite.helpertext import DJANGO, MAIN, SERVE
from benchmarks.realsite.php import (
    build_helper_site,
    entity_rows,
    loopback_path,
    print_link_types,
    run_checked,
    same_host_links,
    serve_helper,
    smoke_fetch,
    smoke_site,
    venv_missing,
)
from benchmarks.realsite.words import FIRST, LAST, NOUNS, PLACES, thread_times, user_name
from benchmarks.realsite.words import paragraph as _paragraph
from benchmarks.realsite.words import sentence as _sentence
from benchmarks.realsite.words import stamp as _stamp

VENV = Path(os.environ.get("ARCHIVER_SPIRIT_VENV")
            or Path(tempfile.gettempdir()) / "spvenv")
SPIRIT_VERSION = "0.14.3"
INSTALL = (f"python3.12 -m venv {VENV} && {VENV}/bin/pip install django-spirit=="
           f"{SPIRIT_VERSION} waitress  (python3.12: any Python from 3.10 to 3.13)")
SITENAME = "Realspirit"
VERSION = 1  # of the generator; part of the reuse marker
COMMENTS_PER_PAGE = 20  # Spirit's default comments_per_page (and topics_per_page), kept
UCC_TYPES = {"topic"}
TARGET_TYPE = "topic"  # source-target's example is a topic
DESCRIPTION = ("Spirit 0.14.3 (as `spirit startproject` makes it, SQLite), {size} generated "
               "topics (`benchmarks/realsite/spirit.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("topic", "index", "categories", "category", "comment", "user", "user_tab",
              "history", "search", "login", "write", "account", "admin", "static", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): none here
# (the home page and /topic/active/ are one type, a category's topic list has its own
# template, as do the category list and the topics)
SAME_TEMPLATE: dict[str, str] = {}
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico",
              ".woff", ".woff2", ".ttf", ".eot", ".map", ".txt")
# /topic/<word>/...: Spirit's topic views besides a topic (login walls, forms and commands)
TOPIC_ACCOUNT = {"unread", "notification", "private", "favorite"}
TOPIC_WRITE = {"publish", "update", "moderate"}
# /user/<word>/...: the account's own pages (login walled) and the auth pages
USER_LOGIN = {"login", "logout", "register", "resend-activation", "activation",
              "password-reset", "reset"}

# forum/settings/bench.py: the project's development settings with these on top
EXTRA_SETTINGS = """# written by benchmarks/realsite/spirit.py: a throwaway forum on 127.0.0.1
import os as _os

from .dev import *  # noqa: F401,F403 - the settings `spirit startproject` writes

DEBUG = False
TEMPLATES[0]["OPTIONS"]["debug"] = False
SECRET_KEY = "realsite-bench-secret"  # fixed: the same signed cookies every build
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
ST_SITE_URL = _os.environ.get("SPIRIT_BENCH_ORIGIN", "http://127.0.0.1/")
if _os.environ.get("SPIRIT_BENCH_READ_ONLY"):  # the server's: SQLite opened read-only
    DATABASES["default"]["NAME"] = "file:" + DATABASES["default"]["NAME"] + "?mode=ro"
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"  # no session rows
EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
ST_TASK_MANAGER = None
ST_RATELIMIT_ENABLE = False
ST_MATH_JAX = False
LOGGING["loggers"][""]["handlers"] = ["console"]  # no mail to the admins on errors
LOGGING["loggers"]["django"]["handlers"] = ["console"]
"""
HELPER = '''"""Run by benchmarks/realsite/spirit.py with Spirit's venv (python -I), in the forum's
folder (a project made by `spirit startproject forum`): "install" (schema), "content" (the
JSON spec on stdin; writes entities.jsonl), "serve PORT THREADS" (read-only, GET and HEAD
only)."""
import datetime as dt
import json
import math
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # the project's package forum (python -I leaves the folder out)
sys.dont_write_bytecode = True
warnings.simplefilter("ignore")


def setup(origin="http://127.0.0.1/", read_only=False):
    os.environ["DJANGO_SETTINGS_MODULE"] = "forum.settings.bench"
    os.environ["SPIRIT_BENCH_ORIGIN"] = origin
    if read_only:
        os.environ["SPIRIT_BENCH_READ_ONLY"] = "1"
    import django

    django.setup()


def quiet():
    """Spirit's topic view counts the view (an UPDATE on every GET) and, for a signed-in
    user, moves the bookmark and the unread and notification marks: not here."""
    import spirit.topic.utils

    spirit.topic.utils.topic_viewed = lambda request, topic: None


def make_users(spec, when):
    from django.contrib.auth import get_user_model

    User = get_user_model()
    users = {}
    for u in spec:
        user = User.objects.create_user(u["username"], u["email"])  # no password: no login
        user.first_name, user.last_name = u["first_name"], u["last_name"]
        user.date_joined = when(u["joined"])
        user.is_superuser = user.is_staff = u["role"] == "admin"
        user.save()
        st = user.st  # made by Spirit's post_save signal
        st.location = u["location"]
        st.is_verified = True
        st.is_administrator = u["role"] == "admin"
        st.is_moderator = u["role"] in ("admin", "mod")
        st.save()
        users[u["username"]] = user
    return users


def make_categories(spec):
    from spirit.category.models import Category

    categories = []
    for c in spec:
        if c.get("existing"):  # made by Spirit's migrations
            categories.append(Category.objects.get(title=c["title"], parent=None))
            continue
        parent = categories[c["parent"]] if c["parent"] is not None else None
        categories.append(Category.objects.create(
            title=c["title"], description=c["description"], parent=parent,
            color=c["color"]))
    return categories


def post_events(spec, users, categories, clock, when):
    """Write the events (oldest first) as Spirit's views do."""
    from spirit.comment.forms import CommentForm
    from spirit.comment.like.forms import LikeForm
    from spirit.comment.models import Comment
    from spirit.comment.utils import comment_posted, post_comment_update, pre_comment_update
    from spirit.core.utils.markdown import quotify
    from spirit.topic.forms import TopicForm
    from spirit.topic.models import Topic

    topics, comments = [], {}  # topic index -> its users' comments, oldest first

    def text(body):  # [[T:i]]: a link to topic i; [[C:i:k]]: to its k-th comment
        if "[[" not in body:
            return body
        for i, t in enumerate(topics):
            body = body.replace(f"[[T:{i}]]", t.get_absolute_url())
            if f"[[C:{i}:" in body:
                for k, c in enumerate(comments[i]):
                    body = body.replace(f"[[C:{i}:{k}]]", c.get_absolute_url())
        return body

    for e in spec:
        clock[0] = t = when(e["when"])
        user, kind = users[e["user"]], e["kind"]
        if kind == "topic":
            form = TopicForm(user=user, data={"title": e["title"],
                                              "category": categories[e["category"]].pk})
            cform = CommentForm(user=user, data={"comment": text(e["body"])})
            checked(form)
            checked(cform)
            form.instance.date = form.instance.last_active = t
            topic = form.save()
            cform.topic = topic
            cform.instance.date = t
            comment = cform.save()
            comment_posted(comment=comment, mentions=cform.mentions)
            topics.append(topic)
            comments[len(topics) - 1] = [comment]
        elif kind == "comment":
            i = e["topic"]
            body = text(e["body"])
            if e.get("quote") is not None:
                quoted = comments[i][e["quote"]]
                body = quotify(quoted.comment.split("\\n\\n")[0], quoted.user.st.nickname) + body
            form = checked(CommentForm(user=user, topic=topics[i], data={"comment": body}))
            form.instance.date = t
            comment = form.save()
            comment_posted(comment=comment, mentions=form.mentions)
            comments[i].append(comment)
        elif kind == "like":
            comment = comments[e["topic"]][e["comment"]]
            form = checked(LikeForm(user=user, comment=comment, data={}))
            form.instance.date = t
            like = form.save()
            like.comment.increase_likes_count()
        elif kind == "edit":
            comment = Comment.objects.get(pk=comments[e["topic"]][e["comment"]].pk)
            form = checked(CommentForm(data={"comment": comment.comment + "\\n\\n"
                                             + text(e["body"])}, instance=comment))
            pre_comment_update(comment=Comment.objects.get(pk=comment.pk))
            comment = form.save()
            post_comment_update(comment=comment)
        elif kind == "moderate":  # as spirit.topic.moderate.views._moderate does
            topic = topics[e["topic"]]
            Topic.objects.filter(pk=topic.pk).update(**{e["field"]: True, "reindex_at": t})
            action = {"closed": Comment.CLOSED, "pinned": Comment.PINNED}[e["action"]]
            note = Comment.create_moderation_action(user=user, topic=topic, action=action)
            Comment.objects.filter(pk=note.pk).update(date=t)
    return topics


def content(spec):
    setup()
    fast_sqlite()
    from django.utils import timezone

    clock = [timezone.now()]
    timezone.now = lambda: clock[0]  # what Spirit stamps with at run time (not defaults)

    def when(stamp):
        return dt.datetime.fromisoformat(stamp)

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from djconfig import config
    from spirit.admin.forms import BasicConfigForm
    from spirit.comment.models import Comment
    from spirit.topic.models import Topic
    from spirit.user.models import UserProfile

    defaults = {name: field.initial for name, field in BasicConfigForm.base_fields.items()}
    checked(BasicConfigForm(data={**defaults, **spec["config"]})).save()  # Spirit's admin form
    assert config.comments_per_page == spec["comments_per_page"], config.comments_per_page
    users = make_users(spec["users"], when)
    categories = make_categories(spec["categories"])
    topics = post_events(spec["events"], users, categories, clock, when)
    for topic, views in zip(topics, spec["views"]):
        Topic.objects.filter(pk=topic.pk).update(view_count=views)
    for u in spec["users"]:
        UserProfile.objects.filter(user__username=u["username"]).update(
            last_seen=when(u["lastseen"]))
        get_user_model().objects.filter(username=u["username"]).update(
            last_login=when(u["lastseen"]))
    call_command("rebuild_index", interactive=False, verbosity=0)  # search (signed in)
    per_page = config.comments_per_page
    with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
        for topic in Topic.objects.order_by("pk"):
            n = Comment.objects.for_topic(topic=topic).count()
            posts = Comment.objects.for_topic(topic=topic).filter(action=0).count()
            likes = sum(Comment.objects.for_topic(topic=topic).values_list("likes_count",
                                                                           flat=True))
            for page in range(1, math.ceil(n / per_page) + 1):
                path = topic.get_absolute_url() + (f"?page={page}" if page > 1 else "")
                out.write(json.dumps({"type": "topic", "id": topic.pk, "page": page,
                                      "comments": n, "posts": posts, "likes": likes,
                                      "category": topic.category.title,
                                      "path": path}) + "\\n")
        for user in get_user_model().objects.order_by("pk"):
            out.write(json.dumps({"type": "user", "id": user.pk, "name": user.username,
                                  "written": False, "comments": user.st.comment_count,
                                  "path": user.st.get_absolute_url()}) + "\\n")


def serve(port, threads):
    setup(origin=f"http://127.0.0.1:{port}/", read_only=True)
    quiet()
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.wsgi import get_wsgi_application

    app = StaticFilesHandler(get_wsgi_application())  # /static/: Spirit's CSS, JS and fonts
    serve_read_only(app, port, threads, "Spirit")
''' + DJANGO + SERVE + MAIN

# (title, description, color, parent index or None, weight of new topics); Spirit's own
# migrations add "Uncategorized" (public) and "Private" (the private topics); categories are
# listed by title (ST_ORDERED_CATEGORIES off)
CATEGORIES = [
    ("Announcements", "News about the forum itself.", "#c0392b", None, 1),
    ("Workshop", "Making and mending.", "#8e5a2b", None, 2),
    ("Woodworking", "Joints, tools and the bench.", "", 1, 6),
    ("Metalwork", "Lathes, welding and files.", "", 1, 3),
    ("Electronics", "Boards, sensors and solder.", "", 1, 5),
    ("Outdoors", "Out of the house.", "#27ae60", None, 2),
    ("Gardening", "Beds, seeds and soil.", "", 5, 5),
    ("Cycling", "Bikes, routes and repairs.", "", 5, 5),
    ("Hiking", "Trails, huts and ridges.", "", 5, 3),
    ("Kitchen", "Food and drink.", "#d35400", None, 2),
    ("Baking", "Bread and the oven.", "", 9, 4),
    ("Coffee", "Beans, roasts and grinders.", "", 9, 3),
    ("Off-topic", "Anything that fits nowhere else.", "#7f8c8d", None, 4),
]
ELECTRONICS = 4  # its topics show code blocks
UNCATEGORIZED_WEIGHT = 1  # Spirit's own "Uncategorized" category (made by its migrations)
TITLES = ["{A} {b} question", "Help with my {a} {b}", "My {a} {b} build", "{A} or {b}?",
          "Best {a} for {b}?", "{A} {b} {c}", "Notes on {a} and {b}", "First {a} {b}",
          "{A} {b}: what am I doing wrong?", "Show us your {a} {b}"]


def _replies(rng: random.Random) -> int:
    """Replies to a topic: mostly short threads, some over two to seven pages of 20."""
    r = rng.random()
    for share, low, high in ((0.50, 0, 5), (0.75, 6, 18), (0.90, 19, 39), (0.97, 40, 79)):
        if r < share:
            return rng.randint(low, high)
    return rng.randint(80, 135)


def _users(rng: random.Random, now: dt.datetime, n: int = 50) -> list[dict[str, Any]]:
    """n users: the administrator, two moderators and the members."""
    names = rng.sample([(f, last) for f in FIRST for last in LAST], n - 1)
    users, seen = [], set()
    for i, (first, last) in enumerate([("Admin", ""), *names]):
        name = "admin" if i == 0 else user_name(rng, first, last)
        while name.lower() in seen:  # Spirit's user names are case-insensitive
            name += str(rng.randint(0, 9))
        seen.add(name.lower())
        real = i and rng.random() < 0.5
        joined = now - dt.timedelta(days=800 if i <= 2 else rng.uniform(30, 780))
        users.append({
            "username": name, "email": f"{name.lower()}@example.org",
            "role": "admin" if i == 0 else "mod" if i <= 2 else "member",
            "first_name": first if real else "", "last_name": last if real else "",
            "location": rng.choice(PLACES) if rng.random() < 0.4 else "",
            "joined": _stamp(joined),
            "lastseen": _stamp(now - dt.timedelta(days=rng.uniform(0.1, 50)))})
    return users


def generate(n_topics: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """The forum's configuration, users and categories, and its topics, comments, likes,
    edits and moderation as events oldest first (the helper's "content" mode)."""
    rng = random.Random(seed)
    users = _users(rng, now)
    names = [u["username"] for u in users]
    staff = names[:3]
    activity = {n: (8.0 if n in staff else rng.paretovariate(1.2)) for n in names}
    joined = {u["username"]: dt.datetime.fromisoformat(u["joined"]) for u in users}
    # where a topic goes: any category, a parent one too (as Spirit allows), or Spirit's own
    # Uncategorized (after ours in the spec)
    targets = [*((k, w) for k, (_, _, _, _, w) in enumerate(CATEGORIES)),
               (len(CATEGORIES), UNCATEGORIZED_WEIGHT)]

    def author(when: dt.datetime, pool: list[str]) -> str:
        ok = [n for n in pool if joined[n] < when] or staff
        return rng.choices(ok, [activity[n] for n in ok])[0]

    end = now - dt.timedelta(minutes=30)
    threads = []  # (category index, times of its posts)
    for i in range(n_topics):
        start = now - dt.timedelta(days=730 * (1 - i / n_topics), seconds=rng.randint(0, 80_000))
        times = thread_times(rng, start, end, _replies(rng))
        category = rng.choices([k for k, _ in targets], [w for _, w in targets])[0]
        threads.append((category, times))
    order = sorted((t, i, k) for i, (_, times) in enumerate(threads) for k, t in enumerate(times))
    topic_index: dict[int, int] = {}  # thread -> topic index (creation order)
    posts: dict[int, list[tuple[str, dt.datetime]]] = {}  # thread -> (author, when) a comment
    events: list[dict[str, Any]] = []
    for when, i, k in order:
        category = threads[i][0]
        announcement = category == 0
        user = author(when, staff if announcement and k == 0 else names)
        earlier = posts.get(i, [])
        parts, quote = [], None
        if earlier and rng.random() < 0.2:  # Spirit's quote button: "> @name said: ..."
            quote = rng.randrange(len(earlier))
        elif earlier and rng.random() < 0.15:  # its reply button: "@name "
            parts.append(f"@{rng.choice(earlier)[0]} {_sentence(rng, (4, 10))}")
        parts += [_paragraph(rng, (1, 4) if k else (2, 5))
                  for _ in range(rng.randint(1, 2) if k else rng.randint(1, 3))]
        if category == ELECTRONICS and rng.random() < 0.2:
            parts.append("```\n" + "\n".join(f"{rng.choice(NOUNS)} = {rng.randint(0, 255)}"
                                             for _ in range(rng.randint(2, 6))) + "\n```")
        if topic_index and rng.random() < 0.06:  # a link to an older topic or comment
            j = rng.choice(list(topic_index))
            target = (f"[[T:{topic_index[j]}]]" if rng.random() < 0.7
                      else f"[[C:{topic_index[j]}:{rng.randrange(len(posts[j]))}]]")
            parts.append(f"See also [this thread]({target}).")
        body = "\n\n".join(parts)
        event: dict[str, Any] = {"when": when, "user": user, "body": body}
        if k == 0:
            a, b, c = rng.sample(NOUNS, 3)
            topic_index[i] = len(topic_index)
            event.update(kind="topic", category=category,
                         title=rng.choice(TITLES).format(A=a.capitalize(), a=a, b=b, c=c))
        else:
            event.update(kind="comment", topic=topic_index[i], quote=quote)
        events.append(event)
        posts.setdefault(i, []).append((user, when))
    for i, (category, times) in enumerate(threads):  # likes, edits, moderation
        t_index = topic_index[i]
        for n_comment, (who, when) in enumerate(posts[i]):
            likers = [n for n in names if n != who and joined[n] < when]
            for liker in rng.sample(likers, min(len(likers), rng.choices(
                    range(9), [45, 22, 12, 8, 5, 3, 2, 2, 1])[0])):
                events.append({"kind": "like", "when": min(
                    when + dt.timedelta(hours=rng.expovariate(1 / 48)), end),
                    "user": liker, "topic": t_index, "comment": n_comment})
            if rng.random() < 0.05:
                events.append({"kind": "edit", "user": who, "topic": t_index,
                               "comment": n_comment,
                               "when": min(when + dt.timedelta(minutes=rng.randint(2, 600)),
                                           end),
                               "body": f"**Edit:** {_sentence(rng, (6, 14))}"})
        last = times[-1]
        mod = rng.choice(staff)
        if category == 0 and rng.random() < 0.5:
            events.append({"kind": "moderate", "when": times[0] + dt.timedelta(minutes=5),
                           "user": mod, "topic": t_index, "field": "is_globally_pinned",
                           "action": "pinned"})
        elif rng.random() < 0.03:
            events.append({"kind": "moderate", "when": min(last + dt.timedelta(hours=2), end),
                           "user": mod, "topic": t_index, "field": "is_pinned",
                           "action": "pinned"})
        if rng.random() < 0.04:
            events.append({"kind": "moderate", "when": min(last + dt.timedelta(hours=6), end),
                           "user": mod, "topic": t_index, "field": "is_closed",
                           "action": "closed"})
    # oldest first; a like, edit or moderation note after the comments of its moment
    rank = {"topic": 0, "comment": 1, "like": 2, "edit": 3, "moderate": 4}
    events.sort(key=lambda e: (e["when"], rank[e["kind"]]))
    last_post: dict[str, dt.datetime] = {}
    for e in events:
        last_post[e["user"]] = e["when"]
        e["when"] = _stamp(e["when"])
    for u in users:  # seen after their last post, or after joining
        name = u["username"]
        seen = max(dt.datetime.fromisoformat(u["lastseen"]), last_post.get(name, joined[name]))
        u["lastseen"] = _stamp(min(seen + dt.timedelta(minutes=rng.randint(5, 600)), now))
    views = [0] * len(threads)  # by topic, in the order they are made
    for i, (_, times) in enumerate(threads):
        views[topic_index[i]] = len(times) * rng.randint(6, 40) + rng.randint(0, 60)
    categories = [*({"title": t, "description": d, "color": c, "parent": p}
                    for t, d, c, p, _ in CATEGORIES),
                  {"title": "Uncategorized", "existing": True}]
    config = {"site_name": SITENAME, "site_description": "Workshop, garden and kitchen",
              "comments_per_page": COMMENTS_PER_PAGE, "topics_per_page": 20}
    return {"config": config, "comments_per_page": COMMENTS_PER_PAGE, "users": users,
            "categories": categories, "events": events, "views": views}


def available() -> str | None:
    """None if Spirit's venv is there, else how to make it."""
    return venv_missing(VENV, "django-spirit", SPIRIT_VERSION, "ARCHIVER_SPIRIT_VENV", INSTALL)


def _startproject(folder: Path) -> None:
    """The Django project as `spirit startproject forum` writes it (its settings/dev.py:
    SQLite in the folder), with EXTRA_SETTINGS as forum/settings/bench.py."""
    env = {**os.environ, "PATH": f"{VENV / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    run_checked([str(VENV / "bin" / "spirit"), "startproject", "forum", "--path", str(folder)],
                folder, env=env)
    (folder / "forum" / "settings" / "bench.py").write_text(EXTRA_SETTINGS)


def build(folder: Path, n_topics: int = 300, seed: int = 0) -> Path:
    """Build a fresh forum in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    return build_helper_site(
        folder, VENV, {"n_topics": n_topics, "seed": seed, "version": VERSION}, "Spirit forum",
        HELPER, lambda now: generate(n_topics, seed, now), _startproject)


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the forum built in folder (waitress with `workers` threads, read-only) on a
    free port; yields the home URL."""
    with serve_helper(VENV, folder, workers, "Spirit") as seed:
        yield seed


def _id(segment: str) -> int | None:
    return int(segment) if segment.isdigit() else None


def _topic_type(segs: list[str]) -> str:
    """/topic/...: a topic (/topic/ID/ and /topic/ID/SLUG/), the active topics (the home
    page's view), or one of the login-walled views and commands."""
    n = len(segs)
    if n >= 2 and _id(segs[1]) is not None:
        return "topic" if n <= 3 else "other"
    if n == 1:
        return "other"  # /topic/ itself is no route
    if segs[1] == "active":
        return "index" if n == 2 else "other"
    if segs[1] in TOPIC_ACCOUNT:
        return "account"
    if segs[1] in TOPIC_WRITE:
        return "write"
    return "other"


def _comment_type(segs: list[str]) -> str:
    """/comment/...: a permalink (/comment/ID/find/, a redirect into a topic page), an
    edit history (/comment/history/ID/), or a form or command behind a login (publish,
    quote, update, delete, like, flag, bookmark, poll, upload, move)."""
    if len(segs) == 3 and _id(segs[1]) is not None and segs[2] == "find":
        return "comment"
    if len(segs) >= 2 and segs[1] == "history":
        return "history"
    return "write" if len(segs) >= 2 else "other"


def _user_type(segs: list[str]) -> str:
    """/user/...: a profile (/user/ID/ and /user/ID/SLUG/: the user's comments), its other
    tabs (/user/topics/ID/SLUG/, /user/likes/ID/SLUG/), the auth pages (login, register,
    password reset, activation, logout), or the account's own pages (/user/, the profile
    form; /user/menu/, password-change/, email-change/, unsubscribe/...)."""
    if len(segs) >= 2 and _id(segs[1]) is not None:
        return "user"
    if len(segs) >= 3 and segs[1] in ("topics", "likes") and _id(segs[2]) is not None:
        return "user_tab"
    if len(segs) >= 2 and segs[1] in USER_LOGIN:
        return "login"
    return "account"


def page_type(url: str) -> str:
    """Ground truth from the URL alone (Spirit's routes under the project's urls.py), in this
    order:
    - another host than 127.0.0.1 or localhost: "other"
    - /static/..., /media/... or a static file: "static"; /st/admin/... (Spirit's admin)
      and /admin/... (Django's): "admin" (login walled)
    - / and /topic/active/ (the latest active topics, ?page=N): "index"
    - /category/: "categories" (the list of categories); /category/ID/ and
      /category/ID/SLUG/ (a category's topics, with its subcategories', ?page=N): "category"
    - /topic/ID/ and /topic/ID/SLUG/ (any query; ?page=N): "topic"; /topic/publish/...,
      /topic/update/ID/, /topic/moderate/...: "write"; /topic/unread/,
      /topic/notification/..., /topic/private/..., /topic/favorite/...: "account" (all
      login walled)
    - /comment/ID/find/: "comment" (a permalink: a redirect into the topic's page);
      /comment/history/ID/: "history" (an edit history, login walled); anything else under
      /comment/ (publish, quote, update, like, flag, bookmark, poll, move...): "write"
    - /user/ID/[SLUG/]: "user" (a profile: the user's comments); /user/topics/ID/SLUG/ and
      /user/likes/ID/SLUG/: "user_tab" (all login walled); /user/login/, /user/logout/,
      /user/register/, /user/password-reset/..., /user/reset/..., /user/activation/...,
      /user/resend-activation/: "login"; /user/ and the rest under it (the account's
      profile form, menu, password and email change, unsubscribe): "account"
    - /search/: "search" (login walled)
    - anything else (/robots.txt, /favicon.ico are static by their extension): "other"."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    if not segs:
        return "index"
    head = segs[0]
    if head in ("static", "media") or path.lower().endswith(STATIC_EXT):
        return "static"
    if head == "admin" or segs[:2] == ["st", "admin"]:
        return "admin"
    if head == "category":
        if len(segs) == 1:
            return "categories"
        return "category" if _id(segs[1]) is not None and len(segs) <= 3 else "other"
    if head == "topic":
        return _topic_type(segs)
    if head == "comment":
        return _comment_type(segs)
    if head == "user":
        return _user_type(segs)
    if head == "search":
        return "search"
    return "other"


def entity_of(url: str) -> str | None:
    """The UCC page a URL shows: "topic ID page N" for a view of a topic's page (any slug,
    which redirects to the right one; no ?page= is page 1); None for anything else, and for
    a ?page= that is not a positive number (a 404)."""
    if page_type(url) != "topic":
        return None
    parts = urlsplit(url)
    segs = [s for s in parts.path.split("/") if s]
    page = parse_qs(parts.query).get("page", ["1"])[0]
    if not page.isdigit() or int(page) < 1:
        return None
    return f"topic {segs[1]} page {int(page)}"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every page of every topic, as the forum links them (/topic/12/slug/,
    /topic/12/slug/?page=2); give the server (e.g. "http://127.0.0.1:8123") to get absolute
    URLs. No profile: Spirit's profiles have nothing a user wrote about themselves."""
    return {server.rstrip("/") + r["path"] for r in entity_rows(folder) if r["type"] == "topic"}


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: topics, comments, likes, users, pages per topic."""
    rows = entity_rows(folder)
    topics = [r for r in rows if r["type"] == "topic" and r["page"] == 1]
    users = [r for r in rows if r["type"] == "user"]
    pages = Counter(math.ceil(r["comments"] / COMMENTS_PER_PAGE) for r in topics)
    return {"topics": len(topics), "comments": sum(r["posts"] for r in topics),
            "moderation_notes": sum(r["comments"] - r["posts"] for r in topics),
            "likes": sum(r["likes"] for r in topics), "users": len(users),
            "topic_pages": sum(pages[p] * p for p in pages),
            "pages_per_topic": dict(sorted(pages.items())),
            "topics_per_category": dict(Counter(r["category"] for r in topics).most_common())}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "topics", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        home_links = smoke.home_links
        category = min(u for u in home_links if page_type(u) == "category")
        category_links = same_host_links(requests.get(category, timeout=30).content, category)
        topic = max((u for u in ucc if page_type(u) == "topic"), key=lambda u: "?" in u)
        topic_links = same_host_links(requests.get(topic, timeout=30).content, topic)
        first = {page_type(u): u for u in sorted(home_links | category_links | topic_links,
                                                 reverse=True)}
        smoke_fetch([seed, category, topic, *first.values(), f"{server}/user/login/",
                     f"{server}/robots.txt"], page_type, follow_redirects=False)
        print(f"POST {requests.post(seed, timeout=30).status_code} (read-only)")
        print_link_types([("home", home_links), (category, category_links),
                          (topic, topic_links)], page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
