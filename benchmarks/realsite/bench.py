"""Crawlers side by side on a real MediaWiki (`benchmarks.realsite.mediawiki`).

The zoo's page types are synthetic; this wiki's are Debian's MediaWiki 1.39 as it ships,
with generated articles, talk pages, user pages, categories and revisions. Every crawler gets
the same request budget from the Main Page; the truth comes from the URL alone
(`mediawiki.page_type`) and the list of existing pages (`mediawiki.entities`).

Figures per crawler, over its first `budget` requests:
- VR: SOUrCe's valid ratio (§5.3), requests that archived a 2xx page of a UCC type
  (article, talk, user, user talk, category; another URL form of one counts, as the paper's
  VR counts duplicate views) over all requests;
- distinct: requests that archived a UCC page not archived before, over all requests;
- recall: UCC pages archived over all existing ones (redirect titles are not pages);
- requests to 50/80/95% of the UCC pages, and their ratio to the floor (0.95 × pages);
- where the requests went, by page type.

    python -m benchmarks.realsite.bench [--folder DIR] [--budget N] [--crawlers ...]

Needs `apt-get install --no-install-recommends mediawiki php-cli php-sqlite3` and GNU wget;
not part of CI (the package set is large and the runs take ~10 minutes).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from archiver.evaluation.captures import Capture, read_captures
from archiver.evaluation.crawlers import CrawlRun, run_archiver, run_wget, wget_version
from archiver.page import Page, parse_html
from benchmarks.realsite import mediawiki as mw

ROOT = Path(__file__).resolve().parents[2]
CRAWLERS = ("wget", "bfs", "source-ucc", "source-target")
TYPE_ORDER = ("article", "talk", "user", "user_talk", "category", "history", "diff", "edit",
              "info", "special", "redirect", "printable", "file", "other")


def title_of(url: str) -> str | None:
    """The page title a view URL shows (None for anything but a plain view of a page)."""
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    if parts.path.startswith("/index.php/"):
        title = unquote(parts.path[len("/index.php/"):])
    elif parts.path in ("", "/", "/index.php") and "title" in query:
        title = query["title"]
    else:
        return None
    title = " ".join(title.replace("_", " ").split())
    return title[:1].upper() + title[1:] if title else None


def score(captures: Sequence[Capture], pages: set[str], budget: int) -> dict[str, Any]:
    """The figures of one crawl's first `budget` captures (see the module docstring)."""
    caps = list(captures)[:budget]
    ucc_views, seen, reached = 0, set(), {}
    types: Counter[str] = Counter()
    for i, cap in enumerate(caps):
        kind = mw.page_type(cap.url)
        types[kind] += 1
        title = title_of(cap.url) if kind in mw.UCC_TYPES else None
        if title is None or cap.status is None or not 200 <= cap.status < 300 \
                or title not in pages:
            continue
        ucc_views += 1
        if title not in seen:
            seen.add(title)
            for share in (0.5, 0.8, 0.95):
                if share not in reached and len(seen) >= share * len(pages):
                    reached[share] = i + 1
    n = len(caps)
    return {"requests": n, "vr": ucc_views / n if n else 0.0,
            "distinct": len(seen) / n if n else 0.0, "recall": len(seen) / len(pages),
            "reached": reached, "types": types}


def sample_site(seed: str) -> tuple[str, Callable[[str], tuple[str, Page] | None],
                                    Callable[[str], str], list[str]]:
    """The live wiki as `benchmarks.learning_bench` samples a site: (host, fetch following
    redirects, page type of a URL, seeds)."""
    import requests

    host = seed.split("/index.php")[0] + "/"
    session = requests.Session()

    def fetch(url: str) -> tuple[str, Page] | None:
        if not url.startswith(host):
            return None
        r = session.get(url, timeout=60)
        if r.status_code != 200 or "html" not in r.headers.get("Content-Type", ""):
            return None
        final = r.url.split("#")[0]
        return final, parse_html(final, r.content, None, [r.headers.get("X-Robots-Tag", "")])

    return host, fetch, mw.page_type, [seed]


