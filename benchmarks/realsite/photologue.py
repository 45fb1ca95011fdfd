"""A real Django photo-gallery site, django-photologue 3.20 (from PyPI), on 127.0.0.1 with
generated photos.

The media-sharing family's real site: photologue is the gallery application of many Django
sites (a club's, a photographer's, a museum's), and, like every deployment, this one is a
small Django project around it: the project's own base template (a header linking the
gallery and photo archives and lists, and a "Log in" link to Django's admin) and home page
(an introduction and the latest galleries), photologue's URLs under /photologue/ and its
shipped templates for everything else, SQLite, the default photo sizes (thumbnail 100x75,
display 400 wide), Django's admin.

    build(folder)       fresh site in folder: the project (PROJECT_FILES), an SQLite database
                        and photos from a generator (deterministic for n_photos, seed):
                        JPEGs drawn by Pillow, saved through photologue's models, which
                        make every photo size at save time as a real upload does
    serve(folder)       the site under waitress (threaded) on a free port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every photo and gallery page (the UCC)

Photologue and its dependencies (Django 5.2, Pillow, django-sortedm2m) live in a venv of their
own, named by ARCHIVER_PHOTOLOGUE_VENV (default: phvenv in the temporary directory,
/tmp/phvenv); `available()` says how to create it. Everything the site runs goes through the
helper script HELPER (its shared parts: `benchmarks.realsite.helpertext`), run by that venv's
python. The server is read-only: 405 to anything but GET and HEAD, the database opened
read-only, sessions in signed cookies, and the one write a page view makes (the display size
counts the photo's views, `ImageModel.increment_count`) is a no-op. Gallery samples (five
photos at random for each gallery on the home page and the gallery archives, as photologue
ships them) change from fetch to fetch on a real site; here each is drawn from a generator
seeded by the request's URL, so a URL always shows the same sample (as a page cache would)
and every crawl of a build sees the same pages, whatever crawled before it.

The UCC (`entities`): every photo page (title, date, caption, the display image linking the
original, and for each of its galleries the previous and next photo in it) and every gallery
page (title, date, description, every photo's thumbnail). A photo or gallery also has a dated
URL (/photologue/photo/2025/06/14/slug/), which no page links: another URL of the same page.

What a visitor meets: the home page (the latest five galleries, each with a random sample of
five photos); in the header on every page, the gallery archive (/photologue/gallery/: every
gallery with a sample, and its years), the gallery list (/photologue/gallerylist/, 20 a page,
?page=N), the photo archive (/photologue/photo/: every photo's thumbnail on one page, and its
years) and the photo list (/photologue/photolist/, 20 a page); date archives for galleries and
photos by year (all of the year's), month and day; the admin's login form (a link with ?next=
the page's path; /admin/ and everything under it is a 302 to it). /photologue/ is a 301 to the
gallery archive. Every thumbnail and display image is an <img> (with a link to the original
JPEG on photo pages), so a crawler that follows every link fetches three images per photo.
No page says noindex, there is no robots.txt, no sitemap and no favicon.ico (404).

    python -m benchmarks.realsite.photologue /tmp/phbench    # build, serve, smoke test
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

from benchmarks.realsite.helpertext import DJANGO, JPEG, MAIN, SERVE
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
from benchmarks.realsite.words import NOUNS, PLACES, slug
from benchmarks.realsite.words import paragraph as _paragraph
from benchmarks.realsite.words import sentence as _sentence
from benchmarks.realsite.words import stamp as _stamp

VENV = Path(os.environ.get("ARCHIVER_PHOTOLOGUE_VENV")
            or Path(tempfile.gettempdir()) / "phvenv")
PHOTOLOGUE_VERSION = "3.20"
INSTALL = (f"python3 -m venv {VENV} && {VENV}/bin/pip install django-photologue=="
           f"{PHOTOLOGUE_VERSION} waitress")
VERSION = 2  # of the generator and helper; part of the reuse marker
UCC_TYPES = {"photo", "gallery"}
TARGET_TYPE = "photo"  # source-target's example is a photo
DESCRIPTION = ("django-photologue 3.20 (its URLs and templates in a small Django project, "
               "SQLite), {size} generated photos (`benchmarks/realsite/photologue.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("photo", "gallery", "home", "archive", "list", "year", "month", "day", "image",
              "login", "static", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): the gallery
# list and the photo list differ by their thumbnails only, and each date archive by its
# heading; none is UCC
SAME_TEMPLATE: dict[str, str] = {}
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico",
              ".woff", ".woff2", ".ttf", ".txt")
SITE_NAME = "Lightbox Camera Club"

# The project around photologue, as a deployment writes it (settings, URLs, the base
# template photologue's templates extend, a home page); the build writes them into the folder
PROJECT_FILES = {
    "site_project/__init__.py": "",
    "site_project/settings.py": '''# written by benchmarks/realsite/photologue.py: a throwaway site
import os

BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEBUG = False
SECRET_KEY = "realsite-bench-secret"  # fixed: the same signed cookies every build
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
INSTALLED_APPS = [
    "django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes",
    "django.contrib.sessions", "django.contrib.messages", "django.contrib.staticfiles",
    "django.contrib.sites", "sortedm2m", "photologue",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]
ROOT_URLCONF = "site_project.urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [os.path.join(BASE, "templates")],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3",
                         "NAME": os.path.join(BASE, "site.sqlite3")}}
if os.environ.get("PHOTOLOGUE_BENCH_READ_ONLY"):  # the server's: SQLite opened read-only
    DATABASES["default"]["NAME"] = "file:" + DATABASES["default"]["NAME"] + "?mode=ro"
    DATABASES["default"]["OPTIONS"] = {"uri": True}
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"  # no session rows
SITE_ID = 1
USE_TZ = True
TIME_ZONE = "UTC"
LANGUAGE_CODE = "en"
STATIC_URL = "/static/"
STATICFILES_DIRS = [os.path.join(BASE, "static")]
MEDIA_ROOT = os.path.join(BASE, "media")
MEDIA_URL = "/media/"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
''',
    "site_project/urls.py": '''from django.contrib import admin
from django.urls import include, path, re_path
from django.views.generic import ListView
from django.views.static import serve
from django.conf import settings
from photologue.models import Gallery


class HomePage(ListView):
    """The latest five galleries."""
    template_name = "homepage.html"

    def get_queryset(self):
        return Gallery.objects.on_site().is_public()[:5]


urlpatterns = [
    path("", HomePage.as_view(), name="homepage"),
    path("photologue/", include("photologue.urls", namespace="photologue")),
    path("admin/", admin.site.urls),
    # the uploads, served by Django (a small site without a separate web server)
    re_path(r"^media/(?P<path>.*)$", serve, {"document_root": settings.MEDIA_ROOT}),
]
''',
    "templates/base.html": '''{% load static %}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{% block title %}{% endblock %} | ''' + SITE_NAME + '''</title>
<link rel="stylesheet" href="{% static 'css/site.css' %}">
</head>
<body>
<header class="navbar">
  <a class="brand" href="{% url 'homepage' %}">''' + SITE_NAME + '''</a>
  <ul class="nav">
    <li><a href="{% url 'photologue:pl-gallery-archive' %}">Galleries</a></li>
    <li><a href="{% url 'photologue:gallery-list' %}">All galleries</a></li>
    <li><a href="{% url 'photologue:pl-photo-archive' %}">Photos</a></li>
    <li><a href="{% url 'photologue:photo-list' %}">All photos</a></li>
    <li class="login"><a href="{% url 'admin:login' %}?next={{ request.path|urlencode }}">
      Log in</a></li>
  </ul>
</header>
<div class="container">
{% block content %}{% endblock %}
</div>
<footer>
  <p>Photos by the members of the ''' + SITE_NAME + '''. Meetings every second Thursday.</p>
</footer>
</body>
</html>
''',
    "templates/homepage.html": '''{% extends "base.html" %}
{% block title %}Welcome{% endblock %}
{% block content %}
<h1>Welcome to the ''' + SITE_NAME + '''</h1>
<p>Our members' photos from walks, trips and club evenings, in galleries by outing.</p>
<h2>Latest galleries</h2>
{% for gallery in object_list %}
{% include "photologue/includes/gallery_sample.html" %}
{% endfor %}
{% endblock %}
''',
    "static/css/site.css": '''body { font-family: sans-serif; margin: 0; }
.navbar { background: #222; padding: 0.5em 1em; }
.navbar a { color: #eee; text-decoration: none; }
.nav { display: inline; list-style: none; }
.nav li { display: inline; margin-left: 1em; }
.container { padding: 1em; }
.img-thumbnail { border: 1px solid #ccc; padding: 2px; margin: 2px; }
footer { color: #777; padding: 1em; border-top: 1px solid #ddd; }
''',
}

HELPER = '''"""Run by benchmarks/realsite/photologue.py with photologue's venv (python -I), in the
site's folder: "install" (schema), "content" (the JSON spec on stdin; writes entities.jsonl),
"serve PORT THREADS" (read-only, GET and HEAD only)."""
import datetime as dt
import io
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
    os.environ["DJANGO_SETTINGS_MODULE"] = "site_project.settings"
    if read_only:
        os.environ["PHOTOLOGUE_BENCH_READ_ONLY"] = "1"
    import django

    django.setup()


''' + JPEG + '''def content(spec):
    setup()
    fast_sqlite()
    from django.contrib.sites.models import Site
    from django.core.files.base import ContentFile
    from photologue.models import Gallery, Photo

    Site.objects.filter(pk=1).update(domain="127.0.0.1", name=spec["site_name"])
    photos = []
    for p in spec["photos"]:  # a real upload: the image saved, every size made (pre_cache)
        photo = Photo(title=p["title"], slug=p["slug"], caption=p["caption"],
                      date_added=dt.datetime.fromisoformat(p["date"]), is_public=True)
        photo.image.save(p["slug"] + ".jpg", ContentFile(jpeg(p["image"])), save=False)
        photo.save()
        photos.append(photo)
    for g in spec["galleries"]:
        gallery = Gallery.objects.create(
            title=g["title"], slug=g["slug"], description=g["description"],
            date_added=dt.datetime.fromisoformat(g["date"]), is_public=True)
        gallery.photos.set([photos[i] for i in g["photos"]])  # sorted: in this order
    with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
        for photo in Photo.objects.order_by("pk"):
            out.write(json.dumps({"type": "photo", "slug": photo.slug,
                                  "galleries": photo.galleries.count(),
                                  "path": photo.get_absolute_url()}) + "\\n")
        for gallery in Gallery.objects.order_by("pk"):
            out.write(json.dumps({"type": "gallery", "slug": gallery.slug,
                                  "photos": gallery.photos.count(),
                                  "path": gallery.get_absolute_url()}) + "\\n")


def serve(port, threads):
    setup(read_only=True)
    import threading
    import types
    import zlib

    import photologue.models
    from photologue.models import ImageModel

    ImageModel.increment_count = lambda self: None  # the display size counts views: no write
    # the gallery samples (random.sample in photologue.models): drawn from a generator
    # seeded by the request's URL, so a URL shows the same sample whoever asks first
    local = threading.local()
    photologue.models.random = types.SimpleNamespace(
        sample=lambda population, k: local.rng.sample(population, k))
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.wsgi import get_wsgi_application

    django_app = StaticFilesHandler(get_wsgi_application())  # /static/: the stylesheet

    def app(environ, start_response):
        url = environ.get("PATH_INFO", "") + "?" + environ.get("QUERY_STRING", "")
        local.rng = random.Random(zlib.crc32(url.encode()))
        return django_app(environ, start_response)

    serve_read_only(app, port, threads, "photologue")
''' + DJANGO + SERVE + MAIN

# What the club photographs: gallery titles and photo subjects
OUTINGS = ["Harbour at dawn", "Old town walk", "Autumn in the park", "Night lights",
           "River festival", "Market day", "Coastal path", "Snow on the ridge",
           "Botanic garden", "Railway heritage day", "Spring blossom", "Street portraits",
           "Lake in the mist", "Bridges of the city", "Summer fair", "Forest trail"]
SUBJECTS = ["boats", "reflections", "rooftops", "doorways", "leaves", "lanterns", "crowds",
            "stalls", "cliffs", "waves", "trees", "flowers", "engines", "faces", "arches",
            "shadows", "benches", "towers", "windows", "birds"]


def image_spec(rng: random.Random, sizes: list[list[int]]) -> dict[str, Any]:
    """The numbers helpertext.JPEG draws a photo from: a seed, a size of `sizes` (width,
    height), the colours of sky and ground, the horizon's height and a number of shapes.
    The media sites' generators share it (`benchmarks.realsite.mediagoblin`)."""
    return {"seed": rng.randrange(2**31), "size": rng.choice(sizes),
            "sky": [rng.randrange(100, 256) for _ in range(3)],
            "ground": [rng.randrange(0, 150) for _ in range(3)],
            "horizon": rng.uniform(0.4, 0.8), "shapes": rng.randint(2, 9)}


