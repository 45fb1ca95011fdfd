"""Tests for the YAML site profile: defaults, overrides, units, and every kind of user error."""

from __future__ import annotations

import dataclasses
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from archiver import strategies
from archiver.errors import ProfileError
from archiver.profile import (
    Knowledge,
    Limits,
    Output,
    Politeness,
    SiteProfile,
    StrategyConfig,
    TrapRules,
    load_profile,
    profile_from_dict,
)
from archiver.units import parse_duration, parse_size

CONFIGS = Path(__file__).resolve().parent.parent / "configs"
MINIMAL: dict[str, Any] = {"name": "forum", "seeds": ["https://forum.example.org/"]}


def write(tmp_path: Path, text: str, name: str = "forum.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def problems_of(source: str | Path | dict, **overrides: object) -> list[str]:
    """The problems a profile (file path or dict) is rejected with."""
    with pytest.raises(ProfileError) as info:
        if isinstance(source, dict):
            profile_from_dict(source, overrides=overrides or None)
        else:
            load_profile(source, overrides=overrides or None)
    assert str(info.value) == "\n".join(info.value.problems)
    return info.value.problems


def one_problem(source: str | Path | dict, **overrides: object) -> str:
    problems = problems_of(source, **overrides)
    assert len(problems) == 1, problems
    return problems[0]


def with_(section: str, **values: object) -> dict:
    """MINIMAL plus `values` in `section` ('' for the top level)."""
    data = dict(MINIMAL)
    if section:
        data[section] = values
    else:
        data.update(values)
    return data


# --- defaults and the effective profile ---------------------------------------------------

def test_minimal_profile_gets_documented_defaults():
    profile = profile_from_dict(MINIMAL)
    assert profile.name == "forum"
    assert profile.seeds == ("https://forum.example.org/",)
    assert profile.scope.hosts == ("forum.example.org",)
    assert profile.scope.include == profile.scope.exclude == ()
    assert profile.scope.max_depth == 30 and profile.scope.embeds is False
    assert profile.scope.traps == TrapRules()
    assert profile.limits == Limits()
    assert profile.limits.max_bytes == 20 * 10**9 and profile.limits.max_duration == 43200
    assert profile.politeness == Politeness()
    assert profile.strategy == StrategyConfig()
    assert profile.output == Output(dir=Path("crawls/forum"))
    assert profile.knowledge == Knowledge()
    assert profile.source == "<dict>"


def test_profile_is_frozen():
    profile = profile_from_dict(MINIMAL)
    with pytest.raises(dataclasses.FrozenInstanceError):
        profile.name = "other"


@pytest.mark.parametrize(("seed", "host"), [
    ("https://Forum.Example.ORG/", "forum.example.org"),
    ("https://forum.example.org:443/a", "forum.example.org"),
    ("http://forum.example.org:80/", "forum.example.org"),
    ("http://127.0.0.1:8000/", "127.0.0.1:8000"),
    ("http://[::1]:8000/", "[::1]:8000"),
    ("http://bücher.example/", "xn--bcher-kva.example"),
])
def test_default_host_is_lower_case_with_only_a_non_default_port(seed, host):
    assert profile_from_dict({"name": "x", "seeds": [seed]}).scope.hosts == (host,)


def test_default_hosts_are_the_seeds_hosts_with_non_default_ports():
    profile = profile_from_dict({"name": "x", "seeds": [
        "http://127.0.0.1:8000/", "https://Forum.Example.org/a", "https://forum.example.org/b"]})
    assert profile.scope.hosts == ("127.0.0.1:8000", "forum.example.org")


def test_hosts_are_normalized():
    profile = profile_from_dict(with_("scope", hosts=["Forum.Example.org:443", "a.org:8080",
                                                      "*.Example.org", "[::1]:80"]))
    assert profile.scope.hosts == ("forum.example.org", "a.org:8080", "*.example.org", "[::1]")


def test_wildcard_host_covers_subdomains_of_seeds_and_target():
    profile = profile_from_dict({
        "name": "x", "seeds": ["https://forum.example.org/", "https://example.org/"],
        "scope": {"hosts": ["*.example.org"]},
        "strategy": {"target_example": "https://a.b.example.org/t/1"}})
    assert profile.scope.hosts == ("*.example.org",)
    assert "seeds[0] must be on a host in scope.hosts (*.example.org)" in one_problem(
        {"name": "x", "seeds": ["https://example.com/"], "scope": {"hosts": ["*.example.org"]}})


def test_single_strings_are_accepted_for_lists():
    profile = profile_from_dict({"name": "x", "seeds": "https://a.org/",
                                 "scope": {"hosts": "a.org", "exclude": "/logout"}})
    assert profile.seeds == ("https://a.org/",)
    assert profile.scope.exclude == (re.compile("/logout"),)


def test_all_fields_are_read(tmp_path):
    path = write(tmp_path, """\
        name: my-forum
        seeds: [https://forum.example.org/]
        scope:
          hosts: [forum.example.org, cdn.example.org]
          include: ['^https://forum']
          exclude: ['/logout']
          max_depth: 5
          embeds: true
          traps: {max_path_depth: 8, max_repeated_segments: 3, max_url_length: 300,
                  max_query_params: 0, max_query_variants: 50}
        limits: {max_requests: 10, max_bytes: 1.5GiB, max_page_bytes: 800KB, max_duration: 1h30m}
        politeness: {delay: 0, robots: ignore, user_agent: "bot/1", concurrency: 1, retries: 0,
                     timeout: 2.5, connect_timeout: 1}
        strategy: {name: source-ucc, sample_size: 7,
                   target_example: "https://forum.example.org/t/1",
                   params: {low_value: 0.5, rescore_every: 9, worth: true, alpha: null}}
        output: {dir: ~/crawls/x, warc_max_size: 100MB, gzip: false}
        knowledge: {dir: /tmp/kb, family: phpbb}
        """)
    profile = load_profile(path)
    assert profile.source == str(path)
    assert profile.scope.hosts == ("forum.example.org", "cdn.example.org")
    assert profile.scope.include == (re.compile("^https://forum"),)
    assert profile.scope.traps == TrapRules(8, 3, 300, 0, 50)
    assert profile.limits == Limits(10, 3 * 2**29, 800_000, 5400.0)
    assert profile.politeness == Politeness(0.0, "ignore", "bot/1", 1, 0, 2.5, 1.0)
    assert profile.strategy == StrategyConfig(
        "source-ucc", 7, "https://forum.example.org/t/1",
        {"low_value": 0.5, "rescore_every": 9, "worth": True, "alpha": None})
    assert profile.output == Output(Path.home() / "crawls/x", 100 * 10**6, False)
    assert profile.knowledge == Knowledge(Path("/tmp/kb"), "phpbb")


def test_text_is_the_effective_profile_and_round_trips():
    profile = profile_from_dict(with_("limits", max_bytes="1GB", max_duration="2h"))
    effective = yaml.safe_load(profile.text)
    assert effective["limits"]["max_bytes"] == 10**9
    assert effective["limits"]["max_duration"] == 7200
    assert effective["politeness"]["delay"] == 1.0           # defaults are written out
    assert effective["output"]["dir"] == "crawls/forum"
    again = profile_from_dict(effective)
    assert again == profile
    assert again.sha256 == profile.sha256 and again.text == profile.text


def test_sha256_is_stable_and_follows_the_effective_data():
    profile = profile_from_dict(MINIMAL)
    assert re.fullmatch(r"[0-9a-f]{64}", profile.sha256)
    assert profile_from_dict(dict(reversed(list(MINIMAL.items())))).sha256 == profile.sha256
    # the same effective values written differently hash the same ...
    assert profile_from_dict(with_("limits", max_duration="12h")).sha256 == profile.sha256
    # ... and an override changes the hash
    assert profile_from_dict(MINIMAL, overrides={"politeness.delay": 2}).sha256 != profile.sha256


# --- command-line overrides ---------------------------------------------------------------

def test_overrides_apply_before_validation(tmp_path):
    path = write(tmp_path, """\
        name: forum
        seeds: [https://forum.example.org/]
        limits: {max_requests: 500}
        """)
    profile = load_profile(path, overrides={
        "output.dir": "/tmp/x", "limits.max_requests": 10, "politeness.delay": 0,
        "strategy.name": "bfs", "scope.traps.max_url_length": 100})
    assert profile.output.dir == Path("/tmp/x")
    assert profile.limits.max_requests == 10
    assert profile.politeness.delay == 0.0
    assert profile.scope.traps.max_url_length == 100
    assert yaml.safe_load(profile.text)["limits"]["max_requests"] == 10


def test_none_overrides_are_skipped():
    profile = profile_from_dict(MINIMAL, overrides={"output.dir": None, "politeness.delay": None})
    assert profile.output.dir == Path("crawls/forum") and profile.politeness.delay == 1.0


def test_overrides_do_not_change_the_callers_data():
    data = with_("limits", max_requests=5)
    profile_from_dict(data, overrides={"limits.max_requests": 7, "seeds": ["https://a.org/"]})
    assert data == with_("limits", max_requests=5)


def test_seed_override_moves_the_default_hosts():
    demo = load_profile(CONFIGS / "demo.yaml", overrides={"seeds": ["http://127.0.0.1:54321/"]})
    assert demo.scope.hosts == ("127.0.0.1:54321",)


def test_invalid_override_is_named_as_from_the_command_line(tmp_path):
    path = write(tmp_path, "name: forum\nseeds: [https://forum.example.org/]\n")
    message = one_problem(path, **{"limits.max_requests": "ten"})
    assert message == (f"{path}: limits.max_requests (from the command line) must be an "
                       "integer >= 1; got 'ten'")


def test_override_of_unknown_key_is_reported():
    message = one_problem(MINIMAL, **{"limits.max_request": 3})
    assert "limits.max_request (from the command line) is not a known key" in message
    assert "did you mean 'max_requests'?" in message


def test_override_below_a_non_mapping_is_reported():
    assert one_problem(with_("", limits=5), **{"limits.max_requests": 3}) == (
        "<dict>: limits must be a mapping of keys to values; got 5")
    assert one_problem(MINIMAL, **{"name.first": "x"}) == (
        "<dict>: name must be a mapping to apply name.first (from the command line); "
        "got 'forum'")


def test_yaml_boolean_words_as_keys_are_reported(tmp_path):
    path = write(tmp_path, """\
        name: forum
        seeds: [https://forum.example.org/]
        strategy:
          params: {on: 1}
        """)
    assert one_problem(path) == (f"{path}:4: strategy.params must be a mapping of names to "
                                 "strings, numbers, booleans or null; got {True: 1}")


def test_unknown_strategy_from_the_command_line():
    message = one_problem(MINIMAL, **{"strategy.name": "acebot"})
    assert message == ("<dict>: strategy.name (from the command line) must be a registered "
                       f"strategy (known: {', '.join(sorted(strategies.REGISTRY))}); "
                       "got 'acebot'")


# --- sizes and durations ------------------------------------------------------------------

@pytest.mark.parametrize(("text", "size"), [
    (123, 123), ("123", 123), ("20GB", 20 * 10**9), ("500MB", 500 * 10**6),
    ("1.5GiB", 3 * 2**29), ("800KB", 800_000), ("800 kb", 800_000), ("2TiB", 2 * 2**40),
    ("7B", 7), ("1.1GB", 1_100_000_000), (2.0, 2), ("0.5KiB", 512),
])
def test_parse_size(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", [
    "20 parsecs", "GB", "-5MB", "1e9", "5 G", True, None, [1], 1.5, -1, "1,000", float("inf")])
