"""The hostile table: strings an SDK under test can put in what tiercheck renders, and the
documents that carry them.

Each string lands, through the real builders, where an SDK or its repository writes: a
scenario name, a check id, a failure message, a spec link, a not-scored reason, a missing label,
a P0 issue title, an issue unaddressed for two months (its title, in the signal and in the
history's relegation view), the SDK's name, repository branch, version and release tag (the
claim's too), a matrix row's reason, a night's failing scenario and message. The tests
(`tests/unit/render/test_hostile_table.py`) render every document in every format and read the
output back with real parsers.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from support.matrices import matrix, row
from support.notify_nights import BROKEN, LINE, night_scorecard
from support.scorecards import (
    R1,
    check,
    edited,
    implied,
    labels,
    measured_leg,
    p0,
    policy,
    release,
    scenario,
    scorecard,
    spec_tracking,
    triage_inconclusive,
)
from tiercheck.governance.disputes import DisputeMark
from tiercheck.history.record import RunRecord, record_of
from tiercheck.history.regression import NightState, line_states, night_end
from tiercheck.matrix.model import Matrix
from tiercheck.scorecard.model import (
    ComparedLeg,
    HarnessComparison,
    HarnessDisagreement,
    HistoryBlock,
    HistoryUnaddressed,
    Scorecard,
)
from tiercheck.tier import Blocker

__all__ = [
    "HOSTILE",
    "LOOKALIKES",
    "MARKERS",
    "PAYLOADS",
    "hostile_matrix",
    "hostile_runs",
    "hostile_scorecard",
    "hostile_state",
    "unaddressed_issues",
]

#: name → the string. Each is what an SDK could write; together they cover markup, GitHub's
#: references and autolinks, tiercheck's own markers, what breaks a code span, a table row or a
#: line, characters that hide or reorder text, characters no file format can hold, and size.
HOSTILE: dict[str, str] = {
    "script": "<script>alert(1)</script>",
    "img-onerror": '<img src=x onerror="alert(1)">',
    "team-mention": "ping @org/team now",
    "user-mention": "@user look",
    "issue-ref": "see #123",
    "repo-ref": "owner/repo#5 broke",
    "md-link": "[a](https://evil.example/a)",
    "md-image": "![i](https://evil.example/x.png)",
    "autolink": "<https://evil.example/auto>",
    "bare-url": "https://evil.example/bare",
    "www": "www.evil.example",
    "javascript": "javascript:alert(1)",
    # Addresses of exactly the shape tiercheck links (a dispute's issue, a release page): from
    # the SDK they are text all the same (`LOOKALIKES`).
    "lookalike-issue": "https://github.com/modelcontextprotocol/conformance/issues/4242",
    "lookalike-release": "https://github.com/example-org/example-sdk/releases/tag/v9.9.9",
    "line-marker": "<!-- tiercheck:line=x -->",
    "state-marker": "<!-- tiercheck:state=y -->",
    "pr-marker": "<!-- tiercheck:pr-comment -->",
    "backticks": "a `b` ``c`` ```d``` `",
    "pipes": "a | b || c \\| d",
    "newlines": "first\nsecond\r\nthird\rfourth\n\n| x | y |\n|---|---|\n# heading",
    "rtl-override": "abc\u202edcba.exe",
    "zero-width": "@\u200buser #\u2060123 www\u200b.evil.example",
    "isolates-and-noncharacters": "\u2067abc\u2069 \u200fx\u061c \ufffe\uffff\ufdd0\U0010ffff end",
    "nul": "before\x00after\x07bell\x1b[31mred",
    "lone-surrogate": "half \ud800 pair",
    "huge": "@org/team " + "x" * 200_000,
}
HOSTILE["all-at-once"] = " ".join(v for k, v in HOSTILE.items() if k != "huge")

#: What GitHub would turn into a mention, a reference or a link if it were live text (outside
#: code and links) in a rendered Markdown document.
PAYLOADS = ("@org", "@user", "#123", "repo#5", "https://evil", "www.evil")
#: The look-alike addresses above: no link may ever point there (a link to the SDK's own page
#: may carry one percent-encoded in its path, as a branch name).
LOOKALIKES = (HOSTILE["lookalike-issue"], HOSTILE["lookalike-release"])
#: tiercheck's own markers: an SDK's text must never carry one.
MARKERS = ("<!-- tiercheck:", "<!--tiercheck:")


def unaddressed_issues(title: str) -> dict[str, Any]:
    """`checks.unaddressed_issues` as the signal writes it: two issues unaddressed for two
    months, the oldest (#41, 75 days) titled `title`."""
    issues = ((41, "2026-07-01T00:00:00Z", 75), (44, "2026-07-15T00:00:00Z", 61))
    return {
        "status": "fail",
        "reason": None,
        "official": None,
        "sep1730": {
            "status": "fail",
            "days": 60,
            "open_issues": 9,
            "addressed": 7,
            "unaddressed_total": 2,
            "unaddressed": [
                {"number": n, "title": title, "created_at": at, "age_days": age}
                for n, at, age in issues
            ],
            "oldest_age_days": 75,
            "departures": "",
        },
        "disagrees_with_official": False,
    }


@functools.cache
def hostile_scorecard(name: str) -> Scorecard:
    """A Tier 3 scorecard whose every SDK-written field holds `HOSTILE[name]`."""
    text = HOSTILE[name]
    spec = "https://modelcontextprotocol.io/specification/2025-11-25/server/tools"
    server = [
        scenario("server-initialize"),
        scenario(text, passed=False, failing=[check(text, text, spec)]),
        scenario("tools-list", passed=False, failing=[check("tools-list-check", text, text)]),
        scenario(
            "resources-list",
            passed=False,
            checks_passed=0,
            failing=[check(text, text)],
            not_scored=text,
        ),
        scenario("tools-call-image", passed=False, failing=[check("image-check", "bad")]),
    ]
    # A dispute's title comes from GitHub and its reason from the reviewed file.
    dispute = DisputeMark(
        state="open",
        verified=True,
        issue="https://github.com/modelcontextprotocol/conformance/issues/7",
        reason=text,
        why="issue #7 was open (labelled 'disputed') on 2026-09-15 per the snapshot",
        title=text,
    )
    server_leg = measured_leg(R1, "server", server)
    server_leg = dataclasses.replace(
        server_leg,
        details=tuple(
            dataclasses.replace(d, dispute=dispute) if d.scenario == "tools-call-image" else d
            for d in server_leg.details
        ),
    )
    client = [scenario("initialize", passed=False, failing=[check("initialize-check", text)])]
    legs = {
        R1: {
            "server": server_leg,
            "client": measured_leg(R1, "client", client),
        }
    }
    signals = {
        "labels": labels(missing=[text, "P3"]),
        "triage": triage_inconclusive(text),
        "p0_resolution": p0(open_details=[(812, text, 9)]),
        "stable_release": release("1.4.2"),
        "policy_signals": policy(),
        "spec_tracking": spec_tracking(),
    }
    blockers = [
        Blocker(check="server_conformance", tier=1),
        Blocker(check="client_conformance", tier=1),
    ]
    doc = scorecard(legs=legs, signals=signals, tier=implied(3, blockers, blockers))

    def change(data: dict[str, Any]) -> None:
        data["branch"] = text
        data["version"] = text
        data["sdk"]["ref"] = text
        data["sdk"]["release"] = {"tag": text, "version": text, "stable": False}
        data["checks"]["unaddressed_issues"] = unaddressed_issues(text)

    doc = edited(doc, change)
    # The history section's relegation view: the ground, with the oldest issue's title.
    ground = HistoryUnaddressed(
        status="unaddressed",
        run_id=doc.tiercheck.run_id,
        timestamp=doc.timestamp,
        days=60,
        issues=2,
        oldest_number=41,
        oldest_title=text,
        oldest_age_days=75,
        reason=None,
    )
    # --compare-harness: another harness's scenario names, check ids and messages.
    compared = HarnessComparison(
        version="0.1.16",
        referee="0.2.0-alpha.12",
        legs=(
            ComparedLeg(
                revision=R1,
                leg="server",
                state="compared",
                way="spec-version",
                reason=None,
                scenarios=3,
                agreed=1,
                results_dir=text,
            ),
            ComparedLeg(
                revision=R1,
                leg="client",
                state="not-compared",
                way="spec-version",
                reason=f"harness 0.1.16: it left no results (exit 1): {text}",
                scenarios=0,
                agreed=0,
                results_dir=None,
            ),
        ),
        disagreements=(
            HarnessDisagreement(
                revision=R1,
                leg="server",
                scenario=text,
                kind="verdict-flipped",
                check=text,
                referee="fail",
                ci="pass",
                message=text,
            ),
            HarnessDisagreement(
                revision=R1,
                leg="server",
                scenario=text,
                kind="check-removed",
                check=text,
                referee=None,
                ci="FAILURE",
                message=text,
            ),
        ),
    )
    return dataclasses.replace(
        doc,
        history=HistoryBlock(database=None, unaddressed=ground),
        harness_comparison=compared,
    )


@functools.cache
def hostile_matrix(name: str) -> Matrix:
    """A matrix of the hostile scorecard's row (its id and reason hostile too where a row id
    may be) and an unrunnable row whose reason is the string."""
    text = HOSTILE[name]
    return matrix(
        row("example-sdk@main", hostile_scorecard(name)),
        row("broken-sdk@main", None, reason=text),
    )


def hostile_runs(name: str) -> list[RunRecord]:
    """Eleven green nights of the notify fixtures' line, then one whose failing scenario's
    check id and message are the string, and whose oldest issue unaddressed for two months is
    titled with it."""
    return list(_hostile_runs(name))


@functools.cache
def _hostile_runs(name: str) -> tuple[RunRecord, ...]:
    text = HOSTILE[name]
    tonight = edited(
        night_scorecard(12, failing=[BROKEN], check_id=text, message=text),
        lambda data: data["checks"].update(unaddressed_issues=unaddressed_issues(text)),
    )
    return (*(record_of(night_scorecard(n)) for n in range(1, 12)), record_of(tonight))


@functools.cache
def hostile_state(name: str) -> NightState:
    """The notify fixtures' line on its twelfth night, regressed, every regression's row,
    check and message holding the string."""
    runs = hostile_runs(name)
    state = line_states(runs, as_of=night_end(runs[-1].timestamp.date()))[LINE]
    text = HOSTILE[name]
    regressions = tuple(
        dataclasses.replace(r, message=text, check=text, scenario=text) for r in state.regressions
    )
    return dataclasses.replace(state, regressions=regressions, line=text)
