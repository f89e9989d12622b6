"""One whole assessment: the conformance half, then baselines, governance, tier and scorecard.

`assess` is what `tier-check --sdk …` runs; `score_results` is what `tier-check score` runs on
results produced elsewhere. Both end in the same scorecard document.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from tiercheck.baseline import BaselineOutcome, BaselineVerdict, apply_baseline
from tiercheck.config.baseline import load_baseline
from tiercheck.errors import ConfigError, UsageError
from tiercheck.governance.obtain import GovernanceOptions, obtain_signals
from tiercheck.governance.signals import CHECK_NAMES, GovernanceSignals
from tiercheck.pipeline import (
    AssessOptions,
    ConformanceOutcome,
    ProgressSink,
    harness_facts,
    leg_verdicts,
    now_utc,
    run_conformance,
    tiercheck_facts,
)
from tiercheck.revisions import LEGS, Leg
from tiercheck.scorecard import ScorecardParts, build_scorecard, exit_code_for, leg_summary
from tiercheck.scoring import LegVerdict, merge_revisions
from tiercheck.tier import compute_tier

__all__ = ["GovernanceOptions", "assess", "evaluate_governance", "finish_scorecard"]


def evaluate_governance(
    repo: str,
    options: GovernanceOptions,
    *,
    entry: Any,
    checkout: Path | None,
    now: datetime,
    progress: ProgressSink,
) -> tuple[GovernanceSignals, dict[str, Any]]:
    """The six signals plus the scorecard's `governance` block; never raises for GitHub trouble."""
    if not options.skip and options.snapshot is None:
        progress.step("governance", f"collecting {repo} from {options.api_url}")
    obtained = obtain_signals(
        repo, options, entry=entry, checkout=checkout, now=now, log=progress.warn
    )
    if obtained.snapshot is not None:
        progress.done("governance", f"{obtained.source}, as of {obtained.signals.as_of:%Y-%m-%d}")
    return obtained.signals, obtained.meta()


def apply_baselines(
    outcome: ConformanceOutcome, files: Mapping[str, Path]
) -> tuple[BaselineVerdict | None, dict[str, str]]:
    """Apply each revision's expected-failures file to that revision's measured legs."""
    outcomes: list[BaselineOutcome] = []
    normal = 0
    applied: dict[str, str] = {}
    for plan in outcome.plans:
        path = files.get(plan.revision)
        if path is None:
            continue
        legs = [outcome.leg(plan.revision, leg) for leg in LEGS]
        measured = [leg for leg in legs if leg.state == "measured"]
        verdict = apply_baseline(load_baseline(path), measured)
        outcomes.extend(verdict.outcomes)
        normal += verdict.normal_passes
        applied[plan.revision] = str(path)
    if not applied:
        return None, applied
    merged = BaselineVerdict(", ".join(applied.values()), tuple(outcomes), normal)
    return merged, applied


def _baseline_files(outcome: ConformanceOutcome, *, explicit: bool) -> dict[str, Path]:
    """Each revision's configured expected-failures file, relative to the checkout.

    A configured file that does not exist at this commit is noted as unmeasured (the baseline
    could not be judged), not an error: older refs predate their baselines. A file named on the
    command line must exist.
    """
    files: dict[str, Path] = {}
    for plan in outcome.plans:
        name = plan.config.expected_failures
        if not name:
            continue
        base = outcome.checkout_path or Path.cwd()
        path = Path(name) if Path(name).is_absolute() else base / name
        if path.is_file():
            files[plan.revision] = path
        elif explicit:
            msg = f"{path}: expected-failures file not found"
            raise ConfigError(msg)
        else:
            reason = f"{name} not found in the checkout"
            outcome.unmeasured.append({"what": f"baseline {plan.revision}", "reason": reason})
    return files


def finish_scorecard(
    *,
    repo: str,
    branch: str | None,
    outcome: ConformanceOutcome,
    sdk: Mapping[str, Any],
    harness: Mapping[str, Any],
    run: str,
    signals: GovernanceSignals,
    governance_meta: Mapping[str, Any],
    baseline: BaselineVerdict | None,
    baseline_files: Mapping[str, str],
    artifacts: Mapping[str, Any],
    finished_at: datetime,
) -> dict[str, Any]:
    """Merge revisions, compute the tier and exit code, and build the scorecard document."""
    from tiercheck.report.remediation import remediation

    server = merge_revisions(leg_verdicts(outcome, "server"))
    client = merge_revisions(leg_verdicts(outcome, "client"))
    implied = compute_tier(leg_summary(server), leg_summary(client), signals)
    governance = signals.to_dict()
    per_revision: dict[str, dict[str, LegVerdict]] = {
        plan.revision: {leg: outcome.leg(plan.revision, leg) for leg in LEGS}
        for plan in outcome.plans
    }
    parts = ScorecardParts(
        repo=repo,
        branch=branch,
        finished_at=finished_at,
        revisions=[p.revision for p in outcome.plans],
        sdk=sdk,
        harness=harness,
        tiercheck=tiercheck_facts(run),
        server=server,
        client=client,
        per_revision=per_revision,
        server_urls=outcome.server_urls,
        configs={p.revision: p.config.to_dict() for p in outcome.plans},
        governance_checks={name: governance[name] for name in CHECK_NAMES},
        governance_meta=governance_meta,
        implied_tier=implied.to_dict(),
        stable_version=signals.stable_release.version,
        baseline=baseline,
        baseline_files=baseline_files,
        build=outcome.build,
        unmeasured=outcome.unmeasured,
        timings=outcome.timings,
        artifacts=artifacts,
        interrupted=outcome.interrupted,
        exit_code=exit_code_for(server, client, baseline, interrupted=outcome.interrupted),
    )
    doc = build_scorecard(parts)
    doc["remediation"] = remediation(doc)
    return doc


