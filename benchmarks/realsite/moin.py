"""A real MoinMoin 1.9.11 wiki (from PyPI, on Python 2.7), on 127.0.0.1 with generated pages.

The wiki family's fourth real site, after `benchmarks.realsite.mediawiki`,
`benchmarks.realsite.dokuwiki` and `benchmarks.realsite.djangowiki`, and a wiki engine no
crawler setting was tuned on: MoinMoin 1.9 is the classic Python wiki (Debian's, Ubuntu's
and python.org's). This one is a single wiki as MoinMoin's sample `wikiconfig.py` makes it
(its data and underlay copied from the package's share/moin, the theme "modernized", the
sample's navigation bar RecentChanges, FindPage, HelpContents) with the English page set
installed from LanguageSetup's attachments ("English--all_pages.zip": the system, help,
course and template pages, 156 of them, as public wikis have them), and what a public
read-only deployment adds: ACLs (`acl_rights_default = u"All:read"`, the superuser
WikiAdmin; the authors write at build time only, through `acl_rights_before`), a fixed
`secrets`, no reverse DNS lookups, and its own robots.txt: MoinMoin's shipped one without
its "Crawl-delay: 20" (the archiver obeys Crawl-delay; the bench runs without politeness
delay), so only "Disallow: /action/" is left (the default url_prefix_action is unset, so it
disallows nothing a page links). Page URLs are the page names (/LatheChecklist,
/Woodwork/GlueNotes, spaces as %20); every other view is the page's URL with ?action=.

    build(folder)       fresh wiki in folder: wikiconfig.py, data and underlay, the English
                        pages (MoinMoin.packages.ZipPackage), the users, then every page's
                        revisions and the attachments from a generator (deterministic for
                        n_pages, seed), dated by the generator, written through MoinMoin's
                        own API (`user.User(...).save()`, `PageEditor.saveText`,
                        `AttachFile.add_attachment`): revisions, edit-log and event-log are
                        MoinMoin's
    serve(folder)       the wiki's WSGI application (MoinMoin.web.serving.make_application,
                        its static files under /moin_static1911/) under waitress (threaded),
                        read-only, on a free port; yields the home URL (/, the FrontPage)
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every UCC page

MoinMoin 1.9.11 needs Python 2.7; it and waitress 1.4 live in a venv of their own, named by
ARCHIVER_MOIN_VENV (default: mmvenv in the temporary directory, /tmp/mmvenv); `available()`
says how to create it. Everything the site runs goes through the helper script HELPER (its
shared parts: `benchmarks.realsite.helpertext`'s SERVE and MAIN, which are Python 2 too),
run by that venv's python (-E -s: Python 2 has no -I). The server is read-only: 405 to
anything but GET and HEAD. MoinMoin still writes its caches (rendered pages, link lists,
the i18n tables) and hit counts (event-log) under data/ while it serves, as it does on any
deployment; no page, user or attachment changes.

The UCC (`entities`): every page the wiki's users wrote, in its current view: the
FrontPage (also the home page, /), the twelve section pages, the articles (some of them
subpages, Parent/Child), the twelve category pages (CategoryWoodwork, ...: a description
and MoinMoin's `<<FullSearchCached(category:...)>>` list of their pages, as the
CategoryTemplate makes them) and the authors' homepages (/AnnaBerg: a few lines by the
user and their pages, from the HomepageTemplate). Not UCC: every ?action= view (info:
the history with its diffs and old revisions (recall); raw, print, AttachFile (an
attachment's list, view and download: the attachments are a few lines of text each),
login, edit (for a guest "You are not allowed to edit this page"), the searches, the
feeds), MoinMoin's system and help pages
(RecentChanges, FindPage, TitleIndex, WordIndex, HelpContents, HelpOn..., WikiCourse/...,
the templates, CategoryHomepage, ...: the package's, not the users'), pages never written
(a wiki link to them shows "This page does not exist yet") and static files.
The page itself with another query (?highlight=WORD from a search, ?action=show,
?redirect=) is another URL of the same page.

What a guest meets on a page (theme modernized): the header (logo and the site name to the
FrontPage, "Login" (?action=login), the search form (GET ?action=fullsearch / titlesearch
with value=; no crawler here submits it), the trail of recently visited pages (kept in the
session, empty for a crawler), the navibar (RecentChanges, FindPage, HelpContents, the
page itself), the page's title (each Parent/ part links that page, the last one the page
itself: for a guest MoinMoin's default backlink_method gives no backlinks search), the
text and its
footer ("PAGE (last edited DATE by USER)"), and the edit bar: "Immutable Page" (no link for
a guest), "Info" (?action=info), "Attachments" (?action=AttachFile) and "More Actions:" (a
<select>, no links). The info page lists the revisions, each with links to view
(?action=recall&rev=N), diff (?action=diff&rev1=&rev2=) and the editor's homepage, and
"General Page Infos" and "Page hits and edits" (?action=info&general=1, &hitcounts=1).
RecentChanges links every recently changed page, its diff and its info, RSS
(?action=rss_rc) and the day ranges (?max_days=N). TitleIndex and WordIndex link every
page of the wiki (system pages included). A category page's list (FullSearchCached) links
each member as PAGE?highlight=(\\bCategoryX\\b): another URL of a UCC page. MoinMoin's head
says what robots may do: a page "index,nofollow" (html_head_normal: "there are a lot of
illegal links (like actions) or duplicates"), the FrontPage, TitleIndex, FindPage and
RecentChanges "index,follow", and any URL with a query (every action view, ?highlight=)
"noindex,nofollow"; the theme's Login, backlinks and edit links say rel="nofollow". GNU
wget obeys the meta tag (it follows only the four index pages' links); the archiver's
crawlers read noindex as a signal and follow every link.

What a crawler gets depends on its User-Agent: MoinMoin's default `ua_spiders` (a regex
naming archiver, crawler, heritrix, wget, robot, spider, ...) answers "403 Forbidden" (a
147-byte page, "You are not allowed to access this!") to a spider's request with any
query (?highlight= included) but action=show, rss_rc, sitemap and AttachFile&do=get. Both
the archiver's User-Agent (archiver-bot/...) and wget's match, so for the crawlers here
every action view above is a 403; a browser gets the views. Surge protection (MoinMoin's
`surge_action_limits`: 30 page views a minute an IP, then a lockout of an hour) is off for
127.x addresses, so it plays no part here; on a public deployment it would stop a crawler
without a delay within a minute.

    python -m benchmarks.realsite.moin /tmp/mmbench    # build, serve, smoke test
"""

