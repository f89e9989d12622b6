"""Governance datasets for the differential test against the pinned official bundle.

Three kinds, each a `Case` (a dataset, the moment both tools judge it at, and `--days`):

- `generated_cases`: a seeded generator (issue counts from 0 to several hundred; labels added,
  removed and re-added; bot and author labels; open and closed P0s of many ages; releases with
  monorepo-prefixed, `release-`, pre-release, draft, non-semver and non-ASCII-digit tags;
  missing policy files; spec releases before and after SDK releases);
- `edge_cases`: hand-made, one or more per rule the official code has (named after it);
- `existing_cases`: the datasets our other tests use (`governance_fixtures`) and the sample
  SDK's recorded snapshot, judged at a moment after everything in them.

The official tool cannot be told an as-of: it counts every issue and release the API returns.
So every case is built (or, for existing datasets, judged late enough) that nothing in it is
dated after its as-of, and both tools see the same world.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from support.fake_github import Dataset, FakeEvent, FakeIssue, FakeRelease
from support.governance_fixtures import big_dataset, dataset
from tiercheck.governance.snapshot import ReleaseFacts, Snapshot, load_snapshot

__all__ = ["OFFICIAL_POLICY_PATHS", "Case", "all_cases", "edge_cases", "existing_cases"]

SAMPLE_SNAPSHOT = (
    Path(__file__).resolve().parents[2] / "examples" / "sample-sdk" / "governance-snapshot.json"
)

#: The 13 paths the official files check requests (copied here so the datasets do not depend on
#: the code under test).
OFFICIAL_POLICY_PATHS = tuple(
    (  # noqa: SIM905 - one line of data reads better than thirteen
        "CHANGELOG.md SECURITY.md CONTRIBUTING.md DEPENDENCY_POLICY.md docs/dependency-policy.md "
        ".github/dependabot.yml .github/renovate.json renovate.json ROADMAP.md docs/roadmap.md "
        "VERSIONING.md docs/versioning.md BREAKING_CHANGES.md"
    ).split()
)
#: The 12 official labels (SEP-1730's taxonomy table), in its order.
TAXONOMY = (
    *("bug", "enhancement", "question"),
    *("needs confirmation", "needs repro", "ready for work", "good first issue", "help wanted"),
    *("P0", "P1", "P2", "P3"),
)


@dataclass(frozen=True)
class Case:
    """One dataset judged at one moment by both tools."""

    key: str
    kind: str  # "generated" | "edge" | "existing"
    dataset: Dataset
    as_of: datetime
    days: int | None = None
    note: str = ""
    extra: dict[str, str] = field(default_factory=dict)


def iso(moment: datetime) -> str:
    """GitHub's timestamp format."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# --- the seeded generator ------------------------------------------------------------------

_TAGS = (
    "v{v}",
    "{v}",
    "rmcp-v{v}",
    "release-{v}",
    "sdk-beta-{v}",
    "pkg@{v}",
    "server/v{v}",
    "v{v}-rc.1",
    "v{v}-Beta.2",
    "{v}+build.7",
    "v{v}-preview",
    "vNext",
    "nightly",
    "v\u0663.{minor}.0",  # ARABIC-INDIC DIGIT THREE: a digit to Python, not to JavaScript
    "v{major}",
)


def _version(rng: random.Random) -> tuple[str, int, int]:
    major = rng.choice((0, 0, 1, 1, 1, 2, 3))
    minor = rng.randrange(0, 12)
    if rng.random() < 0.2:
        return f"{major}.{minor}", major, minor
    return f"{major}.{minor}.{rng.randrange(0, 9)}", major, minor


