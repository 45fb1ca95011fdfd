"""Widening a finished job's profile and running it again, on a real CMS.

One job, two runs: the strategy crawls with the profile's defaults until it stops by
itself, then the same job is run again with a larger `scope.max_depth` (`--wider`) and/or
`strategy.always_follow` patterns (`--always`). The resume queues what the old profile left
out (`archiver.crawl.Crawl._rescope`) and the strategy ranks it; nothing fetched before is
fetched again. Prints, after each run, the requests the job has spent, the site's UCC pages
(posts, articles, topics, ...) archived, the URLs still skipped as too deep, and the fetched
URLs the `--always` patterns match.

    python -m benchmarks.realsite.rescope --site wordpress --size 2000 --folder /tmp/wpbench2k
    python -m benchmarks.realsite.rescope --site flaskbb --wider 0 --always '/users'
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from archiver.crawl import Crawl
from archiver.profile import profile_from_dict
from benchmarks.realsite.bench import SITES, built


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--site", choices=sorted(SITES), default="wordpress")
    ap.add_argument("--folder", type=Path, default=None)
    ap.add_argument("--size", type=int, default=None)
    ap.add_argument("--strategy", default="source-ucc")
    ap.add_argument("--wider", type=int, default=1000,
                    help="max_depth of the second run (0: the default, 30)")
    ap.add_argument("--always", nargs="*", default=[], metavar="REGEX",
                    help="strategy.always_follow of the second run")
    ap.add_argument("--budget", type=int, default=8000)
    args = ap.parse_args(argv)
    if (found := built(args.site, args.folder, args.size)) is None:
        return 2
    site, folder = found
    out = Path(tempfile.mkdtemp(prefix=f"{args.site}-rescope-")) / "job"
    with site.serve(folder) as seed:
        parts = urlsplit(seed)
        server = f"{parts.scheme}://{parts.netloc}"
        wanted = {k for k in (site.entity_of(u) for u in site.entities(folder, server)) if k}
        for depth, always in ((None, []), (args.wider, args.always)):
            profile = profile_from_dict({
                "name": f"rescope-{args.site}", "seeds": [seed],
                "politeness": {"delay": 0, "retries": 0},
                "limits": {"max_requests": args.budget}, "output": {"dir": str(out)},
                "strategy": {"name": args.strategy, "always_follow": always},
                **({"scope": {"max_depth": depth}} if depth else {})}, source="<rescope>")
            stop = Crawl(profile).run().stop_reason
            with sqlite3.connect(out / "crawl.sqlite3") as conn:
                fetched = [u for (u,) in conn.execute(
                    "SELECT u.url FROM fetch f JOIN url u ON u.id = f.url_id"
                    " WHERE f.status BETWEEN 200 AND 299")]
                requests = conn.execute("SELECT COUNT(*) FROM fetch").fetchone()[0]
                deep = conn.execute(
                    "SELECT COUNT(*) FROM url WHERE reason = 'too-deep'").fetchone()[0]
            got = {site.entity_of(u) for u in fetched} & wanted
            named = sum(any(re.search(p, u) for p in args.always) for u in fetched)
            print(f"max_depth {profile.scope.max_depth}, always_follow {always}: stopped "
                  f"{stop}, {requests:,} requests in all, UCC {len(got):,} / {len(wanted):,}, "
                  f"{deep:,} URLs left too deep, {named:,} fetched URLs match --always",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
