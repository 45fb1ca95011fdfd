"""The read-only web admin over crawl job folders (Flask app factory with blueprints).

It opens each job's database read-only, works while a crawl runs, and never starts, stops or
changes a crawl. Flask is imported inside `create_app` so that `archiver.report` (run at the
end of every crawl) can share this package's queries, charts and templates cheaply.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

# The top-level templates/ folder (next to archiver/): the one place its location is known.
TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"

DEFAULTS: dict[str, Any] = {
    "JOBS_DIR": "crawls",      # folder of job folders (crawls/<job>/crawl.sqlite3)
    "KB_DIR": None,            # knowledge base folder (kb/<cms-family>/<bundle>/manifest.json)
    "TOKEN": None,             # if set, every request must carry it (required off loopback)
    "REPLAY_URL_TEMPLATE": "http://localhost:8080/{collection}/{timestamp}/{url}",
    "WARC_CHECK_INLINE_BYTES": 200_000_000,  # check unchecked WARCs up to this total per view
    "POLL_SECONDS": 5,         # live refresh interval while a crawl runs
}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the admin app; `config` overrides DEFAULTS (JOBS_DIR, KB_DIR, TOKEN, ...)."""
    from flask import Flask

    from archiver.admin import files, formatting, kb, security, views

    app = Flask(__name__, template_folder=str(TEMPLATES_DIR))
    app.config.from_mapping(DEFAULTS)
    app.config.update(config or {})
    app.config["JOBS_DIR"] = Path(app.config["JOBS_DIR"])
    if app.config["KB_DIR"] is not None:
        app.config["KB_DIR"] = Path(app.config["KB_DIR"])
    app.json.sort_keys = False  # type: ignore[attr-defined]
    formatting.configure(app.jinja_env)
    security.init_app(app)
    views.init_app(app)
    app.register_blueprint(views.bp)
    app.register_blueprint(files.bp)
    app.register_blueprint(kb.bp)
    return app
