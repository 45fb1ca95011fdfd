"""The real-CMS benchmarks' ground truth (`benchmarks.realsite`): page types and the UCC page a
URL shows come from the URL alone, so they are checked here without the CMS installed."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.realsite import askbot as ab
from benchmarks.realsite import djangoqa as dq
from benchmarks.realsite import djangowiki as dj
from benchmarks.realsite import dokuwiki as dw
from benchmarks.realsite import flaskbb as fbb
from benchmarks.realsite import fossil as fo
from benchmarks.realsite import ghost as gh
from benchmarks.realsite import hyperkitty as hk
from benchmarks.realsite import machina as ma
from benchmarks.realsite import mediagoblin as mgb
from benchmarks.realsite import mediawiki as mw
from benchmarks.realsite import mezzanine as mz
from benchmarks.realsite import misago as mg
from benchmarks.realsite import moin as mm
from benchmarks.realsite import pelican as pl
from benchmarks.realsite import photologue as ph
from benchmarks.realsite import puput as pu
from benchmarks.realsite import pybbm as pb
from benchmarks.realsite import redmine as rm
from benchmarks.realsite import roundup as rd
from benchmarks.realsite import spirit as sp
from benchmarks.realsite import trac as tr
from benchmarks.realsite import wordpress as wp

H = "http://127.0.0.1:8080"


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "home"),
    ("/page/3/", "home"),
    ("/2026/10/31/recipe-film/", "post"),
    ("/2026/10/31/recipe-film/2/", "post"),
    ("/2026/10/31/recipe-film/?replytocom=1364", "reply"),
    ("/2026/10/31/recipe-film/feed/", "feed"),
    ("/2026/10/31/recipe-film/attachment/photo-1/", "attachment"),
    ("/2024/", "date"),
    ("/2024/11/", "date"),
    ("/2024/11/05/", "date"),
    ("/2024/11/page/2/", "date"),
    ("/category/baking/", "category"),
    ("/category/baking/page/2/", "category"),
    ("/category/baking/feed/", "feed"),
    ("/tag/bench-wheel/", "tag"),
    ("/author/inesberg/", "author"),
    ("/feed/", "feed"),
    ("/comments/feed/", "feed"),
    ("/?feed=rss2", "feed"),
    ("/?s=bread", "search"),
    ("/?p=12", "post"),
    ("/?page_id=7", "page"),
    ("/?author=3", "author"),
    ("/about/", "page"),
    ("/about/team/", "other"),
    ("/wp-login.php?action=lostpassword", "login"),
    ("/wp-admin/", "admin"),
    ("/wp-json/wp/v2/posts/12", "api"),
    ("/?rest_route=/wp/v2/posts", "api"),
    ("/wp-content/themes/twentytwentyone/style.css", "static"),
    ("/xmlrpc.php", "other"),
])
def test_wordpress_page_type(path: str, kind: str) -> None:
    assert wp.page_type(H + path) == kind


def test_wordpress_page_type_of_another_host_is_other() -> None:
    assert wp.page_type("https://wordpress.org/2026/10/31/x/") == "other"


def test_wordpress_entity_of_joins_the_views_of_a_post() -> None:
    post = wp.entity_of(H + "/2026/10/31/recipe-film/")
    assert post == "/2026/10/31/recipe-film/"
    assert wp.entity_of(H + "/2026/10/31/recipe-film/2/") == post     # its second page
    assert wp.entity_of(H + "/about/") == "/about/"
    for other in ("/2026/10/31/recipe-film/?replytocom=5", "/2024/11/", "/author/x/", "/",
                  "/2026/10/31/recipe-film/feed/"):
        assert wp.entity_of(H + other) is None, other


@pytest.mark.parametrize(("path", "kind"), [
    ("/index.php/Main_Page", "article"),
    ("/index.php/Talk:Karo_River", "talk"),
    ("/index.php/User_talk:Anna", "user_talk"),
    ("/index.php/Special:RecentChanges", "special"),
    ("/index.php?title=Karo_River&action=history", "history"),
    ("/index.php?title=Karo_River&diff=12&oldid=11", "diff"),
    ("/index.php?title=Karo_River&action=edit", "edit"),
    ("/index.php/Category:Rivers", "category"),
    ("/load.php?modules=site", "other"),
])
def test_mediawiki_page_type(path: str, kind: str) -> None:
    assert mw.page_type(H + path) == kind


def test_mediawiki_entity_of_is_the_title_of_a_ucc_view() -> None:
    assert mw.entity_of(H + "/index.php/Karo_river") == "Karo river"
    assert mw.entity_of(H + "/index.php?title=Karo_river") == "Karo river"
    assert mw.entity_of(H + "/index.php?title=Karo_river&action=history") is None
    assert mw.entity_of(H + "/index.php/Special:Log") is None


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "index"),
    ("/category/2-hobbies", "category"),
    ("/forum/3-bikes", "forum"),
    ("/forum/3-bikes?page=2", "forum"),
    ("/topic/225-notes-on-frame", "topic"),
    ("/topic/225?page=3", "topic"),
    ("/post/1043", "post"),
    ("/user/anna", "user"),
    ("/user/anna/topics", "user_topics"),
    ("/user/anna/posts?page=4", "user_posts"),
    ("/user/settings/email", "account"),
    ("/memberlist?orderby=username&sort_by=desc&page=2", "memberlist"),
    ("/portal/", "portal"),
    ("/who-is-online", "online"),
    ("/search", "search"),
    ("/auth/login", "login"),
    ("/topic/225-notes-on-frame/post/new", "write"),
    ("/static/js/app.js", "static"),
    ("/admin/", "admin"),
    ("/nothing/here/at/all", "other"),
])
def test_flaskbb_page_type(path: str, kind: str) -> None:
    assert fbb.page_type(H + path) == kind


def test_flaskbb_entity_of_is_a_topic_page_or_a_profile() -> None:
    """Every page of a thread is an entity of its own; its URL forms (with or without the
    slug, ?page=1 or none) are views of one."""
    assert fbb.entity_of(H + "/topic/225-notes-on-frame") == "topic 225 page 1"
    assert fbb.entity_of(H + "/topic/225-notes-on-frame?page=1") == "topic 225 page 1"
    assert fbb.entity_of(H + "/topic/225?page=3") == "topic 225 page 3"
    assert fbb.entity_of(H + "/user/anna") == "user anna"
    assert fbb.entity_of(H + "/post/1043") is None            # a redirect, not a page
    assert fbb.entity_of(H + "/user/anna/posts") is None


@pytest.mark.parametrize(("path", "kind"), [
    ("/doku.php", "page"),
    ("/doku.php?id=start", "page"),
    ("/doku.php?id=geography:karo_river", "page"),
    ("/doku.php?id=geography:", "page"),
    ("/doku.php?id=geography:karo_river&rev=1793687895", "revision"),
    ("/doku.php?id=geography:karo_river&do=diff&rev2%5B0%5D=1&rev2%5B1%5D=2", "diff"),
    ("/doku.php?id=geography:karo_river&do=edit", "edit"),
    ("/doku.php?id=geography:karo_river&do=revisions", "revisions"),
    ("/doku.php?id=geography:karo_river&do=backlink", "backlink"),
    ("/doku.php?id=start&do=recent", "recent"),
    ("/doku.php?id=start&do=index", "index"),
    ("/doku.php?id=trade:tanu_canal&idx=society", "index"),
    ("/doku.php?id=x&do=media&ns=geography", "media"),
    ("/lib/exe/fetch.php?media=wiki:dokuwiki-128.png", "media"),
    ("/doku.php?id=x&do=resendpwd", "login"),
    ("/doku.php?do=export_code&id=wiki:syntax&codeblock=0", "export"),
    ("/feed.php", "feed"),
    ("/doku.php?id=x&do=search&q=river", "search"),
    ("/lib/tpl/dokuwiki/images/logo.png", "static"),
    ("/doku.php?do=admin&page=config", "other"),
])
def test_dokuwiki_page_type(path: str, kind: str) -> None:
    assert dw.page_type(H + path) == kind


def test_dokuwiki_entity_of_is_the_cleaned_page_id_of_a_page_view() -> None:
    assert dw.entity_of(H + "/doku.php?id=Geography:Karo_River") == "geography:karo_river"
    assert dw.entity_of(H + "/doku.php?id=geography;karo_river") == "geography:karo_river"
    assert dw.entity_of(H + "/doku.php?id=geography:") == "geography:start"
    assert dw.entity_of(H + "/doku.php") == "start"
    for other in ("/doku.php?id=geography:karo_river&do=edit",
                  "/doku.php?id=geography:karo_river&rev=12", "/feed.php"):
        assert dw.entity_of(H + other) is None, other


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "index"),
    ("/topic/active/?page=2", "index"),
    ("/category/", "categories"),
    ("/category/8/outdoors/?page=4", "category"),
    ("/topic/63/recipe-weld/", "topic"),
    ("/topic/63/recipe-weld/?page=3", "topic"),
    ("/topic/63/", "topic"),
    ("/topic/publish/", "write"),
    ("/comment/1775/find/", "comment"),
    ("/comment/history/3250/", "history"),
    ("/comment/290/publish/", "write"),
    ("/user/20/pia_dahl/", "user"),
    ("/user/login/?next=/user/login/%3Fnext%3D/comment/275/publish/", "login"),
    ("/search/", "search"),
    ("/static/spirit/emojis/1f44d.svg", "static"),
    ("/st/admin/", "admin"),
    ("/nothing/here", "other"),
])
def test_spirit_page_type(path: str, kind: str) -> None:
    assert sp.page_type(H + path) == kind


def test_spirit_entity_of_is_a_topic_page() -> None:
    """Each page of a thread is an entity; the bare URL and ?page=1 are one view."""
    assert sp.entity_of(H + "/topic/63/recipe-weld/") == "topic 63 page 1"
    assert sp.entity_of(H + "/topic/63/recipe-weld/?page=1") == "topic 63 page 1"
    assert sp.entity_of(H + "/topic/63/other-slug/?page=3") == "topic 63 page 3"
    for other in ("/comment/1775/find/", "/topic/63/recipe-weld/?page=0", "/user/20/pia/"):
        assert sp.entity_of(H + other) is None, other


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "index"),
    ("/forum/workshop-2/", "forum"),
    ("/forum/electronics-5/?page=2", "forum"),
    ("/forum/off-topic-14/", "forum"),
    ("/forum/baking-12/topic/notes-on-grinder-and-chain-243/", "topic"),
    ("/forum/baking-12/topic/notes-on-grinder-and-chain-243/?page=2", "topic"),
    ("/forum/baking-12/topic/notes-on-grinder-and-chain-243/?post=3473", "topic"),
    ("/forum/baking-12/topic/topic-7/", "topic"),
    ("/forum/baking-12/topic/create/", "write"),
    ("/forum/baking-12/topic/bread-65/update/", "write"),
    ("/forum/baking-12/topic/bread-65/post/create/", "write"),
    ("/forum/baking-12/topic/bread-65/746/post/update/", "write"),
    ("/forum/baking-12/topic/bread-65/746/post/delete/", "write"),
    ("/forum/baking/", "other"),
    ("/member/profile/7/", "user"),
    ("/member/profile/7/posts/?page=3", "user_posts"),
    ("/member/profile/edit/", "account"),
    ("/member/subscriptions/", "account"),
    ("/member/topic/65/subscribe/", "account"),
    ("/feeds/topics/", "feed"),
    ("/feeds/forum/electronics-5/topics/all/", "feed"),
    ("/search/?q=bread&page=2", "search"),
    ("/tracking/unread-topics/", "account"),
    ("/moderation/queue/", "account"),
    ("/account/login/?next=/member/subscriptions/", "login"),
    ("/account/register/", "login"),
    ("/account/password-reset/", "login"),
    ("/admin/login/?next=/admin/", "admin"),
    ("/static/css/machina.board_theme.min.css", "static"),
    ("/static/fonts/fa-solid-900.woff2", "static"),
    ("/robots.txt", "static"),
    ("/nothing/here/", "other"),
])
def test_machina_page_type(path: str, kind: str) -> None:
    assert ma.page_type(H + path) == kind


def test_machina_page_type_of_another_host_is_other() -> None:
    assert ma.page_type("https://www.djangoproject.com/forum/x-1/topic/y-2/") == "other"


def test_machina_entity_of_is_a_topic_page() -> None:
    """Each page of a thread is an entity: any slug or forum in the path (machina looks the
    topic up by ID), no ?page= is page 1, and ?post=ID is the page holding that post (from
    the build's post table) when the post is the topic's, else ?page= decides."""
    ma._POST_PAGE.clear()
    ma._POST_PAGE.update({746: (65, 1), 760: (65, 2), 900: (70, 3)})
    try:
        topic = "/forum/baking-12/topic/bread-repair-question-65/"
        assert ma.entity_of(H + topic) == "topic 65 page 1"
        assert ma.entity_of(H + topic + "?page=1") == "topic 65 page 1"
        assert ma.entity_of(H + topic + "?page=3") == "topic 65 page 3"
        assert ma.entity_of(H + "/forum/coffee-13/topic/other-slug-65/?page=2") == \
            "topic 65 page 2"
        assert ma.entity_of(H + topic + "?post=760") == "topic 65 page 2"
        assert ma.entity_of(H + topic + "?post=746&page=2") == "topic 65 page 1"
        assert ma.entity_of(H + topic + "?post=900") == "topic 65 page 1"  # another topic's
        assert ma.entity_of(H + topic + "?post=900&page=2") == "topic 65 page 2"
        for other in (topic + "?page=0", topic + "?page=x", "/forum/baking-12/",
                      "/member/profile/7/", topic + "post/create/"):
            assert ma.entity_of(H + other) is None, other
    finally:
        ma._POST_PAGE.clear()


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "home"),
    ("/photologue/", "other"),
    ("/photologue/gallery/", "archive"),
    ("/photologue/photo/", "archive"),
    ("/photologue/gallerylist/?page=2", "list"),
    ("/photologue/photolist/", "list"),
    ("/photologue/gallery/harbour-at-dawn-porto/", "gallery"),
    ("/photologue/gallery/2025/06/14/harbour-at-dawn-porto/", "gallery"),
    ("/photologue/photo/boats-in-porto-2/", "photo"),
    ("/photologue/photo/2025/06/14/boats-in-porto-2/", "photo"),
    ("/photologue/photo/2025/", "year"),
    ("/photologue/gallery/2025/06/", "month"),
    ("/photologue/photo/2025/06/14/", "day"),
    ("/photologue/photo/2025/06/14/a/b/", "other"),
    ("/media/photologue/photos/boats-in-porto-2.jpg", "image"),
    ("/static/css/site.css", "static"),
    ("/admin/login/?next=/photologue/photo/", "login"),
    ("/favicon.ico", "static"),
])
def test_photologue_page_type(path: str, kind: str) -> None:
    assert ph.page_type(H + path) == kind


def test_photologue_entity_of_joins_a_pages_two_urls() -> None:
    """A photo or gallery has its slug URL and a dated one: one entity."""
    assert ph.entity_of(H + "/photologue/photo/boats-in-porto-2/") == "photo boats-in-porto-2"
    assert ph.entity_of(H + "/photologue/photo/2025/06/14/boats-in-porto-2/") == \
        "photo boats-in-porto-2"
    assert ph.entity_of(H + "/photologue/gallery/best-of-2025/") == "gallery best-of-2025"
    for other in ("/photologue/photo/", "/photologue/photo/2025/06/14/", "/",
                  "/media/photologue/photos/boats-in-porto-2.jpg"):
        assert ph.entity_of(H + other) is None, other


def test_photologue_generator_makes_unique_titles_and_every_photo_a_day() -> None:
    """Photologue's titles and slugs are unique (the build fails otherwise); galleries hold
    photos that exist, and every photo is dated within the two years before `now`."""
    import datetime as dt

    now = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)
    spec = ph.generate(400, 0, now)
    photos, galleries = spec["photos"], spec["galleries"]
    assert len(photos) == 400
    for rows in (photos, galleries):
        assert len({r["title"] for r in rows}) == len({r["slug"] for r in rows}) == len(rows)
    assert all(0 <= i < len(photos) for g in galleries for i in g["photos"])
    dates = [dt.datetime.fromisoformat(p["date"]) for p in photos]
    assert all(now - dt.timedelta(days=740) < d < now for d in dates)
    assert ph.generate(400, 0, now) == spec                     # deterministic


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "home"),
    ("/wiki", "home"),
    ("/wiki/WikiStart", "home"),
    ("/wiki/WikiStart?action=history", "history"),
    ("/wiki/HowTo/BenchBrake", "wiki"),
    ("/wiki/MeetingNotes/2025-03-12", "wiki"),
    ("/wiki/Installation?version=2", "revision"),
    ("/wiki/Installation?action=diff&version=3", "revision"),
    ("/wiki/Installation?action=diff&version=3&old_version=1", "revision"),
    ("/wiki/Installation?action=history", "history"),
    ("/wiki/Installation?format=txt", "export"),
    ("/wiki/Installation?action=edit", "other"),
    ("/wiki/TracGuide", "help"),
    ("/wiki/WikiFormatting?version=1", "revision"),
    ("/wiki/TitleIndex", "index"),
    ("/wiki/RecentChanges", "index"),
    ("/ticket/7", "ticket"),
    ("/ticket/7?cnum_hist=2&cversion=1", "revision"),
    ("/ticket/7?action=diff&version=3", "revision"),
    ("/ticket/7?format=csv", "export"),
    ("/ticket/7?replyto=2", "other"),
    ("/ticket/seven", "other"),
    ("/timeline", "timeline"),
    ("/timeline?from=2024-01-05&daysback=30&authors=", "timeline"),
    ("/timeline?format=rss", "export"),
    ("/roadmap", "roadmap"),
    ("/milestone/0.3", "milestone"),
    ("/query?status=!closed&component=core&order=priority", "query"),
    ("/query?status=closed&format=csv", "export"),
    ("/report/1?sort=ticket&asc=0", "report"),
    ("/report", "report"),
    ("/search", "search"),
    ("/browser", "browser"),
    ("/login", "login"),
    ("/prefs", "prefs"),
    ("/about", "about"),
    ("/chrome/common/css/trac.css", "static"),
    ("/robots.txt", "other"),
])
def test_trac_page_type(path: str, kind: str) -> None:
    assert tr.page_type(H + path) == kind


def test_trac_entity_of_is_a_ticket_or_a_written_wiki_page() -> None:
    """A ticket or a page of the project's wiki (subpages by their whole name); never
    another view of one, a help page, an index or the home page."""
    assert tr.entity_of(H + "/ticket/7") == "ticket 7"
    assert tr.entity_of(H + "/wiki/HowTo/BenchBrake") == "wiki HowTo/BenchBrake"
    for other in ("/ticket/7?format=rss", "/wiki/HowTo/BenchBrake?version=1", "/",
                  "/wiki/TracGuide", "/wiki/TitleIndex", "/wiki/WikiStart", "/milestone/0.3"):
        assert tr.entity_of(H + other) is None, other
    assert not (tr.SHIPPED | tr.INDEXES) & set(tr.GUIDES)


def test_trac_generator_orders_each_tickets_changes_and_names_pages_once() -> None:
    """A ticket's changes are keyed by their time (the build fails on two at one instant):
    each comes after the ticket and the change before it, and before `now`. Page names are
    unique, none a shipped page's; ticket references point to tickets that exist."""
    import datetime as dt
    import re

    now = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)
    spec = tr.generate(300, 0, now)
    assert len(spec["tickets"]) == 300
    for t in spec["tickets"]:
        times = [dt.datetime.fromisoformat(x) for x in
                 [t["time"], *(c["time"] for c in t["changes"])]]
        assert times == sorted(times) and len(set(times)) == len(times)
        assert times[-1] < now
    names = [p["name"] for p in spec["pages"]]
    assert len(names) == len(set(names)) == 76 and "WikiStart" in names  # 75 and the home
    assert not set(names) & (tr.SHIPPED | tr.INDEXES)
    texts = [v["text"] for p in spec["pages"] for v in p["versions"]] + \
        [t["fields"]["description"] for t in spec["tickets"]]
    refs = {int(n) for text in texts for n in re.findall(r"#(\d+)", text)}
    assert refs and max(refs) <= 300 and min(refs) >= 1
    assert tr.generate(300, 0, now) == spec                     # deterministic


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "home"),
    ("/home", "home"),
    ("/index", "home"),
    ("/home?@template=classlist", "other"),
    ("/issue7", "issue"),
    ("/issue07", "issue"),
    ("/issue7?@template=item", "view"),
    ("/issue7?@ok_message=saved", "view"),
    ("/issue7/", "other"),
    ("/issue7/notes.txt", "other"),
    ("/issue?@sort=-activity&@group=priority&@filter=status&@columns=id%2Cactivity%2Ctitle"
     "%2Ccreator%2Cassignedto%2Cstatus&@search_text=&status=-1%2C1%2C2%2C3%2C4%2C5%2C6%2C7"
     "&@dispname=Show%20All&@pagesize=50&@startwith=0", "index"),
    ("/issue?@dispname=Show%20Unassigned&@startwith=50&@pagesize=50&@columns=id,activity,"
     "title,creator,status&@sort=-activity&@group=priority&@filter=status,assignedto&"
     "status=-1,1,2,3,4,5,6,7&assignedto=-1", "index"),
    ("/issue?@columns=id,title&@sort=activity&@group=priority&@search_text=brake", "index"),
    ("/issue", "index"),
    ("/issue?@template=index", "index"),
    ("/issue?@template=search", "search"),
    ("/issue?:template=search", "search"),
    ("/issue?@template=item", "edit"),
    ("/issue?@action=export_csv&@columns=id,activity,title,creator,status&@sort=-activity"
     "&@filter=status,assignedto&@pagesize=50&@startwith=0&status=-1,1,2&assignedto=-1",
     "export"),
    ("/issue?@action=export_csv_id&@columns=id,title", "export"),
    ("/issue?@action=show&@type=issue&@number=7", "other"),
    ("/?@action=logout", "other"),
    ("/issue?@template=calendar&property=activity&form=itemSynopsis", "classhelp"),
    ("/issue?@template=keywords_expr&property=keyword&form=itemSynopsis", "classhelp"),
    ("/user?@template=help&properties=username,realname&property=nosy", "classhelp"),
    ("/msg23", "msg"),
    ("/msg23/content.txt", "msg"),
    ("/msg", "msg"),
    ("/file3", "file"),
    ("/file3/traceback.txt", "file"),
    ("/file", "file"),
    ("/user3", "user"),
    ("/user", "user"),
    ("/user3?@template=item", "user"),
    ("/user?@template=register", "register"),
    ("/user?@template=forgotten", "login"),
    ("/keyword2", "property"),
    ("/keyword", "property"),
    ("/status?@template=index", "property"),
    ("/priority3", "property"),
    ("/query", "property"),
    ("/keyword?@template=item", "edit"),
    ("/@@file/style.css", "static"),
    ("/_file/classhelper.js", "static"),
    ("/rest/data/issue/7", "api"),
    ("/rest", "api"),
    ("/xmlrpc", "api"),
    ("/robots.txt", "other"),
    ("/favicon.ico", "other"),
    ("/nosuchclass", "other"),
])
def test_roundup_page_type(path: str, kind: str) -> None:
    assert rd.page_type(H + path) == kind
    assert kind in rd.TYPE_ORDER


