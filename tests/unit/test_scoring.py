"""scoring: the pass rule, requirement-set reconciliation, the three leg states, the merge."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.checks_builder import (
    UNREADABLE,
    check,
    failing,
    passing,
    requirement_set,
    write_scenario,
)
from tiercheck.conformance.legs import LegRun
from tiercheck.conformance.results import parse_results
from tiercheck.model import to_json
from tiercheck.pipeline.assess.verdict import score_leg_run
from tiercheck.scorecard.build import leg_entry, merged_leg_entry, scenario_entry
from tiercheck.scoring import (
    LegVerdict,
    merge_revisions,
    score_leg,
    skipped_leg,
    status_for,
    unmeasured_leg,
)

OFFICIAL_LEG_KEYS = {"status", "pass_rate", "passed", "failed", "total", "not_scored", "details"}
OFFICIAL_DETAIL_KEYS = {"scenario", "passed", "checks_passed", "checks_failed", "revision"}


def _score(tmp_path: Path, scenarios: dict[str, object], **sets: object) -> LegVerdict:
    for name, checks in scenarios.items():
        write_scenario(tmp_path, name, checks)  # type: ignore[arg-type]
    rset = requirement_set(**sets)  # type: ignore[arg-type]
    return score_leg("server", rset.revision, parse_results(tmp_path, "server"), rset)


@pytest.mark.parametrize(
    ("checks", "passed", "reason"),
    [
        ([check("a")], True, None),
        ([check("a"), check("b", "FAILURE")], False, None),
        ([check("a"), check("w", "WARNING")], True, None),  # warnings never fail a scenario
        ([check("w", "WARNING")], False, "only warnings: no check succeeded"),
        ([check("s", "SKIPPED"), check("i", "INFO")], False, "no check succeeded"),
        ([check("i", "INFO"), check("a")], True, None),
        ([], False, "no checks (the scenario wrote none)"),
        (None, False, "no checks (the scenario wrote none)"),  # inapplicable: empty dir
    ],
)
def test_pass_rule_needs_a_success_and_no_failure(
    tmp_path: Path, checks: object, passed: bool, reason: str | None
) -> None:
    verdict = _score(tmp_path, {"x": checks}, server=["x"])
    (detail,) = verdict.details
    assert detail.passed is passed
    assert detail.reason == reason
    assert verdict.passed == int(passed)


def test_counts_are_raw_and_failures_are_collapsed(tmp_path: Path) -> None:
    checks = [
        check("a", "SUCCESS"),
        check("a", "FAILURE", message="second try failed", url="https://spec/a"),
        check("b", "WARNING", message="should"),
        check("b", "WARNING", message="should again"),
        check("c"),
    ]
    verdict = _score(tmp_path, {"x": checks}, server=["x"])
    (d,) = verdict.details
    assert (d.checks_passed, d.checks_failed, d.checks_warned) == (2, 1, 2)
    assert [(f.id, f.message, f.spec_url) for f in d.failures] == [
        ("a", "second try failed", "https://spec/a")
    ]
    assert [w.message for w in d.warnings] == ["should again"]
    assert (verdict.checks_passed, verdict.checks_failed, verdict.warnings) == (2, 1, 2)


def test_expected_scenario_without_results_fails(tmp_path: Path) -> None:
    verdict = _score(tmp_path, {"a": passing()}, server=["a", "b"])
    assert (verdict.passed, verdict.failed, verdict.total) == (1, 1, 2)
    missing = verdict.details[1]
    assert (missing.scenario, missing.passed, missing.reason) == ("b", False, "no results")
    assert (missing.checks_passed, missing.checks_failed) == (0, 0)


@pytest.mark.parametrize(("raw", "words"), UNREADABLE)
def test_unreadable_checks_json_is_an_unmeasured_scenario_and_leg(
    tmp_path: Path, raw: bytes, words: str
) -> None:
    write_scenario(tmp_path, "ok", passing())
    write_scenario(tmp_path, "bad", "").joinpath("checks.json").write_bytes(raw)
    rset = requirement_set(server=["ok", "bad"])
    run = LegRun("server", rset.revision, tmp_path, 0, False, "", 1.0)
    verdict = score_leg_run(run, rset)
    bad = next(d for d in verdict.details if d.scenario == "bad")
    # Neither passed nor failed: not counted, and the leg (so the tier) rests on no guess.
    assert not bad.measured
    assert words in (bad.unmeasured or "")
    assert bad.unmeasured.startswith("unreadable checks.json: ")  # type: ignore[union-attr]
    assert verdict.state == "unmeasured"
    assert verdict.reason is not None
    assert "1 scored scenario(s) not measured (bad: unreadable checks.json" in verdict.reason
    assert (verdict.passed, verdict.failed, verdict.total) == (1, 0, 1)
    assert verdict.failing == ()
    entry = to_json(scenario_entry(bad, {}, "server"))
    assert entry["passed"] is False
    assert entry["unmeasured"].startswith("unreadable checks.json: ")


def test_a_folder_without_checks_json_after_a_failed_harness_is_unmeasured(tmp_path: Path) -> None:
    write_scenario(tmp_path, "ok", passing())
    write_scenario(tmp_path, "threw", None)  # the folder, and no checks.json in it
    rset = requirement_set(server=["ok", "threw"])
    after_exit_1 = score_leg_run(LegRun("server", rset.revision, tmp_path, 1, False, "", 1.0), rset)
    threw = next(d for d in after_exit_1.details if d.scenario == "threw")
    assert threw.unmeasured == "no checks.json: the harness exited 1 without writing it"
    assert after_exit_1.state == "unmeasured"
    # After a harness that exited 0 the same folder is the scenario's own empty answer.
    after_exit_0 = score_leg_run(LegRun("server", rset.revision, tmp_path, 0, False, "", 1.0), rset)
    assert after_exit_0.state == "measured"
    (failed,) = after_exit_0.failing
    assert failed.reason == "no checks (the scenario wrote none)"


def test_an_unmeasured_not_scored_scenario_leaves_the_leg_measured(tmp_path: Path) -> None:
    write_scenario(tmp_path, "ok", passing())
    write_scenario(tmp_path, "ext", "{oops")
    rset = requirement_set(server=["ok"], not_scored=[("ext", "server", "extension")])
    verdict = score_leg("server", rset.revision, parse_results(tmp_path, "server"), rset)
    assert verdict.state == "measured"
    assert (verdict.passed, verdict.total, verdict.not_scored_total) == (1, 1, 0)
    ext = next(d for d in verdict.details if d.scenario == "ext")
    assert not ext.measured


def test_not_scored_scenarios_are_counted_apart(tmp_path: Path) -> None:
    verdict = _score(
        tmp_path,
        {"a": passing(), "b": failing(), "ext": failing(), "pend": passing(), "stray": passing()},
        server=["a", "b"],
        not_scored=[("ext", "server", "extension"), ("pend", "server", "pending")],
    )
    assert (verdict.passed, verdict.failed, verdict.total, verdict.pass_rate) == (1, 1, 2, 0.5)
    # stray output the requirement set does not list is shown, never scored
    assert (verdict.not_scored_total, verdict.not_scored_failed) == (3, 1)
    reasons = {
        d.scenario: to_json(scenario_entry(d, {}, "server")).get("notScoredReason")
        for d in verdict.details
    }
    assert reasons == {
        "a": None,
        "b": None,
        "ext": "extension",
        "pend": "pending",
        "stray": "not-in-requirement-set",
    }
    # a not-scored failure does not affect check totals either
    assert verdict.checks_failed == 1


@pytest.mark.parametrize(
    ("rate", "status"), [(1.0, "pass"), (0.8, "partial"), (0.95, "partial"), (0.79, "fail")]
)
def test_status_thresholds(rate: float, status: str) -> None:
    assert status_for(rate) == status


def test_empty_requirement_leg_has_rate_zero(tmp_path: Path) -> None:
    verdict = _score(tmp_path, {})
    assert (verdict.total, verdict.pass_rate, verdict.status) == (0, 0.0, "fail")


def test_json_form_is_a_superset_of_the_official_shape(tmp_path: Path) -> None:
    verdict = _score(tmp_path, {"a": failing()}, server=["a"])
    data = to_json(leg_entry(verdict))
    assert set(data) >= OFFICIAL_LEG_KEYS
    assert data["not_scored"] == {"total": 0, "failed": 0}
    assert "error" not in data
    (detail,) = data["details"]
    assert set(detail) >= OFFICIAL_DETAIL_KEYS
    assert "notScoredReason" not in detail
    assert detail["failures"][0]["message"] == "expected 8, got 7"


def _run(tmp_path: Path, returncode: int, *, timed_out: bool = False, tail: str = "") -> LegRun:
    return LegRun(
        leg="client",
        revision="2026-07-28",
        results_dir=tmp_path,
        returncode=returncode,
        timed_out=timed_out,
        log_tail=tail,
        duration_s=600.0 if timed_out else 0.4,
    )


def test_crashed_harness_is_unmeasured_not_all_failed(tmp_path: Path) -> None:
    rset = requirement_set(client=["tools_call", "initialize"])
    verdict = score_leg_run(_run(tmp_path, 1, tail="Unknown spec revision: 2099"), rset)
    assert verdict.state == "unmeasured"
    assert (verdict.total, verdict.failed, verdict.details) == (0, 0, ())
    assert "exited 1 without writing results" in (verdict.reason or "")
    assert "Unknown spec revision" in (verdict.reason or "")
    data = to_json(leg_entry(verdict))
    assert data["status"] == "fail"
    assert data["error"] == verdict.reason
    killed = score_leg_run(_run(tmp_path, -9), rset)
    assert killed.state == "unmeasured"
    assert "SIGKILL" in (killed.reason or "")


def test_timed_out_harness_is_unmeasured_even_with_partial_results(tmp_path: Path) -> None:
    write_scenario(tmp_path, "tools_call", passing(), leg="client")
    rset = requirement_set(client=["tools_call", "initialize"])
    verdict = score_leg_run(_run(tmp_path, -9, timed_out=True), rset)
    assert verdict.state == "unmeasured"
    assert "leg timeout" in (verdict.reason or "")
    assert "1 scenario(s) written" in (verdict.reason or "")


def test_failing_exit_with_results_is_measured(tmp_path: Path) -> None:
    write_scenario(tmp_path, "tools_call", failing(), leg="client")
    rset = requirement_set(client=["tools_call"])
    verdict = score_leg_run(_run(tmp_path, 1), rset)
    assert verdict.state == "measured"
    assert (verdict.passed, verdict.failed) == (0, 1)
    assert verdict.results_dir == tmp_path


def test_clean_exit_without_running_a_scenario_is_unmeasured_not_failed(tmp_path: Path) -> None:
    # A harness that exits 0 having run nothing (issue 12, item 1) measured nothing.
    verdict = score_leg_run(_run(tmp_path, 0), requirement_set(client=["tools_call"]))
    assert verdict.state == "unmeasured"
    assert (verdict.total, verdict.failed, verdict.details) == (0, 0, ())
    assert "exited 0 without writing results" in (verdict.reason or "")


def test_scenario_folders_without_any_checks_are_unmeasured(tmp_path: Path) -> None:
    # Empty scenario folders (the harness made them, then ran nothing in them).
    (tmp_path / "tools_call-2026-01-01T00-00-00-000Z").mkdir()
    verdict = score_leg_run(_run(tmp_path, 1), requirement_set(client=["tools_call"]))
    assert verdict.state == "unmeasured"


def _measured(tmp_path: Path, revision: str, scenarios: dict[str, object]) -> LegVerdict:
    out = tmp_path / revision
    for name, checks in scenarios.items():
        write_scenario(out, name, checks)  # type: ignore[arg-type]
    rset = requirement_set(server=list(scenarios), revision=revision)
    return score_leg("server", revision, parse_results(out, "server"), rset)


def test_merge_of_measured_revisions_concatenates_details(tmp_path: Path) -> None:
    a = _measured(tmp_path, "2025-11-25", {"ping": passing(), "tools-list": passing()})
    b = _measured(tmp_path, "2026-07-28", {"tools-list": failing(), "caching": passing()})
    merged = merge_revisions([a, b])
    assert merged.state == "measured"
    assert merged.conclusive
    assert (merged.passed, merged.failed, merged.total, merged.pass_rate) == (3, 1, 4, 0.75)
    assert merged.status == "fail"
    assert [(d.scenario, d.revision) for d in merged.failing] == [("tools-list", "2026-07-28")]
    data = to_json(merged_leg_entry(merged))
    assert set(data) >= OFFICIAL_LEG_KEYS
    assert "error" not in data
    assert [d["revision"] for d in data["details"]] == [
        "2025-11-25",
        "2025-11-25",
        "2026-07-28",
        "2026-07-28",
    ]


def test_merge_keeps_measured_revisions_when_one_is_unmeasured(tmp_path: Path) -> None:
    a = _measured(tmp_path, "2025-11-25", {"ping": passing(), "tools-list": passing()})
    b = unmeasured_leg("server", "2026-07-28", "server never became ready")
    merged = merge_revisions([a, b])
    assert merged.state == "partially-measured"
    assert not merged.conclusive
    assert (merged.passed, merged.total, merged.pass_rate, merged.status) == (2, 2, 1.0, "pass")
    assert merged.measured_revisions == ("2025-11-25",)
    assert merged.reason == "2026-07-28: server never became ready"
    data = to_json(merged_leg_entry(merged))
    assert data["error"] == merged.reason
    assert data["missing_revisions"] == [
        {"revision": "2026-07-28", "state": "unmeasured", "reason": "server never became ready"}
    ]
    assert data["by_revision"]["2026-07-28"]["state"] == "unmeasured"


def test_merge_states(tmp_path: Path) -> None:
    measured = _measured(tmp_path, "2025-11-25", {"ping": passing()})
    skip_a = skipped_leg("client", "2025-11-25", "no client configured")
    skip_b = skipped_leg("client", "2026-07-28", "no client configured")
    assert merge_revisions([skip_a, skip_b]).state == "skipped"
    assert merge_revisions([skip_a, skip_b]).status == "skipped"
    gone = unmeasured_leg("client", "2026-07-28", "harness crashed")
    mixed = merge_revisions([skip_a, gone])
    assert (mixed.state, mixed.status, mixed.total) == ("unmeasured", "fail", 0)
    assert mixed.reason == "2025-11-25: skipped (no client configured); 2026-07-28: harness crashed"
    half = merge_revisions([measured, skipped_leg("server", "2026-07-28", "no server")])
    assert half.state == "partially-measured"
    single = merge_revisions([measured])
    assert (single.state, single.passed, single.total) == ("measured", 1, 1)
    with pytest.raises(ValueError, match="different legs"):
        merge_revisions([measured, skip_a])
    with pytest.raises(ValueError, match="at least one"):
        merge_revisions([])