from __future__ import annotations

import calendar
import contextlib
import datetime as dt
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import requests

from benchmarks.realsite.djangowiki import MESSAGES, SECTIONS
from benchmarks.realsite.helpertext import MAIN, SERVE
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
)
from benchmarks.realsite.words import FIRST, LAST, NOUNS, PLACES
from benchmarks.realsite.words import paragraph as _paragraph
from benchmarks.realsite.words import sentence as _sentence

VENV = Path(os.environ.get("ARCHIVER_MOIN_VENV") or Path(tempfile.gettempdir()) / "mmvenv")
MOIN_VERSION = "1.9.11"
INSTALL = (f"python2.7 -m virtualenv {VENV} && {VENV}/bin/pip install moin=={MOIN_VERSION} "
           "'waitress<2'  (Python 2.7.18 as tested; virtualenv from `python2.7 -m pip "
           "install --user virtualenv`)")
VERSION = 1  # of the generator and helper; part of the reuse marker
UCC_TYPES = {"page", "category", "homepage"}
TARGET_TYPE = "page"  # source-target's example is an article
DESCRIPTION = ("MoinMoin 1.9.11 on Python 2.7 (its sample wikiconfig, theme modernized, the "
               "English system and help pages, All:read ACLs), {size} generated pages: "
               "articles, sections, subpages, categories and the authors' homepages "
               "(`benchmarks/realsite/moin.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("page", "category", "homepage", "system", "help", "info", "diff", "recall",
              "raw", "print", "attachments", "attachment", "search", "login", "edit",
              "feed", "action", "static", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): a page,