def test_roundup_page_type_of_another_host_and_relative_urls() -> None:
    assert rd.page_type("http://bugs.example.org/issue7") == "other"
    assert rd.page_type("/issue7") == "issue"
    assert rd.page_type("http://localhost:8917/issue7") == "issue"


def test_roundup_entity_of_is_an_issue_by_its_plain_url() -> None:
    """/issueN (leading zeros dropped, as Roundup does); never another view of an issue, a
    message, a file, a list or the home page."""
    assert rd.entity_of(H + "/issue7") == "issue 7"
    assert rd.entity_of(H + "/issue007") == "issue 7"
    for other in ("/issue7?@template=item", "/issue7/", "/msg7", "/file7/log.txt", "/",
                  "/issue?@template=search", "/issue?@startwith=50&@pagesize=50", "/user7"):
        assert rd.entity_of(H + other) is None, other
    assert {rd.TARGET_TYPE} == rd.UCC_TYPES


def test_roundup_generator_keeps_time_order_and_reaches_every_issue() -> None:
    """Events in time order, each issue opened (in index order, so its id is its index + 1)
    before its replies, all before `now`; statuses the classic template has; superseders
    and cited issues earlier ones; and every issue within links' reach of the lists, which
    show the unresolved issues only (a resolved issue is linked from the issues naming it);
    deterministic."""
    import datetime as dt
    import re
    from collections import defaultdict

    now = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)
    spec = rd.generate(300, 0, now)
    events = spec["events"]
    assert len(spec["users"]) == len({u["username"] for u in spec["users"]}) == 25
    assert len(spec["keywords"]) == 8
    times = [dt.datetime.fromisoformat(e["time"]) for e in events]
    assert times == sorted(times) and times[-1] < now
    opened = [e["issue"] for e in events if e["kind"] == "open"]
    assert opened == list(range(300))
    first = {}
    status: dict[int, str] = {}
    links: dict[int, set[int]] = defaultdict(set)
    for e in events:
        first.setdefault(e["issue"], e["kind"])
        assert first[e["issue"]] == "open"
        if "status" in e:
            assert e["status"] in {"unread", "chatting", "need-eg", "in-progress", "testing",
                                   "done-cbb", "resolved"}
            status[e["issue"]] = e["status"]
        cited = {int(n) - 1 for n in re.findall(r"\bissue(\d+)", e["text"])}
        if "superseder" in e:
            cited.add(e["superseder"])
        assert all(0 <= c < e["issue"] for c in cited), e
        links[e["issue"]] |= cited
    resolved = {i for i, s in status.items() if s == "resolved"}
    assert 60 < len(resolved) < 200 and any("superseder" in e for e in events)
    reached, todo = set(), [i for i in range(300) if i not in resolved]
    while todo:
        i = todo.pop()
        if i not in reached:
            reached.add(i)
            todo += links[i]
    assert reached == set(range(300))
    assert rd.generate(300, 0, now) == spec                     # deterministic


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "index"),
    ("/?utm_source=feed", "index"),
    ("/index.html", "index"),
    ("/index2.html", "index"),
    ("/index30.html", "index"),
    ("/theme/css/main.css", "static"),
    ("/theme/fonts/Yanone_Kaffeesatz_400.woff2", "static"),
    ("/theme/fonts/Yanone_Kaffeesatz_LICENSE.txt", "static"),
    ("/theme", "static"),
    ("/images/bench.jpg", "static"),
    ("/favicon.ico", "static"),
    ("/feeds/all.atom.xml", "feed"),
    ("/feeds/woodwork.atom.xml", "feed"),
    ("/feeds/", "other"),
    ("/archives.html", "archives"),
    ("/tags.html", "tags"),
    ("/categories.html", "categories"),
    ("/authors.html", "authors"),
    ("/notes-on-the-chisel-bench.html", "post"),
    ("/notes-on-the-chisel-bench.html?utm_source=x", "post"),
    ("/notes-on-the-chisel-bench-2.html", "post"),
    ("/notes-on-the-chisel-bench.html/", "other"),
    ("/notes-on-the-chisel-bench", "other"),
    ("/pages/about.html", "page"),
    ("/pages/contact.html", "page"),
    ("/pages/", "other"),
    ("/tag/bread.html", "tag"),
    ("/tag/bread3.html", "tag"),
    ("/tag/bike-repair.html", "tag"),
    ("/category/woodwork.html", "category"),
    ("/category/woodwork2.html", "category"),
    ("/author/maya-quist.html", "author"),
    ("/author/maya-quist4.html", "author"),
    ("/tag/", "other"),
    ("/tag", "other"),
    ("/tag/bread/", "other"),
    ("/drafts/notes-on-the-chisel-bench.html", "other"),
    ("/2025/", "other"),
    ("/2025/06/notes-on-the-chisel-bench/", "other"),
    ("/robots.txt", "other"),
    ("/sitemap.xml", "other"),
])
def test_pelican_page_type(path: str, kind: str) -> None:
    assert pl.page_type(H + path) == kind
    assert kind in pl.TYPE_ORDER


