"""Compare crawlers on the site zoo with the papers' metrics (DESIGN.md §7).

Each zoo site is served on loopback, mirrored once (archiver BFS, no budget), then crawled by
every crawler under the same request budget; the WARCs are scored against the zoo's ground
truth. Writes <out>.json, <out>.md and <out>.png (harvest curves; needs matplotlib, the
`eval` extra).

    python benchmarks/evaluate.py --families forum blog qa media wiki --variants 0 \\
        --size small --crawlers bfs wget --out benchmarks/results/zoo-bfs-wget
    python benchmarks/evaluate.py --families forum --variants 0 --crawlers bfs wget \\
        --out /tmp/forum                                          # one site, < 1 minute
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from archiver.evaluation import evaluate  # noqa: E402
from archiver.evaluation.arguments import (  # noqa: E402
    add_arguments,
    evaluate_kwargs,
    summary_line,
)
from archiver.evaluation.runner import EvaluationError  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    parser.add_argument("--verbose", "-v", action="store_true", help="log each crawl")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    started = time.monotonic()
    try:
        evaluate(**evaluate_kwargs(args), on_site=lambda site: print(summary_line(site),
                                                                      flush=True))
    except EvaluationError as err:
        print(f"evaluate: error: {err}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}.md, .json, .png in {time.monotonic() - started:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
