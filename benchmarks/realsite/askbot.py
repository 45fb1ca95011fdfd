"""A real Q&A site, Askbot 0.13.0 (from PyPI), on 127.0.0.1 with generated content.

The Q&A counterpart of `benchmarks.realsite.flaskbb`: a StackOverflow-like site on Django 5.2
as `askbot-setup` makes it (its settings.py, SQLite, the default skin, django-compressor's
bundles): the questions list with its scopes, sorts, pages and tag filters, question pages
with their answers, comments, votes and accepted answer, revision histories, the tag cloud,
the user list and profiles with their tabs, badges, RSS feeds, search, sign-in and sign-up,
the feedback form, ... everything a crawler must learn to skip to spend its requests on the
questions.

    build(folder)       fresh site in folder: askbot-setup's project (package qa), an SQLite
                        database, content from a generator (deterministic for n_questions,
                        seed) written through Askbot's own user methods (post_question,
                        post_answer, post_comment, upvote and downvote, accept_best_answer,
                        edit_question and edit_answer), which also award the badges
    serve(folder)       Askbot under waitress (threaded) on a free port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every question page and every written profile (the UCC)

Askbot and its dependencies live in a venv of their own (they are not the project's: Askbot
pins Django < 5.3, bleach, markdown-it, celery, ...), named by the environment variable
ARCHIVER_ASKBOT_VENV (default: abvenv in the temporary directory, /tmp/abvenv); `available()`
says how to create it: Python 3.10 to 3.13 (Django 5.2's range; askbot 0.13 needs >= 3.10),
plus setuptools on 3.12 and later, whose distutils shim the oauth2 package Askbot imports
needs. Everything Askbot runs goes through the helper script HELPER (its shared parts:
`benchmarks.realsite.helpertext`), written into the build folder and run by that venv's
python; EXTRA_SETTINGS are appended to askbot-setup's settings.

No redis (Django's local-memory cache), no celery worker (tasks run eagerly), no mail (a dummy
backend, email alerts off), no rate limits, no debug toolbar, local fonts: nothing leaves
127.0.0.1. The server is read-only: a WSGI wrapper answers 405 to anything but GET and HEAD,
the database is opened read-only (SQLite mode=ro), sessions live in signed cookies (a question
page writes to the session) and the signal by which Askbot counts a question's views on
every GET (a celery task, so a database write) is disconnected; the build renders a page of
each kind once so that django-compressor's bundles exist before serving. So crawling cannot
change the site and every crawl of a build sees the same pages (but for relative dates, "3
days ago"). The site's URL (livesetting APP_URL, for canonical and feed links) is the
server's own, from its environment.

The UCC (`entities`): the page of every question, with its answers and comments, and the
profile of every user who wrote something about themselves (the "about" text; other profiles
only show counts, titles, tags and badges). A question's entity is (question, page): Askbot
shows ANSWERS_PAGE_SIZE (10) answers a page, so a longer question would be several entities
as FlaskBB's topics are, but the generator writes at most six answers to a question (and at
most four comments under a post: Askbot shows five before a "see more" button), so every
question is one page here. /question/12/slug/ with ?sort=votes|oldest|latest (the same
answers in another order), ?page=1, or the permalinks ?answer=ID and ?comment=ID (the page
holding that post, #post-id-ID) all show that page; a wrong or missing slug (/question/12/
slug, without its slash, is what the profiles' activity tab links) is a 302 to it. A profile
is its main tab, /users/7/name/ (also ?sort=stats); its other tabs (recent activity,
reputation history, network, favorites) only list titles and counts.

What a guest meets (Askbot shows guests the ask and close links, which lead to forms and to
a login): / redirects to /questions/ (30 questions a page, two scopes, four sorts in two
orders); every tag link is a filtered list (/questions/scope:all/sort:activity-desc/
tags:bread/page:1/), and on a filtered list every tag link adds its tag (tags:bread,oven; a
301 puts them in order), an unbounded space of lists, each with its own RSS feed
(/feeds/rss/?tags=bread&tags=oven); every page links sign-in and the feedback form with a
signed ?next= token of its own URL, so each page adds two new URLs; a question links its
answer order three ways, each answer's permalink, the revision history of the question and
of each answer, its RSS feed, close (a login wall), and its related questions; the user list
sorts four ways (and links ?page=None, as Askbot does); badges link their recipients' pages.
No page says noindex and there is no robots.txt (404).

    python -m benchmarks.realsite.askbot /tmp/abbench    # build, serve, smoke test
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Collection, Iterator
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
from benchmarks.realsite.words import FIRST, LAST, NOUNS, PLACES, user_name
from benchmarks.realsite.words import paragraph as _paragraph
from benchmarks.realsite.words import sentence as _sentence
from benchmarks.realsite.words import stamp as _stamp

VENV = Path(os.environ.get("ARCHIVER_ASKBOT_VENV")
            or Path(tempfile.gettempdir()) / "abvenv")
ASKBOT_VERSION = "0.13.0"
INSTALL = (f"python3.12 -m venv {VENV} && {VENV}/bin/pip install askbot=={ASKBOT_VERSION} "
           f"waitress setuptools  (python3.12: any Python from 3.10 to 3.13; setuptools "
           f"brings the distutils that askbot's oauth2 imports on 3.12 and later)")
SITENAME = "Realask"
VERSION = 1  # of the generator; part of the reuse marker
ANSWERS_PAGE_SIZE = 10  # askbot.const.ANSWERS_PAGE_SIZE: answers on one page of a question
UCC_TYPES = {"question", "user"}
TARGET_TYPE = "question"  # source-target's example is a question
DESCRIPTION = ("Askbot 0.13.0 (as askbot-setup makes it, SQLite), {size} generated questions "
               "(`benchmarks/realsite/askbot.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("question", "user", "index", "questions", "tagged", "search", "tags", "users",
              "user_tab", "badges", "revisions", "feed", "info", "login", "write", "account",
              "admin", "static", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): every list
# of questions, filtered by tags or a query or not, is main_page.html; clustering is also
# scored "by template" with them.
SAME_TEMPLATE = {"questions": "main_page", "tagged": "main_page", "search": "main_page"}
# /questions/KEY:VALUE/... filters of the question lists
LIST_FILTERS = {"scope", "sort", "tags", "author", "page", "page-size", "query"}
QUESTION_ACTIONS = {"ask", "close", "reopen", "answer", "retag", "edit"}
# Profile tabs besides the main one ("stats"), as /users/ID/SLUG/?sort=TAB
USER_TABS = {"recent", "reputation", "favorites", "votes", "network", "email_subscriptions",
             "moderation", "manage-account", "inbox"}
SIMPLE_TYPES = {"tags": "tags", "badges": "badges", "groups": "users", "about": "info",
                "faq": "info", "help": "info", "privacy": "info", "terms": "info", "doc": "info",
                "account": "login", "accounts": "login", "feedback": "write", "s": "write",
                "followit": "write", "vote": "write", "post_comments": "write",
                "admin": "admin", "settings": "admin", "moderation-queue": "admin",
                "analytics": "admin", "preview-emails": "admin"}
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico",
              ".woff", ".woff2", ".ttf", ".eot", ".map", ".txt")

# Appended to the settings.py that askbot-setup writes (read by the helper's processes)
EXTRA_SETTINGS = """
# --- appended by benchmarks/realsite/askbot.py: a throwaway Q&A site on 127.0.0.1
import os as _os
SECRET_KEY = "realsite-bench-secret"  # fixed, so that the signed ?next= links are too
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
ASKBOT_APP_URL = _os.environ.get("ASKBOT_BENCH_ORIGIN", "http://127.0.0.1/")
if _os.environ.get("ASKBOT_BENCH_READ_ONLY"):  # the server's: SQLite opened read-only
    DATABASES["default"]["NAME"] = "file:" + DATABASES["default"]["NAME"] + "?mode=ro"
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"  # no session rows
EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
ASKBOT_USE_LOCAL_FONTS = True
RATELIMIT_ENABLE = False
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = "memory://"
"""
HELPER = '''"""Run by benchmarks/realsite/askbot.py with Askbot's venv (python -I), in the site's
folder (a project made by askbot-setup, package qa): "install" (schema), "content" (the JSON
spec on stdin; writes entities.jsonl), "serve PORT THREADS" (read-only, GET and HEAD
only)."""
import datetime as dt
import json
import math
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # the project's package qa (python -I leaves the folder out)
sys.dont_write_bytecode = True
warnings.simplefilter("ignore")  # naive-datetime and deprecation warnings of Askbot's own


def setup(origin="http://127.0.0.1/", read_only=False):
    os.environ["DJANGO_SETTINGS_MODULE"] = "qa.settings"
    os.environ["ASKBOT_BENCH_ORIGIN"] = origin
    if read_only:
        os.environ["ASKBOT_BENCH_READ_ONLY"] = "1"
    import django

    django.setup()


def quiet():
    """Askbot counts a question's views on every GET (a celery task, run eagerly): not here."""
    from askbot import signals
    from askbot.models.analytics import record_question_visit

    signals.question_visited.disconnect(dispatch_uid="record_question_visit")
    signals.question_visited.disconnect(record_question_visit)