def test_pelican_page_type_of_another_host_and_relative_urls() -> None:
    assert pl.page_type("https://getpelican.com/") == "other"
    assert pl.page_type("https://social.example.org/@sawdust") == "other"
    assert pl.page_type("/pages/about.html") == "page"
    assert pl.page_type("http://localhost:8000/tag/bread.html") == "tag"


def test_pelican_entity_of_is_a_post_or_page_by_its_file() -> None:
    """/SLUG.html is the post SLUG and /pages/SLUG.html the page SLUG, whatever the query;
    no listing, feed or list of terms is one."""
    assert pl.entity_of(H + "/notes-on-the-chisel-bench.html") == \
        "post notes-on-the-chisel-bench"
    assert pl.entity_of(H + "/notes-on-the-chisel-bench.html?x=1") == \
        "post notes-on-the-chisel-bench"
    assert pl.entity_of(H + "/pages/about.html") == "page about"
    for other in ("/", "/index.html", "/index2.html", "/archives.html", "/tags.html",
                  "/tag/bread.html", "/category/woodwork.html", "/author/maya-quist.html",
                  "/feeds/all.atom.xml", "/theme/css/main.css", "/pages/",
                  "/notes-on-the-chisel-bench.html/"):
        assert pl.entity_of(H + other) is None, other
    assert pl.TARGET_TYPE in pl.UCC_TYPES == {"post", "page"}


def test_pelican_generator_makes_unique_posts_over_two_years_and_valid_sources() -> None:
    """One URL a post (Pelican skips a second post at a URL), none a name Pelican writes
    for itself; eight authors, ten categories, 1 to 5 of 30 tags a post; dates in order
    within the two years before `now`; links name older posts, and the sources carry the
    metadata Pelican reads; deterministic."""
    import datetime as dt

    now = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)
    spec = pl.generate(300, 0, now)
    posts, pages = spec["posts"], spec["pages"]
    assert len(posts) == 300 and [p["slug"] for p in pages] == ["about", "contact"]
    slugs = [p["slug"] for p in posts]
    assert len(set(slugs)) == 300
    assert all(pl.page_type(f"{H}/{s}.html") == "post" for s in slugs)
    assert all(pl.page_type(f"{H}/pages/{p['slug']}.html") == "page" for p in pages)
    assert len(spec["authors"]) == len(set(spec["authors"])) == 8
    assert len(spec["categories"]) == 10 and len(spec["tags"]) == 30
    for i, p in enumerate(posts):
        assert 1 <= len(p["tags"]) <= 5 and len(set(p["tags"])) == len(p["tags"])
        assert set(p["tags"]) <= set(spec["tags"]) and p["category"] in spec["categories"]
        assert 1 <= len(p["authors"]) <= 2 and set(p["authors"]) <= set(spec["authors"])
        assert all(0 <= j < i for j in p["links_to"])
    assert {len(p["tags"]) for p in posts} == {1, 2, 3, 4, 5}
    assert 40 < sum(1 for p in posts if p["links_to"]) < 100
    dates = [dt.datetime.fromisoformat(p["date"]) for p in posts]
    local_now = now.replace(tzinfo=None)
    assert dates == sorted(dates)
    assert all(local_now - dt.timedelta(days=731) < d < local_now for d in dates)
    assert dates[-1] - dates[0] > dt.timedelta(days=700)
    files = pl.content_files(spec)
    assert len(files) == 2 + 300 + 2 and "publishconf.py" in files
    linked = next(p for p in posts if p["links_to"])
    text = files[f"content/{pl.source_name(linked)}"]
    assert text.startswith(f"Title: {linked['title']}\nDate: ")
    assert f"\nSlug: {linked['slug']}\n" in text
    older = posts[linked["links_to"][0]]
    assert f"]({{filename}}/{pl.source_name(older)})" in text
    assert f"content/{pl.source_name(older)}" in files
    assert pl.BUILD_URL in files["publishconf.py"]
    assert f'AUTHOR = "{spec["authors"][0]}"' in files["pelicanconf.py"]
    assert pl.generate(300, 0, now) == spec                     # deterministic


def test_pelican_available_names_the_venv_when_it_is_missing(tmp_path, monkeypatch) -> None:
    """Without its venv the site says how to make it (no test here needs Pelican)."""
    monkeypatch.setattr(pl, "VENV", tmp_path / "no-venv")
    missing = pl.available()
    assert missing is not None and "ARCHIVER_PELICAN_VENV" in missing
    assert f"pelican=={pl.PELICAN_VERSION}" in missing


def test_askbot_questions_are_asked_in_index_order_at_any_size(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The helper numbers questions as it posts them, oldest first, and answers name their
    question by index: at 1,000 questions the time jitter once put questions out of order
    (the build failed with an IndexError, or answers went to the wrong question)."""
    import datetime as dt

    made: list[dict[str, object]] = []          # question events, in index order
    inner = ab.question_events

    def recorded(*args: object, **kwargs: object) -> object:
        events, comments = inner(*args, **kwargs)  # type: ignore[arg-type]
        made.append(events[0])
        return events, comments

    monkeypatch.setattr(ab, "question_events", recorded)
    now = dt.datetime(2026, 11, 26, 12, 0, 0)
    for n in (300, 1000, 3000):
        made.clear()
        events = ab.generate(n, 0, now)["events"]
        asked = [e for e in events if e["kind"] == "question"]   # as the helper posts them
        assert len(made) == n and [id(e) for e in asked] == [id(e) for e in made]


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "home"),
    ("/?page=7", "home"),
    ("/2025/06/14/notes-on-the-chisel-bench/", "entry"),
    ("/2025/6/1/notes-on-the-chisel-bench/", "entry"),
    ("/notes-on-the-chisel-bench/", "entry"),
    ("/2025/", "date"),
    ("/2025/06/", "date"),
    ("/2025/06/14/", "date"),
    ("/2025/06/?page=2", "date"),
    ("/2025/06/14/a/b/", "other"),
    ("/tag/bread/", "tag"),
    ("/tag/bread/?page=3", "tag"),
    ("/category/woodwork/", "category"),
    ("/author/greta/", "author"),
    ("/search/?q=bread", "search"),
    ("/feed/", "feed"),
    ("/sitemap.xml", "other"),
    ("/blog_admin/", "admin"),
    ("/blog_admin/login/?next=/blog_admin/", "admin"),
    ("/admin/login/", "admin"),
    ("/static/puput/css/puput.css", "static"),
    ("/static/puput/fonts/fontawesome-webfont.woff?v=4.7.0", "static"),
    ("/favicon.ico", "static"),
    ("/entry_page/12/update_comments/", "other"),
    ("/documents/1/file.pdf", "other"),
    ("/tag/", "other"),
])
def test_puput_page_type(path: str, kind: str) -> None:
    assert pu.page_type(H + path) == kind


def test_puput_page_type_of_another_host_is_other() -> None:
    assert pu.page_type("https://twitter.com/share?url=x") == "other"
    assert pu.page_type("http://fonts.googleapis.com/css?family=Roboto") == "other"


def test_puput_entity_of_joins_an_entrys_urls() -> None:
    """An entry answers at its dated URL (Puput serves the slug, whatever the date) and at
    Wagtail's /slug/: one entity."""
    key = "entry notes-on-the-chisel-bench"
    for url in ("/2025/06/14/notes-on-the-chisel-bench/", "/notes-on-the-chisel-bench/",
                "/2024/01/01/notes-on-the-chisel-bench/?x=1"):
        assert pu.entity_of(H + url) == key, url
    for other in ("/", "/2025/06/14/", "/tag/bread/", "/feed/", "/search/?q=x",
                  "/static/puput/css/puput.css"):
        assert pu.entity_of(H + other) is None, other


def test_puput_generator_makes_unique_slugs_and_dates_over_three_years() -> None:
    """Wagtail's slugs are unique among a page's children (the build fails otherwise) and no
    slug is one of Puput's words; categories and links name what exists; every entry is
    dated within the three years before `now`, in order."""
    import datetime as dt

    now = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)
    spec = pu.generate(300, 0, now)
    entries = spec["entries"]
    assert len(entries) == 300
    slugs = [e["slug"] for e in entries]
    assert len(set(slugs)) == 300 and not set(slugs) & pu.RESERVED
    assert all(pu.page_type(H + f"/{s}/") == "entry" for s in slugs)
    cats = {c["slug"] for c in spec["categories"]}
    assert {c["parent"] for c in spec["categories"]} - {None} <= cats
    authors = {a["username"] for a in spec["authors"]}
    for i, e in enumerate(entries):
        assert set(e["categories"]) <= cats and e["author"] in authors
        assert e["links_to"] is None or 0 <= e["links_to"] < i
        assert all(0 <= j < i for j in e["related"])
    dates = [dt.datetime.fromisoformat(e["date"]) for e in entries]
    assert dates == sorted(dates)
    assert all(now - dt.timedelta(days=3 * 365 + 1) < d < now for d in dates)
    assert pu.generate(300, 0, now) == spec                     # deterministic


HK_LIST = "/list/users@lists.example.org"
HK_THREAD = HK_LIST + "/thread/ER2LLRAH4YGRWTTCVWPNO4D7THKCQQV2/"
HK_MESSAGE = HK_LIST + "/message/2HYBQ5PJIIGYR4QTBIG4JJ7KJWIWWVIR/"


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "index"),
    ("/?sort=active", "index"),
    (HK_LIST + "/", "list"),
    ("/list/users%40lists.example.org/", "list"),
    (HK_LIST + "/recent-threads", "list"),
    (HK_LIST + "/top-posters", "list"),
    (HK_LIST + "/latest", "month"),
    (HK_LIST + "/latest?page=2", "month"),
    (HK_LIST + "/2025/3/", "month"),
    (HK_LIST + "/2025/3/14/", "month"),
    (HK_LIST + "/2025-March/", "month"),
    (HK_THREAD, "thread"),
    (HK_THREAD + "?noscript", "thread"),
    (HK_THREAD + "?sort=date", "thread"),
    (HK_THREAD + "replies?offset=6", "thread_json"),
    (HK_THREAD + "favorite", "write"),
    (HK_THREAD + "reattach-suggest", "write"),
    (HK_MESSAGE, "message"),
    (HK_MESSAGE + "reply", "write"),
    (HK_MESSAGE + "vote", "write"),
    (HK_MESSAGE + "attachment/1/patch.diff", "static"),
    (HK_LIST + "/message/new", "write"),
    (HK_LIST + "/delete/", "write"),
    (HK_LIST + "/feed/", "feed"),
    (HK_LIST + "/export/users@lists.example.org.mbox.gz", "export"),
    (HK_LIST + "/export/users@lists.example.org-2026-11.mbox.gz?start=2024-11-29&end=2026-11-27",
     "export"),
    ("/list/users.lists.example.org/", "other"),
    ("/search?q=bread&page=3", "search"),
    ("/users/", "user"),
    ("/users/0f1e2d/posts", "user"),
    ("/accounts/login/?next=/list/users%40lists.example.org/latest", "login"),
    ("/accounts/signup/?next=/", "login"),
    ("/profile/", "login"),
    ("/user-profile/", "login"),
    ("/api/lists/", "api"),
    ("/find-list?term=us", "api"),
    ("/static/CACHE/css/output.328abd058d68.css", "static"),
    ("/static/hyperkitty/libs/fonts/font-awesome/fonts/fontawesome-webfont.woff2?v=4.7.0",
     "static"),
    ("/robots.txt", "static"),
    ("/categories/", "other"),
    ("/pipermail/users/", "other"),
])
def test_hyperkitty_page_type(path: str, kind: str) -> None:
    assert hk.page_type(H + path) == kind