def _releases(rng: random.Random, as_of: datetime, count: int) -> list[FakeRelease]:
    releases = []
    for _ in range(count):
        created = as_of - timedelta(seconds=rng.randrange(3600, 400 * 86400))
        version, major, minor = _version(rng)
        tag = rng.choice(_TAGS).format(v=version, major=major, minor=minor)
        draft = rng.random() < 0.12
        published = None if draft else created + timedelta(seconds=rng.randrange(0, 7200))
        releases.append(
            FakeRelease(
                tag,
                iso(created),
                iso(min(published, as_of)) if published else None,
                draft=draft,
                prerelease=rng.random() < 0.15,
            )
        )
    return releases


def _spec_releases(
    rng: random.Random, as_of: datetime, sdk: list[FakeRelease]
) -> list[FakeRelease]:
    """Spec releases, some placed within hours or about 30 days of an SDK release."""
    specs = []
    published = [r for r in sdk if r.published_at]
    for n in range(rng.randrange(0, 6)):
        if published and rng.random() < 0.6:
            anchor = datetime.fromisoformat(
                rng.choice(published).published_at.replace("Z", "+00:00")
            )  # type: ignore[union-attr]
            offset = rng.choice((-40, -31, -30.4, -30.6, -2, -1.2, -0.9, -0.4, 0.3, 1, 5))
            when = anchor + timedelta(days=offset)
        else:
            when = as_of - timedelta(seconds=rng.randrange(3600, 300 * 86400))
        when = min(when, as_of - timedelta(minutes=5))
        draft = rng.random() < 0.1
        specs.append(
            FakeRelease(
                f"2025-{1 + n:02d}-{1 + rng.randrange(28):02d}",
                iso(when),
                None if draft else iso(when),
                draft=draft,
                prerelease=rng.random() < 0.2,
            )
        )
    return specs


def _issue(rng: random.Random, number: int, as_of: datetime, label_pool: list[str]) -> FakeIssue:
    created = as_of - timedelta(seconds=rng.randrange(60, 420 * 86400))
    author, author_type = rng.choice(
        (("alice", "User"), ("bob", "User"), ("maint", "User"), ("dependabot[bot]", "Bot"))
    )
    events: list[FakeEvent] = []
    current: list[str] = []
    moment = created
    for _ in range(rng.choice((0, 0, 1, 1, 2, 3, 4))):
        moment += timedelta(seconds=rng.randrange(30, 6 * 86400))
        if moment >= as_of:
            break
        actor, actor_type = rng.choice(
            (("maint", "User"), ("maint", "User"), (author, author_type), ("triage[bot]", "Bot"))
        )
        if current and rng.random() < 0.3:
            gone = rng.choice(current)
            current.remove(gone)
            events.append(FakeEvent("unlabeled", iso(moment), actor, actor_type, gone))
        else:
            name = rng.choice(label_pool)
            if name not in current:
                current.append(name)
                events.append(FakeEvent("labeled", iso(moment), actor, actor_type, name))
    if rng.random() < 0.3:
        at = created + timedelta(seconds=rng.randrange(60, 3 * 86400))
        if at < as_of:
            events.append(FakeEvent("comment", iso(at), rng.choice(("maint", author)), "User"))
    closed = None
    if rng.random() < 0.45:
        when = created + timedelta(seconds=rng.randrange(60, 40 * 86400))
        closed = iso(when) if when < as_of else None
    return FakeIssue(
        number,
        f"issue {number}",
        iso(created),
        author=author,
        author_type=author_type,
        labels=tuple(current),
        closed_at=closed,
        state_reason=rng.choice(("completed", "not_planned")) if closed else None,
        pull_request=rng.random() < 0.15,
        events=tuple(sorted(events, key=lambda e: e.at)),
    )


