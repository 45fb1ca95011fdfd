"""How well a split (cluster, Apath) pair predicts where a link of a URL pattern it never
sampled leads: by eq. 5's row of the pair, with the pooled row of the pair's sampled
patterns of the link's outline (`archiver.learning.navigation.NavigationTable`,
``outlines``), or with the same Apath's row for the pattern on any cluster's pages first
(``pooled_patterns``) as well.

    python benchmarks/pattern_backoff.py MODEL_DIR... [--max-held 2] [--out FILE]

MODEL_DIR: the ``model`` folders of learned crawls, e.g. those the real-site benchmark
keeps (``/tmp/SITE-crawl-*/source-ucc/model``, benchmarks/realsite/bench.py).

Leave one pattern out: for every pattern sampled at most ``--max-held`` times at a split
pair, the table is rebuilt (`NavigationTable.from_arrays`) without that pattern's sampled
links, in the pair's row and in its rows by pattern, and its links are predicted three
ways: eq. 5, outlines, both. Patterns sampled once or twice stand for the ones a harvest meets that
the sample never saw. Reported per model: held-out links, how many a row other than
eq. 5's predicted with both on, the share whose destination was the predicted cluster
(accuracy), and the mean probability given to the true destination (mass).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from archiver.learning.model import SourceModel  # noqa: E402
from archiver.learning.navigation import NavigationTable  # noqa: E402

WAYS = (("pair", False, False), ("outline", True, False), ("both", True, True))


def held_out(table: NavigationTable, max_held: int) -> dict[str, float]:
    """Leave-one-pattern-out figures of one table (module docstring)."""
    out = {"links": 0.0, "outlined": 0.0}
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
        for name, outlines, pooled in WAYS:
            rebuilt.outlines, rebuilt.pooled_patterns = outlines, pooled
            p, level = rebuilt.distribution(src, x, pattern)
            out["acc_" + name] = out.get("acc_" + name, 0.0) + float(row[int(p.argmax())])
            out["mass_" + name] = out.get("mass_" + name, 0.0) + float(row @ p)
            if outlines and pooled and level != "exact":
                out["outlined"] += n
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="+", type=Path)
    ap.add_argument("--max-held", type=int, default=2)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    lines = [f"Leave one pattern out (patterns sampled at most {args.max_held} times at a "
             "split pair); accuracy and mass of the true destination, eq. 5 -> outlines -> both",
             f"{'model':44s} {'links':>6s} {'other':>6s} {'accuracy':>22s} {'mass':>22s}"]
    total: dict[str, float] = {}
    for folder in args.models:
        r = held_out(SourceModel.load(folder).navigation_, args.max_held)
        for k, v in r.items():
            total[k] = total.get(k, 0.0) + v
        if r["links"]:
            name = folder.parts[-3:-1] if folder.name == "model" else folder.parts[-2:]
            lines.append(_row("/".join(name)[-44:], r))
    lines.append(_row("all", total))
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    return 0


def _row(name: str, r: dict[str, float]) -> str:
    n = max(r.get("links", 0.0), 1.0)
    acc = " -> ".join(f"{r.get('acc_' + w[0], 0) / n:.3f}" for w in WAYS)
    mass = " -> ".join(f"{r.get('mass_' + w[0], 0) / n:.3f}" for w in WAYS)
    links, other = int(r.get("links", 0)), int(r.get("outlined", 0))
    return f"{name:44s} {links:6d} {other:6d} {acc:>22s} {mass:>22s}"


if __name__ == "__main__":
    raise SystemExit(main())
