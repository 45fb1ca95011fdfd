"""A real GNU Mailman 3 list archive, HyperKitty 1.3.12 (from PyPI, on Django 4.2), on
127.0.0.1 with generated mail.

The crawler's first mailing-list archive, a classic target of institutional web archives,
and a site no crawler setting was tuned on. HyperKitty is Mailman 3's archiver: Mailman core
hands it each list's mail and it serves the archive as a Django app. Here there is no Mailman
core: the site is a small Django project as HyperKitty's own test project writes one
(hyperkitty/tests/settings_test.py and urls_test.py: HyperKitty's URLs at the root,
django-mailman3's beside them, allauth's sign-in and sign-up under /accounts/), SQLite, a
Whoosh full-text index, and HyperKitty's stylesheet compiled from its Sass once at build time
(django-compressor offline, as mailman-web deploys it).

    build(folder)       fresh archive in folder: the project (PROJECT_FILES), the schema, the
                        lists (MailingList rows holding what HyperKitty would copy from Mailman
                        core) and their mail from a generator (deterministic for n_threads,
                        seed), written as one mbox per list and imported by HyperKitty's own
                        `hyperkitty_import --no-sync-mailman` (which threads the mail by
                        In-Reply-To), then `update_index_one_list` (the search index)
    serve(folder)       HyperKitty under waitress (threaded) on a free port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every thread page and every message page (the UCC)

HyperKitty and its dependencies live in a venv of their own (HyperKitty 1.3.12, Django 4.2
LTS, django-mailman3 1.3.15, allauth, django-compressor, django-haystack with Whoosh,
django-q2, libsass for the stylesheet), named by ARCHIVER_HYPERKITTY_VENV (default: hkvenv in
the temporary directory, /tmp/hkvenv); `available()` says how to create it. HyperKitty 1.3.12
and django-mailman3 declare django>=4.2,<5.1: the venv pins 4.2, the LTS. Everything the site
runs goes through the helper script HELPER (its shared parts:
`benchmarks.realsite.helpertext`), run by that venv's python.

Without Mailman core: the REST API's URL is a closed port on the loopback
(http://127.0.0.1:9, refused at once) and the import skips the sync (--no-sync-mailman). A
guest's pages do not need it: the thread and message views ask Mailman whether the user owns
the list (`MailingList.is_owner`, a REST call on every view) and take the refused connection
as "no"; what needs Mailman is behind a login (posting, replying, the user's subscriptions,
and /user-profile/, /profile/ redirect a guest to the sign-in page). The senders have no
Mailman user, so no message links a sender's profile (/users/ID/).

The server is read-only: 405 to anything but GET and HEAD, the database opened read-only
(SQLite mode=ro), sessions in signed cookies, the search index updated only at build time
(haystack's BaseSignalProcessor), the cached figures (recent threads, top posters, ...) in
each process's memory, and the thread view's one write (the reader's LastView) only for
signed-in users. No mail is sent (a dummy backend). Gravatar images are on another host
(HyperKitty's default); nothing the server fetches leaves 127.0.0.1.

The UCC (`entities`): every thread page and every message page. A thread page is the
discussion (the subject, the first message, then every reply in the reply tree, with who
answered whom); a message page is one email with its headers, the URL Mailman writes into
the Archived-At header of every list mail and the one mail citations use. The thread page
repeats the messages' text, so the two overlap; both are counted because an archive of the
list is expected to replay both the permalinks and the discussions. One catch, measured in the
results: HyperKitty puts the replies into a thread page's HTML only for a user agent its
robot_detection package calls a robot (wget's is one, and archiver's default since session 35,
"archiver-bot/0.1 (+https://...)"; the earlier "archiver/0.1" was not) or for ?noscript;
anyone else gets the first message
and a script that loads the replies as JSON (/thread/ID/replies?offset=N, six at a time) plus
a <noscript> link to ?noscript. `entity_of` goes by the URL alone, so a thread page counts
whichever the crawler received.

What a guest meets: the index (/) lists the lists (sortable: ?sort=name, active, popular,
creation); a list's overview (/list/NAME@DOMAIN/) holds the month links and loads the recent,
popular and top threads and the top posters by script (/list/NAME@DOMAIN/recent-threads,
...: HTML fragments, no <html>); "latest" (/list/NAME@DOMAIN/latest) and every month
(/list/NAME@DOMAIN/2025/3/) list threads, ten a page (?page=N, the pager linking the first,
last and neighbouring pages, page 1 also as ?page=1), and every thread list links every
month of the list (66 list-months in the default build) and an mbox export of what it
shows (gzipped mbox, /list/NAME@DOMAIN/export/NAME.mbox.gz?start=...&end=..., a download as
big as the period);
a thread page links its first message's page, the thread under ?sort=date and ?noscript (the
same messages), the previous and next thread and the thread's mbox export; a message page
links its thread. Every page links "Sign in" and "Sign up" (/accounts/login/?next=PATH,
/accounts/signup/?next=PATH: a URL per page), and a thread list "Start a new thread"
(message/new, a redirect to the sign-in). The search (/search?q=, paged) is a form. The
feeds (/list/NAME@DOMAIN/feed/) are linked from no page a guest sees (the <link> in the
head names them). There is no robots.txt and no favicon.ico (404).

    python -m benchmarks.realsite.hyperkitty /tmp/hkbench    # build, serve, smoke test
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
from benchmarks.realsite.words import FIRST, LAST, NOUNS, PLACES, WORDS, thread_times
from benchmarks.realsite.words import mail_quote as _quote
from benchmarks.realsite.words import mail_wrap as _wrap
from benchmarks.realsite.words import paragraph as _paragraph
from benchmarks.realsite.words import sentence as _sentence

VENV = Path(os.environ.get("ARCHIVER_HYPERKITTY_VENV")
            or Path(tempfile.gettempdir()) / "hkvenv")
HYPERKITTY_VERSION = "1.3.12"
DJANGO_VERSION = "4.2.30"
INSTALL = (f"python3.12 -m venv {VENV} && {VENV}/bin/pip install hyperkitty=="
           f"{HYPERKITTY_VERSION} django=={DJANGO_VERSION} django-mailman3==1.3.15 "
           f"Whoosh==2.7.4 libsass==0.23.0 waitress  (python3.12, as tested; HyperKitty "
           f"1.3.12 and django-mailman3 declare django>=4.2,<5.1)")
VERSION = 1  # of the generator and helper; part of the reuse marker
MAIL_DOMAIN = "lists.example.org"
UCC_TYPES = {"thread", "message"}
TARGET_TYPE = "thread"  # source-target's example is a thread
DESCRIPTION = ("HyperKitty 1.3.12 (Django 4.2, django-mailman3 1.3.15, SQLite, Whoosh, no "
               "Mailman core), {size} generated threads in 3 lists "
               "(`benchmarks/realsite/hyperkitty.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("thread", "message", "thread_json", "index", "list", "month", "search",
              "feed", "export", "user", "login", "write", "api", "static", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): a month's
# archive and the latest threads are both hyperkitty/thread_list.html
SAME_TEMPLATE = {"month": "thread_list"}
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico",
              ".woff", ".woff2", ".ttf", ".eot", ".otf", ".map", ".txt", ".scss")

# The project around HyperKitty, as its own test project (hyperkitty/tests/settings_test.py
# and urls_test.py) and mailman-web's settings write one
SETTINGS = '''"""Written by benchmarks/realsite/hyperkitty.py: a throwaway HyperKitty archive on
127.0.0.1, set up as HyperKitty's test project and mailman-web's settings do, without
Mailman core."""
import os
import sys

BASE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEBUG = False
SECRET_KEY = "realsite-bench-secret"  # fixed: the same signed cookies every build
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
SITE_ID = 1
# No Mailman core: its REST API is a closed port on the loopback (connections refused at
# once; HyperKitty treats that as "Mailman is down")
MAILMAN_REST_API_URL = "http://127.0.0.1:9"
MAILMAN_REST_API_USER = "restadmin"
MAILMAN_REST_API_PASS = "restpass"
MAILMAN_ARCHIVER_KEY = "realsite-bench-archiver-key"
MAILMAN_ARCHIVER_FROM = ("127.0.0.1", "::1")
INSTALLED_APPS = [
    "hyperkitty",
    "django_mailman3",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.sites",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "django_gravatar",
    "compressor",
    "haystack",
    "django_extensions",
    "django_q",
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
]
MIDDLEWARE = [
    "allauth.account.middleware.AccountMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.security.SecurityMiddleware",
]
ROOT_URLCONF = "archive.urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.debug",
        "django.template.context_processors.i18n",
        "django.template.context_processors.media",
        "django.template.context_processors.static",
        "django.template.context_processors.tz",
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
        "django_mailman3.context_processors.common",
        "hyperkitty.context_processors.common",
    ]},
}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3",
                         "NAME": os.path.join(BASE_DIR, "archive.sqlite3")}}
if os.environ.get("HYPERKITTY_BENCH_READ_ONLY"):  # the server's: SQLite opened read-only
    DATABASES["default"]["NAME"] = "file:" + DATABASES["default"]["NAME"] + "?mode=ro"
    DATABASES["default"]["OPTIONS"] = {"uri": True}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"  # no session rows
EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "/static/"
STATIC_ROOT = os.path.join(BASE_DIR, "static")
STATICFILES_FINDERS = (
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "compressor.finders.CompressorFinder",
)
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "hk_root"
LOGOUT_URL = "account_logout"
AUTHENTICATION_BACKENDS = (
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
)
ACCOUNT_AUTHENTICATION_METHOD = "username_email"
ACCOUNT_EMAIL_REQUIRED = True
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
# HyperKitty's stylesheet is Sass: compiled once at build time (COMPRESS_OFFLINE, as
# mailman-web deploys it), by libsass's command line
COMPRESS_ENABLED = True
COMPRESS_OFFLINE = True
COMPRESS_PRECOMPILERS = (
    ("text/x-scss", os.path.join(os.path.dirname(sys.executable), "pysassc")
     + " -t compressed {infile} {outfile}"),
)
HAYSTACK_CONNECTIONS = {"default": {
    "ENGINE": "haystack.backends.whoosh_backend.WhooshEngine",
    "PATH": os.path.join(BASE_DIR, "fulltext_index"),
}}
HAYSTACK_SIGNAL_PROCESSOR = "haystack.signals.BaseSignalProcessor"  # no writes on GET
Q_CLUSTER = {"retry": 60, "timeout": 30, "orm": "default", "sync": True}
FILTER_VHOST = False
SHOW_INACTIVE_LISTS_DEFAULT = True
LOGGING = {"version": 1, "disable_existing_loggers": False,
           "handlers": {"console": {"class": "logging.StreamHandler"}},
           "root": {"handlers": ["console"], "level": "WARNING"},
           "loggers": {"django_mailman3.lib.mailman": {"level": "CRITICAL"},
                       "hyperkitty": {"level": "ERROR"}}}
'''
URLS = '''"""Written by benchmarks/realsite/hyperkitty.py: HyperKitty at the root, as its test
project (hyperkitty/tests/urls_test.py) has it."""
from django.conf.urls import include
from django.urls import path

urlpatterns = [
    path("", include("hyperkitty.urls")),
    path("", include("django_mailman3.urls")),
    path("accounts/", include("allauth.urls")),
]
'''
PROJECT_FILES = {
    "archive/__init__.py": "",
    "archive/settings.py": SETTINGS,
    "archive/urls.py": URLS,
}

HELPER = '''"""Run by benchmarks/realsite/hyperkitty.py with HyperKitty's venv (python -I), in the
archive's folder (the project: archive/settings.py, archive/urls.py): "install" (schema,
static files, the compiled stylesheet), "content" (the JSON spec on stdin: lists and their
mail, imported as mbox files by hyperkitty_import; writes entities.jsonl), "serve PORT
THREADS" (read-only, GET and HEAD only)."""
import datetime as dt
import json
import mailbox
import os
import sys
import warnings
from email.message import EmailMessage
from email.utils import format_datetime

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # the project's package archive (python -I leaves the folder out)
sys.dont_write_bytecode = True
warnings.simplefilter("ignore")


