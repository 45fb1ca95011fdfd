"""A real Django forum engine, django-machina 1.3.1 (from PyPI), on 127.0.0.1 with generated
content.

The third forum, after `benchmarks.realsite.flaskbb` and `benchmarks.realsite.spirit`, and one
the crawler was never tuned on: machina is a forum *engine*, a set of Django apps that a
project of its own mounts, so the site is a small Django project as machina's install docs and
its example project write one (settings with machina's apps, middleware, context processor,
template and static directories, django-haystack's simple search backend and the attachments
cache; machina's URLs at the root; a board_base.html that extends machina's and adds the
"Sign up" and "Sign in" links; Django's login and password reset views and a registration
view under /account/; Django's admin), SQLite, machina's shipped templates and static files.

    build(folder)       fresh forum in folder: the project (PROJECT_FILES), an SQLite
                        database, content from a generator (deterministic for n_topics, seed)
                        written through machina's own forms and models (TopicForm and PostForm
                        as its views use them, Forum, ForumProfile, UserForumPermission)
    serve(folder)       machina under waitress (threaded) on a free port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every page of every topic (the UCC)

Machina and its dependencies live in a venv of their own (they are not the project's: machina
needs Django, django-haystack, django-mptt, django-widget-tweaks, markdown2 and Pillow), named
by the environment variable ARCHIVER_MACHINA_VENV (default: mavenv in the temporary directory,
/tmp/mavenv); `available()` says how to create it. Machina 1.3.1 declares `django>=3.2` only;
the venv pins Django 5.2 (the LTS) rather than whatever is newest. Everything machina runs goes
through the helper script HELPER (its shared parts: `benchmarks.realsite.helpertext`),
written into the build folder and run by that venv's python.

Permissions are machina's own: the generated members get its documented default set
(MACHINA_DEFAULT_AUTHENTICATED_USER_FORUM_PERMISSIONS), and the anonymous user is granted
can_see_forum, can_read_forum and can_download_file on every forum (one global
UserForumPermission each, anonymous_user=True, forum NULL), as an admin does in machina's
permission admin to make a board public. Guests may read, not post: machina shows no "New
topic", "Post reply", edit or subscribe buttons to a user without the permission, so those
login walls are not in the links.

No mail (a dummy backend), no debug toolbar, DEBUG off: nothing the crawler fetches leaves
127.0.0.1 (the footer links Django's and machina's home pages, off the host). The server is
read-only: a WSGI wrapper answers 405 to anything but GET and HEAD, the database is opened
read-only (SQLite mode=ro), sessions live in signed cookies (machina's permission middleware
stores an anonymous forum key in every guest's session), and the topic_viewed signal's two
receivers (the view count, an UPDATE on every GET, and the read marks) are disconnected, so
crawling cannot change the forum and every crawl of a build sees the same pages.

The UCC (`entities`): every page of every topic. Machina shows 15 posts a page (its default
TOPIC_POSTS_NUMBER_PER_PAGE, kept), so a thread of 37 posts is three pages, each holding posts
no other page shows. A topic's URL is /forum/FSLUG-FID/topic/SLUG-ID/; the view looks the
topic up by ID alone, so any slug and any forum in the path show it (200, no redirect);
?page=N is its page N (a page past the last, 0 or not a number is a 404); ?post=PID shows the
page holding that post (200, no redirect: the same page under another URL; a post of another
topic is ignored). Every post's pilcrow, a forum's "last post" arrow and a profile's recent
posts link such ?post= URLs, so a topic page of 15 posts links 15 other URLs of itself. Which
page a ?post= URL shows is not in the URL: `entity_of` reads it from the post table the build
writes (entities.jsonl), loaded by `entities(folder)` or `load_posts(folder)`. Profiles are
not in the UCC: machina's profile page shows the member's name, avatar, post and topic counts
and their five latest posts cut to 160 characters (text that is on the topic pages); the
signature a member writes shows under their posts, not on the profile.

What a guest meets: the index (/) lists the categories and their forums with each forum's
sub-forums, counts, last post (a ?post= link to the topic and the poster's profile) and RSS
feed (/feeds/forum/SLUG-ID/topics/all/); a category's page lists its forums the same way; a
forum's page lists its sub-forums and its topics, 20 a page (sticky and announcement topics
first), each topic with its poster's profile, its first pages and last page when it has more
than one (?page=N), and its last post (?post=); the pager links the first, last and
neighbouring pages. A topic page links the breadcrumb (index, forum ancestors), its pager,
every post's ?post= permalink, and its posters' and editors' profiles
(/member/profile/ID/); a profile links the member's post list (/member/profile/ID/posts/,
15 posts a page, paged, each post linking its ?post= permalink) and their recent posts.
Every page links "Advanced search" (/search/, a form; its GET results page through ?q=&page=),
"Sign up" (/account/register/) and "Sign in" (/account/login/, which links the password
reset); the feeds are RSS (/feeds/topics/ and per forum). The admin (/admin/) is a login
wall. Every page loads two stylesheets and two scripts (machina's build), and the vendor
stylesheet names Font Awesome's fonts. No page says noindex, there is no robots.txt and no
favicon.ico (404).

    python -m benchmarks.realsite.machina /tmp/mabench    # build, serve, smoke test
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

VENV = Path(os.environ.get("ARCHIVER_MACHINA_VENV")
            or Path(tempfile.gettempdir()) / "mavenv")
MACHINA_VERSION = "1.3.1"
DJANGO_VERSION = "5.2.19"
INSTALL = (f"python3.12 -m venv {VENV} && {VENV}/bin/pip install django-machina=="
           f"{MACHINA_VERSION} django=={DJANGO_VERSION} django-haystack==3.4.0 "
           f"django-mptt==0.20.0 waitress  (python3.12, as tested; Django 5.2 needs "
           f"Python >= 3.10)")
SITENAME = "Realmachina"
VERSION = 1  # of the generator; part of the reuse marker
POSTS_PER_PAGE = 15  # machina's default TOPIC_POSTS_NUMBER_PER_PAGE, kept
UCC_TYPES = {"topic"}
TARGET_TYPE = "topic"  # source-target's example is a topic
DESCRIPTION = ("django-machina 1.3.1 (Django 5.2, SQLite, machina's templates, guests may "
               "read), {size} generated topics (`benchmarks/realsite/machina.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("topic", "index", "forum", "user", "user_posts", "feed", "search", "login",
              "write", "account", "admin", "static", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): a category's
# page and a forum's are both forum/forum_detail.html (a category's without a topic list)
SAME_TEMPLATE: dict[str, str] = {}
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico",
              ".woff", ".woff2", ".ttf", ".eot", ".map", ".txt")
# /account/<word>/: the project's auth pages
ACCOUNT_LOGIN = {"login", "logout", "register", "password-reset", "reset"}

# The project around machina, as its install docs and example project write one
SETTINGS = '''"""Written by benchmarks/realsite/machina.py: a throwaway machina forum on 127.0.0.1,
set up as django-machina's install documentation says."""
import os

