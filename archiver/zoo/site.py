"""The zoo's Site: a deterministic, immutable WSGI app that knows the truth about each URL.

A family module subclasses `Site` and, in `_build`, registers every reachable URL with its
`PageTruth` and a render function. Text is generated at render time from per-entity seeds,
so building is fast and memory small; rendering the same URL always gives the same bytes.
Traps that are unbounded (soft-404 growth, calendars, arbitrary session ids) are resolved
dynamically and listed under `traps` in the manifest.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, replace
from http import HTTPStatus
from typing import Any, ClassVar
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

HTML = "text/html; charset=utf-8"
DIGEST_HOST = "zoo.invalid"
SIZES = {"demo": 1, "small": 2, "full": 24}
VALID_VALUES = ("valid", "duplicate", "invalid")


@dataclass(frozen=True, slots=True)
class PageTruth:
    """What the generator knows about one URL.

    `ucc` is true when the page shows user-created content (also for duplicate views of
    it); `valid` says whether the page is the canonical view ("valid"), another view of a
    canonical page's content ("duplicate", sharing its `entity`; `canonical` names that
    URL), or worthless ("invalid": login walls, edit forms, errors, soft-404, empty
    calendar pages). Entities nest by "/": "topic:7" (a print view of the whole topic)
    covers "topic:7/page:2". `topics` are the true topical vocabularies of the content
    (media items, uploaders, topical lists); `tags` the tags the page shows (media).
    Redirects carry `location` ("{base}" stands for the absolute site root).
    """

    page_type: str
    ucc: bool
    valid: str
    entity: str | None
    status: int
    topics: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    canonical: str | None = None
    location: str | None = None
    disallowed: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (empty optional fields left out)."""
        d = asdict(self)
        d["topics"] = list(self.topics)
        d["tags"] = list(self.tags)
        return {k: v for k, v in d.items() if v not in (None, [], False) or k == "ucc"}


@dataclass(frozen=True, slots=True)
class Ctx:
    """Per-request rendering context: the absolute base ("http://host:port") and the URL."""

    base: str
    url: str


Render = Callable[..., str]


@dataclass(frozen=True, slots=True)
class Route:
    """A registered URL: its truth and how to render it."""

    link: str
    truth: PageTruth
    render: Render | None
    args: tuple[Any, ...] = ()
    ctype: str = HTML
    chunked: bool = False


@dataclass(frozen=True, slots=True)
class Response:
    """An HTTP response as the server sends it (body already encoded)."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    chunked: bool = False

    @property
    def reason(self) -> str:
        """The status line's reason phrase."""
        try:
            return HTTPStatus(self.status).phrase
        except ValueError:
            return "Unknown"


def normalize(target: str) -> str:
    """Order-insensitive key for a path+query (query parameters sorted, re-encoded)."""
    parts = urlsplit(target)
    path = quote(parts.path or "/", safe="/:@!$&'()*+,;=-._~%")
    if not parts.query:
        return path
    pairs = sorted(parse_qsl(parts.query, keep_blank_values=True))
    return path + "?" + urlencode(pairs)


def scale_of(size: str | int) -> int:
    """Scale factor for a size name ("demo" | "small" | "full") or an int."""
    if isinstance(size, int) and not isinstance(size, bool):
        if size < 1:
            raise ValueError(f"zoo size must be >= 1; got {size}")
        return size
    try:
        return SIZES[str(size)]
    except KeyError:
        raise ValueError(f"unknown zoo size {size!r}; use one of {sorted(SIZES)} "
                         "or an int") from None