def test_hyperkitty_page_type_of_another_host_is_other() -> None:
    assert hk.page_type("https://secure.gravatar.com/list/a@b/thread/X/") == "other"


def test_hyperkitty_entity_of_is_a_thread_or_a_message() -> None:
    """A thread's views (?noscript, ?sort=date, %40 for @) are one entity, a message page
    another; the list is part of the key (HyperKitty answers 404 under another list)."""
    thread = "thread users@lists.example.org ER2LLRAH4YGRWTTCVWPNO4D7THKCQQV2"
    assert hk.entity_of(H + HK_THREAD) == thread
    assert hk.entity_of(H + HK_THREAD + "?noscript") == thread
    assert hk.entity_of(H + HK_THREAD.replace("@", "%40") + "?sort=date") == thread
    assert hk.entity_of(H + HK_MESSAGE) == \
        "message users@lists.example.org 2HYBQ5PJIIGYR4QTBIG4JJ7KJWIWWVIR"
    assert hk.entity_of(H + HK_THREAD.replace("users@", "devel@")) != thread
    for other in (HK_THREAD + "replies?offset=0", HK_MESSAGE + "reply", HK_LIST + "/latest",
                  HK_LIST + "/", "/", "/search?q=x", HK_LIST + "/message/new"):
        assert hk.entity_of(H + other) is None, other


def test_hyperkitty_generator_threads_mail_over_two_years() -> None:
    """Every reply names an earlier message of its list as its parent, with the References
    chain down to it; message IDs are unique; dates fall within two years before `now`;
    thread sizes are mostly small with some long; deterministic."""
    import datetime as dt
    from collections import Counter

    now = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)
    spec = hk.generate(300, 0, now)
    messages = spec["messages"]
    ids = {m["message_id"]: m for m in messages}
    assert len(ids) == len(messages)
    lists = {ml["name"] for ml in spec["lists"]}
    roots: Counter[str] = Counter()
    seen: set[str] = set()
    for m in messages:
        assert m["list"] in lists
        when = dt.datetime.fromisoformat(m["date"])
        assert now - dt.timedelta(days=731) < when < now
        if m["in_reply_to"] is None:
            roots[m["message_id"]] += 1
            assert m["references"] == []
        else:
            parent = ids[m["in_reply_to"]]
            assert parent["message_id"] in seen and parent["list"] == m["list"]
            assert m["references"][-1] == parent["message_id"]
            roots[m["references"][0]] += 1
        seen.add(m["message_id"])
    sizes = sorted(roots.values())
    assert len(sizes) == 300
    assert sizes[len(sizes) // 2] <= 5 and sizes[-1] >= 20
    assert any(line.startswith("> ") for m in messages for line in m["body"].splitlines())
    assert hk.generate(300, 0, now) == spec


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "index"),
    ("/category/3/", "category"),
    ("/category/outdoors/", "other"),
    ("/forum/8/", "forum"),
    ("/forum/8/?page=2", "forum"),
    ("/forum/8/topic/add/", "write"),
    ("/forum/cycling/", "other"),
    ("/topic/100/", "topic"),
    ("/topic/100/?page=2", "topic"),
    ("/topic/100/?page=last", "topic"),
    ("/topic/100/?first-unread=1", "topic"),
    ("/topic/100/post/add/?quote_id=1131", "write"),
    ("/topic/100/stick/", "account"),
    ("/topic/100/close/", "account"),
    ("/topic/100/poll_vote/", "account"),
    ("/topic/latest/", "latest"),
    ("/topic/100/other/", "other"),
    ("/post/1141/", "post"),
    ("/post/1141/edit/", "write"),
    ("/post/1141/delete/", "write"),
    ("/users/Hugo41/", "user"),
    ("/users/Hugo41/posts/?page=3", "user_posts"),
    ("/users/Hugo41/topics/", "user_topics"),
    ("/users/Hugo41/edit-privileges/", "account"),
    ("/profile/edit/", "account"),
    ("/subscription/forum/5/", "account"),
    ("/subscription/topic/100/add/", "account"),
    ("/mark_all_as_read/", "account"),
    ("/feeds/posts/", "feed"),
    ("/feeds/topics/", "feed"),
    ("/accounts/login/?next=/topic/100/", "login"),
    ("/accounts/register/", "login"),
    ("/accounts/password/reset/", "login"),
    ("/admin/login/?next=/admin/", "admin"),
    ("/static/pybb/js/pybbjs.js", "static"),
    ("/static/pybb/img/default_avatar.jpg", "static"),
    ("/robots.txt", "static"),
    ("/nothing/here/", "other"),
])
def test_pybbm_page_type(path: str, kind: str) -> None:
    assert pb.page_type(H + path) == kind


def test_pybbm_page_type_of_another_host_is_other() -> None:
    assert pb.page_type("https://github.com/topic/100/") == "other"


def test_pybbm_entity_of_is_a_topic_page() -> None:
    """Each page of a topic is an entity: no ?page= is page 1, ?first-unread= changes nothing
    for a guest, ?page=last is the topic's last page (from the build's topic table); a
    post's permalink (a redirect), 0 or a word as the page are not."""
    pb._LAST_PAGE.clear()
    pb._LAST_PAGE.update({100: 2, 7: 4})
    try:
        assert pb.entity_of(H + "/topic/100/") == "topic 100 page 1"
        assert pb.entity_of(H + "/topic/100/?page=1") == "topic 100 page 1"
        assert pb.entity_of(H + "/topic/100/?first-unread=1") == "topic 100 page 1"
        assert pb.entity_of(H + "/topic/100/?page=2") == "topic 100 page 2"
        assert pb.entity_of(H + "/topic/100/?page=last") == "topic 100 page 2"
        assert pb.entity_of(H + "/topic/7/?page=last") == "topic 7 page 4"
        assert pb.entity_of(H + "/topic/3/?page=last") == "topic 3 page 1"  # not in the table
        for other in ("/topic/100/?page=0", "/topic/100/?page=x", "/post/1141/",
                      "/forum/8/", "/users/Hugo41/", "/topic/100/post/add/", "/topic/latest/"):
            assert pb.entity_of(H + other) is None, other
    finally:
        pb._LAST_PAGE.clear()


def test_pybbm_generator_makes_forums_threads_and_users() -> None:
    """40 users with unique names; every forum's category and parent exist (a sub-forum in
    its parent's category); 300 topics, each in a forum, replies only to topics already
    opened, in time order, with some threads over three pages of 10; staff open the
    announcements; deterministic."""
    import datetime as dt
    from collections import Counter

    now = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)
    spec = pb.generate(300, 0, now)
    users = [u["username"] for u in spec["users"]]
    assert len(users) == 40 and len({u.lower() for u in users}) == 40
    forums = spec["forums"]
    for f in forums:
        assert 0 <= f["category"] < len(spec["categories"])
        if f["parent"] is not None:
            assert forums[f["parent"]]["category"] == f["category"]
    events = spec["events"]
    times = [dt.datetime.fromisoformat(e["when"]) for e in events]
    assert times == sorted(times) and now - dt.timedelta(days=731) < times[0] < times[-1] < now
    opened, posts = 0, Counter()
    for e in events:
        assert e["user"] in users
        if e["kind"] == "topic":
            assert 0 <= e["forum"] < len(forums)
            if e["forum"] == pb.ANNOUNCEMENTS:
                assert e["user"] in users[:3]
            posts[opened] += 1
            opened += 1
        elif e["kind"] == "post":
            assert e["topic"] < opened
            posts[e["topic"]] += 1
        else:
            assert e["kind"] in ("edit", "close") and e["topic"] < opened
    assert opened == 300 and len(spec["views"]) == 300
    assert sum(1 for n in posts.values() if n > 3 * pb.POSTS_PER_PAGE) >= 10
    assert sorted(posts.values())[150] <= 10
    bodies = [e["body"] for e in events if "body" in e]
    assert any("[code]" in b for b in bodies) and any("[url=[[" in b for b in bodies)
    assert sum(1 for e in events if e.get("quote") is not None) > 100  # quoted replies
    assert pb.generate(300, 0, now) == spec


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "home"),
    ("/page/2/", "home"),
    ("/notes-on-the-chisel-bench/", "post"),
    ("/notes-on-the-chisel-bench/?ref=x", "post"),
    ("/notes-on-the-chisel-bench/amp/", "post"),
    ("/notes-on-the-chisel-bench/edit/", "admin"),
    ("/about/", "page"),
    ("/tag/woodwork/", "tag"),
    ("/tag/woodwork/page/3/", "tag"),
    ("/tag/woodwork/rss/", "feed"),
    ("/author/greta/", "author"),
    ("/author/greta/page/2/", "author"),
    ("/author/greta/rss/", "feed"),
    ("/rss/", "feed"),
    ("/rss/2/", "feed"),
    ("/sitemap.xml", "sitemap"),
    ("/sitemap-posts.xml", "sitemap"),
    ("/sitemap.xsl", "sitemap"),
    ("/robots.txt", "other"),
    ("/llms.txt", "other"),
    ("/notes-on-the-chisel-bench.md", "markdown"),
    ("/ghost/", "admin"),
    ("/ghost/api/content/posts/?key=x", "admin"),
    ("/members/api/member/", "members"),
    ("/assets/built/screen.css?v=0c1e3a5f2b", "static"),
    ("/content/images/2025/06/photo.jpg", "static"),
    ("/public/cards.min.js", "static"),
    ("/favicon.ico", "static"),
    ("/p/2a9c0d3e-1111-4b5c-9d8e-000000000000/", "other"),
    ("/r/abc123", "other"),
    ("/tag/", "other"),
    ("/tag/woodwork/extra/", "other"),
    ("/page/2/extra/", "other"),
])
def test_ghost_page_type(path: str, kind: str) -> None:
    assert gh.page_type(H + path) == kind


def test_ghost_page_type_of_another_host_is_other() -> None:
    assert gh.page_type("https://cdn.jsdelivr.net/ghost/portal@~2.71/umd/portal.min.js") \
        == "other"
    assert gh.page_type("https://twitter.com/notes-on-the-chisel-bench/") == "other"


def test_ghost_entity_of_is_a_post_or_a_static_page() -> None:
    """A post's URLs (/slug/, /slug, a query, /slug/amp/ which Ghost 6 redirects to the
    post) are one entity; the static page "about" is one of its own."""
    key = "post notes-on-the-chisel-bench"
    for url in ("/notes-on-the-chisel-bench/", "/notes-on-the-chisel-bench",
                "/notes-on-the-chisel-bench/?ref=workbench", "/notes-on-the-chisel-bench/amp/"):
        assert gh.entity_of(H + url) == key, url
    assert gh.entity_of(H + "/about/") == "page about"
    for other in ("/", "/page/2/", "/tag/woodwork/", "/author/greta/", "/rss/",
                  "/sitemap-posts.xml", "/ghost/", "/notes-on-the-chisel-bench/edit/",
                  "/assets/built/screen.css"):
        assert gh.entity_of(H + other) is None, other


def test_ghost_generator_makes_unique_slugs_of_posts_over_three_years() -> None:
    """Slugs are unique (Ghost would add -2), are posts by `page_type` and none is one of
    Ghost's words; tags and authors name what exists; links point back; every post is dated
    within the three years before `now`, in order; the import file holds every post and page
    with their tags and authors; deterministic."""
    import datetime as dt

    now = dt.datetime(2026, 11, 26, 12, 0, 0)
    spec = gh.generate(300, 0, now)
    posts = spec["posts"]
    assert len(posts) == 300 and [p["slug"] for p in spec["pages"]] == list(gh.PAGES)
    slugs = [p["slug"] for p in posts]
    assert len(set(slugs)) == 300 and not set(slugs) & (gh.RESERVED | set(gh.PAGES))
    assert all(gh.page_type(H + f"/{s}/") == "post" for s in slugs)
    tags = {t["slug"] for t in spec["tags"]}
    authors = {a["slug"] for a in spec["authors"]}
    assert len(authors) == 6
    for i, p in enumerate(posts):
        assert 2 <= len(p["tags"]) <= 5 and set(p["tags"]) <= tags
        assert set(p["authors"]) <= authors and len(set(p["authors"])) == len(p["authors"])
        assert p["links_to"] is None or 0 <= p["links_to"] < i
    assert 30 <= sum(p["links_to"] is not None for p in posts) <= 90
    dates = [dt.datetime.fromisoformat(p["date"]) for p in posts]
    assert dates == sorted(dates)
    assert all(now - dt.timedelta(days=3 * 365 + 1) < d < now for d in dates)
    data = gh.import_file(spec)["db"][0]["data"]
    assert len(data["posts"]) == 301 and len({p["id"] for p in data["posts"]}) == 301
    assert len(data["posts_tags"]) == sum(len(p["tags"]) for p in posts)
    assert {r["post_id"] for r in data["posts_authors"]} == {p["id"] for p in data["posts"]}
    linked = next(p for p in posts if p["links_to"] is not None)
    html = next(d["html"] for d in data["posts"] if d["slug"] == linked["slug"])
    assert f'href="/{posts[linked["links_to"]]["slug"]}/"' in html
    assert gh.generate(300, 0, now) == spec