def setup(read_only=False):
    os.environ["DJANGO_SETTINGS_MODULE"] = "archive.settings"
    if read_only:
        os.environ["HYPERKITTY_BENCH_READ_ONLY"] = "1"
    import django

    django.setup()


def write_mbox(path, messages):
    """An mbox as Mailman's archiver hands mail over: each message with its envelope
    sender and archived date on the From_ line."""
    box = mailbox.mbox(path, create=True)
    for m in messages:
        when = dt.datetime.fromisoformat(m["date"])
        msg = EmailMessage()
        msg["From"] = '"%s" <%s>' % (m["name"], m["address"])
        msg["To"] = m["list"]
        msg["Subject"] = m["subject"]
        msg["Date"] = format_datetime(when)
        msg["Message-ID"] = m["message_id"]
        if m["in_reply_to"]:
            msg["In-Reply-To"] = m["in_reply_to"]
            msg["References"] = " ".join(m["references"])
        msg["List-Id"] = m["list_id"]
        msg.set_content(m["body"])
        entry = mailbox.mboxMessage(msg)
        entry.set_from(m["address"], when.astimezone(dt.timezone.utc).timetuple())
        box.add(entry)
    box.flush()
    box.close()


def content(spec):
    setup()
    fast_sqlite()
    from django.contrib.sites.models import Site
    from django.core.management import call_command

    # the static files and HyperKitty's stylesheet compiled from its Sass, once, as
    # mailman-web's deployment does (collectstatic, compress): no file is written at a GET
    call_command("collectstatic", interactive=False, verbosity=0)
    call_command("compress", verbosity=0)

    from hyperkitty.models import Email, MailingList, Thread

    Site.objects.filter(pk=1).update(domain="127.0.0.1", name=spec["site_name"])
    for ml in spec["lists"]:
        # what update_from_mailman would copy from Mailman core's list settings
        MailingList.objects.create(
            name=ml["name"], list_id=ml["list_id"], display_name=ml["display_name"],
            description=ml["description"], subject_prefix=ml["subject_prefix"],
            created_at=dt.datetime.fromisoformat(ml["created_at"]))
        path = os.path.join(HERE, "mbox", ml["name"].split("@")[0] + ".mbox")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_mbox(path, [m for m in spec["messages"] if m["list"] == ml["name"]])
        call_command("hyperkitty_import", path, list_address=ml["name"],
                     no_sync_mailman=True, verbosity=0)
        call_command("update_index_one_list", ml["name"], verbosity=0)
    with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
        for thread in Thread.objects.select_related("mailinglist").order_by("pk"):
            out.write(json.dumps({
                "type": "thread", "id": thread.thread_id,
                "list": thread.mailinglist.name, "emails": thread.emails.count(),
                "month": thread.date_active.strftime("%Y/%m"),
                "path": "/list/%s/thread/%s/" % (thread.mailinglist.name,
                                                  thread.thread_id)}) + "\\n")
        for email in Email.objects.select_related("mailinglist", "thread").order_by("pk"):
            out.write(json.dumps({
                "type": "message", "id": email.message_id_hash,
                "list": email.mailinglist.name, "thread": email.thread.thread_id,
                "path": "/list/%s/message/%s/" % (email.mailinglist.name,
                                                   email.message_id_hash)}) + "\\n")