from machina import MACHINA_MAIN_STATIC_DIR, MACHINA_MAIN_TEMPLATE_DIR

BASE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEBUG = False
SECRET_KEY = "realsite-bench-secret"  # fixed: the same signed cookies every build
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # machina's dependencies
    "mptt",
    "haystack",
    "widget_tweaks",
    # machina's apps
    "machina",
    "machina.apps.forum",
    "machina.apps.forum_conversation",
    "machina.apps.forum_conversation.forum_attachments",
    "machina.apps.forum_conversation.forum_polls",
    "machina.apps.forum_feeds",
    "machina.apps.forum_moderation",
    "machina.apps.forum_search",
    "machina.apps.forum_tracking",
    "machina.apps.forum_member",
    "machina.apps.forum_permission",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "machina.apps.forum_permission.middleware.ForumPermissionMiddleware",
]
ROOT_URLCONF = "forum.urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [os.path.join(BASE_DIR, "templates"), MACHINA_MAIN_TEMPLATE_DIR],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.debug",
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
        "machina.core.context_processors.metadata",
    ]},
}]
WSGI_APPLICATION = None
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3",
                         "NAME": os.path.join(BASE_DIR, "forum.sqlite3")}}
if os.environ.get("MACHINA_BENCH_READ_ONLY"):  # the server's: SQLite opened read-only
    DATABASES["default"]["NAME"] = "file:" + DATABASES["default"]["NAME"] + "?mode=ro"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "machina_attachments": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                            "LOCATION": os.path.join(BASE_DIR, "attachments-cache")},
}
HAYSTACK_CONNECTIONS = {"default": {"ENGINE": "haystack.backends.simple_backend.SimpleEngine"}}
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"  # no session rows
EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "/static/"
STATICFILES_DIRS = [MACHINA_MAIN_STATIC_DIR]
MEDIA_URL = "/media/"
MEDIA_ROOT = os.path.join(BASE_DIR, "media")
LOGIN_URL = "/account/login/"
LOGIN_REDIRECT_URL = "/"
MACHINA_FORUM_NAME = "Realmachina"
MACHINA_DEFAULT_AUTHENTICATED_USER_FORUM_PERMISSIONS = [
    "can_see_forum", "can_read_forum", "can_start_new_topics", "can_reply_to_topics",
    "can_edit_own_posts", "can_post_without_approval", "can_create_polls",
    "can_vote_in_polls", "can_download_file",
]
LOGGING = {"version": 1, "disable_existing_loggers": False,
           "handlers": {"console": {"class": "logging.StreamHandler"}},
           "root": {"handlers": ["console"], "level": "WARNING"}}
