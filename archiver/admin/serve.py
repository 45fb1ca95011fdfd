"""Serve the admin: loopback by default; any other address only with an access token."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from archiver.admin.security import is_loopback
from archiver.errors import ArchiverError

logger = logging.getLogger(__name__)

TOKEN_ENV = "ARCHIVER_ADMIN_TOKEN"
MIN_TOKEN_LENGTH = 16


def check_bind(host: str, token: str | None) -> None:
    """Refuse a non-loopback bind without a token (and any too-short token)."""
    if token is not None and len(token) < MIN_TOKEN_LENGTH:
        raise ArchiverError(f"admin token is too short ({len(token)} characters); use at least "
                            f"{MIN_TOKEN_LENGTH}, e.g. python -c 'import secrets; "
                            "print(secrets.token_urlsafe())'")
    if not is_loopback(host) and not token:
        raise ArchiverError(
            f"admin: refusing to serve on {host!r} without a token: anyone who can reach it "
            f"could read your crawls; pass --token TOKEN or set {TOKEN_ENV}, or bind "
            "127.0.0.1 (the default)")


def run_admin(jobs_dir: str | Path, host: str = "127.0.0.1", port: int = 8080,
              token: str | None = None, kb_dir: str | Path | None = None,
              replay_url_template: str | None = None) -> None:
    """Serve the admin over `jobs_dir` until interrupted (blocks).

    `token` defaults to the ARCHIVER_ADMIN_TOKEN environment variable. Raises ArchiverError
    for a non-loopback `host` without a token, before anything listens.
    """
    from werkzeug.serving import make_server

    from archiver.admin import create_app

    token = token or os.environ.get(TOKEN_ENV) or None
    check_bind(host, token)
    config: dict[str, object] = {"JOBS_DIR": Path(jobs_dir), "TOKEN": token}
    if kb_dir is not None:
        config["KB_DIR"] = Path(kb_dir)
    if replay_url_template is not None:
        config["REPLAY_URL_TEMPLATE"] = replay_url_template
    app = create_app(config)
    try:
        server = make_server(host, port, app, threaded=True)
    except OSError as err:
        raise ArchiverError(f"admin: cannot listen on {host}:{port}: {err.strerror}; "
                            "choose another --port") from err
    shown = f"[{host}]" if ":" in host else host
    logger.info("admin serving %s at http://%s:%d/%s", Path(jobs_dir), shown, server.port,
                " (open it with ?token=<your token>)" if token else "")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        logger.info("admin stopped")
    finally:
        server.server_close()
