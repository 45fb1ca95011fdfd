"""Request guards of the admin: the access token, the Host check, and strict response headers.

With a TOKEN configured every request must carry it (`Authorization: Bearer`, the
`X-Archiver-Token` header, `?token=` once — then an HttpOnly cookie — or that cookie).
Without one the admin only answers requests addressed to a loopback host name, so a web page
cannot reach it through DNS rebinding. Every HTML page gets a Content-Security-Policy that
allows only the admin's own inline script, by nonce.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from urllib.parse import urlencode, urlsplit

from flask import Flask, abort, current_app, g, redirect, request
from werkzeug.wrappers import Response

COOKIE = "archiver_admin_token"
CSP = ("default-src 'none'; script-src 'nonce-{nonce}'; style-src 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; "
       "frame-ancestors 'none'")


def is_loopback(host: str) -> bool:
    """True for localhost names and loopback addresses (127.0.0.0/8, ::1)."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _given_token() -> str:
    auth = request.headers.get("Authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return (request.headers.get("X-Archiver-Token") or request.args.get("token")
            or request.cookies.get(COOKIE) or "")


def _check() -> Response | None:
    token: str | None = current_app.config.get("TOKEN") or None
    if not token:
        host = urlsplit("//" + request.host).hostname or ""
        if not is_loopback(host):
            abort(403, f"Host {host!r} is not a loopback name; run the admin with a token "
                       "to serve other hosts.")
        return None
    given = _given_token()
    if not given:
        abort(401, "This admin requires a token: open it with ?token=… or send "
                   "'Authorization: Bearer …'.")
    if not hmac.compare_digest(given.encode("utf-8"), token.encode("utf-8")):
        abort(403, "Wrong token.")
    if request.method == "GET" and "token" in request.args:
        # Move the token from the address bar (history, logs, Referer) into a cookie.
        rest = [(k, v) for k, v in request.args.items(multi=True) if k != "token"]
        response = redirect(request.path + ("?" + urlencode(rest) if rest else ""))
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict",
                            secure=request.is_secure)
        return response
    return None


def _headers(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CSP.format(nonce=csp_nonce())
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers.setdefault("Cache-Control", "no-store")
    if response.status_code == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="archiver admin"'
    return response


def csp_nonce() -> str:
    """This request's script nonce."""
    if "csp_nonce" not in g:
        g.csp_nonce = secrets.token_urlsafe(16)
    return str(g.csp_nonce)


def init_app(app: Flask) -> None:
    """Install the guards on `app`."""
    app.before_request(_check)
    app.after_request(_headers)
    app.jinja_env.globals["csp_nonce"] = csp_nonce