def _p0(rng: random.Random, number: int, as_of: datetime) -> FakeIssue:
    """A P0, open or closed, with an age or resolution time near the 7- and 14-day limits."""
    days = rng.choice((0.4, 2.5, 4.5, 6.9, 7.0, 7.2, 10, 13.9, 14.1, 30, 200))
    if rng.random() < 0.5:  # open, `days` old
        created = as_of - timedelta(days=days)
        closed = None
    else:
        created = as_of - timedelta(days=days + rng.randrange(1, 300))
        closed = iso(created + timedelta(days=days))
    label_at = created + timedelta(hours=rng.randrange(0, 30))
    events = (FakeEvent("labeled", iso(min(label_at, as_of)), "maint", "User", "P0"),)
    return FakeIssue(
        number,
        f"critical {number}",
        iso(created),
        labels=("P0", "bug"),
        closed_at=closed,
        state_reason="completed" if closed else None,
        events=events,
    )


def _labels(rng: random.Random) -> list[str]:
    names = [name for name in TAXONOMY if rng.random() < 0.9]
    names = [name.upper() if rng.random() < 0.1 else name for name in names]
    return [*names, "dependencies", *(["priority: critical"] if rng.random() < 0.3 else [])]


def _issue_types(rng: random.Random) -> tuple[bool, object]:
    return rng.choice(
        (
            (False, None),
            (True, None),
            (True, []),
            (True, [{"name": "Bug"}]),
            (True, False),
        )
    )


def generated_case(seed: int) -> Case:
    """The dataset of one seed (the same seed always gives the same dataset)."""
    rng = random.Random(seed)
    as_of = datetime(2026, 3, 2, 12, 0, tzinfo=UTC) + timedelta(
        seconds=rng.randrange(0, 200 * 86400)
    )
    size = rng.choice((0, 1, 3, 8, 20, 45, 99, 100, 101, 160, 250, 380))
    label_pool = [*TAXONOMY[:8], "P1", "P2", "dependencies", "bug"]
    issues = [_issue(rng, n, as_of, label_pool) for n in range(1, size + 1)]
    issues += [_p0(rng, size + n, as_of) for n in range(1, rng.choice((0, 0, 1, 2, 3, 5)) + 1)]
    releases = _releases(rng, as_of, rng.choice((0, 1, 2, 5, 12, 25, 60)))
    present, value = _issue_types(rng)
    data = Dataset(
        repo=f"gen/sdk-{seed}",
        labels=_labels(rng),
        issue_types=["Bug"] if rng.random() < 0.3 else [],
        issues=issues,
        releases=releases,
        spec_releases=_spec_releases(rng, as_of, releases),
        tree=[p for p in OFFICIAL_POLICY_PATHS if rng.random() < 0.55] + ["README.md"],
        repo_issue_types=value,
        repo_issue_types_present=present,
    )
    days = rng.choice((None, None, None, 30, 90))
    return Case(f"gen-{seed}", "generated", data, as_of, days=days, note=f"seed {seed}")


def generated_cases(count: int = 36, first_seed: int = 1730) -> list[Case]:
    """`count` generated cases from consecutive seeds."""
    return [generated_case(first_seed + n) for n in range(count)]


# --- hand-made edge cases ------------------------------------------------------------------

EDGE_AS_OF = datetime(2026, 5, 4, 12, 0, tzinfo=UTC)  # a Monday


def _at(days_before: float) -> str:
    return iso(EDGE_AS_OF - timedelta(days=days_before))


def _base(key: str) -> Dataset:
    return Dataset(
        repo=f"edge/{key}",
        labels=list(TAXONOMY),
        releases=[FakeRelease("v1.0.0", _at(100), _at(100))],
        spec_releases=[FakeRelease("2025-11-25", _at(90), _at(90))],
        tree=list(OFFICIAL_POLICY_PATHS),
    )


def _edge(key: str, note: str, days: int | None = None, **changes: object) -> Case:
    return Case(key, "edge", replace(_base(key), **changes), EDGE_AS_OF, days=days, note=note)


def _release_only(tag: str, prerelease: bool = False) -> list[FakeRelease]:
    return [FakeRelease(tag, _at(10), _at(10), prerelease=prerelease)]


def _unlabelled(
    count: int, first: int = 1, hours: float = 10.0, step: float = 7.0
) -> list[FakeIssue]:
    return [
        FakeIssue(first + n, f"unlabelled {n}", iso(EDGE_AS_OF - timedelta(hours=hours + n * step)))
        for n in range(count)
    ]


