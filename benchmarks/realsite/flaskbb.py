"""A real forum, FlaskBB 2.2.0 (from PyPI), on 127.0.0.1 with generated content.

The forum counterpart of `benchmarks.realsite.mediawiki` and `benchmarks.realsite.wordpress`:
a classic phpBB-like board as it ships (theme Aurora, its two bundled plugins: the portal with
the latest topics and the login-walled private conversations): the forum index, categories,
forums with their paged topic lists, topics with their paged posts, post permalinks that
redirect into the right topic page, user profiles with each user's topics and posts, the
member list (sortable, paged), who is online, search, login, registration, password reset,
... everything a crawler must learn to skip to spend its requests on the threads.

    build(folder)       fresh forum in folder: an SQLite database, a config file, content
                        from a generator (deterministic for n_topics, seed) written through
                        FlaskBB's own models (Topic.save, Post.save, User, Forum, Category)
    serve(folder)       FlaskBB under waitress (threaded) on a free port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every topic page and every written profile (the UCC)

FlaskBB and its dependencies live in a venv of their own (they are not the project's: FlaskBB
2.2.0 needs Python >= 3.12, and pins versions the crawler does not want), named by the
environment variable ARCHIVER_FLASKBB_VENV (default: fbbvenv in the temporary directory,
/tmp/fbbvenv); `available()` says how to create it. Everything FlaskBB runs goes through the
helper script HELPER (its shared parts: `benchmarks.realsite.helpertext`), written into the
build folder and run by that venv's python. FlaskBB 2.2.0 is written for Python 3.14's
deferred annotations (it annotates with names imported only under TYPE_CHECKING), so the
helper compiles FlaskBB's modules as with `from __future__ import annotations`, which is what
makes it import on 3.12 and 3.13; nothing in the venv is changed.

No redis, no mail, no celery worker, no rate limits, no debug toolbar: nothing leaves
127.0.0.1. The server is read-only: a WSGI wrapper answers 405 to anything but GET and HEAD,
the database is opened read-only (SQLite mode=ro) and the session's commit is a rollback
(FlaskBB counts a topic's views with a commit on every GET), so crawling cannot change the
forum and every crawl of a build sees the same pages (but for relative dates, "3 days ago").

The UCC (`entities`): the pages of every topic and the profile of every user who wrote
something on it (notes or a signature; the others only show counts and dates). A topic's entity
is (topic, page): a thread of 37 posts is four pages of 10 posts (FlaskBB's default
POSTS_PER_PAGE), each holding posts that no other page shows, so full recall needs every page
of every thread; /topic/12, /topic/12-slug and /topic/12-slug?page=1 all show its first page.
Post permalinks (/post/ID) are 302 redirects into a topic page and count as nothing
themselves.

What a guest meets (FlaskBB as shipped hides reply, quote, report and new-topic buttons from
guests, so there are few login walls in the links: login, register, reset-password and activate
in the menu): every post on a topic page links its permalink /post/ID (ten redirects a page, to
/topic/ID-slug?page=N#pidID, page=1 included); a forum's topic list links a long thread's pages
as /topic/ID?page=N (no slug); the member list sorts three ways in two orders over its pages;
each user has paged lists of their topics and posts. No page says noindex and there is no
robots.txt (404).

    python -m benchmarks.realsite.flaskbb /tmp/fbbench    # build, serve, smoke test
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import math
import os
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import requests

from benchmarks.realsite.helpertext import MAIN, SERVE
from benchmarks.realsite.php import (
    build_helper_site,
    loopback_path,
    print_link_types,
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

VENV = Path(os.environ.get("ARCHIVER_FLASKBB_VENV")
            or Path(tempfile.gettempdir()) / "fbbvenv")
FLASKBB_VERSION = "2.2.0"
INSTALL = (f"python3.12 -m venv {VENV} && {VENV}/bin/pip install flaskbb=={FLASKBB_VERSION} "
           f"waitress  (python3.12: any Python >= 3.12)")
SITENAME = "Realforum"
VERSION = 1  # of the generator; part of the reuse marker
POSTS_PER_PAGE = 10  # FlaskBB's default, kept (also TOPICS_PER_PAGE and USERS_PER_PAGE)
UCC_TYPES = {"topic", "user"}
TARGET_TYPE = "topic"  # source-target's example is a topic
DESCRIPTION = ("FlaskBB 2.2.0 (theme Aurora, plugins portal and conversations), {size} "
               "generated topics (`benchmarks/realsite/flaskbb.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("topic", "user", "index", "category", "forum", "post", "user_topics",
              "user_posts", "memberlist", "portal", "online", "search", "login", "write",
              "account", "admin", "static", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): the index
# and a category page both render forum/category_layout.html (the index once per category,
# plus the board statistics); clustering is also scored "by template" with them.
SAME_TEMPLATE = {"index": "categories", "category": "categories"}
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico",
              ".woff", ".woff2", ".ttf", ".eot", ".map", ".txt")
# Paths under /topic/ID-slug/ and /post/ID/, and forum actions: forms and buttons behind a
# login (reply, quote, edit, report, raw quote, delete, lock, hide, mark read, new topic, ...)
WRITE_ACTIONS = {"post", "edit", "delete", "hide", "unhide", "lock", "unlock", "highlight",
                 "trivialize", "raw", "report", "markread", "topic"}

CONFIG = """# written by benchmarks/realsite/flaskbb.py: a throwaway local forum
import os
_here = os.path.dirname(os.path.abspath(__file__))
DEBUG = False
TESTING = False
SQLALCHEMY_DATABASE_URI = "sqlite:///" + os.path.join(_here, "forum.sqlite")
SECRET_KEY = "realsite-bench-secret"
WTF_CSRF_SECRET_KEY = "realsite-bench-csrf"
WHOOSHEE_DIR = os.path.join(_here, "whoosh")
WHOOSHEE_ENABLE_INDEXING = False  # the build indexes once at its end; the server writes nothing
USE_DEFAULT_LOGGING = False
LOG_PATH = os.path.join(_here, "logs")
RATELIMIT_ENABLED = False
RATELIMIT_STORAGE_URI = "memory://"
CACHE_TYPE = "SimpleCache"
REDIS_ENABLED = False
DEBUG_TB_ENABLED = False
MAIL_SUPPRESS_SEND = True
MAIL_SERVER = "127.0.0.1"
CELERY_CONFIG = {"task_always_eager": True, "broker_url": "memory://",
                 "result_backend": "cache+memory://"}