def test_parse_size_rejects(text):
    with pytest.raises(ValueError):
        parse_size(text)


@pytest.mark.parametrize(("text", "seconds"), [
    (90, 90.0), (1.5, 1.5), ("90", 90.0), ("45s", 45.0), ("30m", 1800.0), ("12h", 43200.0),
    ("1d", 86400.0), ("1h30m", 5400.0), ("1h 30m", 5400.0), ("1.5h", 5400.0),
    ("1d2h3m4s", 93784.0),
])
def test_parse_duration(text, seconds):
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", [
    "12 hours", "1h30x", "30m1h", "1h1h", "h", "", False, None, -5, "-5s", float("nan")])
def test_parse_duration_rejects(text):
    with pytest.raises(ValueError):
        parse_duration(text)


@pytest.mark.parametrize(("key", "value"), [
    ("max_bytes", "20 parsecs"), ("max_page_bytes", 0), ("max_bytes", True)])
def test_bad_size_is_reported(key, value):
    message = one_problem(with_("limits", **{key: value}))
    assert f"limits.{key} must be a size > 0" in message and "500MB" in message
    assert message.endswith(f"; got {value!r}")


@pytest.mark.parametrize("value", ["12 hours", 0, "0s", "soon"])
def test_bad_duration_is_reported(value):
    message = one_problem(with_("limits", max_duration=value))
    assert "limits.max_duration must be a duration > 0" in message and "1h30m" in message
    assert message.endswith(f"; got {value!r}")