# a category page, a homepage, a system or help page and a page never written are one
# template (the theme's page view), told apart by their names only
SAME_TEMPLATE: dict[str, str] = {"category": "page", "homepage": "page", "system": "page",
                                 "help": "page"}
SITE_NAME = "Workbench Wiki"
STATIC_PREFIX = "moin_static1911"  # MoinMoin.config.url_prefix_static for 1.9.11
# The English page set ("English--all_pages.zip" of LanguageSetup), help and course pages
# aside (their names start with Help or WikiCourse): the system pages and templates
_SYSTEM = """
AbandonedPages BadContent CamelCase CategoryCategory CategoryHomepage CategoryTemplate
EditedSystemPages EventStats EventStats/HitCounts EventStats/Languages EventStats/UserAgents
FindPage FortuneCookies FrontPage HomepageGroupsTemplate HomepagePrivatePageTemplate
HomepageReadPageTemplate HomepageReadWritePageTemplate HomepageTemplate InterWiki
LanguageSetup LocalBadContent LocalSpellingWords MissingHomePage MissingPage MoinMoin
OrphanedPages PageHits PageSize PermissionDeniedPage ProjectGroupsTemplate ProjectTemplate
RandomPage RecentChanges SlideShowHandOutTemplate SlideShowTemplate SlideTemplate
SyncJobTemplate SystemAdmin SystemInfo TitleIndex WantedPages WikiHomePage WikiName
WikiSandBox WikiTipOfTheDay WikiWikiWeb WordIndex XsltVersion
"""
SYSTEM_PAGES = frozenset(_SYSTEM.split()) - {"FrontPage"}  # the FrontPage is ours
HELP_PREFIXES = ("Help", "WikiCourse")
# ?action= names by page type (MoinMoin/action/ and the actions its pages link)
ACTIONS = {"show": "page", "info": "info", "diff": "diff", "recall": "recall", "raw": "raw",
           "print": "print", "AttachFile": "attachments", "fullsearch": "search",
           "titlesearch": "search", "goto": "search", "LikePages": "search",
           "login": "login", "logout": "login", "newaccount": "login",
           "recoverpass": "login", "userprefs": "login", "edit": "edit",
           "rss_rc": "feed", "sitemap": "feed"}

WIKICONFIG = '''# written by benchmarks/realsite/moin.py: MoinMoin's sample wikiconfig.py, read-only
import os

from MoinMoin.config import multiconfig, url_prefix_static


class Config(multiconfig.DefaultConfig):
    wikiconfig_dir = os.path.abspath(os.path.dirname(__file__))
    instance_dir = wikiconfig_dir
    data_dir = os.path.join(instance_dir, 'data', '')  # path with trailing /
    data_underlay_dir = os.path.join(instance_dir, 'underlay', '')  # path with trailing /
    sitename = u'Workbench Wiki'
    logo_string = u'<img src="%s/common/moinmoin.png" alt="MoinMoin Logo">' % url_prefix_static
    page_front_page = u"FrontPage"
    navi_bar = [u'RecentChanges', u'FindPage', u'HelpContents']
    theme_default = 'modernized'
    language_default = 'en'
    page_category_regex = ur'(?P<all>Category(?P<key>(?!Template)\\S+))'
    page_dict_regex = ur'(?P<all>(?P<key>\\S+)Dict)'
    page_group_regex = ur'(?P<all>(?P<key>\\S+)Group)'
    page_template_regex = ur'(?P<all>(?P<key>\\S+)Template)'
    show_hosts = 1
    # a public read-only wiki: guests read; the superuser administers
    superuser = [u"WikiAdmin"]
    acl_rights_before = u"WikiAdmin:read,write,delete,revert,admin"
    if os.environ.get("MOIN_BENCH_BUILD"):  # the authors write while the wiki is built
        acl_rights_before += u" Known:read,write,delete,revert"
    acl_rights_default = u"All:read"
    secrets = "realsite-bench-secret-of-the-moin-wiki"  # fixed: the same tickets each build
    log_reverse_dns_lookups = False
    mail_smarthost = None
'''