def serve(port, threads):
    setup(read_only=True)
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.wsgi import get_wsgi_application

    app = StaticFilesHandler(get_wsgi_application())  # /static/: HyperKitty's CSS, JS, fonts
    serve_read_only(app, port, threads, "hyperkitty")
''' + DJANGO + SERVE + MAIN

SITE_NAME = "Realkitty list archives"
# The lists: (name, display name, description, subject prefix, weight of new threads)
LISTS = [
    ("users", "Workbench users", "Help and questions from the people who use the tools.",
     "[Users] ", 6),
    ("devel", "Workbench development", "Patches, design and release planning.",
     "[Devel] ", 4),
    ("announce", "Workbench announcements", "Releases and news; low traffic.", "", 1),
]
ANNOUNCE = 2  # its threads are started by the maintainers and get few replies
TITLES = ["{A} {b} question", "Problem with {a} {b}", "[PATCH] Fix {a} {b}",
          "{A} or {b}?", "How do I set up the {a} {b}?", "RFC: {a} {b} {c}",
          "Notes on {a} and {b}", "{A} {b} stopped working after upgrade",
          "Proposal: drop the {a} {b}", "Is anyone using the {a} {b}?"]
DOMAINS = ["example.org", "example.net", "example.com", "mail.example.org"]


def _replies(rng: random.Random, announce: bool) -> int:
    """Replies to a thread: a third get none, most of the rest a few, some run long."""
    r = rng.random()
    if announce:
        return 0 if r < 0.6 else rng.randint(1, 3)
    for share, low, high in ((0.30, 0, 0), (0.80, 1, 4), (0.95, 5, 12)):
        if r < share:
            return rng.randint(low, high)
    return rng.randint(13, 40)


def _senders(rng: random.Random, n: int = 40) -> list[dict[str, Any]]:
    """n senders (the first three maintain the project), each with an address, a time zone
    and, for some, a signature."""
    names = rng.sample([(f, last) for f in FIRST for last in LAST], n)
    out = []
    for first, last in names:
        local = rng.choice([f"{first}.{last}", f"{first[0]}{last}", f"{first}{rng.randint(1, 99)}",
                            f"{last}.{first[0]}"]).lower()
        out.append({"name": f"{first} {last}", "address": f"{local}@{rng.choice(DOMAINS)}",
                    "tz": rng.choice([-300, -240, 0, 60, 120, 330, 540]),
                    "signature": rng.random() < 0.3 and f"{first} -- {rng.choice(PLACES)}",
                    "activity": rng.paretovariate(1.1)})
    for s in out[:3]:
        s["activity"] = 10.0
    return out






def generate(n_threads: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """The lists and their mail, oldest first (the helper's "content" mode): threads started
    over two years, replies to earlier messages of the thread (mostly the latest), most
    quoting their parent."""
    rng = random.Random(seed)
    senders = _senders(rng)
    weights = [s["activity"] for s in senders]
    end = now - dt.timedelta(minutes=30)
    lists = [{"name": f"{n}@{MAIL_DOMAIN}", "list_id": f"{n}.{MAIL_DOMAIN}",
              "display_name": d, "description": text, "subject_prefix": prefix,
              "created_at": (now - dt.timedelta(days=760)).isoformat()}
             for n, d, text, prefix, _ in LISTS]
    messages: list[dict[str, Any]] = []
    for i in range(n_threads):
        k = rng.choices(range(len(LISTS)), [w for *_, w in LISTS])[0]
        start = now - dt.timedelta(days=730 * (1 - i / n_threads), seconds=rng.randint(0, 80_000))
        times = thread_times(rng, start, end, _replies(rng, k == ANNOUNCE), min_gap=60.0)
        a, b, c = rng.sample(NOUNS, 3)
        title = (f"Workbench {rng.randint(1, 4)}.{rng.randint(0, 12)} released" if k == ANNOUNCE
                 else rng.choice(TITLES).format(A=a.capitalize(), a=a, b=b, c=c))
        thread: list[dict[str, Any]] = []
        for n, when in enumerate(times):
            pool = senders[:3] if k == ANNOUNCE and n == 0 else senders
            who = rng.choices(pool, weights[:len(pool)])[0]
            parent = None
            if n:
                parent = thread[-1] if rng.random() < 0.6 else rng.choice(thread)
            parts = [_wrap(_paragraph(rng, (1, 4))) for _ in range(rng.randint(1, 3))]
            if parent is not None and rng.random() < 0.85:
                parts.insert(0, _quote(parent["name"], dt.datetime.fromisoformat(
                    parent["date"]), parent["body"]))
            if k == 1 and rng.random() < 0.15:  # a patch or a config snippet
                parts.append("\n".join(f"+    {rng.choice(NOUNS)} = {rng.choice(WORDS)}"
                                       for _ in range(rng.randint(2, 6))))
            body = "\n\n".join(parts)
            if who["signature"]:
                body += f"\n\n-- \n{who['signature']}"
            local = when.astimezone(dt.timezone(dt.timedelta(minutes=who["tz"])))
            mid = f"<{seed}.{i}.{n}.{rng.randrange(16 ** 8):08x}@{who['address'].split('@')[1]}>"
            subject = (LISTS[k][3] + ("Re: " if n else "")
                       + (title if n == 0 or rng.random() > 0.03
                          else f"{_sentence(rng, (3, 6))[:-1]} (was: {title})"))
            thread.append({
                "list": lists[k]["name"], "list_id": f"<{lists[k]['list_id']}>",
                "name": who["name"], "address": who["address"], "date": local.isoformat(),
                "subject": subject, "message_id": mid, "body": body,
                "in_reply_to": parent and parent["message_id"],
                "references": [*(parent["references"] if parent else []),
                               *([parent["message_id"]] if parent else [])]})
        messages += thread
    messages.sort(key=lambda m: dt.datetime.fromisoformat(m["date"]))
    return {"site_name": SITE_NAME, "lists": lists, "messages": messages}


def available() -> str | None:
    """None if HyperKitty's venv is there, else how to make it."""
    return venv_missing(VENV, "hyperkitty", HYPERKITTY_VERSION, "ARCHIVER_HYPERKITTY_VENV",
                        INSTALL)


def build(folder: Path, n_threads: int = 300, seed: int = 0) -> Path:
    """Build a fresh archive in folder, or reuse the one there if built with these
    parameters. Returns folder."""
    return build_helper_site(
        folder, VENV, {"n_threads": n_threads, "seed": seed, "version": VERSION},
        "HyperKitty archive", HELPER, lambda now: generate(n_threads, seed, now),
        write_files(PROJECT_FILES))


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the archive built in folder (waitress with `workers` threads, read-only) on a
    free port; yields the home URL."""
    with serve_helper(VENV, folder, workers, "hyperkitty") as seed:
        yield seed


# /list/L/<word>: a list's overview fragments (the overview page loads them by script)
LIST_FRAGMENTS = {"recent-activity", "recent-threads", "pop-threads", "top-threads",
                  "favorites", "posted-to", "top-posters"}
# /list/L/thread/T/<word> and /list/L/message/H/<word>: forms and actions behind a login
THREAD_WRITE = {"tags", "suggest-tags", "favorite", "category", "reattach",
                "reattach-suggest", "delete"}
MESSAGE_WRITE = {"vote", "reply", "delete"}


def _list_type(segs: list[str]) -> str:
    """/list/NAME@DOMAIN/...: the overview and its fragments, the month archives, a thread,
    a message, the feed, the mbox exports, or a form behind a login."""
    if "@" not in segs[1]:  # /list/LIST-ID/...: HyperKitty's redirect from old URLs
        return "other"
    rest = segs[2:]
    if not rest:
        return "list"
    head, n = rest[0], len(rest)
    if n == 1 and head in LIST_FRAGMENTS:
        return "list"
    if head == "latest" and n == 1:
        return "month"
    if head.isdigit() and len(head) == 4 and all(s.isdigit() for s in rest) and n <= 3:
        return "month"  # /YYYY/MM/ and /YYYY/MM/DD/
    if n == 1 and head[:4].isdigit() and head[4:5] == "-":
        return "month"  # /YYYY-Month/: Mailman 2's archive URL, kept by HyperKitty
    if head == "export":
        return "export"
    if head == "feed":
        return "feed"
    if head == "delete":
        return "write"
    if head == "thread" and n >= 2:
        if n == 2:
            return "thread"
        return ("thread_json" if rest[2] == "replies" and n == 3
                else "write" if rest[2] in THREAD_WRITE else "other")
    if head == "message" and n >= 2:
        if n == 2:
            return "write" if rest[1] == "new" else "message"
        if rest[2] == "attachment":
            return "static"
        return "write" if rest[2] in MESSAGE_WRITE else "other"
    return "other"


def page_type(url: str) -> str:
    """Ground truth from the URL alone (HyperKitty's routes at the root, django-mailman3's
    and allauth's beside them, as its test project has them), in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - /static/... or a static file: "static"
    - / (?sort=, ?page=): "index" (the lists)
    - /list/NAME@DOMAIN/: "list" (the overview), and the fragments its script loads
      (recent-threads, top-threads, pop-threads, top-posters, recent-activity, favorites,
      posted-to); /list/NAME@DOMAIN/latest, /YYYY/MM/ and /YYYY/MM/DD/ (?page=N): "month"
      (thread lists), as is /YYYY-Month/ (Mailman 2's archive URL);
      /list/NAME@DOMAIN/thread/ID/ (any query: ?noscript, ?sort=date): "thread";
      .../thread/ID/replies (?offset=N): "thread_json" (the replies as JSON, for the
      page's script); /list/NAME@DOMAIN/message/HASH/: "message"; its attachments: "static";
      /list/NAME@DOMAIN/feed/: "feed"; .../export/FILE.mbox.gz: "export" (gzipped mbox);
      message/new, message/HASH/reply, vote, delete, thread/ID/tags, favorite, reattach,
      ... and delete/: "write" (login walled or POST only)
    - /search (?q=, ?page=N): "search"
    - /users/ and /users/ID/ (/posts): "user"
    - /accounts/..., /profile/..., /user-profile/...: "login" (allauth's sign-in and
      sign-up, and the pages that redirect to them)
    - /api/... and /find-list: "api" (JSON)
    - anything else (/categories/, /tags/, /lists/, /listinfo/, /pipermail/ and
      /list/LIST-ID/ redirects, /robots.txt is static by its extension): "other"."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    if not segs:
        return "index"
    head = segs[0]
    if head == "static" or path.lower().endswith(STATIC_EXT):
        return "static"
    if head == "list" and len(segs) >= 2:
        return _list_type(segs)
    if head == "search":
        return "search"
    if head == "users":
        return "user"
    if head in ("accounts", "profile", "user-profile"):
        return "login"
    if head in ("api", "find-list"):
        return "api"
    return "other"


def entity_of(url: str) -> str | None:
    """The UCC page a URL shows: "thread NAME@DOMAIN ID" for a view of a thread (any query:
    ?noscript and ?sort=date are the same messages), "message NAME@DOMAIN HASH" for a
    message's page; None for anything else (the list name is part of the key: HyperKitty
    answers 404 for a thread or message under another list)."""
    kind = page_type(url)
    if kind not in UCC_TYPES:
        return None
    segs = [unquote(s) for s in urlsplit(url).path.split("/") if s]
    return f"{kind} {segs[1]} {segs[3]}"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every thread page and every message page, as the archive links them
    (/list/NAME@DOMAIN/thread/ID/, /list/NAME@DOMAIN/message/HASH/); give the server (e.g.
    "http://127.0.0.1:8123") to get absolute URLs."""
    return entity_urls(folder, server)


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: threads, messages, messages per thread, by list."""
    rows = entity_rows(folder)
    threads = [r for r in rows if r["type"] == "thread"]
    sizes = Counter(min(r["emails"], 10) for r in threads)
    return {"threads": len(threads), "messages": sum(r["type"] == "message" for r in rows),
            "threads_per_list": dict(Counter(r["list"] for r in threads).most_common()),
            "months": len({(r["list"], r["month"]) for r in threads}),
            "messages_per_thread (10 = 10 or more)": dict(sorted(sizes.items())),
            "longest_thread": max(r["emails"] for r in threads)}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "threads", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        home_links = smoke.home_links
        mlist = next(u for u in sorted(home_links) if page_type(u) == "list")
        latest = mlist + "latest"
        latest_links = same_host_links(requests.get(latest, timeout=30).content, latest)
        thread = next(u for u in sorted(latest_links) if page_type(u) == "thread")
        thread_links = same_host_links(requests.get(thread, timeout=30).content, thread)
        first = {page_type(u): u for u in sorted(home_links | latest_links | thread_links,
                                                 reverse=True)}
        smoke_fetch([seed, mlist, latest, thread, *first.values(), f"{server}/search?q=bread",
                     f"{server}/accounts/login/", f"{server}/robots.txt"], page_type,
                    follow_redirects=False)
        for agent in ("archiver/0.1", "archiver-bot/0.1", "Wget/1.21.3"):  # robot detection
            html = requests.get(thread, timeout=30, headers={"User-Agent": agent}).text
            bodies = html.count('class="email-body')
            print(f"{agent}: {bodies} message bodies on {thread}")
        print(f"{len(ucc)} UCC pages; POST {requests.post(seed, timeout=30).status_code} "
              f"(read-only)")
        print_link_types([("home", home_links), (latest, latest_links),
                          (thread, thread_links)], page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