def _labelled(count: int, first: int) -> list[FakeIssue]:
    return [
        FakeIssue(
            first + n,
            f"labelled {n}",
            _at(3 + n % 50),
            labels=("bug",),
            events=(FakeEvent("labeled", _at(2 + n % 50), "maint", "User", "bug"),),
        )
        for n in range(count)
    ]


def edge_cases() -> list[Case]:
    """One or more hand-made datasets per official rule (their keys name the rule)."""
    return [
        # stable release: the version from the tag
        _edge(
            "release-rmcp-prefix", "rmcp-v1.2.3 reads 1.2.3", releases=_release_only("rmcp-v1.2.3")
        ),
        _edge(
            "release-release-dash", "release-1.0 reads 1.0", releases=_release_only("release-1.0")
        ),
        _edge(
            "release-sdk-beta",
            "sdk-beta-1.0.0 reads 1.0.0",
            releases=_release_only("sdk-beta-1.0.0"),
        ),
        _edge("release-vnext", "vNext stays vNext", releases=_release_only("vNext")),
        _edge(
            "release-unicode-digit",
            "v\u0663.1.0: not a JS digit",
            releases=_release_only("v\u0663.1.0"),
        ),
        _edge(
            "release-rc", "v2.0.0-rc.1 prerelease by suffix", releases=_release_only("v2.0.0-rc.1")
        ),
        _edge("release-build", "1.4.0+build.9", releases=_release_only("1.4.0+build.9")),
        _edge("release-major-only", "v3: one part", releases=_release_only("v3")),
        _edge("release-pkg-at", "pkg@1.2.0", releases=_release_only("pkg@1.2.0")),
        _edge(
            "release-newer-prerelease",
            "a newer prerelease hides a stable one",
            releases=[
                FakeRelease("v1.9.0", _at(40), _at(40)),
                FakeRelease("v2.0.0-alpha.1", _at(5), _at(5), prerelease=True),
                FakeRelease("v2.0.0", _at(1), None, draft=True),
            ],
        ),
        _edge("release-none", "no releases at all", releases=[]),
        # spec tracking
        _edge(
            "spec-sdk-20h-before",
            "an SDK release 20 h before the spec counts",
            releases=[FakeRelease("v1.1.0", _at(50 + 20 / 24), _at(50 + 20 / 24))],
            spec_releases=[FakeRelease("2026-03-15", _at(50), _at(50))],
        ),
        _edge(
            "spec-sdk-30h-before",
            "an SDK release 30 h before the spec does not",
            releases=[FakeRelease("v1.1.0", _at(50 + 30 / 24), _at(50 + 30 / 24))],
            spec_releases=[FakeRelease("2026-03-15", _at(50), _at(50))],
        ),
        _edge(
            "spec-round-up",
            "30.6 days after rounds to 31: fail",
            releases=[FakeRelease("v1.1.0", _at(60 - 30.6), _at(60 - 30.6))],
            spec_releases=[FakeRelease("2026-03-05", _at(60), _at(60))],
        ),
        _edge(
            "spec-round-down",
            "30.4 days after rounds to 30: pass",
            releases=[FakeRelease("v1.1.0", _at(60 - 30.4), _at(60 - 30.4))],
            spec_releases=[FakeRelease("2026-03-05", _at(60), _at(60))],
        ),
        _edge(
            "spec-no-sdk-release",
            "only a draft SDK release: skipped",
            releases=[FakeRelease("v1.1.0", _at(3), None, draft=True)],
        ),
        _edge(
            "spec-none-after",
            "no SDK release after the spec: the newest one's date, days since the spec",
            releases=[
                FakeRelease("v1.0.1", _at(200), _at(200)),
                FakeRelease("v1.0.0", _at(300), _at(300)),
            ],
            spec_releases=[FakeRelease("2026-04-20", _at(14.6), _at(14.6))],
        ),
        _edge(
            "spec-prerelease-answers",
            "a prerelease SDK release answers officially, not in SEP-1730",
            releases=[
                FakeRelease("v1.1.0-rc.1", _at(80), _at(80), prerelease=True),
                FakeRelease("v1.0.0", _at(200), _at(200)),
            ],
        ),
        _edge(
            "spec-no-spec",
            "no non-prerelease spec release: skipped, the newest SDK date still reported",
            spec_releases=[FakeRelease("2026-04-01-rc", _at(30), _at(30), prerelease=True)],
        ),
        # labels
        _edge(
            "labels-issue-types-empty",
            "issue_types [] is true in JavaScript",
            repo_issue_types=[],
            repo_issue_types_present=True,
            labels=[n for n in TAXONOMY if n not in {"bug", "question"}],
        ),
        _edge(
            "labels-issue-types-listed",
            "issue_types [Bug]",
            repo_issue_types=[{"name": "Bug"}],
            repo_issue_types_present=True,
            labels=[n for n in TAXONOMY if n != "enhancement"],
        ),
        _edge(
            "labels-issue-types-null",
            "issue_types null",
            repo_issue_types=None,
            repo_issue_types_present=True,
            labels=[n for n in TAXONOMY if n != "enhancement"],
        ),
        _edge(
            "labels-endpoint-only",
            "the /issue-types endpoint alone does not count",
            issue_types=["Bug", "Feature"],
            labels=[n for n in TAXONOMY if n not in {"bug", "enhancement", "question"}],
        ),
        _edge(
            "labels-case",
            "labels compared case-insensitively",
            labels=[n.upper() for n in TAXONOMY],
        ),
        # triage
        _edge("triage-even-count", "median of 4 ages is the third", issues=_unlabelled(4)),
        _edge("triage-p95-index", "p95 of 20 ages is index 19", issues=_unlabelled(20, step=1.37)),
        _edge(
            "triage-rounding",
            "ages ending in .x5 hours",
            issues=_unlabelled(3, hours=10.25, step=0.5),
        ),
        _edge("triage-empty", "no open issues", issues=[]),
        _edge(
            "triage-days",
            "--days 30 keeps issues created in the last 30 days",
            days=30,
            issues=_unlabelled(3, hours=24 * 29) + _unlabelled(3, first=10, hours=24 * 31),
        ),
        _edge(
            "triage-0.89995",
            "1808 of 2009 open issues labelled: 0.89995, not 0.9",
            issues=_labelled(1808, first=1) + _unlabelled(201, first=5000, step=0.01),
        ),
        # P0
        _edge(
            "p0-age-rounding",
            "open P0 4.5 days old: age_days 5",
            issues=[FakeIssue(1, "outage", _at(4.5), labels=("P0",))],
        ),
        _edge(
            "p0-api-order",
            "open P0s listed newest created first",
            issues=[
                FakeIssue(3, "old", _at(9.2), labels=("P0",)),
                FakeIssue(1, "new", _at(1.6), labels=("P0",)),
                FakeIssue(2, "mid", _at(3.5), labels=("p0",)),
            ],
        ),
        _edge(
            "p0-closed-limits",
            "closed P0s at 7 and 14 days exactly, and just over",
            issues=[
                FakeIssue(1, "a", _at(40), labels=("P0",), closed_at=_at(33)),
                FakeIssue(2, "b", _at(60), labels=("P0",), closed_at=_at(46)),
                FakeIssue(3, "c", _at(80), labels=("P0",), closed_at=_at(80 - 7.01)),
            ],
        ),
        # policy
        _edge("policy-all", "all 13 files: pass"),
        _edge("policy-twelve", "12 of 13: partial", tree=list(OFFICIAL_POLICY_PATHS[:-1])),
        _edge("policy-none", "none: fail", tree=["README.md"]),
        _edge(
            "policy-six-categories",
            "every category, not every file: partial officially",
            tree=[
                "CHANGELOG.md",
                "SECURITY.md",
                "CONTRIBUTING.md",
                "renovate.json",
                "ROADMAP.md",
                "VERSIONING.md",
            ],
        ),
    ]


