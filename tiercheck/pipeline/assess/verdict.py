"""Turning a finished harness run into a leg verdict: scored, or unmeasured with the reason.

This sits in the pipeline rather than in `conformance` (which runs the harness and parses what
it wrote) or `scoring` (pure verdicts over parsed results): it joins the two, reading the run's
results from disk and deciding whether the run measured anything at all.
"""

from __future__ import annotations

import signal

from tiercheck.config.requirements import RequirementSet
from tiercheck.conformance.legs import LegRun
from tiercheck.conformance.results import parse_results
from tiercheck.scoring import LegVerdict, score_leg, unmeasured_leg

__all__ = ["score_leg_run"]


def _ended(run: LegRun) -> str:
    if run.timed_out:
        return f"the harness was killed after {run.duration_s:.0f} s (leg timeout)"
    if run.returncode < 0:
        try:
            name = signal.Signals(-run.returncode).name
        except ValueError:
            name = f"signal {-run.returncode}"
        return f"the harness was killed by {name}"
    return f"the harness exited {run.returncode} without writing results"


def score_leg_run(run: LegRun, requirements: RequirementSet) -> LegVerdict:
    """Score a finished leg; unmeasured when the harness ran none of its scenarios.

    "Ran none" is: no scenario wrote a `checks.json`, whatever the harness's exit code (a
    harness that refuses its output folder, or stops before the first scenario, exits 0 or 1
    alike). A leg that hit its overall timeout is unmeasured even with partial results: the
    scenarios it never reached were not failed by the SDK, they were never asked.
    """
    results = parse_results(run.results_dir, run.leg)
    ran = any(result.has_checks_file for result in results)
    if run.timed_out or not ran:
        reason = _ended(run)
        if run.timed_out and results:
            reason += f" with {len(results)} scenario(s) written"
        if run.log_tail:
            reason += f":\n{run.log_tail}"
        return unmeasured_leg(run.leg, run.revision, reason, results_dir=run.results_dir)
    return score_leg(
        run.leg,
        run.revision,
        results,
        requirements,
        results_dir=run.results_dir,
        harness_exit=run.returncode,
    )