def make_users(spec):
    from askbot.models import User

    when = dt.datetime.fromisoformat
    users = {}
    for u in spec:
        user = User.objects.create_user(u["username"], u["email"])  # no password: no login
        user.date_joined = when(u["joined"])
        user.real_name = u["real_name"]
        user.location = u["location"]
        user.website = u["website"]
        user.country = u["country"]
        user.show_country = bool(u["country"])
        user.date_of_birth = dt.date.fromisoformat(u["birthday"]) if u["birthday"] else None
        user.save()
        user.set_status(u["status"])
        if u["about"]:
            user.update_localized_profile(about=u["about"])
        users[u["username"]] = user
    return users


def post_events(events, users, questions, answers):
    """Write the events (oldest first) through Askbot's own user methods."""
    from askbot.models import Post

    when = dt.datetime.fromisoformat

    def target(on):
        return (questions if on[0] == "q" else answers)[on[1]]

    def text(body):  # [[Q:i]]: a link to an older question
        for i, q in enumerate(questions):
            body = body.replace(f"[[Q:{i}]]", f"[{q.thread.title}]({q.get_absolute_url()})")
        return body

    for e in events:
        user, t = users[e["user"]], when(e["when"])
        kind = e["kind"]
        if kind == "question":
            questions.append(user.post_question(title=e["title"], body_text=text(e["body"]),
                                                tags=" ".join(e["tags"]), timestamp=t))
        elif kind == "answer":
            answers[e["key"]] = user.post_answer(question=questions[e["q"]],
                                                 body_text=text(e["body"]), timestamp=t)
        elif kind == "comment":
            user.post_comment(parent_post=target(e["on"]), body_text=e["body"], timestamp=t)
        elif kind == "vote":
            post = Post.objects.get(pk=target(e["on"]).pk)  # with its current score
            (user.upvote if e["up"] else user.downvote)(post, timestamp=t)
        elif kind == "accept":
            user.accept_best_answer(answer=Post.objects.get(pk=answers[e["a"]].pk),
                                    timestamp=t, force=True)
        elif kind == "edit":
            post = Post.objects.get(pk=target(e["on"]).pk)
            if post.post_type == "question":
                user.edit_question(question=post, body_text=text(e["body"]), timestamp=t,
                                   revision_comment=e["summary"], force=True)
            else:
                user.edit_answer(answer=post, body_text=text(e["body"]), timestamp=t,
                                 revision_comment=e["summary"], force=True)


