"""A real Django Q&A site, django-qa 0.10.0 (from PyPI), on 127.0.0.1 with generated content.

The Q&A family's second real site, after `benchmarks.realsite.askbot`, and one the crawler was
never tuned on: django-qa is a "pluggable StackOverflow-like" app (questions with Markdown
descriptions and django-taggit tags, answers, comments on both, up and down votes, an
accepted answer, closing, a reputation per user, django-hitcount view counts) that a project
of its own mounts, so the site is a small Django project (PROJECT_FILES) as the app's README
and test settings write one: its apps (qa, taggit, hitcount, django_markdown), its QA_SETTINGS
(the test settings' reputation table, all zeros, and qa_messages), qa's URLs at the root,
Django's auth views under /accounts/ (where the app's login_required sends a guest; the app
ships no login template, so the project has a small one on the app's base.html) and Django's
admin, which the app's footer links. SQLite, the app's own templates and static files.

    build(folder)       fresh site in folder: the project, an SQLite database, content from a
                        generator (deterministic for n_questions, seed; Askbot's, with 40
                        users and a few closed questions) written through django-qa's own
                        views (CreateQuestionView with its QuestionForm, CreateAnswerView,
                        the two comment views, QuestionVoteView and AnswerVoteView, which
                        also keep the points, the reputation and the reward,
                        AnswerQuestionView to accept, UpdateQuestionView and
                        UpdateAnswerView to edit, CloseQuestionView), each called with its
                        user as a signed-in request would be
    serve(folder)       django-qa under waitress (threaded) on a free port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every question page (the UCC)

The newest Django and Python it runs on: Django 1.11 and Python 3.9. django-qa 0.10.0 (March
2018, the last release) pins django-markdown-app==0.9.3.1, which requires Django<1.12.* (a
specifier that setuptools >= 66 and pip >= 24.1 refuse: its sdist builds only with an older
setuptools and without build isolation) and imports django.core.urlresolvers, gone in
Django 2.0; django-qa itself uses python_2_unicode_compatible and the `staticfiles` template
library (gone in 3.0). It pins pytz==2018.3, which imports collections.Mapping, gone in
Python 3.10. Markdown is pinned to 2.6.11 (django_markdown passes safe_mode, which Markdown
3 dropped; 2.6.11 is the release of January 2018). No shim: the packages as released.
django-qa and its dependencies live in a venv of their own named by the environment variable
ARCHIVER_DJANGOQA_VENV (default: qavenv in the temporary directory, /tmp/qavenv);
`available()` says how to create it. Everything django-qa runs goes through the helper
script HELPER (its shared parts: `benchmarks.realsite.helpertext`), written into the build
folder and run by that venv's python.

No mail (a dummy backend), DEBUG off, view counting off (QA_SETTINGS count_hits False: the
app's HitCountDetailView would write a hit and a session per view; the counts shown are the
generator's, written to hitcount's table at build time). The server is read-only: a WSGI
wrapper answers 405 to anything but GET and HEAD, the database is opened read-only (SQLite
mode=ro), sessions live in signed cookies. Crawling changes nothing on a page.

The app's base template loads jQuery, Bootstrap and two Google fonts from CDNs and an icon
from another host (none reach anything here: no network; the pages render without them),
links the Django and GitHub home pages and an "API" modal naming the demo's host, all off
this host; and names the favicon with a relative href ("static/qa/icon.ico"), so every page
at another depth names another favicon URL (/question/12/slug/static/qa/icon.ico), a 404.

The UCC (`entities`): the page of every question, with its answers (all on one page: the app
has no pager for answers), the comments on each answer (all) and on the question (the app
shows the first five: the generator writes at most four a post). A question's page is
/question/ID/SLUG/ (the slug is the title's, made once when asked); every link the site
makes to a question is /question/ID/ (the lists, the unanswered panel), which is a 302 to it,
and so is a wrong slug. Profiles are not in the UCC: /profile/ID/ shows a user's points,
website, e-mail address, dates joined and of the last login and "is Active", nothing they
wrote (it is also not linked from anything but the comments' and answers' authors).

What a guest meets: the home page (/) is the question list, newest first, 10 a page, linked
only by "previous"/"next" (/?page=N), with two more tabs on the same page: "Unanswered"
(its own pager, /?noans_page=N&active_tab=unans, relative so it drops ?page=) and "Most
Rewarding" (the ten best-scored); a side panel of the ten newest tags and the unanswered
questions of the current unanswered page. A tag's list (/tag/SLUG/) is the same template
with the tag's questions; its pager's links go to the home page's (/?page=N), so past its
first ten questions a tag lists nothing a crawler can reach. Search (/search/?word=) is a
GET form, also that template. A question's page links "Answer this Question!"
(/answer/ID/), "Comment this Question!" (/comment-question/ID/) and each answer's "Comment"
(/comment-answer/ID/): all 302 to the login page with ?next= (a new login URL each), the
header's "Ask Question" too (/new-question/); closing, voting and accepting are POST forms.
Every page links /admin (a 301 to /admin/, the admin's login wall) and "#search".
No page says noindex, there is no robots.txt (404).

    python -m benchmarks.realsite.djangoqa /tmp/qabench    # build, serve, smoke test
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

import requests

from benchmarks.realsite.askbot import Writer, qa_users, question_events
from benchmarks.realsite.helpertext import DJANGO, MAIN, SERVE
from benchmarks.realsite.php import (
    build_helper_site,
    entity_rows,
    loopback_path,
    print_link_types,
    same_host_links,
    serve_helper,
    smoke_fetch,
    smoke_site,
    venv_missing,
    write_files,
)
from benchmarks.realsite.words import stamp as _stamp

VENV = Path(os.environ.get("ARCHIVER_DJANGOQA_VENV")
            or Path(tempfile.gettempdir()) / "qavenv")
DJANGOQA_VERSION = "0.10.0"
DJANGO_VERSION = "1.11.29"
INSTALL = (f"python3.9 -m venv {VENV} && {VENV}/bin/pip install 'setuptools<66' wheel && "
           f"{VENV}/bin/pip install --no-build-isolation django-qa=={DJANGOQA_VERSION} "
           f"django=={DJANGO_VERSION} markdown==2.6.11 waitress  (python3.9 or older: "
           f"django-qa pins pytz 2018.3, which fails on 3.10; its django-markdown-app needs "
           f"Django < 1.12 and builds only with setuptools < 66, without build isolation)")
SITENAME = "Realqa"
VERSION = 1  # of the generator; part of the reuse marker
N_USERS = 40
UCC_TYPES = {"question"}
TARGET_TYPE = "question"  # source-target's example is a question
DESCRIPTION = ("django-qa 0.10.0 (Django 1.11, Python 3.9, SQLite, the app's templates), "
               "{size} generated questions (`benchmarks/realsite/djangoqa.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("question", "questions", "tagged", "search", "profile", "write", "login",
              "admin", "static", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): the
# question list, a tag's list and the search results are all qa/index.html
SAME_TEMPLATE = {"questions": "index", "tagged": "index", "search": "index"}
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico",
              ".woff", ".woff2", ".ttf", ".eot", ".map", ".txt")
# /<word>/...: the app's forms and commands (login walled, or POST only)
WRITE_HEADS = {"new-question", "edit-question", "answer", "vote", "comment-answer",
               "comment-question", "markdown"}

SETTINGS = '''"""Written by benchmarks/realsite/djangoqa.py: a throwaway django-qa site on
127.0.0.1, set up as django-qa's README and test settings say."""
import os

