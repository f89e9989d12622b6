"""Disputed scenarios: recorded from the conformance repository through the real collector and
PyGithub (the fake GitHub), replayed at two `--as-of` days, and read by SEP-1730 only.

The facts are worked by hand: the server leg at 2025-11-25 has five scored scenarios, four
pass and `tools-call-image` fails, so the official pass rate is 4/5 = 80%. Issue #7 of the
conformance repository disputes `tools-call-image`: opened 2026-09-01, labelled `disputed`
2026-09-02, closed 2026-10-01. On 2026-09-15 the dispute is open, so SEP-1730 reads 4/4 = 100%
and the leg does not block Tier 1 there; on 2026-10-15 it is resolved, so SEP-1730 reads 4/5
again and the leg blocks Tier 1. The official reading is 4/5 on both days.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from support.fake_github import Dataset, FakeEvent, FakeGitHub, FakeIssue
from tiercheck.cli import main
from tiercheck.config.disputes import DisputeEntry, load_disputes
from tiercheck.errors import ConfigError
from tiercheck.ghapi import Transport
from tiercheck.governance.collector import collect
from tiercheck.governance.disputes import CONFORMANCE_REPO, disputes_on, issue_open_on
from tiercheck.governance.signals import compute_signals
from tiercheck.governance.snapshot import DisputeFacts, Snapshot, load_snapshot, save_snapshot
from tiercheck.scorecard.build import leg_summary, merged_leg_entry
from tiercheck.scoring import ScenarioVerdict, merge_revisions, with_unmeasured
from tiercheck.scoring import mark_disputes as mark
from tiercheck.tier import compute_tier

R = "2025-11-25"
ISSUE = f"https://github.com/{CONFORMANCE_REPO}/issues/7"
OPEN_DAY = datetime(2026, 9, 15, tzinfo=UTC)
RESOLVED_DAY = datetime(2026, 10, 15, tzinfo=UTC)

ENTRY = DisputeEntry(
    scenario="tools-call-image",
    leg="server",
    revisions=(R,),
    issue=ISSUE,
    reason="the check requires a MIME type the spec leaves open",
    disputed_since=date(2026, 9, 2),
    resolved_on=None,
    reviewed_by="reviewer",
    reviewed_on=date(2026, 9, 3),
)


def _conformance_issues() -> list[FakeIssue]:
    disputed = FakeIssue(
        number=7,
        title="tools-call-image: MIME type check",
        created_at="2026-09-01T10:00:00Z",
        labels=("disputed",),
        closed_at="2026-10-01T12:00:00Z",
        state_reason="completed",
        events=(
            FakeEvent("labeled", "2026-09-02T09:00:00Z", "maintainer", label="disputed"),
            FakeEvent("closed", "2026-10-01T12:00:00Z", "maintainer"),
        ),
    )
    other = FakeIssue(number=8, title="unrelated", created_at="2026-09-01T10:00:00Z")
    return [disputed, other]


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    fake = FakeGitHub(Dataset(repo="someone/sdk", conformance_issues=_conformance_issues()))
    fake.start()
    try:
        yield fake
    finally:
        fake.stop()


def _record(fake: FakeGitHub, path: Path) -> Snapshot:
    snapshot = collect(
        "someone/sdk",
        api_url=fake.url,
        token=None,
        cache_dir=None,
        checkout=None,
        now=datetime(2026, 11, 1, tzinfo=UTC),
        transport=Transport(throttle=None, write_throttle=None, retries=0),
        disputes_repo=CONFORMANCE_REPO,
    )
    save_snapshot(snapshot, path)
    return load_snapshot(path)


def _server_leg() -> list[ScenarioVerdict]:
    passing = ["server-initialize", "tools-list", "resources-list", "prompts-list"]
    details = [ScenarioVerdict(name, R, passed=True, checks_passed=1) for name in passing]
    details.append(ScenarioVerdict("tools-call-image", R, passed=False, checks_failed=1))
    return details


def test_the_collector_records_the_disputed_issues_with_their_events(
    github: FakeGitHub, tmp_path: Path
) -> None:
    snapshot = _record(github, tmp_path / "snap.json")
    facts = snapshot.disputes
    assert isinstance(facts, DisputeFacts)
    assert (facts.repo, facts.label) == (CONFORMANCE_REPO, "disputed")
    assert [i.number for i in facts.issues] == [7]  # #8 has no `disputed` label
    issue = facts.issues[0]
    assert (issue.state, issue.events_complete) == ("closed", True)
    assert [(e.action, e.label) for e in issue.events] == [
        ("labeled", "disputed"),
        ("closed", None),
    ]
    # Asked through the REST listing filtered by the label, then the issue's event list.
    paths = [r.path for r in github.log]
    assert f"/repos/{CONFORMANCE_REPO}/issues" in paths
    assert f"/repos/{CONFORMANCE_REPO}/issues/7/events" in paths


def test_open_then_resolved_over_one_recorded_snapshot(github: FakeGitHub, tmp_path: Path) -> None:
    snapshot = _record(github, tmp_path / "snap.json")
    leg = with_unmeasured("server", R, _server_leg(), results_dir=None, reason="x")
    merged = merge_revisions([leg])
    client = leg_summary(
        merge_revisions(
            [
                with_unmeasured(
                    "client",
                    R,
                    [ScenarioVerdict("initialize", R, passed=True, checks_passed=1)],
                    results_dir=None,
                    reason="x",
                )
            ]
        )
    )

    open_leg = mark(merged, disputes_on([ENTRY], snapshot.disputes, OPEN_DAY))
    resolved_leg = mark(merged, disputes_on([ENTRY], snapshot.disputes, RESOLVED_DAY))

    on_open = compute_tier(leg_summary(open_leg), client, compute_signals(snapshot, OPEN_DAY))
    on_resolved = compute_tier(
        leg_summary(resolved_leg), client, compute_signals(snapshot, RESOLVED_DAY)
    )
    official_open = [b.check for b in on_open.tier1_blockers]
    official_resolved = [b.check for b in on_resolved.tier1_blockers]
    sep_open = [b.check for b in on_open.sep1730.blockers]
    sep_resolved = [b.check for b in on_resolved.sep1730.blockers]
    # The official reading never changes: 4/5 both days.
    assert "server_conformance" in official_open
    assert "server_conformance" in official_resolved
    assert (open_leg.passed, open_leg.total, open_leg.pass_rate) == (4, 5, 0.8)
    # SEP-1730: excluded while open (4/4), counted again (and failing) once resolved (4/5).
    assert "server_conformance" not in sep_open
    assert "server_conformance" in sep_resolved

    entry = merged_leg_entry(open_leg)
    assert entry.sep1730 is not None
    assert (entry.sep1730.passed, entry.sep1730.total, entry.sep1730.disputed) == (4, 4, 1)
    assert entry.sep1730.pass_rate == 1.0
    (image,) = [d for d in entry.details if d.scenario == "tools-call-image"]
    assert image.dispute is not None
    assert (image.dispute.state, image.dispute.verified, image.passed) == ("open", True, False)
    assert image.dispute.title == "tools-call-image: MIME type check"

    after = merged_leg_entry(resolved_leg)
    assert after.sep1730 is not None
    assert (after.sep1730.passed, after.sep1730.total, after.sep1730.disputed) == (4, 5, 0)
    assert after.details[-1].dispute is not None
    assert after.details[-1].dispute.state == "resolved"


def test_a_dispute_the_snapshot_lacks_is_unverified_and_read_from_the_file() -> None:
    marks = disputes_on([ENTRY], None, OPEN_DAY)
    mark_ = marks[(R, "server", "tools-call-image")]
    assert (mark_.state, mark_.verified) == ("open", False)
    assert mark_.why.startswith("unverified:")
    before = disputes_on([ENTRY], None, datetime(2026, 9, 1, tzinfo=UTC))
    assert before[(R, "server", "tools-call-image")].state == "resolved"


def test_label_removed_then_put_back_and_a_reopened_issue(github: FakeGitHub) -> None:
    from tiercheck.governance.snapshot import DisputedIssue, IssueEvent

    def at(day: int) -> datetime:
        return datetime(2026, 9, day, tzinfo=UTC)

    issue = DisputedIssue(
        number=9,
        title="t",
        url="u",
        state="open",
        pull_request=False,
        created_at=at(1),
        closed_at=None,
        labels=("disputed",),
        events=(
            IssueEvent("labeled", at(2), "disputed"),
            IssueEvent("unlabeled", at(4), "disputed"),
            IssueEvent("labeled", at(6), "disputed"),
            IssueEvent("closed", at(8)),
            IssueEvent("reopened", at(10)),
        ),
        events_complete=True,
    )
    opened = [day for day in range(1, 12) if issue_open_on(issue, at(day))]
    assert opened == [2, 3, 6, 7, 10, 11]


def test_a_bad_disputes_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "disputes.yaml"
    bad.write_text(
        "disputes:\n  - scenario: tools-call-image\n    leg: sever\n    revisions: ['2025-11-25']\n"
        f"    issue: {ISSUE}\n    reason: r\n    disputed_since: '2026-09-02'\n"
        "    reviewed_by: me\n    reviewed_on: '2026-09-03'\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError):
        load_disputes(bad)
    argv = ["--sdk-path", str(tmp_path), "--repo", "someone/sdk", "--skip-governance"]
    code = main([*argv, "--disputes", str(bad), "--no-history", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert "disputes.yaml" in err
    assert "leg" in err
    assert "Traceback" not in err


def test_the_shipped_disputes_file_loads() -> None:
    from tiercheck.config.disputes import default_disputes_path

    assert load_disputes(default_disputes_path()) == ()


# --- an event list cut at the page bound ------------------------------------------------------


def _cut(snapshot: Snapshot) -> Snapshot:
    """`snapshot` with issue #7's event list marked cut, its close event lost (the collector
    keeps the earliest events)."""
    facts = snapshot.disputes
    assert isinstance(facts, DisputeFacts)
    (issue,) = facts.issues
    cut = dataclasses.replace(issue, events=issue.events[:1], events_complete=False)
    return dataclasses.replace(snapshot, disputes=dataclasses.replace(facts, issues=(cut,)))


def test_a_cut_event_list_is_unverified_not_trusted(github: FakeGitHub, tmp_path: Path) -> None:
    snapshot = _record(github, tmp_path / "snap.json")
    whole = disputes_on([ENTRY], snapshot.disputes, OPEN_DAY)[(R, "server", "tools-call-image")]
    assert (whole.state, whole.verified) == ("open", True)

    cut = _cut(snapshot)
    on_open = disputes_on([ENTRY], cut.disputes, OPEN_DAY)[(R, "server", "tools-call-image")]
    assert (on_open.state, on_open.verified) == ("open", False)
    assert on_open.why.startswith("unverified: issue #7's event list was cut at the page bound")
    # The close event (2026-10-01) is among those lost: the issue's own closing time (from the
    # listing) still says resolved on 2026-10-15, but nothing could check a reopen or unlabel.
    late = disputes_on([ENTRY], cut.disputes, RESOLVED_DAY)[(R, "server", "tools-call-image")]
    assert (late.state, late.verified) == ("resolved", False)


# --- `tier-check governance` reports the disputes --------------------------------------------

DISPUTES_YAML = (
    "disputes:\n"
    "  - scenario: tools-call-image\n"
    "    leg: server\n"
    f"    revisions: ['{R}']\n"
    f"    issue: {ISSUE}\n"
    "    reason: the check requires a MIME type the spec leaves open\n"
    "    disputed_since: '2026-09-02'\n"
    "    reviewed_by: reviewer\n"
    "    reviewed_on: '2026-09-03'\n"
    "  - scenario: tools-list\n"
    "    leg: server\n"
    f"    revisions: ['{R}']\n"
    f"    issue: https://github.com/{CONFORMANCE_REPO}/pull/12\n"
    "    reason: not in the snapshot\n"
    "    disputed_since: '2026-09-10'\n"
    "    resolved_on: '2026-09-20'\n"
    "    reviewed_by: reviewer\n"
    "    reviewed_on: '2026-09-11'\n"
)


def _governance(
    capsys: pytest.CaptureFixture[str], snapshot: Path, disputes: Path, day: str, *more: str
) -> str:
    argv = ["governance", "--repo", "someone/sdk", "--governance-snapshot", str(snapshot)]
    code = main([*argv, "--as-of", day, "--disputes", str(disputes), *more])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return out


def test_the_governance_command_reports_each_dispute_and_its_scenarios(
    github: FakeGitHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    snap = tmp_path / "snap.json"
    _record(github, snap)
    disputes = tmp_path / "disputes.yaml"
    disputes.write_text(DISPUTES_YAML, encoding="utf-8")

    data = json.loads(_governance(capsys, snap, disputes, "2026-09-15", "--output", "json"))
    listing = data["disputes"]
    assert (listing["repo"], listing["label"], listing["status"]) == (
        CONFORMANCE_REPO,
        "disputed",
        "recorded",
    )
    # #7 from the snapshot (open on 2026-09-15, verified); #12 only in the file (its dates:
    # 2026-09-10 to 2026-09-20, so open; unverified).
    got = [
        (i["number"], i["recorded"], i["state"], i["verified"], i["scenarios"])
        for i in listing["items"]
    ]
    assert got == [
        (7, True, "open", True, [f"server tools-call-image @ {R}"]),
        (12, False, "open", False, [f"server tools-list @ {R}"]),
    ]
    assert listing["items"][0]["title"] == "tools-call-image: MIME type check"

    text = _governance(capsys, snap, disputes, "2026-10-15")
    assert (
        "  Disputed conformance tests (modelcontextprotocol/conformance, label 'disputed') "
        "on 2026-10-15:\n"
        "    issue #7: resolved (verified) \u201ctools-call-image: MIME type check\u201d\n"
        f"      {ISSUE}\n"
        f"      scenarios: server tools-call-image @ {R}\n"
        "      issue #7 was resolved (labelled 'disputed') on 2026-10-15 per the snapshot\n"
        "    pull request #12: resolved (unverified)\n"
        f"      https://github.com/{CONFORMANCE_REPO}/pull/12\n"
        f"      scenarios: server tools-list @ {R}\n"
        "      unverified: the snapshot lists no such issue labelled 'disputed' in "
        "modelcontextprotocol/conformance; the data file's dates say resolved on 2026-10-15\n"
    ) in text


def test_the_governance_command_calls_a_cut_event_list_unverified(
    github: FakeGitHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    snap = tmp_path / "snap.json"
    save_snapshot(_cut(_record(github, snap)), snap)
    disputes = tmp_path / "disputes.yaml"
    disputes.write_text(DISPUTES_YAML, encoding="utf-8")
    text = _governance(capsys, snap, disputes, "2026-09-15")
    assert "    issue #7: open (unverified) \u201ctools-call-image: MIME type check\u201d\n" in text
    assert "      unverified: issue #7's event list was cut at the page bound" in text


def test_no_dispute_recorded_and_none_reviewed_prints_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The sample SDK's snapshot predates the disputes record; the shipped file names none.
    sample = Path(__file__).resolve().parents[3] / "examples" / "sample-sdk"
    argv = ["governance", "--repo", "tiercheck/sample-sdk", "--output", "json"]
    code = main([*argv, "--governance-snapshot", str(sample / "governance-snapshot.json")])
    out, _ = capsys.readouterr()
    assert code == 0
    assert "disputes" not in json.loads(out)


def test_the_governance_listing_prints_every_recorded_text_as_one_plain_line() -> None:
    # A recorded snapshot is a file anyone can hand in: its repository, label, titles and the
    # data file's scenario names reach the terminal only as plain single lines.
    from tiercheck.governance.table import _disputes

    hostile = "a\x1b[31mb\nc\x00d"
    listing = {
        "repo": hostile,
        "label": hostile,
        "status": "recorded",
        "reason": None,
        "truncated": False,
        "items": [
            {
                "number": 7,
                "url": hostile,
                "title": hostile,
                "pull_request": False,
                "recorded": True,
                "state": "open",
                "verified": True,
                "why": hostile,
                "scenarios": [hostile],
            }
        ],
    }
    lines = _disputes(listing, "2026-09-15")
    assert len(lines) == 6  # the blank line, the heading, the issue, its URL, scenarios, why
    for line in lines:
        assert "\x1b" not in line
        assert "\x00" not in line
        assert "\n" not in line
