"""The YAML site profile: what one crawl job fetches, how politely, and where it writes.

`load_profile` reads a file with `yaml.safe_load`, applies command-line overrides, checks every
field, and returns frozen dataclasses. All problems are reported at once in one ProfileError,
one line each: file, line, dotted key path, the bad value, and what is expected.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import hashlib
import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from archiver.errors import ProfileError
from archiver.units import parse_duration, parse_size
from archiver.urls import ScopeRules, host_key

FROM_CLI = " (from the command line)"
_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_HOST_RE = re.compile(r"(?:[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?|\[[0-9a-f:.]+\])(?::\d+)?")


@dataclass(frozen=True, slots=True)
class TrapRules:
    """Limits that stop crawler traps (defaults from Heritrix's decide rules)."""

    max_path_depth: int = 20          # path segments per URL (TooManyPathSegmentsDecideRule)
    max_repeated_segments: int = 2    # times one segment may occur in a row: /a/b/b ok, /a/b/b/b
    #                                   a trap (PathologicalPathDecideRule's maxRepetitions)
    max_url_length: int = 2048        # characters in the whole URL
    max_query_params: int = 10        # parameters in one URL's query
    max_query_variants: int = 10000   # distinct query strings per path (runaway sort orders)


@dataclass(frozen=True, slots=True)
class Scope:
    """Which URLs belong to the job."""

    hosts: tuple[str, ...]            # lower-case "host", "host:port" (non-default port only)
    #                                   or "*.domain"; matched by archiver.urls.ScopeRules
    include: tuple[re.Pattern[str], ...] = ()   # re.search on the URL; if any, one must match
    exclude: tuple[re.Pattern[str], ...] = ()   # re.search on the URL; any match excludes
    max_depth: int = 30               # link hops from a seed
    embeds: bool = False              # also fetch page requisites (img/css/js) in scope
    sitemaps: bool = False            # also follow the XML sitemaps robots.txt names
    traps: TrapRules = TrapRules()


@dataclass(frozen=True, slots=True)
class Limits:
    """When the job stops."""

    max_requests: int = 50000
    max_bytes: int = 20 * 10**9       # response bytes in total
    max_page_bytes: int = 20 * 10**6  # longer responses are truncated (WARC-Truncated: length)
    max_duration: float = 12 * 3600.0  # seconds


@dataclass(frozen=True, slots=True)
class Politeness:
    """How the job treats the site."""

    delay: float = 1.0                # seconds between requests to one host
    robots: str = "obey"              # obey | ignore
    # a robot's token ("bot"): UA-sniffing CMSs then serve the page they give crawlers (a
    # HyperKitty thread's replies are in its HTML only for a robot); robots.txt groups for
    # "archiver" still match it (a group's token matches as a substring)
    user_agent: str = "archiver-bot/0.1 (+https://example.org/archive)"
    concurrency: int = 1              # only 1 is supported for now
    retries: int = 3
    timeout: float = 30.0             # read timeout, seconds
    connect_timeout: float = 10.0


@dataclass(frozen=True, slots=True)
class StrategyConfig:
    """Which strategy decides what to follow, and its settings."""

    name: str = "bfs"                 # a key of archiver.strategies.REGISTRY
    sample_size: int = 1000           # pages fetched in the learning phase
    target_example: str | None = None  # source-target: a URL of the page type to collect
    params: Mapping[str, Any] = field(default_factory=dict)  # strategy-specific scalars
    always_follow: tuple[re.Pattern[str], ...] = ()  # re.search on the URL: followed whatever
    #                                                   the strategy judges (within scope)


@dataclass(frozen=True, slots=True)
class Output:
    """Where the job writes (relative paths are relative to the current directory)."""

    dir: Path                         # default: crawls/<name>
    warc_max_size: int = 10**9
    gzip: bool = True


@dataclass(frozen=True, slots=True)
class Knowledge:
    """Where learned models are kept, per CMS family."""

    dir: Path = Path("knowledge")
    family: str = "auto"


@dataclass(frozen=True, slots=True)
class SiteProfile:
    """A validated site profile."""

    name: str
    seeds: tuple[str, ...]
    scope: Scope
    limits: Limits
    politeness: Politeness
    strategy: StrategyConfig
    output: Output
    knowledge: Knowledge
    source: str = "<dict>"            # the file path, or "<dict>"
    sha256: str = ""                  # of the canonical JSON of the effective profile
    text: str = ""                    # the effective profile as YAML, archived in warcinfo


def load_profile(path: str | Path, overrides: Mapping[str, Any] | None = None) -> SiteProfile:
    """Read, override, and validate the profile at `path`; raise ProfileError on any problem."""
    source = str(path)
    try:
        text = Path(path).read_bytes().decode("utf-8-sig")
    except OSError as err:
        raise ProfileError([f"{source}: cannot read the profile: {err.strerror or err}"]) from err
    except UnicodeDecodeError as err:
        raise ProfileError([f"{source}: not UTF-8 text (byte {err.object[err.start]:#04x} at "
                            f"offset {err.start}); save the file as UTF-8"]) from err
    data, lines, problems = _parse_yaml(text, source)
    return _build(data, source, overrides, lines, problems)


def profile_from_dict(data: Mapping[str, Any], source: str = "<dict>",
                      overrides: Mapping[str, Any] | None = None) -> SiteProfile:
    """Validate profile data already loaded (tests, library use); raise ProfileError."""
    return _build(data, source, overrides, {}, [])


def _parse_yaml(text: str, source: str) -> tuple[Any, dict[str, int], list[tuple[int, str]]]:
    """safe_load `text`; map each key path to its 1-based line; report duplicate keys."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise ProfileError([f"{source}: the file is empty; a profile needs at least name "
                                "and seeds (see configs/example.yaml)"])
        lines: dict[str, int] = {"": node.start_mark.line + 1}
        problems: list[tuple[int, str]] = []
        _map_lines(node, "", lines, set(), (source, problems))  # before construction, which
        return loader.construct_document(node), lines, problems   # flattens merge keys
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else source
        context = f" ({err.context})" if err.context and err.problem else ""
        if isinstance(err, yaml.constructor.ConstructorError):
            raise ProfileError([f"{where}: cannot load this YAML value: {err.problem}; profiles"
                                " are plain YAML (mappings, lists, strings, numbers, booleans,"
                                " null) read with yaml.safe_load"]) from err
        raise ProfileError([f"{where}: invalid YAML: {err.problem or err}{context}"]) from err
    except yaml.YAMLError as err:
        raise ProfileError([f"{source}: invalid YAML: {err}"]) from err
    finally:
        loader.dispose()


def _map_lines(node: yaml.Node, path: str, lines: dict[str, int], seen: set[int],
               dups: tuple[str, list[tuple[int, str]]]) -> None:
    """Record the line of every key and list item under `node` (aliases visited once)."""
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if key.tag == "tag:yaml.org,2002:merge":
                continue
            sub, line = f"{path}.{key.value}" if path else str(key.value), key.start_mark.line + 1
            if sub in lines:  # PyYAML silently keeps the last one: forget the first
                dups[1].append((line, f"{dups[0]}:{line}: {sub} is given twice (first on "
                                       f"line {lines[sub]}); remove one"))
                for old in [k for k in lines if k.startswith((f"{sub}.", f"{sub}["))]:
                    del lines[old]
            lines[sub] = line
            _map_lines(value, sub, lines, seen, dups)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            lines[f"{path}[{i}]"] = item.start_mark.line + 1
            _map_lines(item, f"{path}[{i}]", lines, seen, dups)


class _Invalid(Exception):
    """A value does not fit its field; the message says what is expected."""


Check = Callable[[Any], Any]


def _show(value: Any) -> str:
    """repr of a bad value, cut short."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _when(ok: Callable[[Any], bool], expected: str, convert: Check = lambda v: v) -> Check:
    """A check that accepts `value` if `ok(value)`, converted; else says what is `expected`."""
    def check(value: Any) -> Any:
        if not ok(value):
            raise _Invalid(expected)
        return convert(value)
    return check


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)  # YAML true is not 1


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _integer(minimum: int) -> Check:
    return _when(lambda v: _is_int(v) and v >= minimum, f"must be an integer >= {minimum}")


