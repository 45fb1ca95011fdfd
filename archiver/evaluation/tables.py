"""Render evaluation results (the dict `runner.evaluate` returns) as a markdown report:
one table per paper, macro averages per crawler, and how each number was obtained."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

Row = Mapping[str, Any]
Getter = Callable[[Row], Any]

NOTES = """\
- **Same budget.** Every crawler makes the same number of requests on a site; each metric
  reads the prefix of the request sequence (WARC record order) its paper prescribes: the
  budget B for SOUrCe VR/Recall/F/Entropy, iRobot ratios, ACEBot and focused metrics;
  #(All Target) for SOUrCe's harvest rate (§5.4); the whole run for "requests to 95%".
  B is a fraction of the site's registered URLs (SOUrCe §5.3: 5,000 of 20,000).
- **Run lengths.** wget (`wget --mirror --warc-file`, `--tries=1`, robots.txt obeyed) and
  the learned strategies crawling for UCC run until they stop by themselves (at most the
  mirror's cap); their WARCs are cut at the budget when scoring, and the whole run gives
  "requests to 95%" and the total when the crawl ended on its own (stop `strategy-done`).
  BFS runs for the run length; its whole-site figure is the mirror row's. Target runs
  learn first, then harvest. §5.4's budget is #(All Target) = N for a crawl from nothing;
  the S targets the learning phase already archived cannot be archived again, so the
  harvest is given N − S requests: "HR" is the targets it archives in them over N − S
  (with N requests its best possible rate would be (N − S) / N). "incl. learning"
  columns read the job's first N requests, learning included.
- **mirror** is an archiver BFS crawl with no budget (stopped at the cap if the site's
  traps never let it end): the reference for ACEBot's 2-gram and external-link proportions,
  and its row scores the whole mirror, as iRobot Figs. 7-8 score "the mirrored pages".
- Every request counts (redirects, errors, robots.txt). Labels come from the zoo's ground
  truth, checked against the archived status: a capture of a URL the site does not know,
  or whose status class differs from the truth's, is invalid. The first capture of a piece
  of content is valid and later views of it (other URLs, or the same URL again) are
  duplicates (iRobot §6.1: "only one of them is considered as valuable"), so a crawler
  that archives a session-id view first is not charged for it twice.
- **Recall** counts UCC *entities* (pieces of user-created content; a duplicate view covers
  its canonical page's entity) so that three views of one page are not three times the
  recall; **Recall (pages)** is SOUrCe's page count (distinct UCC URLs, duplicates being UCC
  pages too). F uses VR in place of precision (SOUrCe §5.3).
- **Focused harvest ratio** (Zhang & Nasraoui Eq. 7): detail pages tagged with the focus
  topic (the topic most detail pages carry) over all requests; "—" when the site's truth
  gives detail pages no topics.
- Denominators leave out URLs robots.txt forbids; iRobot's valuable pages are canonical
  HTML pages (not robots.txt or style sheets).
"""


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _pct(value: Any) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" if i < 2 else "---:" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _rows(results: Row) -> Iterator[tuple[str, str, Row]]:
    """(site, crawler, scores) for every run, the mirror last on each site."""
    for site in results["sites"]:
        if "unavailable" in site:
            continue
        for name, run in site["runs"].items():
            yield site["site"], name, run
        yield site["site"], "mirror", site["mirror"]


def _hr(kind: str, key: str = "harvest_rate") -> Getter:
    return lambda r: (r["source"]["target"].get(kind) or {}).get(key)


COLUMNS: dict[str, list[tuple[str, Getter, Callable[[Any], str]]]] = {
    "SOUrCe — crawling for UCC (§5.3) and for target (§5.4)": [
        ("requests", lambda r: r["acebot"]["requests"], _fmt),
        ("VR", lambda r: r["source"]["valid_ratio"], _fmt),
        ("Recall", lambda r: r["source"]["recall"], _fmt),
        ("F", lambda r: r["source"]["f"], _fmt),
        ("Recall (pages)", lambda r: r["source"]["recall_pages"], _fmt),
        ("F (pages)", lambda r: r["source"]["f_pages"], _fmt),
        ("Entropy", lambda r: r["source"]["entropy"], _fmt),
    ],
    "iRobot — effectiveness (§6.2, Eq. 5) and efficiency (§6.3)": [
        ("R_inv", lambda r: r["irobot"]["invalid_ratio"], _pct),
        ("R_dup", lambda r: r["irobot"]["duplicate_ratio"], _pct),
        ("R_cov", lambda r: r["irobot"]["coverage"], _pct),
        ("requests to 95% UCC", lambda r: r["irobot"]["requests_to_95"], _fmt),
        ("… per entity", lambda r: r["irobot"]["requests_to_95_per_entity"], _fmt),
    ],
    "ACEBot — requests and content coverage vs the full mirror (§4.1–4.3)": [
        ("requests", lambda r: r["acebot"]["requests"], _fmt),
        ("vs mirror", lambda r: r["acebot"]["requests_vs_mirror"], _fmt),
        ("2-grams", lambda r: r["acebot"]["bigrams"], _pct),
        ("external links", lambda r: r["acebot"]["external_links"], _pct),
    ],
    "Profile-based focused crawling — harvest ratio (§8.3, Eq. 7)": [
        ("topic", lambda r: r["focused"]["topic"], _fmt),
        ("harvest ratio", lambda r: r["focused"]["harvest_ratio"], _fmt),
    ],
}

AVERAGED = [
    ("VR", lambda r: r["source"]["valid_ratio"], _fmt),
    ("Recall", lambda r: r["source"]["recall"], _fmt),
    ("F", lambda r: r["source"]["f"], _fmt),
    ("Entropy", lambda r: r["source"]["entropy"], _fmt),
    ("R_inv", lambda r: r["irobot"]["invalid_ratio"], _pct),
    ("R_dup", lambda r: r["irobot"]["duplicate_ratio"], _pct),
    ("R_cov", lambda r: r["irobot"]["coverage"], _pct),
    ("2-grams", lambda r: r["acebot"]["bigrams"], _pct),
    ("ext. links", lambda r: r["acebot"]["external_links"], _pct),
    ("focused HR", lambda r: r["focused"]["harvest_ratio"], _fmt),
]


def _target_columns(results: Row) -> list[tuple[str, Getter, Callable[[Any], str]]]:
    """One harvest-rate column per target kind of any site (detail and profile first), and,
    when a run learned apart first, the rate with its learning requests counted in."""
    kinds = {kind for site in results["sites"] for kind in site.get("targets", {})}
    order = sorted(kinds, key=lambda k: (k not in ("detail", "profile"), k))
    learned = any(run.get("learning_requests") for _, _, run in _rows(results))
    return [col for kind in order for col in (
        [(f"HR {kind}", _hr(kind), _fmt)]
        + ([(f"HR {kind} incl. learning", _hr(kind, "harvest_rate_with_learning"), _fmt)]
           if learned else []))]


def _columns(results: Row) -> dict[str, list[tuple[str, Getter, Callable[[Any], str]]]]:
    cols = dict(COLUMNS)
    source = next(iter(cols))
    cols[source] = [*COLUMNS[source], *_target_columns(results)]
    return cols


def _averaged(results: Row) -> list[tuple[str, Getter, Callable[[Any], str]]]:
    return [*AVERAGED[:3], *_target_columns(results), *AVERAGED[3:]]


def averages(results: Row) -> dict[str, dict[str, float | None]]:
    """Macro averages over sites per crawler (the papers' "Average" rows); a metric's mean
    is over the sites where it is defined."""
    by_crawler: dict[str, list[Row]] = {}
    for _, crawler, run in _rows(results):
        by_crawler.setdefault(crawler, []).append(run)
    out: dict[str, dict[str, float | None]] = {}
    for crawler, runs in by_crawler.items():
        out[crawler] = {}
        for title, get, _ in _averaged(results):
            values = [v for v in (get(r) for r in runs) if v is not None]
            out[crawler][title] = sum(values) / len(values) if values else None
    return out


def markdown(results: Row) -> str:
    """The whole report."""
    s = results["settings"]
    budget = s["budget"]
    budget_text = (f"{budget} requests" if isinstance(budget, int)
                   else f"{100 * budget:g}% of each site's URLs")
    crawlers = ", ".join(s["crawlers"])
    families = " ".join(s["families"])
    variants = " ".join(str(v) for v in s["variants"])
    parts = [
        f"# Zoo evaluation: {crawlers}\n",
        f"Zoo size **{s['size']}**, budget **{budget_text}**, seed {s['seed']}; "
        f"archiver {results['archiver_version']}"
        + (f", {s['wget'].rstrip('.')}" if s.get("wget") else "") + ".\n",
        "Reproduce with\n\n```\npython benchmarks/evaluate.py --families "
        f"{families} --variants {variants} --size {s['size']} --budget {budget} "
        f"--crawlers {' '.join(s['crawlers'])} --out <path>\n```\n",
        "## Sites\n",
        _table(["site", "URLs", "UCC entities", "UCC pages", "valuable", "targets", "B",
                "run length", "mirror requests", "mirror stop", "seconds"],
               [_site_row(site) for site in results["sites"]]),
    ]
    for title, columns in _columns(results).items():
        parts.append(f"## {title}\n")
        parts.append(_table(["site", "crawler", *(c[0] for c in columns)],
                            [[site, crawler, *(fmt(get(run)) for _, get, fmt in columns)]
                             for site, crawler, run in _rows(results)]))
    avg = averages(results)
    parts.append("## Averages over sites\n")
    averaged = _averaged(results)
    parts.append(_table(["crawler", "sites", *(c[0] for c in averaged)],
                        [[crawler, str(sum(1 for _, c, _ in _rows(results) if c == crawler)),
                          *(fmt(avg[crawler][title]) for title, _, fmt in averaged)]
                         for crawler in avg]))
    parts.append("## Runs\n")
    parts.append(_table(["site", "crawler", "limit", "requests", "stop", "seconds"],
                        [[site, crawler, _fmt(run.get("limit")), _fmt(run["requests"]),
                          _stop(run["stop"]), _fmt(run["seconds"], 1)]
                         for site, crawler, run in _rows(results)]))
    parts.append("## How the numbers are obtained\n")
    parts.append(NOTES)
    return "\n".join(parts)


def _site_row(site: Row) -> list[str]:
    if "unavailable" in site:
        return [site["site"], *(["—"] * 8), "not built: " + site["unavailable"], "—"]
    targets = " / ".join(f"{k} {v}" for k, v in site["targets"].items())
    mirror = site["mirror"]
    return [site["site"], str(site["urls"]), str(site["ucc_entities"]), str(site["ucc_urls"]),
            str(site["valuable"]), targets, str(site["budget"]), str(site["run_length"]),
            str(mirror["requests"]), _stop(mirror["stop"]), _fmt(site["seconds"], 1)]


def _stop(stop: str) -> str:
    """A crash's exception type, not its message (the JSON keeps the message)."""
    return ":".join(stop.split(":")[:2]) if stop.startswith("crashed:") else stop