# --- the datasets existing tests use -------------------------------------------------------


def _fake_release(release: object) -> FakeRelease:
    from tiercheck.governance.snapshot import Release, format_time

    assert isinstance(release, Release)
    return FakeRelease(
        release.tag,
        format_time(release.created_at),
        format_time(release.published_at) if release.published_at else None,
        draft=release.draft,
        prerelease=release.prerelease,
    )


def dataset_from_snapshot(snapshot: Snapshot) -> Dataset:
    """The fake GitHub that would have produced `snapshot` (its facts, served back)."""
    from tiercheck.governance.snapshot import IssueFacts, LabelFacts, PolicyFileFacts, format_time

    labels = snapshot.labels
    issues = snapshot.issues
    assert isinstance(labels, LabelFacts)
    assert isinstance(issues, IssueFacts)
    assert isinstance(snapshot.releases, ReleaseFacts)
    assert isinstance(snapshot.spec_releases, ReleaseFacts)
    assert isinstance(snapshot.policy_files, PolicyFileFacts)
    fake_issues = []
    for issue in issues.issues:
        events = [
            FakeEvent(
                e.action, format_time(e.at), e.actor or "ghost", e.actor_type or "User", e.label
            )
            for e in (issue.timeline.label_events if issue.timeline else ())
        ]
        if issue.timeline and issue.timeline.first_response_at:
            events.append(
                FakeEvent("comment", format_time(issue.timeline.first_response_at), "maint")
            )
        fake_issues.append(
            FakeIssue(
                issue.number,
                issue.title,
                format_time(issue.created_at),
                author=issue.author.login,
                author_type=issue.author.type,
                association=issue.author.association,
                labels=issue.labels,
                closed_at=format_time(issue.closed_at) if issue.closed_at else None,
                state_reason=issue.state_reason,
                events=tuple(sorted(events, key=lambda e: e.at)),
            )
        )
    return Dataset(
        repo=snapshot.repo,
        labels=list(labels.names),
        issues=fake_issues,
        releases=[_fake_release(r) for r in snapshot.releases.releases],
        spec_releases=[_fake_release(r) for r in snapshot.spec_releases.releases],
        tree=list(snapshot.policy_files.paths),
        repo_issue_types=[{"name": "Bug"}] if labels.uses_issue_types else None,
        repo_issue_types_present=labels.uses_issue_types,
    )