# --- unreadable and malformed files -------------------------------------------------------

def test_missing_file(tmp_path):
    path = tmp_path / "nope.yaml"
    message = one_problem(path)
    assert message.startswith(f"{path}: cannot read the profile") and "No such file" in message


def test_directory_instead_of_file(tmp_path):
    assert one_problem(tmp_path).startswith(f"{tmp_path}: cannot read the profile")


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: caf\xe9\n".encode("latin-1"))
    message = one_problem(path)
    assert message.startswith(f"{path}: not UTF-8") and "0xe9" in message


def test_utf8_bom_is_accepted(tmp_path):
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbfname: forum\nseeds: [https://forum.example.org/]\n")
    assert load_profile(path).name == "forum"


def test_yaml_syntax_error_gives_line_and_column(tmp_path):
    path = write(tmp_path, """\
        name: forum
        seeds: [https://forum.example.org/
        scope: {}
        """)
    message = one_problem(path)
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: invalid YAML: ", message), message


def test_yaml_indentation_error_line(tmp_path):
    path = write(tmp_path, "name: forum\nseeds:\n  - https://a.org/\n limits: 3\n")
    assert one_problem(path).startswith(f"{path}:4:")


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "---\n", "~\n"])
def test_empty_file(tmp_path, text):
    path = write(tmp_path, text)
    message = one_problem(path)
    assert message.startswith(str(path)) and "empty" in message and "name and seeds" in message