BASE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEBUG = False
SECRET_KEY = "realsite-bench-secret"  # fixed: the same signed cookies every build
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
SITE_ID = 1
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_markdown",
    "taggit",
    "qa",
    "hitcount",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
ROOT_URLCONF = "qasite.urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [os.path.join(BASE_DIR, "templates")],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.debug",
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.template.context_processors.static",
        "django.template.context_processors.tz",
        "django.contrib.messages.context_processors.messages",
    ]},
}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3",
                         "NAME": os.path.join(BASE_DIR, "qa.sqlite3")}}
if os.environ.get("DJANGOQA_BENCH_READ_ONLY"):  # the server's: SQLite opened read-only
    DATABASES["default"]["NAME"] = "file:" + DATABASES["default"]["NAME"] + "?mode=ro"
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"  # no session rows
EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True  # django-qa's migrations need it (and its test settings set it)
STATIC_URL = "/static/"
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
QA_SETTINGS = {
    "qa_messages": True,
    "qa_description_optional": False,
    "count_hits": False,  # read-only: HitCountDetailView would write a hit per view
    "reputation": {
        "CREATE_QUESTION": 0,
        "CREATE_ANSWER": 0,
        "CREATE_ANSWER_COMMENT": 0,
        "CREATE_QUESTION_COMMENT": 0,
        "ACCEPT_ANSWER": 0,
        "UPVOTE_QUESTION": 0,
        "UPVOTE_ANSWER": 0,
        "DOWNVOTE_QUESTION": 0,
        "DOWNVOTE_ANSWER": 0,
    },
}
LOGGING = {"version": 1, "disable_existing_loggers": False,
           "handlers": {"console": {"class": "logging.StreamHandler"}},
           "root": {"handlers": ["console"], "level": "WARNING"}}
