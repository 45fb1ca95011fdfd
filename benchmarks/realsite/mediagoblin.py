"""A real GNU MediaGoblin 0.9.0 media-publishing site (from PyPI, on Python 2.7), on
127.0.0.1 with generated users, images, comments and collections.

The media family's second real site, after `benchmarks.realsite.photologue`, and a media
platform no crawler setting was tuned on: MediaGoblin is the GNU project's Flickr/YouTube-like
site (users upload images, video, audio; each upload has its own page), and 0.9.0 (March
2016) is the release its public instances ran for years. This one is a single instance as
its deployment guide makes it: the shipped mediagoblin.example.ini as the site's
mediagoblin.ini (the plugins geolocation, basic_auth, processing_info and the image media
type; registration, reporting and comments on; the default theme), SQLite, the shipped
paste.ini's pipeline (`egg:mediagoblin#app`, MediaGoblin's own static-file mounts
/mgoblin_static/, /mgoblin_media/, /theme_static/, /plugin_static/), `gmg assetlink`, and
media processing run synchronously in the request (celery's CELERY_ALWAYS_EAGER, the
configuration MediaGoblin's own lazyserver.sh uses: no broker, no celery worker).

    build(folder)       fresh site in folder: mediagoblin.ini (CONFIG), then the helper's
                        "install" (paste.ini, the database, `gmg assetlink`) and "content":
                        users made by `gmg adduser` (the first one `gmg makeadmin`), then
                        every profile, upload, comment and collection from a generator
                        (deterministic for n_media, seed) posted through MediaGoblin's own
                        views and forms (webtest, logged in as each user: /u/USER/edit/,
                        /submit/ with a JPEG drawn by Pillow, processed by MediaGoblin's image
                        media type into a thumbnail, a medium size and the original as a real
                        upload is, .../comment/add/, .../collect/), at the generator's times
                        (MediaGoblin's timestamps come from its clock while it builds)
    serve(folder)       the paste.ini pipeline under waitress (threaded), read-only, on a free
                        port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every media entry's page and every collection's (the UCC)

MediaGoblin 0.9.0 is a Python 2.7 program (its Python 3 support was experimental); it and its
dependencies, pinned to their versions of early 2016 (SQLAlchemy 1.0, celery 3.1, WTForms
2.1, Jinja2 2.8, Werkzeug 0.11, ...), live in a venv of their own, named by
ARCHIVER_MEDIAGOBLIN_VENV (default: mgbvenv in the temporary directory, /tmp/mgbvenv);
`available()` says how to create it. Everything the site runs goes through the helper
script HELPER (its shared parts: `benchmarks.realsite.helpertext`'s SERVE, JPEG and MAIN,
which are Python 2 too), run by that venv's python (-E -s: Python 2 has no -I). The PyPI
sdist of 0.9.0 leaves out alembic.ini and mediagoblin/db/migrations/ (alembic's scripts,
there in a git checkout, the install the 0.9.0 guide describes), so `gmg dbupdate` stops
with "No 'script_location' key found in configuration"; the helper makes the database as
dbupdate does for a fresh one otherwise: every table of the core and of each plugin from
MediaGoblin's own models (`run_all_migrations`, recorded at their latest migration) and the
foundations (the privileges, `run_foundations`). The sdist has no compiled translations
(English only) and no bower-fetched jQuery (/mgoblin_static/js/extlib/jquery.js is a 404;
no crawler here fetches scripts). The server is read-only: 405 to anything but GET and HEAD,
and SQLite opened read-only (mode=ro); MediaGoblin's sessions are signed cookies, and a page
view writes nothing.

The UCC (`entities`): every media entry's page (/u/USER/m/SLUG/: the medium-size image,
linking the original when the upload was larger than 640 pixels, the title, the
description, when it was added, its tags, the collections it is in, its license, and links to
the uploader's previous and next entry) and every collection's page
(/u/USER/collection/SLUG/: its title and description, the curator's chosen entries with
their notes, any user's uploads): a collection is a user's own creation, as a photologue
gallery is. Not UCC: a user's page (/u/USER/: the few lines of a profile, bio, website and
hometown, then the latest uploads: like a blog's author page, which the blog sites do not
count), the user's gallery (/u/USER/gallery/, 30 a page) and tag galleries, the site's tag
pages and the home page: listings of entries, with nothing of their own. A media entry's
comments are part of its page, but MediaGoblin 0.9.0 shows them only to a logged-in user
with the commenter privilege (the media template's `{% if request.user and
request.user.has_privilege('commenter') %}` holds the comment list, the form and the
comments' pagination): a guest, and so every crawler, sees the image, its text and sidebar
and no comment, and no page links a comment's permalink (/u/USER/m/SLUG/c/ID/, another URL
of the entry's page, highlighting that comment: it is linked only from the notification
emails). The comments are made anyway, as the site's users would have them (in the
database, in the notifications and the activities).

What a guest meets: the header (the logo to /, "Log in" to /auth/login/) and the footer
(MediaGoblin's, GNU's, the AGPL's and the source code's sites: off the host). The home page
/: a welcome text ("Create an account at this site", /auth/register/), "Most recent media",
30 thumbnails a page, each image and title linking its entry, "← Newer", "Older →" and "Go
to page:" links (?page=N, a window of page numbers; "← Newer" from page 2 is /?page=1,
another URL of /), the site's Atom feed (/atom/). A media entry's page: "Browsing media by
USER" (/u/USER/), "← newer" and "older →" (the uploader's neighbouring entries), the
image, the title and the description, then "Added" (how long ago), "Tagged with" (each tag
the uploader's tag gallery, /u/USER/tag/TAG/), "Collected in" (each collection and its
curator), "Report media" (/u/USER/m/SLUG/report/, a 302 to /auth/login/?next=URL) and the
license (a Creative Commons deed, off the host, or "All rights reserved"). A user's page:
the bio, the website (off the host; "http://", a link to nothing, for a user who left the
field empty: MediaGoblin's website field puts http:// before whatever it is sent), the
hometown, "Browse collections" (/u/USER/collections/), then the first page of the user's
gallery (30 thumbnails, with the gallery's page links /u/USER/gallery/?page=N), "View all of
USER's media" (/u/USER/gallery/) and the user's Atom feed (/u/USER/atom/); a user who
uploaded nothing shows "There doesn't seem to be any media here yet...". The gallery and a
user's tag gallery: 30 thumbnails a page (?page=N, ?page=1 another URL of the first), the
feed; a user's tag gallery links the site's tag page (/tag/TAG/, every user's entries with
the tag, 30 a page, with its feed /tag/TAG/atom/). A user's collections: a link to each. A
collection's page: "TITLE by USER", the description, each entry's thumbnail (and the
curator's note, when there is one, as a second link to it), the feeds. Every form and
action (submit, edit, collect, comment, report, the processing panel) is a 302 to the login
form for a guest; the login form links register and "Forgot your password?". Redirects: a
path without its trailing slash is a 301 to it (Werkzeug's strict slashes). A page of a
listing past its last is a 200 with nothing in it. No page says noindex; there is no
robots.txt and no sitemap; /favicon.ico is a 404 (the pages name
/mgoblin_static/images/goblin.ico).

    python -m benchmarks.realsite.mediagoblin /tmp/mgbbench    # build, serve, smoke test
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

from benchmarks.realsite.helpertext import JPEG, MAIN, SERVE
from benchmarks.realsite.photologue import SUBJECTS, image_spec
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
from benchmarks.realsite.words import FIRST, LAST, NOUNS, PLACES, user_name
from benchmarks.realsite.words import paragraph as _paragraph
from benchmarks.realsite.words import sentence as _sentence
from benchmarks.realsite.words import slug as _slug

VENV = Path(os.environ.get("ARCHIVER_MEDIAGOBLIN_VENV")
            or Path(tempfile.gettempdir()) / "mgbvenv")
MEDIAGOBLIN_VERSION = "0.9.0"
# MediaGoblin 0.9.0 names its dependencies without versions; these are their releases of
# early 2016 (the ones after break it: SQLAlchemy 1.1+ with its sqlalchemy-migrate, celery 4,
# WTForms 3, Werkzeug 1.0, ...), and the Python 2.7 builds of Pillow and lxml it imports
PINS = ("SQLAlchemy==1.0.12 alembic==0.8.5 sqlalchemy-migrate==0.10.0 celery==3.1.23 "
        "kombu==3.0.35 billiard==3.3.0.23 WTForms==2.1 Jinja2==2.8 MarkupSafe==0.23 "
        "Werkzeug==0.11.4 Babel==2.2.0 WebTest==2.0.20 Markdown==2.6.5 itsdangerous==0.24 "
        "oauthlib==1.0.3 jsonschema==2.5.1 PasteDeploy==1.5.2 PasteScript==2.0.2 "
        "Paste==2.0.2 pyld==0.6.8 ExifRead==2.1.2 py-bcrypt==0.4 mock==1.0.1 "
        "Unidecode==0.4.19 six==1.10.0 Sphinx==1.3.6 sphinx-rtd-theme==0.1.9 pytest==2.9.1 "
        "pytest-xdist==1.14 requests==2.9.1 pytz==2016.3 python-dateutil==2.5.1 "
        "configobj==5.0.6 waitress==0.8.10 Pillow==3.1.1 lxml==3.6.0")
INSTALL = (f"python2.7 -m virtualenv {VENV} && {VENV}/bin/pip install "
           f"mediagoblin=={MEDIAGOBLIN_VERSION} {PINS}  (Python 2.7.18 as tested; virtualenv "
           "from `python2.7 -m pip install --user virtualenv`; Pillow and lxml build from "
           "source: a C compiler, libjpeg, zlib, libxml2 and libxslt headers)")
VERSION = 1  # of the generator and helper; part of the reuse marker
UCC_TYPES = {"entry", "collection"}
TARGET_TYPE = "entry"  # source-target's example is a media entry's page
DESCRIPTION = ("GNU MediaGoblin 0.9.0 on Python 2.7 (its example configuration and paste.ini, "
               "SQLite, processing in the request), {size} generated image uploads with "
               "tags, comments and collections (`benchmarks/realsite/mediagoblin.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("entry", "collection", "home", "user", "gallery", "tag", "collections", "feed",
              "comment", "action", "login", "image", "static", "api", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): a user's tag
# gallery is the user's gallery with the tag's name in its heading (typed "tag" with the
# site's tag pages, which have a template of their own); every other type has its own
SAME_TEMPLATE: dict[str, str] = {}
STATIC_PREFIXES = ("mgoblin_static", "theme_static", "plugin_static")
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico",
              ".woff", ".woff2", ".ttf", ".txt")
SITE_NAME = "Ridgeway Media"
N_USERS = 15
N_UPLOADERS = 12  # the other three comment and collect only

# The site's configuration: mediagoblin.example.ini as a deployment edits it (the site's
# title, the database in the site's folder, processing in the request); the build writes it
CONFIG = {"mediagoblin.ini": '''# written by benchmarks/realsite/mediagoblin.py: MediaGoblin 0.9.0's
# mediagoblin.example.ini, with the site's title and celery run in the request
[DEFAULT]
data_basedir = %(here)s/user_dev

[mediagoblin]
html_title = "''' + SITE_NAME + '''"
direct_remote_path = /mgoblin_static/
email_sender_address = "notice@mediagoblin.example.org"
sql_engine = sqlite:///%(here)s/mediagoblin.db

# Set to false to enable sending notices
email_debug_mode = true

# Set to false to disable registrations
allow_registration = true

# Set to false to disable the ability for users to report offensive content
allow_reporting = true

user_privilege_scheme = "uploader,commenter,reporter"

[storage:queuestore]
base_dir = %(data_basedir)s/media/queue

[storage:publicstore]
base_dir = %(data_basedir)s/media/public
base_url = /mgoblin_media/

[celery]
# media processing in the request, as lazyserver.sh runs it: no broker, no worker
CELERY_ALWAYS_EAGER = true
CELERY_EAGER_PROPAGATES_EXCEPTIONS = true

[plugins]
[[mediagoblin.plugins.geolocation]]
[[mediagoblin.plugins.basic_auth]]
[[mediagoblin.plugins.processing_info]]
[[mediagoblin.media_types.image]]
'''}

HELPER = '''"""Run by benchmarks/realsite/mediagoblin.py with MediaGoblin's venv (Python 2.7), in
the site's folder: "install" (paste.ini, the database, the assets), "content" (the JSON spec on
stdin; writes entities.jsonl and counts.json), "serve PORT THREADS" (read-only, GET and HEAD
only)."""
import argparse
import datetime
import io
import json
import os
import random
import sys
import types
import urllib
import uuid
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG = os.path.join(HERE, "mediagoblin.ini")
PASTE = os.path.join(HERE, "paste.ini")
DB = os.path.join(HERE, "mediagoblin.db")
sys.dont_write_bytecode = True
warnings.simplefilter("ignore")
CLOCK = [None]  # the generator's time while building

# The shipped paste.ini's pipeline and static mounts; /mgoblin_static is the package's own
# static folder (a git checkout's mediagoblin/static)
PASTE_INI = """# written by helper.py: MediaGoblin 0.9.0's paste.ini, its pipeline and mounts
[DEFAULT]
debug = false