@pytest.mark.parametrize("text", ["- a\n- b\n", "just text\n", "42\n"])
def test_top_level_must_be_a_mapping(tmp_path, text):
    path = write(tmp_path, text)
    message = one_problem(path)
    assert message.startswith(f"{path}:1: the top level must be a mapping")
    assert repr(yaml.safe_load(text)) in message


def test_dict_top_level_must_be_a_mapping():
    with pytest.raises(ProfileError, match="<dict>: the top level must be a mapping"):
        profile_from_dict(["name"])


def test_python_tags_are_refused(tmp_path):
    marker = tmp_path / "pwned"
    path = write(tmp_path, f"""\
        name: forum
        seeds: [https://forum.example.org/]
        output:
          dir: !!python/object/apply:os.system ["touch {marker}"]
        """)
    message = one_problem(path)
    assert message.startswith(f"{path}:4:")
    assert "python/object/apply:os.system" in message and "safe_load" in message
    assert not marker.exists()


def test_python_object_tag_is_refused(tmp_path):
    path = write(tmp_path, "name: !!python/object:pathlib.Path {}\nseeds: []\n")
    assert "python/object:pathlib.Path" in one_problem(path)


def test_duplicate_keys_are_reported(tmp_path):
    path = write(tmp_path, """\
        name: forum
        seeds: [https://forum.example.org/]
        politeness:
          delay: 1
          delay: 2
        """)
    assert one_problem(path) == (f"{path}:5: politeness.delay is given twice (first on line 4);"
                                 " remove one")