def content(spec):
    setup()
    fast_sqlite()
    quiet()
    from askbot.conf import settings as askbot_settings
    from askbot.models import Thread, User

    for key, value in spec["settings"].items():
        askbot_settings.update(key, value)
    users = make_users(spec["users"])
    questions, answers = [], {}
    post_events(spec["events"], users, questions, answers)
    for q, views in zip(questions, spec["views"]):
        Thread.objects.filter(pk=q.thread_id).update(view_count=views)
    for u in spec["users"]:
        user = User.objects.get(username=u["username"])
        user.last_seen = dt.datetime.fromisoformat(u["lastseen"])
        user.save()
    with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
        for i, q in enumerate(questions):
            thread = Thread.objects.get(pk=q.thread_id)
            n = thread.answer_count
            for page in range(1, max(1, math.ceil(n / spec["answers_page_size"])) + 1):
                path = q.get_absolute_url() + (f"?page={page}" if page > 1 else "")
                out.write(json.dumps({"type": "question", "id": q.id, "page": page,
                                      "answers": n, "comments": spec["comments"][i],
                                      "path": path}) + "\\n")
        for user in User.objects.order_by("id"):
            about = user.get_localized_profile().about
            out.write(json.dumps({"type": "user", "id": user.id, "name": user.username,
                                  "written": bool(about.strip()),
                                  "path": user.get_profile_url()}) + "\\n")
    warm_pages(questions, users[spec["users"][1]["username"]])


