"""scoring: a failure beside other work is confirmed by a run by itself before it counts."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tiercheck.scoring import (
    CheckNote,
    LegVerdict,
    ScenarioVerdict,
    confirm_failure,
    merge_revisions,
    sep1730_totals,
    to_confirm,
    unmeasured_leg,
    with_confirmations,
    with_unmeasured,
)

REV = "2025-11-25"
NOTE = CheckNote("tool-result", "FAILURE", "Expected 3 progress notifications, got 2", None)


def _passed(name: str, path: str = "alone") -> ScenarioVerdict:
    return ScenarioVerdict(name, REV, passed=True, checks_passed=2, results_path=Path(path))


def _failed(name: str, path: str = "first") -> ScenarioVerdict:
    return ScenarioVerdict(
        name, REV, passed=False, checks_passed=1, checks_failed=1, failures=(NOTE,),
        results_path=Path(path),
    )  # fmt: skip


def _leg(*details: ScenarioVerdict) -> LegVerdict:
    return with_unmeasured("server", REV, details, results_dir=None, reason="-")


def test_a_failure_that_does_not_come_back_is_flaky_and_counts_as_passed() -> None:
    first = _failed("progress")
    verdict = confirm_failure(first, _passed("progress"), duration_s=1.5)
    assert verdict.result == "flaky"
    assert verdict.flaky
    assert verdict.passed  # counted as the run by itself judged it
    assert verdict.results_path == Path("alone")  # the run that counts
    assert verdict.confirmation is not None
    assert verdict.confirmation.first is first  # both results kept
    assert verdict.confirmation.alone == "passed"
    assert verdict.confirmation.duration_s == 1.5


def test_a_failure_that_comes_back_is_a_failure() -> None:
    first = _failed("progress")
    again = _failed("progress", path="alone")
    verdict = confirm_failure(first, again, duration_s=0.7)
    assert verdict.result == "failed"
    assert not verdict.passed
    assert not verdict.flaky
    assert verdict.results_path == Path("alone")
    assert verdict.confirmation is not None
    assert verdict.confirmation.alone == "failed"
    assert verdict.confirmation.first.results_path == Path("first")


@pytest.mark.parametrize(
    ("alone", "reason", "why"),
    [
        (None, "the server did not become ready: exited 1", "the server did not become ready"),
        (None, None, "no result"),
        (
            ScenarioVerdict("progress", REV, passed=False, unmeasured="no checks.json: exit 1"),
            None,
            "no checks.json: exit 1",
        ),
    ],
)
def test_a_run_by_itself_that_measured_nothing_leaves_the_failure(
    alone: ScenarioVerdict | None, reason: str | None, why: str
) -> None:
    first = _failed("progress")
    verdict = confirm_failure(first, alone, duration_s=0.2, reason=reason)
    assert verdict.result == "failed"
    assert verdict.results_path == Path("first")
    assert verdict.confirmation is not None
    assert verdict.confirmation.alone == "unmeasured"
    assert why in (verdict.confirmation.reason or "")


def test_scored_and_disputed_marks_stay_the_first_runs() -> None:
    first = replace(_failed("x"), not_scored_reason=None)
    alone = replace(_passed("x"), not_scored_reason="pending")  # as the run by itself wrote it
    assert confirm_failure(first, alone, duration_s=0).scored


@pytest.mark.parametrize(
    "first",
    [
        _passed("x"),
        ScenarioVerdict("x", REV, passed=False, unmeasured="unreadable checks.json"),
        confirm_failure(_failed("x"), _failed("x"), duration_s=0),
    ],
)
def test_only_a_measured_unconfirmed_failure_is_confirmed(first: ScenarioVerdict) -> None:
    with pytest.raises(ValueError, match="only a measured failure"):
        confirm_failure(first, _passed("x"), duration_s=0)


def test_to_confirm_names_the_scored_measured_failures_of_a_measured_leg() -> None:
    leg = _leg(
        _passed("ok"),
        _failed("bad"),
        replace(_failed("pending"), not_scored_reason="pending"),
        _failed("bad2"),
    )
    assert [d.scenario for d in to_confirm(leg)] == ["bad", "bad2"]
    done = with_confirmations(leg, [confirm_failure(_failed("bad"), _failed("bad"), duration_s=0)])
    assert [d.scenario for d in to_confirm(done)] == ["bad2"]
    assert to_confirm(unmeasured_leg("server", REV, "harness crashed")) == ()


def test_counts_follow_the_confirmed_verdicts() -> None:
    leg = _leg(_passed("a"), _failed("b"), _failed("c"), _passed("d"))
    assert (leg.passed, leg.failed, leg.total, leg.status) == (2, 2, 4, "fail")
    confirmed = with_confirmations(
        leg,
        [
            confirm_failure(_failed("b"), _passed("b"), duration_s=1),  # flaky
            confirm_failure(_failed("c"), _failed("c"), duration_s=1),  # failed again
        ],
    )
    assert [d.result for d in confirmed.details] == ["passed", "flaky", "failed", "passed"]
    assert (confirmed.passed, confirmed.failed, confirmed.flaky) == (3, 1, 1)
    assert confirmed.pass_rate == 0.75
    assert confirmed.status == "fail"
    # Every flaky scenario passed by itself: a leg whose only failure was flaky passes.
    only = with_confirmations(
        _leg(_passed("a"), _failed("b")),
        [confirm_failure(_failed("b"), _passed("b"), duration_s=1)],
    )
    assert (only.passed, only.failed, only.flaky, only.status) == (2, 0, 1, "pass")
    # SEP-1730's reading counts it the same way, and so does the merge over revisions.
    assert sep1730_totals(only.details).passed == 2
    merged = merge_revisions([only])
    assert (merged.passed, merged.flaky, merged.status) == (2, 1, "pass")


def test_with_confirmations_refuses_what_it_cannot_place() -> None:
    leg = _leg(_failed("b"))
    with pytest.raises(ValueError, match="no scenario zzz"):
        with_confirmations(leg, [confirm_failure(_failed("zzz"), None, duration_s=0)])
    with pytest.raises(ValueError, match="only a measured leg"):
        with_confirmations(unmeasured_leg("server", REV, "x"), [])
