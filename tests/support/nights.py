"""Synthetic nightly histories from typed scorecards (no harness, no processes).

Each night of each SDK line is a whole scorecard built through the real builders
(`support.scorecards`), turned into the history's record by the real `record_of`, exactly as a
finished assessment is. What a test states is only what that night measured: which scored
scenarios failed, which legs were unmeasured, the tier, the harness version.

`thirty_nights()` is the story the dashboard tests tell (worked out by hand):

* ``alpha-sdk`` (Tier 1): `tools-call-image` at 2025-11-25 (server) fails on nights 12, 13 and
  14 and the tier drops to 2 — a regression on night 12, fixed on night 15; its server leg at
  2025-11-25 is unmeasured on night 20 (a leg newly unmeasured: a regression that night, ended
  on night 21 when it is measured again).
* ``beta-sdk`` (Tier 2): `auth/scope-step-up` at 2025-11-25 (client) fails every night (never
  passed: not a regression); it runs the new harness from night 25, where `ping` also fails —
  marked, not a regression; on night 26 (same harness as 25) `ping` still fails: not new.
* ``gamma-sdk`` (Tier 1): green every night.
"""

from __future__ import annotations

__all__ = [
    "HARNESS_CHANGE_NIGHT",
    "LINES",
    "NEVER_PASSES",
    "NEW_HARNESS",
    "NEW_HARNESS_FAILURE",
    "NIGHT1",
    "OLD_HARNESS",
    "R1",
    "R2",
    "REGRESSED",
    "REGRESSION_NIGHTS",
    "SCENARIOS",
    "UNMEASURED_NIGHT",
    "alpha",
    "beta",
    "dispute",
    "gamma",
    "night",
    "night_scorecard",
    "records",
    "scorecard_folder",
    "thirty_nights",
    "with_disputes",
]

import dataclasses
import functools
from collections.abc import Collection, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

from support.scorecards import (
    R1,
    R2,
    check,
    implied,
    labels,
    measured_leg,
    p0,
    policy,
    release,
    scenario,
    scorecard,
    spec_tracking,
    triage,
)
from tiercheck.history.files import requirements_digest
from tiercheck.history.record import RunRecord, record_of
from tiercheck.revisions import Leg
from tiercheck.scorecard.model import LegEntry, ScenarioDispute, Scorecard
from tiercheck.scoring import LegVerdict, unmeasured_leg
from tiercheck.tier import Blocker

NIGHT1 = datetime(2026, 10, 1, 3, 0, tzinfo=UTC)
OLD_HARNESS = "0.2.0-alpha.10"
NEW_HARNESS = "0.2.0-alpha.12"

#: The scored scenarios of each revision × leg (a small, fixed requirement set).
SCENARIOS: Mapping[tuple[str, Leg], tuple[str, ...]] = {
    (R1, "server"): ("server-initialize", "ping", "tools-list", "tools-call-image"),
    (R1, "client"): ("initialize", "tools_call", "auth/scope-step-up"),
    (R2, "server"): ("server-stateless", "tools-list"),
    (R2, "client"): ("initialize", "tools_call"),
}
UNREADY = "server never became ready within 30 s"

#: Where a scenario is: (revision, leg, name).
Where = tuple[str, Leg, str]


def night(n: int) -> datetime:
    """Night `n` (1-based): 03:00 UTC, one day apart from 1 October 2026."""
    return NIGHT1 + timedelta(days=n - 1)


def _signals() -> dict[str, dict[str, object]]:
    return {
        "labels": labels(),
        "triage": triage(),
        "p0_resolution": p0(),
        "stable_release": release("2.1.0"),
        "policy_signals": policy(),
        "spec_tracking": spec_tracking(3, "2.1.0"),
    }


def _leg(revision: str, leg: Leg, failing: Collection[Where], unmeasured: bool) -> LegVerdict:
    if unmeasured:
        return unmeasured_leg(leg, revision, UNREADY)
    return measured_leg(
        revision,
        leg,
        [
            scenario(name, passed=False, failing=[check(f"{name}-check", "wrong answer")])
            if (revision, leg, name) in failing
            else scenario(name)
            for name in SCENARIOS[(revision, leg)]
        ],
    )