"""
HELPER = '''"""Run by benchmarks/realsite/flaskbb.py with FlaskBB's venv (python -I), in the forum's
folder: "install" (schema, groups, settings), "content" (the JSON spec on stdin; writes
entities.jsonl), "serve PORT THREADS" (read-only, GET and HEAD only)."""
import __future__
import datetime as dt
import importlib.machinery
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


class DeferredAnnotations(importlib.machinery.SourceFileLoader):
    """FlaskBB 2.2.0 is written for Python 3.14's deferred annotations: compile its modules
    (and its plugins') as with `from __future__ import annotations`, ignoring their .pyc."""

    def source_to_code(self, data, path, *, _optimize=-1):
        return compile(data, path, "exec", dont_inherit=True, optimize=_optimize,
                       flags=__future__.annotations.compiler_flag)

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        return self.source_to_code(self.get_data(path), path)


class Finder(importlib.machinery.PathFinder):
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name.split(".")[0] not in ("flaskbb", "portal", "conversations"):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is not None and isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            spec.loader = DeferredAnnotations(spec.loader.name, spec.loader.path)
        return spec


sys.meta_path.insert(0, Finder)
sys.dont_write_bytecode = True


def make_app():
    from flaskbb import create_app

    return create_app(os.path.join(HERE, "flaskbb.cfg"), os.path.join(HERE, "instance"))


def fast_sqlite(db):
    """No fsync while building: the build is redone from scratch if it fails."""
    from sqlalchemy import event

    @event.listens_for(db.engine, "connect")
    def pragmas(conn, record):
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute("PRAGMA journal_mode=MEMORY")

    db.engine.dispose()


def install():
    from flaskbb.extensions import db
    from flaskbb.utils.populate import (create_default_groups, create_default_settings,
                                        create_latest_db, run_plugin_migrations)

    app = make_app()
    with app.app_context():
        create_latest_db()
        create_default_groups()
        create_default_settings()
        run_plugin_migrations()
        db.session.commit()


def content(spec):
    import flaskbb.forum.models as forum_models
    from flaskbb.extensions import db, whooshee
    from flaskbb.forum.models import Category, Forum, Post, Topic
    from flaskbb.management.models import Setting
    from flaskbb.plugins.models import PluginRegistry
    from flaskbb.user.models import Group, User
    from werkzeug.security import generate_password_hash

    clock = [dt.datetime.now(dt.UTC)]
    forum_models.time_utcnow = lambda: clock[0]  # Topic.save and Post.save stamp with it
    when = dt.datetime.fromisoformat
    app = make_app()  # the database exists now: this registers the plugins
    with app.app_context(), app.test_request_context("/"):
        fast_sqlite(db)
        Setting.update(spec["settings"])
        portal = db.session.execute(db.select(PluginRegistry).filter_by(name="portal")).scalar_one()
        portal.add_settings(sys.modules["portal"].SETTINGS)
        groups = {g.name: g for g in db.session.execute(db.select(Group)).scalars()}
        users = {}
        password = generate_password_hash("Realsite-user-1")  # one scrypt, not one a user
        for u in spec["users"]:
            user = User(username=u["username"], _password=password, email=u["email"],
                        primary_group_id=groups[u["group"]].id, activated=True,
                        date_joined=when(u["joined"]), lastseen=when(u["lastseen"]),
                        location=u["location"], website=u["website"],
                        birthday=when(u["birthday"]) if u["birthday"] else None,
                        signature=u["signature"], notes=u["notes"])
            db.session.add(user)
            users[u["username"]] = user
        db.session.commit()
        forums = []
        for i, c in enumerate(spec["categories"]):
            category = Category(title=c["title"], description=c["description"], position=i + 1)
            category.save()
            for j, f in enumerate(c["forums"]):
                forum = Forum(title=f["title"], description=f["description"], position=j + 1,
                              category_id=category.id, locked=f["locked"],
                              show_moderators=bool(f["moderators"]))
                forum.moderators = [users[m] for m in f["moderators"]]
                forum.save()
                forums.append(forum)
        topics = []
        for e in spec["events"]:  # oldest first: ids grow with time, as on a live board
            clock[0] = when(e["when"])
            user = users[e["user"]]
            if e["kind"] == "topic":
                topic = Topic(title=e["title"])
                topic.save(user=user, forum=forums[e["forum"]], post=Post(content=e["content"]))
                assert topic.id == len(topics) + 1 and topic.first_post_id == e["post"], e
                topics.append(topic)
            else:
                post = Post(content=e["content"])
                post.save(user=user, topic=topics[e["topic"]])
                assert post.id == e["post"], e
                db.session.expunge(post)  # each commit expires the whole session: keep it small
        for topic, extra in zip(topics, spec["topics"]):
            topic.views, topic.important, topic.locked = (extra["views"], extra["important"],
                                                          extra["locked"])
        db.session.commit()
        app.config["WHOOSHEE_ENABLE_INDEXING"] = True
        whooshee.reindex()
        per_page = spec["settings"]["posts_per_page"]
        with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
            for topic in topics:
                for page in range(1, math.ceil(topic.post_count / per_page) + 1):
                    path = topic.url + (f"?page={page}" if page > 1 else "")
                    out.write(json.dumps({"type": "topic", "id": topic.id, "page": page,
                                          "posts": topic.post_count, "path": path}) + "\\n")
            for user in sorted(users.values(), key=lambda u: u.id):
                out.write(json.dumps({"type": "user", "id": user.id, "name": user.username,
                                      "written": bool(user.notes or user.signature),
                                      "posts": user.post_count, "path": user.url}) + "\\n")


def serve(port, threads):
    from flaskbb.extensions import db

    # read-only: FlaskBB commits a topic's view count on every GET; roll it back instead
    db.session.commit = db.session.rollback
    path = os.path.join(HERE, "forum.sqlite")
    os.environ["FLASKBB_SQLALCHEMY_DATABASE_URI"] = f"sqlite:///file:{path}?mode=ro&uri=true"
    app = make_app()
    serve_read_only(app, port, threads, "FlaskBB")
''' + SERVE + MAIN

# category: (description, {forum: (description, weight)}); Announcements is staff only
BOARD = {
    "Community": ("About this board and the people on it.", {
        "Announcements": ("News about the forum itself.", 1),
        "Introductions": ("New here? Say hello.", 3),
        "Off-topic": ("Anything that fits nowhere else.", 4)}),
    "Workshop": ("Making and mending.", {
        "Woodworking": ("Joints, tools and the bench.", 6),
        "Metalwork": ("Lathes, welding and files.", 3),
        "Electronics": ("Boards, sensors and solder.", 5)}),
    "Outdoors": ("Out of the house.", {
        "Gardening": ("Beds, seeds and soil.", 5),
        "Cycling": ("Bikes, routes and repairs.", 5),
        "Hiking": ("Trails, huts and ridges.", 3)}),
    "Kitchen": ("Food and drink.", {
        "Baking": ("Bread and the oven.", 4),
        "Coffee": ("Beans, roasts and grinders.", 3)}),
}
TITLES = ["{A} {b} question", "Help with my {a} {b}", "My {a} {b} build", "{A} or {b}?",
          "Best {a} for {b}?", "{A} {b} {c}", "Notes on {a} and {b}", "First {a} {b}",
          "{A} {b}: what am I doing wrong?", "Show us your {a} {b}"]


def _slug(title: str) -> str:
    """FlaskBB's slugify for the generator's titles (ASCII words and punctuation)."""
    return "-".join(w for w in "".join(c if c.isalnum() else " " for c in title.lower()).split())


def _replies(rng: random.Random) -> int:
    """Replies to a topic: mostly short threads, a few long ones over many pages."""
    r = rng.random()
    for share, low, high in ((0.55, 0, 4), (0.80, 5, 9), (0.92, 10, 24), (0.98, 25, 59)):
        if r < share:
            return rng.randint(low, high)
    return rng.randint(60, 120)


def _users(rng: random.Random, now: dt.datetime) -> list[dict[str, Any]]:
    names = rng.sample([(f, last) for f in FIRST for last in LAST], 60)
    users, seen = [], set()
    for i, (first, last) in enumerate([("Admin", ""), *names]):
        name = "admin" if i == 0 else user_name(rng, first, last)
        while name in seen:
            name += str(rng.randint(0, 9))
        seen.add(name)
        group = ("Administrator" if i == 0 else "Super Moderator" if i == 1
                 else "Moderator" if i <= 4 else "Member")
        joined = now - dt.timedelta(days=800 if i <= 4 else rng.uniform(60, 780))
        website = (f"https://{first.lower()}{last.lower()}.example.net/" if i
                   and rng.random() < 0.3 else None)
        signature = None
        if i and rng.random() < 0.4:
            signature = rng.choice([_sentence(rng, (4, 9)), f"*{_sentence(rng, (3, 7))}*",
                                    f"[My workshop notes]({website})" if website
                                    else _sentence(rng, (4, 9))])
        users.append({
            "username": name, "email": f"{name.lower()}@example.org", "group": group,
            "joined": _stamp(joined),
            "lastseen": _stamp(now - dt.timedelta(days=rng.uniform(0.1, 50))),
            "location": rng.choice(PLACES) if rng.random() < 0.5 else None,
            "website": website,
            "birthday": (_stamp(dt.datetime(rng.randint(1960, 2002), rng.randint(1, 12),
                                            rng.randint(1, 28))) if rng.random() < 0.25
                         else None),
            "signature": signature,
            "notes": ("\n\n".join(_paragraph(rng) for _ in range(rng.randint(1, 3)))
                      if i == 0 or rng.random() < 0.6 else None)})
    return users


def generate(n_topics: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """The forum's settings, users, categories and forums, and its topics and posts as
    events oldest first (the helper's "content" mode), for these parameters."""
    rng = random.Random(seed)
    users = _users(rng, now)
    names = [u["username"] for u in users]
    staff = names[:5]
    activity = {n: (8.0 if n in staff else rng.paretovariate(1.2)) for n in names}
    joined = {u["username"]: dt.datetime.fromisoformat(u["joined"]) for u in users}
    forums = [(f, d, w) for c in BOARD.values() for f, (d, w) in c[1].items()]
    mods = {f: rng.sample(staff[2:], rng.randint(1, 2)) for f, _, _ in forums}
    categories = [{"title": c, "description": d, "forums": [
        {"title": f, "description": fd, "locked": f == "Announcements",
         "moderators": mods[f] if rng.random() < 0.6 else []} for f, (fd, _) in fs.items()]}
        for c, (d, fs) in BOARD.items()]

    def author(when: dt.datetime, pool: list[str]) -> str:
        ok = [n for n in pool if joined[n] < when] or staff
        return rng.choices(ok, [activity[n] for n in ok])[0]

    # when every post is written: topic starts over two years, replies after them
    threads = []
    for i in range(n_topics):
        start = now - dt.timedelta(days=730 * (1 - i / n_topics), seconds=rng.randint(0, 80_000))
        times = thread_times(rng, start, now - dt.timedelta(minutes=30), _replies(rng))
        forum = rng.choices(range(len(forums)), [w for _, _, w in forums])[0]
        threads.append((forum, times))
    order = sorted(((t, i, k) for i, (_, times) in enumerate(threads)
                    for k, t in enumerate(times)))
    topic_ids: dict[int, int] = {}
    titles: dict[int, str] = {}
    thread_posts: dict[int, list[tuple[int, str, str]]] = {}  # (post id, user, text)
    events = []
    last: dict[str, dt.datetime] = {}  # each user's last post
    for pid, (when, i, k) in enumerate(order, start=1):
        forum = threads[i][0]
        pool = staff if forums[forum][0] == "Announcements" else names
        user = author(when, pool if k == 0 else names)
        parts = []
        earlier = thread_posts.get(i, [])
        if earlier and rng.random() < 0.25:  # a quote, as FlaskBB's quote button writes it
            _, quoted_user, quoted = rng.choice(earlier)
            first = quoted.split("\n\n")[0].split(". ")[0].lstrip("> ")
            parts.append(f"**[{quoted_user}](/user/{quoted_user}) wrote:**\n> {first}.\n")
        elif earlier and rng.random() < 0.15:
            parts.append(f"@{rng.choice(earlier)[1]} {_sentence(rng, (4, 10))}")
        parts += [_paragraph(rng, (1, 4) if k else (2, 5))
                  for _ in range(rng.randint(1, 2) if k else rng.randint(1, 4))]
        if forums[forum][0] == "Electronics" and rng.random() < 0.2:
            parts.append("```\n" + "\n".join(f"{rng.choice(NOUNS)} = {rng.randint(0, 255)}"
                                             for _ in range(rng.randint(2, 6))) + "\n```")
        if topic_ids and rng.random() < 0.06:  # a link to an older thread or post
            j = rng.choice(list(topic_ids))
            target = (f"/topic/{topic_ids[j]}-{_slug(titles[j])}" if rng.random() < 0.7
                      else f"/post/{rng.choice(thread_posts[j])[0]}")
            parts.append(f"See also [{titles[j]}]({target}).")
        text = "\n\n".join(parts)
        event = {"when": _stamp(when), "user": user, "content": text, "post": pid}
        if k == 0:
            a, b, c = rng.sample(NOUNS, 3)
            titles[i] = rng.choice(TITLES).format(A=a.capitalize(), a=a, b=b, c=c)
            topic_ids[i] = len(topic_ids) + 1
            event.update(kind="topic", forum=forum, title=titles[i])
        else:
            event.update(kind="post", topic=topic_ids[i] - 1)
        thread_posts.setdefault(i, []).append((pid, user, text))
        events.append(event)
        last[user] = when
    for u in users:  # seen after their last post, or after joining
        name = u["username"]
        seen = max(dt.datetime.fromisoformat(u["lastseen"]), last.get(name, joined[name]))
        u["lastseen"] = _stamp(min(seen + dt.timedelta(minutes=rng.randint(5, 600)), now))
    by_id = sorted(topic_ids, key=topic_ids.__getitem__)
    topics = [{"views": len(threads[i][1]) * rng.randint(6, 40) + rng.randint(0, 60),
               "important": rng.random() < 0.03, "locked": rng.random() < 0.04}
              for i in by_id]
    settings = {"project_title": SITENAME, "project_subtitle": "Workshop, garden and kitchen",
                "auth_ratelimit_enabled": False, "posts_per_page": POSTS_PER_PAGE}
    return {"settings": settings, "users": users, "categories": categories, "events": events,
            "topics": topics}


def available() -> str | None:
    """None if FlaskBB's venv is there, else how to make it."""
    return venv_missing(VENV, "flaskbb", FLASKBB_VERSION, "ARCHIVER_FLASKBB_VENV", INSTALL)


def build(folder: Path, n_topics: int = 300, seed: int = 0) -> Path:
    """Build a fresh forum in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    return build_helper_site(
        folder, VENV, {"n_topics": n_topics, "seed": seed, "version": VERSION}, "forum",
        HELPER, lambda now: generate(n_topics, seed, now),
        lambda folder: (folder / "flaskbb.cfg").write_text(CONFIG))


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the forum built in folder (waitress with `workers` threads, read-only) on a
    free port; yields the home URL."""
    with serve_helper(VENV, folder, workers, "FlaskBB") as seed:
        yield seed


def _id(segment: str) -> int | None:
    """The number of an "ID" or "ID-slug" path segment."""
    head = segment.split("-", 1)[0]
    return int(head) if head.isdigit() else None


def page_type(url: str) -> str:
    """Ground truth from the URL alone (FlaskBB's routes, no URL prefixes), in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - /static/..., /_themes/... or a static file: "static"; /admin/...: "admin" (the
      management panel, login walled); /auth/... (login, logout, register, reset-password,
      activate, reauth): "login"; /user/settings/..., /conversations/... (the private
      messages plugin), /topictracker: "account" (login walled)
    - /: "index" (the forum index: categories and their forums); /portal/: "portal" (the
      plugin's latest topics and news); /memberlist: "memberlist" (any sort and page);
      /who-is-online: "online"; /search: "search" (a form; results are POSTed)
    - /category/ID[-slug]: "category"; /forum/ID[-slug] (its topic list, ?page=N):
      "forum"; /topic/ID[-slug] (?page=N): "topic"; /post/ID: "post" (a permalink: a
      redirect into the topic's page); /user/NAME: "user" (a profile); /user/NAME/topics and
      /user/NAME/posts (?page=N): "user_topics" and "user_posts"
    - anything under a topic, a post or a forum (/topic/ID-slug/post/new, .../post/ID/reply,
      /post/ID/edit|report|raw, /ID-slug/topic/new, /forum/ID-slug/edit, .../markread, ...)
      and /markdown: "write" (forms and buttons behind a login)
    - anything else: "other"."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    if not segs:
        return "index"
    head, n = segs[0], len(segs)
    if head in ("static", "_themes") or path.lower().endswith(STATIC_EXT):
        return "static"
    simple = {"admin": "admin", "auth": "login", "conversations": "account",
              "topictracker": "account", "markdown": "write", "portal": "portal",
              "memberlist": "memberlist", "who-is-online": "online", "search": "search"}
    if head in simple:
        return simple[head] if n == 1 or head in ("admin", "auth", "conversations",
                                                   "topictracker", "markdown") else "other"
    if head == "user" and n >= 2:
        if segs[1] == "settings":
            return "account"
        if n == 2:
            return "user"
        return {"topics": "user_topics", "posts": "user_posts"}.get(segs[2], "other") \
            if n == 3 else "other"
    if n >= 2 and _id(segs[1]) is not None:
        if head in ("category", "forum", "topic", "post") and n == 2:
            return head
        if head in ("forum", "topic", "post") and segs[2] in WRITE_ACTIONS | {"new"}:
            return "write"
    if _id(head) is not None and n >= 2 and segs[1] in ("topic", "markread"):
        return "write"  # /ID-slug/topic/new and /ID-slug/markread
    return "other"


def entity_of(url: str) -> str | None:
    """The UCC page a URL shows: "topic ID page N" for a view of a topic's page (no page or
    an unreadable one is page 1, as FlaskBB reads it), "user NAME" for a profile; None for
    anything else."""
    kind = page_type(url)
    if kind not in UCC_TYPES:
        return None
    parts = urlsplit(url)
    segs = [unquote(s) for s in parts.path.split("/") if s]
    if kind == "user":
        return f"user {segs[1]}"
    page = parse_qs(parts.query).get("page", ["1"])[0]
    return f"topic {_id(segs[1])} page {int(page) if page.isdigit() else 1}"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every topic page and of every profile with something its user wrote (notes or
    a signature), as the forum links them (/topic/12-slug, /topic/12-slug?page=2,
    /user/NAME); give the server (e.g. "http://127.0.0.1:8123") to get absolute URLs."""
    rows = [json.loads(line) for line in (folder / "entities.jsonl").read_text().splitlines()]
    return {server.rstrip("/") + r["path"] for r in rows
            if r["type"] == "topic" or r["written"]}


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: topics, posts, users, pages per topic."""
    rows = [json.loads(line) for line in (folder / "entities.jsonl").read_text().splitlines()]
    topics = [r for r in rows if r["type"] == "topic" and r["page"] == 1]
    users = [r for r in rows if r["type"] == "user"]
    pages = Counter(math.ceil(r["posts"] / POSTS_PER_PAGE) for r in topics)
    return {"topics": len(topics), "posts": sum(r["posts"] for r in topics),
            "users": len(users), "written_profiles": sum(r["written"] for r in users),
            "pages_per_topic": dict(sorted(pages.items()))}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "topics", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        home_links = smoke.home_links
        forum = min(u for u in home_links if page_type(u) == "forum")
        forum_links = same_host_links(requests.get(forum, timeout=30).content, forum)
        topic = max((u for u in ucc if page_type(u) == "topic"), key=lambda u: "?" in u)
        topic_links = same_host_links(requests.get(topic, timeout=30).content, topic)
        first = {page_type(u): u for u in sorted(home_links | forum_links | topic_links,
                                                 reverse=True)}
        smoke_fetch([seed, forum, topic, *first.values(), f"{server}/auth/login"], page_type,
                    follow_redirects=False)
        print(f"POST {requests.post(seed, timeout=30).status_code} (read-only)")
        print_link_types([("home", home_links), (forum, forum_links), (topic, topic_links)],
                         page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
