"""How well a split (cluster, Apath) pair predicts where a link of a URL pattern it never
sampled leads: eq. 5's row of the pair, or the pooled row of the pair's sampled patterns
of the link's outline (`archiver.learning.navigation.NavigationTable`, ``outlines``).

    python benchmarks/pattern_backoff.py MODEL_DIR... [--max-held 2] [--out FILE]

MODEL_DIR: the ``model`` folders of learned crawls, e.g. those the real-site benchmark
keeps (``/tmp/SITE-crawl-*/source-ucc/model``, benchmarks/realsite/bench.py).

Leave one pattern out: for every pattern sampled at most ``--max-held`` times at a split
pair, the table is rebuilt (`NavigationTable.from_arrays`) without that pattern's sampled
links, in the pair's row and in its rows by pattern, and its links are predicted with and
without outlines. Patterns sampled once or twice stand for the ones a harvest meets that
the sample never saw. Reported per model: held-out links, how many an outline row
predicted, the share whose destination was the predicted cluster (accuracy), and the mean
probability given to the true destination (mass).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from archiver.learning.model import SourceModel  # noqa: E402
from archiver.learning.navigation import NavigationTable  # noqa: E402


def held_out(table: NavigationTable, max_held: int) -> dict[str, float]:
    """Leave-one-pattern-out figures of one table (module docstring)."""
    out = {"links": 0.0, "outlined": 0.0, "acc_pair": 0.0, "acc_outline": 0.0,
           "mass_pair": 0.0, "mass_outline": 0.0}
    index = {key: i for i, key in enumerate(table.keys_)}
    for j, (src, x, pattern) in enumerate(table.sub_keys_):
        row = table.sub_counts_[j]
        if not table.is_split(src, x) or row.sum() > max_held:
            continue
        counts = table.counts_.copy()
        counts[index[(src, x)]] -= row
        if counts[index[(src, x)]].sum() <= 0:
            continue
        keep = [i for i in range(len(table.sub_keys_)) if i != j]
        rebuilt = NavigationTable.from_arrays(
            table.keys_, counts, table.sizes_, table.n_clusters_, table.backoff,
            table.patterns_, [table.sub_keys_[i] for i in keep], table.sub_counts_[keep],
            table.distinct_sizes_)
        n = float(row.sum())
        out["links"] += n
        for name, outlines in (("pair", False), ("outline", True)):
            rebuilt.outlines = outlines
            p, level = rebuilt.distribution(src, x, pattern)
            out["acc_" + name] += float(row[int(p.argmax())])
            out["mass_" + name] += float(row @ p)
            if outlines and level.endswith("+outline"):
                out["outlined"] += n
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="+", type=Path)
    ap.add_argument("--max-held", type=int, default=2)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    lines = [f"Leave one pattern out (patterns sampled at most {args.max_held} times at a "
             "split pair); accuracy and mass of the true destination, pair row -> outline",
             f"{'model':48s} {'links':>6s} {'outlined':>8s} {'accuracy':>15s} {'mass':>15s}"]
    total: dict[str, float] = {}
    for folder in args.models:
        r = held_out(SourceModel.load(folder).navigation_, args.max_held)
        for k, v in r.items():
            total[k] = total.get(k, 0.0) + v
        if r["links"]:
            name = folder.parts[-3:-1] if folder.name == "model" else folder.parts[-2:]
            lines.append(_row("/".join(name)[-48:], r))
    lines.append(_row("all", total))
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    return 0


def _row(name: str, r: dict[str, float]) -> str:
    n = max(r.get("links", 0.0), 1.0)
    return (f"{name:48s} {int(r.get('links', 0)):6d} {int(r.get('outlined', 0)):8d} "
            f"{r.get('acc_pair', 0) / n:6.3f} -> {r.get('acc_outline', 0) / n:5.3f} "
            f"{r.get('mass_pair', 0) / n:6.3f} -> {r.get('mass_outline', 0) / n:5.3f}")


if __name__ == "__main__":
    raise SystemExit(main())
