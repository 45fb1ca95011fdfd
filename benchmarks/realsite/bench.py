"""Crawlers side by side on a real CMS: a MediaWiki (`benchmarks.realsite.mediawiki`), a
WordPress blog (`benchmarks.realsite.wordpress`), a FlaskBB forum
(`benchmarks.realsite.flaskbb`), a DokuWiki (`benchmarks.realsite.dokuwiki`), an Askbot Q&A
site (`benchmarks.realsite.askbot`), a Spirit forum (`benchmarks.realsite.spirit`), a
django-machina forum (`benchmarks.realsite.machina`), a photologue gallery
(`benchmarks.realsite.photologue`), a Trac project (`benchmarks.realsite.trac`), a Puput
blog on Wagtail (`benchmarks.realsite.puput`), a HyperKitty mailing-list archive
(`benchmarks.realsite.hyperkitty`), a pybbm forum (`benchmarks.realsite.pybbm`), a
Ghost blog (`benchmarks.realsite.ghost`), a django-wiki (`benchmarks.realsite.djangowiki`),
a Misago forum (`benchmarks.realsite.misago`), a MoinMoin wiki
(`benchmarks.realsite.moin`), a Mezzanine blog (`benchmarks.realsite.mezzanine`), a
django-qa Q&A site (`benchmarks.realsite.djangoqa`), a GNU MediaGoblin media site
(`benchmarks.realsite.mediagoblin`) or a Roundup issue tracker (`benchmarks.realsite.roundup`).

The zoo's page types are synthetic; these sites are the packages as they ship (Debian's for
the wikis and the blog, PyPI's for the forums, the Q&A site, the gallery, the project
site, the Wagtail blog, the list archive and django-wiki; the npm registry's for Ghost;
PyPI's for Misago, on Debian's PostgreSQL; PyPI's for MoinMoin and MediaGoblin, on Python
2.7, and for Mezzanine, django-qa and Roundup), with
generated content
(articles, talk and user pages, categories and revisions; posts, comments, authors, tags and
static pages; forums, topics with paged posts, users and their profiles; pages in namespaces,
with revisions; questions with tags, answers, comments and votes, users and their profiles;
categories and subcategories, topics with paged comments and likes; photos in galleries,
with their originals and sizes; tickets with comments and a project wiki with versions;
entries by authors in nested categories, with tags; lists with threads of mail, replies
quoting their parent, over two years of month archives; categories and forums with
sub-forums, topics with paged posts and post permalinks, users with their post lists;
posts by authors with tags and a static page; articles in a tree, with revisions, wiki
links and attachments; categories and subcategories, threads with paged posts, users with
their profiles; pages and subpages with revisions, categories, homepages and attachments;
posts by authors in categories, with keywords and threaded comments, and the static pages
of a page tree; questions with tags, answers, comments, votes and accepted answers; images
uploaded by users and processed into their sizes, with tags and comments, and the users'
collections; issues with their messages, files and superseders).
Every crawler gets the same request budget from the site's home page; the truth comes from
the URL alone (`page_type`) and the list of existing UCC pages (`entities`).

Figures per crawler, over its first `budget` requests:
- VR: SOUrCe's valid ratio (§5.3), requests that archived a 2xx page of a UCC type
  (MediaWiki: article, talk, user, user talk, category; WordPress: post, static page;
  FlaskBB: a topic's page, a written profile; DokuWiki: a page; Askbot: a question's page, a
  written profile; Spirit and machina: a topic's page; photologue: a photo's or a gallery's
  page; Trac: a ticket, a wiki page the project wrote; Puput: an entry's page;
  HyperKitty: a thread's page, a message's page; pybbm: a topic's page;
  Ghost: a post's page, a static page; django-wiki: an article's page; Misago: a
  thread's page; MoinMoin: a page, a category page, a user's homepage; Mezzanine: a
  post's page, a page of the page tree; django-qa: a question's page; MediaGoblin: a media
  entry's page, a collection's page; Roundup: an issue's page;
  another URL form of one counts, as the paper's VR
  counts duplicate views) over all requests;
- distinct: requests that archived a UCC page not archived before, over all requests;
- recall: UCC pages archived over all existing ones (redirect titles are not pages);
- requests to 50/80/95% of the UCC pages, and their ratio to the floor (0.95 × pages);
- where the requests went, by page type;
- where the requests to 95% of the UCC went: the learning sample (new UCC pages, the rest),
  then new UCC pages, UCC pages archived again, redirects and errors, other page types.

    python -m benchmarks.realsite.bench [--site mediawiki|wordpress|flaskbb|dokuwiki|askbot|
                                               spirit|machina|photologue|trac|puput|
                                               hyperkitty|pybbm|ghost|djangowiki|misago|
                                               moin|mezzanine|djangoqa|mediagoblin|
                                               roundup]
                                        [--folder DIR] [--budget N] [--crawlers ...]

Needs GNU wget and, for the wikis and the blog, `apt-get install --no-install-recommends
php-cli` plus `mediawiki php-sqlite3`, `dokuwiki` or `wordpress
wordpress-theme-twentytwentyone mariadb-server php-mysql`; for the forum, FlaskBB in a venv
of its own (Python >= 3.12; see `benchmarks.realsite.flaskbb.available`); for the Q&A site,
Askbot in a venv of its own (Python 3.10 to 3.13; see `benchmarks.realsite.askbot.available`);
for the Spirit forum, Spirit in a venv of its own (Python 3.10 to 3.13; see
`benchmarks.realsite.spirit.available`); for the machina forum, django-machina in a venv of
its own (see `benchmarks.realsite.machina.available`); for the gallery, django-photologue in a
venv of its own (see `benchmarks.realsite.photologue.available`); for the Trac project, Trac
in a venv of its own (see `benchmarks.realsite.trac.available`); for the Puput blog, Puput in
a venv of its own (see `benchmarks.realsite.puput.available`); for the list archive,
HyperKitty in a venv of its own (see `benchmarks.realsite.hyperkitty.available`); for the pybbm
forum, pybbm in a Python 3.10 venv of its own (see `benchmarks.realsite.pybbm.available`);
for the Ghost blog, Node.js and Ghost with its node_modules in a folder of their own (see
`benchmarks.realsite.ghost.available`); for the django-wiki, django-wiki in a venv of its own
(see `benchmarks.realsite.djangowiki.available`); for the Misago forum, Misago in a Python
3.12 venv of its own and Debian's `postgresql` (see `benchmarks.realsite.misago.available`);
for the MoinMoin wiki, MoinMoin in a Python 2.7 venv of its own (see
`benchmarks.realsite.moin.available`); for the Mezzanine blog, Mezzanine in a Python 3.11
venv of its own (see `benchmarks.realsite.mezzanine.available`); for the django-qa site,
django-qa on Django 1.11 in a Python 3.9 venv of its own (see
`benchmarks.realsite.djangoqa.available`); for the MediaGoblin site, MediaGoblin 0.9.0 and
its dependencies of 2016 in a Python 2.7 venv of its own (see
`benchmarks.realsite.mediagoblin.available`); for the Roundup tracker, Roundup 2.6.0 in a venv
of its own (see `benchmarks.realsite.roundup.available`).
Each site's `available()` says what is missing. Not part of CI (the package sets are large and
a run takes ~10 minutes).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from archiver.db import connect
from archiver.evaluation.captures import Capture, read_captures
from archiver.evaluation.crawlers import CrawlRun, run_archiver, run_wget, wget_version
from archiver.page import Page, parse_html
from benchmarks.realsite import (
    askbot,
    djangoqa,
    djangowiki,
    dokuwiki,
    flaskbb,
    ghost,
    hyperkitty,
    machina,
    mediagoblin,
    mediawiki,
    mezzanine,
    misago,
    moin,
    photologue,
    puput,
    pybbm,
    roundup,
    spirit,
    trac,
    wordpress,
)

ROOT = Path(__file__).resolve().parents[2]
CRAWLERS = ("wget", "bfs", "source-ucc", "source-target")
SITES: dict[str, Any] = {"mediawiki": mediawiki, "wordpress": wordpress, "flaskbb": flaskbb,
                         "dokuwiki": dokuwiki, "askbot": askbot, "spirit": spirit,
                         "machina": machina, "photologue": photologue, "trac": trac,
                         "puput": puput, "hyperkitty": hyperkitty, "pybbm": pybbm,
                         "ghost": ghost, "djangowiki": djangowiki, "misago": misago,
                         "moin": moin, "mezzanine": mezzanine, "djangoqa": djangoqa,
                         "mediagoblin": mediagoblin, "roundup": roundup}
SIZES = {"mediawiki": 400, "wordpress": 300, "flaskbb": 300, "dokuwiki": 400, "askbot": 300,
         "spirit": 300, "machina": 300, "photologue": 400, "trac": 300, "puput": 300,
         "hyperkitty": 300, "pybbm": 300, "ghost": 300, "djangowiki": 300, "misago": 300,
         "moin": 300, "mezzanine": 300, "djangoqa": 300, "mediagoblin": 300,
         "roundup": 300}
FOLDERS = {"mediawiki": "mwbench", "wordpress": "wpbench", "flaskbb": "fbbench",
           "dokuwiki": "dwbench", "askbot": "abbench", "spirit": "spbench",
           "machina": "mabench", "photologue": "phbench", "trac": "trbench",
           "puput": "pubench", "hyperkitty": "hkbench", "pybbm": "pbbench",
           "ghost": "ghbench", "djangowiki": "djbench", "misago": "mgbench",
           "moin": "mmbench", "mezzanine": "mzbench", "djangoqa": "qabench",
           "mediagoblin": "mgbbench", "roundup": "rdbench"}
TITLES = {"mediawiki": "MediaWiki", "wordpress": "WordPress", "flaskbb": "FlaskBB",
          "dokuwiki": "DokuWiki", "askbot": "Askbot", "spirit": "Spirit",
          "machina": "django-machina", "photologue": "photologue", "trac": "Trac",
          "puput": "Puput", "hyperkitty": "HyperKitty", "pybbm": "pybbm",
          "ghost": "Ghost", "djangowiki": "django-wiki", "misago": "Misago",
          "moin": "MoinMoin", "mezzanine": "Mezzanine", "djangoqa": "django-qa",
          "mediagoblin": "MediaGoblin", "roundup": "Roundup"}


def score(captures: Sequence[Capture], site: Any, pages: set[str], budget: int,
          sample: int = 0) -> dict[str, Any]:
    """The figures of one crawl's first `budget` captures (see the module docstring); `pages`
    are the `entity_of` keys of the site's UCC pages, `sample` the crawl's learning requests
    (`sample_requests`), for `spending`."""
    caps = list(captures)[:budget]
    ucc_views, seen, reached = 0, set(), {}
    types: Counter[str] = Counter()
    for i, cap in enumerate(caps):
        types[site.page_type(cap.url)] += 1
        key = _ucc(cap, site, pages)
        if key is None:
            continue
        ucc_views += 1
        if key not in seen:
            seen.add(key)
            for share in (0.5, 0.8, 0.95):
                if share not in reached and len(seen) >= share * len(pages):
                    reached[share] = i + 1
    n = len(caps)
    return {"requests": n, "vr": ucc_views / n if n else 0.0,
            "distinct": len(seen) / n if n else 0.0, "recall": len(seen) / len(pages),
            "reached": reached, "types": types,
            "spent": spending(caps[:reached.get(0.95, n)], site, pages, sample)}


def _ucc(cap: Capture, site: Any, pages: set[str]) -> str | None:
    """The UCC page a capture archived (its `entity_of` key among `pages`), or None: not a
    2xx answer, or no UCC page of the site."""
    key = site.entity_of(cap.url)
    ok = cap.status is not None and 200 <= cap.status < 300
    return key if ok and key in pages else None


def spending(captures: Sequence[Capture], site: Any, pages: set[str], sample: int = 0
             ) -> Counter[str]:
    """Where `captures` went: the first `sample` (the learning sample) as "sample: new UCC"
    or "sample: other", the rest as "new UCC" (a UCC page not archived before), "UCC again"
    (one archived before, under this URL or another), "not 2xx" (redirects, errors) or the
    page type of anything else."""
    spent: Counter[str] = Counter()
    seen: set[str] = set()
    for i, cap in enumerate(captures):
        key = _ucc(cap, site, pages)
        if i < sample:
            spent["sample: new UCC" if key is not None and key not in seen
                  else "sample: other"] += 1
        elif key is not None:
            spent["new UCC" if key not in seen else "UCC again"] += 1
        elif cap.status is not None and 200 <= cap.status < 300:
            spent[site.page_type(cap.url)] += 1
        else:
            spent["not 2xx"] += 1
        if key is not None:
            seen.add(key)
    return spent


def sample_requests(folder: Path) -> int:
    """How many requests an archiver crawl in `folder` made before its model was fitted (the
    learning sample): the fetches up to the job's `learned_after_fetch`; 0 for wget, bfs,
    or a crawl that fitted no model."""
    db = folder / "crawl.sqlite3"
    if not db.exists():
        return 0
    with closing(connect(db, readonly=True)) as con:
        return int(con.execute("SELECT count(*) FROM fetch WHERE id <= "
                               "(SELECT learned_after_fetch FROM job WHERE id = 1)"
                               ).fetchone()[0])


def _local(url: str) -> str:
    """A URL without its origin, for the report: the path and query (a DokuWiki's pages all
    share the path /doku.php and differ by ?id=)."""
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def sample_site(seed: str, site: Any = mediawiki
                ) -> tuple[str, Callable[[str], tuple[str, Page] | None],
                           Callable[[str], str], list[str]]:
    """The live site as `benchmarks.learning_bench` samples a site: (host, fetch following
    redirects, page type of a URL, seeds)."""
    import requests

    parts = urlsplit(seed)
    host = f"{parts.scheme}://{parts.netloc}/"
    session = requests.Session()

    def fetch(url: str) -> tuple[str, Page] | None:
        if not url.startswith(host):
            return None
        r = session.get(url, timeout=60)
        if r.status_code != 200 or "html" not in r.headers.get("Content-Type", ""):
            return None
        final = r.url.split("#")[0]
        return final, parse_html(final, r.content, None, [r.headers.get("X-Robots-Tag", "")])

    return host, fetch, site.page_type, [seed]


def clustering(seed: str, site: Any) -> list[str]:
    """SOUrCe's clustering quality (§5.2) on samples of the live site, page types from its
    `page_type`: `benchmarks.learning_bench.clustering_section`, as for the zoo."""
    from benchmarks.learning_bench import clustering_section

    return clustering_section(sample_site(seed, site), site.SAME_TEMPLATE or None)[0]


def crawl(name: str, seed: str, folder: Path, budget: int, target: str,
          params: dict[str, Any] | None = None, scope: dict[str, Any] | None = None
          ) -> CrawlRun:
    if name == "wget":
        return run_wget([seed], folder, budget)
    options: dict[str, Any] = {"params": params} if params and name != "bfs" else {}
    if name == "source-target":
        options["target_example"] = target
    return run_archiver(name, [seed], folder, budget, options=options, scope=scope)


def table(rows: list[tuple[str, CrawlRun, dict[str, Any]]], n_pages: int,
          type_order: Sequence[str]) -> list[str]:
    out = ["| crawler | requests | stop | VR | distinct | UCC recall | to 50% | to 80% | to 95% "
           "(÷ floor) | seconds |", "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, run, s in rows:
        reached = s["reached"]
        r95 = reached.get(0.95)
        to95 = f"{r95} ({r95 / (0.95 * n_pages):.2f})" if r95 else "–"
        out.append(f"| {name} | {s['requests']} | {run.stop} | {s['vr']:.3f} | "
                   f"{s['distinct']:.3f} | {s['recall']:.3f} | {reached.get(0.5, '–')} | "
                   f"{reached.get(0.8, '–')} | {to95} | {run.seconds:.0f} |")
    out += ["", "Requests by page type:", "",
            "| crawler | " + " | ".join(type_order) + " |",
            "|---|" + "---:|" * len(type_order)]
    for name, _, s in rows:
        out.append(f"| {name} | " + " | ".join(str(s["types"].get(t, 0)) for t in type_order)
                   + " |")
    out += ["", "Where the requests to 95% of the UCC went (all of them when 95% was not "
            "reached; `spending`):", "",
            "| crawler | sample: new UCC | sample: other | new UCC | UCC again | not 2xx | "
            "other page types |", "|---|---:|---:|---:|---:|---:|---|"]
    named = ("sample: new UCC", "sample: other", "new UCC", "UCC again", "not 2xx")
    for name, _, s in rows:
        spent = s["spent"]
        rest = ", ".join(f"{t} {n}" for t, n in spent.most_common() if t not in named)
        out.append(f"| {name} | " + " | ".join(str(spent.get(t, 0)) for t in named)
                   + f" | {rest or '–'} |")
    return out


def built(name: str, folder: Path | None, size: int | None) -> tuple[Any, Path] | None:
    """The site module `name` and its folder (default: FOLDERS' in the temporary directory),
    built there at `size` (default: SIZES') or reused; None, having said on stderr what is
    missing, when its packages are not installed."""
    site = SITES[name]
    if (missing := site.available()) is not None:
        print(missing, file=sys.stderr)
        return None
    folder = folder or Path(tempfile.gettempdir()) / FOLDERS[name]
    site.build(folder, size or SIZES[name])
    return site, folder


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--site", choices=sorted(SITES), default="mediawiki")
    ap.add_argument("--folder", type=Path, default=None,
                    help="where the site is built (reused when built with the same settings; "
                         "default: /tmp/mwbench, /tmp/wpbench, /tmp/fbbench, "
                         "/tmp/dwbench, /tmp/abbench, /tmp/spbench, /tmp/mabench, /tmp/phbench, "
                         "/tmp/trbench, /tmp/pubench, /tmp/hkbench, /tmp/pbbench, /tmp/ghbench, "
                         "/tmp/djbench, /tmp/mgbench, /tmp/mmbench, /tmp/mzbench, "
                         "/tmp/qabench, /tmp/mgbbench or /tmp/rdbench)")
    ap.add_argument("--size", type=int, default=None,
                    help="articles (default 400), posts (default 300), topics (default "
                         "300), pages (default 400), questions (default 300), topics "
                         "(Spirit, machina: default 300), photos (default 400), tickets (Trac, "
                         "default 300), entries (Puput, default 300), threads (HyperKitty, "
                         "default 300), topics (pybbm, default 300), posts (Ghost, default 300), "
                         "articles (django-wiki, default 300), threads (Misago, default 300), "
                         "pages (MoinMoin, default 300), posts (Mezzanine, default 300), "
                         "questions (django-qa, default 300), media entries (MediaGoblin, "
                         "default 300) or issues (Roundup, default 300) to generate")
    ap.add_argument("--budget", type=int, default=2000)
    ap.add_argument("--crawlers", nargs="*", default=list(CRAWLERS), choices=CRAWLERS,
                    help="none with --clustering: only the clustering figures")
    ap.add_argument("--out", type=Path, default=None,
                    help="default: benchmarks/results/realsite-SITE.md")
    ap.add_argument("--param", action="append", default=[], metavar="KEY=JSON",
                    help="a SOUrCe strategy param for source-ucc/source-target, e.g. "
                         "balance=false (repeatable)")
    ap.add_argument("--sitemaps", action="store_true",
                    help="archiver crawlers read the XML sitemaps robots.txt names "
                         "(scope.sitemaps)")
    ap.add_argument("--clustering", action="store_true",
                    help="also score SOUrCe's clusters of samples of the site (§5.2)")
    args = ap.parse_args(argv)
    params: dict[str, Any] = {}
    for item in args.param:
        key, _, value = item.partition("=")
        try:
            params[key] = json.loads(value)
        except json.JSONDecodeError:
            ap.error(f"--param {item!r}: expected KEY=JSON, e.g. balance=false")
    size = args.size or SIZES[args.site]
    out = args.out or ROOT / f"benchmarks/results/realsite-{args.site}.md"
    if (found := built(args.site, args.folder, size)) is None:
        return 2
    site, folder = found
    work = Path(tempfile.mkdtemp(prefix=f"{args.site}-crawl-"))
    rows = []
    with site.serve(folder) as seed:
        parts = urlsplit(seed)
        server = f"{parts.scheme}://{parts.netloc}"
        urls = sorted(site.entities(folder, server))
        pages = {k for k in (site.entity_of(u) for u in urls) if k}
        kinds = Counter(site.page_type(u) for u in urls)
        examples = sorted(u for u in urls if site.page_type(u) == site.TARGET_TYPE)
        target = examples[len(examples) // 2]
        quality = clustering(seed, site) if args.clustering else []
        for name in args.crawlers:
            started = time.monotonic()
            run = crawl(name, seed, work / name, args.budget, target, params,
                        {"sitemaps": True} if args.sitemaps else None)
            s = score(read_captures(run.warcs, parse=False, keep_payload=False), site, pages,
                      args.budget, sample_requests(run.folder))
            rows.append((name, run, s))
            print(f"{name}: {s['requests']} requests, VR {s['vr']:.3f}, recall "
                  f"{s['recall']:.3f} ({time.monotonic() - started:.0f} s)", file=sys.stderr)
    lines = [f"# Real {TITLES[args.site]} ({time.strftime('%Y-%m-%d')})", "",
             f"{site.DESCRIPTION.format(size=size)}; {len(pages)} UCC pages "
             f"({dict(kinds.most_common())}).",
             *([f"Budget {args.budget} requests from the home page ({_local(seed)}); "
                f"no politeness delay; wget: {wget_version() or 'missing'}; source-target's "
                f"example: a{'n' if site.TARGET_TYPE[0] in 'aeiou' else ''} "
                f"{site.TARGET_TYPE} ({_local(target)})"
                f"{f'; SOUrCe params {params}' if params else ''}"
                f"{'; archiver crawlers read sitemaps (scope.sitemaps)' if args.sitemaps else ''}."]
               if rows else []), "",
             *(table(rows, len(pages), site.TYPE_ORDER) if rows else []), "",
             *(["## Clustering the samples (page types from the URL)", "", "```", *quality,
                "```", ""] if quality else []),
             f"median seconds per crawl: {statistics.median(r.seconds for _, r, _ in rows):.0f}"
             if rows else ""]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"crawls kept in {work}", file=sys.stderr)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
