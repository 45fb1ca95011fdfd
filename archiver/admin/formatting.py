"""Jinja filters and globals shared by the admin and the static crawl report."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from archiver.admin import svg

if TYPE_CHECKING:
    from jinja2 import Environment

_UNITS = ("B", "KB", "MB", "GB", "TB")


def filesize(value: float | None) -> str:
    """Bytes in decimal units: 1.5 MB."""
    if value is None:
        return "–"
    size = float(value)
    for unit in _UNITS:
        if abs(size) < 1000 or unit == _UNITS[-1]:
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{size:.1f} TB"  # pragma: no cover - the loop always returns


def number(value: float | None) -> str:
    """A count with thousands separators (– for None)."""
    if value is None:
        return "–"
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.2f}"


def timestamp(value: float | None) -> str:
    """POSIX seconds as a UTC time: 2023-11-14 22:13:20 UTC."""
    if value is None:
        return "–"
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(value))


def warc_timestamp(value: float) -> str:
    """POSIX seconds as the 14-digit timestamp of a pywb replay URL."""
    return time.strftime("%Y%m%d%H%M%S", time.gmtime(value))


def duration(value: float | None) -> str:
    """Seconds as 1h 02m 03s."""
    if value is None:
        return "–"
    seconds = max(int(value), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m {secs:02d}s"
    return f"{minutes}m {secs:02d}s" if minutes else f"{secs}s"


def status_text(value: int | None) -> str:
    """An HTTP status, or 'no response'."""
    return "no response" if value is None else str(value)


def web_url(value: str | None) -> str | None:
    """`value` if it is an http(s) URL safe to put in an href, else None (no javascript:)."""
    if not value:
        return None
    scheme = urlsplit(value).scheme.lower()
    return value if scheme in ("http", "https") else None


def pairs(rows: Iterable[Mapping[str, Any]], label: str, value: str) -> list[tuple[Any, Any]]:
    """(label, value) tuples from a list of dicts, for `bars_svg`."""
    return [(row[label], row[value]) for row in rows]


def configure(env: Environment) -> None:
    """Install the filters and SVG helpers on a Jinja environment (Flask's or the report's)."""
    env.filters.update(filesize=filesize, number=number, timestamp=timestamp,
                       duration=duration, status_text=status_text)
    env.globals.update(harvest_svg=svg.harvest_chart, sitemap_svg=svg.sitemap_chart,
                       bars_svg=svg.bar_chart, web_url=web_url, pairs=pairs)