'''
URLS = '''"""Written by benchmarks/realsite/djangoqa.py: qa at the root, as its README mounts it,
Django's auth views (login_required's LOGIN_URL) and the admin the app's footer links."""
from django.conf.urls import include, url
from django.contrib import admin

urlpatterns = [
    url(r"^admin/", admin.site.urls),
    url(r"^accounts/", include("django.contrib.auth.urls")),
    url(r"^", include("qa.urls")),
]
'''
LOGIN = '''{% extends "qa/base.html" %}
{% block title %} - Login{% endblock title %}
{% block content %}
<h2>Login</h2>
<form method="post">{% csrf_token %}{{ form.as_p }}
<input type="hidden" name="next" value="{{ next }}">
<button type="submit" class="btn btn-primary">Login</button></form>
{% endblock content %}
'''
PROJECT_FILES = {
    "qasite/__init__.py": "",
    "qasite/settings.py": SETTINGS,
    "qasite/urls.py": URLS,
    "templates/registration/login.html": LOGIN,
}

HELPER = '''"""Run by benchmarks/realsite/djangoqa.py with django-qa's venv (python -I), in the
site's folder (the project: qasite/settings.py, qasite/urls.py, templates/): "install"
(schema), "content" (the JSON spec on stdin; writes entities.jsonl), "serve PORT THREADS"
(read-only, GET and HEAD only)."""
import datetime as dt
import json
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # the project's package qasite (python -I leaves the folder out)
sys.dont_write_bytecode = True
warnings.simplefilter("ignore")


def setup(read_only=False):
    os.environ["DJANGO_SETTINGS_MODULE"] = "qasite.settings"
    if read_only:
        os.environ["DJANGOQA_BENCH_READ_ONLY"] = "1"
    import django

    django.setup()


def when(stamp):
    return dt.datetime.fromisoformat(stamp)


def make_users(spec):
    from django.contrib.auth.models import User
    from qa.models import UserQAProfile

    users = {}
    for u in spec:  # qa's post_save signal makes the UserQAProfile
        user = User.objects.create_user(u["username"], u["email"])  # no password: no login
        user.date_joined = when(u["joined"])
        user.last_login = when(u["lastseen"])
        user.is_superuser = user.is_staff = u["username"] == "admin"
        user.save()
        UserQAProfile.objects.filter(user=user).update(website=u["website"])
        users[u["username"]] = user
    return users