def test_anchors_and_merge_keys_work(tmp_path):
    path = write(tmp_path, """\
        name: forum
        seeds: &seeds [https://forum.example.org/]
        x-base: &base {delay: 0, retries: 1}
        politeness: {<<: *base, retries: 5}
        """)
    message = one_problem(path)  # x-base is not a known key, but merge keys are fine
    assert message.startswith(f"{path}:3: x-base is not a known key")
    data = yaml.safe_load(path.read_text())
    del data["x-base"]
    assert profile_from_dict(data).politeness.retries == 5


# --- field errors -------------------------------------------------------------------------

def test_error_message_format_with_line(tmp_path):
    path = write(tmp_path, """\
        name: forum
        seeds:
          - https://forum.example.org/
        scope:
          max_depth: 3
        politeness:
          delay: 2s
        """)
    assert one_problem(path) == f"{path}:7: politeness.delay must be a number >= 0; got '2s'"


@pytest.mark.parametrize(("section", "key", "close"), [
    ("", "seed", "seeds"),
    ("", "polite", "politeness"),
    ("scope", "max_dept", "max_depth"),
    ("limits", "max_request", "max_requests"),
    ("politeness", "user-agent", "user_agent"),
    ("strategy", "sample", "sample_size"),
    ("output", "warc_size", "warc_max_size"),
    ("knowledge", "familly", "family"),
])
def test_unknown_keys_suggest_the_closest(section, key, close):
    path = f"{section}.{key}" if section else key
    messages = problems_of(with_(section, **{key: 1}))
    assert f"<dict>: {path} is not a known key; did you mean {close!r}?" in messages


def test_unknown_key_in_traps_with_line(tmp_path):
    path = write(tmp_path, """\
        name: forum
        seeds: [https://forum.example.org/]
        scope:
          traps:
            max_path_dept: 3
        """)
    assert one_problem(path) == (f"{path}:5: scope.traps.max_path_dept is not a known key; "
                                 "did you mean 'max_path_depth'?")


def test_unknown_key_without_close_match_lists_known_keys():
    message = one_problem(with_("output", colour="red"))
    assert message == "<dict>: output.colour is not a known key; known: dir, warc_max_size, gzip"
    assert one_problem({**MINIMAL, "max_dept": 3}) == (
        "<dict>: max_dept is not a known key; known: name, seeds, scope, limits, politeness, "
        "strategy, output, knowledge")


@pytest.mark.parametrize(("section", "key", "value", "expected"), [
    ("limits", "max_requests", True, "must be an integer >= 1"),
    ("limits", "max_requests", 2.5, "must be an integer >= 1"),
    ("limits", "max_requests", "100", "must be an integer >= 1"),
    ("limits", "max_requests", 0, "must be an integer >= 1"),
    ("scope", "max_depth", -1, "must be an integer >= 0"),
    ("scope", "max_depth", False, "must be an integer >= 0"),
    ("scope", "embeds", "yes", "must be true or false"),
    ("scope", "embeds", 1, "must be true or false"),
    ("politeness", "delay", -0.5, "must be a number >= 0"),
    ("politeness", "delay", True, "must be a number >= 0"),
    ("politeness", "delay", float("inf"), "must be a number >= 0"),
    ("politeness", "delay", None, "must be a number >= 0"),
    ("politeness", "retries", -1, "must be an integer >= 0"),
    ("politeness", "timeout", 0, "must be a number > 0"),
    ("politeness", "connect_timeout", -1, "must be a number > 0"),
    ("politeness", "robots", "respect", "must be one of 'obey', 'ignore'"),
    ("politeness", "robots", False, "must be one of 'obey', 'ignore'"),
    ("politeness", "user_agent", "", "must be a non-empty single-line string"),
    ("politeness", "user_agent", "bot\r\nX-Evil: 1", "must be a non-empty single-line string"),
    ("politeness", "concurrency", 4, "must be 1: only one request at a time is supported"),
    ("strategy", "sample_size", 0, "must be an integer >= 1"),
    ("strategy", "params", [1], "must be a mapping of names to strings, numbers"),
    ("strategy", "params", {"a": [1]}, "must be a mapping of names to strings, numbers"),
    ("strategy", "target_example", "/t/1", "must be an absolute http(s) URL"),
    ("output", "dir", "", "must be a non-empty single-line path"),
    ("output", "dir", 5, "must be a non-empty single-line path"),
    ("output", "gzip", "true", "must be true or false"),
    ("knowledge", "family", "php bb", "must be 'auto' or a CMS family name"),
])
def test_bad_values_are_reported_with_key_value_and_expectation(section, key, value, expected):
    message = one_problem(with_(section, **{key: value}))
    assert message.startswith(f"<dict>: {section}.{key} {expected}")
    assert message.endswith(f"; got {value!r}")