DJ_ART = "/metalwork/joint-checklist"


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "article"),
    ("/?utm=1", "article"),
    ("/workshop/", "article"),
    (DJ_ART + "/", "article"),
    (DJ_ART + "/notes-and-coffee/", "article"),
    (DJ_ART, "other"),                                   # APPEND_SLASH redirects it
    (DJ_ART + "/_history/", "history"),
    ("/_history/", "history"),
    (DJ_ART + "/_source/", "source"),
    (DJ_ART + "/_dir/", "dir"),
    (DJ_ART + "/_dir/?page=2", "dir"),
    (DJ_ART + "/_search/?q=bread", "search"),
    ("/_search/?q=bread&page=2", "search"),
    (DJ_ART + "/_edit/", "write"),
    (DJ_ART + "/_create/", "write"),
    ("/_create/", "write"),
    (DJ_ART + "/_settings/", "write"),
    (DJ_ART + "/_move/", "write"),
    (DJ_ART + "/_delete/", "write"),
    (DJ_ART + "/_preview/", "write"),
    (DJ_ART + "/_revision/change/12/", "write"),
    (DJ_ART + "/_revision/merge/12/", "write"),
    (DJ_ART + "/_plugin/attachments/", "attachments"),
    (DJ_ART + "/_plugin/attachments/search/?q=x", "attachments"),
    (DJ_ART + "/_plugin/attachments/history/3/", "attachments"),
    (DJ_ART + "/_plugin/attachments/download/3/", "download"),
    (DJ_ART + "/_plugin/attachments/download/3/revision/4/", "download"),
    (DJ_ART + "/_plugin/attachments/add/3/", "write"),
    (DJ_ART + "/_plugin/attachments/replace/3/", "write"),
    (DJ_ART + "/_plugin/images/", "images"),
    (DJ_ART + "/_plugin/links/json/query-urlpath/", "write"),
    (DJ_ART + "/_plugin/notifications/", "write"),
    ("/_revision/diff/5/", "diff"),
    ("/_revision/preview/14/?r=5", "preview"),
    ("/_revision/merge/14/5/preview/", "preview"),
    ("/_revision/change/14/5/", "write"),
    ("/14/", "article_id"),
    ("/14/history/", "article_id"),
    ("/_accounts/login/?next=/workshop/", "account"),
    ("/_accounts/sign-up/", "account"),
    ("/_admin/", "admin"),
    ("/admin/login/?next=/admin/", "admin"),
    ("/notifications/json/get/", "notifications"),
    ("/create-root/", "write"),
    ("/static/wiki/bootstrap/css/wiki-bootstrap.min.css", "static"),
    ("/static/wiki/js/jquery-3.6.0.min.js", "static"),
    ("/media/wiki/attachments/14/x/plan.txt.upload", "static"),
    ("/robots.txt", "static"),
    ("/favicon.ico", "static"),
])
def test_djangowiki_page_type(path: str, kind: str) -> None:
    assert dj.page_type(H + path) == kind


def test_djangowiki_page_type_of_another_host_is_other() -> None:
    assert dj.page_type("https://github.com/django-wiki/django-wiki") == "other"
    assert dj.page_type("http://www.gnu.org/licenses/quick-guide-gplv3.html") == "other"


def test_djangowiki_entity_of_is_an_articles_path() -> None:
    """An article is its tree path, whatever the case (the wiki looks paths up without
    regard to case) or the query; its views, its /ID/ URL and the rest are no article."""
    key = "article /metalwork/joint-checklist/"
    for url in (DJ_ART + "/", "/Metalwork/Joint-Checklist/", DJ_ART + "/?x=1"):
        assert dj.entity_of(H + url) == key, url
    assert dj.entity_of(H + "/") == "article /"
    for other in (DJ_ART, DJ_ART + "/_history/", DJ_ART + "/_source/", DJ_ART + "/_dir/",
                  DJ_ART + "/_plugin/attachments/", "/_revision/diff/5/", "/14/",
                  "/_search/?q=x", "/static/wiki/js/core.js", "/_accounts/sign-up/"):
        assert dj.entity_of(H + other) is None, other


def test_djangowiki_generator_makes_a_tree_of_articles_with_revisions() -> None:
    """The root, twelve sections, the rest under a section or an article of depth 1 or 2
    (depth at most 3); slugs unique among siblings and every path an article by
    `page_type`; revisions by the 20 users, dated in order after the parent's creation;
    wiki links name articles (or, rarely, one never written under the article); some
    attachments; deterministic."""
    import datetime as dt

    now = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)
    spec = dj.generate(300, 0, now)
    arts = spec["articles"]
    assert len(arts) == 300 and arts[0]["path"] == "/" and arts[0]["parent"] is None
    assert [a["title"] for a in arts[1:13]] == dj.SECTIONS
    users = {u["username"] for u in spec["users"]}
    assert len(users) == 20
    paths = [a["path"] for a in arts]
    assert len(set(paths)) == 300
    for i, a in enumerate(arts[1:], 1):
        parent = arts[a["parent"]]
        assert a["parent"] < i and a["depth"] == parent["depth"] + 1 <= 3
        assert a["path"] == parent["path"] + a["slug"] + "/"
        assert a["slug"] and not a["slug"].isdigit() and not a["slug"].startswith("_")
        assert dj.page_type(H + a["path"]) == "article"
        assert dj.entity_of(H + a["path"]) == f"article {a['path']}"
        dates = [dt.datetime.fromisoformat(r["date"]) for r in a["revisions"]]
        assert dates == sorted(dates) and dates[-1] < now
        assert dates[0] > dt.datetime.fromisoformat(parent["revisions"][0]["date"])
        assert 1 <= len(a["revisions"]) <= 6
        assert {r["user"] for r in a["revisions"]} <= users
    known = set(paths)
    import re
    links = [p for a in arts for p in re.findall(r"\]\(wiki:(/[^)]*)\)",
                                                  a["revisions"][-1]["content"])]
    assert len(links) > 300
    wanted = [p for p in links if p not in known]
    assert 0 < len(wanted) < 30
    assert 20 <= sum(bool(a["attachments"]) for a in arts) <= 50
    assert sum(len(a["revisions"]) for a in arts) > 600
    assert dj.generate(300, 0, now) == spec


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "index"),
    ("/?page=4271", "index"),
    ("/threads/", "index"),
    ("/categories/", "categories"),
    ("/c/woodworking/8/", "category"),
    ("/c/woodworking/8/?page=1601", "category"),
    ("/c/woodworking/8/my/", "account"),
    ("/my/", "account"),
    ("/unread/", "account"),
    ("/subscribed/", "account"),
    ("/t/tyre-paint-saw/37/", "thread"),
    ("/t/tyre-paint-saw/37/2/", "thread"),
    ("/t/tyre-paint-saw/37/?x=1", "thread"),
    ("/t/tyre-paint-saw/37/post/380/", "goto"),
    ("/t/tyre-paint-saw/37/last/", "goto"),
    ("/t/tyre-paint-saw/37/new/", "goto"),
    ("/t/tyre-paint-saw/37/best-answer/", "goto"),
    ("/t/tyre-paint-saw/37/reply/", "other"),
    ("/u/admin/1/", "user"),
    ("/u/admin/1/posts/", "user_posts"),
    ("/u/admin/1/threads/", "user_threads"),
    ("/u/admin/1/followers/", "user_other"),
    ("/u/admin/1/details/", "user_other"),
    ("/users/active-posters/", "users"),
    ("/search/threads/", "search"),
    ("/api/threads/", "api"),
    ("/login/", "login"),
    ("/register/", "login"),
    ("/forgotten-password/", "login"),
    ("/options/", "account"),
    ("/private-threads/", "account"),
    ("/notifications/", "account"),
    ("/terms-of-service/", "legal"),
    ("/admincp/", "admin"),
    ("/django-admin/", "admin"),
    ("/static/misago/css/misago.css", "static"),
    ("/media/avatars/e9/x/y.png", "static"),
    ("/django-i18n.js", "static"),
    ("/robots.txt", "static"),
    ("/nothing/here/", "other"),
])
def test_misago_page_type(path: str, kind: str) -> None:
    assert mg.page_type(H + path) == kind


def test_misago_page_type_of_another_host_is_other() -> None:
    assert mg.page_type("http://misago-project.org/t/x/37/") == "other"


def test_misago_entity_of_is_a_thread_page() -> None:
    """Each page of a thread is an entity: no page segment is page 1, whatever the slug or
    query; an explicit page 1 (a redirect), a post's link, last/ (redirects) are not."""
    assert mg.entity_of(H + "/t/tyre-paint-saw/37/") == "thread 37 page 1"
    assert mg.entity_of(H + "/t/tyre-paint-saw/37/?x=1") == "thread 37 page 1"
    assert mg.entity_of(H + "/t/other-slug/37/") == "thread 37 page 1"
    assert mg.entity_of(H + "/t/tyre-paint-saw/37/4/") == "thread 37 page 4"
    for other in ("/t/tyre-paint-saw/37/1/", "/t/tyre-paint-saw/37/0/",
                  "/t/tyre-paint-saw/37/post/380/", "/t/tyre-paint-saw/37/last/",
                  "/c/woodworking/8/", "/u/admin/1/posts/", "/"):
        assert mg.entity_of(H + other) is None, other


def test_misago_generator_makes_categories_threads_and_users() -> None:
    """40 users with names Misago accepts; every category's parent comes before it and no
    top-level category gets threads (a subcategory with children of its own may); 300
    threads, replies only to threads already opened, in time order, some over three pages
    (of 17 new posts, 7 orphans: Misago's PostsPaginator); staff open the announcements;
    deterministic."""
    import datetime as dt
    import re
    from collections import Counter

    now = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)
    spec = mg.generate(300, 0, now)
    users = [u["username"] for u in spec["users"]]
    assert len(users) == 40 and len({u.lower() for u in users}) == 40
    assert all(re.fullmatch(r"[0-9A-Za-z_]+", u) for u in users)
    categories = spec["categories"]
    for n, c in enumerate(categories):
        assert c["parent"] is None or c["parent"] < n
    events = spec["events"]
    times = [dt.datetime.fromisoformat(e["when"]) for e in events]
    assert times == sorted(times) and now - dt.timedelta(days=731) < times[0] < times[-1] < now
    opened, posts = 0, Counter()
    for e in events:
        assert e["user"] in users
        if e["kind"] == "topic":
            assert categories[e["forum"]]["parent"] is not None  # a top level's are none
            if e["forum"] == mg.ANNOUNCEMENTS:
                assert e["user"] in users[:3]
            posts[opened] += 1
            opened += 1
        elif e["kind"] == "post":
            assert e["topic"] < opened
            posts[e["topic"]] += 1
        else:
            assert e["kind"] in ("edit", "close") and e["topic"] < opened
    assert opened == 300
    assert sum(1 for n in posts.values() if n > 3 * mg.NEW_PER_PAGE + mg.LAST_ORPHANS) >= 10
    assert sorted(posts.values())[150] <= 10
    bodies = [e["body"] for e in events if "body" in e]
    assert any("```" in b for b in bodies) and any("](" + "[[" in b for b in bodies)
    assert sum(1 for e in events if e.get("quote") is not None) > 100  # quoted replies
    assert mg.generate(300, 0, now) == spec


