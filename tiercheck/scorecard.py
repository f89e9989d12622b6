"""The scorecard document: every measured fact of one assessment, in one JSON-ready mapping.

Pure: verdicts, signals and the tier in; a dict that validates against
`schemas/scorecard.schema.json` out. The document is a superset of the official
`tier-check --output json`: official fields keep their names and meanings, ours sit beside them.
Formatters (`tiercheck.report`) read only this document, so a saved scorecard can be rendered
again or compared with another one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tiercheck.baseline import BaselineVerdict
from tiercheck.governance.signals import CHECK_NAMES
from tiercheck.scoring import LegVerdict, MergedLeg
from tiercheck.tier import LegSummary

__all__ = [
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "ScorecardParts",
    "build_scorecard",
    "exit_code_for",
    "leg_summary",
]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_INTERRUPTED = 130


def leg_summary(merged: MergedLeg) -> LegSummary:
    """What the tier needs of a merged leg; partially measured counts as unmeasured."""
    if merged.state == "measured":
        return LegSummary("measured", merged.pass_rate)
    if merged.state == "skipped":
        return LegSummary("skipped", 0.0, merged.reason)
    return LegSummary("unmeasured", merged.pass_rate, merged.reason)


def exit_code_for(
    server: MergedLeg,
    client: MergedLeg,
    baseline: BaselineVerdict | None,
    *,
    interrupted: bool,
) -> int:
    """The documented exit code: 130 interrupted; 1 on a failed scored scenario, an unmeasured
    leg or (with a baseline) an unexpected failure or stale entry; else 0."""
    if interrupted:
        return EXIT_INTERRUPTED
    legs = (server, client)
    if any(leg.state in ("unmeasured", "partially-measured") for leg in legs):
        return EXIT_FAILED
    if baseline is not None:
        return EXIT_OK if baseline.exit_ok else EXIT_FAILED
    return EXIT_FAILED if any(leg.failed > 0 for leg in legs) else EXIT_OK


@dataclass(frozen=True)
class ScorecardParts:
    """Everything that goes into one scorecard, already computed."""

    repo: str
    branch: str | None
    finished_at: datetime
    revisions: Sequence[str]
    sdk: Mapping[str, Any]
    harness: Mapping[str, Any]
    tiercheck: Mapping[str, Any]
    server: MergedLeg
    client: MergedLeg
    per_revision: Mapping[str, Mapping[str, LegVerdict]]
    server_urls: Mapping[str, str]
    configs: Mapping[str, Mapping[str, Any]]
    governance_checks: Mapping[str, Mapping[str, Any]]
    governance_meta: Mapping[str, Any]
    implied_tier: Mapping[str, Any]
    stable_version: str | None
    baseline: BaselineVerdict | None
    baseline_files: Mapping[str, str]
    build: Mapping[str, Any] | None
    unmeasured: Sequence[Mapping[str, str]]
    timings: Mapping[str, float]
    artifacts: Mapping[str, Any]
    interrupted: bool
    exit_code: int


def _baseline_by_scenario(baseline: BaselineVerdict | None) -> dict[tuple[str, str, str], str]:
    """(revision, leg, scenario) → the scenario's baseline outcome (worst of its entries)."""
    rank = {"unexpected-failure": 4, "stale": 3, "expected-failure": 2, "not-run": 1, "pass": 0}
    found: dict[tuple[str, str, str], str] = {}
    for outcome in baseline.outcomes if baseline else ():
        key = (outcome.revision, outcome.leg, outcome.scenario)
        if rank.get(outcome.outcome, 0) >= rank.get(found.get(key, "pass"), 0):
            found[key] = outcome.outcome
    return found


def _leg_dict(
    leg: LegVerdict | MergedLeg, outcomes: Mapping[tuple[str, str, str], str]
) -> dict[str, Any]:
    data = leg.to_dict()
    details = data.get("details")
    if isinstance(details, list):
        for detail in details:
            key = (detail["revision"], leg.leg, detail["scenario"])
            if key in outcomes:
                detail["baseline"] = outcomes[key]
    return data


def _baseline_dict(parts: ScorecardParts) -> dict[str, Any] | None:
    if parts.baseline is None:
        return None
    return {
        "exit_ok": parts.baseline.exit_ok,
        "files": dict(parts.baseline_files),
        "expected_failures": len(parts.baseline.of("expected-failure")),
        "unexpected_failures": len(parts.baseline.of("unexpected-failure")),
        "stale": len(parts.baseline.of("stale")),
        "entries": [o.to_dict() for o in parts.baseline.outcomes],
    }


def build_scorecard(parts: ScorecardParts) -> dict[str, Any]:
    """The scorecard document (without `remediation`, which the report layer derives)."""
    outcomes = _baseline_by_scenario(parts.baseline)
    checks: dict[str, Any] = {
        "conformance": _leg_dict(parts.server, outcomes),
        "client_conformance": _leg_dict(parts.client, outcomes),
    }
    for name in CHECK_NAMES:
        checks[name] = dict(parts.governance_checks[name])
    revisions: dict[str, Any] = {}
    for revision, legs in parts.per_revision.items():
        revisions[revision] = {
            leg: _leg_dict(legs[leg], outcomes)
            | {"duration_s": parts.timings.get(f"{leg} {revision}")}
            for leg in ("server", "client")
        }
        revisions[revision] |= {
            "server_url": parts.server_urls.get(revision),
            "config": dict(parts.configs.get(revision, {})),
        }
    return {
        "repo": parts.repo,
        "branch": parts.branch,
        "timestamp": parts.finished_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "version": parts.stable_version,
        "requirements_revisions": list(parts.revisions),
        "checks": checks,
        "implied_tier": dict(parts.implied_tier),
        "tiercheck": dict(parts.tiercheck),
        "sdk": dict(parts.sdk),
        "harness": dict(parts.harness),
        "revisions": revisions,
        "baseline": _baseline_dict(parts),
        "build": None if parts.build is None else dict(parts.build),
        "governance": dict(parts.governance_meta),
        "unmeasured": [dict(u) for u in parts.unmeasured],
        "timings": dict(parts.timings),
        "artifacts": dict(parts.artifacts),
        "interrupted": parts.interrupted,
        "exit_code": parts.exit_code,
    }
