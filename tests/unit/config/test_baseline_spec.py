"""`--expected-failures SPEC` and the per-leg baseline cascade (registry, environment, flags)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tiercheck.config.baseline_spec import BaselineSpec, parse_baseline_spec, pick_baseline
from tiercheck.config.registry import SdkEntry, load_registry
from tiercheck.config.resolve import ConfigFlags, resolve
from tiercheck.errors import ConfigError

OLD, NEW = "2025-11-25", "2026-07-28"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("baseline.yml", BaselineSpec("baseline.yml")),
        ("server=s.yml", BaselineSpec("s.yml", "server")),
        ("client=conf/c.yml", BaselineSpec("conf/c.yml", "client")),
        (f"@{NEW}=draft.yml", BaselineSpec("draft.yml", None, NEW)),
        (f"client@{NEW}=c-draft.yml", BaselineSpec("c-draft.yml", "client", NEW)),
        # A file whose name holds `=` is named with a folder.
        ("./a=b.yml", BaselineSpec("./a=b.yml")),
        ("/abs/x=y.yml", BaselineSpec("/abs/x=y.yml")),
    ],
)
def test_a_spec_names_a_file_and_optionally_a_leg_and_a_revision(
    text: str, expected: BaselineSpec
) -> None:
    spec = parse_baseline_spec(text)
    assert spec == expected
    assert spec.text == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty; give FILE, LEG=FILE, @REV=FILE or LEG@REV=FILE (LEG: server or client)"),
        ("sever=s.yml", "'sever=s.yml': unknown leg 'sever'; give FILE, LEG=FILE"),
        ("client@=c.yml", "'client@=c.yml': no revision after '@'"),
        ("server=", "'server=': no file after '='"),
        ("@2099-01-01=x.yml", "'@2099-01-01=x.yml': '2099-01-01' is not a known spec revision"),
    ],
)
def test_a_bad_spec_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        parse_baseline_spec(text)


def test_the_most_specific_spec_wins_and_of_equals_the_later() -> None:
    specs = [
        parse_baseline_spec(t)
        for t in ("all.yml", "client=c.yml", f"@{NEW}=new.yml", f"server@{NEW}=s-new.yml")
    ]

    def picked(leg: str, revision: str) -> str | None:
        found = pick_baseline(specs, leg, revision)
        return None if found is None else found.file

    assert picked("server", OLD) == "all.yml"
    assert picked("client", OLD) == "c.yml"
    # A revision outranks a leg, as spec_overrides outranks the entry's top level.
    assert picked("client", NEW) == "new.yml"
    assert picked("server", NEW) == "s-new.yml"
    later = [parse_baseline_spec("a.yml"), parse_baseline_spec("b.yml")]
    assert pick_baseline(later, "server", OLD) == BaselineSpec("b.yml")
    assert pick_baseline([parse_baseline_spec("client=c.yml")], "server", OLD) is None


def _entry(tmp_path: Path, body: str) -> SdkEntry:
    path = tmp_path / "known_sdks.yaml"
    path.write_text(
        f"sdk:\n  repo: acme/sdk\n  revisions: ['{OLD}', '{NEW}']\n{body}", encoding="utf-8"
    )
    return load_registry(path).get("sdk")


def test_the_cascade_resolves_each_leg_with_its_source(tmp_path: Path) -> None:
    entry = _entry(
        tmp_path,
        "  expected_failures: {server: s.yml, client: c.yml}\n"
        f"  spec_overrides:\n    '{NEW}':\n      expected_failures: {{server: s-draft.yml}}\n",
    )
    where = f"{tmp_path / 'known_sdks.yaml'}: sdk"
    old = resolve(entry, OLD, environ={}, flags=ConfigFlags()).to_dict()
    new = resolve(entry, NEW, environ={}, flags=ConfigFlags()).to_dict()
    assert old["expected_failures.server"] == {"value": "s.yml", "source": where}
    assert old["expected_failures.client"] == {"value": "c.yml", "source": where}
    assert new["expected_failures.server"] == {
        "value": "s-draft.yml",
        "source": f"{where}.spec_overrides.{NEW}",
    }
    assert new["expected_failures.client"] == {"value": "c.yml", "source": where}
    # The environment is one FILE for both legs; a flag SPEC beats it for what it names.
    environ = {"TIERCHECK_EXPECTED_FAILURES": "env.yml"}
    flags = ConfigFlags({"--expected-failures": (parse_baseline_spec(f"client@{NEW}=flag.yml"),)})
    both = resolve(entry, NEW, environ=environ, flags=flags)
    assert both.baseline("server") == "env.yml"
    assert both.values["expected_failures.server"].source == "TIERCHECK_EXPECTED_FAILURES"
    assert both.baseline("client") == "flag.yml"
    assert both.values["expected_failures.client"].source == (
        f"--expected-failures client@{NEW}=flag.yml"
    )
    assert both.baseline_given("client")
    assert not both.baseline_given("server")
    assert resolve(entry, OLD, environ=environ, flags=flags).baseline("client") == "env.yml"


def test_a_spec_given_as_text_is_parsed_and_a_bad_one_refused() -> None:
    flags = ConfigFlags({"--expected-failures": ("server=s.yml",)})
    assert resolve(None, OLD, environ={}, flags=flags).baseline("server") == "s.yml"
    assert resolve(None, OLD, environ={}, flags=flags).baseline("client") is None
    with pytest.raises(ConfigError, match=r"^--expected-failures: 'x=': unknown leg 'x'; "):
        resolve(None, OLD, environ={}, flags=ConfigFlags({"--expected-failures": ("x=",)}))


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("{sever: x.yml}", "expected_failures.sever: unknown key (did you mean 'server'?)"),
        ("3", "expected_failures: expected a string or a mapping, got an integer (3)"),
    ],
)
def test_a_bad_registry_baseline_says_where_and_what(
    tmp_path: Path, value: str, message: str
) -> None:
    with pytest.raises(ConfigError, match=re.escape(f"sdk.{message}")):
        _entry(tmp_path, f"  expected_failures: {value}\n")