ROBOTS = """# MoinMoin 1.9.11's robots.txt without its Crawl-delay: 20
# (see benchmarks/realsite/moin.py)
User-agent: *
# This has to match script url + cfg.url_prefix_action - it
# saves lots of search engine load and traffic by disallowing crawlers
# to request action related URLs.
Disallow: /action/
"""

HELPER = '''"""Run by benchmarks/realsite/moin.py with MoinMoin's venv (Python 2.7), in the site's
folder: "install" (data, underlay, the English pages), "content" (the JSON spec on stdin;
writes entities.jsonl), "serve PORT THREADS" (read-only, GET and HEAD only)."""
import json
import os
import shutil
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # wikiconfig.py
sys.dont_write_bytecode = True
warnings.simplefilter("ignore")
SHARE = os.path.join(sys.prefix, "share", "moin")
CLOCK = [None]  # the generator's time while building (None: the real one)
_real_time = time.time
time.time = lambda: _real_time() if CLOCK[0] is None else CLOCK[0]


def context():
    os.environ["MOIN_BENCH_BUILD"] = "1"
    from MoinMoin.web.contexts import ScriptContext

    return ScriptContext("http://127.0.0.1/")


def as_user(request, name):
    from MoinMoin import user

    request.user = user.User(request, user.getUserId(request, name))
    assert request.user.valid, name


def install():
    for part in ("data", "underlay"):
        shutil.copytree(os.path.join(SHARE, part), os.path.join(HERE, part))
    request = context()
    from MoinMoin import user
    from MoinMoin.packages import ZipPackage

    admin = user.User(request, None, u"WikiAdmin", password=u"realsite-bench-admin")
    admin.email = u"admin@example.org"
    admin.save()
    as_user(request, u"WikiAdmin")
    package = os.path.join(HERE, "underlay", "pages", "LanguageSetup", "attachments",
                           "English--all_pages.zip")
    package = ZipPackage(request, package)
    if not package.installPackage():
        raise SystemExit("English--all_pages.zip: %r" % package.msg)


def content(spec):
    request = context()
    from MoinMoin import user, wikiutil
    from MoinMoin.action import AttachFile
    from MoinMoin.PageEditor import PageEditor

    for u in spec["users"]:
        new = user.User(request, None, u["name"], password=u["password"])
        new.email = u["email"]
        new.aliasname = u["alias"]
        new.save()
    for e in spec["events"]:
        CLOCK[0] = e["ts"]
        as_user(request, e["user"])
        if e["kind"] == "save":
            editor = PageEditor(request, e["page"], mtime=e["ts"])
            editor.saveText(e["text"], 0, comment=e["comment"])
        else:
            AttachFile.add_attachment(request, e["page"], e["name"],
                                      e["text"].encode("utf-8"), overwrite=1)
    CLOCK[0] = None
    with open(os.path.join(HERE, "entities.jsonl"), "w") as out:
        for p in spec["pages"]:
            row = dict(p, path="/" + wikiutil.quoteWikinameURL(p["name"]))
            out.write(json.dumps(row) + "\\n")


def serve(port, threads):
    from MoinMoin.config import url_prefix_static
    from MoinMoin.web.serving import make_application
    from MoinMoin.web.static import STATIC_FILES_PATH

    shared = {url_prefix_static: STATIC_FILES_PATH,
              "/favicon.ico": os.path.join(STATIC_FILES_PATH, "favicon.ico"),
              "/robots.txt": os.path.join(HERE, "robots.txt")}
    serve_read_only(make_application(shared=shared), port, threads, "moin")
''' + SERVE + MAIN

