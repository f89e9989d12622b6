"""Step 7, scorecard: the plan, the measurement and the judgement as one scorecard document."""

from __future__ import annotations

import dataclasses
from datetime import datetime

from tiercheck.model import from_json
from tiercheck.pipeline.assess.compare import comparison_block
from tiercheck.pipeline.assess.judge import Judgement
from tiercheck.pipeline.assess.measure import Measurement
from tiercheck.pipeline.assess.plan import Plan
from tiercheck.revisions import LEGS
from tiercheck.scorecard.build import ScorecardParts, build_scorecard, signal_entries
from tiercheck.scorecard.model import (
    Artifacts,
    HarnessBlock,
    ProbesBlock,
    Scorecard,
    SdkBlock,
    ToolBlock,
)
from tiercheck.scorecard.remediation import remediation
from tiercheck.scoring import LegVerdict

__all__ = ["finish_scorecard"]


def finish_scorecard(
    plan: Plan,
    measured: Measurement,
    judged: Judgement,
    *,
    harness: HarnessBlock,
    tiercheck: ToolBlock,
    artifacts: Artifacts,
    finished_at: datetime,
) -> Scorecard:
    """The scorecard document, remediation included."""
    target, revisions = plan.target, plan.revisions
    per_revision = _per_revision(plan, measured, judged)
    sdk = _sdk_block(plan, measured)
    parts = ScorecardParts(
        repo=target.repo,
        branch=plan.ref.branch or measured.branch,
        finished_at=finished_at,
        revisions=[p.revision for p in revisions],
        sdk=sdk,
        harness=harness,
        tiercheck=tiercheck,
        server=judged.server,
        client=judged.client,
        per_revision=per_revision,
        server_urls=measured.server_urls,
        configs={p.revision: p.config for p in revisions},
        checks=signal_entries(judged.signals),
        governance=judged.governance,
        implied_tier=judged.implied,
        stable_version=judged.signals.stable_release.version,
        baseline=judged.baseline,
        baseline_files=judged.baseline_files,
        build=measured.build,
        unmeasured=[(u.what, u.reason) for u in (*measured.unmeasured, *judged.unmeasured)],
        timings=measured.timings,
        artifacts=artifacts,
        interrupted=measured.interrupted,
        exit_code=judged.exit_code,
        probes={
            revision: from_json(ProbesBlock, report.to_dict(), f"revisions.{revision}.probes")
            for revision, report in measured.probes.items()
        },
        release_days=judged.release_days,
        rerun=measured.rerun,
        rerun_s=measured.rerun_s,
    )
    doc = build_scorecard(parts)
    compared = None
    if measured.compare is not None:
        compared = comparison_block(
            measured.compare,
            harness.version or "unknown",
            [p.revision for p in revisions],
            measured.verdicts,
            measured.compared,
        )
    return dataclasses.replace(doc, remediation=remediation(doc), harness_comparison=compared)


def _per_revision(
    plan: Plan, measured: Measurement, judged: Judgement
) -> dict[str, dict[str, LegVerdict]]:
    """Each revision's two legs: the judged part (with each scenario's dispute attached) where
    the judge merged one, else the verdict as measured."""
    judged_parts = {
        (part.revision, merged.leg): part
        for merged in (judged.server, judged.client)
        for part in merged.parts
    }
    return {
        p.revision: {
            leg: judged_parts.get((p.revision, leg), measured.verdicts[(p.revision, leg)])
            for leg in LEGS
        }
        for p in plan.revisions
    }


def _sdk_block(plan: Plan, measured: Measurement) -> SdkBlock:
    """What the scorecard says of the SDK: its name, the ref and commit measured, and where the
    code and its configuration came from."""
    return SdkBlock(
        name=plan.target.name,
        # Nothing named and no registry default: the branch the clone resolved to.
        ref=plan.ref.ref or measured.branch,
        commit=measured.commit,
        path=str(measured.checkout_path) if measured.checkout_path else None,
        origin=plan.origin,
        tag=measured.tag,
        release=measured.release,
        # Results scored elsewhere (`tier-check score`) were configured by no registry at all.
        registered=None if plan.origin == "results" else plan.target.entry is not None,
    )
