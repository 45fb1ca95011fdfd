"""A real Django forum, pybbm 0.19.0 (PyBB Modified, from PyPI), on 127.0.0.1 with generated
content.

The fourth Django forum, after `benchmarks.realsite.spirit`, `benchmarks.realsite.machina`
and Askbot's Q&A, and one the crawler was never tuned on: a phpBB-like board (categories,
forums with sub-forums, topics of paged posts, post permalinks, user pages with their posts
and topics, Atom feeds) that a project of its own mounts, so the site is a small Django
project as pybbm's install docs and its example project write one (settings with pybb's
app, middleware and context processor, the sites framework, a base.html with the blocks
pybb's templates fill and the example's "Login" and "Register" links; pybb's URLs at the
root, as the example has them; Django's login, password reset and a registration view under
/accounts/ with the URL names pybb's templates use, django-registration's; Django's admin),
SQLite, pybb's shipped templates and static files, BBCode markup (pybb's default, the
`bbcode` package).

    build(folder)       fresh forum in folder: the project (PROJECT_FILES), an SQLite
                        database, content from a generator (deterministic for n_topics, seed)
                        written through pybb's own forms and models (PostForm as its add and
                        edit views use it, the markup engine's quote, Category, Forum,
                        Profile; sticky and closed as its stick and close views set them)
    serve(folder)       pybbm under waitress (threaded) on a free port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every page of every topic (the UCC)

pybbm and its dependencies live in a venv of their own (they are not the project's), named
by the environment variable ARCHIVER_PYBBM_VENV (default: pbvenv in the temporary directory,
/tmp/pbvenv); `available()` says how to create it. pybbm 0.19.0 (2017, the last release)
declares no Django version; it imports django.utils.six and python_2_unicode_compatible and
its templates load `staticfiles`, all gone in Django 3.0, so Django 2.2 (the last 2.x, an
LTS) is the newest it runs on; its template tags call inspect.getargspec, gone in Python
3.11, and Django 2.2 imports distutils, gone in 3.12: the venv is Python 3.10. Everything
pybbm runs goes through the helper script HELPER (its shared parts:
`benchmarks.realsite.helpertext`), written into the build folder and run by that venv's
python.

Permissions are pybb's defaults (DefaultPermissionHandler): guests see every category and
forum that is not hidden (none is) and read every topic; members get add_post and add_topic
when created (pybb's user_saved signal). Guests may not post (PYBB_ENABLE_ANONYMOUS_POST
off, the default): a topic shows them "Register or login to post a reply" instead of the
reply form, with the login link's ?next= the topic's path.

No mail (PYBB_DISABLE_NOTIFICATIONS, and a dummy backend), no avatars (pybb's default
avatar, a static image), DEBUG off: nothing the crawler fetches leaves 127.0.0.1 (the footer
links Django's and pybbm's home pages, off the host; pybb's templates use no Gravatar and no
CDN). The server is read-only: a WSGI wrapper answers 405 to anything but GET and HEAD, the
database is opened read-only (SQLite mode=ro) and sessions live in signed cookies. pybb
counts a guest's topic views in the cache and writes them to the database every
PYBB_ANONYMOUS_VIEWS_CACHE_BUFFER views (100 by default): here the buffer is 10**9, so the
count is never written (it would fail on the read-only database); the "Views" column of a
forum's topic list adds the cached count, so it grows with the crawls of one server (the
only thing on a page that crawling changes, besides pybb's relative dates).

The UCC (`entities`): every page of every topic. pybb shows 10 posts a page (its default
PYBB_TOPIC_PAGE_SIZE, kept), so a thread of 37 posts is four pages, each holding posts no
other page shows. A topic's URL is /topic/ID/ (pybb's default URLs, PYBB_NICE_URL off);
?page=N is its page N and ?page=last its last page (Django's ListView; a page past the last,
0 or any other word is a 404); ?first-unread=1, which every topic list links beside each
topic, is page 1 for a guest (it redirects signed-in users only). A post's permalink
(/post/ID/, the "#" of every post) is a 302 to /topic/ID/?page=N#post-ID, the page holding
it (page 1 as ?page=1: another URL of the first page) and counts as nothing itself.
Profiles are not in the UCC: pybb's user page shows the name, the default avatar, the
numbers of topics and posts and the date joined, nothing a member wrote (the signature shows
under their posts only).

What a guest meets: the index (/) lists each category with its top-level forums (counts, a
relative "last post" date, no link to the post); a category's page (/category/ID/, linked
from the breadcrumb of its forums) is the index of one category; a forum's page
(/forum/ID/) lists its sub-forums and its topics, 20 a page (sticky topics first; the pager
links every page), each topic linked twice (/topic/ID/ and ?first-unread=1) and, when it has
several pages, each page (?page=N); it links "Subscribe" (/subscription/forum/ID/, a 302 to
the login). A topic page links the breadcrumb (index, category, forum ancestors), its pager
(every page, and "previous"/"next"; a disabled one is an empty href, the page itself), each
post's permalink and its poster's user page twice (avatar and name), BBCode links to other
topics and posts, and the login and register links. A user page (/users/NAME/) links the
member's topics (/users/NAME/topics/, 20 a page) and posts (/users/NAME/posts/, 10 a page,
each post as on a topic page with its permalink). Every page names two Atom feeds in its
head (/feeds/posts/, /feeds/topics/) and links "Login" (/accounts/login/) and "Register"
(/accounts/register/); the login page links the password reset. There is no search page. The
admin (/admin/) is a login wall. Every page loads pybb's script (pybbjs.js; pybb ships its
styles as LESS sources only); posts show the default avatar and smileys are images. No page
says noindex, there is no robots.txt and no favicon.ico (404).

    python -m benchmarks.realsite.pybbm /tmp/pbbench    # build, serve, smoke test
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
    same_host_links,
    serve_helper,
    smoke_fetch,
    smoke_site,
    venv_missing,
    write_files,
)
from benchmarks.realsite.words import (
    FORUM_TITLES,
    NOUNS,
    forum_replies,
    forum_users,
    thread_times,
)
from benchmarks.realsite.words import paragraph as _paragraph
from benchmarks.realsite.words import sentence as _sentence
from benchmarks.realsite.words import stamp as _stamp

VENV = Path(os.environ.get("ARCHIVER_PYBBM_VENV")
            or Path(tempfile.gettempdir()) / "pbvenv")
PYBBM_VERSION = "0.19.0"
DJANGO_VERSION = "2.2.28"
INSTALL = (f"python3.10 -m venv {VENV} && {VENV}/bin/pip install pybbm=={PYBBM_VERSION} "
           f"django=={DJANGO_VERSION} django-annoying==0.10.8 bbcode==1.1.0 waitress  "
           f"(python3.10, as tested: pybbm needs Django < 3.0, and its template tags use "
           f"inspect.getargspec, gone in Python 3.11)")
SITENAME = "Realpybbm"
VERSION = 1  # of the generator; part of the reuse marker
POSTS_PER_PAGE = 10  # pybb's default PYBB_TOPIC_PAGE_SIZE, kept
UCC_TYPES = {"topic"}
TARGET_TYPE = "topic"  # source-target's example is a topic
DESCRIPTION = ("pybbm 0.19.0 (Django 2.2, SQLite, pybb's templates, BBCode, guests may "
               "read), {size} generated topics (`benchmarks/realsite/pybbm.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("topic", "post", "index", "category", "forum", "user", "user_posts",
              "user_topics", "latest", "feed", "login", "write", "account", "admin", "static",
              "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): a
# category's page is the index's template (pybb/index.html) with one category
SAME_TEMPLATE: dict[str, str] = {"category": "index"}
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico",
              ".woff", ".woff2", ".ttf", ".eot", ".map", ".txt", ".less")
# /accounts/<word>/: the project's auth pages
ACCOUNT_LOGIN = {"login", "logout", "register", "password", "reset"}
# /topic/ID/<word>/: a moderator's or a member's action (login walled for a guest)
TOPIC_ACTIONS = {"stick", "unstick", "close", "open", "poll_vote", "cancel_poll_vote"}
# /post/ID/<word>/: forms behind a login
POST_ACTIONS = {"edit", "move", "delete", "moderate"}

# The project around pybb, as its install docs and example project write one
SETTINGS = '''"""Written by benchmarks/realsite/pybbm.py: a throwaway pybbm forum on 127.0.0.1,
set up as pybbm's install documentation and example project say."""
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
    "django.contrib.sites",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "pybb",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "pybb.middleware.PybbMiddleware",
]
ROOT_URLCONF = "forum.urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [os.path.join(BASE_DIR, "templates")],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.debug",
        "django.template.context_processors.request",
        "django.template.context_processors.static",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
        "pybb.context_processors.processor",
    ]},
}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3",
                         "NAME": os.path.join(BASE_DIR, "forum.sqlite3")}}
