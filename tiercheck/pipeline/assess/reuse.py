"""`--reuse`: take the verdicts of a stored run of the same commit, configuration, harness
version and requirement sets instead of building and running again.

The stored run's raw checks.json files are written back under this run's `raw/` and scored
again by the same scorer, so the verdicts are the ones a fresh run of those results gives. A
stored run with a flaky scenario is not re-used: its raw results are the runs beside other
work, and the flaky scenario's run by itself is not among them.
Only the checkout runs (to learn the commit); governance is still judged fresh by the caller,
because it changes without commits.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tiercheck.document_files import write_leg_results
from tiercheck.history.files import requirements_digest
from tiercheck.history.record import RunRecord, config_digest
from tiercheck.history.store import ReuseKey, StoredLegResults
from tiercheck.pipeline.assess.base import AssessOptions, ProgressSink, elapsed
from tiercheck.pipeline.assess.checkout import check_out
from tiercheck.pipeline.assess.measure import Measurement
from tiercheck.pipeline.assess.plan import Plan
from tiercheck.revisions import LEGS, Leg
from tiercheck.scorecard.model import BuildBlock
from tiercheck.scoring import LegVerdict, score_leg, skipped_leg

__all__ = ["ReuseLookup", "Reused", "reuse_key", "reused_measurement"]

#: Key → the stored run and its legs' raw results, or None. Never raises (the command layer
#: wraps the history store so that a broken database only means "nothing to re-use").
ReuseLookup = Callable[
    [ReuseKey], tuple[RunRecord, Mapping[tuple[str, str], StoredLegResults]] | None
]


@dataclass(frozen=True)
class Reused:
    """A measurement taken from a stored run."""

    measurement: Measurement
    run: RunRecord


def reuse_key(options: AssessOptions, plan: Plan, commit: str) -> ReuseKey:
    """What a stored run must match for this assessment."""
    configs = {
        p.revision: {key: entry["value"] for key, entry in p.config.to_dict().items()}
        for p in plan.revisions
    }
    revisions = tuple(p.revision for p in plan.revisions)
    return ReuseKey(
        sdk=plan.target.name,
        commit=commit,
        config_digest=config_digest(configs),
        harness_version=options.settings.harness_version,
        requirements_digest=requirements_digest(revisions),
        revisions=revisions,
    )


def reused_measurement(
    options: AssessOptions, plan: Plan, progress: ProgressSink, lookup: ReuseLookup
) -> Reused | None:
    """The measurement of a matching stored run, or None (then the caller measures)."""
    if plan.origin == "url":
        return None  # a server someone else runs has no commit to match
    began = time.monotonic()
    checkout = check_out(options, plan, progress)
    if checkout.path is None or checkout.commit is None:
        return None
    if plan.target.path is not None and _dirty(plan):
        progress.warn("--reuse: the checkout has uncommitted changes; measuring it")
        return None
    found = lookup(reuse_key(options, plan, checkout.commit))
    if found is None:
        progress.done("reuse", "no stored run of this commit and configuration; measuring")
        return None
    record, stored = found
    if any(row.flaky for row in record.scenarios):
        # Its stored results are the runs beside other work: scored again, a flaky scenario
        # would read as the failure its run by itself did not confirm.
        progress.done("reuse", f"run {record.run_id} had flaky scenarios; measuring")
        return None
    verdicts: dict[tuple[str, Leg], LegVerdict] = {}
    for p in plan.revisions:
        for leg in LEGS:
            row = record.leg(p.revision, leg)
            files = stored.get((p.revision, leg))
            if files is not None:
                root = write_leg_results(files, options.out_dir / "raw" / p.revision / leg)
                from tiercheck.conformance.results import parse_results

                results = parse_results(root, leg)
                verdicts[(p.revision, leg)] = score_leg(
                    leg, p.revision, results, p.requirements, results_dir=root
                )
            else:
                # reusable() took only runs whose every other leg was skipped
                assert row is not None
                verdicts[(p.revision, leg)] = skipped_leg(leg, p.revision, row.reason or "")
    progress.done("reuse", f"verdicts of run {record.run_id} (commit {checkout.commit[:12]})")
    measurement = Measurement(
        verdicts=verdicts,
        server_urls={},
        checkout_path=checkout.path,
        commit=checkout.commit,
        harness=None,
        build=BuildBlock(state="reused", reason=f"verdicts of run {record.run_id}", log=None),
        logs={},
        unmeasured=(),
        timings={**checkout.timings, "conformance": elapsed(began)},
        interrupted=False,
        tag=checkout.tag,
        release=checkout.release,
    )
    return Reused(measurement, record)


def _dirty(plan: Plan) -> bool:
    from tiercheck.errors import TiercheckError
    from tiercheck.sdk.checkout import describe_local

    assert plan.target.path is not None
    try:
        return describe_local(plan.target.path).dirty
    except TiercheckError:
        return True