def generate(n_photos: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """The club's outings over two years: each a gallery of 6 to 20 photos taken that day,
    some photos uploaded singly on other days, and a "Best of YEAR" gallery per year holding
    a tenth of that year's photos (a photo in two galleries)."""
    rng = random.Random(seed)
    photos: list[dict[str, Any]] = []
    galleries: list[dict[str, Any]] = []
    slugs: Counter[str] = Counter()

    def unique(text: str) -> str:
        """`text`, numbered from its second use (photologue's titles and slugs are unique)."""
        slugs[text] += 1
        return text if slugs[text] == 1 else f"{text} {slugs[text]}"

    def photo(day: dt.datetime, place: str) -> int:
        subject = rng.choice(SUBJECTS)
        title = unique(rng.choice([f"{subject.capitalize()} in {place}",
                                   f"{place}: {subject}",
                                   f"{subject.capitalize()} and {rng.choice(NOUNS)}",
                                   f"{subject.capitalize()}, {place}"]))
        photos.append({
            "title": title, "slug": slug(title),
            "caption": _sentence(rng, (6, 20)) if rng.random() < 0.7 else "",
            "date": _stamp(day + dt.timedelta(minutes=rng.randint(0, 600))),
            "image": image_spec(rng, [[480, 320], [320, 480], [480, 360]])})
        return len(photos) - 1

    start = now - dt.timedelta(days=730)
    while len(photos) < n_photos:
        day = start + dt.timedelta(days=len(galleries) * 730 * 14 / n_photos
                                   + rng.uniform(0, 5))
        day = min(day, now - dt.timedelta(days=1)).replace(hour=8, minute=0, second=0)
        if rng.random() < 0.2:  # a single upload on its own day
            photo(day, rng.choice(PLACES))
            continue
        place = rng.choice(PLACES)
        outing = unique(f"{rng.choice(OUTINGS)}, {place}")
        first = len(photos)
        for _ in range(min(rng.randint(6, 20), n_photos - len(photos))):
            photo(day, place)
        galleries.append({"title": outing, "slug": slug(outing),
                          "description": _paragraph(rng, (1, 3)),
                          "date": _stamp(day + dt.timedelta(hours=11)),
                          "photos": list(range(first, len(photos)))})
    for year in sorted({p["date"][:4] for p in photos}):  # "Best of YEAR"
        of_year = [i for i, p in enumerate(photos) if p["date"].startswith(year)]
        best = sorted(rng.sample(of_year, max(1, len(of_year) // 10)))
        last = max(photos[i]["date"] for i in of_year)
        galleries.append({"title": f"Best of {year}", "slug": f"best-of-{year}",
                          "description": f"The members' vote for the club's best photos of "
                                         f"{year}.",
                          "date": last, "photos": best})
    return {"site_name": SITE_NAME, "photos": photos, "galleries": galleries}


def available() -> str | None:
    """None if photologue's venv is there, else how to make it."""
    return venv_missing(VENV, "django-photologue", PHOTOLOGUE_VERSION,
                        "ARCHIVER_PHOTOLOGUE_VENV", INSTALL)


def build(folder: Path, n_photos: int = 400, seed: int = 0) -> Path:
    """Build a fresh site in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    return build_helper_site(
        folder, VENV, {"n_photos": n_photos, "seed": seed, "version": VERSION},
        "photologue site", HELPER, lambda now: generate(n_photos, seed, now),
        write_files(PROJECT_FILES))


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the site built in folder (waitress with `workers` threads, read-only) on a free
    port; yields the home URL."""
    with serve_helper(VENV, folder, workers, "photologue") as seed:
        yield seed


DATE = ("year", "month", "day")


def _kind_type(segs: list[str], detail: str) -> str:
    """/photologue/gallery/... or /photologue/photo/...: the archive index (no more
    segments), a page (a slug), a date archive (year, month, day) or a page by its dated URL
    (year, month, day, slug)."""
    rest = segs[2:]
    if not rest:
        return "archive"
    if len(rest) == 1 and not rest[0].isdigit():
        return detail
    if all(s.isdigit() for s in rest) and len(rest) <= 3:
        return DATE[len(rest) - 1]
    if len(rest) == 4 and all(s.isdigit() for s in rest[:3]):
        return detail
    return "other"


def page_type(url: str) -> str:
    """Ground truth from the URL alone (the project's urls.py and photologue's), in this
    order:
    - another host than 127.0.0.1 or localhost: "other"
    - /: "home"
    - /media/...: "image" (the uploads: originals and the photo sizes); /static/... or a
      static file by its extension: "static"
    - /admin/...: "login" (the admin's login form; everything else there redirects to it)
    - /photologue/gallery/ and /photologue/photo/: "archive" (every gallery, every photo);
      /photologue/gallerylist/ and /photologue/photolist/ (?page=N): "list"
    - /photologue/gallery/SLUG/ and /photologue/gallery/YYYY/MM/DD/SLUG/: "gallery";
      /photologue/photo/SLUG/ and /photologue/photo/YYYY/MM/DD/SLUG/: "photo"
    - /photologue/{gallery,photo}/YYYY/, .../YYYY/MM/, .../YYYY/MM/DD/: "year", "month",
      "day" (the date archives)
    - anything else (/photologue/ itself, a redirect): "other"."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    if not segs:
        return "home"
    head = segs[0]
    if head == "media":
        return "image"
    if head == "static" or path.lower().endswith(STATIC_EXT):
        return "static"
    if head == "admin":
        return "login"
    if head != "photologue" or len(segs) < 2:
        return "other"
    if segs[1] in ("gallerylist", "photolist"):
        return "list" if len(segs) == 2 else "other"
    if segs[1] == "gallery":
        return _kind_type(segs, "gallery")
    if segs[1] == "photo":
        return _kind_type(segs, "photo")
    return "other"


def entity_of(url: str) -> str | None:
    """The UCC page a URL shows: "photo SLUG" or "gallery SLUG" for either URL of a photo or
    gallery page (a query does not change it); None for anything else."""
    kind = page_type(url)
    if kind not in UCC_TYPES:
        return None
    segs = [unquote(s) for s in urlsplit(url).path.split("/") if s]
    return f"{kind} {segs[-1]}"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every photo and gallery page, as the site links them (/photologue/photo/slug/,
    /photologue/gallery/slug/); give the server (e.g. "http://127.0.0.1:8123") to get
    absolute URLs."""
    return entity_urls(folder, server)


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: photos, galleries, photos per gallery, galleries per photo."""
    rows = entity_rows(folder)
    photos = [r for r in rows if r["type"] == "photo"]
    galleries = [r for r in rows if r["type"] == "gallery"]
    return {"photos": len(photos), "galleries": len(galleries),
            "galleries_per_photo": dict(sorted(Counter(r["galleries"] for r in photos).items())),
            "photos_per_gallery": sorted(r["photos"] for r in galleries)}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "photos", 400, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        home_links = smoke.home_links
        gallery = min(u for u in ucc if page_type(u) == "gallery")
        gallery_links = same_host_links(requests.get(gallery, timeout=30).content, gallery)
        photo = min(u for u in gallery_links if page_type(u) == "photo")
        photo_links = same_host_links(requests.get(photo, timeout=30).content, photo)
        archive = f"{server}/photologue/photo/"
        archive_links = same_host_links(requests.get(archive, timeout=30).content, archive)
        first = {page_type(u): u for u in sorted(home_links | gallery_links | photo_links
                                                 | archive_links, reverse=True)}
        smoke_fetch([seed, gallery, photo, archive, *first.values(), f"{server}/photologue/",
                     f"{server}/admin/", f"{server}/robots.txt"], page_type,
                    follow_redirects=False)
        print(f"POST {requests.post(seed, timeout=30).status_code} (read-only)")
        print_link_types([("home", home_links), (gallery, gallery_links),
                          (photo, photo_links), (archive, archive_links)], page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
