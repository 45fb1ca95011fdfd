"""The bundled demo: a small phpBB-like forum from the site zoo, served on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from archiver.profile import SiteProfile, profile_from_dict

DEMO_MAX_REQUESTS = 2000


@contextmanager
def serve_demo(seed: int = 0) -> Iterator[Any]:
    """Serve the demo forum on a free loopback port; yields the served site (`.url`)."""
    from archiver.zoo import make_site, serve

    with serve(make_site("forum", variant=0, size="demo", seed=seed)) as served:
        yield served


def demo_profile(base_url: str, out: Path, *, max_requests: int | None = None,
                 strategy: str | None = None) -> SiteProfile:
    """The profile `archiver demo` crawls with (the documented twin: configs/demo.yaml)."""
    host = base_url.split("//", 1)[1].rstrip("/")
    data: dict[str, Any] = {
        "name": "demo",
        "seeds": [base_url.rstrip("/") + "/"],
        "scope": {"hosts": [host], "exclude": [r"/logout"]},
        "limits": {"max_requests": max_requests or DEMO_MAX_REQUESTS},
        "politeness": {"delay": 0, "robots": "obey"},
        "strategy": {"name": strategy or "bfs"},
        "output": {"dir": str(out)},
    }
    return profile_from_dict(data, source="archiver demo")