[pipeline:main]
pipeline = mediagoblin

[app:mediagoblin]
use = egg:mediagoblin#app
config = %(here)s/mediagoblin.ini
/mgoblin_media = %(here)s/user_dev/media/public
/mgoblin_static = STATIC
/theme_static = %(here)s/user_dev/theme_static
/plugin_static = %(here)s/user_dev/plugin_static
"""


def install():
    import mediagoblin
    from mediagoblin.db.open import setup_connection_and_db_from_config
    from mediagoblin.gmg_commands.assetlink import assetlink
    from mediagoblin.gmg_commands.dbupdate import run_all_migrations, run_foundations
    from mediagoblin.init import setup_global_and_app_config

    fast_sqlite()
    static = os.path.join(os.path.dirname(os.path.abspath(mediagoblin.__file__)), "static")
    with open(PASTE, "w") as out:
        out.write(PASTE_INI.replace("STATIC", static))
    # gmg dbupdate for a fresh database, but alembic's step (its scripts are not in the
    # sdist): the tables of every model, the foundations
    global_config, app_config = setup_global_and_app_config(CONFIG)
    db = setup_connection_and_db_from_config(app_config, migrations=True)
    run_all_migrations(db, app_config, global_config)
    run_foundations(db, global_config)
    assetlink(argparse.Namespace(conf_file=CONFIG))


def fast_sqlite():
    """No fsync while building: the build is redone from scratch if it fails."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    def pragmas(connection, record):
        connection.execute("PRAGMA synchronous=OFF")
        connection.execute("PRAGMA journal_mode=MEMORY")

    event.listen(Engine, "connect", pragmas)


