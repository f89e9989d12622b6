"""The SEP-1730 rules no official check reads, against numbers worked out by hand: issues
unaddressed for two months, a stable release by the revision's release date, and the tier each
side alone would earn."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

import pytest

from tiercheck.governance.signals import compute_signals
from tiercheck.governance.signals.release_date import (
    CandidateRelease,
    judge_release_by_date,
    revision_released,
)
from tiercheck.governance.signals.unaddressed import unaddressed_signal
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
    Unavailable,
)
from tiercheck.revisions import release_date
from tiercheck.tier import LegSummary, compute_tier

#: The stateless revision, released on the day it is named after (requirements/revisions.yaml).
STATELESS = "2026-07-28"

AS_OF = datetime(2026, 10, 1, 12, tzinfo=UTC)
USER = Author("someone", "User", "NONE")
BOT = Author("helper[bot]", "Bot", "NONE")
LABELS = (
    "bug",
    "enhancement",
    "question",
    "needs confirmation",
    "needs repro",
    "ready for work",
    "good first issue",
    "help wanted",
    "P0",
    "P1",
    "P2",
    "P3",
)


def _issue(
    number: int,
    age_days: float,
    *,
    events: tuple[LabelEvent, ...] = (),
    response: datetime | None = None,
    closed: datetime | None = None,
    author: Author = USER,
) -> Issue:
    created = AS_OF - timedelta(days=age_days)
    return Issue(
        number=number,
        title=f"issue {number}",
        created_at=created,
        updated_at=created,
        closed_at=closed,
        state="closed" if closed else "open",
        state_reason="completed" if closed else None,
        author=author,
        labels=tuple(e.label for e in events),
        timeline=Timeline(label_events=events, complete=True, first_response_at=response),
    )


def _snapshot(
    issues: tuple[Issue, ...] = (),
    releases: tuple[Release, ...] = (),
    spec_releases: tuple[Release, ...] = (),
    timeline_reason: str | None = None,
) -> Snapshot:
    return Snapshot(
        repo="example/sdk",
        captured_at=AS_OF,
        api_base="http://127.0.0.1",
        authenticated=True,
        labels=LabelFacts(names=LABELS, uses_issue_types=False),
        issues=IssueFacts(issues=issues, truncated=False, timeline_reason=timeline_reason),
        releases=ReleaseFacts(releases=releases, truncated=False),
        spec_releases=ReleaseFacts(releases=spec_releases, truncated=False),
        policy_files=PolicyFileFacts(paths=(), source="git-tree", truncated=False),
    )


# --- issues unaddressed for two months --------------------------------------------------------


def test_59_days_unanswered_is_not_yet_two_months_and_61_is() -> None:
    # #1 opened 59 days before as_of, #2 61 days before; neither labelled nor answered.
    # Two months are 60 days: only #2 has remained unaddressed for two months.
    found = unaddressed_signal(_snapshot((_issue(1, 59), _issue(2, 61))), AS_OF)
    assert (found.status, found.open_issues, found.addressed) == ("fail", 2, 0)
    assert found.unaddressed_total == 1
    assert [(i.number, i.age_days) for i in found.unaddressed] == [(2, 61)]
    assert found.oldest_age_days == 61


def test_the_boundary_is_exact_and_measured_from_as_of() -> None:
    # Exactly 60 days before as_of counts; a second less does not. The same snapshot judged a
    # day later makes the 59-day issue 60 days old.
    exact = _issue(1, 60)
    just_under = _issue(2, 60 - 1 / 86400)
    found = unaddressed_signal(_snapshot((exact, just_under)), AS_OF)
    assert [i.number for i in found.unaddressed] == [1]
    later = unaddressed_signal(_snapshot((_issue(3, 59),)), AS_OF + timedelta(days=1))
    assert [(i.number, i.age_days) for i in later.unaddressed] == [(3, 60)]
    earlier = unaddressed_signal(_snapshot((_issue(4, 61),)), AS_OF - timedelta(days=2))
    assert earlier.status == "pass"


def test_a_label_or_an_answer_by_someone_else_addresses_an_issue() -> None:
    day = timedelta(days=1)
    labelled = _issue(1, 90, events=(LabelEvent("labeled", "bug", AS_OF - 80 * day, "m", "User"),))
    answered = _issue(2, 90, response=AS_OF - 85 * day)
    # The author's own label and a bot's label are not a response; nor is an answer after as_of.
    self_labelled = _issue(
        3, 90, events=(LabelEvent("labeled", "bug", AS_OF - 80 * day, "someone", "User"),)
    )
    bot_labelled = _issue(
        4, 90, events=(LabelEvent("labeled", "bug", AS_OF - 80 * day, "triage[bot]", "Bot"),)
    )
    answered_later = _issue(5, 90, response=AS_OF + day)
    # Closed issues no longer remain; bot-opened ones are left out.
    closed = _issue(6, 90, closed=AS_OF - day)
    by_bot = _issue(7, 90, author=BOT)
    found = unaddressed_signal(
        _snapshot(
            (labelled, answered, self_labelled, bot_labelled, answered_later, closed, by_bot)
        ),
        AS_OF,
    )
    assert (found.open_issues, found.addressed) == (5, 2)
    assert [i.number for i in found.unaddressed] == [3, 4, 5]


def test_unaddressed_is_inconclusive_without_timelines_and_blocks_no_tier() -> None:
    missing = unaddressed_signal(
        _snapshot((_issue(1, 61),), timeline_reason="no token: GraphQL refused"), AS_OF
    )
    assert (missing.status, missing.reason) == ("inconclusive", "no token: GraphQL refused")
    gone = replace(_snapshot(), issues=Unavailable("rate limited"))
    assert unaddressed_signal(gone, AS_OF).status == "inconclusive"
    # A relegation signal: the implied tier, official or SEP-1730, does not read it.
    spec = Release("2026-07-28", None, False, False, *(datetime(2026, 7, 28, tzinfo=UTC),) * 2)
    stable = Release("v1.0.0", None, False, False, *(datetime(2026, 7, 27, tzinfo=UTC),) * 2)
    signals = compute_signals(_snapshot((), (stable,), (spec,)), AS_OF)
    with_late = compute_signals(_snapshot((_issue(1, 61),), (stable,), (spec,)), AS_OF)
    full = LegSummary("measured", 1.0)
    assert with_late.unaddressed_issues.status == "fail"
    # The unlabelled issue weighs on triage; swapping only the unaddressed signal moves nothing.
    cleared = replace(with_late, unaddressed_issues=signals.unaddressed_issues)
    assert compute_tier(full, full, with_late) == compute_tier(full, full, cleared)
    assert with_late.to_dict()["unaddressed_issues"]["official"] is None


# --- a stable release by the revision's release date ------------------------------------------

SPEC_DAY = date(2026, 7, 28)


@pytest.mark.parametrize(
    ("published", "commits_after", "status", "days"),
    [
        (date(2026, 7, 27), 0, "by the release date", -1),
        (date(2026, 7, 28), 0, "by the release date", 0),
        (date(2026, 7, 29), 0, "after the release date", 1),
        # Out a day early, but the commit assessed is past it: its support was not measured.
        (date(2026, 7, 27), 3, "not determined", -1),
        (date(2026, 7, 27), None, "not determined", -1),
    ],
)
def test_release_one_day_before_and_one_day_after(
    published: date, commits_after: int | None, status: str, days: int
) -> None:
    found = judge_release_by_date(
        "2026-07-28",
        SPEC_DAY,
        "GitHub release",
        CandidateRelease("v1.2.0", published, stable=True, commits_after=commits_after),
    )
    assert (found.status, found.days_after, found.within_six_months) == (status, days, True)


def test_release_date_rule_edges() -> None:
    assert judge_release_by_date("r", SPEC_DAY, "x", None).status == "no stable release"
    prerelease = CandidateRelease("v2.0.0-rc.1", date(2026, 7, 1), stable=False, commits_after=0)
    assert judge_release_by_date("r", SPEC_DAY, "x", prerelease).status == "no stable release"
    # 183 days is within six months (half of 365, rounded up); 184 is not.
    late = CandidateRelease("v1.9.0", SPEC_DAY + timedelta(days=184), stable=True)
    assert judge_release_by_date("r", SPEC_DAY, "x", late).within_six_months is False
    # The revision's date: its GitHub release when listed, else the day it is named after.
    listed = [("2026-07-28", datetime(2026, 7, 29, 1, tzinfo=UTC))]
    assert revision_released(STATELESS, listed) == (date(2026, 7, 29), "GitHub release")
    assert revision_released(STATELESS, []) == (date(2026, 7, 28), "the revision's data")
    assert release_date(STATELESS) == date(2026, 7, 28)
    assert release_date("1999-01-01") is None


def _release(tag: str, day: date, prerelease: bool = False) -> Release:
    moment = datetime(day.year, day.month, day.day, 9, tzinfo=UTC)
    return Release(tag, None, False, prerelease, moment, moment)


def test_the_scorecard_offers_the_newest_stable_release_out_by_the_date() -> None:
    spec = _release("2026-07-28", SPEC_DAY)
    # One day before: v1.1.0 was out by the date (whether it supported the revision is not
    # measured here); the prerelease and the 0.x release do not count.
    before = _snapshot(
        releases=(
            _release("v1.2.0", date(2026, 8, 10)),
            _release("v1.1.0", date(2026, 7, 27)),
            _release("v1.1.0-rc.1", date(2026, 7, 20), prerelease=True),
        ),
        spec_releases=(spec,),
    )
    rule = {r.revision: r for r in compute_signals(before, AS_OF).spec_tracking.by_release_date}
    mine = rule[STATELESS]
    assert (mine.release, mine.days_after, mine.status) == ("v1.1.0", -1, "not determined")
    # One day after, and nothing stable before it: Tier 2 by default.
    after = _snapshot(
        releases=(_release("v1.0.0", date(2026, 7, 29)), _release("v0.9.0", date(2026, 7, 1))),
        spec_releases=(spec,),
    )
    rule = {r.revision: r for r in compute_signals(after, AS_OF).spec_tracking.by_release_date}
    mine = rule[STATELESS]
    assert (mine.release, mine.days_after, mine.status) == ("v1.0.0", 1, "after the release date")
    # Beside the official reading, which it never changes.
    signal = compute_signals(after, AS_OF).spec_tracking
    assert signal.to_dict()["by_release_date"][-1]["status"] == "after the release date"
    assert "by_release_date" not in signal.official_fields()


# --- the tier each side alone would earn ------------------------------------------------------


def test_each_side_alone_beside_the_implied_tier() -> None:
    spec = _release("2026-07-28", SPEC_DAY)
    signals = compute_signals(
        _snapshot(releases=(_release("v1.0.0", date(2026, 7, 27)),), spec_releases=(spec,)), AS_OF
    )
    full = LegSummary("measured", 1.0)
    # Server 100%, client 70%: the implied tier is 3 (client < 80%); the server side alone
    # (client taken as 100%) earns Tier 1, the client side alone (server at 100%) Tier 3.
    implied = compute_tier(full, LegSummary("measured", 0.7), signals)
    assert implied.tier == 3
    assert implied.legs is not None
    assert (implied.legs.server, implied.legs.client) == (1, 3)
    assert (implied.legs.sep1730_server, implied.legs.sep1730_client) == (1, 3)
    # Server 90%, client 100%: 2 overall, server alone 2, client alone 1.
    mixed = compute_tier(LegSummary("measured", 0.9), full, signals)
    assert mixed.tier == 2
    assert mixed.legs is not None
    assert (mixed.legs.server, mixed.legs.client) == (2, 1)
    # A skipped client: nothing to say about the client side alone. Officially the skipped leg
    # blocks Tier 1 overall; the server side alone does not carry it.
    skipped = compute_tier(full, LegSummary("skipped", reason="no client"), signals)
    assert skipped.tier == 2
    assert skipped.legs is not None
    assert (skipped.legs.server, skipped.legs.client) == (1, None)