def _number(minimum: float = 0, above: bool = False) -> Check:
    return _when(lambda v: _is_number(v) and (v > minimum if above else v >= minimum),
                 f"must be a number {'>' if above else '>='} {minimum:g}", float)


def _name(example: str) -> Check:
    return _when(lambda v: isinstance(v, str) and bool(_NAME_RE.fullmatch(v)), f"must be "
                 f"{example}: letters, digits, '.', '_', '-', starting with a letter or digit")


def _converted(parse: Callable[[Any], float], expected: str) -> Check:
    """A check through a units parser, which must give a value > 0."""
    def check(value: Any) -> Any:
        try:
            result = parse(value)
        except ValueError:
            result = 0
        if result <= 0:
            raise _Invalid(expected)
        return result
    return check


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip()) and value.isprintable()


_boolean = _when(lambda v: isinstance(v, bool), "must be true or false")
_text = _when(_is_text, "must be a non-empty single-line string")
_path = _when(_is_text, "must be a non-empty single-line path", lambda v: Path(v).expanduser())
_one = _when(lambda v: v == 1 and _is_int(v), "must be 1: only one request at a time is "
             "supported for now")
_robots = _when(lambda v: v in ("obey", "ignore") and isinstance(v, str),
                "must be one of 'obey', 'ignore'")