'''
URLS = '''"""Written by benchmarks/realsite/machina.py: machina at the root, as its example
project has it."""
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.urls import include, path
from django.views.generic import CreateView
from machina import urls as machina_urls

account = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("register/", CreateView.as_view(form_class=UserCreationForm,
                                         template_name="registration/register.html",
                                         success_url="/account/login/"), name="register"),
    path("password-reset/", auth_views.PasswordResetView.as_view(),
         name="password_reset"),
    path("password-reset/done/", auth_views.PasswordResetDoneView.as_view(),
         name="password_reset_done"),
    path("reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("reset/done/", auth_views.PasswordResetCompleteView.as_view(),
         name="password_reset_complete"),
]
urlpatterns = [
    path("admin/", admin.site.urls),
    path("account/", include(account)),
    path("", include(machina_urls)),
]
'''
BOARD_BASE = '''{% extends "machina/board_base.html" %}
{% load i18n %}
{% block header_collapse %}
{{ block.super }}
<ul class="navbar-nav ml-auto">
  {% if request.user.is_authenticated %}
  <li class="nav-item"><a href="{% url 'forum_member:profile' request.user.id %}"
    class="nav-link">{% trans "Profile" %}</a></li>
  {% else %}
  <li class="nav-item"><a href="{% url 'register' %}" class="nav-link">{% trans "Sign up" %}</a>
  </li>
  <li class="nav-item"><a href="{% url 'login' %}" class="nav-link">{% trans "Sign in" %}</a></li>
  {% endif %}