@pytest.mark.parametrize(("section", "key", "value", "expected"), [
    ("scope", "traps", {"max_path_depth": 0}, "scope.traps.max_path_depth must be an integer"),
    ("scope", "traps", {"max_repeated_segments": True}, "scope.traps.max_repeated_segments "
                                                        "must be an integer >= 1; got True"),
    ("scope", "traps", {"max_query_params": -1}, "scope.traps.max_query_params must be an "
                                                 "integer >= 0; got -1"),
    ("scope", "traps", [], "scope.traps must be a mapping"),
])
def test_bad_trap_rules(section, key, value, expected):
    assert expected in one_problem(with_(section, **{key: value}))


@pytest.mark.parametrize("name", ["my forum", "-forum", "", "a/b", 2024, None])
def test_bad_name(name):
    message = one_problem({**MINIMAL, "name": name})
    assert message == (f"<dict>: name must be a job name such as my-forum: letters, digits, "
                       f"'.', '_', '-', starting with a letter or digit; got {name!r}")


def test_sections_must_be_mappings():
    message = one_problem({**MINIMAL, "politeness": ["delay", 1]})
    assert message == ("<dict>: politeness must be a mapping of keys to values; "
                       "got ['delay', 1]")


def test_empty_section_means_defaults(tmp_path):
    path = write(tmp_path, "name: forum\nseeds: [https://forum.example.org/]\nscope:\nlimits:\n")
    profile = load_profile(path)
    assert profile.limits == Limits() and profile.scope.max_depth == 30


def test_bad_regex_gives_the_re_error(tmp_path):
    path = write(tmp_path, """\
        name: forum
        seeds: [https://forum.example.org/]
        scope:
          exclude:
            - '/logout'
            - '(unclosed'
        """)
    assert one_problem(path) == (
        f"{path}:6: scope.exclude[1] must be a valid regular expression (missing ), "
        "unterminated subpattern at position 0); got '(unclosed'")


def test_always_follow_is_a_list_of_regexes_checked_like_the_scope_s():
    profile = profile_from_dict(with_("strategy", always_follow="/talk/"))   # one item
    assert profile.strategy.always_follow == (re.compile("/talk/"),)
    assert profile_from_dict(MINIMAL).strategy.always_follow == ()
    assert one_problem(with_("strategy", always_follow=["/talk/", "[x"])).endswith(
        "strategy.always_follow[1] must be a valid regular expression (unterminated "
        "character set at position 0); got '[x'")


def test_regex_must_be_a_string():
    assert "scope.include[0] must be a regular expression string; got 5" in one_problem(
        with_("scope", include=[5]))


@pytest.mark.parametrize("data", [
    {"name": "forum"},
    {"name": "forum", "seeds": []},
    {"name": "forum", "seeds": None},
    {"name": "forum", "seeds": {"url": "https://a.org/"}},
])
def test_missing_or_empty_seeds(data):
    message = one_problem(data)
    assert message.startswith("<dict>: seeds ")
    assert "absolute http(s) URL" in message


def test_missing_name_and_seeds_both_reported():
    assert problems_of({"scope": {}}) == [
        "<dict>: name is missing; it must be a job name such as my-forum",
        "<dict>: seeds is missing; it must be a list of absolute http(s) URLs to start from"]