class Site:
    """A generated site. Subclasses set the class attributes and implement `_build`."""

    family: ClassVar[str] = ""
    target_types: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    # Set per instance by `_configure` (they differ between variants):
    session_param: str | None = None       # e.g. phpBB "sid": any value gives the same page
    soft404_prefix: str | None = None      # unknown URLs under it answer 200
    robots_disallow: tuple[str, ...] = ()

    def __init__(self, variant: int = 0, size: str | int = "small", seed: int = 0) -> None:
        if variant not in (0, 1):
            raise ValueError(f"zoo variant must be 0 or 1; got {variant!r}")
        self.variant = variant
        self.size = size
        self.seed = seed
        self.scale = scale_of(size)
        self.gzip = variant == 1           # variant-1 sites honour Accept-Encoding: gzip
        self._routes: dict[str, Route] = {}
        self._digest: str | None = None
        # Rendered bodies of recent pages: duplicates render as their canonical page, so a
        # site's many duplicate views (and the digest) cost one render each.
        self._memo = functools.lru_cache(maxsize=256)(self._render)
        self._configure()
        self._build()
        self._add("/robots.txt", PageTruth("robots", False, "valid", None, 200),
                  self._render_robots, ctype="text/plain; charset=utf-8")

    # -- building -------------------------------------------------------------------
    def _configure(self) -> None:
        """Set per-variant attributes (session_param, soft404_prefix, robots_disallow)."""

    def _build(self) -> None:
        raise NotImplementedError

    def _add(self, link: str, truth: PageTruth, render: Render | None, *args: Any,
             ctype: str = HTML, chunked: bool = False) -> str:
        """Register `link` (path+query as it appears in hrefs, unescaped); return it."""
        if self._disallowed(link):
            truth = _replace(truth, disallowed=True)
        self._routes.setdefault(normalize(link),
                                Route(link, truth, render, args, ctype, chunked))
        return link

    def _redirect(self, link: str, location: str, *, status: int = 302,
                  valid: str = "invalid", entity: str | None = None,
                  page_type: str = "redirect") -> str:
        """Register a redirect; `location` may be relative, root-relative or absolute."""
        canonical = location if valid == "duplicate" else None
        truth = PageTruth(page_type, False, valid, entity, status, canonical=canonical,
                          location=location)
        return self._add(link, truth, None)

    def _disallowed(self, link: str) -> bool:
        return any(link.startswith(p) for p in self.robots_disallow)

    # -- looking up -----------------------------------------------------------------
    def route(self, target: str) -> Route | None:
        """The registered or dynamically resolved route for a path+query."""
        key = normalize(target)
        found = self._routes.get(key)
        if found is not None:
            return found
        return self._dynamic(target, key)

    def _dynamic(self, target: str, key: str) -> Route | None:
        """Resolve unregistered URLs: session-id variants and the soft-404 corner."""
        parts = urlsplit(target)
        if self.session_param and parts.query:
            pairs = parse_qsl(parts.query, keep_blank_values=True)
            rest = [(k, v) for k, v in pairs if k != self.session_param]
            if len(rest) < len(pairs):
                base = parts.path + ("?" + urlencode(rest) if rest else "")
                orig = self._routes.get(normalize(base))
                if orig is not None and orig.truth.status == 200 and orig.render is not None:
                    return Route(target, self._duplicate_of(orig), orig.render, orig.args,
                                 orig.ctype, orig.chunked)
        prefix = self.soft404_prefix
        if prefix and parts.path.startswith(prefix) and len(parts.path) > len(prefix):
            return Route(target, PageTruth("soft404", False, "invalid", None, 200),
                         self._render_soft404)
        return None

    @staticmethod
    def _duplicate_of(orig: Route) -> PageTruth:
        t = orig.truth
        return _replace(t, valid="duplicate", canonical=t.canonical or orig.link)

    def truth(self, path_and_query: str) -> PageTruth | None:
        """Ground truth for a URL path (+query); None for unknown URLs (served as 404)."""
        found = self.route(path_and_query)
        return found.truth if found is not None else None

    def urls(self) -> Iterator[str]:
        """Every registered URL (path+query, as linked), in registration order."""
        return (r.link for r in self._routes.values())

    def seeds(self) -> list[str]:
        """Seed paths for a crawl."""
        return ["/"]

    # -- serving --------------------------------------------------------------------
    def respond(self, target: str, *, host: str = DIGEST_HOST, accept_gzip: bool = False,
                head: bool = False) -> Response:
        """Render the response for `target` (path+query) as served to `host`."""
        found = self.route(target)
        if found is None:
            ctx = Ctx(f"http://{host}", target)
            return self._finish(404, HTML, self._render_not_found(ctx), (), accept_gzip, head)
        t = found.truth
        ctx = Ctx(f"http://{host}", target)
        headers: list[tuple[str, str]] = []
        if t.location is not None:
            headers.append(("Location", t.location.replace("{base}", ctx.base)))
        if found.render is None:
            body = _redirect_body(t.location or "/")
        else:
            url = target
            if t.valid == "duplicate" and t.canonical:
                canon = self._routes.get(normalize(t.canonical))
                if canon is not None and (canon.render, canon.args) == (found.render, found.args):
                    url = canon.link       # byte-identical to the canonical page
            body = self._memo(found.render, found.args, ctx.base, url)
        return self._finish(t.status, found.ctype, body, headers, accept_gzip, head,
                            found.chunked)

    @staticmethod
    def _render(render: Render, args: tuple[Any, ...], base: str, url: str) -> str:
        return render(Ctx(base, url), *args)

    def _finish(self, status: int, ctype: str, body: str, headers: Iterable[tuple[str, str]],
                accept_gzip: bool, head: bool, chunked: bool = False) -> Response:
        data = body.encode("utf-8")
        out = [("Content-Type", ctype), *headers]
        if self.gzip and ctype != "text/plain; charset=utf-8":
            out.append(("Vary", "Accept-Encoding"))
            if accept_gzip:
                data = gzip.compress(data, compresslevel=5, mtime=0)
                out.append(("Content-Encoding", "gzip"))
        return Response(status, tuple(out), b"" if head else data, chunked)

    def __call__(self, environ: Mapping[str, Any],
                 start_response: Callable[..., Any]) -> list[bytes]:
        """WSGI entry point."""
        path = quote(environ.get("PATH_INFO", "/").encode("latin-1").decode("utf-8", "replace"),
                     safe="/:@!$&'()*+,;=-._~%")
        query = environ.get("QUERY_STRING", "")
        target = path + ("?" + query if query else "")
        host = environ.get("HTTP_HOST") or f"{environ.get('SERVER_NAME', DIGEST_HOST)}"
        resp = self.respond(target, host=host,
                            accept_gzip="gzip" in environ.get("HTTP_ACCEPT_ENCODING", ""),
                            head=environ.get("REQUEST_METHOD") == "HEAD")
        headers = [*resp.headers, ("Content-Length", str(len(resp.body)))]
        start_response(f"{resp.status} {resp.reason}", headers)
        return [resp.body]

    # -- ground truth export -------------------------------------------------------
    def digest(self) -> str:
        """sha256 over every registered URL's status, type, Location and body."""
        if self._digest is None:
            h = hashlib.sha256()
            for key in sorted(self._routes):
                r = self.respond(key)
                h.update(f"{key}\n{r.status}\n".encode())
                for name, value in r.headers:
                    h.update(f"{name}: {value}\n".encode())
                h.update(hashlib.sha256(r.body).digest())
            self._digest = h.hexdigest()
        return self._digest

    def manifest(self, *, with_digest: bool = True) -> dict[str, Any]:
        """JSON-serialisable ground truth: every registered URL plus site-level facts."""
        truths = [r.truth for r in self._routes.values()]
        by_type = Counter(t.page_type for t in truths)
        entities = {t.entity for t in truths if t.entity}
        ucc_entities = {t.entity for t in truths if t.entity and t.ucc and t.valid == "valid"}
        return {
            "format": "archiver.zoo", "format_version": 1,
            "family": self.family, "variant": self.variant, "seed": self.seed,
            "size": self.size, "scale": self.scale,
            "digest": self.digest() if with_digest else None,
            "seeds": self.seeds(),
            "target_types": {k: list(v) for k, v in self.target_types.items()},
            "robots_disallow": list(self.robots_disallow),
            "traps": self.traps(),
            "counts": {
                "urls": len(truths),
                "by_type": dict(sorted(by_type.items())),
                "by_valid": dict(sorted(Counter(t.valid for t in truths).items())),
                "by_status": {str(k): v for k, v in
                              sorted(Counter(t.status for t in truths).items())},
                "ucc_valid": sum(t.ucc and t.valid == "valid" for t in truths),
                "entities": len(entities), "ucc_entities": len(ucc_entities),
            },
            "urls": {r.link: r.truth.to_dict() for r in self._routes.values()},
        }

    def manifest_json(self) -> str:
        """The manifest as a JSON string."""
        return json.dumps(self.manifest(), indent=1, sort_keys=False)

    def traps(self) -> list[dict[str, str]]:
        """Unbounded URL spaces the manifest only samples."""
        out = []
        if self.soft404_prefix:
            out.append({"kind": "soft404", "prefix": self.soft404_prefix,
                        "note": "unknown URLs under the prefix answer 200; relative links grow"})
        if self.session_param:
            out.append({"kind": "session-id", "param": self.session_param,
                        "note": "any value gives a byte-identical duplicate"})
        return out

    # -- renderers every family overrides or inherits ----------------------------
    def _render_robots(self, ctx: Ctx) -> str:
        lines = ["User-agent: *", *(f"Disallow: {p}" for p in self.robots_disallow), ""]
        return "\n".join(lines)

    def _render_not_found(self, ctx: Ctx) -> str:
        return ("<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body>"
                "<h1>Not Found</h1><p>The requested URL was not found on this server.</p>"
                "<hr><address>Apache Server</address></body></html>\n")

    def _render_soft404(self, ctx: Ctx) -> str:
        return ("<!DOCTYPE html>\n<html><head><title>Page not found</title></head><body>"
                "<h1>Sorry, that page could not be found</h1>"
                '<p><a href="a/">Browse</a> | <a href="help/">Help</a></p></body></html>\n')


def _redirect_body(location: str) -> str:
    loc = location.replace("{base}", "").replace("&", "&amp;").replace('"', "&quot;")
    return (f'<!DOCTYPE html>\n<html><head><title>Moved</title></head><body><p>The document '
            f'has moved <a href="{loc}">here</a>.</p></body></html>\n')


def _replace(t: PageTruth, **changes: Any) -> PageTruth:
    return replace(t, **changes)