# What the wiki is about: a shared workshop's know-how (the words of
# `benchmarks.realsite.words`), in django-wiki's sections
CHILD_NAMES = ["Notes", "Checklist", "Photos", "Parts", "Tips", "History", "Plan", "Log"]


def camel(text: str) -> str:
    """A WikiName of a title: its words capitalized and joined ("lathe checklist" →
    "LatheChecklist")."""
    return "".join(w[:1].upper() + w[1:] for w in text.split() if w.isalnum())


def _title(rng: random.Random) -> str:
    a, b = rng.choice(NOUNS), rng.choice(NOUNS)
    return rng.choice([f"{a} and {b}", f"notes on the {a} {b}", f"{a} {b}",
                       f"how to fix the {a}", f"{a} {b} in {rng.choice(PLACES)}",
                       f"{a} checklist"])


def _link(name: str, rng: random.Random, here: str) -> str:
    """A wiki link to page `name` from page `here` as people write them: a bare WikiName,
    [[Name]], [[Name|a label]] or, to one's own subpage, [[/Child]]."""
    if name.startswith(here + "/"):
        return f"[[/{name[len(here) + 1:]}]]"
    r = rng.random()
    if r < 0.4 and "/" not in name and " " not in name and sum(c.isupper() for c in name) > 1:
        return name
    if r < 0.75:
        return f"[[{name}]]"
    return f"[[{name}|{rng.choice(NOUNS)} {rng.choice(NOUNS)}]]"


def _body(rng: random.Random, links: list[str], extra: list[str]) -> list[str]:
    """A page's wiki text as blocks: an introduction, two to five sections (some with a
    list), `extra` blocks after the introduction and the `links` spread over the
    paragraphs."""
    blocks = [_paragraph(rng, (2, 4)), *extra]
    for _ in range(rng.randint(2, 5)):
        blocks.append(f"== {rng.choice(NOUNS).capitalize()} {rng.choice(NOUNS)} ==")
        blocks.append(_paragraph(rng, (2, 6)))
        if rng.random() < 0.3:
            blocks.append("\n".join(f" * {_sentence(rng, (3, 8))}"
                                    for _ in range(rng.randint(2, 5))))
    paras = [k for k, b in enumerate(blocks) if not b.startswith(("==", " *", "<<", "'''"))]
    for link in links:
        blocks[rng.choice(paras)] += f" See {link}."
    return blocks