_size = _converted(parse_size, "must be a size > 0: bytes, or a number with a unit B, KB, MB, "
                   "GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024), e.g. 500MB")
_duration = _converted(parse_duration, "must be a duration > 0: seconds, or a number with "
                       "units d, h, m, s such as 12h, 30m, 1h30m, 1d")


def _url(value: Any) -> str:
    # host_key is '' for anything but an http(s) URL with a host and a valid port
    if (not isinstance(value, str) or not value.isprintable() or any(c.isspace() for c in value)
            or not _HOST_RE.fullmatch(host_key(value))):
        raise _Invalid("must be an absolute http(s) URL, e.g. https://forum.example.org/")
    return value


def _host(value: Any) -> str:
    expected = ("must be a host name such as forum.example.org, host:port, or *.example.org "
                "(the domain and its subdomains); not a URL")
    if not isinstance(value, str) or any(c in value for c in "/@?# "):
        raise _Invalid(expected)
    wild = "*." if value.startswith("*.") else ""
    key = host_key(f"http://{value.removeprefix(wild)}/").removesuffix(":443")  # as ScopeRules
    if not _HOST_RE.fullmatch(key):                                             # reads entries
        raise _Invalid(expected)
    return wild + key


def _regex(value: Any) -> re.Pattern[str]:
    if not isinstance(value, str):
        raise _Invalid("must be a regular expression string")
    try:
        return re.compile(value)
    except re.error as err:
        raise _Invalid(f"must be a valid regular expression ({err})") from None