</ul>
{% endblock header_collapse %}
{% block body %}
{{ block.super }}
<footer class="py-2 bg-light"><div class="container"><p class="text-right text-muted">
{% trans "Powered by" %} <a href="https://www.djangoproject.com/">Django</a> &amp;
<a href="https://github.com/ellmetha/django-machina">django-machina</a></p></div></footer>
{% endblock body %}
'''
FORM_PAGE = '''{% extends "board_base.html" %}
{% load i18n %}
{% block sub_title %}TITLE{% endblock sub_title %}
{% block content %}
<div class="row"><div class="col-12 col-md-6">
<h1>TITLE</h1>
<form method="post">{% csrf_token %}{{ form.as_p }}
<button type="submit" class="btn btn-primary">TITLE</button></form>
EXTRA
</div></div>
{% endblock content %}
'''
PROJECT_FILES = {
    "forum/__init__.py": "",
    "forum/settings.py": SETTINGS,
    "forum/urls.py": URLS,
    "templates/board_base.html": BOARD_BASE,
    "templates/registration/login.html": FORM_PAGE.replace("TITLE", "Sign in").replace(
        "EXTRA", '<p><a href="{% url \'password_reset\' %}">{% trans "Forgot your password?" '
                 '%}</a> &middot; <a href="{% url \'register\' %}">{% trans "Sign up" %}</a>'
                 '</p>'),
    "templates/registration/register.html": FORM_PAGE.replace("TITLE", "Sign up").replace(
        "EXTRA", ""),
    "templates/registration/password_reset_form.html": FORM_PAGE.replace(
        "TITLE", "Reset your password").replace("EXTRA", ""),
}

HELPER = '''"""Run by benchmarks/realsite/machina.py with machina's venv (python -I), in the forum's
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
        os.environ["MACHINA_BENCH_READ_ONLY"] = "1"
    import django

    django.setup()


def quiet():
    """Machina's topic_viewed signal counts the view (an UPDATE on every GET) and marks the
    topic read: not here."""
    from machina.apps.forum_conversation import receivers as conversation
    from machina.apps.forum_conversation.signals import topic_viewed
    from machina.apps.forum_tracking import receivers as tracking

    topic_viewed.disconnect(conversation.update_topic_counter)
    topic_viewed.disconnect(tracking.update_user_trackers)


def make_users(spec, when):
    from django.contrib.auth import get_user_model
    from machina.apps.forum_member.models import ForumProfile

    User = get_user_model()
    users = {}
    for u in spec:
        user = User.objects.create_user(u["username"], u["email"])  # no password: no login
        user.first_name, user.last_name = u["first_name"], u["last_name"]
        user.date_joined = when(u["joined"])
        user.last_login = when(u["lastseen"])
        user.is_superuser = user.is_staff = u["role"] == "admin"
        user.save()
        profile, _ = ForumProfile.objects.get_or_create(user=user)
        profile.signature = u["signature"] or None
        profile.save()
        users[u["username"]] = user
    return users


def make_forums(spec):
    from machina.apps.forum.models import Forum

    forums = []
    for f in spec:
        parent = forums[f["parent"]] if f["parent"] is not None else None
        forums.append(Forum.objects.create(
            name=f["name"], description=f["description"], parent=parent,
            type=Forum.FORUM_CAT if f["category"] else Forum.FORUM_POST))
    return forums


MODERATOR = ("can_post_announcements", "can_post_stickies", "can_lock_topics",
             "can_move_topics", "can_edit_posts", "can_delete_posts", "can_approve_posts",
             "can_reply_to_locked_topics")


def grant(spec, users):
    """A public board: the anonymous user may see and read every forum, and the moderators
    moderate them all (global UserForumPermissions, forum NULL, as machina's permission
    admin writes them; the administrator is a superuser and may do anything)."""
    from django.conf import settings
    from machina.apps.forum_permission.models import ForumPermission, UserForumPermission

    def perm(codename):
        return ForumPermission.objects.get(codename=codename)

    for codename in ("can_see_forum", "can_read_forum", "can_download_file"):
        UserForumPermission.objects.create(permission=perm(codename), forum=None,
                                           anonymous_user=True, has_perm=True)
    members = settings.MACHINA_DEFAULT_AUTHENTICATED_USER_FORUM_PERMISSIONS
    for u in spec:  # a user's own permissions replace the defaults: grant those too
        if u["role"] == "mod":
            for codename in [*members, *MODERATOR]:
                UserForumPermission.objects.create(permission=perm(codename), forum=None,
                                                   user=users[u["username"]], has_perm=True)


def post_events(spec, users, forums, clock, when):
    """Write the events (oldest first) as machina's views do."""
    from machina.apps.forum_conversation.forms import PostForm, TopicForm
    from machina.apps.forum_conversation.models import Post, Topic

    topics, posts = [], {}  # topic index -> its posts, oldest first

    def text(body):  # [[T:i]]: a link to topic i; [[P:i:k]]: to its k-th post
        if "[[" not in body:
            return body
        for i, t in enumerate(topics):
            url = f"/forum/{t.forum.slug}-{t.forum.pk}/topic/{t.slug}-{t.pk}/"
            body = body.replace(f"[[T:{i}]]", url)
            if f"[[P:{i}:" in body:
                for k, p in enumerate(posts[i]):
                    body = body.replace(f"[[P:{i}:{k}]]", f"{url}?post={p.pk}#{p.pk}")
        return body

    for e in spec:
        clock[0] = when(e["when"])
        user, kind = users[e["user"]], e["kind"]
        if kind == "topic":
            forum = forums[e["forum"]]
            form = checked(TopicForm(user=user, forum=forum, data={
                "subject": e["title"], "content": text(e["body"]),
                "enable_signature": e["signature"], "topic_type": str(e["type"])}))
            post = form.save()
            topics.append(post.topic)
            posts[len(topics) - 1] = [post]
        elif kind == "post":
            i = e["topic"]
            topic = Topic.objects.get(pk=topics[i].pk)
            body = text(e["body"])
            if e.get("quote") is not None:  # machina's quote: the post as a Markdown quote
                quoted = posts[i][e["quote"]]
                body = (f"> **{quoted.poster.username} wrote:**\\n> "
                        + quoted.content.raw.split("\\n\\n")[0] + "\\n\\n" + body)
            form = checked(PostForm(user=user, forum=topic.forum, topic=topic, data={
                "subject": f"Re: {topic.subject}", "content": body,
                "enable_signature": e["signature"]}))
            posts[i].append(form.save())
        elif kind == "edit":  # as PostUpdateView: the form on the post, updated_by the user
            post = Post.objects.get(pk=posts[e["topic"]][e["post"]].pk)
            form = checked(PostForm(user=user, forum=post.topic.forum, topic=post.topic,
                                    instance=post, data={
                "subject": post.subject, "content": post.content.raw + "\\n\\n"
                + text(e["body"]), "update_reason": e["reason"],
                "enable_signature": post.enable_signature}))
            form.save()
        elif kind == "lock":  # as TopicLockView
            Topic.objects.filter(pk=topics[e["topic"]].pk).update(status=Topic.TOPIC_LOCKED)
    return topics


