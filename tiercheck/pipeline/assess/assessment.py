"""One whole assessment: plan → checkout → provision → build → legs → judge → scorecard.

`assess` is what `tier-check --sdk …` runs; `score_results` is what `tier-check score` runs on
results produced elsewhere (its legs are read from folders instead of run). Both end in the
same judge and scorecard steps, so both produce the same document.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path

from tiercheck.conformance.results import ScenarioResult
from tiercheck.errors import ConfigError, UsageError
from tiercheck.governance.obtain import GovernanceOptions, check_snapshot
from tiercheck.pipeline.assess.base import AssessOptions, ProgressSink, Unmeasured
from tiercheck.pipeline.assess.clock import now_utc
from tiercheck.pipeline.assess.facts import harness_facts, tiercheck_facts
from tiercheck.pipeline.assess.finish import finish_scorecard
from tiercheck.pipeline.assess.judge import Baselines, find_baselines, judge, load_dispute_entries
from tiercheck.pipeline.assess.measure import Measurement, measure
from tiercheck.pipeline.assess.plan import Plan, RevisionPlan, decide_ref, plan_assessment
from tiercheck.pipeline.assess.reuse import ReuseLookup, reused_measurement
from tiercheck.revisions import LEGS, Leg
from tiercheck.scorecard.model import Artifacts, HarnessBlock, HistoryBlock, Scorecard
from tiercheck.scoring import LegVerdict
from tiercheck.target import Target

__all__ = ["assess", "score_results"]


def assess(
    options: AssessOptions,
    governance: GovernanceOptions,
    progress: ProgressSink,
    *,
    started_at: datetime,
    reuse: ReuseLookup | None = None,
) -> Scorecard:
    """Run a whole assessment and return its scorecard document (exit code inside).

    With `reuse`, a stored run of the same commit and configuration stands in for the
    conformance half (see `pipeline.assess.reuse`); the scorecard's `history.reused_from` names it.
    """
    plan = plan_assessment(options)
    check_snapshot(plan.target.repo, governance)
    load_dispute_entries(governance)  # a bad disputes file stops before anything runs
    reused = reused_measurement(options, plan, progress, reuse) if reuse else None
    # checkout → provision → build → legs
    measured = reused.measurement if reused else measure(options, plan, progress)
    # Nothing checked out (a tool missing, the clone failed): there is no tree to find the
    # SDK's baseline in, and "not found in the checkout" would be a second, false reason.
    no_tree = measured.checkout_path is None and plan.origin != "url"
    baselines = Baselines({}) if no_tree else find_baselines(plan.revisions, measured.checkout_path)
    judged = judge(
        plan.revisions,
        measured.verdicts,
        baselines,
        repo=plan.target.repo,
        governance=governance,
        entry=plan.target.entry,
        checkout=measured.checkout_path,
        now=started_at,
        progress=progress,
        interrupted=measured.interrupted,
    )
    artifacts = Artifacts(
        out_dir=str(options.out_dir), raw=str(options.out_dir / "raw"), logs=dict(measured.logs)
    )
    harness = harness_facts(measured, options.settings.harness_version)
    if reused:
        harness = dataclasses.replace(harness, node_version=reused.run.node_version)
    doc = finish_scorecard(
        plan,
        measured,
        judged,
        harness=harness,
        tiercheck=tiercheck_facts(options.run_id, [p.revision for p in plan.revisions]),
        artifacts=artifacts,
        finished_at=now_utc(),
    )
    if reused:
        doc = dataclasses.replace(
            doc,
            history=HistoryBlock(
                database=None,
                reused_from=reused.run.run_id,
                reused_timestamp=reused.run.timestamp.isoformat().replace("+00:00", "Z"),
            ),
        )
    return doc


def score_results(
    inputs: Sequence[tuple[str, Path | None, Path | None]],
    *,
    repo: str,
    baselines: Mapping[str, Path],
) -> Scorecard:
    """A scorecard from raw results produced elsewhere: (revision, server dir, client dir).

    A leg given no folder is skipped; a folder without any checks.json is unmeasured. Nothing
    is run and GitHub is not asked (governance is reported skipped).
    """
    from tiercheck.conformance.harness import PACKAGE
    from tiercheck.pipeline.assess.silent import NullProgress

    target = Target(name=repo.rsplit("/", 1)[-1], repo=repo, ref=None, entry=None, path=None)
    revisions, measured = _read_results(inputs)
    plan = Plan(target, "results", decide_ref(target, "results"), revisions)
    now = now_utc()
    judged = judge(
        plan.revisions,
        measured.verdicts,
        # `score` takes one file per revision, for both legs.
        Baselines({(rev, leg): path for rev, path in baselines.items() for leg in LEGS}),
        repo=repo,
        governance=GovernanceOptions(skip=True),
        entry=None,
        checkout=None,
        now=now,
        progress=NullProgress(),
        interrupted=False,
    )
    return finish_scorecard(
        plan,
        measured,
        judged,
        harness=HarnessBlock(package=PACKAGE, version=None, node_version=None),
        tiercheck=tiercheck_facts("score", [p.revision for p in plan.revisions]),
        artifacts=Artifacts(out_dir=None, raw=None, logs={}),
        finished_at=now,
    )


def _refuse_unreadable(results: Sequence[ScenarioResult]) -> None:
    """`score` is given results to judge: an unreadable `checks.json` is bad input (exit 2),
    named, never a failed scenario of the SDK's."""
    for result in results:
        if result.parse_error is not None:
            path = str(result.path / "checks.json")
            error = result.parse_error
            named = error if path in error else f"{path}: {error}"
            raise ConfigError(f"unreadable harness output: {named}")


def _read_results(
    inputs: Sequence[tuple[str, Path | None, Path | None]],
) -> tuple[tuple[RevisionPlan, ...], Measurement]:
    """The legs of `tier-check score`: scored from the folders given instead of run."""
    from tiercheck.config.requirements import load_requirement_set
    from tiercheck.config.resolve import ConfigFlags, resolve
    from tiercheck.conformance.results import parse_results
    from tiercheck.scoring import score_leg, skipped_leg, unmeasured_leg

    revisions: list[RevisionPlan] = []
    verdicts: dict[tuple[str, Leg], LegVerdict] = {}
    unmeasured: list[Unmeasured] = []
    for revision, server_dir, client_dir in inputs:
        rset = load_requirement_set(revision)  # an unknown revision is a one-line ConfigError
        config = resolve(None, revision, environ={}, flags=ConfigFlags())
        revisions.append(RevisionPlan(revision, config, rset))
        folders: dict[Leg, Path | None] = {"server": server_dir, "client": client_dir}
        for leg, folder in folders.items():
            if folder is None:
                verdict = skipped_leg(leg, revision, "no results given")
            elif not folder.is_dir():
                msg = f"--{leg}-results {folder}: not a directory"
                raise UsageError(msg)
            elif results := parse_results(folder, leg):
                _refuse_unreadable(results)
                verdict = score_leg(leg, revision, results, rset, results_dir=folder)
            else:
                reason = f"no checks.json under {folder}"
                verdict = unmeasured_leg(leg, revision, reason, results_dir=folder)
                unmeasured.append(Unmeasured(f"{leg} leg {revision}", reason))
            verdicts[(revision, leg)] = verdict
    measured = Measurement(
        verdicts=verdicts,
        server_urls={},
        checkout_path=None,
        commit=None,
        harness=None,
        build=None,
        logs={},
        unmeasured=tuple(unmeasured),
        timings={},
        interrupted=False,
    )
    return tuple(revisions), measured
