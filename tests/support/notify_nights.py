"""Simulated nights of a nightly matrix line, as typed scorecards in a real history database.

Each night's scorecard is built by the real scorer (`support.scorecards`): ten scored server
scenarios and two client scenarios at 2025-11-25, every governance signal passing. Its implied
tier is worked out by hand from the tier rules (tiercheck/tier.py):

* every scenario passes → Tier 1;
* one of the ten server scenarios fails → 90% server conformance: below Tier 1's 100% (a
  `server_conformance` Tier 1 blocker), at least Tier 2's 80% → Tier 2;
* the server leg is unmeasured → a Tier 1 and a Tier 2 `unmeasured` blocker → Tier 3;
* with `extra` more server scenarios (`extra-scenario-NN`), the same rule on the pass rate:
  at least 80% passing keeps Tier 2, below it a Tier 2 `server_conformance` `< 80%` blocker
  too → Tier 3.

A failing scenario's check id and message can be chosen (`check_id`, `message`): they are what
an SDK under test controls, so the hostile-input tests put markers and megabytes in them.
The notify tests' repository and accounts are here too (`REPO`, `TOKEN` of `LOGIN`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta

from support.scorecards import (
    R1,
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
from tiercheck.history.record import record_of
from tiercheck.history.store import HistoryStore
from tiercheck.revisions import Leg
from tiercheck.scorecard.model import Scorecard
from tiercheck.scoring import LegVerdict, unmeasured_leg
from tiercheck.tier import Blocker

LINE = "sample-sdk"
REF = "v1.0.0"
NIGHT1 = datetime(2026, 10, 1, 3, 23, tzinfo=UTC)
HARNESS = "0.2.0-alpha.12"
REQUIREMENTS = "a1b2c3d4e5f60718"
SERVER = tuple(f"server-scenario-{n:02d}" for n in range(10))
CLIENT = ("initialize", "tools_call")
BROKEN = "server-scenario-04"
NOT_READY = "server never became ready within 30 s"

#: The repository the notify tests keep their issues in, and the pull request they comment on.
REPO = "example/nightly"
PR = 7
#: The notify tests' token, and the account it belongs to (GET /user answers it).
TOKEN = "ghp_notifytesttoken0123456789abcdefABCDEF"
LOGIN = "tiercheck-nightly"


def night(n: int) -> datetime:
    """The moment night `n` (1-based) runs."""
    return NIGHT1 + timedelta(days=n - 1)


def day(n: int) -> date:
    """Night `n`'s date."""
    return night(n).date()


def _signals() -> dict[str, dict[str, object]]:
    return {
        "labels": labels(),
        "triage": triage(),
        "p0_resolution": p0(),
        "stable_release": release("2.1.0"),
        "policy_signals": policy(),
        "spec_tracking": spec_tracking(3, "2.1.0"),
    }


def night_scorecard(
    n: int,
    *,
    line: str = LINE,
    ref: str = REF,
    failing: Sequence[str] = (),
    unmeasured: bool = False,
    harness: str = HARNESS,
    minute: int = 0,
    check_id: str | None = None,
    message: str = "wrong answer",
    extra: int = 0,
) -> Scorecard:
    """Night `n`'s scorecard of `line`@`ref`: `failing` server scenarios fail (their check
    `check_id`, default `<scenario>-check`, says `message`), or the server leg is unmeasured;
    the client leg passes. `extra` adds that many server scenarios, which `failing` may name."""
    names = SERVER + tuple(f"extra-scenario-{k:02d}" for k in range(extra))
    server: LegVerdict = (
        unmeasured_leg("server", R1, NOT_READY)
        if unmeasured
        else measured_leg(
            R1,
            "server",
            [
                scenario(s, passed=False, failing=[check(check_id or f"{s}-check", message)])
                if s in failing
                else scenario(s)
                for s in names
            ],
        )
    )
    client = measured_leg(R1, "client", [scenario(s) for s in CLIENT])
    legs: dict[str, dict[Leg, LegVerdict]] = {R1: {"server": server, "client": client}}
    if unmeasured:
        tier = implied(
            3,
            [Blocker("server_conformance", 1, "unmeasured", reason=f"{R1}: {NOT_READY}")],
            [Blocker("server_conformance", 2, "unmeasured", reason=f"{R1}: {NOT_READY}")],
        )
    elif (len(names) - len(failing)) / len(names) >= 0.8 and failing:
        tier = implied(2, [Blocker("server_conformance", 1)])
    elif failing:
        tier = implied(
            3,
            [Blocker("server_conformance", 1)],
            [Blocker("server_conformance", 2, qualifier="< 80%")],
        )
    else:
        tier = implied(1, [])
    doc = scorecard(legs=legs, signals=_signals(), tier=tier, name=line, harness_version=harness)
    moment = night(n) + timedelta(minutes=minute)
    return dataclasses.replace(
        doc,
        timestamp=moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        tiercheck=dataclasses.replace(doc.tiercheck, run_id=moment.strftime("%Y%m%dT%H%M%SZ")),
        sdk=dataclasses.replace(doc.sdk, ref=ref, commit=f"{n:02d}" * 20),
    )


def record(store: HistoryStore, doc: Scorecard, requirements: str = REQUIREMENTS) -> bool:
    """Append `doc`'s run to `store`, scored against the requirement sets `requirements`."""
    return store.append(record_of(doc), requirements_digest=requirements)


#: The 30 nights of the notify test: a scenario breaks on night 12 and is fixed on night 15;
#: the server never starts on night 20 (one unmeasured night).
REGRESSION, FIX, UNMEASURED = 12, 15, 20


def thirty_nights(n: int) -> Scorecard:
    """Night `n` of the thirty."""
    return night_scorecard(
        n, failing=[BROKEN] if REGRESSION <= n < FIX else [], unmeasured=n == UNMEASURED
    )