def warm_pages(questions, user):
    """Render a page of each kind, so that django-compressor writes its CSS and JS bundles
    now (into static/CACHE) and the read-only server finds them made."""
    from askbot.models import BadgeData, Post
    from django.test import Client

    client = Client()
    question, answer = questions[-1], Post.objects.filter(post_type="answer").first()
    badge = BadgeData.objects.order_by("id").first()
    profile = user.get_profile_url()
    for path in ["/questions/", "/questions/scope:all/sort:votes-desc/tags:bread/page:1/",
                 "/questions/scope:all/sort:activity-desc/query:bread/page:1/",
                 question.get_absolute_url(), f"/questions/{question.id}/revisions/",
                 f"/answers/{answer.id}/revisions/", profile, "/tags/", "/users/", "/badges/",
                 f"/badges/{badge.id}/{badge.slug}/", "/help/", "/faq/", "/about/",
                 "/privacy/", "/terms/", "/account/signin/", "/account/signup/",
                 "/account/recover/", "/feedback/", "/questions/ask/"] + [
            f"{profile}?sort={tab}" for tab in ("recent", "reputation", "network",
                                                  "favorites", "votes")]:
        client.get(path)


def serve(port, threads):
    setup(origin=f"http://127.0.0.1:{port}/", read_only=True)
    quiet()
    from django.conf import settings
    from django.contrib.sites.models import SITE_CACHE, Site

    # the feeds' self links name the Site's domain (example.com in the database): this one
    SITE_CACHE[settings.SITE_ID] = Site(id=settings.SITE_ID, domain=f"127.0.0.1:{port}",
                                        name="Realask")
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.wsgi import get_wsgi_application

    app = StaticFilesHandler(get_wsgi_application())  # /m/: Askbot's CSS, JS and images
    serve_read_only(app, port, threads, "Askbot")
