"""What the clustering's section guard (`type_share`, `archiver.learning.clustering.type_merges`)
changes: each sample clustered with the guard off (0) and on (the default), on the samples of
`benchmarks/eps_rule.py` (the Rust docs, the zoo's ten full-size sites, the real MediaWiki;
crawl and literal samples, scored against the true types) and, with ``--models``, on the
samples of saved models (a real-site run's ``source-*/model`` folders).

    python benchmarks/type_guard.py [--out benchmarks/results/type-guard.txt]
    python benchmarks/type_guard.py --models /tmp/machina-crawl-*/source-*/model
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402

from archiver.learning.clustering import TYPE_SHARE, PageClusterer  # noqa: E402
from archiver.learning.urlshape import page_section  # noqa: E402
from benchmarks import learning_bench as lb  # noqa: E402
from benchmarks.widen_guard import sites  # noqa: E402

SHARES = (0.0, TYPE_SHARE)


def samples() -> list[str]:
    """Both shares on every sample of `eps_rule.py`, scored against the true types."""
    out = []
    for name, site, templates in sites():
        for sampler in ("crawl", "literal"):
            d = lb.sample(site, lb.SAMPLERS[sampler]())
            d["templates"] = templates
            rows = []
            for share in SHARES:
                r = lb.cluster_scores(d, type_share=share)
                rows.append(f"  type_share {share:.2f}: eps {r['eps']:.3f} clusters "
                            f"{r['clusters']:2d} outliers {r['outliers']:.3f} purity "
                            f"{r['purity']:.3f} micro-F {r['micro_f']:.3f} macro-F "
                            f"{r['macro_f']:.3f}")
            same = len({row.split(": ", 1)[1] for row in rows}) == 1
            out.append(f"{name}, {sampler} sample ({len(d['urls'])} pages)"
                       f"{'' if same else '  <-- differs'}")
            out += rows
            print("\n".join(out[-len(rows) - 1:]), flush=True)
    return out


def models(folders: list[Path]) -> list[str]:
    """Both shares on the samples of saved models: each cluster's size and sections."""
    out = []
    for folder in folders:
        arrays = np.load(folder / "arrays.npz", allow_pickle=False)
        X = sp.csr_matrix((arrays["x_data"], arrays["x_indices"], arrays["x_indptr"]))
        urls = [json.loads(line)["url"] for line in
                (folder / "pages.jsonl").read_text().splitlines()]
        sections = [page_section(u) for u in urls]
        fits = [PageClusterer(type_share=share).fit(X, sections) for share in SHARES]
        same = np.array_equal(fits[0].labels_, fits[1].labels_)
        out.append(f"{folder} ({len(urls)} pages): eps {fits[0].eps_:.3f} -> "
                   f"{fits[1].eps_:.3f}{'' if same else '  <-- differs'}")
        if not same:
            for share, fit in zip(SHARES, fits, strict=True):
                parts = []
                for k in range(fit.n_clusters_):
                    c = Counter(s for s, lab in zip(sections, fit.labels_, strict=True)
                                if lab == k)
                    parts.append(f"{sum(c.values())}: " + ", ".join(
                        f"{s or '/'} {n}" for s, n in c.most_common(3)))
                out.append(f"  type_share {share:.2f}: {fit.n_clusters_} clusters, "
                           f"{int((fit.labels_ < 0).sum())} outliers | " + "; ".join(parts))
        print("\n".join(out[-1 if same else -3:]), flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", nargs="*", type=Path, default=None,
                    help="saved model folders (arrays.npz + pages.jsonl) instead of the samples")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    lines = models(args.models) if args.models is not None else samples()
    what = "saved samples" if args.models is not None else "samples of benchmarks/eps_rule.py"
    lines.insert(0, f"# type_share 0 vs {TYPE_SHARE} on the {what} ({time.strftime('%Y-%m-%d')}; "
                    "python benchmarks/type_guard.py)")
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