def assess(
    options: AssessOptions,
    governance: GovernanceOptions,
    progress: ProgressSink,
    *,
    started_at: datetime,
    explicit_baseline: bool = False,
) -> dict[str, Any]:
    """Run a whole assessment and return its scorecard document (exit code inside)."""
    outcome = run_conformance(options, progress)
    baseline, files = apply_baselines(outcome, _baseline_files(outcome, explicit=explicit_baseline))
    target = options.target
    if outcome.interrupted:
        governance = dataclasses.replace(governance, skip=True)
    signals, meta = evaluate_governance(
        target.repo,
        governance,
        entry=target.entry,
        checkout=outcome.checkout_path,
        now=started_at,
        progress=progress,
    )
    sdk = {
        "name": target.name,
        "ref": target.ref or outcome.branch,
        "commit": outcome.commit,
        "path": str(outcome.checkout_path) if outcome.checkout_path else None,
        "origin": outcome.origin,
    }
    artifacts = {
        "out_dir": str(options.out_dir),
        "raw": str(options.out_dir / "raw"),
        "logs": dict(outcome.logs),
    }
    return finish_scorecard(
        repo=target.repo,
        branch=outcome.branch or target.ref,
        outcome=outcome,
        sdk=sdk,
        harness=harness_facts(outcome, options.harness_version),
        run=options.out_dir.name,
        signals=signals,
        governance_meta=meta,
        baseline=baseline,
        baseline_files=files,
        artifacts=artifacts,
        finished_at=now_utc(),
    )


def score_results(
    inputs: Sequence[tuple[str, Path | None, Path | None]],
    *,
    repo: str,
    baselines: Mapping[str, Path],
) -> dict[str, Any]:
    """A scorecard from raw results produced elsewhere: (revision, server dir, client dir).

    A leg given no folder is skipped; a folder without any checks.json is unmeasured. Nothing
    is run and GitHub is not asked (governance is reported skipped).
    """
    from tiercheck.config.requirements import load_requirement_set
    from tiercheck.config.resolve import resolve
    from tiercheck.conformance.harness import PACKAGE
    from tiercheck.conformance.results import parse_results
    from tiercheck.pipeline import RevisionPlan
    from tiercheck.report.progress import NullProgress
    from tiercheck.scoring import score_leg, skipped_leg, unmeasured_leg

    outcome = ConformanceOutcome(plans=[], origin="results")
    for revision, server_dir, client_dir in inputs:
        rset = load_requirement_set(revision)  # an unknown revision is a one-line ConfigError
        config = resolve(None, revision, environ={}, flags={})
        outcome.plans.append(RevisionPlan(revision, config, rset))
        folders: dict[Leg, Path | None] = {"server": server_dir, "client": client_dir}
        for leg, folder in folders.items():
            if folder is None:
                verdict = skipped_leg(leg, revision, "no results given")
            elif not folder.is_dir():
                msg = f"--{leg}-results {folder}: not a directory"
                raise UsageError(msg)
            elif results := parse_results(folder, leg):
                verdict = score_leg(leg, revision, results, rset, results_dir=folder)
            else:
                reason = f"no checks.json under {folder}"
                verdict = unmeasured_leg(leg, revision, reason, results_dir=folder)
                outcome.unmeasured.append({"what": f"{leg} leg {revision}", "reason": reason})
            outcome.legs[(revision, leg)] = verdict
    baseline, files = apply_baselines(outcome, baselines)
    now = now_utc()
    signals, meta = evaluate_governance(
        repo,
        GovernanceOptions(skip=True),
        entry=None,
        checkout=None,
        now=now,
        progress=NullProgress(),
    )
    return finish_scorecard(
        repo=repo,
        branch=None,
        outcome=outcome,
        sdk={
            "name": repo.rsplit("/", 1)[-1],
            "ref": None,
            "commit": None,
            "path": None,
            "origin": "results",
        },
        harness={"package": PACKAGE, "version": None, "node_version": None},
        run="score",
        signals=signals,
        governance_meta=meta,
        baseline=baseline,
        baseline_files=files,
        artifacts={"out_dir": None, "raw": None, "logs": {}},
        finished_at=now,
    )