@pytest.mark.parametrize("seed", [
    "ftp://forum.example.org/", "forum.example.org", "/relative", "https://", "https:///path",
    "http://exa mple.org/", "http://a.org:99999/", "mailto:x@a.org", 42, None])
def test_non_http_seeds(seed):
    message = one_problem({"name": "forum", "seeds": ["https://forum.example.org/", seed]})
    assert message == ("<dict>: seeds[1] must be an absolute http(s) URL, e.g. "
                       f"https://forum.example.org/; got {seed!r}")


def test_seed_outside_scope_hosts(tmp_path):
    path = write(tmp_path, """\
        name: forum
        seeds:
          - https://forum.example.org/
          - https://other.example.org/
        scope:
          hosts: [forum.example.org]
        """)
    assert one_problem(path) == (f"{path}:4: seeds[1] must be on a host in scope.hosts "
                                 "(forum.example.org); got 'https://other.example.org/'")


def test_seed_with_non_default_port_needs_that_port_in_hosts():
    message = one_problem({"name": "x", "seeds": ["http://a.org:8080/"],
                           "scope": {"hosts": ["a.org"]}})
    assert "seeds[0] must be on a host in scope.hosts (a.org)" in message


@pytest.mark.parametrize("host", ["https://forum.example.org/", "a.org/x", "", "a b.org", 7,
                                  "user@a.org", "a.org:99999", "*", "a.*.org", None])
def test_bad_hosts(host):
    problems = problems_of(with_("scope", hosts=[host]))
    assert problems[0] == ("<dict>: scope.hosts[0] must be a host name such as "
                           "forum.example.org, host:port, or *.example.org (the domain and its "
                           f"subdomains); not a URL; got {host!r}")


def test_empty_hosts():
    assert one_problem(with_("scope", hosts=[])) == (
        "<dict>: scope.hosts must be a list of host names (at least one); got []")


@pytest.mark.parametrize("name", ["acebot", "irobot", "focused", "opic", "BFS", 1])
def test_unregistered_strategies_are_rejected_with_the_known_names(name):
    problems = problems_of(with_("strategy", name=name))
    assert problems[0].startswith(f"<dict>: strategy.name must be a registered strategy "
                                  f"(known: {', '.join(sorted(strategies.REGISTRY))})")
    assert problems[0].endswith(f"got {name!r}")


def test_strategy_typo_gets_a_suggestion():
    assert "did you mean 'bfs'?" in one_problem(with_("strategy", name="bsf"))


def test_strategy_params_are_checked_against_what_the_strategy_reads(tmp_path):
    """A misspelt parameter would be ignored and a quoted boolean read as true: both are
    errors naming the file, the line and the field."""
    path = tmp_path / "p.yaml"
    path.write_text("name: t\nseeds: [http://forum.example.org/]\nstrategy:\n"
                    "  name: source-ucc\n  params:\n    hub_per_pag: true\n"
                    "    worth: 'false'\n    exhaustion: true\n    low_value: 1\n"
                    "    alpha: null\n")
    problems = problems_of(path)
    assert len(problems) == 3, problems
    assert problems[0].startswith(f"{path}:6: strategy.params.hub_per_pag is not a parameter "
                                  "of strategy 'source-ucc' (it takes alias_links, alpha, "
                                  "alternates, balance, ")
    assert problems[0].endswith("did you mean 'hub_per_page'?")
    assert problems[1] == f"{path}:7: strategy.params.worth must be true or false; got 'false'"
    assert problems[2] == f"{path}:8: strategy.params.exhaustion must be an integer; got True"
    assert "it takes none" in one_problem(with_("strategy", name="bfs", params={"x": 1}))
    ok = with_("strategy", name="source-ucc",
               params={"hub_per_page": None, "low_value": 0.1, "exhaustion": 0})
    assert profile_from_dict(ok).strategy.params["low_value"] == 0.1


def test_every_declared_parameter_is_read_by_its_strategy():
    """PARAMS and the code agree: each declared name appears in a params.get call."""
    import inspect
    import re

    from archiver.strategies import source

    read = set(re.findall(r'params\.get\("(\w+)"', inspect.getsource(source)))
    assert read == set(source.SourceStrategy.PARAMS)