MM_PAGE = "/BatterySpring/Parts"


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "page"),
    ("/FrontPage", "page"),
    ("/LatheChecklist", "page"),
    (MM_PAGE, "page"),
    (MM_PAGE + "?highlight=%28%5CbCategoryMetalwork%5Cb%29", "page"),
    (MM_PAGE + "?action=show&redirect=Old", "page"),
    ("/Notes%20on%20the%20lathe", "page"),
    ("/CategoryMetalwork", "category"),
    ("/AnnaBerg", "homepage"),
    ("/AnnaBerg/Notes", "page"),
    ("/CategoryHomepage", "system"),
    ("/CategoryCategory", "system"),
    ("/RecentChanges", "system"),
    ("/TitleIndex", "system"),
    ("/FindPage", "system"),
    ("/EventStats/HitCounts", "system"),
    ("/HomepageTemplate", "system"),
    ("/HelpContents", "help"),
    ("/HelpOnMoinWikiSyntax", "help"),
    ("/WikiCourse/01%20What%20is%20a%20MoinMoin%20wiki%3F", "help"),
    (MM_PAGE + "?action=info", "info"),
    (MM_PAGE + "?action=info&max_count=25&offset=0", "info"),
    (MM_PAGE + "?action=info&general=1", "info"),
    (MM_PAGE + "?action=diff&rev1=1&rev2=2", "diff"),
    (MM_PAGE + "?action=diff", "diff"),
    (MM_PAGE + "?action=recall&rev=1", "recall"),
    (MM_PAGE + "?action=raw", "raw"),
    (MM_PAGE + "?action=print", "print"),
    (MM_PAGE + "?action=AttachFile", "attachments"),
    (MM_PAGE + "?action=AttachFile&do=view&target=x.txt", "attachment"),
    (MM_PAGE + "?action=AttachFile&do=get&target=x.txt", "attachment"),
    (MM_PAGE + "?action=AttachFile&do=upload_form", "attachments"),
    (MM_PAGE + "?action=fullsearch&context=180&value=linkto%3A%22X%22", "search"),
    ("/FindPage?action=titlesearch&value=x", "search"),
    (MM_PAGE + "?action=login", "login"),
    (MM_PAGE + "?action=newaccount", "login"),
    (MM_PAGE + "?action=edit", "edit"),
    ("/RecentChanges?action=rss_rc&unique=1&ddiffs=1", "feed"),
    (MM_PAGE + "?action=SpellCheck", "action"),
    ("/moin_static1911/modernized/css/common.css", "static"),
    ("/moin_static1911/common/js/common.js", "static"),
    ("/robots.txt", "static"),
    ("/favicon.ico", "static"),
])
def test_moin_page_type(path: str, kind: str) -> None:
    assert mm.page_type(H + path) == kind


def test_moin_page_type_of_another_host_is_other() -> None:
    assert mm.page_type("http://moinmo.in/GPL") == "other"


def test_moin_entity_of_is_a_page_name() -> None:
    """A page is its name (unquoted, case-sensitive; "/" is the FrontPage); a query without
    another action does not change it; action views, system and help pages are no UCC."""
    assert mm.entity_of(H + "/") == mm.entity_of(H + "/FrontPage") == "page FrontPage"
    for url in (MM_PAGE, MM_PAGE + "?highlight=x", MM_PAGE + "?action=show"):
        assert mm.entity_of(H + url) == "page BatterySpring/Parts", url
    assert mm.entity_of(H + "/Notes%20on%20it") == "page Notes on it"
    assert mm.entity_of(H + "/CategoryMetalwork") == "page CategoryMetalwork"
    assert mm.entity_of(H + "/AnnaBerg") == "page AnnaBerg"
    assert mm.entity_of(H + "/batteryspring/parts") != mm.entity_of(H + MM_PAGE)
    for other in (MM_PAGE + "?action=info", MM_PAGE + "?action=recall&rev=1",
                  MM_PAGE + "?action=raw", MM_PAGE + "?action=AttachFile", "/RecentChanges",
                  "/HelpContents", "/CategoryHomepage", "/robots.txt"):
        assert mm.entity_of(H + other) is None, other


def test_moin_generator_makes_pages_revisions_and_homepages() -> None:
    """300 UCC pages: the FrontPage, 12 sections, 12 categories, 20 homepages and the
    articles, some of them subpages (one level); each name's page type is its kind and no
    name is a system page; events in time order, each page's first save by its author, one
    to six saves a page; homepages by their users; attachments on some articles; some links
    to pages never written; deterministic."""
    import datetime as dt
    import re
    from collections import Counter

    now = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)
    spec = mm.generate(300, 0, now)
    pages = spec["pages"]
    users = {u["name"] for u in spec["users"]}
    assert len(pages) == 300 and len({p["name"] for p in pages}) == 300
    assert Counter(p["kind"] for p in pages) == {"page": 268, "category": 12, "homepage": 20}
    assert {p["name"] for p in pages if p["kind"] == "homepage"} == users
    for p in pages:
        assert mm.page_type(H + "/" + p["name"]) == p["kind"], p["name"]
        assert mm.entity_of(H + "/" + p["name"]) == f"page {p['name']}"
        assert p["name"].count("/") <= 1
        assert 1 <= p["revisions"] <= 6
    subpages = [p for p in pages if "/" in p["name"]]
    assert 40 <= len(subpages) <= 100
    names = {p["name"] for p in pages}
    assert all(p["name"].split("/")[0] in names for p in subpages)
    events = spec["events"]
    assert [e["ts"] for e in events] == sorted(e["ts"] for e in events)
    assert events[-1]["ts"] < now.timestamp()
    assert {e["user"] for e in events} <= users
    saves = [e for e in events if e["kind"] == "save"]
    assert Counter(e["page"] for e in saves) == {p["name"]: p["revisions"] for p in pages}
    author = {p["name"]: p["author"] for p in pages}
    first = {}
    for e in saves:
        first.setdefault(e["page"], e["user"])
    assert first == author
    assert all(e["user"] == e["page"] for e in saves if e["page"] in users)
    attached = {e["page"] for e in events if e["kind"] == "attach"}
    assert 15 <= len(attached) <= 50 and attached <= names
    last = {e["page"]: e["text"] for e in saves}
    links = {m for t in last.values() for m in re.findall(r"\[\[([^]|/:][^]|:]*)[]|]", t)}
    assert 0 < len(links - names - mm.SYSTEM_PAGES) < 20  # pages never written
    assert all("[[attachment:" in last[p] for p in attached)
    assert mm.generate(300, 0, now) == spec
@pytest.mark.parametrize(("path", "kind"), [
    ("/", "home"),
    ("/?x=1", "home"),
    ("/blog/", "blog"),
    ("/blog/?page=12", "blog"),
    ("/blog/notes-on-the-chisel-bench/", "post"),
    ("/blog/notes-on-the-chisel-bench-1/", "post"),
    ("/blog/2025/notes-on-the-chisel-bench/", "post"),
    ("/blog/2025/06/notes-on-the-chisel-bench/", "post"),
    ("/blog/2025/6/14/notes-on-the-chisel-bench/", "post"),
    ("/blog/tag/bread/", "tag"),
    ("/blog/tag/bread/?page=3", "tag"),
    ("/blog/category/woodwork/", "category"),
    ("/blog/author/greta/?page=2", "author"),
    ("/blog/archive/2025/", "archive"),
    ("/blog/archive/2025/6/", "archive"),
    ("/blog/archive/2025/6/?page=2", "archive"),
    ("/blog/feeds/rss/", "feed"),
    ("/blog/feeds/atom/", "feed"),
    ("/blog/tag/bread/feeds/rss/", "feed"),
    ("/blog/category/woodwork/feeds/atom/", "feed"),
    ("/blog/author/greta/feeds/rss/", "feed"),
    ("/sitemap.xml", "feed"),
    ("/search/?q=bread&type=blog.BlogPost", "search"),
    ("/comment/", "action"),
    ("/rating/", "action"),
    ("/edit/", "action"),
    ("/set_site/", "action"),
    ("/admin/", "admin"),
    ("/admin/login/?next=/admin/", "admin"),
    ("/password_reset/", "admin"),
    ("/reset/MQ/abc-123/", "admin"),
    ("/about/", "page"),
    ("/about/team/", "page"),
    ("/contact/legals/", "page"),
    ("/gallery/", "page"),
    ("/static/css/bootstrap.css", "static"),
    ("/static/mezzanine/js/jquery-3.5.1.min.js?v=1", "static"),
    ("/media/uploads/gallery/Amsterdam%2C%20Holland.jpg", "static"),
    ("/jsi18n/mezzanine.core/", "static"),
    ("/robots.txt", "static"),
    ("/blog/tag/", "other"),
    ("/blog/archive/", "other"),
    ("/blog/archive/x/", "other"),
    ("/blog/tag/bread/extra/", "other"),
    ("/blog/notes/on/it/", "other"),
])
def test_mezzanine_page_type(path: str, kind: str) -> None:
    assert mz.page_type(H + path) == kind


def test_mezzanine_page_type_of_another_host_is_other() -> None:
    assert mz.page_type("https://twitter.com/intent/tweet?url=x") == "other"
    assert mz.page_type("https://fischer.example.net/") == "other"


def test_mezzanine_entity_of_joins_a_posts_urls() -> None:
    """A post answers at /blog/slug/ and at Mezzanine's dated forms (the view takes the slug,
    whatever the date): one entity; a page of the tree is its path."""
    key = "post notes-on-the-chisel-bench"
    for url in ("/blog/notes-on-the-chisel-bench/", "/blog/2025/notes-on-the-chisel-bench/",
                "/blog/2024/01/01/notes-on-the-chisel-bench/?x=1",
                "/blog/notes-on-the-chisel-bench/#comments"):
        assert mz.entity_of(H + url) == key, url
    assert mz.entity_of(H + "/about/team/") == "page about/team"
    assert mz.entity_of(H + "/about/team/?x=1") == "page about/team"
    for other in ("/", "/blog/", "/blog/?page=2", "/blog/tag/bread/", "/blog/feeds/rss/",
                  "/search/?q=x", "/static/css/bootstrap.css", "/admin/", "/comment/"):
        assert mz.entity_of(H + other) is None, other


def test_mezzanine_generator_spreads_posts_and_threads_comments() -> None:
    """Posts over the two years before `now`, in order, by twelve authors in the ten
    categories; comments after their post and before `now`, replies naming an earlier
    comment of the same post; deterministic."""
    import datetime as dt

    now = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)
    spec = mz.generate(300, 0, now)
    posts = spec["posts"]
    assert len(posts) == 300 and len(spec["authors"]) == 12
    authors = {a["username"] for a in spec["authors"]}
    dates = [dt.datetime.fromisoformat(p["date"]) for p in posts]
    assert dates == sorted(dates)
    assert all(now - dt.timedelta(days=2 * 365 + 1) < d < now for d in dates)
    assert len({(d.year, d.month) for d in dates}) >= 24
    threaded = 0
    for i, (p, d) in enumerate(zip(posts, dates, strict=True)):
        assert p["author"] in authors and set(p["categories"]) <= set(spec["categories"])
        assert 1 <= len(p["keywords"]) <= 5
        assert p["links_to"] is None or 0 <= p["links_to"] < i
        for j, c in enumerate(p["comments"]):
            assert d < dt.datetime.fromisoformat(c["date"]) < now
            assert c["reply_to"] is None or 0 <= c["reply_to"] < j
            assert c["user"] is None or c["user"] in authors
            threaded += c["reply_to"] is not None
    assert sum(len(p["comments"]) >= 3 for p in posts) > 100 and threaded > 100
    assert mz.generate(300, 0, now) == spec                     # deterministic
@pytest.mark.parametrize(("path", "kind"), [
    ("/", "questions"),
    ("/?page=7", "questions"),
    ("/?noans_page=2&active_tab=unans", "questions"),
    ("/question/12/", "question"),
    ("/question/12/how-to-fix-a-river-garden/", "question"),
    ("/question/12/wrong-slug/", "question"),
    ("/question/answer/40/", "write"),
    ("/question/close/12/", "write"),
    ("/question/12/slug/extra/", "other"),
    ("/tag/arduino/", "tagged"),
    ("/tag/arduino/?page=2", "tagged"),
    ("/search/?word=bread", "search"),
    ("/profile/13/", "profile"),
    ("/profile/bob/", "other"),
    ("/new-question/", "write"),
    ("/edit-question/12/", "write"),
    ("/answer/12/", "write"),
    ("/answer/edit/40/", "write"),
    ("/vote/question/12/", "write"),
    ("/vote/answer/40/", "write"),
    ("/comment-question/12/", "write"),
    ("/comment-answer/40/", "write"),
    ("/comment-question/edit/3/", "write"),
    ("/comment-answer/edit/3/", "write"),
    ("/markdown/preview/", "write"),
    ("/hitcount/hit/ajax/", "write"),
    ("/accounts/login/?next=/answer/12/", "login"),
    ("/accounts/password_reset/", "login"),
    ("/admin", "admin"),
    ("/admin/login/?next=/admin/", "admin"),
    ("/static/css/qa.css", "static"),
    ("/static/qa/user.png", "static"),
    ("/question/12/how-to-fix-a-river-garden/static/qa/icon.ico", "static"),
    ("/tag/arduino/static/qa/icon.ico", "static"),
    ("/robots.txt", "static"),
    ("/nothing/here/", "other"),
])
def test_djangoqa_page_type(path: str, kind: str) -> None:
    assert dq.page_type(H + path) == kind


def test_djangoqa_page_type_of_another_host_is_other() -> None:
    assert dq.page_type("https://github.com/question/12/") == "other"


def test_djangoqa_entity_of_is_a_question() -> None:
    """Any URL of a question's page (with or without its slug, any query) is that question;
    its favicon, its answer and comment forms, the lists and profiles are nothing."""
    for url in ("/question/12/how-to-fix-a-river-garden/", "/question/12/",
                "/question/12/how-to-fix-a-river-garden/?page=2"):
        assert dq.entity_of(H + url) == "question 12", url
    for other in ("/question/12/how-to-fix-a-river-garden/static/qa/icon.ico",
                  "/question/answer/40/", "/answer/12/", "/comment-question/12/", "/",
                  "/tag/arduino/", "/profile/13/", "https://github.com/question/12/"):
        assert dq.entity_of(other if other.startswith("http") else H + other) is None, other