def content(spec):
    setup()
    fast_sqlite()
    from django.utils import timezone

    clock = [timezone.now()]
    timezone.now = lambda: clock[0]  # what machina's models stamp with (auto_now fields)

    def when(stamp):
        return dt.datetime.fromisoformat(stamp)

    from django.contrib.auth import get_user_model
    from machina.apps.forum_conversation.models import Topic

    users = make_users(spec["users"], when)
    forums = make_forums(spec["forums"])
    grant(spec["users"], users)
    topics = post_events(spec["events"], users, forums, clock, when)
    for topic, views in zip(topics, spec["views"]):
        Topic.objects.filter(pk=topic.pk).update(views_count=views)
    per_page = spec["posts_per_page"]
    with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
        for topic in Topic.objects.select_related("forum").order_by("pk"):
            path = f"/forum/{topic.forum.slug}-{topic.forum.pk}/topic/{topic.slug}-{topic.pk}/"
            ids = list(topic.posts.filter(approved=True).order_by("created", "pk")
                       .values_list("pk", flat=True))
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
                                  "written": False, "posts": user.forum_profile.posts_count,
                                  "path": f"/member/profile/{user.pk}/"}) + "\\n")


def serve(port, threads):
    setup(read_only=True)
    quiet()
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.wsgi import get_wsgi_application

    app = StaticFilesHandler(get_wsgi_application())  # /static/: machina's CSS, JS and fonts
    serve_read_only(app, port, threads, "machina")
