"""The governance test dataset, with every expected number worked out by hand.

As of Monday 2025-06-16 12:00 UTC. Maintainer "maint", reporter "alice".
SEP triage window: 90 days → issues created on/after 2025-03-18 12:00.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import fields
from datetime import UTC, datetime
from typing import Any

from support.fake_github import Dataset, FakeEvent, FakeGitHub, FakeIssue, FakeRelease
from tiercheck.ghapi import Transport
from tiercheck.governance.collector import collect
from tiercheck.governance.snapshot import Snapshot

AS_OF = datetime(2025, 6, 16, 12, 0, tzinfo=UTC)
CAPTURED = datetime(2025, 6, 16, 14, 0, tzinfo=UTC)
TOKEN = "ghp_fake_token_do_not_leak_0123456789"
REPO = "example/sdk"
LABEL_ALIASES = {"priority: low": "P3"}


def lab(at: str, label: str, actor: str = "maint", kind: str = "User") -> FakeEvent:
    """A `labeled` timeline event."""
    return FakeEvent("labeled", at, actor, kind, label)


def unlab(at: str, label: str, actor: str = "maint") -> FakeEvent:
    """An `unlabeled` timeline event."""
    return FakeEvent("unlabeled", at, actor, "User", label)


def comment(at: str, actor: str = "maint", kind: str = "User") -> FakeEvent:
    """A comment."""
    return FakeEvent("comment", at, actor, kind)


ISSUES = [
    # 1: Mon 06-02 09:00 → labelled Tue 06-03 09:00: 24 business hours (within 2 BD). Closed.
    #    First response by maint 6 h after creation.
    FakeIssue(
        1,
        "crash on start",
        "2025-06-02T09:00:00Z",
        labels=("bug",),
        closed_at="2025-06-05T09:00:00Z",
        state_reason="completed",
        events=(comment("2025-06-02T15:00:00Z"), lab("2025-06-03T09:00:00Z", "bug")),
    ),
    # 2: a pull request: never an issue anywhere.
    FakeIssue(2, "fix crash", "2025-06-03T00:00:00Z", pull_request=True, labels=("bug",)),
    # 3: Fri 06-06 18:00 → Tue 06-10 10:00: business 6 (Fri) + 24 (Mon) + 10 (Tue) = 40 h
    #    ≤ 48 → within 2 BD although 88 calendar hours passed. Open.
    FakeIssue(
        3,
        "feature request",
        "2025-06-06T18:00:00Z",
        labels=("enhancement",),
        events=(lab("2025-06-10T10:00:00Z", "enhancement"),),
    ),
    # 4: Mon 06-09 08:00; alice labels her own issue at 09:00 (ignored); maint labels Thu 06-12
    #    08:00 → 72 business hours → breached. Her own and a bot's comments are no response.
    FakeIssue(
        4,
        "question about auth",
        "2025-06-09T08:00:00Z",
        labels=("question",),
        events=(
            lab("2025-06-09T09:00:00Z", "question", actor="alice"),
            comment("2025-06-09T10:00:00Z", actor="alice"),
            comment("2025-06-09T11:00:00Z", actor="helper[bot]", kind="Bot"),
            lab("2025-06-12T08:00:00Z", "question"),
        ),
    ),
    # 5: Fri 06-13 12:00, unlabelled, open. At as_of: business 12 (Fri) + 12 (Mon) = 24 h →
    #    pending (not yet late); calendar age 72 h → the official check counts it late.
    FakeIssue(5, "docs typo", "2025-06-13T12:00:00Z"),
    # 6: opened and labelled by a bot: excluded from the SEP population; official counts it.
    FakeIssue(
        6,
        "Bump dependency",
        "2025-06-01T00:00:00Z",
        author="dependabot[bot]",
        author_type="Bot",
        labels=("dependencies",),
        events=(lab("2025-06-01T00:00:05Z", "dependencies", "dependabot[bot]", "Bot"),),
    ),
    # 7: Tue 04-01 10:00, labelled only by a bot (ignored), closed Thu 04-10 10:00 not planned:
    #    business 14 + 6×24 + 10 = 168 h → breached 2 BD; 9 calendar days → within a month.
    FakeIssue(
        7,
        "old report",
        "2025-04-01T10:00:00Z",
        labels=("bug",),
        closed_at="2025-04-10T10:00:00Z",
        state_reason="not_planned",
        events=(lab("2025-04-01T10:01:00Z", "bug", "github-actions[bot]", "Bot"),),
    ),
    # 8: P0. Created Thu 05-01 00:00, "bug" at 06:00 (6 business hours), "P0" Mon 05-05 00:00,
    #    closed Fri 05-09 00:00. Official: created→closed 8 d (> 7, ≤ 14). SEP: label→closed 4 d.
    FakeIssue(
        8,
        "data loss",
        "2025-05-01T00:00:00Z",
        labels=("bug", "P0"),
        closed_at="2025-05-09T00:00:00Z",
        state_reason="completed",
        events=(lab("2025-05-01T06:00:00Z", "bug"), lab("2025-05-05T00:00:00Z", "P0")),
    ),
    # 9: open P0: created Thu 06-12 00:00, P0 at 02:00 (2 business hours). Age at as_of 4.5 d
    #    (official age_days 4) — open, so official fails Tier 1; SEP: 4.4 d < 7, not late yet.
    FakeIssue(
        9,
        "security hole",
        "2025-06-12T00:00:00Z",
        labels=("P0",),
        events=(lab("2025-06-12T02:00:00Z", "P0"),),
    ),
    # 10: historic P0 (2024-01-01 → 2024-02-01, 31 d): official counts it forever (> 14 d);
    #     SEP's 365-day window (since 2024-06-16 12:00) leaves it out. Outside the triage window.
    FakeIssue(
        10,
        "ancient outage",
        "2024-01-01T00:00:00Z",
        labels=("bug", "P0"),
        closed_at="2024-02-01T00:00:00Z",
        state_reason="completed",
        events=(lab("2024-01-01T00:00:00Z", "P0"),),
    ),
    # 11: P0 at 01:00 (1 business hour after Tue 05-20 00:00), downgraded to P1 next day.
    #     Official: not P0 now, invisible. SEP: one downgraded episode.
    FakeIssue(
        11,
        "slow start",
        "2025-05-20T00:00:00Z",
        labels=("P1",),
        events=(
            lab("2025-05-20T01:00:00Z", "P0"),
            unlab("2025-05-21T00:00:00Z", "P0"),
            lab("2025-05-21T00:00:00Z", "P1"),
        ),
    ),
    # 12: created after as_of (the snapshot is captured later): ignored by every signal.
    FakeIssue(12, "tomorrow", "2025-06-16T13:00:00Z"),
]

LABELS = [
    "bug",
    "enhancement",
    "question",
    "Needs Confirmation",
    "needs repro",
    "ready for work",
    "good first issue",
    "help wanted",
    "P0",
    "P1",
    "P2",
    "priority: low",
    "dependencies",
]

RELEASES = [  # API order: newest created first
    FakeRelease("v2.0.0", "2025-06-14T00:00:00Z", None, draft=True),
    FakeRelease("v2.0.0-rc.1", "2025-06-10T00:00:00Z", "2025-06-10T00:00:00Z", prerelease=True),
    FakeRelease("v1.9.0", "2025-05-20T00:00:00Z", "2025-05-20T00:00:00Z"),
    FakeRelease("v1.8.0", "2025-05-05T00:00:00Z", "2025-05-05T00:00:00Z"),
    FakeRelease("v1.8.0-beta.1", "2025-04-01T00:00:00Z", "2025-04-01T00:00:00Z", prerelease=True),
    FakeRelease("v0.9.0", "2024-12-01T00:00:00Z", "2024-12-01T00:00:00Z"),
]

SPEC_RELEASES = [
    FakeRelease("2025-06-18", "2025-06-18T00:00:00Z", "2025-06-18T00:00:00Z"),  # after as_of
    FakeRelease("draft-x", "2025-05-01T00:00:00Z", "2025-05-01T00:00:00Z", prerelease=True),
    FakeRelease("2025-03-26", "2025-03-26T00:00:00Z", "2025-03-26T00:00:00Z"),
    FakeRelease("2024-11-05", "2024-11-05T00:00:00Z", "2024-11-05T00:00:00Z"),
]

TREE = [
    "README.md",
    "CHANGELOG.md",
    "CONTRIBUTING.rst",
    ".github/SECURITY.md",
    ".github/dependabot.yml",
    "docs/roadmap.md",
    "docs/guide/versioning.md",  # too deep: not a policy location
    "src/main.py",
]


def dataset() -> Dataset:
    """The hand-computed dataset above."""
    return Dataset(
        repo=REPO,
        labels=list(LABELS),
        issues=list(ISSUES),
        releases=list(RELEASES),
        spec_releases=list(SPEC_RELEASES),
        tree=list(TREE),
    )


def big_dataset(issues: int, prs: int) -> Dataset:
    """A repository with `issues` issues and `prs` pull requests interleaved."""
    items = []
    every = (issues + prs) // prs if prs else 0
    for n in range(1, issues + prs + 1):
        day = 1 + n % 28
        items.append(
            FakeIssue(
                n,
                f"item {n}",
                f"2025-0{1 + n % 5}-{day:02d}T{n % 24:02d}:00:00Z",
                labels=("bug",) if n % 3 else (),
                pull_request=bool(every) and n % every == 0,
                events=(lab(f"2025-0{1 + n % 5}-{day:02d}T{n % 24:02d}:30:00Z", "bug"),)
                if n % 3
                else (),
            )
        )
    return Dataset(repo=REPO, labels=list(LABELS), issues=items, tree=list(TREE))


def start_fake(data: Dataset | None = None) -> FakeGitHub:
    """A started fake GitHub serving `data` (default: `dataset()`); the caller stops it."""
    return FakeGitHub(data or dataset()).start()


@contextmanager
def running(data: Dataset | None = None) -> Iterator[FakeGitHub]:
    """The fake GitHub for the duration of a `with` block."""
    server = start_fake(data)
    try:
        yield server
    finally:
        server.stop()


def collect_from(fake: FakeGitHub, **overrides: Any) -> Snapshot:
    """A collection of `REPO` from the fake: no cache, no waits, no throttle, unless overridden
    (an override named after a `Transport` field, e.g. `deadline`, changes the transport)."""
    travel = {f.name for f in fields(Transport)}
    transport: dict[str, Any] = {
        "max_wait": 1.0,
        "backoff": 0,
        "throttle": None,
        "write_throttle": None,
    }
    transport.update({k: v for k, v in overrides.items() if k in travel})
    options: dict[str, Any] = {
        "api_url": fake.url,
        "token": TOKEN,
        "cache_dir": None,
        "checkout": None,
        "now": CAPTURED,
        "transport": Transport(**transport),
    }
    options.update({k: v for k, v in overrides.items() if k not in travel})
    return collect(REPO, **options)