def generate(n_pages: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """A wiki of `n_pages` UCC pages written by 20 users over two years: the FrontPage
    (its sections), twelve section pages (each lists its articles, most of them), twelve
    category pages (CategoryWoodwork, ... from the CategoryTemplate), the 20 users'
    homepages and the articles (a quarter of them subpages of another article, Parent/Child,
    at most two levels; a parent lists its subpages with [[/Child]] links, with
    <<Navigation(children)>>, or not at all). An article is in its section's category and,
    one in five, another's; it links up to four other pages (one in twenty a page never
    written); one in ten has an attached .txt file (some replaced once). Every page has one
    to six revisions (the first by its author), dated; `events` are every save and upload
    in time order."""
    rng = random.Random(seed)
    users = []
    for first, last in zip(FIRST, rng.sample(LAST * 2, 20), strict=True):
        name = f"{first}{last}"
        users.append({"name": name, "alias": f"{first} {last}", "password": f"pw-{name}",
                      "email": f"{name.lower()}@example.org"})
    names = [u["name"] for u in users]
    start = now - dt.timedelta(days=2 * 365)
    n_articles = max(0, n_pages - 1 - 2 * len(SECTIONS) - len(users))
    pages: list[dict[str, Any]] = [{"name": "FrontPage", "kind": "page", "section": None}]
    pages += [{"name": s, "kind": "page", "section": k} for k, s in enumerate(SECTIONS)]
    pages += [{"name": f"Category{s}", "kind": "category", "section": k}
              for k, s in enumerate(SECTIONS)]
    pages += [{"name": n, "kind": "homepage", "section": None} for n in names]
    taken = {p["name"] for p in pages}
    articles: list[int] = []
    children: dict[int, list[int]] = {}
    for _ in range(n_articles):
        parents = [i for i in articles if pages[i]["name"].count("/") < 1]
        if parents and rng.random() < 0.25:
            parent = rng.choice(parents)
            base = f"{pages[parent]['name']}/{rng.choice(CHILD_NAMES)}"
            section = pages[parent]["section"]
        else:
            parent, base = None, camel(_title(rng))
            section = rng.randrange(len(SECTIONS))
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}{n}"
        taken.add(name)
        articles.append(len(pages))
        if parent is not None:
            children.setdefault(parent, []).append(len(pages))
        pages.append({"name": name, "kind": "page", "section": section, "parent": parent,
                      "author": rng.choice(names)})
    for p in pages[:1 + len(SECTIONS)]:
        p["author"] = names[0]
    for k, p in enumerate(pages[1 + len(SECTIONS):1 + 2 * len(SECTIONS)]):
        p["author"] = names[k % len(names)]
    for p in pages:
        if p["kind"] == "homepage":
            p["author"] = p["name"]
    span = (now - dt.timedelta(days=1) - start) / max(1, len(pages))
    events: list[dict[str, Any]] = []
    for i, p in enumerate(pages):
        created = start + span * i + dt.timedelta(minutes=rng.randint(0, 600))
        name, extra, tail = p["name"], [], []
        others = [pages[j]["name"] for j in articles if j != i]
        links = [_link(t, rng, name) for t in rng.sample(others, min(len(others),
                                                                     rng.randint(0, 4)))]
        if p["kind"] == "page" and i > len(SECTIONS) and rng.random() < 0.05:
            wanted = camel(f"{rng.choice(NOUNS)} {rng.choice(PLACES)} guide")
            links.append(_link(wanted, rng, name))
        if i == 0:
            extra = ["'''Sections of the wiki:'''",
                     "\n".join(f" * [[{s}]]" for s in SECTIONS),
                     "New here? Read HelpContents and try the WikiSandBox."]
        elif p["kind"] == "page" and p["section"] is not None and i <= len(SECTIONS):
            mine = [pages[j]["name"] for j in articles
                    if pages[j]["section"] == p["section"] and pages[j]["parent"] is None]
            listed = [m for m in mine if rng.random() < 0.8]
            extra = ["'''Pages in this section:'''",
                     "\n".join(f" * {_link(m, rng, name)}" for m in listed) or " * (none yet)"]
            tail = ["----", f"Category{SECTIONS[p['section']]}"]
        elif p["kind"] == "category":
            extra = [f"'''List of pages in this category:'''\n\n"
                     f"<<FullSearchCached(category:{name})>>"]
            tail = ["----", "CategoryCategory"]
        elif p["kind"] == "homepage":
            user = users[names.index(name)]
            extra = [f"Email: <<MailTo({user['email'].replace('@', ' AT ')})>>"]
            links = [_link(pages[j]["name"], rng, name) for j in articles
                     if pages[j]["author"] == name][:6]
            tail = ["----", "CategoryHomepage"]
        else:
            kids = children.get(i, [])
            if kids:
                how = rng.choices(["links", "macro", "none"], [6, 3, 1])[0]
                if how == "links":
                    extra = ["'''Subpages:'''", "\n".join(
                        f" * {_link(pages[k]['name'], rng, name)}" for k in kids)]
                elif how == "macro":
                    extra = ["<<Navigation(children)>>"]
            cats = [f"Category{SECTIONS[p['section']]}"]
            if rng.random() < 0.2:
                cats.append(f"Category{rng.choice(SECTIONS)}")
            tail = ["----", " ".join(dict.fromkeys(cats))]
        blocks = [f"= {user['alias']} =" if p["kind"] == "homepage" else "",
                  *_body(rng, links, extra)]
        blocks = [b for b in blocks if b]
        n_revs = rng.choices([1, 2, 3, 4, 5, 6], [3, 4, 3, 2, 1, 1])[0]
        when = created
        for k in range(n_revs):
            if k:
                when = min(now - dt.timedelta(minutes=n_revs - k),
                           when + dt.timedelta(hours=rng.expovariate(1 / 300)))
                j = rng.randrange(1, len(blocks))
                if blocks[j].startswith(("==", " *", "<<", "'''", "Email")) \
                        or rng.random() < 0.4:
                    blocks.append(_paragraph(rng, (1, 3)))
                else:
                    kept = "".join(f" See {link}." for link in links
                                   if f" See {link}." in blocks[j])
                    blocks[j] = _paragraph(rng, (2, 5)) + kept
            editor = p["author"] if not k or p["kind"] == "homepage" else rng.choice(names)
            events.append({"kind": "save", "page": name, "user": editor,
                           "ts": calendar.timegm(when.utctimetuple()),
                           "comment": "" if not k else rng.choice(MESSAGES),
                           "text": "\n\n".join([*blocks, *tail]) + "\n"})
        p["revisions"] = n_revs
        p["attachments"] = 0
        if p["kind"] == "page" and i > len(SECTIONS) and rng.random() < 0.1:
            file = f"{rng.choice(NOUNS)}-{rng.choice(['notes', 'list', 'plan'])}.txt"
            for k in range(rng.choice([1, 1, 2])):
                at = when + dt.timedelta(hours=k + 1)
                events.append({"kind": "attach", "page": name, "name": file,
                               "user": rng.choice(names),
                               "ts": calendar.timegm(at.utctimetuple()),
                               "text": "\n".join(_sentence(rng)
                                                 for _ in range(rng.randint(3, 8)))})
            p["attachments"] = 1
            # the link to it, in the last revision of the page
            last = next(e for e in reversed(events) if e["kind"] == "save")
            body, _, rest = last["text"].rpartition("\n\n----")
            last["text"] = f"{body}\n\nThe list: [[attachment:{file}]]\n\n----{rest}"
    events.sort(key=lambda e: e["ts"])
    for p in pages:
        p.pop("parent", None)
    return {"site_name": SITE_NAME, "users": users, "pages": pages, "events": events}