def _params(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(
            isinstance(k, str) and (v is None or isinstance(v, str | int | float | bool))
            for k, v in value.items()):
        raise _Invalid("must be a mapping of names to strings, numbers, booleans or null")
    return dict(value)


_TYPE_WORDS = {bool: "true or false", int: "an integer", float: "a number",
               type(None): "null"}


def _check_params(checker: _Checker, name: Any, params: Mapping[str, Any]) -> None:
    """`strategy.params` against the parameters strategy `name` declares (`PARAMS`): a
    misspelt name or a quoted boolean would otherwise be ignored or read as true."""
    from archiver.strategies import REGISTRY

    strategy = REGISTRY.get(name) if isinstance(name, str) else None
    if strategy is None:          # an unknown strategy is reported on its own
        return
    known = strategy.PARAMS
    for key, value in params.items():
        path = f"strategy.params.{key}"
        types = known.get(key)
        if types is None:
            close = difflib.get_close_matches(key, list(known), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            listed = f"it takes {', '.join(sorted(known))}" if known else "it takes none"
            checker.report(path, f"is not a parameter of strategy {name!r} ({listed}){hint}")
        elif not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            words = " or ".join(dict.fromkeys(_TYPE_WORDS.get(t, t.__name__) for t in types))
            checker.bad(path, value, f"must be {words}")


def _strategy(value: Any) -> str:
    from archiver.strategies import REGISTRY  # lazily: strategies import this module's types
    if isinstance(value, str) and value in REGISTRY:
        return value
    known = sorted(REGISTRY)
    close = difflib.get_close_matches(str(value), known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise _Invalid(f"must be a registered strategy (known: {', '.join(known)}){hint}")


def _target(value: Any) -> str | None:
    return None if value is None else _url(value)


@dataclass(frozen=True, slots=True)
class _Each:
    """A list field (a single item is also accepted): every item is checked by `check`."""

    check: Check
    what: str
    empty_ok: bool = True


_SPEC: dict[str, dict[str, Check | _Each]] = {
    "": {"name": _name("a job name such as my-forum"),
         "seeds": _Each(_url, "absolute http(s) URLs", empty_ok=False)},
    "scope": {"hosts": _Each(_host, "host names", empty_ok=False),
              "include": _Each(_regex, "regular expressions"),
              "exclude": _Each(_regex, "regular expressions"), "max_depth": _integer(0),
              "embeds": _boolean, "sitemaps": _boolean},
    "scope.traps": {"max_path_depth": _integer(1), "max_repeated_segments": _integer(1),
                    "max_url_length": _integer(1), "max_query_params": _integer(0),
                    "max_query_variants": _integer(1)},
    "limits": {"max_requests": _integer(1), "max_bytes": _size, "max_page_bytes": _size,
               "max_duration": _duration},
    "politeness": {"delay": _number(), "robots": _robots,
                   "user_agent": _text, "concurrency": _one, "retries": _integer(0),
                   "timeout": _number(0, above=True), "connect_timeout": _number(0, above=True)},
    "strategy": {"name": _strategy, "sample_size": _integer(1), "target_example": _target,
                 "params": _params, "always_follow": _Each(_regex, "regular expressions")},
    "output": {"dir": _path, "warc_max_size": _size, "gzip": _boolean},
    "knowledge": {"dir": _path, "family": _name("'auto' or a CMS family name such as phpbb")},
}
_SECTIONS = {"scope": ["traps"], "": [k for k in _SPEC if k and "." not in k]}  # sub-mappings


class _Checker:
    """Collects problems, each located by file, line (if known) and key path."""

    def __init__(self, source: str, lines: Mapping[str, int]) -> None:
        self.source, self.lines = source, lines
        self.overridden: set[str] = set()
        self.problems: list[tuple[int, str]] = []

    def report(self, path: str, message: str) -> None:
        """Record one problem about the value at `path`."""
        cli = next((k for k in self.overridden
                    if path == k or path.startswith((f"{k}.", f"{k}["))), None)
        probe = path
        while cli is None and probe and probe not in self.lines:  # the nearest known line
            parent = re.sub(r"(\.[^.\[]*|\[\d+\])$", "", probe)
            probe = "" if parent == probe else parent
        line = self.lines[probe] if cli is None and probe else 0
        where = f"{self.source}:{line}" if line else self.source
        self.problems.append((line, f"{where}: {path}{FROM_CLI if cli else ''} {message}"))

    def bad(self, path: str, value: Any, expected: str) -> None:
        """Record that the value at `path` is not what is expected."""
        self.report(path, f"{expected}; got {_show(value)}")

    def section(self, data: Mapping[str, Any], path: str) -> dict[str, Any]:
        """Check the mapping at `path` (its keys, then each known field); return checked values."""
        raw: Any = data
        for part in path.split(".") if path else ():
            raw = raw.get(part) if isinstance(raw, Mapping) else None
        if raw is None:
            return {}
        if not isinstance(raw, Mapping):
            self.bad(path, raw, "must be a mapping of keys to values")
            return {}
        known = list(_SPEC[path]) + _SECTIONS.get(path, [])
        for key in raw:
            if key not in known:
                close = difflib.get_close_matches(str(key), known, n=1)
                hint = f"did you mean {close[0]!r}?" if close else f"known: {', '.join(known)}"
                self.report(f"{path}.{key}" if path else str(key), f"is not a known key; {hint}")
        checked: dict[str, Any] = {}
        for key, check in _SPEC[path].items():
            sub = f"{path}.{key}" if path else key
            if key in raw:
                value = raw[key]
                if isinstance(check, _Each):
                    checked[key] = self._items(sub, value, check)
                else:
                    try:
                        checked[key] = check(value)
                    except _Invalid as err:
                        self.bad(sub, value, str(err))
        return checked

    def _items(self, path: str, value: Any, each: _Each) -> tuple[Any, ...]:
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list | tuple) or not (items or each.empty_ok):
            least = "" if each.empty_ok else " (at least one)"
            self.bad(path, value, f"must be a list of {each.what}{least}")
            return ()
        out = []
        for i, item in enumerate(items):
            try:
                out.append(each.check(item))
            except _Invalid as err:
                self.bad(f"{path}[{i}]", item, str(err))
        return tuple(out)


def _apply(data: dict[str, Any], overrides: Mapping[str, Any], checker: _Checker) -> None:
    """Set each dotted key of `overrides` in `data` (None values are skipped)."""
    for key, value in overrides.items():
        parts = key.split(".")
        if value is None:
            continue
        if not all(parts):
            checker.problems.append((0, f"{checker.source}: {key!r}{FROM_CLI} is not a key path"))
            continue
        target = data
        for depth, part in enumerate(parts[:-1]):
            sub = target.get(part)
            if sub is None or isinstance(sub, Mapping):
                target[part] = sub = dict(sub or {})
            else:
                if (prefix := ".".join(parts[: depth + 1])) not in _SPEC:  # else section() says
                    checker.bad(prefix, sub, f"must be a mapping to apply {key}{FROM_CLI}")
                break
            target = sub
        else:
            target[parts[-1]] = copy.deepcopy(value)
            checker.overridden.add(key)


def _build(data: Any, source: str, overrides: Mapping[str, Any] | None,
           lines: Mapping[str, int], problems: list[tuple[int, str]]) -> SiteProfile:
    """Validate raw profile data into a SiteProfile, or raise one ProfileError with all problems."""
    where = f"{source}:{lines['']}" if "" in lines else source
    if data is None:
        raise ProfileError([f"{where}: the profile is empty; it needs at least name and seeds "
                            "(see configs/example.yaml)"])
    if not isinstance(data, Mapping):
        raise ProfileError([f"{where}: the top level must be a mapping of keys (name, seeds, "
                            f"scope, ...); got {_show(data)}"])
    checker = _Checker(source, lines)
    checker.problems.extend(problems)
    data = {**data}
    _apply(data, overrides or {}, checker)
    top = checker.section(data, "")
    for key, what in (("name", "a job name such as my-forum"),
                      ("seeds", "a list of absolute http(s) URLs to start from")):
        if key not in data:
            checker.report(key, f"is missing; it must be {what}")
    seeds: tuple[str, ...] = top.get("seeds", ())
    scope = checker.section(data, "scope")
    hosts = scope.setdefault("hosts", tuple(dict.fromkeys(host_key(s) for s in seeds)))
    rules = ScopeRules(hosts) if hosts else None  # the crawl's own host matching
    raw = data.get("seeds")
    for i, seed in enumerate(raw if isinstance(raw, list | tuple) else [raw]):
        if isinstance(seed, str) and seed in seeds and rules and not rules.host_in_scope(seed):
            checker.bad(f"seeds[{i}]", seed, f"must be on a host in scope.hosts "
                        f"({', '.join(hosts)})")
    scope["traps"] = TrapRules(**checker.section(data, "scope.traps"))
    strategy = checker.section(data, "strategy")
    _check_params(checker, strategy.get("name"), strategy.get("params") or {})
    target = strategy.get("target_example")
    if target is not None and rules and not rules.host_in_scope(target):
        checker.bad("strategy.target_example", target, f"must be on a host in scope.hosts "
                    f"({', '.join(hosts)})")
    if strategy.get("name") == "source-target" and target is None:
        checker.report("strategy.target_example", "is required when strategy.name is "
                       "'source-target': the URL of one page of the kind to collect")
    output = checker.section(data, "output")
    output.setdefault("dir", Path("crawls") / str(top.get("name", "")))
    profile = SiteProfile(
        name=top.get("name", ""), seeds=seeds, scope=Scope(**scope),
        limits=Limits(**checker.section(data, "limits")),
        politeness=Politeness(**checker.section(data, "politeness")),
        strategy=StrategyConfig(**strategy), output=Output(**output),
        knowledge=Knowledge(**checker.section(data, "knowledge")), source=source)
    if checker.problems:  # in file order; those without a line (missing, CLI) first
        raise ProfileError([text for _, text in sorted(checker.problems, key=lambda p: p[0])])
    effective = json.loads(json.dumps(dataclasses.asdict(profile), default=_plain))
    for key in ("source", "sha256", "text"):
        del effective[key]
    canonical = json.dumps(effective, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return dataclasses.replace(
        profile, sha256=hashlib.sha256(canonical.encode("utf-8")).hexdigest(),
        text=yaml.safe_dump(effective, sort_keys=False, allow_unicode=True))


def _plain(value: Any) -> str:
    """Regexes and paths as the strings a profile gives them in (for json.dumps)."""
    if isinstance(value, re.Pattern):
        return value.pattern
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not profile data")