class Poster:
    """Calls django-qa's views as a signed-in user's POST would (RequestFactory: no CSRF,
    no session; the views' messages go to a throwaway store)."""

    def __init__(self):
        from django.contrib.messages.storage.fallback import FallbackStorage
        from django.test import RequestFactory

        self.factory = RequestFactory()
        self.storage = FallbackStorage

    def post(self, view, user, data, **kwargs):
        request = self.factory.post("/", data)
        request.user = user
        request.session = {}
        request._messages = self.storage(request)
        response = view.as_view()(request, **kwargs)
        if response.status_code != 302:  # a form that did not validate renders it again
            raise ValueError(f"{view.__name__} {kwargs}: {response.status_code} "
                             f"{getattr(response, 'context_data', {}).get('form').errors}")
        return response


def post_events(events, users):
    """Write the events (oldest first) through django-qa's views, then date what they made
    (the models stamp pub_date with auto_now_add: set to the event's time at once, before
    any vote computes a reward from it)."""
    from qa import views
    from qa.models import Answer, AnswerComment, Question, QuestionComment

    poster = Poster()
    questions, answers = [], {}

    def target(on):
        return (questions if on[0] == "q" else answers)[on[1]]

    def text(body):  # [[Q:i]]: a link to an older question
        for i, q in enumerate(questions):
            if f"[[Q:{i}]]" in body:
                body = body.replace(f"[[Q:{i}]]", f"[{q.title}](/question/{q.pk}/{q.slug}/)")
        return body

    for e in events:
        user, t, kind = users[e["user"]], when(e["when"]), e["kind"]
        if kind == "question":
            poster.post(views.CreateQuestionView, user, {
                "title": e["title"], "description": text(e["body"]),
                "tags": ", ".join(e["tags"])})
            q = Question.objects.filter(user=user).latest("pk")
            Question.objects.filter(pk=q.pk).update(pub_date=t)
            questions.append(q)
        elif kind == "answer":
            q = questions[e["q"]]
            poster.post(views.CreateAnswerView, user, {"answer_text": text(e["body"])},
                        question_id=q.pk)
            a = Answer.objects.filter(question=q, user=user).latest("pk")
            Answer.objects.filter(pk=a.pk).update(pub_date=t, updated=t)
            answers[e["key"]] = a
        elif kind == "comment":
            on = target(e["on"])
            if e["on"][0] == "q":
                poster.post(views.CreateQuestionCommentView, user,
                            {"comment_text": e["body"]}, question_id=on.pk)
                model = QuestionComment
            else:
                poster.post(views.CreateAnswerCommentView, user, {"comment_text": e["body"]},
                            answer_id=on.pk)
                model = AnswerComment
            c = model.objects.filter(user=user).latest("pk")
            model.objects.filter(pk=c.pk).update(pub_date=t)
        elif kind == "vote":
            view = views.QuestionVoteView if e["on"][0] == "q" else views.AnswerVoteView
            poster.post(view, user, {"upvote": "on"} if e["up"] else {},
                        object_id=target(e["on"]).pk)
        elif kind == "accept":
            poster.post(views.AnswerQuestionView, user, {}, answer_id=answers[e["a"]].pk)
        elif kind == "close":
            poster.post(views.CloseQuestionView, user, {}, question_id=questions[e["q"]].pk)
        elif kind == "edit":
            on = target(e["on"])
            if e["on"][0] == "q":
                q = Question.objects.get(pk=on.pk)
                poster.post(views.UpdateQuestionView, user, {
                    "title": q.title, "description": text(e["body"]),
                    "tags": ", ".join(sorted(t.name for t in q.tags.all()))},
                    question_id=q.pk)
            else:
                poster.post(views.UpdateAnswerView, user, {"answer_text": text(e["body"])},
                            answer_id=on.pk)
                Answer.objects.filter(pk=on.pk).update(updated=t)
    return questions


