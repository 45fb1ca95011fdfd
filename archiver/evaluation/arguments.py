"""Command-line options of the evaluation harness, shared by `benchmarks/evaluate.py` and the
`archiver eval` subcommand so both accept the same flags (no printing here: callers print)."""

from __future__ import annotations

import argparse
from typing import Any

from archiver.evaluation.runner import DEFAULT_BUDGET, DEFAULT_OUT, known_crawlers


def budget_arg(text: str) -> float:
    """Parse --budget: '0.25' is a fraction of each site's URLs, '500' a request count."""
    try:
        value: float = int(text) if text.isdigit() else float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be > 0; got {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the harness's options to `parser`."""
    from archiver.zoo import FAMILIES

    parser.add_argument("--families", nargs="+", default=list(FAMILIES), choices=FAMILIES,
                        metavar="FAMILY",
                        help=f"zoo families (default: all: {' '.join(FAMILIES)})")
    parser.add_argument("--variants", nargs="+", type=int, default=[0, 1], choices=[0, 1],
                        help="template variants (default: 0 1)")
    parser.add_argument("--size", default="small", choices=["demo", "small", "full"],
                        help="zoo site size (default: small)")
    parser.add_argument("--budget", type=budget_arg, default=DEFAULT_BUDGET,
                        help="requests per crawler: a fraction of each site's URLs (0.25) or "
                             f"a count (500); default {DEFAULT_BUDGET}")
    parser.add_argument("--crawlers", nargs="+", default=None, metavar="CRAWLER",
                        help="default: every registered strategy, and wget "
                             f"({' '.join(known_crawlers())})")
    parser.add_argument("--seed", type=int, default=0, help="zoo seed (default: 0)")
    parser.add_argument("--out", default=DEFAULT_OUT,
                        help=f"output path stem for .md/.json/.png (default: {DEFAULT_OUT})")
    parser.add_argument("--keep", metavar="DIR", default=None,
                        help="keep every crawl folder (WARCs, crawl DB) under DIR")


def evaluate_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """Keyword arguments for `archiver.evaluation.evaluate` from parsed options."""
    return {"families": args.families, "variants": args.variants, "size": args.size,
            "budget": args.budget, "crawlers": args.crawlers, "out": args.out,
            "seed": args.seed, "work_dir": args.keep}


def summary_line(site: dict[str, Any]) -> str:
    """One line per evaluated site, for progress output."""
    if "unavailable" in site:
        return f"{site['site']}: skipped ({site['unavailable']})"
    cells = []
    for name, run in site["runs"].items():
        s = run["source"]
        if s["valid_ratio"] is None:
            cells.append(f"{name}: no captures ({run['stop']})")
        else:
            cells.append(f"{name}: VR {s['valid_ratio']:.3f} recall {s['recall']:.3f}")
    return f"{site['site']}: {site['seconds']:.0f}s  " + "; ".join(cells)