def when(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S")


def use_clock():
    """Every timestamp MediaGoblin writes comes from CLOCK: the models' DateTime defaults
    (datetime.datetime.utcnow) and Activity.save's datetime.datetime.now()."""
    from mediagoblin.db.base import Base
    import mediagoblin.db.models as models
    from sqlalchemy import DateTime

    for table in Base.metadata.tables.values():
        for column in table.columns:
            if isinstance(column.type, DateTime) and column.default is not None \\
                    and column.default.is_callable:
                column.default.arg = lambda ctx: CLOCK[0]

    class Clock(datetime.datetime):
        @classmethod
        def now(cls, tz=None):
            return CLOCK[0]

        utcnow = now

    shim = types.ModuleType("datetime")
    shim.__dict__.update(datetime.__dict__)
    shim.datetime = Clock
    models.datetime = shim


def expect(response, where, what):
    """A post the view accepted: its redirect to `where` (a path ending)."""
    location = response.headers.get("Location", "")
    if response.status_int != 302 or not location.endswith(where):
        raise SystemExit("%s: %s %s, not a redirect to %s\\n%s" % (
            what, response.status, location, where, response.body[:2000]))


def content(spec):
    rng = random.Random(spec["seed"])
    uuid.uuid4 = lambda: uuid.UUID(int=rng.getrandbits(128), version=4)  # the same each build
    from mediagoblin.gmg_commands import users as gmg
    from mediagoblin.gmg_commands import util as gmg_util
    from paste.deploy import loadapp
    from webtest import TestApp

    fast_sqlite()
    app = loadapp("config:" + PASTE)
    # gmg's adduser and makeadmin on this app (each gmg command makes one, and every app
    # made in a process registers the plugins' hooks once more)
    gmg_util.setup_app = lambda args: app
    use_clock()
    users = {u["username"]: u for u in spec["users"]}
    for u in spec["users"]:
        CLOCK[0] = when(u["joined"])
        gmg.adduser(argparse.Namespace(conf_file=CONFIG, username=u["username"],
                                       password=u["password"], email=u["email"]))
        if u["admin"]:
            gmg.makeadmin(argparse.Namespace(conf_file=CONFIG, username=u["username"]))
    clients = {}

    def client(name):
        if name not in clients:
            clients[name] = TestApp(app, extra_environ={"HTTP_HOST": "127.0.0.1"})
            expect(clients[name].post("/auth/login/", {
                "username": name, "password": users[name]["password"]}), "/", "login " + name)
        return clients[name]

    media, collections = [], {}
    for e in spec["events"]:
        CLOCK[0] = when(e["ts"])
        me = client(e["user"])
        if e["kind"] == "profile":
            expect(me.post("/u/%s/edit/" % e["user"], {
                "bio": e["bio"], "url": e["url"], "location": e["location"]}),
                "/u/%s/" % e["user"], "profile")
            account = {"wants_notifications": "y", "license_preference": e["license"]}
            if e["emails"]:
                account["wants_comment_notification"] = "y"
            expect(me.post("/edit/account/", account), "/u/%s/" % e["user"], "account")
        elif e["kind"] == "upload":
            image = e["image"]
            expect(me.post("/submit/", {
                "title": e["title"], "description": e["description"],
                "tags": ", ".join(e["tags"]), "license": e["license"]},
                upload_files=[("file", e["filename"], jpeg(image))]),
                "/u/%s/" % e["user"], "upload")
            media.append((e["user"], len(media) + 1))  # ids in upload order
        elif e["kind"] == "comment":
            owner, media_id = media[e["media"]]
            expect(me.post("/u/%s/m/%d/comment/add/" % (owner, media_id),
                           {"comment_content": e["text"]}), "/", "comment")
        else:  # collect: the first item makes the collection
            owner, media_id = media[e["media"]]
            if e["collection"] in collections:
                form = {"collection": str(collections[e["collection"]]), "note": e["note"]}
            else:
                collections[e["collection"]] = len(collections) + 1
                form = {"collection_title": e["title"], "note": e["note"],
                        "collection_description": e["description"]}
            expect(me.post("/u/%s/m/%d/collect/" % (owner, media_id), form), "/", "collect")
    CLOCK[0] = None
    write_entities(spec, app)


def write_entities(spec, app):
    """entities.jsonl (a row per UCC page: every media entry and collection, each page
    checked to answer 200 to a guest) and counts.json (what the database holds), after
    checking that it holds every upload, comment and collection item of the spec."""
    from mediagoblin.db.models import (
        Collection, CollectionItem, Comment, LocalUser, MediaEntry, Tag)
    from webtest import TestApp

    guest = TestApp(app, extra_environ={"HTTP_HOST": "127.0.0.1"})
    events = [e["kind"] for e in spec["events"]]
    counts = {"users": LocalUser.query.count(),
              "media": MediaEntry.query.filter_by(state=u"processed").count(),
              "comments": Comment.query.count(), "collections": Collection.query.count(),
              "collection_items": CollectionItem.query.count(),
              "tags": Tag.query.count()}
    wanted = {"users": len(spec["users"]), "media": events.count("upload"),
              "comments": events.count("comment"), "collection_items": events.count("collect")}
    for key, n in wanted.items():
        if counts[key] != n:
            raise SystemExit("%s: %d in the database, %d made" % (key, counts[key], n))
    rows = []
    for entry in MediaEntry.query.order_by(MediaEntry.id):
        rows.append({"type": "media", "user": entry.get_actor.username, "slug": entry.slug,
                     "comments": entry.get_comments().count(),
                     "tags": [t["slug"] for t in entry.tags],
                     "files": sorted(entry.media_files.keys()),
                     "path": "/u/%s/m/%s/" % (entry.get_actor.username, entry.slug)})
    for collection in Collection.query.order_by(Collection.id):
        rows.append({"type": "collection", "user": collection.get_actor.username,
                     "slug": collection.slug, "items": collection.num_items,
                     "path": "/u/%s/collection/%s/" % (collection.get_actor.username,
                                                      collection.slug)})
    for row in rows:
        guest.get(row["path"], status=200)
    with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
        for row in rows:
            out.write(json.dumps(row) + "\\n")
    with open(os.path.join(HERE, "counts.json"), "w") as out:
        json.dump(counts, out)


def serve(port, threads):
    import sqlite3

    import mediagoblin.db.open as db_open

    engine = db_open.create_engine
    read_only = "file:%s?mode=ro" % urllib.pathname2url(DB)
    db_open.create_engine = lambda url, **kw: engine(
        url, creator=lambda: sqlite3.connect(read_only), **kw)
    from paste.deploy import loadapp

    serve_read_only(loadapp("config:" + PASTE), port, threads, "mediagoblin")


''' + JPEG + SERVE + MAIN

# What the users photograph: SUBJECTS (photologue's) in PLACES, and tags of their own
STYLE_TAGS = ["bw", "film", "phone", "night", "macro", "street", "landscape", "portrait",
              "snapshot", "longexposure"]
# The licenses a user picks on upload (MediaGoblin's license URLs; "" is "All rights
# reserved"), with their weights
LICENSES = {"": 8, "http://creativecommons.org/licenses/by-sa/3.0/": 4,
            "http://creativecommons.org/licenses/by/3.0/": 3,
            "http://creativecommons.org/licenses/by-nc/3.0/": 2,
            "http://creativecommons.org/licenses/by-nc-sa/3.0/": 2,
            "http://creativecommons.org/publicdomain/zero/1.0/": 1}
COLLECTION_TITLES = ["Favourite {s}", "Best of {p}", "{S} I like", "Club picks: {s}",
                     "{P} walks", "Light and {s}", "The {s} set", "Around {p}"]
# Upload sizes: most larger than MediaGoblin's medium size (640), so the page shows the medium
# and links the original; one in five smaller, shown as uploaded
SIZES = [[800, 600], [800, 600], [600, 800], [960, 640], [480, 360]]


def _stamp(when: dt.datetime) -> str:
    """A time as the helper reads it: ISO 8601 to the second, UTC, without a zone."""
    return when.replace(microsecond=0).isoformat()


def _title(rng: random.Random, subject: str, place: str) -> str:
    return rng.choice([f"{subject.capitalize()} in {place}", f"{place}: {subject}",
                       f"{subject.capitalize()} and {rng.choice(NOUNS)}",
                       f"{subject.capitalize()}, {place}", f"More {subject}",
                       f"{rng.choice(NOUNS).capitalize()} {subject} near {place}"])


def generate(n_media: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """Two years of a photo-sharing instance: 15 users (the first the site's administrator)
    who joined before it, each with a profile (a bio, most a website and a hometown) and
    account settings (a default license; two in five keep MediaGoblin's comment emails on);
    12 of them upload `n_media` images (a few users most of them), each with a title unique
    to its uploader, most with a description and up to four tags (its subject, its place,
    styles), a license (mostly the uploader's default); about 4/3 comments per entry, on
    popular entries most, by other users and the uploader's replies, hours to days after the
    upload; n_media // 40 collections (at least 3), each a user's pick of 6 to 20 entries of
    a subject or a place (any user's) with notes on some. `events` are every profile and
    account edit, upload, comment and collection item in time order."""
    rng = random.Random(seed)
    now = now.replace(tzinfo=None, microsecond=0)
    start = now - dt.timedelta(days=730)
    users: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    for i, (first, last) in enumerate(rng.sample([(f, x) for f in FIRST for x in LAST],
                                                 N_USERS)):
        name = user_name(rng, first, last).lower()
        while name in {u["username"] for u in users}:
            name += str(rng.randint(0, 9))
        joined = start - dt.timedelta(days=rng.uniform(1, 120))
        users.append({"username": name, "password": f"pw-{name}",
                      "email": f"{name}@example.org", "admin": i == 0,
                      "joined": _stamp(joined)})
        events.append({"kind": "profile", "user": name,
                       "ts": _stamp(joined + dt.timedelta(minutes=rng.randint(5, 300))),
                       "bio": rng.choice([f"{first} from {rng.choice(PLACES)}. ",
                                          "Mostly " + rng.choice(SUBJECTS) + ". ", ""])
                       + _sentence(rng, (6, 16)),
                       "url": (f"http://{name.replace('_', '-')}.example.org/"
                               if rng.random() < 0.6 else ""),
                       "location": rng.choice(PLACES) if rng.random() < 0.5 else "",
                       "emails": rng.random() < 0.4,
                       "license": rng.choices(list(LICENSES), list(LICENSES.values()))[0]})
    preferred = {e["user"]: e["license"] for e in events}
    uploaders = [u["username"] for u in users[:N_UPLOADERS]]
    weights = [1 / (k + 1) ** 0.8 for k in range(len(uploaders))]
    span = (now - dt.timedelta(days=1) - start).total_seconds()
    times = sorted(start + dt.timedelta(seconds=rng.uniform(0, span)) for _ in range(n_media))
    uploads: list[dict[str, Any]] = []
    slugs: set[tuple[str, str]] = set()
    for k, t in enumerate(times):
        t = t.replace(microsecond=0) + dt.timedelta(seconds=k)  # no two uploads at one time
        owner = rng.choices(uploaders, weights)[0]
        subject, place = rng.choice(SUBJECTS), rng.choice(PLACES)
        title = base = _title(rng, subject, place)
        n = 1
        while (owner, _slug(title)) in slugs:  # MediaGoblin's slugs are unique per user
            n += 1
            title = f"{base} {n}"
        slugs.add((owner, _slug(title)))
        tags = [tag for tag, p in ((subject, 0.7), (place.lower(), 0.5)) if rng.random() < p]
        tags += rng.sample(STYLE_TAGS, rng.choice([0, 0, 1, 1, 2]))
        description = ""
        if rng.random() < 0.8:
            description = _paragraph(rng, (1, 3))
            if rng.random() < 0.2:
                description += f"\n\nTaken with a *{rng.choice(NOUNS)}* {rng.choice(NOUNS)}."
        uploads.append({"kind": "upload", "user": owner, "ts": _stamp(t), "title": title,
                        "description": description, "tags": tags,
                        "license": preferred[owner] if rng.random() < 0.85 else
                        rng.choices(list(LICENSES), list(LICENSES.values()))[0],
                        "filename": f"IMG_{t:%Y%m%d_%H%M%S}.jpg",
                        "image": image_spec(rng, SIZES)})
    events += uploads
    names = [u["username"] for u in users]
    popularity = [rng.expovariate(1) ** 2 for _ in uploads]
    for k in rng.choices(range(n_media), popularity, k=round(n_media * 4 / 3)):
        upload = uploads[k]
        posted = dt.datetime.fromisoformat(upload["ts"])
        said = [e["user"] for e in events if e["kind"] == "comment" and e["media"] == k]
        others = [n for n in names if n != upload["user"]]
        who = upload["user"] if said and rng.random() < 0.2 else rng.choice(others)
        later = dt.timedelta(hours=rng.expovariate(1 / 30) + 0.05 * (len(said) + 1))
        events.append({"kind": "comment", "user": who, "media": k,
                       "ts": _stamp(min(posted + later, now - dt.timedelta(minutes=5 + k))),
                       "text": _sentence(rng, (3, 14)) + (
                           " " + _sentence(rng, (4, 10)) if rng.random() < 0.3 else "")})
    for c, curator in enumerate(rng.sample(names, max(3, n_media // 40))):
        subject, place = rng.choice(SUBJECTS), rng.choice(PLACES)
        title = COLLECTION_TITLES[c % len(COLLECTION_TITLES)].format(
            s=subject, S=subject.capitalize(), p=place, P=place)
        themed = [k for k, u in enumerate(uploads) if subject in u["tags"]
                  or place.lower() in u["tags"]]
        size = rng.randint(6, 20)
        picks = rng.sample(themed, min(len(themed), size))
        picks += rng.sample([k for k in range(n_media) if k not in picks],
                            max(0, min(size, n_media) - len(picks)))
        items = []
        for k in picks:
            posted = dt.datetime.fromisoformat(uploads[k]["ts"])
            added = min(posted + dt.timedelta(days=rng.uniform(0.05, 40)),
                        now - dt.timedelta(minutes=2))
            items.append((added, k))
        for added, k in sorted(items):
            events.append({"kind": "collect", "user": curator, "media": k, "collection": c,
                           "ts": _stamp(added), "title": title,
                           "description": _sentence(rng, (6, 18)),
                           "note": _sentence(rng, (3, 10)) if rng.random() < 0.3 else ""})
    events.sort(key=lambda e: e["ts"])  # stable: an entry's upload before what follows it
    return {"site_name": SITE_NAME, "seed": seed, "users": users, "events": events}


def available() -> str | None:
    """None if MediaGoblin's venv is there, else how to make it."""
    return venv_missing(VENV, "mediagoblin", MEDIAGOBLIN_VERSION, "ARCHIVER_MEDIAGOBLIN_VENV",
                        INSTALL, python2=True)


def build(folder: Path, n_media: int = 300, seed: int = 0) -> Path:
    """Build a fresh site in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    return build_helper_site(
        folder, VENV, {"n_media": n_media, "seed": seed, "version": VERSION},
        "MediaGoblin site", HELPER, lambda now: generate(n_media, seed, now),
        write_files(CONFIG), python2=True)


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the site built in folder (waitress with `workers` threads, read-only) on a free
    port; yields the home URL."""
    with serve_helper(VENV, folder, workers, "mediagoblin", python2=True) as seed:
        yield seed


# The per-entry, per-collection and per-user pages only a logged-in user may use: each a 302
# to the login form for a guest (the last path segment, or the two last)
_ACTIONS = {"report", "collect", "edit", "confirm-delete", "attachments", "metadata",
            "confirm_remove", "panel"}


def _user_type(segs: list[str]) -> str:
    """/u/USER/...: the type of the path's segments after /u/USER."""
    rest = segs[2:]
    if not rest:
        return "user"
    head, n = rest[0], len(rest)
    if n == 1 and head == "gallery":
        return "gallery"
    if n == 1 and head == "collections":
        return "collections"
    if n == 1 and head == "atom":
        return "feed"
    if n == 1 and head in ("edit", "panel"):
        return "action"
    if head == "panel" and n == 2:
        return "action"
    if head == "tag" and n == 2:
        return "tag"
    if head == "collection" and n >= 2:
        if n == 2:
            return "collection"
        if n == 3 and rest[2] == "atom":
            return "feed"
        if n == 4 and rest[3] == "confirm_remove":
            return "action"
        return "other"
    if head == "c" and n == 3 and rest[2] in ("edit", "confirm-delete"):
        return "action"
    if head == "m" and n >= 2:
        return _media_type(rest[2:])
    return "other"


def _media_type(rest: list[str]) -> str:
    """/u/USER/m/SLUG/...: the entry's page, a comment's permalink, or an action."""
    if not rest:
        return "entry"
    if rest[0] == "c" and len(rest) == 2 and rest[1].isdigit():
        return "comment"
    if rest[-1] in _ACTIONS or rest == ["comment", "add"] or rest[0] == "notifications":
        return "action"
    return "other"


def page_type(url: str) -> str:
    """Ground truth from the URL alone (MediaGoblin 0.9.0's routes), in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - /: "home" (also ?page=N, the older "most recent media")
    - /mgoblin_media/...: "image" (the uploads: thumbnails, medium sizes, originals);
      /mgoblin_static/, /theme_static/, /plugin_static/ or a static file by its extension
      (/favicon.ico, /robots.txt): "static"
    - /auth/... (login, register, forgot_password, logout, verify_email): "login"
    - /u/USER/: "user"; /u/USER/gallery/: "gallery"; /u/USER/collections/: "collections";
      /u/USER/collection/SLUG/: "collection"; /u/USER/m/SLUG/: "entry";
      /u/USER/m/SLUG/c/ID/: "comment" (the entry's page, one comment highlighted)
    - /tag/TAG/ and /u/USER/tag/TAG/: "tag"
    - /atom/, /u/USER/atom/, /tag/TAG/atom/, /u/USER/collection/SLUG/atom/: "feed"
    - what only a logged-in user may do, a 302 to the login form for a guest: an entry's
      report/, collect/, comment/add/, edit/, confirm-delete/, attachments/, metadata/,
      notifications/..., a comment's report/, /u/USER/edit/, /u/USER/panel/..., a
      collection's edit, delete and item removal, /submit/..., /edit/..., /mod/...,
      /notifications/...: "action"
    - /api/..., /oauth/..., /.well-known/..., /USER/activity/ID/: "api"
    - anything else: "other"."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    if not segs:
        return "home"
    head = segs[0]
    if head == "mgoblin_media":
        return "image"
    if head in STATIC_PREFIXES or path.lower().endswith(STATIC_EXT):
        return "static"
    if head == "auth":
        return "login"
    if head == "u" and len(segs) >= 2:
        return _user_type(segs)
    if head == "tag" and len(segs) in (2, 3):
        return "tag" if len(segs) == 2 else "feed" if segs[2] == "atom" else "other"
    if head == "atom" and len(segs) == 1:
        return "feed"
    if head in ("submit", "edit", "mod", "notifications"):
        return "action"
    if head in ("api", "oauth", ".well-known") or (len(segs) == 3 and segs[1] == "activity"):
        return "api"
    return "other"


def entity_of(url: str) -> str | None:
    """The UCC page a URL shows: "entry USER SLUG" for a media entry's page (and a comment's
    permalink, the same page), "collection USER SLUG" for a collection's; a query does not
    change it; None for anything else."""
    kind = page_type(url)
    if kind not in UCC_TYPES | {"comment"}:
        return None
    segs = (loopback_path(url) or ("/", []))[1]
    return f"{'collection' if kind == 'collection' else 'entry'} {segs[1]} {segs[3]}"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every media entry's and collection's page (/u/USER/m/SLUG/,
    /u/USER/collection/SLUG/); give the server (e.g. "http://127.0.0.1:8123") to get
    absolute URLs."""
    return entity_urls(folder, server)


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: what the database holds (users, processed entries,
    comments, collections and their items, distinct tags), entries per uploader, comments
    per entry, entries with a medium size (linking their original), items per collection."""
    import json

    rows = entity_rows(folder)
    media = [r for r in rows if r["type"] == "media"]
    return {**json.loads((folder / "counts.json").read_text()),
            "per_uploader": sorted(Counter(r["user"] for r in media).values(), reverse=True),
            "comments_per_entry": dict(sorted(Counter(r["comments"] for r in media).items())),
            "with_medium": sum("medium" in r["files"] for r in media),
            "items_per_collection": [r["items"] for r in rows if r["type"] == "collection"]}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "media", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        home_links = smoke.home_links
        media = min(u for u in home_links if page_type(u) == "entry")
        media_links = same_host_links(requests.get(media, timeout=30).content, media)
        user = f"{server}/u/{urlsplit(media).path.split('/')[2]}/"
        user_links = same_host_links(requests.get(user, timeout=30).content, user)
        collection = min(u for u in ucc if page_type(u) == "collection")
        collection_links = same_host_links(requests.get(collection, timeout=30).content,
                                           collection)
        first = {page_type(u): u for u in sorted(home_links | media_links | user_links
                                                 | collection_links, reverse=True)}
        smoke_fetch([seed, media, user, collection, *first.values(), f"{media}c/1/",
                     f"{server}/u/{urlsplit(media).path.split('/')[2]}",
                     f"{server}/?page=99", f"{server}/submit/", f"{server}/robots.txt",
                     f"{server}/favicon.ico"], page_type, follow_redirects=False)
        print(f"POST {requests.post(seed, timeout=30).status_code} (read-only)")
        print_link_types([("home", home_links), (media, media_links), (user, user_links),
                          (collection, collection_links)], page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