''' + DJANGO + SERVE + MAIN

COUNTRIES = ["NO", "PT", "FR", "PL", "GB", "AT", "FI", "BE", "IE", "CH", "SE", "IT"]
# tag: weight (a few tags carry most questions, as on any Q&A site)
TAGS = {"woodworking": 9, "joinery": 5, "glue": 3, "finishing": 4, "sharpening": 4,
        "bread": 8, "sourdough": 6, "baking": 7, "oven": 3, "coffee": 6, "espresso": 4,
        "grinder": 2, "garden": 8, "soil": 4, "seeds": 4, "compost": 3, "tomatoes": 2,
        "bike": 8, "brakes": 4, "gears": 3, "tyres": 3, "electronics": 8, "soldering": 5,
        "arduino": 5, "sensors": 3, "battery": 4, "camera": 5, "lens": 3, "film": 3,
        "hiking": 5, "tent": 2, "stove": 2, "maps": 2, "metalwork": 4, "lathe": 3,
        "welding": 3, "paint": 3, "plumbing": 2}
TITLES = ["How do I {a} my {b}?", "Why does my {a} {b} keep failing?", "Best {a} for a {b}?",
          "{A} or {b}: which one for a beginner?", "What is the right {a} for {b}?",
          "Can I use a {a} instead of a {b}?", "How to fix a {a} {b}", "{A} {b} too {c}?",
          "Is it safe to {a} a {b}?", "What causes {a} on the {b}?",
          "How long should a {a} {b} take?", "Recommended {a} {b} settings?"]
SUMMARIES = ["fixed a typo", "added details", "clarified the question", "more context",
             "formatting", "added the {a} I used"]


def _body(rng: random.Random, paragraphs: tuple[int, int], tags: list[str],
          older: int) -> str:
    """A post's Markdown: paragraphs, sometimes a code block or a list, sometimes a link to
    an older question ([[Q:i]], made a link by the helper once question i has its URL)."""
    parts = [_paragraph(rng) for _ in range(rng.randint(*paragraphs))]
    if {"electronics", "arduino", "sensors", "soldering"} & set(tags) and rng.random() < 0.35:
        parts.append("\n".join(f"    {rng.choice(NOUNS)} = {rng.randint(0, 255)}"
                               for _ in range(rng.randint(2, 6))))
    elif rng.random() < 0.15:
        parts.append("\n".join(f"- {_sentence(rng, (3, 7))}" for _ in range(rng.randint(2, 4))))
    if older and rng.random() < 0.08:
        parts.append(f"See also [[Q:{rng.randrange(older)}]].")
    return "\n\n".join(parts)


def qa_users(rng: random.Random, now: dt.datetime, n: int = 50) -> list[dict[str, Any]]:
    """n users: the administrator, two moderators and the members; about half of them wrote
    something about themselves."""
    names = rng.sample([(f, last) for f in FIRST for last in LAST], n - 1)
    users, seen = [], set()
    for i, (first, last) in enumerate([("Admin", "Istrator"), *names]):
        name = "admin" if i == 0 else user_name(rng, first, last)
        while name in seen:
            name += str(rng.randint(0, 9))
        seen.add(name)
        joined = now - dt.timedelta(days=800 if i <= 2 else rng.uniform(30, 780))
        website = (f"https://{first.lower()}{last.lower()}.example.net/"
                   if i and rng.random() < 0.3 else "")
        about = ""
        if i == 0 or rng.random() < 0.5:
            about = "\n\n".join(_paragraph(rng, (1, 3)) for _ in range(rng.randint(1, 3)))
        place = rng.randrange(len(PLACES))
        users.append({
            "username": name, "email": f"{name.lower()}@example.org",
            "status": "d" if i == 0 else "m" if i <= 2 else "a",
            "joined": _stamp(joined),
            "lastseen": _stamp(now - dt.timedelta(days=rng.uniform(0.1, 50))),
            "real_name": f"{first} {last}" if i and rng.random() < 0.6 else "",
            "location": PLACES[place] if rng.random() < 0.5 else "",
            "country": COUNTRIES[place] if rng.random() < 0.3 else "",
            "website": website, "about": about,
            "birthday": (dt.date(rng.randint(1960, 2002), rng.randint(1, 12),
                                 rng.randint(1, 28)).isoformat()
                         if rng.random() < 0.2 else None)})
    return users


def _answers(rng: random.Random) -> int:
    """Answers to a question: 0 to 6, most questions have one to three."""
    return rng.choices(range(7), [14, 26, 22, 15, 10, 8, 5])[0]


def _comments(rng: random.Random) -> int:
    """Comments under a post: mostly none, at most four (Askbot shows five before a "see more
    comments" button)."""
    return 0 if rng.random() < 0.6 else rng.choices([1, 2, 3, 4], [5, 3, 2, 1])[0]


class Writer:
    """Who writes what when: users weighted by activity, each only after joining."""

    def __init__(self, rng: random.Random, users: list[dict[str, Any]]) -> None:
        self.rng = rng
        self.joined = {u["username"]: dt.datetime.fromisoformat(u["joined"]) for u in users}
        self.activity = {u["username"]: (6.0 if u["status"] != "a" else rng.paretovariate(1.1))
                         for u in users}

    def pick(self, when: dt.datetime, besides: Collection[str] = ()) -> str:
        ok = ([n for n, j in self.joined.items() if j < when and n not in besides]
              or [n for n in self.joined if n not in besides])
        return self.rng.choices(ok, [self.activity[n] for n in ok])[0]


def _later(rng: random.Random, when: dt.datetime, mean_hours: float,
           end: dt.datetime) -> dt.datetime:
    """A moment after `when`, exponentially distributed, before `end` if there is room."""
    gap = dt.timedelta(hours=rng.expovariate(1 / mean_hours))
    return max(min(when + gap, end - dt.timedelta(seconds=rng.randint(60, 3600))),
               when + dt.timedelta(seconds=rng.randint(30, 300)))


def question_events(rng: random.Random, i: int, start: dt.datetime, end: dt.datetime,
                     writer: Writer) -> tuple[list[dict[str, Any]], int]:
    """The events of question i, asked at `start`: the question, its answers, comments,
    votes, an accepted answer, edits; and how many comments it got."""
    tags = sorted(set(rng.choices(list(TAGS), list(TAGS.values()), k=rng.choice([1, 2, 2, 3, 3,
                                                                               4]))))
    a, b, c = rng.sample(NOUNS, 3)
    asker = writer.pick(start)
    body = _body(rng, (1, 4), tags, i)
    events: list[dict[str, Any]] = [{"kind": "question", "when": start, "user": asker,
                                     "title": rng.choice(TITLES).format(A=a.capitalize(), a=a,
                                                                        b=b, c=c),
                                     "body": body, "tags": tags}]
    posts: list[tuple[list[Any], str, dt.datetime, str]] = [(["q", i], asker, start, body)]
    for k in range(_answers(rng)):  # one answer a user (Askbot's LIMIT_ONE_ANSWER_PER_USER)
        when = _later(rng, start, 30.0 * (k + 1), end)
        who = writer.pick(when, {p[1] for p in posts})
        text = _body(rng, (1, 3), tags, i)
        events.append({"kind": "answer", "when": when, "user": who, "q": i, "key": f"{i}.{k}",
                       "body": text})
        posts.append((["a", f"{i}.{k}"], who, when, text))
    comments = 0
    for on, author, when, text in posts:
        comments += _post_extras(rng, events, on, author, when, text, end, writer)
    answered = [p for p in posts if p[0][0] == "a"]
    if answered and rng.random() < 0.45:
        on, _, when, _ = rng.choice(answered)
        events.append({"kind": "accept", "when": _later(rng, when, 24.0, end), "user": asker,
                       "a": on[1]})
    return events, comments


def _post_extras(rng: random.Random, events: list[dict[str, Any]], on: list[Any], author: str,
                 when: dt.datetime, text: str, end: dt.datetime, writer: Writer) -> int:
    """Comments, votes and maybe an edit by its author on one post; returns the comments."""
    n_comments = _comments(rng)
    t = when
    for _ in range(n_comments):
        t = _later(rng, t, 12.0, end)
        events.append({"kind": "comment", "when": t, "user": writer.pick(t), "on": on,
                       "body": _sentence(rng, (5, 25))})
    voters: set[str] = {author}
    for _ in range(rng.choices(range(9), [20, 20, 15, 12, 10, 8, 6, 5, 4])[0]):
        t = _later(rng, when, 72.0, end)
        voter = writer.pick(t, voters)
        voters.add(voter)
        events.append({"kind": "vote", "when": t, "user": voter, "on": on,
                       "up": rng.random() < 0.9})
    if rng.random() < 0.12:
        a = rng.choice(NOUNS)
        events.append({"kind": "edit", "when": _later(rng, when, 6.0, end), "user": author,
                       "on": on, "body": f"{text}\n\n**Edit:** {_paragraph(rng, (1, 2))}",
                       "summary": rng.choice(SUMMARIES).format(a=a)})
    return n_comments


def generate(n_questions: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """The site's settings and users, and its questions, answers, comments, votes, accepted
    answers and edits as events oldest first (the helper's "content" mode)."""
    rng = random.Random(seed)
    users = qa_users(rng, now)
    writer = Writer(rng, users)
    end = now - dt.timedelta(minutes=30)
    events: list[dict[str, Any]] = []
    comments, views = [], []
    # Asked over two years, in index order: the helper numbers the questions as it posts
    # them, oldest first, so a question's jitter stays within its share of the two years
    # (at 1,000 questions, 80,000 s put some before their predecessor, and answers went to
    # the wrong question or to none). At 300 questions the bound is 80,000 s, as before.
    spacing = int(0.9 * 730 * 86_400 / max(n_questions, 1))
    for i in range(n_questions):
        start = now - dt.timedelta(days=730 * (1 - i / n_questions),
                                   seconds=-rng.randint(0, min(80_000, spacing)))
        more, n = question_events(rng, i, start, end, writer)
        events += more
        comments.append(n)
        answers = sum(e["kind"] == "answer" for e in more)
        views.append(rng.randint(5, 40) * (answers + 1) + rng.randint(0, 30))
    events.sort(key=lambda e: e["when"])
    last: dict[str, dt.datetime] = {}
    for e in events:
        last[e["user"]] = e["when"]
        e["when"] = _stamp(e["when"])
    for u in users:  # seen after their last post, or after joining
        name = u["username"]
        seen = max(dt.datetime.fromisoformat(u["lastseen"]), last.get(name, writer.joined[name]))
        u["lastseen"] = _stamp(min(seen + dt.timedelta(minutes=rng.randint(5, 600)), now))
    settings = {"APP_TITLE": f"{SITENAME}: questions and answers",
                "APP_SHORT_NAME": SITENAME,
                "APP_DESCRIPTION": "Questions and answers about workshop, garden and kitchen",
                "ENABLE_EMAIL_ALERTS": False}  # no mail: no alerts rendered for nobody
    return {"settings": settings, "users": users, "events": events, "views": views,
            "comments": comments, "answers_page_size": ANSWERS_PAGE_SIZE}


def available() -> str | None:
    """None if Askbot's venv is there, else how to make it."""
    return venv_missing(VENV, "askbot", ASKBOT_VERSION, "ARCHIVER_ASKBOT_VENV", INSTALL)


def _askbot_setup(folder: Path) -> None:
    """The Django project as askbot-setup writes it (package qa, SQLite in the folder), with
    EXTRA_SETTINGS appended."""
    run_checked([str(VENV / "bin" / "askbot-setup"), "--root-directory", str(folder),
                 "--proj-name", "qa", "--db-engine", "sqlite", "--db-name",
                 str(folder / "askbot.sqlite"), "--admin-name", "Admin", "--admin-email",
                 "admin@example.org", "--domain-name", "localhost.localdomain", "--timezone",
                 "UTC", "--log-file-path", str(folder / "log" / "askbot.log"),
                 "--append-settings", EXTRA_SETTINGS, "--noinput", "--force"], folder)


def build(folder: Path, n_questions: int = 300, seed: int = 0) -> Path:
    """Build a fresh site in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    return build_helper_site(
        folder, VENV, {"n_questions": n_questions, "seed": seed, "version": VERSION},
        "Askbot site", HELPER, lambda now: generate(n_questions, seed, now), _askbot_setup)


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the site built in folder (waitress with `workers` threads, read-only) on a free
    port; yields the home URL."""
    with serve_helper(VENV, folder, workers, "Askbot") as seed:
        yield seed


def _id(segment: str) -> int | None:
    return int(segment) if segment.isdigit() else None


def _questions_type(segs: list[str]) -> str:
    """/questions/... : a list of questions (any scope, sort and page), one filtered by tags
    (/questions/scope:all/sort:activity-desc/tags:bread,oven/page:2/), a search (a query:
    filter), a revision history, or a form or command behind a login (ask, close, retag...)."""
    if len(segs) >= 2 and _id(segs[1]) is not None:
        return "revisions" if segs[2:] == ["revisions"] else "write"
    keys = {seg.split(":", 1)[0] for seg in segs[1:]}
    if not keys <= LIST_FILTERS:
        return "write" if segs[1] in QUESTION_ACTIONS else "other"
    return "search" if "query" in keys else "tagged" if "tags" in keys else "questions"


def _users_type(segs: list[str], query: dict[str, list[str]]) -> str:
    """/users/...: the user list (any sort and page, or by group), a profile (its main tab,
    ?sort=stats or a sort Askbot does not know), another tab of it, or an account page."""
    if len(segs) == 1 or segs[1] == "by-group":
        return "users"
    if _id(segs[1]) is None or len(segs) < 3:
        return "account"  # set-description, unsubscribe, ... (forms and commands)
    if len(segs) > 3 or segs[2] == "edit":
        return "account"  # subscriptions/, select_languages/, download-data/, edit/
    return "user_tab" if query.get("sort", ["stats"])[0] in USER_TABS else "user"


def page_type(url: str) -> str:
    """Ground truth from the URL alone (Askbot's routes, ASKBOT_URL empty), in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - /m/... (CSS, JS, images), /upfiles/..., /s/jsi18n/, /custom.css, /custom.js or a
      static file: "static"; /s/... (Askbot's service URLs: AJAX commands and forms),
      /followit/..., /vote, /post_comments/, ... : "write"; /admin/..., /settings/...,
      /moderation-queue/, /analytics/..., /preview-emails/...: "admin" (login walled)
    - /: "index" (a redirect to /questions/); /questions/ and /questions/scope:S/sort:S/
      page:N/ (any filters but tags and query): "questions"; with tags:T1,T2: "tagged"; with
      query:Q: "search"; /questions/ID/revisions/ and /answers/ID/revisions/: "revisions";
      /questions/ask/, /questions/close/ID, /questions/ID/retag/, /answers/ID/edit/, ...,
      /feedback/: "write" (forms, mostly behind a login)
    - /question/ID/SLUG/ (any query: ?sort=votes|oldest|latest, ?page=N, the permalinks
      ?answer=ID and ?comment=ID; a wrong or missing slug redirects): "question"
    - /users/ (?sort=reputation|newest|last|name, ?page=N) and /users/by-group/...:
      "users"; /users/ID/SLUG/ and ?sort=stats: "user" (the profile); ?sort=recent,
      reputation, network, favorites, votes, ...: "user_tab"; /users/ID/edit/,
      /users/ID/SLUG/subscriptions/ and the like: "account"
    - /tags/ (?sort=name|used, ?page=N, ?query=): "tags"; /badges/ and /badges/ID/SLUG/
      (?page=N): "badges"; /feeds/rss/ (?tags=...), /feeds/question/ID/ and /sitemap.xml:
      "feed"; /about/, /faq/, /help/, /privacy/, /terms/, /doc/...: "info";
      /account/... and /accounts/... (sign in, sign up, recover, ...): "login"
    - anything else: "other"."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    parts = urlsplit(url)
    if not segs:
        return "index"
    head, query = segs[0], parse_qs(parts.query)
    if (head in ("m", "upfiles") or segs == ["s", "jsi18n"] or path.lower().endswith(STATIC_EXT)
            or path in ("/custom.css", "/custom.js")):
        return "static"
    if head == "question" and len(segs) >= 2 and _id(segs[1]) is not None:
        return "question"
    if head == "questions":
        return _questions_type(segs)
    if head == "users":
        return _users_type(segs, query)
    if head == "answers" and len(segs) == 3 and _id(segs[1]) is not None:
        return "revisions" if segs[2] == "revisions" else "write"
    if head == "feeds" or path == "/sitemap.xml":
        return "feed"
    return SIMPLE_TYPES.get(head, "other")


def entity_of(url: str) -> str | None:
    """The UCC page a URL shows: "question ID page N" for a view of a question's page (any
    answer order and slug; no page or an unreadable one is page 1, and so is an answer or
    comment permalink, which opens the page holding that post: page 1 on this site, where no
    question has more than ANSWERS_PAGE_SIZE answers), "user ID" for a profile's main tab;
    None for anything else."""
    kind = page_type(url)
    if kind not in UCC_TYPES:
        return None
    parts = urlsplit(url)
    segs = [s for s in parts.path.split("/") if s]
    if kind == "user":
        return f"user {segs[1]}"
    query = parse_qs(parts.query)
    page = query.get("page", ["1"])[0]
    if "answer" in query or "comment" in query or not page.isdigit() or int(page) < 1:
        page = "1"
    return f"question {segs[1]} page {int(page)}"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every question page and of every profile with something its user wrote about
    themselves, as the site links them (/question/12/slug/, /users/7/name/); give the server
    (e.g. "http://127.0.0.1:8123") to get absolute URLs."""
    return {server.rstrip("/") + r["path"] for r in entity_rows(folder)
            if r["type"] == "question" or r["written"]}


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: questions, answers, comments, users, answers per question."""
    rows = entity_rows(folder)
    questions = [r for r in rows if r["type"] == "question" and r["page"] == 1]
    users = [r for r in rows if r["type"] == "user"]
    return {"questions": len(questions), "answers": sum(r["answers"] for r in questions),
            "comments": sum(r["comments"] for r in questions), "users": len(users),
            "written_profiles": sum(r["written"] for r in users),
            "answers_per_question": dict(sorted(Counter(r["answers"] for r in questions)
                                                .items()))}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "questions", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, ucc, home_links = smoke.seed, smoke.ucc, smoke.home_links
        question = max((u for u in ucc if page_type(u) == "question"), key=len)
        question_links = same_host_links(requests.get(question, timeout=30).content, question)
        user = min(u for u in ucc if page_type(u) == "user")
        user_links = same_host_links(requests.get(user, timeout=30).content, user)
        first = {page_type(u): u for u in sorted(home_links | question_links | user_links,
                                                 reverse=True)}
        smoke_fetch([seed, question, user, *first.values()], page_type, follow_redirects=False)
        print(f"POST {requests.post(seed, timeout=30).status_code} (read-only)")
        print_link_types([("home", home_links), (question, question_links),
                          (user, user_links)], page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