def existing_cases() -> list[Case]:
    """governance_fixtures' datasets and the sample SDK's snapshot, each judged after its end."""
    fixture = dataset()
    big = big_dataset(260, 40)
    sample = load_snapshot(SAMPLE_SNAPSHOT)
    after_fixture = datetime(2025, 6, 20, 9, 0, tzinfo=UTC)  # after its last event (06-18)
    return [
        Case("fixture", "existing", fixture, after_fixture, note="governance_fixtures.dataset()"),
        Case("fixture-days", "existing", fixture, after_fixture, days=14, note="… with --days 14"),
        Case(
            "fixture-late", "existing", fixture, after_fixture + timedelta(days=45), note="… later"
        ),
        Case("big", "existing", big, datetime(2025, 7, 1, tzinfo=UTC), note="big_dataset(260, 40)"),
        Case(
            "sample-sdk",
            "existing",
            dataset_from_snapshot(sample),
            sample.captured_at,
            note="examples/sample-sdk/governance-snapshot.json",
        ),
    ]


def all_cases() -> list[Case]:
    """Every case, each under its own repository name (they share one fake server)."""
    cases = generated_cases() + edge_cases() + existing_cases()
    keys = [case.key for case in cases]
    assert len(set(keys)) == len(keys)
    return cases