@pytest.fixture
def source_target(monkeypatch):
    """Pretend the source-target strategy is registered."""
    monkeypatch.setitem(strategies.REGISTRY, "source-target", strategies.REGISTRY["bfs"])


@pytest.mark.usefixtures("source_target")
def test_source_target_requires_target_example(tmp_path):
    path = write(tmp_path, """\
        name: forum
        seeds: [https://forum.example.org/]
        strategy:
          name: source-target
        """)
    assert one_problem(path) == (
        f"{path}:3: strategy.target_example is required when strategy.name is 'source-target':"
        " the URL of one page of the kind to collect")
    profile = profile_from_dict(with_("strategy", name="source-target",
                                      target_example="https://forum.example.org/t/1"))
    assert profile.strategy.target_example == "https://forum.example.org/t/1"


@pytest.mark.usefixtures("source_target")
def test_source_target_from_the_command_line_requires_target_example():
    assert "strategy.target_example is required" in one_problem(
        MINIMAL, **{"strategy.name": "source-target"})


def test_target_example_must_be_in_scope():
    message = one_problem(with_("strategy", target_example="https://elsewhere.org/t/1"))
    assert message == ("<dict>: strategy.target_example must be on a host in scope.hosts "
                       "(forum.example.org); got 'https://elsewhere.org/t/1'")


def test_multiple_problems_are_all_reported_at_once_in_file_order(tmp_path):
    path = write(tmp_path, """\
        name: my forum
        seeds: [https://forum.example.org/, ftp://x/]
        scope:
          max_dept: 3
          include: ['(']
        limits: {max_bytes: 20 parsecs, max_duration: soon}
        politeness:
          delay: 2s
          robots: maybe
        strategy: {name: acebot}
        output: {gzip: 1}
        """)
    problems = problems_of(path)
    expected = [
        (1, "name must be"), (2, "seeds[1] must be an absolute"),
        (4, "scope.max_dept is not a known key"), (5, "scope.include[0] must be a valid"),
        (6, "limits.max_bytes must be a size"), (6, "limits.max_duration must be a duration"),
        (8, "politeness.delay must be a number"), (9, "politeness.robots must be one of"),
        (10, "strategy.name must be a registered"), (11, "output.gzip must be true or false"),
    ]
    assert len(problems) == len(expected), problems
    for problem, (line, start) in zip(problems, expected, strict=True):
        assert problem.startswith(f"{path}:{line}: {start}"), problem


def test_error_is_a_value_error_chained_to_the_yaml_error(tmp_path):
    path = write(tmp_path, "name: [\n")
    with pytest.raises(ValueError) as info:
        load_profile(path)
    assert isinstance(info.value, ProfileError)
    assert isinstance(info.value.__cause__, yaml.YAMLError)


# --- the bundled profiles -----------------------------------------------------------------

@pytest.mark.parametrize("path", sorted(CONFIGS.glob("*.yaml")), ids=lambda p: p.name)
def test_bundled_configs_validate(path):
    profile = load_profile(path)
    assert isinstance(profile, SiteProfile) and profile.sha256 and profile.text


def test_example_yaml_sets_every_field():
    data = yaml.safe_load((CONFIGS / "example.yaml").read_text(encoding="utf-8"))
    effective = yaml.safe_load(load_profile(CONFIGS / "example.yaml").text)

    def keys(tree: dict, prefix: str = "") -> set[str]:
        out = set()
        for key, value in tree.items():
            out.add(prefix + key)
            if isinstance(value, dict) and key != "params":
                out |= keys(value, f"{prefix}{key}.")
        return out

    assert keys(data) == keys(effective)


def test_demo_yaml():
    demo = load_profile(CONFIGS / "demo.yaml")
    assert demo.name == "demo" and demo.seeds == ("http://127.0.0.1:8000/",)
    assert demo.politeness.delay == 0 and demo.strategy.name == "bfs"
    assert demo.limits.max_requests == 2000
