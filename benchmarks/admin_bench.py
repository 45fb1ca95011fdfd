"""Benchmark: the admin's job page on a 200,000-page crawl database (target: < 1 s).

Not a timed test. Run `python benchmarks/admin_bench.py [--pages N]`; it builds the database
once under a temp folder (tests/jobfactory.fill_synthetic), renders the job page through the
Flask test client, and writes the median of 5 renders (plus the slowest queries) to
benchmarks/results/admin.txt.
"""

from __future__ import annotations

import argparse
import os
import platform
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from archiver import db
from archiver.admin import create_app, queries
from tests.jobfactory import fill_synthetic

RESULTS = Path(__file__).resolve().parent / "results" / "admin.txt"


def build(root: Path, pages: int) -> Path:
    """A job folder `big` holding a synthetic crawl of `pages` pages."""
    job_dir = root / "big"
    (job_dir / "warcs").mkdir(parents=True)
    conn = db.connect(job_dir / "crawl.sqlite3")
    fill_synthetic(conn, pages)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return job_dir


def time_queries(job_dir: Path) -> list[tuple[float, str]]:
    """Seconds per aggregate query (one run each), slowest first."""
    conn = db.connect(job_dir / "crawl.sqlite3", readonly=True)
    probes = {
        "status_codes": lambda c: queries.status_codes(c),
        "mimetypes": lambda c: queries.mimetypes(c),
        "reasons(skipped)": lambda c: queries.reasons(c, "skipped"),
        "page_grid (clusters + harvest)": lambda c: queries.page_grid(c),
        "fetch_cube (hosts + depths + totals)": lambda c: queries.fetch_cube(c),
        "seeds": lambda c: queries.seeds(c),
    }
    out = []
    for name, probe in probes.items():
        start = time.perf_counter()
        probe(conn)
        out.append((time.perf_counter() - start, name))
    conn.close()
    return sorted(out, reverse=True)


def main(argv: list[str] | None = None) -> int:
    """Build, render 5 times, write the results file."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        job_dir = build(Path(tmp), args.pages)
        build_s = time.perf_counter() - start
        size = (job_dir / "crawl.sqlite3").stat().st_size
        app = create_app({"JOBS_DIR": tmp, "TESTING": True})
        client = app.test_client()
        client.get("/jobs/big/")  # warm the OS page cache and compile the templates once
        times, cpu = [], []
        for _ in range(args.runs):  # cold: the job page's report cache emptied every time
            app.extensions.get("archiver.reports", {}).clear()
            start, start_cpu = time.perf_counter(), time.process_time()
            response = client.get("/jobs/big/")
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            assert response.status_code == 200, response.status_code
        start = time.perf_counter()
        assert client.get("/jobs/big/").status_code == 200
        warm_s = time.perf_counter() - start
        start = time.perf_counter()
        assert client.get("/").status_code == 200
        list_s = time.perf_counter() - start
        start = time.perf_counter()
        assert client.get("/jobs/big/url?u=https://h3.big.example/p/199998").status_code == 200
        lookup_s = time.perf_counter() - start
        slow = time_queries(job_dir)
    median = statistics.median(times)
    lines = [
        "admin job page benchmark (benchmarks/admin_bench.py)",
        f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        f"machine: {platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, SQLite {sqlite3.sqlite_version}",
        f"database: {args.pages:,} pages, {size / 1e6:.0f} MB (built in {build_s:.1f} s)",
        f"job page render, cold (no cache): median {median * 1000:.0f} ms of {args.runs} "
        f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}); target < 1000 ms: "
        f"{'PASS' if median < 1.0 else 'FAIL'}; CPU time median "
        f"{statistics.median(cpu) * 1000:.0f} ms",
        f"job page again (cached, the database unchanged): {warm_s * 1000:.0f} ms",
        f"jobs list: {list_s * 1000:.0f} ms; URL lookup: {lookup_s * 1000:.0f} ms",
        f"load average while measuring: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs",
        "queries (one run each, slowest first): "
        + ", ".join(f"{name} {seconds * 1000:.0f} ms" for seconds, name in slow),
    ]
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0 if median < 1.0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
