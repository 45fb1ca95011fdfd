"""Page requisites on a real CMS: what `scope.embeds` fetches against GNU wget's
`--page-requisites`, for the same pages.

wget is the independent reference: it finds requisites with its own HTML and CSS parsers
(`src`, `srcset`, `<link>` stylesheets and icons, CSS `url()` and `@import`, ...). Both
crawlers get the same pages as seeds and follow no navigation link (archiver: `max_depth`
0, bfs; wget: `-p` without `-r`), both obey robots.txt and stay on the site's host. Prints,
per crawler, the requisites fetched, and the URLs one fetched and the other did not, with
examples; the site's home page and N of its UCC pages (seeded choice) are the seeds.

    python -m benchmarks.realsite.requisites --site wordpress [--pages 20]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from archiver.evaluation.captures import read_captures
from archiver.evaluation.crawlers import run_archiver, run_wget
from archiver.urls import canonicalize
from benchmarks.realsite.bench import SITES, built


def fetched(warcs: Sequence[Path]) -> set[str]:
    """Canonical URLs of the responses and revisits of `warcs`."""
    return {canonicalize(cap.url)
            for cap in read_captures(warcs, parse=False, keep_payload=False)}


def _kind(url: str) -> str:
    path = urlsplit(url).path
    ext = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    return ext or (path.rstrip("/").rsplit("/", 1)[-1] or "/")


def _describe(name: str, urls: set[str], examples: int = 4) -> list[str]:
    kinds = Counter(_kind(u) for u in urls)
    lines = [f"{name}: {len(urls)} ({', '.join(f'{k} {n}' for k, n in kinds.most_common(8))})"]
    lines += [f"    {u}" for u in sorted(urls)[:examples]]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--site", choices=sorted(SITES), default="wordpress")
    ap.add_argument("--folder", type=Path, default=None)
    ap.add_argument("--size", type=int, default=None)
    ap.add_argument("--pages", type=int, default=20, help="UCC pages besides the home page")
    args = ap.parse_args(argv)
    if (found := built(args.site, args.folder, args.size)) is None:
        return 2
    site, folder = found
    work = Path(tempfile.mkdtemp(prefix=f"{args.site}-requisites-"))
    with site.serve(folder) as seed:
        parts = urlsplit(seed)
        server = f"{parts.scheme}://{parts.netloc}"
        ucc = sorted(site.entities(folder, server))
        pages = [seed, *random.Random(0).sample(ucc, min(args.pages, len(ucc)))]
        wget = fetched(run_wget(pages, work / "wget", 100_000,
                                flags=("--page-requisites",)).warcs)
        run = run_archiver("bfs", pages, work / "archiver", 100_000,
                           scope={"embeds": True, "max_depth": 0})
        ours = fetched(run.warcs)
    seeds = {canonicalize(p) for p in pages}
    robots = {canonicalize(server + "/robots.txt")}
    wget, ours = wget - seeds - robots, ours - seeds - robots
    lines = [f"{args.site}: {len(pages)} pages (home + {len(pages) - 1} UCC pages), "
             f"requisites fetched besides the pages and robots.txt; archiver stop: {run.stop}",
             *_describe("wget --page-requisites", wget), *_describe("archiver embeds", ours),
             *_describe("wget only", wget - ours, 10), *_describe("archiver only", ours - wget, 10)]
    print("\n".join(lines))
    print(f"crawls kept in {work}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