def night_scorecard(
    line: str,
    n: int,
    *,
    failing: Collection[Where] = (),
    unmeasured: Collection[tuple[str, Leg]] = (),
    tier: int = 1,
    harness: str = NEW_HARNESS,
    revisions: Sequence[str] = (R1, R2),
    commit: str | None = None,
    disputed: Mapping[Where, Literal["open", "resolved"]] | None = None,
    ref: str | None = None,
) -> Scorecard:
    """Night `n`'s scorecard of `line`: the named scenarios failing, the named legs
    unmeasured, the named scenarios disputed (their dispute open or resolved that night),
    everything else passing; the tier as given (its blockers named after the failures)."""
    legs: dict[str, dict[Leg, LegVerdict]] = {
        rev: {
            leg: _leg(rev, leg, failing, (rev, leg) in unmeasured) for leg in ("server", "client")
        }
        for rev in revisions
    }
    # The official blocker of a failing scored scenario: its leg's conformance check.
    blockers = sorted(
        {Blocker(check=f"{leg}_conformance", tier=1) for _, leg, _ in failing},
        key=lambda b: b.check,
    )
    doc = scorecard(
        legs=legs,
        signals=_signals(),
        tier=implied(tier, blockers if tier > 1 else []),
        name=line,
        harness_version=harness,
    )
    moment = night(n)
    doc = dataclasses.replace(
        doc,
        timestamp=moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        tiercheck=dataclasses.replace(
            doc.tiercheck,
            run_id=moment.strftime("%Y%m%dT%H%M%SZ"),
            requirements_digest=requirements_digest(list(revisions)),
        ),
        sdk=dataclasses.replace(
            doc.sdk, commit=commit or f"{n:02d}" * 20, **({"ref": ref} if ref else {})
        ),
    )
    return with_disputes(doc, disputed or {})


def with_disputes(
    doc: Scorecard, disputed: Mapping[Where, Literal["open", "resolved"]]
) -> Scorecard:
    """`doc` with each scenario `disputed` names carrying its dispute (open or resolved on the
    night judged), as the judge step records it."""
    return dataclasses.replace(
        doc,
        revisions={
            rev: dataclasses.replace(
                entry,
                server=_disputed(rev, "server", entry.server, disputed),
                client=_disputed(rev, "client", entry.client, disputed),
            )
            for rev, entry in doc.revisions.items()
        },
    )


#: The conformance issue every synthetic dispute names.
DISPUTE_ISSUE = "https://github.com/modelcontextprotocol/conformance/issues/245"


def dispute(state: Literal["open", "resolved"]) -> ScenarioDispute:
    """A dispute in `state` on the night judged, confirmed by the snapshot."""
    return ScenarioDispute(
        state=state,
        verified=True,
        issue=DISPUTE_ISSUE,
        reason="the check reads the spec more strictly than it says",
        why="labelled disputed that day",
    )


def _disputed(
    revision: str, leg: Leg, entry: LegEntry, disputed: Mapping[Where, Literal["open", "resolved"]]
) -> LegEntry:
    """`entry` with each scenario `disputed` names carrying its dispute."""
    mine = {w[2]: state for w, state in disputed.items() if w[:2] == (revision, leg)}
    if not mine:
        return entry
    details = tuple(
        dataclasses.replace(d, dispute=dispute(mine[d.scenario])) if d.scenario in mine else d
        for d in entry.details
    )
    return dataclasses.replace(entry, details=details)


REGRESSED: Where = (R1, "server", "tools-call-image")
NEVER_PASSES: Where = (R1, "client", "auth/scope-step-up")
NEW_HARNESS_FAILURE: Where = (R1, "server", "ping")
REGRESSION_NIGHTS = range(12, 15)
UNMEASURED_NIGHT = 20
HARNESS_CHANGE_NIGHT = 25


def alpha(n: int) -> Scorecard:
    """alpha-sdk on night `n` (see the module's story)."""
    regressed = n in REGRESSION_NIGHTS
    return night_scorecard(
        "alpha-sdk",
        n,
        failing=[REGRESSED] if regressed else [],
        unmeasured=[(R1, "server")] if n == UNMEASURED_NIGHT else [],
        tier=2 if regressed else 1,
    )


def beta(n: int) -> Scorecard:
    """beta-sdk on night `n` (see the module's story)."""
    new = n >= HARNESS_CHANGE_NIGHT
    return night_scorecard(
        "beta-sdk",
        n,
        failing=[NEVER_PASSES, *([NEW_HARNESS_FAILURE] if new else [])],
        tier=2,
        harness=NEW_HARNESS if new else OLD_HARNESS,
    )


def gamma(n: int) -> Scorecard:
    """gamma-sdk on night `n`: green."""
    return night_scorecard("gamma-sdk", n)


LINES = {"alpha-sdk": alpha, "beta-sdk": beta, "gamma-sdk": gamma}


def thirty_nights(nights: int = 30) -> list[Scorecard]:
    """Every line's scorecard of every night, night by night."""
    return list(_nights(nights))


@functools.cache
def _nights(nights: int) -> tuple[Scorecard, ...]:
    # Made once per count: the scorecards are frozen and every test only reads them.
    return tuple(make(n) for n in range(1, nights + 1) for make in LINES.values())


def records(docs: Sequence[Scorecard]) -> list[RunRecord]:
    """The history's records of `docs`."""
    return [record_of(doc) for doc in docs]


def scorecard_folder(root: Path, doc: Scorecard) -> Path:
    """Where a night's scorecard folder would be: `root/<line>/<run id>`."""
    return root / doc.sdk.name / doc.tiercheck.run_id
