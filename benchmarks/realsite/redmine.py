"""A real Redmine 5.0 project site (Debian's `redmine` package, Ruby on Rails 6.1, SQLite) on
127.0.0.1, with two public projects' generated issues, wiki pages, forums and news.

Redmine is the project-management site of many organisations and open-source projects
(redmine.org itself, Ruby's issue tracker, many universities' and companies' trackers):
an issue tracker, a wiki, forums, news and a roadmap per project. For
an archive it is as trap-rich as Trac: the calendar and the Gantt chart link the previous
and next month without end; the activity pages link "Previous" days back past the
project's first without end; every issue list sorts by each column, pages, filters and
exports (Atom, CSV, PDF); every wiki page has its history, each version, diffs and
annotations between versions. What an archivist wants is the issues, the wiki pages, the
forum topics and the news the projects wrote.

    build(folder)       fresh site in folder: Redmine's migrations (`rake db:migrate`) and
                        default data (`rake redmine:load_default_data`: trackers, statuses,
                        roles, workflows) on a SQLite file of the folder, then the users,
                        projects, members, categories, versions, issues with their journals
                        (comments, status, assignee and done-ratio changes) and relations,
                        wiki pages with their versions, boards with topics and replies and
                        news with comments, written through Redmine's own models
                        (`rails runner` of the Ruby script RUNNER, reading the JSON spec of a
                        generator, deterministic for n_issues, seed) at the generator's times
                        (ActiveSupport's travel_to around each write: created_on,
                        updated_on, closed_on and every version and journal)
    serve(folder)       Redmine under puma (production) on a free port, on a copy of the
                        database made when it starts; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every issue, written wiki page, forum topic and news item
                        (the UCC)

Redmine is Debian's (`apt-get install redmine redmine-sqlite puma gsfonts`: Redmine 5.0.4
in /usr/share/redmine on Debian's Ruby gems; gsfonts for the Gantt chart's PNG, which
ImageMagick draws with Helvetica and answers 500 without it); `available()` says what is
missing. The site runs from REDMINE_DIR with Debian's "default" instance (its secret key
and cache folders under /var; the log goes to stdout, server.log) and DATABASE_URL naming
the site's own SQLite file, so Debian's own database is never touched. The server
(CONFIG_RU) answers 405 to anything but GET and HEAD, and runs on serve.sqlite3, a copy
of the built database made at each start: a visitor's GET writes nothing that shows
(sessions are cookies), but nothing a crawl does can reach the next. Offline: Gravatar
off (Redmine's default, set again), no mail (Debian's Redmine delivers none:
perform_deliveries is off; every user's notifications are off too), no repository (the
Repository module has none to browse); the only off-site links are in the pages for a
browser (the top menu's Help: redmine.org's guide; "Powered by Redmine").

The permissions are Redmine's defaults for anonymous visitors (Anonymous role: view issues,
Gantt, calendar, spent time, news, documents, wiki pages and their history, forums, files);
login is not required, the projects are public, self-registration is the default (manual
activation: "Register" is linked). The UCC (`entities`): every issue's page (/issues/N: its
properties, description, relations and every journal, notes and property changes), every
wiki page the projects wrote (/projects/P/wiki/TITLE, the start page Wiki also as
/projects/P/wiki), every forum topic (/boards/B/topics/N: the message and all its
replies, which stay on one page: under 25) and every news item (/news/N, with its
comments). Not UCC: the home page, the project overviews, every list, calendar, chart and
report, an issue's page under another URL (?tab=...: "view"), the wiki's indexes, a page's
history, old versions, diffs and annotations, every export, the user profiles.

What a visitor meets: the top menu (Home, Projects, Help off-site; Sign in, Register) and
the search box (a GET form to /search); a project's tabs (Overview, Activity, Roadmap,
Issues, Spent time, Gantt, Calendar, News, Documents, Wiki, Forums, Files); issue lists
(/issues, /projects/P/issues: 25 a page, sortable by each column with ?sort=, paged with
?page=, the sidebar's saved-query-like links "View all issues", "Summary", and exports
.atom, .csv, .pdf; "Also available in" Atom/CSV/PDF); the calendar and Gantt chart
(?month=&year=, "« Previous" and "Next »" months without end; Gantt's PDF and PNG);
activity (?from=DATE, "« Previous" without end, Atom); the roadmap and each version
(/versions/N, its issues by status); an issue's page (links to its project, category,
version, the users (/users/N), related issues and the issues its text names, the
journals' diffs /journals/N/diff, Atom and PDF exports); a wiki page's history, old
versions (/wiki/TITLE/N), diffs, annotations, the index by title and by date (no exports:
an anonymous visitor lacks "Export wiki pages", so TITLE.pdf answers 406); boards
(/projects/P/boards/B, topics sortable and paged) and topics (each reply's permalink
?r=M); news lists and pages. Anything needing a login (new issue, edit, watch, My page)
redirects to /login?back_url=... . robots.txt: Redmine's own (welcome#robots), which
disallows /projects/P/issues (so every project's issue lists, calendar, Gantt chart and
summary), /projects/P/activity, /projects/P/repository, /issues/gantt, /issues/calendar,
/activity, /search, the global list's sorted, filtered and saved-query URLs, PDF exports
under /issues/ and /projects/, /login, /account/register and /account/lost_password; the
issues, wiki, forums, news and /issues itself stay allowed.

    python -m benchmarks.realsite.redmine /tmp/rmbench    # build, serve, smoke test
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import random
import shutil
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import requests

from benchmarks.realsite.php import (
    entity_rows,
    entity_urls,
    loopback_path,
    print_link_types,
    process_server,
    reuse_or_clear,
    run_checked,
    same_host_links,
    smoke_fetch,
    smoke_site,
)
from benchmarks.realsite.words import (
    FIRST,
    FORUM_TITLES,
    LAST,
    NOUNS,
    camel,
    forum_replies,
    thread_times,
    wiki_page,
)
from benchmarks.realsite.words import paragraph as _paragraph
from benchmarks.realsite.words import sentence as _sentence

REDMINE_DIR = Path(os.environ.get("ARCHIVER_REDMINE_DIR") or "/usr/share/redmine")
REDMINE_VERSION = "5.0"
INSTALL = ("apt-get install --no-install-recommends redmine redmine-sqlite puma gsfonts "
           "(Debian 12: Redmine 5.0.4)")
VERSION = 1  # of the generator and runner; part of the reuse marker
UCC_TYPES = {"issue", "wiki", "topic", "news"}
TARGET_TYPE = "issue"  # source-target's example is an issue
DESCRIPTION = ("Redmine 5.0.4 (Debian 12, SQLite, puma, anonymous visitors' default "
               "permissions), two public projects with {size} generated issues, their wikis, "
               "forums and news (`benchmarks/realsite/redmine.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("issue", "wiki", "topic", "news", "home", "projects", "project", "issues",
              "view", "calendar", "gantt", "activity", "roadmap", "version", "summary",
              "timelog", "wiki_index", "history", "revision", "export", "boards", "board",
              "news_list", "files", "user", "search", "login", "help", "static", "other")
# Page types rendered by one template, which no structure can tell apart (§3.1): an old
# version of a wiki page is the page's template with a version bar; an issue under ?tab= is
# the issue's page
SAME_TEMPLATE: dict[str, str] = {"revision": "wiki", "view": "issue"}
STATIC_DIRS = frozenset({"javascripts", "stylesheets", "images", "themes", "plugin_assets",
                         "fonts"})
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".ico", ".woff",
              ".woff2", ".ttf", ".eot", ".map")
# Formats Redmine's routes take as a last segment's extension (/issues.csv, /issues/7.pdf,
# /projects/P/wiki/TITLE.txt, /projects/P/issues/gantt.png, /activity.atom, ...)
EXPORT_EXT = (".atom", ".pdf", ".csv", ".txt", ".html", ".png", ".xml", ".json", ".ics",
              ".js")
SITE_NAME = "Kestrel"
START_PAGE = "Wiki"  # every Redmine wiki's start page
# Views that need a login (an anonymous visitor is redirected to /login?back_url=...)
LOGIN_ACTIONS = frozenset({"new", "edit", "copy", "settings", "rename", "watch", "quote",
                           "reply", "bulk_edit", "destroy", "imports", "add_attachment",
                           "preview", "protect", "move", "close", "archive"})

RUNNER = r'''# Run by benchmarks/realsite/redmine.py: bin/rails runner content.rb spec.json
# (production, DATABASE_URL naming the site's database); writes entities.jsonl beside it.
require 'json'
require 'active_support/testing/time_helpers'
include ActiveSupport::Testing::TimeHelpers

HERE = File.dirname(File.expand_path(__FILE__))
spec = JSON.parse(File.read(ARGV[0]))
def at(text, &block)
  travel_to(Time.iso8601(text), &block)
end

ActionMailer::Base.perform_deliveries = false
spec["settings"].each { |key, value| Setting[key] = value }
users = {}
spec["users"].each do |u|
  at(u["created"]) do
    user = User.new(firstname: u["firstname"], lastname: u["lastname"], mail: u["mail"])
    user.login = u["login"]
    user.password = user.password_confirmation = "realsite-bench-1"
    user.status = User::STATUS_ACTIVE
    user.mail_notification = "none"
    user.pref.hide_mail = true
    user.save!
    users[u["login"]] = user
  end
end
roles = Role.givable.index_by(&:name)
trackers = Tracker.all.index_by(&:name)
statuses = IssueStatus.all.index_by(&:name)
priorities = IssuePriority.all.index_by(&:name)
rows = []
spec["projects"].each do |p|
  project = nil
  at(p["created"]) do
    project = Project.new(name: p["name"], identifier: p["identifier"],
                          description: p["description"], is_public: true)
    project.enabled_module_names = Redmine::AccessControl.available_project_modules.map(&:to_s)
    project.trackers = Tracker.all
    project.save!
    p["members"].each do |login, role|
      Member.new(user: users[login], project: project, roles: [roles[role]]).save!
    end
  end
  categories = p["categories"].map do |c|
    [c["name"], IssueCategory.create!(project: project, name: c["name"],
                                      assigned_to: users[c["owner"]])]
  end.to_h
  versions = p["versions"].map do |v|
    version = nil
    at(p["created"]) do
      version = Version.create!(project: project, name: v["name"], description: v["description"],
                                effective_date: v["due"] && Date.iso8601(v["due"]),
                                status: "open", sharing: "none")
    end
    [v["name"], version]
  end.to_h
  ids = []
  p["issues"].each do |i|
    issue = nil
    at(i["created"]) do
      User.current = users[i["author"]]
      issue = Issue.new(project: project, tracker: trackers[i["tracker"]],
                        subject: i["subject"], description: i["description"],
                        author: users[i["author"]], priority: priorities[i["priority"]],
                        status: statuses["New"])
      issue.category = categories[i["category"]] if i["category"]
      issue.fixed_version = versions[i["version"]] if i["version"]
      issue.assigned_to = users[i["assignee"]] if i["assignee"]
      issue.save!
    end
    ids << issue.id
    if i["relates"]
      IssueRelation.create!(issue_from: Issue.find(ids[i["relates"]]), issue_to: issue,
                            relation_type: "relates")
    end
    i["journals"].each do |j|
      at(j["time"]) do
        User.current = users[j["author"]]
        issue.reload
        issue.init_journal(users[j["author"]], j["notes"])
        issue.status = statuses[j["status"]] if j["status"]
        issue.assigned_to = users[j["assignee"]] if j["assignee"]
        issue.done_ratio = j["done"] if j["done"]
        issue.save!
      end
    end
    rows << {type: "issue", id: issue.id, project: p["identifier"], path: "/issues/#{issue.id}",
             journals: i["journals"].size}
  end
  p["versions"].each do |v|
    versions[v["name"]].update_column(:status, "closed") if v["closed"]
  end
  wiki = project.wiki
  p["pages"].each do |w|
    page = nil
    w["versions"].each do |v|
      at(v["time"]) do
        User.current = users[v["author"]]
        page ||= WikiPage.new(wiki: wiki, title: w["title"])
        page.parent = wiki.find_page(w["parent"]) if w["parent"] && page.new_record?
        content = page.content || WikiContent.new(page: page)
        content.text = v["text"]
        content.author = users[v["author"]]
        content.comments = v["comment"]
        page.save_with_content(content) or raise "wiki page #{w['title']} not saved"
        page.reload
      end
    end
    rows << {type: "wiki", project: p["identifier"], title: page.title,
             path: "/projects/#{p['identifier']}/wiki/#{page.title}",
             versions: w["versions"].size}
  end
  p["boards"].each_with_index do |b, position|
    board = Board.create!(project: project, name: b["name"], description: b["description"],
                          position: position + 1)
    b["topics"].each do |t|
      topic = nil
      t["posts"].each_with_index do |post, k|
        at(post["time"]) do
          User.current = users[post["author"]]
          message = Message.new(board: board, author: users[post["author"]],
                                subject: k.zero? ? t["subject"] : "RE: #{t['subject']}",
                                content: post["text"])
          if k.zero?
            message.sticky = t["sticky"] ? 1 : 0
            message.locked = false
          else
            message.parent = topic
          end
          message.save!
          topic ||= message
        end
      end
      topic.update_column(:locked, true) if t["locked"]
      rows << {type: "topic", id: topic.id, project: p["identifier"], board: board.id,
               path: "/boards/#{board.id}/topics/#{topic.id}", replies: t["posts"].size - 1}
    end
  end
  p["news"].each do |n|
    news = nil
    at(n["time"]) do
      User.current = users[n["author"]]
      news = News.create!(project: project, title: n["title"], summary: n["summary"],
                          description: n["description"], author: users[n["author"]])
    end
    n["comments"].each do |c|
      at(c["time"]) do
        Comment.create!(commented: news, author: users[c["author"]], content: c["text"])
      end
    end
    rows << {type: "news", id: news.id, project: p["identifier"], path: "/news/#{news.id}",
             comments: n["comments"].size}
  end
end
User.current = nil
File.open(File.join(HERE, "entities.jsonl"), "w") do |out|
  rows.each { |row| out.write(JSON.generate(row) + "\n") }
end
puts "#{rows.size} entities"
'''

# The rack file the server runs: Redmine, behind a guard that answers 405 to anything but
# GET and HEAD (the crawler never posts; a sign-in or a form would write to the copy)
CONFIG_RU = """# Written by benchmarks/realsite/redmine.py: Redmine, GET and HEAD only
require File.join(ENV.fetch("REDMINE_DIR"), "config", "environment")