def clustering(seed: str) -> list[str]:
    """SOUrCe's clustering quality (§5.2) on samples of the live wiki, page types from
    `mediawiki.page_type`: `benchmarks.learning_bench.clustering_section`, as for the zoo."""
    from benchmarks.learning_bench import clustering_section

    return clustering_section(sample_site(seed))[0]


def crawl(name: str, seed: str, folder: Path, budget: int, target: str) -> CrawlRun:
    if name == "wget":
        return run_wget([seed], folder, budget)
    options: dict[str, Any] = {}
    if name == "source-target":
        options["target_example"] = target
    return run_archiver(name, [seed], folder, budget, options=options)


def table(rows: list[tuple[str, CrawlRun, dict[str, Any]]], n_pages: int) -> list[str]:
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
            "| crawler | " + " | ".join(TYPE_ORDER) + " |",
            "|---|" + "---:|" * len(TYPE_ORDER)]
    for name, _, s in rows:
        out.append(f"| {name} | " + " | ".join(str(s["types"].get(t, 0)) for t in TYPE_ORDER)
                   + " |")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "mwbench",
                    help="where the wiki is built (reused when built with the same settings)")
    ap.add_argument("--articles", type=int, default=400)
    ap.add_argument("--budget", type=int, default=2000)
    ap.add_argument("--crawlers", nargs="*", default=list(CRAWLERS), choices=CRAWLERS,
                    help="none with --clustering: only the clustering figures")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/realsite-mediawiki.md")
    ap.add_argument("--clustering", action="store_true",
                    help="also score SOUrCe's clusters of samples of the wiki (§5.2)")
    args = ap.parse_args(argv)
    if not mw.CODE.is_dir() or shutil.which("php") is None:
        print("needs Debian's MediaWiki and PHP: apt-get install --no-install-recommends "
              "mediawiki php-cli php-sqlite3", file=sys.stderr)
        return 2
    mw.build(args.folder, args.articles)
    work = Path(tempfile.mkdtemp(prefix="mwcrawl-"))
    rows = []
    with mw.serve(args.folder) as seed:
        server = seed.split("/index.php")[0]
        urls = sorted(mw.entities(args.folder, server))
        pages = {t for t in (title_of(u) for u in urls) if t}
        kinds = Counter(mw.page_type(u) for u in urls)
        articles = sorted(u for u in urls if mw.page_type(u) == "article")
        target = articles[len(articles) // 2]
        quality = clustering(seed) if args.clustering else []
        for name in args.crawlers:
            started = time.monotonic()
            run = crawl(name, seed, work / name, args.budget, target)
            s = score(read_captures(run.warcs, parse=False, keep_payload=False), pages,
                      args.budget)
            rows.append((name, run, s))
            print(f"{name}: {s['requests']} requests, VR {s['vr']:.3f}, recall "
                  f"{s['recall']:.3f} ({time.monotonic() - started:.0f} s)", file=sys.stderr)
    lines = [f"# Real MediaWiki ({time.strftime('%Y-%m-%d')})", "",
             f"Debian MediaWiki 1.39, {args.articles} generated articles "
             f"(`benchmarks/realsite/mediawiki.py`); {len(pages)} UCC pages "
             f"({dict(kinds.most_common())}).",
             *([f"Budget {args.budget} requests from the Main Page; no politeness delay; "
                f"wget: {wget_version() or 'missing'}; source-target's example: an article "
                f"({urlsplit(target).path})."] if rows else []), "",
             *(table(rows, len(pages)) if rows else []), "",
             *(["## Clustering the samples (page types from the URL)", "", "```", *quality,
                "```", ""] if quality else []),
             f"median seconds per crawl: {statistics.median(r.seconds for _, r, _ in rows):.0f}"
             if rows else ""]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
