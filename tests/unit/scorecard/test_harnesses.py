"""Where the CI's harness and the referee disagree on one leg (`scorecard.harnesses`).

Both sides are written as the harnesses write them (`checks.json` per scenario folder) and read
back with `conformance.results`; every expected value is worked out by hand below.
"""

from __future__ import annotations

from pathlib import Path

from support.checks_builder import check, write_scenario
from tiercheck.conformance.results import parse_results
from tiercheck.scorecard.harnesses import (
    compare_leg,
    comparison_summary,
    disagreement_text,
    most_telling,
)
from tiercheck.scorecard.model import ComparedLeg, HarnessComparison, HarnessDisagreement

REV = "2025-11-25"


def _leg(tmp_path: Path) -> tuple[Path, Path]:
    referee, ci = tmp_path / "referee", tmp_path / "ci"
    # alike: both pass with the same checks (an INFO note on one side only is no check).
    write_scenario(referee, "ping", [check("ping")])
    write_scenario(ci, "ping", [check("ping"), check("server-info", "INFO")])
    # only the referee runs it (it fails there).
    write_scenario(referee, "dns-rebinding-protection", [check("host", "FAILURE", message="m")])
    # only the CI's harness runs it; the referee's folder is empty (inapplicable): no result.
    write_scenario(ci, "tools-call-sampling", [check("sampling")])
    write_scenario(referee, "tools-call-sampling", None)
    # flipped: the referee fails `schema` (new in the referee), the CI's harness passes.
    write_scenario(
        referee,
        "tools-list",
        [check("list"), check("schema", "FAILURE", message="inputSchema is not 2020-12")],
    )
    write_scenario(ci, "tools-list", [check("list"), check("names", "WARNING")])
    # a WARNING for a SUCCESS flips nothing and is no disagreement.
    write_scenario(referee, "logging-set-level", [check("set", "WARNING"), check("ok")])
    write_scenario(ci, "logging-set-level", [check("set"), check("ok")])
    # flipped the other way, by a check both emit.
    write_scenario(referee, "prompts-get-simple", [check("get")])
    write_scenario(ci, "prompts-get-simple", [check("get", "FAILURE", message="old rule")])
    # neither left a result.
    write_scenario(referee, "resources-subscribe", None)
    return referee, ci


def test_each_scenario_is_classified(tmp_path: Path) -> None:
    referee, ci = _leg(tmp_path)
    found = compare_leg(
        REV, "server", parse_results(referee, "server"), parse_results(ci, "server")
    )
    # Scenarios with a result on either side: dns-rebinding-protection, logging-set-level,
    # ping, prompts-get-simple, tools-call-sampling, tools-list (6); alike: logging-set-level
    # and ping (2).
    assert (found.scenarios, found.agreed) == (6, 2)
    rows = [(d.scenario, d.kind, d.check, d.referee, d.ci, d.message) for d in found.disagreements]
    assert rows == [
        ("dns-rebinding-protection", "scenario-absent", None, "fail", None, None),
        ("prompts-get-simple", "verdict-flipped", "get", "pass", "fail", "old rule"),
        ("tools-call-sampling", "scenario-absent", None, None, "pass", None),
        (
            "tools-list",
            "verdict-flipped",
            "schema",
            "fail",
            "pass",
            "inputSchema is not 2020-12",
        ),
        ("tools-list", "check-added", "schema", "FAILURE", None, "inputSchema is not 2020-12"),
        ("tools-list", "check-removed", "names", None, "WARNING", None),
    ]
    assert {(d.revision, d.leg) for d in found.disagreements} == {(REV, "server")}


def test_a_harness_that_left_nothing_makes_every_scenario_absent(tmp_path: Path) -> None:
    referee, _ = _leg(tmp_path)
    found = compare_leg(REV, "server", parse_results(referee, "server"), ())
    # The referee's scenarios with a result: dns-rebinding-protection, logging-set-level, ping,
    # prompts-get-simple, tools-list — five; none alike.
    assert (found.scenarios, found.agreed) == (5, 0)
    assert {d.kind for d in found.disagreements} == {"scenario-absent"}
    assert all(d.ci is None for d in found.disagreements)


def test_a_failure_for_want_of_a_success_names_no_check(tmp_path: Path) -> None:
    referee, ci = tmp_path / "r", tmp_path / "c"
    write_scenario(referee, "sse-retry", [check("retry", "WARNING")], leg="client")
    write_scenario(ci, "sse-retry", [check("retry")], leg="client")
    found = compare_leg(
        REV, "client", parse_results(referee, "client"), parse_results(ci, "client")
    )
    assert [(d.kind, d.check, d.referee, d.ci) for d in found.disagreements] == [
        ("verdict-flipped", None, "fail", "pass")
    ]


def test_text_and_summary() -> None:
    def entry(kind: str, **kw: str | None) -> HarnessDisagreement:
        fields: dict[str, str | None] = {
            "check": None,
            "referee": None,
            "ci": None,
            "message": None,
        }
        fields.update(kw)
        return HarnessDisagreement(revision=REV, leg="server", scenario="s", kind=kind, **fields)  # type: ignore[arg-type]

    flipped = entry("verdict-flipped", check="schema", referee="fail", ci="pass", message="no")
    assert (
        disagreement_text(flipped, "0.1.16")
        == "referee fail, harness 0.1.16 pass: check schema: no"
    )
    absent = entry("scenario-absent", referee="fail")
    assert disagreement_text(absent, "0.1.16") == (
        "the referee runs it (fail); harness 0.1.16 left no result for it"
    )
    added = entry("check-added", check="schema", referee="FAILURE")
    assert disagreement_text(added, "0.1.16") == (
        "the referee checks schema (FAILURE); harness 0.1.16 does not"
    )
    removed = entry("check-removed", check="names", ci="WARNING")
    assert disagreement_text(removed, "0.1.16") == (
        "harness 0.1.16 checks names (WARNING); the referee does not"
    )
    block = HarnessComparison(
        version="0.1.16",
        referee="0.2.0-alpha.12",
        legs=(
            ComparedLeg(
                revision=REV,
                leg="server",
                state="compared",
                way="spec-version",
                reason=None,
                scenarios=6,
                agreed=2,
                results_dir="x",
            ),
            ComparedLeg(
                revision="2026-07-28",
                leg="server",
                state="not-compared",
                way=None,
                reason="harness 0.1.16 cannot run 2026-07-28",
                scenarios=0,
                agreed=0,
                results_dir=None,
            ),
        ),
        disagreements=(flipped, absent, added, removed, absent),
    )
    assert comparison_summary(block) == (
        "harness 0.1.16 against the referee 0.2.0-alpha.12: 1 of 2 legs compared, 2 of 6 "
        "scenarios alike; disagreements: 2 scenario-absent, 1 verdict-flipped, 1 check-added, "
        "1 check-removed"
    )


def test_the_most_telling_come_first(tmp_path: Path) -> None:
    referee, ci = _leg(tmp_path)
    found = compare_leg(
        REV, "server", parse_results(referee, "server"), parse_results(ci, "server")
    ).disagreements
    ranked = [(d.scenario, d.kind) for d in most_telling(found)]
    assert ranked == [
        ("prompts-get-simple", "verdict-flipped"),
        ("tools-list", "verdict-flipped"),
        ("dns-rebinding-protection", "scenario-absent"),
        ("tools-call-sampling", "scenario-absent"),
        ("tools-list", "check-added"),  # a FAILURE the CI's harness does not check
        ("tools-list", "check-removed"),  # a WARNING
    ]
