"""SOUrCe against BFS and wget on the full-size zoo (SOUrCe §5.3–5.4 set-up: a budget of 25%
of the mirror, the sample counted in it), through the evaluation harness.

    python benchmarks/source_zoo.py                       # full size, every family, variant 0
    python benchmarks/source_zoo.py --size small --families forum qa --out /tmp/source-zoo

Writes <out>.json, <out>.md and <out>.png (default benchmarks/results/source-zoo).
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from archiver.evaluation import evaluate  # noqa: E402
from archiver.evaluation.arguments import summary_line  # noqa: E402

CRAWLERS = ["source-ucc", "source-target", "bfs", "wget"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--families", nargs="+", default=None)
    parser.add_argument("--variants", nargs="+", type=int, default=[0])
    parser.add_argument("--size", default="full")
    parser.add_argument("--budget", type=float, default=0.25)
    parser.add_argument("--crawlers", nargs="+", default=CRAWLERS)
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/source-zoo"))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    evaluate(args.families, variants=args.variants, size=args.size, budget=args.budget,
             crawlers=args.crawlers, out=args.out,
             on_site=lambda site: print(summary_line(site), flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
