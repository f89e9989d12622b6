"""Build `governance-snapshot.json`: a hand-authored governance snapshot of the sample SDK.

The sample SDK has no GitHub history of its own, so this script writes one that reads like a
small, well-kept repository (``tiercheck/sample-sdk``, captured Friday 2026-11-27 12:00 UTC)
and exercises every place where the official `tier-check` and SEP-1730 as written part ways.
It is deterministic: run it again and the file does not change.

    .venv/bin/python examples/sample-sdk/make_governance_snapshot.py

What the snapshot yields, judged at its capture time with no SDK configuration (`--sdk
sample-sdk` gives the same: its `tag_prefix` is ``v`` and it has no label aliases), and with
both conformance legs measured at 100%:

- labels: 11 of the 12 official labels; ``needs repro`` is missing (the team says ``needs
  confirmation``), so both readings fail.
- triage: officially *partial*: 6 of the 7 open issues carry a label (0.857), the odd one out a
  Python 3.14 request opened 18 hours earlier. SEP-1730 is *partial*: of the 13 human issues
  of the last 90 days, 10 were labelled within 2 business days, 1 took 77 business hours (#55),
  1 was closed without ever being labelled (#66: closing is not triage) and 1 is still inside
  its SLA (#69): 10/12 = 0.833. The bot-opened nightly report (#44) is left out, and a
  maintainer labelling his own issue (#47) and an issue-template bot's label (#49) do not count
  as triage.
- p0_resolution: *partial* in both readings: #57 was fixed in 3 days, but #18 (March 2026)
  took 10 days, inside both readings' windows.
- stable_release: officially *fail*: the newest release, ``v1.1.0-rc.1``, is a prerelease and
  hides ``v1.0.0``. SEP-1730 *passes* with ``v1.0.0``.
- spec_tracking: *pass*: spec ``2026-07-28`` was answered by ``v1.0.0`` 15 days later (14.9
  days, rounded as the official code rounds) (``2025-11-25`` by ``v0.9.0`` 13 days later).
- policy_signals: *partial* (informational) in both readings: officially 5 of the 13 paths;
  SEP-1730 finds CHANGELOG, SECURITY, CONTRIBUTING, a dependency policy
  (``.github/dependabot.yml``) and VERSIONING, but no roadmap.

Implied tier: officially **Tier 3**, Tier 1 blockers ``triage``, ``p0_resolution``,
``stable_release``, ``labels``; Tier 2 blocked by ``stable_release``. SEP-1730 as written:
**Tier 2**, Tier 1 blockers ``triage``, ``p0_resolution``, ``labels``; Tier 2 met.

The release history (``v0.9.0``, ``v1.0.0``, ``v1.1.0-rc.1``) is illustrative; the policy
paths are the files that `examples/sample-sdk/` really contains at its root and in `.github/`.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

from tiercheck.governance.snapshot import (
    Author,
    Issue,
    IssueFacts,
    LabelEvent,
    LabelFacts,
    PolicyFileFacts,
    Release,
    ReleaseFacts,
    Snapshot,
    Timeline,
    parse_time,
    save_snapshot,
)

OUTPUT = Path(__file__).with_name("governance-snapshot.json")
REPO = "tiercheck/sample-sdk"
CAPTURED_AT = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)

#: Maintainers: mara owns the repository, jon is an organisation member.
MAINTAINERS = {"mara": "OWNER", "jon": "MEMBER"}
#: Account type of every login that appears; `[bot]` logins are GitHub Apps.
BOTS = {"github-actions[bot]"}

LABELS = (
    "bug",
    "dependencies",
    "documentation",
    "enhancement",
    "good first issue",
    "help wanted",
    "needs confirmation",
    "P0",
    "P1",
    "P2",
    "P3",
    "question",
    "ready for work",
)

# One tuple per issue: number, title, created, author (association), the timeline as
# (kind, at, actor, label) with kind "+"/"-" for labelled/unlabelled and "c" for a comment,
# and closed (at, reason) or None. Labels now are derived from the timeline.
_Event = tuple[str, str, str, str]
_Closed = tuple[str, str] | None
_Row = tuple[int, str, str, str, str, tuple[_Event, ...], _Closed]
ISSUES: tuple[_Row, ...] = (
    # --- older than the 90-day SEP triage window --------------------------------------------
    (
        3,
        "Server does not answer ping before initialize",
        "2025-12-02T10:14:00Z",
        "kwame",
        "NONE",
        (("c", "2025-12-02T12:51:00Z", "mara", ""), ("+", "2025-12-02T13:40:00Z", "mara", "bug")),
        ("2025-12-05T16:02:00Z", "completed"),
    ),
    (
        7,
        "Document how to run client.py against a local harness",
        "2025-12-15T08:30:00Z",
        "lena",
        "NONE",
        (
            ("+", "2025-12-15T11:05:00Z", "jon", "documentation"),
            ("+", "2025-12-15T11:05:00Z", "jon", "good first issue"),
            ("c", "2025-12-15T11:07:00Z", "jon", ""),
        ),
        ("2026-01-08T09:45:00Z", "completed"),
    ),
    (
        12,
        "Which mcp version does the sample pin, and why exactly?",
        "2026-01-20T19:02:00Z",
        "ines",
        "NONE",
        (
            ("c", "2026-01-21T08:15:00Z", "mara", ""),
            ("+", "2026-01-21T08:16:00Z", "mara", "question"),
        ),
        ("2026-01-22T10:00:00Z", "completed"),
    ),
    (
        18,
        "Server crashes on resources/subscribe after a client reconnects",
        "2026-03-02T09:12:00Z",
        "priya",
        "NONE",
        (
            ("+", "2026-03-02T09:40:00Z", "mara", "bug"),
            ("c", "2026-03-02T09:52:00Z", "mara", ""),
            ("+", "2026-03-02T10:05:00Z", "mara", "P0"),
        ),
        ("2026-03-12T11:30:00Z", "completed"),
    ),
    (
        21,
        "Support the 2026-07-28 input-required tools",
        "2026-04-14T13:20:00Z",
        "jon",
        "MEMBER",
        (("+", "2026-04-14T15:48:00Z", "mara", "enhancement"),),
        ("2026-08-10T17:00:00Z", "completed"),
    ),
    (
        26,
        "client.py ignores MCP_CONFORMANCE_CONTEXT when it is empty JSON",
        "2026-05-06T07:55:00Z",
        "tomas",
        "NONE",
        # The team was at a conference: labelled six days later.
        (
            ("c", "2026-05-11T09:30:00Z", "jon", ""),
            ("+", "2026-05-12T08:10:00Z", "jon", "bug"),
            ("+", "2026-05-12T08:10:00Z", "jon", "P2"),
        ),
        ("2026-05-20T14:00:00Z", "completed"),
    ),
    (
        30,
        "Roadmap: the tasks extension",
        "2026-06-10T10:00:00Z",
        "lena",
        "CONTRIBUTOR",
        (
            ("+", "2026-06-10T12:30:00Z", "mara", "enhancement"),
            ("+", "2026-06-10T12:30:00Z", "mara", "help wanted"),
        ),
        None,
    ),
    (
        35,
        "README: broken link to the conformance harness",
        "2026-07-16T15:40:00Z",
        "kwame",
        "CONTRIBUTOR",
        (("+", "2026-07-16T16:02:00Z", "jon", "documentation"),),
        ("2026-07-17T08:00:00Z", "completed"),
    ),
    # --- the SEP triage window: created on or after 2026-08-29 12:00 -------------------------
    (
        41,
        "Client does not reconnect after the SSE stream drops",
        "2026-09-01T09:20:00Z",
        "tomas",
        "CONTRIBUTOR",
        (("c", "2026-09-01T10:30:00Z", "mara", ""), ("+", "2026-09-01T11:02:00Z", "mara", "bug")),
        ("2026-09-04T12:00:00Z", "completed"),
    ),
    (
        43,
        "Add a --host flag to server.py",
        "2026-09-08T14:05:00Z",
        "lena",
        "CONTRIBUTOR",
        (("+", "2026-09-08T16:40:00Z", "jon", "enhancement"),),
        None,
    ),
    (
        44,
        "Nightly conformance run failed: client leg, 2026-07-28",
        "2026-09-15T02:00:00Z",
        "github-actions[bot]",
        "NONE",
        (
            ("+", "2026-09-15T02:00:05Z", "github-actions[bot]", "bug"),
            ("c", "2026-09-15T07:45:00Z", "jon", ""),
        ),
        ("2026-09-15T18:00:00Z", "completed"),
    ),
    (
        47,
        "Track the mcp 2.4.0 upgrade",
        "2026-09-21T09:00:00Z",
        "jon",
        "MEMBER",
        # jon labels his own issue (not triage); mara's P2 that afternoon is.
        (
            ("+", "2026-09-21T09:01:00Z", "jon", "enhancement"),
            ("+", "2026-09-21T13:00:00Z", "mara", "P2"),
        ),
        None,
    ),
    (
        49,
        "Docs: an example for resources/templates",
        "2026-10-01T11:00:00Z",
        "ines",
        "NONE",
        # The issue form's labeller is a bot: its label is not a maintainer's triage.
        (
            ("+", "2026-10-01T11:00:04Z", "github-actions[bot]", "needs confirmation"),
            ("c", "2026-10-01T15:20:00Z", "mara", ""),
            ("-", "2026-10-01T15:30:00Z", "mara", "needs confirmation"),
            ("+", "2026-10-01T15:30:00Z", "mara", "documentation"),
        ),
        ("2026-10-20T10:00:00Z", "completed"),
    ),
    (
        52,
        "Progress notifications arrive after the tool result",
        "2026-10-09T18:00:00Z",
        "priya",
        "NONE",
        # Friday evening to Tuesday morning: 88 calendar hours, 40 business hours.
        (("+", "2026-10-13T10:00:00Z", "mara", "bug"), ("c", "2026-10-13T10:05:00Z", "mara", "")),
        ("2026-10-16T09:00:00Z", "completed"),
    ),
    (
        55,
        "Elicitation enum titles are lost on the 2025-11-25 wire",
        "2026-10-19T10:00:00Z",
        "kwame",
        "NONE",
        # The slow one: 77 business hours.
        (("+", "2026-10-22T15:00:00Z", "jon", "bug"), ("c", "2026-10-22T15:02:00Z", "jon", "")),
        ("2026-10-30T11:00:00Z", "completed"),
    ),
    (
        57,
        "Sampling callback drops the model preferences (clients fall back to defaults)",
        "2026-10-21T08:00:00Z",
        "tomas",
        "CONTRIBUTOR",
        (
            ("c", "2026-10-21T08:50:00Z", "mara", ""),
            ("+", "2026-10-21T09:10:00Z", "mara", "bug"),
            ("+", "2026-10-21T09:10:00Z", "mara", "P0"),
        ),
        ("2026-10-24T07:00:00Z", "completed"),
    ),
    (
        60,
        "Can the server run on a Unix socket?",
        "2026-11-02T13:00:00Z",
        "kwame",
        "NONE",
        (
            ("c", "2026-11-02T14:15:00Z", "jon", ""),
            ("+", "2026-11-02T14:20:00Z", "jon", "question"),
        ),
        ("2026-11-04T09:00:00Z", "completed"),
    ),
    (
        62,
        "Windows: server.py fails with the Proactor event loop",
        "2026-11-05T16:00:00Z",
        "ines",
        "NONE",
        (
            ("+", "2026-11-05T17:30:00Z", "mara", "bug"),
            ("+", "2026-11-05T17:30:00Z", "mara", "needs confirmation"),
            ("c", "2026-11-05T17:32:00Z", "mara", ""),
        ),
        None,
    ),
    (
        64,
        "Release notes should name the conformance harness version",
        "2026-11-10T12:00:00Z",
        "lena",
        "CONTRIBUTOR",
        (("+", "2026-11-10T12:45:00Z", "jon", "enhancement"),),
        None,
    ),
    (
        66,
        "Typo in CONTRIBUTING.md",
        "2026-11-18T09:30:00Z",
        "ines",
        "NONE",
        # Fixed by a pull request within the hour and closed without a label.
        (("c", "2026-11-18T10:40:00Z", "jon", ""),),
        ("2026-11-18T11:00:00Z", "completed"),
    ),
    (
        68,
        "tools-call-with-progress is flaky on slow CI runners",
        "2026-11-23T15:00:00Z",
        "tomas",
        "CONTRIBUTOR",
        (
            ("+", "2026-11-24T09:00:00Z", "jon", "bug"),
            ("+", "2026-11-24T09:00:00Z", "jon", "P3"),
        ),
        None,
    ),
    (
        69,
        "Support Python 3.14",
        "2026-11-26T17:45:00Z",
        "lena",
        "CONTRIBUTOR",
        (),  # opened yesterday evening: not yet triaged
        None,
    ),
)

RELEASES = (  # API order: newest created first
    Release(
        tag="v1.1.0-rc.1",
        name="v1.1.0-rc.1",
        draft=False,
        prerelease=True,
        created_at=parse_time("2026-11-16T15:00:00Z"),
        published_at=parse_time("2026-11-16T15:10:00Z"),
    ),
    Release(
        tag="v1.0.0",
        name="v1.0.0",
        draft=False,
        prerelease=False,
        created_at=parse_time("2026-08-12T14:00:00Z"),
        published_at=parse_time("2026-08-12T14:20:00Z"),
    ),
    Release(
        tag="v0.9.0",
        name="v0.9.0",
        draft=False,
        prerelease=False,
        created_at=parse_time("2025-12-09T10:00:00Z"),
        published_at=parse_time("2025-12-09T10:30:00Z"),
    ),
)

SPEC_RELEASES = tuple(  # modelcontextprotocol/modelcontextprotocol, newest first
    Release(
        tag=tag,
        name=tag,
        draft=False,
        prerelease=False,
        created_at=parse_time(at),
        published_at=parse_time(at),
    )
    for tag, at in (
        ("2026-07-28", "2026-07-28T17:00:00Z"),
        ("2025-11-25", "2025-11-25T18:00:00Z"),
        ("2025-06-18", "2025-06-18T17:00:00Z"),
        ("2025-03-26", "2025-03-26T17:00:00Z"),
    )
)

#: What a git tree of the sample SDK lists at the root and in `.github/` (tiercheck's own
#: files about the sample, this script and its output, are not part of it).
POLICY_PATHS = (
    ".github/dependabot.yml",
    ".gitignore",
    "CHANGELOG.md",
    "CONTRIBUTING.md",
    "README.md",
    "SECURITY.md",
    "VERSIONING.md",
    "client.py",
    "expected-failures.2025-11-25.yml",
    "expected-failures.2026-07-28.yml",
    "requirements.txt",
    "server.py",
)


def _account(login: str) -> str:
    return "Bot" if login in BOTS else "User"


def _issue(row: _Row) -> Issue:
    """One issue; its labels now and `updated_at` follow from its timeline, as on GitHub."""
    number, title, created, author, association, events, closed = row
    label_events = tuple(
        LabelEvent(
            action="labeled" if kind == "+" else "unlabeled",
            label=label,
            at=parse_time(at),
            actor=actor,
            actor_type=_account(actor),
        )
        for kind, at, actor, label in events
        if kind in {"+", "-"}
    )
    current: set[str] = set()
    for event in label_events:
        if event.action == "labeled":
            current.add(event.label)
        else:
            current.discard(event.label)
    comments = [
        parse_time(at)
        for kind, at, actor, _ in events
        if kind == "c" and actor != author and actor not in BOTS
    ]
    moments = [parse_time(created), *(parse_time(at) for _, at, _, _ in events)]
    if closed is not None:
        moments.append(parse_time(closed[0]))
    return Issue(
        number=number,
        title=title,
        created_at=parse_time(created),
        updated_at=max(moments),
        closed_at=parse_time(closed[0]) if closed else None,
        state="closed" if closed else "open",
        state_reason=closed[1] if closed else None,
        author=Author(login=author, type=_account(author), association=association),
        labels=tuple(sorted(current)),
        timeline=Timeline(
            label_events=tuple(sorted(label_events, key=lambda e: e.at)),
            complete=True,
            first_response_at=min(comments) if comments else None,
        ),
    )


def build_snapshot() -> Snapshot:
    """The sample SDK's snapshot, the same every time."""
    return Snapshot(
        repo=REPO,
        captured_at=CAPTURED_AT,
        api_base="https://api.github.com",
        authenticated=True,
        notes=(
            "hand-authored by examples/sample-sdk/make_governance_snapshot.py; "
            "not collected from GitHub",
        ),
        labels=LabelFacts(names=tuple(sorted(LABELS, key=str.lower)), uses_issue_types=False),
        issues=IssueFacts(
            issues=tuple(_issue(row) for row in ISSUES), truncated=False, timeline_reason=None
        ),
        releases=ReleaseFacts(releases=RELEASES, truncated=False),
        spec_releases=ReleaseFacts(releases=SPEC_RELEASES, truncated=False),
        policy_files=PolicyFileFacts(paths=POLICY_PATHS, source="git-tree", truncated=False),
    )


def main(argv: list[str] | None = None) -> int:
    """Write the snapshot (to `OUTPUT`, or the path given as the only argument)."""
    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0]) if args else OUTPUT
    save_snapshot(build_snapshot(), target)
    sys.stdout.write(f"wrote {target}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