def test_djangoqa_generator_writes_what_the_apps_views_accept() -> None:
    """40 users with unique names; 300 questions asked in index order, events oldest first
    within two years; every answer, comment, vote, accept, edit and close names a question
    or answer made before it; nobody votes on their own post or twice on one (the vote view
    would toggle it); the asker accepts at most one answer and closes after everything else
    on the question; authors edit only their own posts; at most four comments on a post
    (the question page shows five); deterministic."""
    import datetime as dt
    from collections import Counter

    now = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)
    spec = dq.generate(300, 0, now)
    users = [u["username"] for u in spec["users"]]
    assert len(users) == dq.N_USERS and len(set(users)) == dq.N_USERS
    events = spec["events"]
    times = [dt.datetime.fromisoformat(e["when"]) for e in events]
    assert times == sorted(times) and now - dt.timedelta(days=731) < times[0] < times[-1] < now
    asker: dict[int, str] = {}
    author: dict[str, str] = {}
    voted: set[tuple[str, str]] = set()
    comments: Counter[str] = Counter()
    accepted, closed, last = set(), set(), {}

    def post(on: list[object]) -> str:
        key = f"{on[0]}{on[1]}"
        assert (on[1] in asker) if on[0] == "q" else (on[1] in author), key
        return key

    for e in events:
        kind, who = e["kind"], e["user"]
        assert who in users
        q = e.get("q", e["on"][1] if "on" in e else None)
        if kind == "question":
            q = len(asker)
            asker[q] = who
        elif kind == "answer":
            assert e["q"] in asker and e["key"] not in author
            author[e["key"]] = who
        elif kind == "comment":
            comments[post(e["on"])] += 1
        elif kind == "vote":
            key = post(e["on"])
            owner = asker[e["on"][1]] if e["on"][0] == "q" else author[e["on"][1]]
            assert who != owner and (who, key) not in voted
            voted.add((who, key))
        elif kind == "accept":
            q = int(e["a"].split(".")[0])
            assert e["a"] in author and who == asker[q] and q not in accepted
            accepted.add(q)
        elif kind == "edit":
            post(e["on"])
            owner = asker[e["on"][1]] if e["on"][0] == "q" else author[e["on"][1]]
            assert who == owner
        else:
            assert kind == "close" and who == asker[e["q"]] and e["q"] not in closed
            closed.add(e["q"])
        if isinstance(q, str):
            q = int(q.split(".")[0])
        assert q not in closed or kind == "close", e
        last[q] = e
    assert len(asker) == 300 and len(spec["views"]) == 300 == len(spec["comments"])
    assert max(comments.values()) <= 4 and 5 <= len(closed) <= 25 and len(accepted) > 60
    assert sum(1 for e in events if e["kind"] == "answer") > 500
    assert dq.generate(300, 0, now) == spec


MGB_MEDIA = "/u/kira_silva/m/boats-in-porto-2/"


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "home"),
    ("/?page=3", "home"),
    (MGB_MEDIA, "entry"),
    ("/u/kira_silva/m/id:12/", "entry"),
    (MGB_MEDIA + "c/17/", "comment"),
    (MGB_MEDIA + "report/", "action"),
    (MGB_MEDIA + "c/17/report/", "action"),
    ("/u/kira_silva/m/12/collect/", "action"),
    ("/u/kira_silva/m/12/comment/add/", "action"),
    ("/u/kira_silva/m/12/edit/", "action"),
    ("/u/kira_silva/m/12/confirm-delete/", "action"),
    (MGB_MEDIA + "notifications/subscribe/comments/", "action"),
    (MGB_MEDIA + "x/y/", "other"),
    ("/u/kira_silva/", "user"),
    ("/u/kira_silva/edit/", "action"),
    ("/u/kira_silva/panel/", "action"),
    ("/u/kira_silva/panel/failed/", "action"),
    ("/u/kira_silva/gallery/", "gallery"),
    ("/u/kira_silva/gallery/?page=2", "gallery"),
    ("/u/kira_silva/tag/boats/", "tag"),
    ("/tag/boats/", "tag"),
    ("/tag/boats/?page=2", "tag"),
    ("/tag/boats/atom/", "feed"),
    ("/atom/", "feed"),
    ("/u/kira_silva/atom/", "feed"),
    ("/u/kira_silva/collections/", "collections"),
    ("/u/kira_silva/collection/best-of-porto/", "collection"),
    ("/u/kira_silva/collection/best-of-porto/atom/", "feed"),
    ("/u/kira_silva/collection/best-of-porto/7/confirm_remove/", "action"),
    ("/u/kira_silva/c/best-of-porto/edit/", "action"),
    ("/auth/login/", "login"),
    ("/auth/login/?next=http%3A%2F%2F127.0.0.1%3A8080%2Fsubmit%2F", "login"),
    ("/auth/register/", "login"),
    ("/auth/forgot_password/", "login"),
    ("/submit/", "action"),
    ("/submit/collection", "action"),
    ("/edit/account/", "action"),
    ("/mod/reports/", "action"),
    ("/notifications/comments/mark_all_seen/", "action"),
    ("/mgoblin_media/media_entries/12/IMG_20250614_101502.medium.jpg", "image"),
    ("/mgoblin_static/css/base.css", "static"),
    ("/plugin_static/basic_auth/js/autofilledin_password.js", "static"),
    ("/favicon.ico", "static"),
    ("/robots.txt", "static"),
    ("/api/user/kira_silva/feed/", "api"),
    ("/.well-known/webfinger/", "api"),
    ("/kira_silva/activity/3/", "api"),
    ("/terms_of_service", "other"),
    ("/u/", "other"),
])
def test_mediagoblin_page_type(path: str, kind: str) -> None:
    assert mgb.page_type(H + path) == kind


def test_mediagoblin_page_type_of_another_host_is_other() -> None:
    assert mgb.page_type("http://mediagoblin.org/") == "other"


def test_mediagoblin_entity_of_joins_an_entry_and_its_comment_permalinks() -> None:
    """An entry's page and its comments' permalinks (the same page) are one entity; a
    collection is another; listings, feeds, actions and files are none."""
    key = "entry kira_silva boats-in-porto-2"
    for url in (MGB_MEDIA, MGB_MEDIA + "?page=2", MGB_MEDIA + "c/17/"):
        assert mgb.entity_of(H + url) == key, url
    assert mgb.entity_of(H + "/u/ben-d/m/boats-in-porto-2/") != key
    assert mgb.entity_of(H + "/u/kira_silva/collection/best-of-porto/") == \
        "collection kira_silva best-of-porto"
    for other in ("/", "/u/kira_silva/", "/u/kira_silva/gallery/", "/tag/boats/",
                  "/u/kira_silva/collections/", MGB_MEDIA + "report/",
                  "/u/kira_silva/collection/best-of-porto/atom/",
                  "/mgoblin_media/media_entries/12/IMG_1.jpg"):
        assert mgb.entity_of(H + other) is None, other


def test_mediagoblin_generator_makes_what_the_views_accept() -> None:
    """15 users (one admin), a profile and account edit each before anything else of theirs;
    300 uploads by 12 of them, each title's slug unique to its uploader (MediaGoblin would
    add random letters to a second one), URLs of the uploader's name that MediaGoblin's
    website field accepts; comments and collection items after their entry's upload, the
    items of a collection all by its curator, no entry twice in one collection; events in
    time order, within the two years before `now`; deterministic."""
    import datetime as dt
    import re
    from collections import Counter

    from benchmarks.realsite.words import slug

    now = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)
    spec = mgb.generate(300, 0, now)
    users, events = spec["users"], spec["events"]
    names = [u["username"] for u in users]
    assert len(names) == len(set(names)) == 15 and sum(u["admin"] for u in users) == 1
    assert all(re.fullmatch(r"[a-z0-9_-]+", n) for n in names)
    assert [e["ts"] for e in events] == sorted(e["ts"] for e in events)
    kinds = Counter(e["kind"] for e in events)
    assert kinds["upload"] == 300 and kinds["profile"] == 15
    assert 380 <= kinds["comment"] <= 420 and kinds["collect"] >= 7 * 6
    first = {}
    for e in events:
        first.setdefault(e["user"], e)
    assert all(e["kind"] == "profile" for e in first.values())
    for e in events:
        if e["kind"] == "profile":
            assert not e["url"] or re.fullmatch(r"http://[a-z0-9-]+\.example\.org/", e["url"])
    uploads = [e for e in events if e["kind"] == "upload"]
    assert len({e["user"] for e in uploads}) == 12
    assert len({(e["user"], slug(e["title"])) for e in uploads}) == 300
    assert all(len(e["tags"]) <= 4 for e in uploads)
    assert sum(1 for e in uploads if e["tags"]) > 250
    assert all(e["license"] in mgb.LICENSES for e in uploads)
    start = now.replace(tzinfo=None) - dt.timedelta(days=731)
    assert all(start < dt.datetime.fromisoformat(e["ts"]) < now.replace(tzinfo=None)
               for e in uploads)
    curators, items = {}, set()
    for e in events:
        if e["kind"] in ("comment", "collect"):
            assert uploads[e["media"]]["ts"] < e["ts"], e
        if e["kind"] == "collect":
            assert curators.setdefault(e["collection"], e["user"]) == e["user"]
            assert (e["collection"], e["media"]) not in items
            items.add((e["collection"], e["media"]))
    assert len(curators) == 7
    assert mgb.generate(300, 0, now) == spec


def test_mediagoblin_available_names_the_venv_when_it_is_missing(tmp_path, monkeypatch) -> None:
    """Without its venv the site says how to make it (no test here needs MediaGoblin)."""
    monkeypatch.setattr(mgb, "VENV", tmp_path / "no-venv")
    missing = mgb.available()
    assert missing is not None and "ARCHIVER_MEDIAGOBLIN_VENV" in missing
    assert "mediagoblin==0.9.0" in missing and "python2.7" in missing


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "home"),
    ("/projects", "projects"),
    ("/projects?jump=activity", "projects"),
    ("/projects/kestrel", "project"),
    ("/issues/7", "issue"),
    ("/issues/7?tab=history", "view"),
    ("/issues/101?project_id=kestrel&set_filter=1&sort=", "view"),
    ("/issues/7.pdf", "export"),
    ("/issues/7.atom", "export"),
    ("/issues/7/edit", "login"),
    ("/issues/7/copy", "login"),
    ("/issues/7/time_entries", "timelog"),
    ("/issues/new", "login"),
    ("/issues", "issues"),
    ("/issues?assigned_to_id=10&set_filter=1&sort=assigned_to%2Cpriority%3Adesc", "issues"),
    ("/projects/kestrel/issues?page=3&sort=id%3Adesc", "issues"),
    ("/projects/kestrel/issues.csv", "export"),
    ("/projects/kestrel/issues.atom?query_id=2", "export"),
    ("/issues/changes", "export"),
    ("/issues/calendar?month=1&year=2027", "calendar"),
    ("/projects/kestrel/issues/calendar?month=10&year=2026", "calendar"),
    ("/projects/kestrel/issues/gantt?month=1&months=6&year=2027&zoom=3", "gantt"),
    ("/issues/gantt?action=show&controller=gantts&month=10&months=6&year=2026", "gantt"),
    ("/projects/kestrel/issues/gantt.pdf?month=11&months=6&year=2026", "export"),
    ("/projects/kestrel/issues/gantt.png?month=11&months=6&year=2026&zoom=2", "export"),
    ("/projects/kestrel/issues/report", "summary"),
    ("/projects/kestrel/issues/report/assigned_to", "summary"),
    ("/activity", "activity"),
    ("/activity?from=2026-06-27&user_id=28", "activity"),
    ("/projects/kestrel/activity?from=2025-03-01&show_issues=1", "activity"),
    ("/activity.atom?show_files=1", "export"),
    ("/projects/kestrel/roadmap", "roadmap"),
    ("/projects/kestrel/roadmap?completed=1", "roadmap"),
    ("/versions/3", "version"),
    ("/projects/kestrel/time_entries", "timelog"),
    ("/projects/kestrel/time_entries/report?set_filter=1&sort=", "timelog"),
    ("/time_entries", "timelog"),
    ("/projects/kestrel/wiki", "wiki"),
    ("/projects/kestrel/wiki/Installation", "wiki"),
    ("/projects/kestrel/wiki/Meeting_notes_2025-03-12", "wiki"),
    ("/projects/kestrel/wiki/HowTo?parent=Wiki", "view"),
    ("/projects/kestrel/wiki/index", "wiki_index"),
    ("/projects/kestrel/wiki/date_index", "wiki_index"),
    ("/projects/kestrel/wiki/Installation/history", "history"),
    ("/projects/kestrel/wiki/Installation/2", "revision"),
    ("/projects/kestrel/wiki/Installation/2/diff", "revision"),
    ("/projects/kestrel/wiki/Installation/3/annotate", "revision"),
    ("/projects/kestrel/wiki/Installation/diff?version=3&version_from=1", "revision"),
    ("/projects/kestrel/wiki/Installation.pdf", "export"),
    ("/projects/kestrel/wiki/Installation.txt", "export"),
    ("/projects/kestrel/wiki/Installation.html", "export"),
    ("/projects/kestrel/wiki/export", "export"),
    ("/projects/kestrel/wiki/export.pdf", "export"),
    ("/projects/kestrel/wiki/Installation/edit", "login"),
    ("/projects/kestrel/wiki/Installation/rename", "login"),
    ("/journals/12/diff?detail_id=40", "revision"),
    ("/journals/12/edit", "login"),
    ("/projects/kestrel/boards", "boards"),
    ("/projects/kestrel/boards?sort=created_on%2Cupdated_on", "boards"),
    ("/projects/kestrel/boards/1", "board"),
    ("/projects/kestrel/boards/1?sort=replies%2Cupdated_on%3Adesc&page=2", "board"),
    ("/projects/kestrel/boards/1.atom", "export"),
    ("/boards/1/topics/102", "topic"),
    ("/boards/1/topics/102?r=104", "topic"),
    ("/boards/1/topics/102/edit", "login"),
    ("/boards/1/topics/new", "login"),
    ("/news", "news_list"),
    ("/projects/kestrel/news", "news_list"),
    ("/news/4", "news"),
    ("/news.atom", "export"),
    ("/projects/kestrel/documents?sort_by=author", "files"),
    ("/projects/kestrel/files", "files"),
    ("/users/10", "user"),
    ("/users", "login"),
    ("/search", "search"),
    ("/search?q=brake&scope=subprojects", "search"),
    ("/projects/kestrel/search?q=brake", "search"),
    ("/login", "login"),
    ("/login?back_url=http%3A%2F%2F127.0.0.1%3A8080%2Fmy%2Fpage", "login"),
    ("/account/register", "login"),
    ("/account/lost_password", "login"),
    ("/my/page", "login"),
    ("/admin", "login"),
    ("/projects/kestrel/settings", "login"),
    ("/projects/new", "login"),
    ("/help/en/wiki_syntax_textile.html", "help"),
    ("/javascripts/application.js?1700000000", "static"),
    ("/stylesheets/application.css", "static"),
    ("/images/gantt.png", "static"),
    ("/favicon.ico", "static"),
    ("/robots.txt", "other"),
    ("/projects/kestrel/repository", "other"),
    ("/attachments/3", "other"),
])
def test_redmine_page_type(path: str, kind: str) -> None:
    assert rm.page_type(H + path) == kind
    assert kind in rm.TYPE_ORDER