def content(spec):
    setup()
    fast_sqlite()
    from django.contrib.auth.models import User
    from hitcount.models import HitCount
    from qa.models import Answer, Question

    users = make_users(spec["users"])
    questions = post_events(spec["events"], users)
    for q, views in zip(questions, spec["views"]):  # the counts the lists show
        hit_count = HitCount.objects.get_for_object(q)
        HitCount.objects.filter(pk=hit_count.pk).update(hits=views)
    for u in spec["users"]:
        User.objects.filter(username=u["username"]).update(last_login=when(u["lastseen"]))
    with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
        for i, q in enumerate(Question.objects.order_by("pk")):
            answers = Answer.objects.filter(question=q)
            out.write(json.dumps({
                "type": "question", "id": q.pk, "slug": q.slug, "answers": answers.count(),
                "comments": spec["comments"][i], "closed": q.closed,
                "accepted": answers.filter(answer=True).exists(),
                "tags": sorted(t.slug for t in q.tags.all()),
                "path": f"/question/{q.pk}/{q.slug}/"}) + "\\n")
        for user in User.objects.order_by("pk"):
            out.write(json.dumps({"type": "user", "id": user.pk, "name": user.username,
                                  "written": False, "path": f"/profile/{user.pk}/"}) + "\\n")


def serve(port, threads):
    setup(read_only=True)
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.wsgi import get_wsgi_application

    app = StaticFilesHandler(get_wsgi_application())  # /static/: qa.css and the images
    serve_read_only(app, port, threads, "django-qa")