def available() -> str | None:
    """None if MoinMoin's venv is there, else how to make it."""
    python = VENV / "bin" / "python"
    if python.exists():
        done = subprocess.run([str(python), "-E", "-s", "-c",
                               "import MoinMoin.version as v, waitress; print(v.release)"],
                              capture_output=True, text=True)
        if done.returncode == 0 and done.stdout.strip() == MOIN_VERSION:
            return None
    return (f"needs moin {MOIN_VERSION} and waitress in a Python 2.7 venv of their own "
            f"(ARCHIVER_MOIN_VENV, now {VENV}): {INSTALL}")


def _prepare(folder: Path) -> None:
    (folder / "wikiconfig.py").write_text(WIKICONFIG)
    (folder / "robots.txt").write_text(ROBOTS)


def build(folder: Path, n_pages: int = 300, seed: int = 0) -> Path:
    """Build a fresh wiki in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    return build_helper_site(folder, VENV, {"n_pages": n_pages, "seed": seed,
                                            "version": VERSION}, "MoinMoin site", HELPER,
                             lambda now: generate(n_pages, seed, now), _prepare, python2=True)


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the wiki built in folder (waitress with `workers` threads, read-only) on a free
    port; yields the home URL."""
    with serve_helper(VENV, folder, workers, "moin", python2=True) as seed:
        yield seed


def _name(segs: list[str]) -> str:
    return "/".join(segs)