def test_redmine_page_type_of_another_host_and_relative_urls() -> None:
    assert rm.page_type("https://www.redmine.org/issues/7") == "other"
    assert rm.page_type("/issues/7") == "issue"
    assert rm.page_type("http://localhost:3000/issues/7") == "issue"


def test_redmine_entity_of_is_an_issue_wiki_page_topic_or_news_item() -> None:
    """An issue, a wiki page by project and title (the start page also as the wiki's own
    URL), a topic whatever its board and reply anchor, a news item; never another view of
    one, an export, a list."""
    assert rm.entity_of(H + "/issues/7") == "issue 7"
    assert rm.entity_of(H + "/projects/kestrel/wiki/HowTo") == "wiki kestrel/HowTo"
    assert rm.entity_of(H + "/projects/kestrel/wiki") == "wiki kestrel/Wiki"
    assert rm.entity_of(H + "/projects/kestrel/wiki/Wiki") == "wiki kestrel/Wiki"
    assert rm.entity_of(H + "/boards/2/topics/41") == "topic 41"
    assert rm.entity_of(H + "/boards/2/topics/41?r=45") == "topic 41"
    assert rm.entity_of(H + "/news/3") == "news 3"
    for other in ("/issues/7?tab=notes", "/issues/7.pdf", "/projects/kestrel/wiki/HowTo/2",
                  "/projects/kestrel/wiki/HowTo/history", "/projects/kestrel/wiki/index",
                  "/projects/kestrel/wiki/HowTo.txt", "/news/3.atom", "/projects/kestrel",
                  "/projects/kestrel/boards/2", "/issues", "/versions/3", "/users/3", "/"):
        assert rm.entity_of(H + other) is None, other
    assert rm.TARGET_TYPE in rm.UCC_TYPES


def test_redmine_generator_keeps_time_order_and_names_pages_once() -> None:
    """Each issue's journals come after it and each other, before `now`; at most eight
    journals; issue references point to earlier issues; wiki titles are unique within a
    project and Redmine's own (letters, digits, "_" and "-": no "." a route would take for
    a format); topics stay on one page (under 25 replies); deterministic."""
    import datetime as dt
    import re

    now = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)
    spec = rm.generate(300, 0, now)
    assert len(spec["users"]) == len({u["login"] for u in spec["users"]}) == 40
    assert spec["settings"]["gravatar_enabled"] == "0"
    number = 0
    for project in spec["projects"]:
        for issue in project["issues"]:
            number += 1
            times = [dt.datetime.fromisoformat(t) for t in
                     [issue["created"], *(j["time"] for j in issue["journals"])]]
            assert times == sorted(times) and times[-1] < now
            assert len(issue["journals"]) <= 8
            texts = [issue["description"], *(j["notes"] for j in issue["journals"])]
            assert all(0 < int(n) < number for t in texts for n in re.findall(r"#(\d+)", t))
        titles = [p["title"] for p in project["pages"]]
        assert len(titles) == len(set(titles)) and rm.START_PAGE in titles
        assert all(re.fullmatch(r"[A-Za-z0-9_-]+", t) for t in titles)
        assert all(len(t["posts"]) <= 25 for b in project["boards"] for t in b["topics"])
    assert number == 300
    assert sum(len(p["pages"]) for p in spec["projects"]) == 60
    assert sum(len(t) for p in spec["projects"] for t in
               (b["topics"] for b in p["boards"])) == 60
    assert rm.generate(300, 0, now) == spec


# --- Fossil (`benchmarks.realsite.fossil`) -------------------------------------------------
FO_ROOT = "0223fc619b04acf6e1533c676428ae53bf17de0f9c04bee1bf1bfe844c6863cb"
FO_REPLY = "40c2b6e87bb97fb0f92155ed966c80d1c81af7832fe24484b6f1e366c1ae769a"
FO_OTHER = "0223aa0000000000000000000000000000000000000000000000000000000000"


@pytest.fixture()
def fossil_posts(tmp_path: Path) -> Iterator[None]:
    """A build's entities.jsonl with two threads (one sharing the first four hash digits with
    the other), read as `fo.entities` reads it."""
    rows = [{"type": "thread", "root": FO_ROOT, "path": f"/forumpost/{FO_ROOT[:10]}",
             "posts": [FO_ROOT, FO_REPLY]},
            {"type": "thread", "root": FO_OTHER, "path": f"/forumpost/{FO_OTHER[:10]}",
             "posts": [FO_OTHER]},
            {"type": "wiki", "name": "Station Formats", "path": "/wiki?name=Station+Formats"},
            {"type": "ticket", "uuid": "0079a59fb9" + "0" * 30, "path": "/tktview/0079a59fb9"}]
    (tmp_path / "entities.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert fo.entities(tmp_path, H) == {H + r["path"] for r in rows}
    yield
    fo._load_rows([])


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "home"), ("/index", "home"), ("/home", "home"), ("/wiki?name=Larkspur", "home"),
    (f"/forumpost/{FO_ROOT[:10]}", "thread"), (f"/forumpost/{FO_REPLY[:16]}", "thread"),
    (f"/forumpost/{FO_REPLY[:16]}?raw", "thread"), (f"/forumpost/{FO_ROOT[:10]}?t=c", "thread"),
    (f"/forumthread/{FO_ROOT[:10]}", "thread"), (f"/info/{FO_REPLY[:16]}", "thread"),
    ("/forumpost/0223", "other"),                  # two posts' prefix: Fossil's "ambiguous"
    ("/forumpost/ffffffffff", "other"), ("/forumpost", "other"),
    ("/forum", "forum"), ("/forum?x=25&n=25", "forum"),
    ("/wiki?name=Station+Formats", "wiki"), ("/wiki?name=Station+Formats&p", "wiki"),
    ("/wiki/Building", "wiki"), ("/wiki?name=Building&mimetype=x", "other"),
    ("/wiki", "wikiindex"), ("/wcontent", "wikiindex"), ("/wcontent?all=1", "wikiindex"),
    ("/whistory?name=Building", "history"), ("/wdiff?id=95bce0f322", "revision"),
    ("/tktview/0079a59fb9", "ticket"), ("/tktview?name=0079a59fb9", "ticket"),
    ("/tktview/0079a59fb9?plaintext", "other"), ("/tkthistory/0079a59fb9", "history"),
    ("/tkttimeline/0079a59fb9?y=ci", "timeline"), ("/info/0079a59fb9", "info"),
    ("/rptview/1", "report"), ("/ticket", "report"), ("/reportlist", "report"),
    ("/timeline", "timeline"), ("/timeline?c=2025-02-17+07:36:11&u=pia21&y=a", "timeline"),
    ("/timeline.rss", "timeline"), ("/dir?ci=tip", "code"), ("/file?name=README.md&ci=tip",
                                                             "code"),
    ("/artifact/357c584331", "revision"), ("/annotate?filename=Makefile&checkin=tip",
                                           "revision"),
    ("/tarball/8afa08521b/Larkspur-8afa08521b.tar.gz", "download"),
    ("/login", "login"), ("/login?g=tktnew&anon", "login"), ("/tktnew", "login"),
    ("/sitemap", "help"), ("/style.css?id=541eee62", "static"), ("/robots.txt", "other"),
])
def test_fossil_page_type(fossil_posts: None, path: str, kind: str) -> None:
    assert fo.page_type(H + path) == kind
    assert kind in fo.TYPE_ORDER


def test_fossil_entity_of_is_a_thread_by_its_first_post_a_wiki_page_or_a_ticket(
        fossil_posts: None) -> None:
    """Any post's page, in any display mode, is its thread's; a wiki page by name, also
    with ?p; a ticket by its first ten hash digits; never another view, nor the home page."""
    for path in (f"/forumpost/{FO_ROOT[:10]}", f"/forumpost/{FO_REPLY[:16]}?raw",
                 f"/forumpost/{FO_REPLY[:10]}?t=h", f"/info/{FO_REPLY[:16]}"):
        assert fo.entity_of(H + path) == f"thread {FO_ROOT}", path
    assert fo.entity_of(H + "/wiki?name=Station+Formats&p") == "wiki Station Formats"
    assert fo.entity_of(H + "/tktview/0079A59FB9") == "ticket 0079a59fb9"
    for other in ("/forumpost/0223", "/wiki?name=Larkspur", "/whistory?name=Building",
                  "/tktview/0079a59fb9?plaintext", "/forum", "/"):
        assert fo.entity_of(H + other) is None, other
    assert fo.TARGET_TYPE in fo.UCC_TYPES


def test_fossil_artifacts_carry_their_md5_and_are_named_by_sha3() -> None:
    """A control artifact ends with the MD5 of all before its Z card, and Fossil's default
    hash policy names it by the SHA3-256 of its bytes; card arguments escape spaces,
    newlines and backslashes."""
    data, name = fo.artifact(["D 2024-01-02T10:00:00.000", "H Hello\\sworld",
                              "N text/x-markdown", "U admin"], "First post *here*.")
    body, _, z = data.rpartition(b"Z ")
    assert z == hashlib.md5(body).hexdigest().encode() + b"\n"
    assert b"W 18\nFirst post *here*.\n" in data
    assert name == hashlib.sha3_256(data).hexdigest()
    assert fo._encode("a b\nc\\d") == "a\\sb\\nc\\\\d"


def test_fossil_generator_orders_posts_and_answers_earlier_ones() -> None:
    """Each thread's posts are in time order, before `now`; a reply names its thread's first
    post and answers a post written before it; ticket changes follow their ticket; wiki
    names are unique; deterministic."""
    import datetime as dt

    now = dt.datetime(2026, 11, 26, 12, 0, 0, tzinfo=dt.UTC)
    spec = fo.generate(60, 0, now)
    cards: dict[str, list[str]] = {}
    for text in spec["artifacts"]:
        data = text.encode("latin-1")
        lines = data.split(b"\n")
        head = [ln.decode("latin-1") for ln in lines if ln[:2] in (b"D ", b"G ", b"I ",
                                                                   b"K ", b"L ")]
        cards[hashlib.sha3_256(data).hexdigest()] = head
    threads = [r for r in spec["rows"] if r["type"] == "thread"]
    assert len(threads) == 60
    for row in threads:
        seen: list[str] = []
        times = []
        for post in row["posts"]:
            head = cards[post]
            times.append(head[0][2:])
            if seen:
                assert f"G {row['root']}" in head
                assert next(c[2:] for c in head if c.startswith("I ")) in seen
            seen.append(post)
        assert times == sorted(times) and times[-1] < now.strftime("%Y-%m-%dT%H:%M:%S")
    names = [r["name"] for r in spec["rows"] if r["type"] == "wiki"]
    assert len(names) == len(set(names)) and fo.SITE_NAME not in names
    assert len([r for r in spec["rows"] if r["type"] == "ticket"]) == 30
    assert fo.generate(60, 0, now) == spec

