"""Harvest-curve plot: UCC entities archived versus requests made, one panel per site.

matplotlib is the optional `eval` extra; it is imported here, lazily, with the Agg backend
(no display needed).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

MIRROR_STYLE = {"color": "0.6", "linestyle": "--", "linewidth": 1.0}


def plot_curves(results: Mapping[str, Any], path: str | Path) -> Path:
    """Draw every site's harvest curves (crawlers and mirror) into a PNG at `path`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sites = [s for s in results["sites"] if "unavailable" not in s]
    cols = min(2, max(1, len(sites)))
    rows = max(1, math.ceil(len(sites) / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(6.4 * cols, 4.0 * rows), squeeze=False)
    names = sorted({name for s in sites for name in s["runs"]})
    colors = {name: f"C{i}" for i, name in enumerate(names)}
    for ax, site in zip(axes.flat, sites, strict=False):
        _panel(ax, site, colors)
    for ax in list(axes.flat)[len(sites):]:
        ax.set_visible(False)
    budget = results["settings"]["budget"]
    fig.suptitle(f"Harvest curves: UCC entities archived vs requests "
                 f"(zoo size {results['settings']['size']}, budget {budget})")
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.4 / (4.0 * rows)))
    out = Path(path)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def _panel(ax: Any, site: Mapping[str, Any], colors: Mapping[str, str]) -> None:
    mirror = site["mirror"]
    limit = max(site["run_length"], 1)
    for name, run in site["runs"].items():
        xs, ys = _steps(run["curve"], run["requests"])
        ax.plot(xs, ys, drawstyle="steps-post", label=name, color=colors[name])
    xs, ys = _steps(mirror["curve"], limit)   # on top: dashes show where bfs runs under it
    ax.plot(xs, ys, drawstyle="steps-post", label="mirror (bfs, no budget)", **MIRROR_STYLE)
    ax.axvline(site["budget"], color="0.3", linestyle=":", linewidth=1.0)
    ax.axhline(site["ucc_entities"], color="0.8", linewidth=0.8)
    ax.set_xlim(0, limit)
    ax.set_ylim(0, site["ucc_entities"] * 1.05 + 1)
    ax.set_title(f"{site['site']} ({site['urls']} URLs, {site['ucc_entities']} UCC entities)")
    ax.set_xlabel("requests (dotted: budget B)")
    ax.set_ylabel("UCC entities")
    ax.legend(loc="upper left", fontsize="small")


def _steps(points: list[list[int]], end: int) -> tuple[list[int], list[int]]:
    """Step-plot coordinates from a compact curve, cut at `end` requests."""
    xs, ys = [0], [0]
    for x, y in points:
        if x > end:
            break
        xs.append(x)
        ys.append(y)
    xs.append(end)
    ys.append(ys[-1])
    return xs, ys