def page_type(url: str) -> str:
    """Ground truth from the URL alone (MoinMoin 1.9's URL scheme), in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - /moin_static1911/... (the theme's CSS, JS and images), /robots.txt, /favicon.ico:
      "static"
    - ?action=NAME (or ?do= without one, AttachFile's old form): by ACTIONS (show: the page
      itself, below); AttachFile with do=get or do=view (and target=): "attachment", its
      other forms: "attachments"; info, diff, recall, raw, print, edit: those types; the
      searches (fullsearch, titlesearch, goto, LikePages): "search"; login, logout,
      newaccount, recoverpass, userprefs: "login"; rss_rc, sitemap: "feed"; any other
      action: "action"
    - the page's name (the path unquoted, "/" being the FrontPage): one of MoinMoin's
      system pages or templates (SYSTEM_PAGES): "system"; a help or course page (HelpOn...,
      HelpContents, WikiCourse/...): "help"; CategoryX (X not Homepage, Category, Template):
      "category"; FIRSTLAST of the generator's users (`words.FIRST`, `words.LAST`):
      "homepage"; anything else: "page" (a page never written too)."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    if (segs and segs[0] == STATIC_PREFIX) or path in ("/robots.txt", "/favicon.ico"):
        return "static"
    query = parse_qs(urlsplit(url).query)
    action = query.get("action", ["show" if "do" not in query else "AttachFile"])[0]
    if action != "show":
        if action == "AttachFile":
            return ("attachment" if query.get("do", [""])[0] in ("get", "view")
                    and "target" in query else "attachments")
        return ACTIONS.get(action, "action")
    return _name_type(_name(segs) or "FrontPage")


def _name_type(name: str) -> str:
    if name in SYSTEM_PAGES:
        return "system"
    if name.startswith(HELP_PREFIXES):
        return "help"
    if name.startswith("Category") and "/" not in name:
        return "category"
    if "/" not in name and any(name.startswith(f) and name[len(f):] in LAST for f in FIRST):
        return "homepage"
    return "page"


def entity_of(url: str) -> str | None:
    """The page a URL shows: "page NAME" for a page, category page or homepage (the path
    unquoted; "/" is the FrontPage; a query without another action, as ?highlight=, does not
    change it; MoinMoin's page names are case-sensitive); None for anything else."""
    kind = page_type(url)
    if kind not in UCC_TYPES:
        return None
    _, segs = loopback_path(url) or ("/", [])
    return f"page {_name(segs) or 'FrontPage'}"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every UCC page (/FrontPage, /Woodwork, /LatheChecklist, /A/B,
    /CategoryWoodwork, /AnnaBerg, ...); give the server (e.g. "http://127.0.0.1:8123") to
    get absolute URLs."""
    return entity_urls(folder, server)


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: UCC pages by kind, subpages, revisions per page,
    pages with attachments."""
    rows = entity_rows(folder)
    return {"pages": len(rows), "by_kind": dict(Counter(r["kind"] for r in rows)),
            "subpages": sum("/" in r["name"] for r in rows),
            "revisions": dict(sorted(Counter(r["revisions"] for r in rows).items())),
            "with_attachments": sum(1 for r in rows if r["attachments"])}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "pages", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        home_links = smoke.home_links
        page = next(u for u in ucc if "/" in urlsplit(u).path[1:])
        page_links = same_host_links(requests.get(page, timeout=30).content, page)
        path = urlsplit(page).path
        first = {page_type(u): u for u in sorted(home_links | page_links, reverse=True)}
        smoke_fetch([seed, page, *first.values(), f"{server}{path}?action=info",
                     f"{server}{path}?action=diff&rev1=1&rev2=2",
                     f"{server}{path}?action=recall&rev=1", f"{server}{path}?action=raw",
                     f"{server}{path}?action=edit", f"{server}{path}?action=AttachFile",
                     f"{server}/RecentChanges", f"{server}/TitleIndex",
                     f"{server}/{quote('CategoryWoodwork')}", f"{server}/robots.txt",
                     f"{server}/NoSuchPageHere"], page_type, follow_redirects=False)
        print(f"POST {requests.post(seed, timeout=30).status_code} (read-only)")
        print_link_types([("home", home_links), (page, page_links)], page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