if os.environ.get("PYBBM_BENCH_READ_ONLY"):  # the server's: SQLite opened read-only
    DATABASES["default"]["NAME"] = "file:" + DATABASES["default"]["NAME"] + "?mode=ro"
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"  # no session rows
EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "/static/"
MEDIA_URL = "/media/"
MEDIA_ROOT = os.path.join(BASE_DIR, "media")
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
PYBB_DEFAULT_TITLE = "Realpybbm"
PYBB_DISABLE_NOTIFICATIONS = True  # no mail
PYBB_ANONYMOUS_VIEWS_CACHE_BUFFER = 10 ** 9  # never write a guest's views (read-only)
LOGGING = {"version": 1, "disable_existing_loggers": False,
           "handlers": {"console": {"class": "logging.StreamHandler"}},
           "root": {"handlers": ["console"], "level": "WARNING"}}
'''
URLS = '''"""Written by benchmarks/realsite/pybbm.py: pybb at the root, as its example project has
it, and the account pages under the names pybb's templates use (django-registration's)."""
from django.conf.urls import include, url
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.views.generic import CreateView

accounts = [
    url(r"^login/$", auth_views.LoginView.as_view(), name="auth_login"),
    url(r"^logout/$", auth_views.LogoutView.as_view(), name="auth_logout"),
    url(r"^register/$", CreateView.as_view(form_class=UserCreationForm,
                                           template_name="registration/register.html",
                                           success_url="/accounts/login/"),
        name="registration_register"),
    url(r"^password/reset/$", auth_views.PasswordResetView.as_view(),
        name="password_reset"),
    url(r"^password/reset/done/$", auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done"),
    url(r"^reset/(?P<uidb64>[^/]+)/(?P<token>[^/]+)/$",
        auth_views.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    url(r"^reset/done/$", auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete"),
]
urlpatterns = [
    url(r"^admin/", admin.site.urls),
    url(r"^accounts/", include(accounts)),
    url(r"", include("pybb.urls", namespace="pybb")),
]
'''
BASE = '''{% load i18n static %}<!DOCTYPE html>
<html>
<head>
  <meta http-equiv="content-type" content="text/html; charset=utf-8">
  <script type="text/javascript" src="{% static 'pybb/js/pybbjs.js' %}"></script>
  <style type="text/css">
    body { font-family: sans-serif; margin: 0 2em; }
    .post-info { width: 120px; vertical-align: top; } .breadcrumb li { display: inline; }
    .pagination li { display: inline; margin-right: .4em; } table { width: 100%; }
  </style>
  {% block extra_style %}{% endblock %}
  <title>{% block title %}{% endblock %}</title>
  {% block extra_head %}{% endblock %}
  {% block extra_script %}{% endblock %}
</head>
<body>
<div class="navbar"><a class="brand" href="/">Realpybbm</a>
<ul class="nav">
  {% if request.user.is_authenticated %}
  <li><a href="{% url 'pybb:edit_profile' %}">{% trans "Profile" %}</a></li>
  <li><a href="{% url 'auth_logout' %}">{% trans "Logout" %}</a></li>
  {% else %}
  <li><a href="{% url 'auth_login' %}">{% trans "Login" %}</a></li>
  <li><a href="{% url 'registration_register' %}">{% trans "Register" %}</a></li>
  {% endif %}
</ul></div>
<div class="container">
  {% if messages %}<ul class="messages">{% for message in messages %}<li>{{ message }}</li>
  {% endfor %}</ul>{% endif %}
  {% if request.path != '/' %}
  <div id="breadcrumb">{% block breadcrumb %}<a href="/">Main</a>{% endblock breadcrumb %}</div>
  {% endif %}
  <div id="content">{% block content %}{% endblock content %}</div>
  <footer>powered by: <a href="https://www.djangoproject.com/">django</a>,&nbsp;
  <a href="https://github.com/hovel/pybbm">pybbm</a></footer>
</div>
</body>
</html>
'''
FORM_PAGE = '''{% extends "base.html" %}
{% load i18n %}
{% block title %}TITLE{% endblock title %}
{% block content %}
<h1>TITLE</h1>
<form method="post">{% csrf_token %}{{ form.as_p }}
<button type="submit">TITLE</button></form>
EXTRA
{% endblock content %}
'''
PROJECT_FILES = {
    "forum/__init__.py": "",
    "forum/settings.py": SETTINGS,
    "forum/urls.py": URLS,
    "templates/base.html": BASE,
    "templates/registration/login.html": FORM_PAGE.replace("TITLE", "Login").replace(
        "EXTRA", '<p><a href="{% url \'password_reset\' %}">{% trans "Forgot your password?" '
                 '%}</a> &middot; <a href="{% url \'registration_register\' %}">'
                 '{% trans "Register" %}</a></p>'),
    "templates/registration/register.html": FORM_PAGE.replace("TITLE", "Register").replace(
        "EXTRA", ""),
    "templates/registration/password_reset_form.html": FORM_PAGE.replace(
        "TITLE", "Reset your password").replace("EXTRA", ""),
}

HELPER = '''"""Run by benchmarks/realsite/pybbm.py with pybbm's venv (python -I), in the forum's
folder (the project: forum/settings.py, forum/urls.py, templates/): "install" (schema),
"content" (the JSON spec on stdin; writes entities.jsonl), "serve PORT THREADS" (read-only,
GET and HEAD only)."""
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


def setup(read_only=False):
    os.environ["DJANGO_SETTINGS_MODULE"] = "forum.settings"
    if read_only:
        os.environ["PYBBM_BENCH_READ_ONLY"] = "1"
    import django

    django.setup()


def make_users(spec, when):
    from django.contrib.auth import get_user_model
    from pybb import util

    User = get_user_model()
    users = {}
    for u in spec:  # pybb's user_saved signal grants add_post and makes the profile
        user = User.objects.create_user(u["username"], u["email"])  # no password: no login
        user.first_name, user.last_name = u["first_name"], u["last_name"]
        user.date_joined = when(u["joined"])
        user.last_login = when(u["lastseen"])
        user.is_superuser = user.is_staff = u["role"] == "admin"
        user.save()
        profile = util.get_pybb_profile(user)
        profile.signature = u["signature"]
        profile.time_zone = 0.0
        profile.save()  # renders signature_html with the markup engine
        users[u["username"]] = user
    return users


def make_forums(spec, users, moderators):
    from pybb.models import Category, Forum

    categories = [Category.objects.create(name=c["name"], position=n)
                  for n, c in enumerate(spec["categories"])]
    forums = []
    for n, f in enumerate(spec["forums"]):
        parent = forums[f["parent"]] if f["parent"] is not None else None
        forum = Forum.objects.create(category=categories[f["category"]], parent=parent,
                                     name=f["name"], description=f["description"], position=n)
        forum.moderators.add(*[users[m] for m in moderators])
        forums.append(forum)
    return forums


def post_events(spec, users, forums, clock, when):
    """Write the events (oldest first) as pybb's views do."""
    from pybb import util
    from pybb.forms import PostForm
    from pybb.models import Post, Topic

    topics, posts = [], {}  # topic index -> its posts, oldest first

    def text(body):  # [[T:i]]: a link to topic i; [[P:i:k]]: to its k-th post
        if "[[" not in body:
            return body
        for i, t in enumerate(topics):
            body = body.replace(f"[[T:{i}]]", t.get_absolute_url())
            if f"[[P:{i}:" in body:
                for k, p in enumerate(posts[i]):
                    body = body.replace(f"[[P:{i}:{k}]]", p.get_absolute_url())
        return body

    engine = util.get_markup_engine()
    for e in spec:
        clock[0] = when(e["when"])
        user, kind = users[e["user"]], e["kind"]
        if kind == "topic":  # as AddPostView with a forum: PostForm with the topic's name
            form = checked(PostForm(user=user, forum=forums[e["forum"]], ip="127.0.0.1",
                                    may_create_poll=False, data={
                                        "name": e["title"], "body": text(e["body"])}))
            post, topic = form.save()
            topics.append(topic)
            posts[len(topics) - 1] = [post]
            if e["sticky"]:  # as StickTopicView
                topic.sticky = True
                topic.save()
        elif kind == "post":
            i = e["topic"]
            topic = Topic.objects.get(pk=topics[i].pk)
            body = text(e["body"])
            if e.get("quote") is not None:  # pybb's quote link: the markup engine's quote
                quoted = posts[i][e["quote"]]
                body = engine.quote(quoted.body, quoted.user.username) + body
            form = checked(PostForm(user=user, topic=topic, ip="127.0.0.1",
                                    data={"body": body}))
            post, _ = form.save()
            posts[i].append(post)
        elif kind == "edit":  # as EditPostView: the form on the post, by its author
            post = Post.objects.get(pk=posts[e["topic"]][e["post"]].pk)
            data = {"body": post.body + "\\n\\n" + text(e["body"])}
            if post.topic.head == post:
                data["name"] = post.topic.name
            form = checked(PostForm(instance=post, user=user, may_create_poll=False,
                                    data=data))
            form.save()
        elif kind == "close":  # as CloseTopicView
            topic = Topic.objects.get(pk=topics[e["topic"]].pk)
            topic.closed = True
            topic.save()
    return topics


def content(spec):
    setup()
    fast_sqlite()
    import pybb.forms
    import pybb.models

    clock = [None]
    pybb.models.tznow = pybb.forms.tznow = lambda: clock[0]  # what pybb stamps posts with

    def when(stamp):
        return dt.datetime.fromisoformat(stamp)

    from django.contrib.auth import get_user_model
    from pybb.models import Topic

    users = make_users(spec["users"], when)
    mods = [u["username"] for u in spec["users"] if u["role"] == "mod"]
    forums = make_forums(spec, users, mods)
    topics = post_events(spec["events"], users, forums, clock, when)
    for topic, views in zip(topics, spec["views"]):
        Topic.objects.filter(pk=topic.pk).update(views=views)
    per_page = spec["posts_per_page"]
    with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
        for topic in Topic.objects.select_related("forum").order_by("pk"):
            path = topic.get_absolute_url()
            ids = list(topic.posts.order_by("created", "pk").values_list("pk", flat=True))
            for page in range(1, math.ceil(len(ids) / per_page) + 1):
                out.write(json.dumps({
                    "type": "topic", "id": topic.pk, "page": page, "posts": len(ids),
                    "forum": topic.forum.name,
                    "path": path + (f"?page={page}" if page > 1 else "")}) + "\\n")
            for n, pk in enumerate(ids):
                out.write(json.dumps({"type": "post", "id": pk, "topic": topic.pk,
                                      "page": n // per_page + 1}) + "\\n")
        for user in get_user_model().objects.order_by("pk"):
            out.write(json.dumps({"type": "user", "id": user.pk, "name": user.username,
                                  "written": False, "posts": user.posts.count(),
                                  "path": f"/users/{user.username}/"}) + "\\n")


def serve(port, threads):
    setup(read_only=True)
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.wsgi import get_wsgi_application

    app = StaticFilesHandler(get_wsgi_application())  # /static/: pybb's script and images
    serve_read_only(app, port, threads, "pybbm")
''' + DJANGO + SERVE + MAIN

# The board: categories (name) and forums (name, description, category index, parent forum
# index or None, weight of new topics)
CATEGORIES = ["General", "Workshop", "Outdoors", "Kitchen"]
FORUMS = [
    ("Announcements", "News about the forum itself.", 0, None, 1),
    ("Off-topic", "Anything that fits nowhere else.", 0, None, 3),
    ("Woodworking", "Joints, tools and the bench.", 1, None, 6),
    ("Metalwork", "Lathes, welding and files.", 1, None, 3),
    ("Electronics", "Boards, sensors and solder.", 1, None, 4),
    ("Microcontrollers", "Firmware, pins and programmers.", 1, 4, 2),
    ("Gardening", "Beds, seeds and soil.", 2, None, 5),
    ("Cycling", "Bikes, routes and repairs.", 2, None, 5),
    ("Hiking", "Trails, huts and ridges.", 2, None, 3),
    ("Baking", "Bread and the oven.", 3, None, 4),
    ("Coffee", "Beans, roasts and grinders.", 3, None, 3),
]
ANNOUNCEMENTS = 0
CODE_FORUMS = {4, 5}  # their posts show code blocks
def generate(n_topics: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """The categories, forums, users, and the topics, posts, edits and closings as events
    oldest first (the helper's "content" mode)."""
    rng = random.Random(seed)
    users = forum_users(rng, now, lambda s: f"[i]{s}[/i]")
    names = [u["username"] for u in users]
    staff = names[:3]
    activity = {n: (8.0 if n in staff else rng.paretovariate(1.2)) for n in names}
    joined = {u["username"]: dt.datetime.fromisoformat(u["joined"]) for u in users}
    targets = [(k, w) for k, (_, _, _, _, w) in enumerate(FORUMS)]

    def author(when: dt.datetime, pool: list[str]) -> str:
        ok = [n for n in pool if joined[n] < when] or staff
        return rng.choices(ok, [activity[n] for n in ok])[0]

    end = now - dt.timedelta(minutes=30)
    threads = []  # (forum index, times of its posts)
    for i in range(n_topics):
        start = now - dt.timedelta(days=730 * (1 - i / n_topics), seconds=rng.randint(0, 80_000))
        # distinct times: pybb orders posts and finds a permalink's page by time
        times = thread_times(rng, start, end, forum_replies(rng), min_gap=1.0)
        forum = rng.choices([k for k, _ in targets], [w for _, w in targets])[0]
        threads.append((forum, times))
    order = sorted((t, i, k) for i, (_, times) in enumerate(threads) for k, t in enumerate(times))
    topic_index: dict[int, int] = {}  # thread -> topic index (creation order)
    posts: dict[int, list[str]] = {}  # thread -> authors of its posts
    events: list[dict[str, Any]] = []
    for when, i, k in order:
        forum = threads[i][0]
        user = author(when, staff if forum == ANNOUNCEMENTS and k == 0 else names)
        earlier = posts.get(i, [])
        parts, quote = [], None
        if earlier and rng.random() < 0.2:  # pybb's quote link
            quote = rng.randrange(len(earlier))
        parts += [_paragraph(rng, (1, 4) if k else (2, 5))
                  for _ in range(rng.randint(1, 2) if k else rng.randint(1, 3))]
        if forum in CODE_FORUMS and rng.random() < 0.2:
            parts.append("[code]" + "\n".join(f"{rng.choice(NOUNS)} = {rng.randint(0, 255)}"
                                              for _ in range(rng.randint(2, 6))) + "[/code]")
        if topic_index and rng.random() < 0.06:  # a link to an older topic or post
            j = rng.choice(list(topic_index))
            target = (f"[[T:{topic_index[j]}]]" if rng.random() < 0.7
                      else f"[[P:{topic_index[j]}:{rng.randrange(len(posts[j]))}]]")
            parts.append(f"See also [url={target}]this thread[/url].")
        if rng.random() < 0.05:
            parts.append(rng.choice([":)", ";)", ":D", "8)"]))  # pybb's smileys
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
                               "body": f"[b]Edit:[/b] {_sentence(rng, (6, 14))}"}))
        if rng.random() < 0.04:
            extra.append((min(times[-1] + dt.timedelta(hours=6), end),
                          {"kind": "close", "user": rng.choice(staff),
                           "topic": topic_index[i]}))
    timed = [(dt.datetime.fromisoformat(e["when"]), 0, n, e) for n, e in enumerate(events)]
    timed += [(t, 1, n, {**e, "when": _stamp(t)}) for n, (t, e) in enumerate(extra)]
    events = [e for _, _, _, e in sorted(timed, key=lambda x: x[:3])]
    views = [0] * len(threads)  # by topic, in the order they are made
    for i, (_, times) in enumerate(threads):
        views[topic_index[i]] = len(times) * rng.randint(6, 40) + rng.randint(0, 60)
    return {"posts_per_page": POSTS_PER_PAGE, "users": users,
            "categories": [{"name": c} for c in CATEGORIES],
            "forums": [{"name": n, "description": d, "category": c, "parent": p}
                       for n, d, c, p, _ in FORUMS],
            "events": events, "views": views}


def available() -> str | None:
    """None if pybbm's venv is there, else how to make it."""
    return venv_missing(VENV, "pybbm", PYBBM_VERSION, "ARCHIVER_PYBBM_VENV", INSTALL)


def build(folder: Path, n_topics: int = 300, seed: int = 0) -> Path:
    """Build a fresh forum in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    return build_helper_site(
        folder, VENV, {"n_topics": n_topics, "seed": seed, "version": VERSION}, "pybbm forum",
        HELPER, lambda now: generate(n_topics, seed, now),
        write_files(PROJECT_FILES))


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the forum built in folder (waitress with `workers` threads, read-only) on a
    free port; yields the home URL."""
    with serve_helper(VENV, folder, workers, "pybbm") as seed:
        yield seed


def _id(segment: str) -> int | None:
    return int(segment) if segment.isdigit() else None


def _topic_type(segs: list[str]) -> str:
    """/topic/ID/ (a topic), /topic/ID/post/add/ (write), /topic/ID/ACTION/ (a moderator's
    or voter's action: account), /topic/latest/ (the latest topics)."""
    n = len(segs)
    if n == 2 and segs[1] == "latest":
        return "latest"
    if n < 2 or _id(segs[1]) is None:
        return "other"
    if n == 2:
        return "topic"
    if n == 3 and segs[2] in TOPIC_ACTIONS:
        return "account"
    return "write" if segs[2:] == ["post", "add"] else "other"


def page_type(url: str) -> str:
    """Ground truth from the URL alone (pybb's routes at the root of the project's urls.py),
    in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - /static/..., /media/... or a static file: "static"; /admin/...: "admin" (login walled)
    - /: "index" (the categories and their forums); /category/ID/: "category" (one of them)
    - /forum/ID/ (?page=N): "forum" (its sub-forums and topics); /forum/ID/topic/add/:
      "write" (login walled)
    - /topic/ID/ (any query: ?page=N, ?page=last, ?first-unread=1): "topic";
      /topic/ID/post/add/ (?quote_id=): "write"; /topic/ID/stick/, unstick/, close/, open/,
      poll_vote/, cancel_poll_vote/: "account" (login walled); /topic/latest/: "latest"
    - /post/ID/: "post" (a permalink: a 302 into the topic page); /post/ID/edit/, move/,
      delete/, moderate/: "write"
    - /users/NAME/: "user"; /users/NAME/posts/ (?page=N): "user_posts";
      /users/NAME/topics/ (?page=N): "user_topics"; /users/NAME/edit-privileges/: "account"
    - /profile/edit/, /subscription/..., /block_user/..., /unblock_user/...,
      /mark_all_as_read/, /api/...: "account" (login walled)
    - /feeds/...: "feed" (Atom)
    - /accounts/login/, logout/, register/, password/..., reset/...: "login"
    - anything else (/robots.txt and /favicon.ico are static by their extension): "other"."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    if not segs:
        return "index"
    head, n = segs[0], len(segs)
    if head in ("static", "media") or path.lower().endswith(STATIC_EXT):
        return "static"
    if head == "admin":
        return "admin"
    if head == "category":
        return "category" if n == 2 and _id(segs[1]) is not None else "other"
    if head == "forum":
        if n < 2 or _id(segs[1]) is None:
            return "other"
        if n == 2:
            return "forum"
        return "write" if segs[2:] == ["topic", "add"] else "other"
    if head == "topic":
        return _topic_type(segs)
    if head == "post":
        if n < 2 or _id(segs[1]) is None:
            return "other"
        if n == 2:
            return "post"
        return "write" if n == 3 and segs[2] in POST_ACTIONS else "other"
    if head == "users" and n >= 2:
        if n == 2:
            return "user"
        if n == 3:
            return {"posts": "user_posts", "topics": "user_topics",
                    "edit-privileges": "account"}.get(segs[2], "other")
        return "other"
    if head in ("profile", "subscription", "block_user", "unblock_user", "mark_all_as_read",
                "api"):
        return "account"
    if head == "feeds":
        return "feed"
    if head == "accounts":
        return "login" if n >= 2 and segs[1] in ACCOUNT_LOGIN else "other"
    return "other"


# topic ID -> its number of pages: which page ?page=last shows (`load_pages`)
_LAST_PAGE: dict[int, int] = {}


def load_pages(folder: Path) -> None:
    """Read the build's topic table (topic ID -> pages) for `entity_of`."""
    _LAST_PAGE.clear()
    for r in entity_rows(folder):
        if r["type"] == "topic":
            _LAST_PAGE[r["id"]] = max(_LAST_PAGE.get(r["id"], 1), r["page"])


def entity_of(url: str) -> str | None:
    """The UCC page a URL shows: "topic ID page N" for a view of a topic's page (no ?page=
    is page 1; any other query, ?first-unread=1 for one, changes nothing for a guest);
    ?page=last is the topic's last page (from the build's topic table: `load_pages`, which
    `entities` calls). None for anything else (a post's permalink is a redirect), and for a
    ?page= that is not a positive number or "last" (a 404)."""
    if page_type(url) != "topic":
        return None
    parts = urlsplit(url)
    topic = int([s for s in parts.path.split("/") if s][1])
    page = parse_qs(parts.query).get("page", ["1"])[-1]
    if page == "last":
        return f"topic {topic} page {_LAST_PAGE.get(topic, 1)}"
    if not page.isdigit() or int(page) < 1:
        return None
    return f"topic {topic} page {int(page)}"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every page of every topic, as the forum links them (/topic/ID/,
    /topic/ID/?page=2); give the server (e.g. "http://127.0.0.1:8123") to get absolute
    URLs. Loads the topic table `entity_of` needs. No user page: pybb's show nothing a
    member wrote about themselves."""
    load_pages(folder)
    return {server.rstrip("/") + r["path"] for r in entity_rows(folder) if r["type"] == "topic"}


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: topics, posts, users, pages per topic."""
    rows = entity_rows(folder)
    topics = [r for r in rows if r["type"] == "topic" and r["page"] == 1]
    users = [r for r in rows if r["type"] == "user"]
    pages = Counter(math.ceil(r["posts"] / POSTS_PER_PAGE) for r in topics)
    return {"topics": len(topics), "posts": sum(r["posts"] for r in topics),
            "users": len(users), "users_who_posted": sum(1 for u in users if u["posts"]),
            "topic_pages": sum(pages[p] * p for p in pages),
            "pages_per_topic": dict(sorted(pages.items())),
            "topics_per_forum": dict(Counter(r["forum"] for r in topics).most_common())}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "topics", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        home_links = smoke.home_links
        forum = max((u for u in home_links if page_type(u) == "forum"),
                    key=lambda u: len(requests.get(u, timeout=30).content))
        forum_links = same_host_links(requests.get(forum, timeout=30).content, forum)
        topic = max((u for u in ucc if page_type(u) == "topic"), key=lambda u: "?" in u)
        topic_links = same_host_links(requests.get(topic, timeout=30).content, topic)
        first = {page_type(u): u for u in sorted(home_links | forum_links | topic_links,
                                                 reverse=True)}
        smoke_fetch([seed, forum, topic, *first.values(), f"{server}/accounts/login/",
                     f"{server}/profile/edit/", f"{server}/topic/1/?page=last",
                     f"{server}/topic/1/?page=99", f"{server}/feeds/topics/",
                     f"{server}/robots.txt"], page_type, follow_redirects=False)
        permalink = next(u for u in sorted(topic_links) if page_type(u) == "post")
        moved = requests.get(permalink, timeout=30, allow_redirects=False)
        print(f"{permalink} -> {moved.status_code} {moved.headers.get('Location')}")
        print(f"POST {requests.post(seed, timeout=30).status_code} (read-only)")
        print_link_types([("home", home_links), (forum, forum_links), (topic, topic_links)],
                         page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