''' + DJANGO + SERVE + MAIN

# The board: (name, description, parent index or None, a category?, weight of new topics)
FORUMS = [
    ("Announcements", "News about the forum itself.", None, False, 1),
    ("Workshop", "Making and mending.", None, True, 0),
    ("Woodworking", "Joints, tools and the bench.", 1, False, 6),
    ("Metalwork", "Lathes, welding and files.", 1, False, 3),
    ("Electronics", "Boards, sensors and solder.", 1, False, 4),
    ("Microcontrollers", "Firmware, pins and programmers.", 4, False, 2),
    ("Outdoors", "Out of the house.", None, True, 0),
    ("Gardening", "Beds, seeds and soil.", 6, False, 5),
    ("Cycling", "Bikes, routes and repairs.", 6, False, 5),
    ("Hiking", "Trails, huts and ridges.", 6, False, 3),
    ("Kitchen", "Food and drink.", None, True, 0),
    ("Baking", "Bread and the oven.", 10, False, 4),
    ("Coffee", "Beans, roasts and grinders.", 10, False, 3),
    ("Off-topic", "Anything that fits nowhere else.", None, False, 3),
]
ANNOUNCEMENTS = 0
CODE_FORUMS = {4, 5}  # their posts show code blocks
def generate(n_topics: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """The forums, users, and the topics, posts, edits and locks as events oldest first (the
    helper's "content" mode)."""
    rng = random.Random(seed)
    users = forum_users(rng, now, lambda s: f"*{s}*")
    names = [u["username"] for u in users]
    staff = names[:3]
    activity = {n: (8.0 if n in staff else rng.paretovariate(1.2)) for n in names}
    joined = {u["username"]: dt.datetime.fromisoformat(u["joined"]) for u in users}
    signs = {u["username"]: bool(u["signature"]) for u in users}
    targets = [(k, w) for k, (_, _, _, _, w) in enumerate(FORUMS) if w]

    def author(when: dt.datetime, pool: list[str]) -> str:
        ok = [n for n in pool if joined[n] < when] or staff
        return rng.choices(ok, [activity[n] for n in ok])[0]

    end = now - dt.timedelta(minutes=30)
    threads = []  # (forum index, times of its posts)
    for i in range(n_topics):
        start = now - dt.timedelta(days=730 * (1 - i / n_topics), seconds=rng.randint(0, 80_000))
        # distinct times: posts are placed by time
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
        if earlier and rng.random() < 0.2:  # machina's quote button
            quote = rng.randrange(len(earlier))
        parts += [_paragraph(rng, (1, 4) if k else (2, 5))
                  for _ in range(rng.randint(1, 2) if k else rng.randint(1, 3))]
        if forum in CODE_FORUMS and rng.random() < 0.2:
            parts.append("```\n" + "\n".join(f"{rng.choice(NOUNS)} = {rng.randint(0, 255)}"
                                             for _ in range(rng.randint(2, 6))) + "\n```")
        if topic_index and rng.random() < 0.06:  # a link to an older topic or post
            j = rng.choice(list(topic_index))
            target = (f"[[T:{topic_index[j]}]]" if rng.random() < 0.7
                      else f"[[P:{topic_index[j]}:{rng.randrange(len(posts[j]))}]]")
            parts.append(f"See also [this thread]({target}).")
        event: dict[str, Any] = {"when": _stamp(when), "user": user, "body": "\n\n".join(parts),
                                 "signature": signs[user] and rng.random() < 0.9}
        if k == 0:
            a, b, c = rng.sample(NOUNS, 3)
            topic_index[i] = len(topic_index)
            kind = (2 if forum == ANNOUNCEMENTS and rng.random() < 0.5
                    else 1 if user in staff and rng.random() < 0.15 else 0)
            event.update(kind="topic", forum=forum, type=kind,
                         title=rng.choice(FORUM_TITLES).format(A=a.capitalize(), a=a, b=b, c=c))
        else:
            event.update(kind="post", topic=topic_index[i], quote=quote)
        events.append(event)
        posts.setdefault(i, []).append(user)
    extra: list[tuple[dt.datetime, dict[str, Any]]] = []
    for i, (_, times) in enumerate(threads):  # edits and locks, after what they change
        for n, who in enumerate(posts[i]):
            if rng.random() < 0.05:
                extra.append((min(times[n] + dt.timedelta(minutes=rng.randint(2, 600)), end),
                              {"kind": "edit", "user": who, "topic": topic_index[i], "post": n,
                               "reason": rng.choice(["typo", "more detail", ""]),
                               "body": f"**Edit:** {_sentence(rng, (6, 14))}"}))
        if rng.random() < 0.04:
            extra.append((min(times[-1] + dt.timedelta(hours=6), end),
                          {"kind": "lock", "user": rng.choice(staff), "topic": topic_index[i]}))
    timed = [(dt.datetime.fromisoformat(e["when"]), 0, n, e) for n, e in enumerate(events)]
    timed += [(t, 1, n, {**e, "when": _stamp(t)}) for n, (t, e) in enumerate(extra)]
    events = [e for _, _, _, e in sorted(timed, key=lambda x: x[:3])]
    views = [0] * len(threads)  # by topic, in the order they are made
    for i, (_, times) in enumerate(threads):
        views[topic_index[i]] = len(times) * rng.randint(6, 40) + rng.randint(0, 60)
    forums = [{"name": n, "description": d, "parent": p, "category": c}
              for n, d, p, c, _ in FORUMS]
    return {"posts_per_page": POSTS_PER_PAGE, "users": users, "forums": forums,
            "events": events, "views": views}


def available() -> str | None:
    """None if machina's venv is there, else how to make it."""
    return venv_missing(VENV, "django-machina", MACHINA_VERSION, "ARCHIVER_MACHINA_VENV",
                        INSTALL)


def build(folder: Path, n_topics: int = 300, seed: int = 0) -> Path:
    """Build a fresh forum in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    return build_helper_site(
        folder, VENV, {"n_topics": n_topics, "seed": seed, "version": VERSION}, "machina forum",
        HELPER, lambda now: generate(n_topics, seed, now),
        write_files(PROJECT_FILES))


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the forum built in folder (waitress with `workers` threads, read-only) on a
    free port; yields the home URL."""
    with serve_helper(VENV, folder, workers, "machina") as seed:
        yield seed


def _slug_id(segment: str) -> int | None:
    """The ID of a machina path segment SLUG-ID (the slug may hold dashes, or be empty)."""
    _, dash, tail = segment.rpartition("-")
    return int(tail) if dash and tail.isdigit() else None


def _forum_type(segs: list[str]) -> str:
    """/forum/FSLUG-FID/...: a forum or category page, a topic, or a form behind a login
    (topic/create/, topic/SLUG-ID/update/, topic/SLUG-ID/post/create/,
    topic/SLUG-ID/PID/post/update/ and .../post/delete/)."""
    n = len(segs)
    if n < 2 or _slug_id(segs[1]) is None:
        return "other"
    if n == 2:
        return "forum"
    if segs[2] != "topic" or n < 4:
        return "other"
    if segs[3] == "create":
        return "write" if n == 4 else "other"
    if _slug_id(segs[3]) is None:
        return "other"
    if n == 4:
        return "topic"
    return "write" if segs[-1] in ("update", "create", "delete") else "other"


def _member_type(segs: list[str]) -> str:
    """/member/...: a profile (/member/profile/ID/), its post list (/member/profile/ID/posts/),
    or the member's own pages behind a login (profile/edit/, subscriptions/,
    topic/ID/subscribe/, topic/ID/unsubscribe/)."""
    if len(segs) >= 3 and segs[1] == "profile" and segs[2] != "edit":
        if len(segs) == 3:
            return "user"
        return "user_posts" if len(segs) == 4 and segs[3] == "posts" else "other"
    return "account"


def page_type(url: str) -> str:
    """Ground truth from the URL alone (machina's routes at the root of the project's
    urls.py), in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - /static/..., /media/... or a static file: "static"; /admin/...: "admin" (login walled)
    - /: "index" (the board: categories and forums)
    - /forum/FSLUG-FID/ (?page=N): "forum" (a category's or a forum's page: its sub-forums
      and topics); /forum/FSLUG-FID/topic/SLUG-ID/ (any query: ?page=N, ?post=PID):
      "topic"; /forum/FSLUG-FID/topic/create/ and .../update/, .../post/create/,
      .../PID/post/update/, .../PID/post/delete/: "write" (login walled)
    - /member/profile/ID/: "user" (a profile); /member/profile/ID/posts/ (?page=N):
      "user_posts"; the rest under /member/ (profile/edit/, subscriptions/, topic/ID/
      subscribe/...): "account" (login walled)
    - /feeds/...: "feed" (RSS); /search/...: "search"; /tracking/... (mark read, unread
      topics) and /moderation/... (the queue, lock, move, delete...): "account" (login walled)
    - /account/login/, logout/, register/, password-reset/..., reset/...: "login"
    - /attachment/ID/ and /poll/ID/vote/: "write" (none exist; a vote is a POST)
    - anything else (/robots.txt and /favicon.ico are static by their extension): "other"."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    if not segs:
        return "index"
    head = segs[0]
    if head in ("static", "media") or path.lower().endswith(STATIC_EXT):
        return "static"
    if head == "admin":
        return "admin"
    if head == "forum":
        return _forum_type(segs)
    if head == "member":
        return _member_type(segs)
    if head == "feeds":
        return "feed"
    if head == "search":
        return "search"
    if head in ("tracking", "moderation"):
        return "account"
    if head == "account":
        return "login" if len(segs) >= 2 and segs[1] in ACCOUNT_LOGIN else "other"
    if head in ("attachment", "poll"):
        return "write"
    return "other"


# post ID -> (topic ID, page): which page a ?post= URL shows (`load_posts`)
_POST_PAGE: dict[int, tuple[int, int]] = {}


def load_posts(folder: Path) -> None:
    """Read the build's post table (post ID -> topic and page) for `entity_of`."""
    _POST_PAGE.clear()
    _POST_PAGE.update({r["id"]: (r["topic"], r["page"]) for r in entity_rows(folder)
                       if r["type"] == "post"})


def entity_of(url: str) -> str | None:
    """The UCC page a URL shows: "topic ID page N" for a view of a topic's page (any slugs
    and forum in the path: machina looks the topic up by ID; no ?page= is page 1); a ?post=PID
    of this topic shows the page holding that post (from the post table: `load_posts`, which
    `entities` calls), else ?page= decides as machina does. None for anything else, and for a
    ?page= that is not a positive number (a 404)."""
    if page_type(url) != "topic":
        return None
    parts = urlsplit(url)
    segs = [s for s in parts.path.split("/") if s]
    topic = _slug_id(segs[3])
    query = parse_qs(parts.query)
    post = query.get("post", [""])[-1]
    if post.isdigit() and _POST_PAGE.get(int(post), (None, 0))[0] == topic:
        return f"topic {topic} page {_POST_PAGE[int(post)][1]}"
    page = query.get("page", ["1"])[-1]
    if not page.isdigit() or int(page) < 1:
        return None
    return f"topic {topic} page {int(page)}"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every page of every topic, as the forum links them (/forum/FSLUG-FID/topic/
    SLUG-ID/, ...?page=2); give the server (e.g. "http://127.0.0.1:8123") to get absolute
    URLs. Loads the post table `entity_of` needs. No profile: machina's profiles show nothing
    a member wrote about themselves."""
    load_posts(folder)
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
        smoke_fetch([seed, forum, topic, *first.values(), f"{server}/account/login/",
                     f"{server}/member/subscriptions/", f"{server}/robots.txt"], page_type,
                    follow_redirects=False)
        permalink = next(u for u in sorted(topic_links) if "post=" in u)
        print(f"{permalink} -> {entity_of(permalink)}")
        print(f"POST {requests.post(seed, timeout=30).status_code} (read-only)")
        print_link_types([("home", home_links), (forum, forum_links), (topic, topic_links)],
                         page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
