"""One run as the history keeps it, read from a typed scorecard (pure).

The same function reads a scorecard just produced and one loaded from a saved folder
(`tier-check history import`), so both fill the history with the same rows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from tiercheck.revisions import LEGS
from tiercheck.scorecard.model import Scorecard

__all__ = [
    "LegRow",
    "RunRecord",
    "ScenarioRow",
    "config_digest",
    "parse_time",
    "record_of",
    "run_key",
    "signals_digest",
]


@dataclass(frozen=True)
class LegRow:
    """One leg at one revision: whether it was measured (and why not), and its score."""

    revision: str
    leg: str
    state: str
    reason: str | None
    pass_rate: float
    passed: int
    total: int


@dataclass(frozen=True)
class ScenarioRow:
    """One scenario of a measured leg: verdict, scored or not, first failing check."""

    revision: str
    leg: str
    scenario: str
    passed: bool
    scored: bool
    check: str | None
    message: str | None


@dataclass(frozen=True)
class RunRecord:
    """Everything the history stores of one run."""

    run_id: str
    timestamp: datetime
    sdk: str
    repo: str
    ref: str | None
    commit: str | None
    tiercheck_version: str
    harness_version: str | None
    node_version: str | None
    revisions: tuple[str, ...]
    config_digest: str
    tier: int
    blockers: tuple[str, ...]
    governance_digest: str
    signals: Mapping[str, str]
    interrupted: bool
    legs: tuple[LegRow, ...]
    scenarios: tuple[ScenarioRow, ...]
    #: The digest of the requirement sets the run was scored against; None when unknown (a
    #: scorecard older than the field). Runs are compared only under the same one.
    requirements_digest: str | None = None

    def leg(self, revision: str, leg: str) -> LegRow | None:
        """The leg row of (revision, leg), if the run planned it."""
        return next((r for r in self.legs if r.revision == revision and r.leg == leg), None)

    @property
    def all_measured(self) -> bool:
        """Whether every leg the run planned was measured (skipped legs excepted)."""
        return not self.interrupted and all(r.state in ("measured", "skipped") for r in self.legs)


def run_key(record: RunRecord) -> str:
    """What makes a run itself: a run id is only a folder name, unique per SDK line at most."""
    text = "\x1f".join(
        (
            record.sdk,
            record.run_id,
            record.timestamp.isoformat(),
            record.commit or "",
            record.ref or "",
        )
    )
    return hashlib.sha256(text.encode()).hexdigest()


def parse_time(text: str) -> datetime:
    """An ISO timestamp of a scorecard (`2026-08-20T09:15:00Z`), aware, in UTC."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)


def _digest(data: object) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def config_digest(configs: Mapping[str, Mapping[str, object]]) -> str:
    """A digest of the resolved configuration: revision → key → value (sources left out: where
    a value came from does not change what is measured)."""
    return _digest({rev: dict(values) for rev, values in sorted(configs.items())})


def signals_digest(signals: Mapping[str, object]) -> str:
    """A digest of the governance signals as judged."""
    return _digest(signals)


def record_of(doc: Scorecard) -> RunRecord:
    """The history's record of a scorecard."""
    legs: list[LegRow] = []
    scenarios: list[ScenarioRow] = []
    for revision, entry in doc.revisions.items():
        for leg in LEGS:
            part = entry.server if leg == "server" else entry.client
            legs.append(
                LegRow(
                    revision,
                    leg,
                    part.state,
                    part.reason,
                    part.pass_rate,
                    part.passed,
                    part.total,
                )
            )
            if part.state != "measured":
                continue  # an unmeasured leg has no verdicts: never recorded as failing
            for d in part.details:
                first = d.failures[0] if d.failures else None
                scenarios.append(
                    ScenarioRow(
                        revision,
                        leg,
                        d.scenario,
                        d.passed,
                        d.scored,
                        first.id if first else None,
                        first.message if first else d.reason,
                    )
                )
    configs = {
        rev: {key: c.value for key, c in entry.config.items()}
        for rev, entry in doc.revisions.items()
    }
    signals = {name: doc.checks.signal(name) for name in _SIGNALS}
    return RunRecord(
        run_id=doc.tiercheck.run_id,
        timestamp=parse_time(doc.timestamp),
        sdk=doc.sdk.name,
        repo=doc.repo,
        ref=doc.sdk.ref,
        commit=doc.sdk.commit,
        tiercheck_version=doc.tiercheck.version,
        harness_version=doc.harness.version,
        node_version=doc.harness.node_version,
        revisions=tuple(doc.revisions),
        config_digest=config_digest(configs),
        tier=doc.implied_tier.tier,
        blockers=(*doc.implied_tier.tier1_blockers, *doc.implied_tier.tier2_blockers),
        governance_digest=signals_digest(
            {n: {"status": s.status, "reason": s.reason, **s.facts} for n, s in signals.items()}
        ),
        signals={name: s.status for name, s in signals.items()},
        interrupted=doc.interrupted,
        legs=tuple(legs),
        scenarios=tuple(scenarios),
        requirements_digest=doc.tiercheck.requirements_digest,
    )


_SIGNALS = (
    "labels",
    "triage",
    "p0_resolution",
    "stable_release",
    "policy_signals",
    "spec_tracking",
)
