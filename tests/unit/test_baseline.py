"""Expected-failures baselines: loading (every rejection) and the four official outcomes."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from support.checks_builder import check, failing, passing, requirement_set, write_scenario
from tiercheck.baseline import BaselineVerdict, apply_baseline
from tiercheck.config.baseline import Baseline, BaselineEntry, load_baseline, parse_baseline
from tiercheck.config.yamlio import loads_yaml
from tiercheck.conformance.results import parse_results
from tiercheck.errors import ConfigError
from tiercheck.scoring import LegVerdict, score_leg, skipped_leg, unmeasured_leg


def _parse(text: str) -> Baseline:
    return parse_baseline(loads_yaml(textwrap.dedent(text), "b.yml"), "b.yml")


# --- loading -------------------------------------------------------------------------------


def test_empty_file_and_empty_sections_are_fine(tmp_path: Path) -> None:
    empty = tmp_path / "expected.yml"
    empty.write_text("# nothing yet\n")
    assert load_baseline(empty).entries == ()
    assert _parse("server:\nclient: []\n").entries == ()


def test_entries_split_at_the_first_colon() -> None:
    baseline = _parse("""\
        server:
          - tools-call-image
          - prompts-get-simple:prompt-check
        client:
          - auth/scope-step-up:a:b
        """)
    assert baseline.entries == (
        BaselineEntry("server", "tools-call-image", None, 0),
        BaselineEntry("server", "prompts-get-simple", "prompt-check", 1),
        BaselineEntry("client", "auth/scope-step-up", "a:b", 0),
    )
    assert baseline.entries[2].where == "client[0]"
    assert baseline.entries[1].text == "prompts-get-simple:prompt-check"


def test_yaml_one_one_words_stay_strings() -> None:
    assert _parse("server:\n  - on\n  - 2025-11-25\n").entries[0].scenario == "on"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- a\n- b\n", r"b\.yml: \(top level\): expected a mapping .* got a list"),
        ("server: tools-list\n", r"b\.yml: server: expected a list of .* got str"),
        ("server: {a: 1}\n", r"server: expected a list .* got a mapping"),
        ("client:\n  - a\n  -\n", r"client\[1\]: empty entry"),
        ("client:\n  - ''\n", r"client\[0\]: empty entry"),
        (
            "server:\n  - tools-call-image: img-check\n",
            r"server\[0\]: 'tools-call-image: img-check' is read as a mapping; "
            r"write 'tools-call-image:img-check' \(remove the space after the colon\)",
        ),
        ("server:\n  - ping:\n", r"server\[0\]: 'ping:' is read as a mapping; write 'ping'"),
        ("server:\n  - {a: 1, b: 2}\n", r"server\[0\]: expected .* got a mapping"),
        ("server:\n  - 42\n", r"server\[0\]: expected .* got a number \(42\); quote it"),
        ("server:\n  - ':check'\n", r"server\[0\]: ':check' has an empty scenario"),
        ("server:\n  - 'ping:'\n", r"server\[0\]: 'ping:' has an empty check id"),
        (
            "server:\n  - ping\n  - x\n  - ping:a\n",
            r"server\[2\]: 'ping' is listed both as a whole scenario and per check "
            r"\(also at server\[0\]\); keep one form",
        ),
        (
            "client:\n  - a:x\n  - a\n",
            r"client\[1\]: 'a' is listed both .* \(also at client\[0\]\)",
        ),
        ("sever:\n  - ping\n", r"b\.yml: sever: unknown key 'sever' \(did you mean 'server'\?\)"),
        ("server: []\nnotes: x\n", r"notes: unknown key 'notes'; a baseline has only"),
        (
            "client:\n  - a:x\n  - b\n  - a:x\n",
            r"client\[2\]: 'a:x' is listed twice \(first at client\[0\]\); delete one",
        ),
    ],
)
def test_rejections_name_the_file_the_entry_and_the_fix(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as info:
        _parse(text)
    assert "\n" not in info.value.message


def test_yaml_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.yml"
    path.write_text("server:\n  - a\n  - [b\n")
    with pytest.raises(ConfigError, match=r"bad\.yml:\d+: "):
        load_baseline(path)


# --- applying ------------------------------------------------------------------------------


def _leg(tmp_path: Path, scenarios: dict[str, object], **sets: object) -> LegVerdict:
    for name, checks in scenarios.items():
        write_scenario(tmp_path, name, checks)  # type: ignore[arg-type]
    sets.setdefault("server", [n for n in scenarios if n not in str(sets.get("not_scored"))])
    rset = requirement_set(**sets)  # type: ignore[arg-type]
    return score_leg("server", rset.revision, parse_results(tmp_path, "server"), rset)


def _outcomes(verdict: BaselineVerdict) -> set[tuple[str, str, str | None]]:
    return {(o.outcome, o.scenario, o.check) for o in verdict.outcomes}


def test_whole_scenario_four_outcomes(tmp_path: Path) -> None:
    leg = _leg(
        tmp_path,
        {"known-bad": failing(), "new-bad": failing(), "fixed": passing(), "fine": passing()},
    )
    verdict = apply_baseline(_parse("server: [known-bad, fixed]\n"), [leg])
    assert _outcomes(verdict) == {
        ("expected-failure", "known-bad", None),
        ("unexpected-failure", "new-bad", None),
        ("stale", "fixed", None),
    }
    assert verdict.normal_passes == 1
    assert not verdict.exit_ok
    unexpected = verdict.of("unexpected-failure")[0]
    assert unexpected.entry is None
    assert unexpected.detail == "main-check FAILURE: expected 8, got 7"
    stale = verdict.of("stale")[0].to_dict()
    assert (stale["entry"], stale["where"]) == ("fixed", "server[1]")
    # the baseline never changes the score
    assert (leg.passed, leg.failed) == (2, 2)


def test_all_failures_expected_is_exit_ok(tmp_path: Path) -> None:
    leg = _leg(tmp_path, {"known-bad": failing(), "fine": passing()})
    verdict = apply_baseline(_parse("server: [known-bad]\n"), [leg])
    assert verdict.exit_ok
    assert verdict.to_dict()["expected_failures"] == 1


def test_warning_counts_as_failure_as_in_the_official_baseline(tmp_path: Path) -> None:
    warned = [check("main"), check("should", "WARNING", message="SHOULD send x")]
    leg = _leg(tmp_path, {"warned": warned, "listed-warned": warned})
    assert leg.passed == 2  # scoring ignores warnings …
    verdict = apply_baseline(_parse("server: [listed-warned]\n"), [leg])
    assert _outcomes(verdict) == {  # … the baseline does not
        ("unexpected-failure", "warned", None),
        ("expected-failure", "listed-warned", None),
    }


def test_scenario_failed_without_failing_checks_is_a_failure(tmp_path: Path) -> None:
    leg = _leg(tmp_path, {"empty": None}, server=["empty", "missing"])
    verdict = apply_baseline(_parse("server: [missing]\n"), [leg])
    assert _outcomes(verdict) == {
        ("unexpected-failure", "empty", None),
        ("expected-failure", "missing", None),
    }
    assert verdict.of("expected-failure")[0].detail == "no results"


def test_per_check_outcomes(tmp_path: Path) -> None:
    checks = [
        check("known", "FAILURE", message="known problem"),
        check("new", "FAILURE", message="new problem"),
        check("warned", "WARNING"),
        check("fixed", "FAILURE"),
        check("fixed", "SUCCESS"),  # collapsed: FAILURE wins, so "fixed" still fails
        check("good"),
        check("later", "SKIPPED"),
        check("noted", "INFO"),
    ]
    leg = _leg(tmp_path, {"s": checks})
    baseline = _parse("""\
        server:
          - s:known
          - s:warned
          - s:fixed
          - s:good
          - s:later
          - s:absent
        """)
    verdict = apply_baseline(baseline, [leg])
    assert _outcomes(verdict) == {
        ("expected-failure", "s", "known"),
        ("unexpected-failure", "s", "new"),
        ("expected-failure", "s", "warned"),
        ("expected-failure", "s", "fixed"),
        ("stale", "s", "good"),
        ("not-run", "s", "later"),  # SKIPPED: tolerated
        ("not-run", "s", "absent"),  # absent: tolerated
    }
    assert not verdict.exit_ok


def test_per_check_all_expected_is_exit_ok(tmp_path: Path) -> None:
    leg = _leg(tmp_path, {"s": [check("a", "FAILURE"), check("b")]})
    verdict = apply_baseline(_parse("server: ['s:a', 's:gone']\n"), [leg])
    assert verdict.exit_ok
    assert _outcomes(verdict) == {("expected-failure", "s", "a"), ("not-run", "s", "gone")}


def test_per_check_entries_on_a_scenario_without_results(tmp_path: Path) -> None:
    leg = _leg(tmp_path, {}, server=["gone"])
    verdict = apply_baseline(_parse("server: ['gone:a']\n"), [leg])
    assert _outcomes(verdict) == {
        ("unexpected-failure", "gone", None),
        ("not-run", "gone", "a"),
    }


def test_only_scored_scenarios_are_judged(tmp_path: Path) -> None:
    leg = _leg(
        tmp_path,
        {"core": passing(), "ext": failing()},
        server=["core"],
        not_scored=[("ext", "server", "extension")],
    )
    verdict = apply_baseline(_parse("server: [ext, elsewhere]\n"), [leg])
    assert verdict.exit_ok  # the unlisted-but-unscored failure is not unexpected
    details = {o.scenario: (o.outcome, o.detail) for o in verdict.outcomes}
    assert details == {
        "ext": ("not-run", "not scored at 2026-07-28 (extension)"),
        "elsewhere": ("not-run", "not run on the server leg at 2026-07-28"),
    }


def test_unmeasured_and_skipped_legs_are_not_judged() -> None:
    baseline = _parse("server: [a]\nclient: ['b:c']\n")
    legs = [
        unmeasured_leg("server", "2026-07-28", "harness crashed"),
        skipped_leg("client", "2026-07-28", "no client configured"),
    ]
    verdict = apply_baseline(baseline, legs)
    assert verdict.exit_ok
    assert {(o.outcome, o.leg) for o in verdict.outcomes} == {
        ("not-run", "server"),
        ("not-run", "client"),
    }
    assert "harness crashed" in verdict.outcomes[0].detail


def test_client_entries_apply_to_the_client_leg_only(tmp_path: Path) -> None:
    write_scenario(tmp_path, "auth/dpop", failing(), leg="client")
    rset = requirement_set(client=["auth/dpop"])
    client = score_leg("client", rset.revision, parse_results(tmp_path, "client"), rset)
    verdict = apply_baseline(_parse("server: [auth/dpop]\n"), [client])
    assert _outcomes(verdict) == {("unexpected-failure", "auth/dpop", None)}