class ReadOnly
  def initialize(app)
    @app = app
  end

  def call(env)
    if %w[GET HEAD].include?(env["REQUEST_METHOD"])
      @app.call(env)
    else
      [405, {"Content-Type" => "text/plain", "Allow" => "GET, HEAD"}, ["read-only\\n"]]
    end
  end
end

use ReadOnly
run Rails.application
"""

CATEGORIES = ["Core", "Importer", "Web interface", "Command line", "Documentation",
              "Packaging"]
TOPICS = ["Maps", "Routes", "Weather", "Exports", "Imports", "Accounts", "Notifications",
          "Search", "Printing", "Backups", "Sensors", "Calendars", "Reports", "Plugins"]
GUIDES = ["Installation", "Configuration", "Developer_guide", "Coding_style",
          "Release_process", "Frequently_asked_questions", "Translation_guide"]
EDITS = ["typo", "add an example", "new section", "update for the latest release",
         "clarify", "links", ""]
PRIORITIES = ["Low", "Normal", "Normal", "Normal", "Normal", "High", "High", "Urgent",
              "Immediate"]
TRACKERS = ["Bug"] * 5 + ["Feature"] * 3 + ["Support"] * 2
BOARDS = [("General discussion", "Anything about the project"),
          ("Help", "Questions about installing and using it"),
          ("Development", "Patches, plans and design")]
# The two projects: identifier, name, description, share of the issues, wiki pages, boards,
# news items
PROJECTS = [("kestrel", SITE_NAME, "Route planning for walkers and cyclists from open map "
             "data.", 0.8, 45, 3, 6),
            ("kestrel-mobile", f"{SITE_NAME} Mobile", "The offline companion app for "
             "phones.", 0.2, 15, 1, 3)]


def _stamp(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def _users(rng: random.Random, start: dt.datetime) -> list[dict[str, str]]:
    """40 users with first and last names, logins first.last."""
    names = rng.sample([(f, last) for f in FIRST for last in LAST], 40)
    return [{"login": f"{f.lower()}.{last.lower()}", "firstname": f, "lastname": last,
             "mail": f"{f.lower()}.{last.lower()}@example.org",
             "created": _stamp(start - dt.timedelta(days=rng.uniform(1, 30)))}
            for f, last in names]


def _text(rng: random.Random, title: str, links: list[str], issues: int) -> str:
    """Textile (Redmine's default text formatting, `wiki_page`): h1./h2. headings, "* "
    lists, links to wiki pages ([[TITLE]]) and issues (#N)."""
    return wiki_page(rng, title.replace("_", " "), links, issues,
                     heading=lambda text, n: f"h{n}. {text}", bullet="* ",
                     link=lambda name: f"[[{name}]]")


def _later(t: dt.datetime, hours: float, cap: dt.datetime) -> dt.datetime:
    return max(min(t + dt.timedelta(hours=hours), cap), t + dt.timedelta(minutes=1))


def _issues(rng: random.Random, n: int, first_id: int, members: list[str], devs: list[str],
            versions: list[dict[str, Any]], start: dt.datetime, now: dt.datetime
            ) -> list[dict[str, Any]]:
    """n issues over two years, each filed against the next version (some against none),
    with 0 to 8 journals: comments, the assignee's "In Progress", "Feedback", done ratios,
    and for most of a released version's issues "Resolved" then "Closed" (or "Rejected")."""
    issues = []
    for k in range(n):
        created = start + dt.timedelta(days=730 * k / n + rng.uniform(0, 1.5))
        created = min(created, now - dt.timedelta(days=1)).replace(microsecond=0)
        target = next((v for v in versions if v["due"] and v["due"] > created.date().isoformat()),
                      None)
        version = None if target is None or rng.random() < 0.15 else target["name"]
        author = rng.choice(members)
        assignee = rng.choice(devs) if rng.random() < 0.7 else None
        number = first_id + k  # this issue's id, for references to earlier ones
        description = _paragraph(rng, (1, 4))
        if number > 1 and rng.random() < 0.3:
            description += f"\n\nSee #{rng.randint(1, number - 1)}."
        journals: list[dict[str, Any]] = []
        t = created
        for c in range(rng.choice([0, 1, 1, 2, 2, 3, 4, 5, 6])):  # and two to close it
            t = _later(t, rng.uniform(1, 400), now - dt.timedelta(hours=2))
            journal: dict[str, Any] = {"author": rng.choice(members), "time": _stamp(t),
                                       "notes": _paragraph(rng, (1, 3))}
            if c == 0 and assignee and rng.random() < 0.5:
                journal.update(author=assignee, status="In Progress")
            elif assignee and rng.random() < 0.2:
                journal.update(author=assignee, done=rng.choice([10, 30, 50, 70, 90]))
            elif rng.random() < 0.1:
                journal["status"] = "Feedback"
            elif rng.random() < 0.08:
                journal["assignee"] = rng.choice(devs)
            if number > 1 and rng.random() < 0.15:
                journal["notes"] += f" Related to #{rng.randint(1, number - 1)}."
            journals.append(journal)
        released = target is not None and version and target["closed"]
        if released and rng.random() < 0.85:
            closer = assignee or rng.choice(devs)
            if rng.random() < 0.9:
                t = _later(t, rng.uniform(24, 400), now - dt.timedelta(hours=1))
                journals.append({"author": closer, "time": _stamp(t), "status": "Resolved",
                                 "notes": f"Fixed for {version}.", "done": 100})
                t = _later(t, rng.uniform(24, 200), now - dt.timedelta(minutes=30))
                journals.append({"author": closer, "time": _stamp(t), "status": "Closed",
                                 "notes": ""})
            else:
                t = _later(t, rng.uniform(24, 400), now - dt.timedelta(hours=1))
                journals.append({"author": closer, "time": _stamp(t), "status": "Rejected",
                                 "notes": _sentence(rng, (5, 12))})
        issues.append({
            "created": _stamp(created), "author": author, "tracker": rng.choice(TRACKERS),
            "subject": _sentence(rng, (4, 10)).rstrip("."), "description": description,
            "priority": rng.choice(PRIORITIES), "category": rng.choice([None, *CATEGORIES]),
            "version": version, "assignee": assignee, "journals": journals,
            "relates": rng.randrange(k) if k and rng.random() < 0.1 else None})
    return issues


def _pages(rng: random.Random, n: int, main: bool, members: list[str], issues: int,
           start: dt.datetime, now: dt.datetime) -> list[dict[str, Any]]:
    """A project's wiki: guides, user-guide chapters, how-tos and meeting notes (the main
    project's; the other has guides and how-tos), each edited one to six times, under index
    pages (Redmine's parent pages), and the start page Wiki listing them."""
    names = list(GUIDES) if main else GUIDES[:3]
    chapters = [f"User_guide_{t}" for t in TOPICS] if main else []
    howtos: list[str] = []
    meetings: list[str] = []
    fixed = len(names) + len(chapters) + 3
    while fixed + len(howtos) + len(meetings) < n:
        if not main or rng.random() < 0.5:
            name = f"HowTo_{camel(rng.choice(NOUNS))}_{rng.choice(NOUNS)}"
            if name not in howtos:
                howtos.append(name)
        else:
            day = start + dt.timedelta(days=rng.randrange((now - start).days - 2))
            name = f"Meeting_notes_{day:%Y-%m-%d}"
            if name not in meetings:
                meetings.append(name)
    howtos.sort()
    meetings.sort()
    written = names + chapters + howtos + meetings
    pages: list[dict[str, Any]] = []
    home_time = start + dt.timedelta(days=1)

    def page(name: str, parent: str | None, text: str | None = None,
             first: dt.datetime | None = None) -> None:
        t = first or home_time + dt.timedelta(days=rng.uniform(1, (now - start).days - 4))
        versions = []
        for v in range(1 if text else rng.choice([1, 1, 2, 2, 3, 4, 6])):
            links = rng.sample(written, rng.randint(0, 3))
            versions.append({"text": text or _text(rng, name, links, issues),
                             "author": rng.choice(members), "time": _stamp(t),
                             "comment": rng.choice(EDITS) if v else "new page"})
            t = min(t + dt.timedelta(days=rng.uniform(0.1, 60)), now - dt.timedelta(hours=1))
        pages.append({"title": name, "parent": parent, "versions": versions})

    home = "\n".join(
        ["h1. Wiki", "", "The project's documentation, written by its users and developers.",
         "", "h2. Documentation", ""] + [f"* [[{g}]]" for g in names]
        + (["* [[User_guide]]"] if chapters else []) + ["", "h2. Community", "",
                                                        "* [[HowTo|How-tos]]"]
        + (["* [[Meeting_notes]]"] if meetings else []) + ["", "{{child_pages}}", ""])
    page(START_PAGE, None, home, home_time)
    indexes = [("HowTo", howtos, "Short recipes written by the community.")]
    if chapters:
        indexes.insert(0, ("User_guide", chapters, "The user guide, chapter by chapter."))
    if meetings:
        indexes.append(("Meeting_notes", meetings, "Notes of the fortnightly meetings."))
    for name, members_, intro in indexes:
        listed = [m for m in members_ if rng.random() < 0.9]
        page(name, START_PAGE, "\n".join([f"h1. {name.replace('_', ' ')}", "", intro, ""]
                                         + [f"* [[{m}]]" for m in listed]) + "\n",
             home_time + dt.timedelta(hours=2))
    for name in names:
        page(name, START_PAGE)
    for name in chapters:
        page(name, "User_guide")
    for name in howtos:
        page(name, "HowTo")
    for name in meetings:
        page(name, "Meeting_notes",
             first=dt.datetime.fromisoformat(name[-10:] + "T18:00:00+00:00"))
    return pages


def _boards(rng: random.Random, n_boards: int, n_topics: int, members: list[str],
            start: dt.datetime, now: dt.datetime) -> list[dict[str, Any]]:
    """Boards with topics spread over two years; each topic's replies (under 25, so that a
    topic is one page) within days of it."""
    boards: list[dict[str, Any]] = [{"name": name, "description": descr, "topics": []}
              for name, descr in BOARDS[:n_boards]]
    for k in range(n_topics):
        first = start + dt.timedelta(days=(730 - 5) * (k + rng.random()) / n_topics)
        words = rng.sample(NOUNS, 3)
        subject = rng.choice(FORUM_TITLES).format(A=camel(words[0]), a=words[0], b=words[1],
                                                  c=words[2])
        replies = min(forum_replies(rng), 20)
        times = thread_times(rng, first, min(first + dt.timedelta(days=4), now), replies, 60)
        posts = [{"author": rng.choice(members), "time": _stamp(t),
                  "text": _paragraph(rng, (1, 4))} for t in times]
        rng.choice(boards)["topics"].append({
            "subject": subject, "posts": posts, "sticky": rng.random() < 0.05,
            "locked": rng.random() < 0.05})
    return boards


def _news(rng: random.Random, n: int, versions: list[dict[str, Any]], members: list[str],
          start: dt.datetime, now: dt.datetime) -> list[dict[str, Any]]:
    """News items (the releases' announcements first), each with 0 to 5 comments."""
    news: list[dict[str, Any]] = []
    released = [v for v in versions if v["closed"]]
    for k in range(n):
        if k < len(released):
            v = released[-1 - k]
            title = f"{SITE_NAME} {v['name']} released"
            t = dt.datetime.fromisoformat(v["due"] + "T12:00:00+00:00")
        else:
            title = f"{camel(rng.choice(NOUNS))} {rng.choice(NOUNS)} sprint"
            t = start + dt.timedelta(days=rng.uniform(10, 700))
        comments = []
        c = t
        for _ in range(rng.choice([0, 1, 1, 2, 3, 5])):
            c = _later(c, rng.uniform(1, 72), now - dt.timedelta(minutes=10))
            comments.append({"author": rng.choice(members), "time": _stamp(c),
                             "text": _paragraph(rng, (1, 2))})
        news.append({"title": title, "summary": _sentence(rng, (8, 16)),
                     "description": _paragraph(rng, (2, 5)), "author": members[0],
                     "time": _stamp(t), "comments": comments})
    news.sort(key=lambda item: item["time"])
    return news


def generate(n_issues: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """Two years of two projects: 40 users (the first six developers of both), the main
    project's releases every quarter (versions 0.1 to 0.8, those past due closed, and 1.0
    with no date), the other's twice a year; issues, wiki pages, forum topics (about 60) and
    news as `_issues`, `_pages`, `_boards`, `_news` make them."""
    rng = random.Random(seed)
    start = (now - dt.timedelta(days=730)).replace(hour=9, minute=0, second=0, microsecond=0)
    users = _users(rng, start)
    logins = [u["login"] for u in users]
    devs = logins[:6]
    projects = []
    first_id = 1
    for p, (ident, name, descr, share, n_pages, n_boards, n_news) in enumerate(PROJECTS):
        members = logins if p == 0 else devs + rng.sample(logins[6:], 12)
        every = 91 if p == 0 else 182
        versions = []
        for i in range(730 // every):
            due = (start + dt.timedelta(days=every * (i + 1))).date()
            versions.append({"name": f"0.{i + 1}" if p == 0 else f"{due:%Y}.{i % 2 + 1}",
                             "due": due.isoformat(), "closed": due < now.date(),
                             "description": _sentence(rng, (6, 12))})
        versions.append({"name": "1.0" if p == 0 else "Later", "due": None, "closed": False,
                         "description": "Ideas nobody has planned yet."})
        n = round(n_issues * share) if p == 0 else n_issues - round(n_issues * PROJECTS[0][3])
        issues = _issues(rng, n, first_id, members, devs, versions, start, now)
        first_id += n
        projects.append({
            "identifier": ident, "name": name, "description": descr,
            "created": _stamp(start - dt.timedelta(hours=1)),
            "members": [[m, "Developer" if m in devs else "Reporter"] for m in members],
            "categories": [{"name": c, "owner": rng.choice(devs)} for c in CATEGORIES],
            "versions": versions, "issues": issues,
            "pages": _pages(rng, n_pages, p == 0, members, n_issues, start, now),
            "boards": _boards(rng, n_boards, 48 if p == 0 else 12, members, start, now),
            "news": _news(rng, n_news, versions, members, start, now)})
    settings = {"app_title": SITE_NAME, "gravatar_enabled": "0", "login_required": "0",
                "default_projects_public": "1", "host_name": "127.0.0.1",
                "welcome_text": f"Welcome to the {SITE_NAME} projects' site: route planning "
                                "from open map data.",
                "notified_events": [], "text_formatting": "textile"}
    return {"settings": settings, "users": users, "projects": projects}


def available() -> str | None:
    """None if Debian's Redmine, its SQLite adapter and puma are installed, else how to
    install them."""
    missing = [what for what, path in (
        ("redmine", REDMINE_DIR / "bin" / "rails"),
        ("redmine-sqlite", Path("/usr/share/doc/redmine-sqlite")),
        ("puma", Path("/usr/bin/puma"))) if not path.exists()]
    if not missing:
        return None
    return f"needs Debian's Redmine {REDMINE_VERSION} ({', '.join(missing)} missing): {INSTALL}"


def _environment(database: Path) -> dict[str, str]:
    return {**os.environ, "RAILS_ENV": "production", "TZ": "UTC", "REDMINE_LANG": "en",
            "DATABASE_URL": f"sqlite3:{database}", "REDMINE_DIR": str(REDMINE_DIR),
            "RAILS_LOG_TO_STDOUT": "1"}


def build(folder: Path, n_issues: int = 300, seed: int = 0) -> Path:
    """Build a fresh site in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    folder = folder.resolve()
    params = {"n_issues": n_issues, "seed": seed, "version": VERSION}
    if reuse_or_clear(folder, params, "content.rb", "Redmine site"):
        return folder
    started = time.time()
    (folder / "content.rb").write_text(RUNNER)
    (folder / "config.ru").write_text(CONFIG_RU)
    (folder / "db").mkdir()
    env = _environment(folder / "db" / "redmine.sqlite3")
    rake = str(REDMINE_DIR / "bin" / "rake")
    run_checked([rake, "db:migrate"], REDMINE_DIR, env=env)
    run_checked([rake, "redmine:load_default_data"], REDMINE_DIR, env=env)
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    (folder / "spec.json").write_text(json.dumps(generate(n_issues, seed, now)))
    run_checked([str(REDMINE_DIR / "bin" / "rails"), "runner", str(folder / "content.rb"),
                 str(folder / "spec.json")], REDMINE_DIR, env=env, name="rails runner")
    (folder / "build.json").write_text(json.dumps({
        "params": params, "built_at": time.time(),
        "build_seconds": round(time.time() - started, 1)}))
    return folder


@contextlib.contextmanager
def serve(folder: Path, workers: int = 4) -> Iterator[str]:
    """Serve the site built in folder (puma, `workers` threads, GET and HEAD only, on a copy
    of the database) on a free port; yields the home URL."""
    folder = folder.resolve()
    database = folder / "serve.sqlite3"
    shutil.copyfile(folder / "db" / "redmine.sqlite3", database)
    try:
        with process_server(
                lambda port: ["puma", "--environment", "production", "--bind",
                              f"tcp://127.0.0.1:{port}", "--threads", f"{workers}:{workers}",
                              str(folder / "config.ru")],
                folder / "server.log", "/", lambda server: _environment(database),
                REDMINE_DIR, "Redmine (puma)") as seed:
            yield seed
    finally:
        database.unlink(missing_ok=True)


# Sections of a project, and of the site as a whole, by their path segment
SECTIONS = {"activity": "activity", "roadmap": "roadmap", "time_entries": "timelog",
            "files": "files", "documents": "files", "search": "search",
            "repository": "other", "settings": "login", "members": "login",
            "issue_categories": "login", "queries": "login"}


def _issues_path(rest: list[str], query: dict[str, list[str]]) -> str:
    """/issues/... and /projects/P/issues/... (rest: the segments after "issues")."""
    if not rest:
        return "issues"
    head = rest[0]
    if head in ("calendar", "gantt"):
        return head if len(rest) == 1 else "other"
    if head == "report":
        return "summary"
    if head == "changes":  # the journals' Atom feed
        return "export"
    if head.isdigit():
        if len(rest) == 1:
            return "view" if query else "issue"
        if rest[1] == "time_entries":
            return "timelog"
        if rest[1] == "relations":
            return "other"
        return "login" if rest[1] in LOGIN_ACTIONS else "other"
    return "login" if head in LOGIN_ACTIONS else "other"


def _wiki_path(rest: list[str], query: dict[str, list[str]]) -> str:
    """/projects/P/wiki/... (rest: the segments after "wiki")."""
    if not rest:
        return "view" if query else "wiki"
    head = rest[0]
    if head in ("index", "date_index") and len(rest) == 1:
        return "wiki_index"
    if head == "export" and len(rest) == 1:
        return "export"
    if head in LOGIN_ACTIONS and len(rest) == 1:
        return "login"
    if len(rest) == 1:
        return "view" if query else "wiki"
    if rest[1] == "history" and len(rest) == 2:
        return "history"
    if rest[1] == "diff" and len(rest) == 2:
        return "revision"
    if rest[1].isdigit() and (len(rest) == 2 or rest[2:] in (["annotate"], ["diff"])):
        return "revision"
    return "login" if rest[1] in LOGIN_ACTIONS else "other"


def page_type(url: str) -> str:
    """Ground truth from the URL alone (Redmine 5.0's config/routes.rb), in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - /javascripts/, /stylesheets/, /images/, /themes/, /plugin_assets/ and /favicon.ico:
      "static"; /help/...: "help" (the wiki syntax pages)
    - a last segment with a format's extension (EXPORT_EXT: .atom, .pdf, .csv, .txt,
      .html, .png, ...; /robots.txt is "other"): "export"; /issues/changes (Atom) too
    - /: "home"; /projects: "projects"; /projects/P: "project" (its overview)
    - /issues/N: "issue" ("view" with a query: ?tab=...); /issues, /projects/P/issues:
      "issues" (every sort, filter and page); .../issues/calendar: "calendar";
      .../issues/gantt: "gantt"; .../issues/report[/FIELD]: "summary"
    - /projects/P/wiki/TITLE and /projects/P/wiki (the start page): "wiki" ("view" with a
      query); wiki/index and wiki/date_index: "wiki_index"; TITLE/history: "history";
      TITLE/diff, TITLE/N, TITLE/N/diff, TITLE/N/annotate: "revision";
      /journals/N/diff (an issue's description change): "revision"
    - /boards/B/topics/N: "topic" (any query: ?r=M, the page holding reply M, is the
      topic's page); /projects/P/boards: "boards"; /projects/P/boards/B: "board"
    - /news/N: "news" ("view" with a query); /news, /projects/P/news: "news_list"
    - activity ("activity"), roadmap ("roadmap"), /versions/N ("version"), time_entries
      ("timelog"), files and documents ("files"), search ("search"), /users/N ("user")
    - /login, /logout, /account/..., /my/..., /admin, and the views needing a login (new,
      edit, copy, settings, watch, ...; Redmine redirects to /login): "login"
    - anything else (robots.txt, /projects/P/repository, attachments, ...): "other"."""
    if (local := loopback_path(url)) is None:
        return "other"
    path, segs = local
    query = parse_qs(urlsplit(url).query, keep_blank_values=True)
    if not segs:
        return "home"
    head = segs[0]
    if head in STATIC_DIRS or path == "/favicon.ico":
        return "static"
    if head == "help":
        return "help"
    if path == "/robots.txt":
        return "other"
    if segs[-1].lower().endswith(EXPORT_EXT):
        return "export"
    if path.lower().endswith(STATIC_EXT):
        return "static"
    if head == "projects":
        if len(segs) == 1:
            return "projects"
        if len(segs) == 2:
            return "login" if segs[1] in LOGIN_ACTIONS else "project"
        section, rest = segs[2], segs[3:]
        if section == "issues":
            return _issues_path(rest, query)
        if section == "wiki":
            return _wiki_path(rest, query)
        if section == "boards":
            if not rest:
                return "boards"
            return "board" if len(rest) == 1 and rest[0].isdigit() else "login"
        if section == "news":
            return "news_list" if not rest else "login"
        if section in ("roadmap", "activity", "search", "files", "documents") and rest:
            return "login" if rest[0] in LOGIN_ACTIONS else "other"
        if section == "time_entries":
            return "login" if rest and rest[0] in LOGIN_ACTIONS else "timelog"
        if section in LOGIN_ACTIONS:
            return "login"
        return SECTIONS.get(section, "other")
    rest = segs[1:]
    if head == "issues":
        return _issues_path(rest, query)
    if head == "boards":
        if len(rest) == 3 and rest[1] == "topics" and rest[2].isdigit():
            return "topic"
        return "login" if len(rest) >= 3 and rest[1] == "topics" else "other"
    if head == "news":
        if not rest:
            return "news_list"
        if len(rest) == 1 and rest[0].isdigit():
            return "view" if query else "news"
        return "login" if rest[-1] in LOGIN_ACTIONS or "comments" in rest else "other"
    if head == "versions":
        return "version" if len(rest) == 1 and rest[0].isdigit() else "login"
    if head == "journals":
        return "revision" if rest[1:] == ["diff"] else "login"
    if head == "users":
        return "user" if len(rest) == 1 and rest[0].isdigit() else "login"
    if head in ("login", "logout", "account", "my", "admin", "settings", "groups", "roles",
                "trackers", "issue_statuses", "workflows", "custom_fields", "enumerations",
                "auth_sources", "imports", "queries", "watchers"):
        return "login"
    if not rest and head in ("activity", "search", "time_entries"):
        return SECTIONS[head]
    if head == "time_entries":
        return "login" if rest and rest[0] in LOGIN_ACTIONS else "timelog"
    return "other"


def entity_of(url: str) -> str | None:
    """The UCC page a URL shows: "issue N", "wiki P/TITLE" (the start page, /projects/P/wiki,
    as "wiki P/Wiki"), "topic N" or "news N"; None for anything else (another view of one,
    an export, a list)."""
    kind = page_type(url)
    if kind not in UCC_TYPES:
        return None
    segs = [unquote(s) for s in urlsplit(url).path.split("/") if s]
    if kind == "wiki":
        return f"wiki {segs[1]}/{segs[3] if len(segs) > 3 else START_PAGE}"
    return f"{kind} {int(segs[-1])}"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every issue, written wiki page, forum topic and news item, as the site links
    them (/issues/N, /projects/P/wiki/TITLE, /boards/B/topics/N, /news/N); give the server
    (e.g. "http://127.0.0.1:8123") to get absolute URLs."""
    return entity_urls(folder, server)


def stats(folder: Path) -> dict[str, Any]:
    """Content figures of a build: UCC pages by type and project, journals per issue,
    versions per wiki page, replies per topic, comments per news item."""
    rows = entity_rows(folder)

    def spread(kind: str, field: str) -> dict[int, int]:
        return dict(sorted(Counter(r[field] for r in rows if r["type"] == kind).items()))

    return {"pages": dict(Counter(f"{r['type']} {r['project']}" for r in rows)),
            "journals_per_issue": spread("issue", "journals"),
            "versions_per_wiki_page": spread("wiki", "versions"),
            "replies_per_topic": spread("topic", "replies"),
            "comments_per_news": spread("news", "comments")}


def main(argv: list[str] | None = None) -> int:
    with smoke_site(sys.modules[__name__], "issues", 300, argv) as smoke:
        if smoke is None:
            return 2
        seed, server, ucc = smoke.seed, smoke.server, smoke.ucc
        pages = [("home", smoke.home_links)]
        for url in (f"{server}/issues/7", min(u for u in ucc if "/wiki/HowTo_" in u),
                    min(u for u in ucc if "/topics/" in u), f"{server}/projects/kestrel",
                    f"{server}/projects/kestrel/issues",
                    f"{server}/projects/kestrel/activity",
                    f"{server}/projects/kestrel/issues/calendar"):
            pages.append((url, same_host_links(requests.get(url, timeout=60).content, url)))
        links = set().union(*(found for _, found in pages))
        first = {page_type(u): u for u in sorted(links, reverse=True)}
        statuses = smoke_fetch([seed, *(u for u, _ in pages[1:]), *first.values(),
                                f"{server}/robots.txt"], page_type, follow_redirects=False)
        errors = [u for u, s in statuses.items() if s >= 500]
        print(f"server errors: {errors or 'none'}")
        print(f"POST {requests.post(seed, timeout=30).status_code} (read-only)")
        print_link_types(pages, page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