''' + DJANGO + SERVE + MAIN


def generate(n_questions: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """The users, and the questions, answers, comments, votes, accepted answers, edits and
    closings as events oldest first (the helper's "content" mode): Askbot's generator
    (`benchmarks.realsite.askbot`: its users, tags, titles, bodies and question events) with
    N_USERS users, and about 4% of the questions closed by their asker after the last of
    their events."""
    rng = random.Random(seed)
    users = qa_users(rng, now, N_USERS)
    writer = Writer(rng, users)
    end = now - dt.timedelta(minutes=30)
    events: list[dict[str, Any]] = []
    comments, views = [], []
    spacing = int(0.9 * 730 * 86_400 / max(n_questions, 1))
    for i in range(n_questions):
        start = now - dt.timedelta(days=730 * (1 - i / n_questions),
                                   seconds=-rng.randint(0, min(80_000, spacing)))
        more, n = question_events(rng, i, start, end, writer)
        if rng.random() < 0.04:
            last = max(e["when"] for e in more)
            more.append({"kind": "close", "when": min(last + dt.timedelta(hours=6), end),
                         "user": more[0]["user"], "q": i})
        events += more
        comments.append(n)
        answers = sum(e["kind"] == "answer" for e in more)
        views.append(rng.randint(5, 40) * (answers + 1) + rng.randint(0, 30))
    events.sort(key=lambda e: e["when"])
    for e in events:
        e["when"] = _stamp(e["when"])
        e.pop("summary", None)  # django-qa keeps no revisions
    return {"users": [{"username": u["username"], "email": u["email"], "joined": u["joined"],
                       "lastseen": u["lastseen"], "website": u["website"]} for u in users],
            "events": events, "views": views, "comments": comments}


def available() -> str | None:
    """None if django-qa's venv is there, else how to make it."""
    return venv_missing(VENV, "django-qa", DJANGOQA_VERSION, "ARCHIVER_DJANGOQA_VENV", INSTALL)


def build(folder: Path, n_questions: int = 300, seed: int = 0) -> Path:
    """Build a fresh site in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    return build_helper_site(
        folder, VENV, {"n_questions": n_questions, "seed": seed, "version": VERSION},
        "django-qa site", HELPER, lambda now: generate(n_questions, seed, now),
        write_files(PROJECT_FILES))


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the site built in folder (waitress with `workers` threads, read-only) on a free
    port; yields the home URL."""
    with serve_helper(VENV, folder, workers, "django-qa") as seed:
        yield seed


def page_type(url: str) -> str:
    """Ground truth from the URL alone (qa's routes at the root of the project's urls.py),
    in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - /static/... or a static file (also the favicon the pages name relatively,
      /question/12/slug/static/qa/icon.ico, a 404): "static"; /admin and /admin/...:
      "admin" (login walled)
    - / (any query: ?page=N, ?noans_page=N&active_tab=unans): "questions"; /tag/SLUG/ (any
      query): "tagged"; /search/ (?word=): "search"
    - /question/ID/ and /question/ID/SLUG/ (any query; the first, or a wrong slug, is a 302
      to the page): "question"; /question/answer/ID/ and /question/close/ID/ (POST
      only): "write"
    - /profile/ID/: "profile"
    - /new-question/, /edit-question/ID/, /answer/ID/, /answer/edit/ID/, /vote/...,
      /comment-question/ID/, /comment-answer/ID/ (and their edit/ID/), /markdown/... and any
      path with hitcount/hit/ajax/ (qa's unanchored pattern): "write" (login walled, POST
      only, or AJAX)
    - /accounts/... (login, logout, password reset and change): "login"
    - anything else: "other"."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    if not segs:
        return "questions"
    head, n = segs[0], len(segs)
    if head == "static" or path.lower().endswith(STATIC_EXT):
        return "static"
    if head == "admin":
        return "admin"
    if head == "question" and n >= 2:
        if segs[1].isdigit() and n <= 3:
            return "question"
        return "write" if segs[1] in ("answer", "close") and n == 3 else "other"
    if head == "tag" and n == 2:
        return "tagged"
    if head == "search" and n == 1:
        return "search"
    if head == "profile" and n == 2 and segs[1].isdigit():
        return "profile"
    if head in WRITE_HEADS or "hitcount/hit/ajax" in path:
        return "write"
    if head == "accounts":
        return "login"
    return "other"


def entity_of(url: str) -> str | None:
    """The UCC page a URL shows: "question ID" for /question/ID/SLUG/ (any query: the app
    reads none on this page), or /question/ID/ (a 302 to it, so never a 2xx capture itself);
    None for anything else."""
    if page_type(url) != "question" or (local := loopback_path(url)) is None:
        return None
    return f"question {local[1][1]}"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every question page (/question/12/slug/), as the redirects of the site's
    links end; give the server (e.g. "http://127.0.0.1:8123") to get absolute URLs."""
    return {server.rstrip("/") + r["path"] for r in entity_rows(folder)
            if r["type"] == "question"}


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: questions, answers, comments, users, tags, answers per
    question."""
    rows = entity_rows(folder)
    questions = [r for r in rows if r["type"] == "question"]
    tags = Counter(t for r in questions for t in r["tags"])
    return {"questions": len(questions), "answers": sum(r["answers"] for r in questions),
            "comments": sum(r["comments"] for r in questions),
            "unanswered": sum(1 for r in questions if not r["answers"]),
            "accepted": sum(r["accepted"] for r in questions),
            "closed": sum(r["closed"] for r in questions),
            "users": sum(1 for r in rows if r["type"] == "user"), "tags": len(tags),
            "tags_over_10_questions": sum(1 for n in tags.values() if n > 10),
            "answers_per_question": dict(sorted(Counter(r["answers"] for r in questions)
                                                .items()))}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "questions", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, ucc, home_links = smoke.seed, smoke.ucc, smoke.home_links
        question = max(ucc, key=len)
        question_links = same_host_links(requests.get(question, timeout=30).content, question)
        first = {page_type(u): u for u in sorted(home_links | question_links, reverse=True)}
        smoke_fetch([seed, question, *first.values()], page_type, follow_redirects=False)
        print(f"POST {requests.post(seed, timeout=30).status_code} (read-only)")
        print_link_types([("home", home_links), (question, question_links)], page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
