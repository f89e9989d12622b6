"""SEP-1730's other relegation ground, issues unaddressed for two months, in the relegation view:
recorded per run (the run record, the SQLite history, the data file) and shown beside the
conformance clock as the latest run judged it.

Worked by hand: the snapshot holds one open issue, #7, opened by a person on 3 August 2026 at
03:00 UTC, never labelled or answered. Night n of `support.nights` is 1 October 2026 + (n - 1)
days at 03:00 UTC. From 3 August to 3 September is 31 days, from 3 September to 1 October 28:
on night 1 the issue is 59 days old (not yet two months: no ground); on night 3 it is 61 days
old (two months are 60 days): the ground holds, one issue, the oldest #7 at 61 days.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from support.hostile_text import HOSTILE, hostile_runs, hostile_scorecard
from support.nights import night, night_scorecard
from support.schema_check import conforms
from tiercheck.dashboard.build import build_dashboard
from tiercheck.dashboard.html import render_line
from tiercheck.document_formats import HISTORY_FORMATS
from tiercheck.governance.signals.unaddressed import unaddressed_signal
from tiercheck.governance.snapshot import (
    Author,
    Issue,
    IssueFacts,
    LabelFacts,
    PolicyFileFacts,
    ReleaseFacts,
    Snapshot,
    Timeline,
    Unavailable,
)
from tiercheck.history.datafile import record_of_file, run_file_text
from tiercheck.history.record import RunRecord, record_of
from tiercheck.history.render import render_markdown as history_markdown
from tiercheck.history.render import render_terminal as history_terminal
from tiercheck.history.report import HistoryReport, history_report
from tiercheck.history.section import history_block
from tiercheck.history.store import HistoryStore
from tiercheck.model import from_json, to_json
from tiercheck.scorecard.model import Scorecard, SignalEntry
from tiercheck.scorecard.render.html import render_html
from tiercheck.scorecard.render.json_format import render_json
from tiercheck.scorecard.render.markdown import render_markdown
from tiercheck.scorecard.render.terminal import render_terminal

SCHEMAS = Path(__file__).resolve().parents[3] / "tiercheck" / "schemas"
OPENED = datetime(2026, 8, 3, 3, 0, tzinfo=UTC)
TITLE = "Server hangs on shutdown"
LINE = "go-sdk"
#: The words every rendering must use: "may", the reviewers' discretion, never the clock.
RULE = "SEP-1730: an SDK may also be relegated, at the reviewers' discretion; no four-week clock"


def _snapshot(title: str = TITLE, *, issues: bool = True) -> Snapshot:
    issue = Issue(
        number=7,
        title=title,
        created_at=OPENED,
        updated_at=OPENED,
        closed_at=None,
        state="open",
        state_reason=None,
        author=Author("reporter", "User", "NONE"),
        labels=(),
        timeline=Timeline(label_events=(), complete=True, first_response_at=None),
    )
    facts = (
        IssueFacts(issues=(issue,), truncated=False, timeline_reason=None)
        if issues
        else Unavailable(reason="GitHub rate limit exhausted")
    )
    return Snapshot(
        repo=f"example-org/{LINE}",
        captured_at=night(3),
        api_base="http://127.0.0.1",
        authenticated=True,
        labels=LabelFacts(names=("bug",), uses_issue_types=False),
        issues=facts,
        releases=ReleaseFacts(releases=(), truncated=False),
        spec_releases=ReleaseFacts(releases=(), truncated=False),
        policy_files=PolicyFileFacts(paths=(), source="git-tree", truncated=False),
    )


def _night(n: int, snapshot: Snapshot | None = None) -> Scorecard:
    """Night `n`'s scorecard of the line, its unaddressed issues judged at the run's time by
    the real signal."""
    doc = night_scorecard(LINE, n)
    signal = unaddressed_signal(snapshot or _snapshot(), night(n))
    entry = from_json(SignalEntry, signal.to_dict(), "checks.unaddressed_issues")
    checks = dataclasses.replace(doc.checks, unaddressed_issues=entry)
    return dataclasses.replace(doc, checks=checks)


def _stored(tmp_path: Path, *docs: Scorecard) -> list[RunRecord]:
    store = HistoryStore(tmp_path / "history.sqlite")
    for doc in docs:
        store.append(record_of(doc))
    return store.runs(LINE)


def _report(runs: list[RunRecord], n: int) -> HistoryReport:
    return history_report(
        runs, sdk=LINE, database="h", as_of=night(n) + timedelta(hours=1), since=None
    )


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_59_days_is_no_ground_and_61_days_is_one_with_the_issue_and_its_age(
    tmp_path: Path,
) -> None:
    runs = _stored(tmp_path, _night(1), _night(3))
    # Night 1: the issue is 59 days old.
    early = _report(runs, 1)
    assert early.unaddressed.status == "none"
    assert early.unaddressed.issues == 0
    text = _flat(history_terminal(early))
    assert "two months (" + RULE + "): none as of the run of 2026-10-01T03:00:00Z" in text
    assert "#7" not in text
    assert TITLE not in text
    # Night 3: 61 days.
    late = _report(runs, 3)
    ground = late.unaddressed
    assert (ground.status, ground.issues, ground.oldest_number) == ("unaddressed", 1, 7)
    assert (ground.oldest_age_days, ground.oldest_title) == (61, TITLE)
    assert ground.timestamp == "2026-10-03T03:00:00Z"
    expected = (
        "1 issue(s) unaddressed 60+ days as of the run of 2026-10-03T03:00:00Z; oldest #7, "
        f"61 days old: {TITLE}"
    )
    terminal = _flat(history_terminal(late))
    assert expected in terminal
    assert RULE in terminal
    # Beside the conformance clock, never in it: the clock's rules have no stable release to
    # read yet (no run of @stable), and nothing about the ground is "due".
    relegation = terminal.split("relegation (SEP-1730):")[1].split("flaky")[0]
    assert "no stable release assessed yet" in relegation
    assert "#7" in relegation
    assert "DUE" not in relegation
    markdown = history_markdown(late)
    assert "oldest `#7,` 61 days old: Server hangs on shutdown" in markdown
    data = json.loads(HISTORY_FORMATS.get("json").render(late, False))
    assert data["unaddressed"]["status"] == "unaddressed"
    assert data["unaddressed"]["oldest_number"] == 7
    assert data["unaddressed"]["oldest_age_days"] == 61


def test_the_scorecard_history_section_in_every_format(tmp_path: Path) -> None:
    runs = _stored(tmp_path, _night(1), _night(3))
    for n, holds in ((1, False), (3, True)):
        current = runs[n // 2]
        block = history_block(runs[: n // 2], current, database="h")
        doc = dataclasses.replace(_night(n), history=block)
        assert block.unaddressed is not None
        assert block.unaddressed.status == ("unaddressed" if holds else "none")
        data = json.loads(render_json(doc))
        conforms(data, json.loads((SCHEMAS / "scorecard.schema.json").read_text()))
        assert data["history"]["unaddressed"]["oldest_number"] == (7 if holds else None)
        for text in (
            _flat(render_terminal(doc, color=False, width=400)),
            render_markdown(doc),
            render_html(doc),
        ):
            assert "issues unaddressed for two months" in text
            assert ("61 days old" in text) is holds
            assert (TITLE in text.split("History")[-1]) is holds


def test_the_dashboard_line_page_shows_the_ground_of_the_latest_run(tmp_path: Path) -> None:
    runs = _stored(tmp_path, _night(1), _night(3))
    dashboard = build_dashboard(runs)
    summary = dashboard.index.lines[0]
    history = dashboard.lines[summary.slug]
    assert history.unaddressed is not None
    assert (history.unaddressed.oldest_number, history.unaddressed.oldest_age_days) == (7, 61)
    data = to_json(history)
    schema = json.loads((SCHEMAS / "dashboard_line.schema.json").read_text())
    conforms(data, schema)
    page = render_line(summary, history)
    section = page.split("Issues unaddressed for two months")[1].split("</table>")[0]
    assert "may also be relegated" in section
    assert "not the four-week clock" in section
    assert "#7" in section
    assert TITLE in section
    assert "<td>61</td>" in section
    # Night 1 alone: no ground.
    first = build_dashboard(runs[:1])
    only = first.lines[first.index.lines[0].slug]
    assert only.unaddressed is not None
    assert only.unaddressed.status == "none"
    assert "#7" not in render_line(first.index.lines[0], only)


def test_an_inconclusive_judgement_is_never_shown_as_none(tmp_path: Path) -> None:
    runs = _stored(tmp_path, _night(3, _snapshot(issues=False)))
    report = _report(runs, 3)
    assert report.unaddressed.status == "inconclusive"
    text = _flat(history_terminal(report))
    assert "inconclusive as of the run of 2026-10-03T03:00:00Z (GitHub rate limit exhausted)" in (
        text
    )
    assert "clock): none" not in text


def test_the_data_file_carries_it_and_an_old_file_without_it_is_not_recorded() -> None:
    record = record_of(_night(3))
    assert record.unaddressed is not None
    text = run_file_text(record)
    data = json.loads(text)
    conforms(data, json.loads((SCHEMAS / "history_run.schema.json").read_text()))
    assert data["schema_version"] == 6
    assert data["unaddressed"] == {
        "status": "fail",
        "reason": None,
        "days": 60,
        "total": 1,
        "oldest_number": 7,
        "oldest_title": TITLE,
        "oldest_age_days": 61,
    }
    assert record_of_file(data, "new.json") == record
    # A file of version 1, written before the field: it loads, and reads as not recorded.
    old = {k: v for k, v in data.items() if k != "unaddressed"}
    old["schema_version"] = 1
    conforms(old, json.loads((SCHEMAS / "history_run.schema.json").read_text()))
    loaded = record_of_file(old, "old.json")
    assert loaded.unaddressed is None
    report = history_report(
        [loaded], sdk=LINE, database="h", as_of=night(3) + timedelta(hours=1), since=None
    )
    assert report.unaddressed.status == "not-recorded"
    assert report.unaddressed.issues == 0
    text = _flat(history_terminal(report))
    assert "not recorded (the latest run, of 2026-10-03T03:00:00Z, predates it)" in text
    assert "clock): none" not in text


def test_runs_stored_before_the_column_are_not_recorded(tmp_path: Path) -> None:
    from tiercheck.history import store as store_module

    db = tmp_path / "history.sqlite"
    with sqlite3.connect(db) as conn:
        for step in store_module._MIGRATIONS[:2]:
            conn.executescript(step)
        conn.execute("PRAGMA user_version = 2")
        conn.execute(
            "INSERT INTO runs (key, run_id, timestamp, sdk, repo, tiercheck_version, revisions,"
            " config_digest, tier, blockers, governance_digest, signals, interrupted)"
            " VALUES ('k', 'old', '2026-10-02T03:00:00+00:00', 'go-sdk', 'o/go-sdk',"
            " '0.0.9', '[]', 'd', 1, '[]', 'g', '{}', 0)"
        )
    store = HistoryStore(db)
    [old] = store.runs(LINE)
    assert old.unaddressed is None
    store.append(record_of(_night(3)))
    old, new = store.runs(LINE)
    assert old.unaddressed is None
    assert new.unaddressed is not None
    assert new.unaddressed.oldest_age_days == 61
    # The ground is the latest run's, whatever an earlier one said.
    report = history_report(
        [new, old], sdk=LINE, database="h", as_of=night(2) + timedelta(hours=1), since=None
    )
    assert report.unaddressed.status == "not-recorded"
    assert report.unaddressed.run_id == "old"


# --- hostile titles ----------------------------------------------------------------------------
# The Markdown and HTML renderings (scorecard.md, history.md, scorecard.html, the line page) read
# the hostile table's scorecard and runs, which carry the title, in tests/unit/render/
# test_hostile_table.py and tests/unit/dashboard/test_hostile_dashboard.py. Here: the terminal,
# and that the title is really there to neutralise.

#: What a terminal must never receive from an SDK's text: control characters (an ESC starts an
#: escape sequence) and lone surrogates.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _hostile_history(name: str) -> HistoryReport:
    runs = hostile_runs(name)
    return history_report(
        runs, sdk=LINE, database="h", as_of=runs[-1].timestamp + timedelta(hours=1), since=None
    )


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_titles_are_one_plain_line_in_the_terminal(name: str) -> None:
    report = _hostile_history(name)
    assert report.unaddressed.status == "unaddressed"
    assert report.unaddressed.oldest_number == 41
    for text in (
        history_terminal(report),
        render_terminal(hostile_scorecard(name), color=False, width=400),
    ):
        assert not CONTROL.search(text.replace("\n", "")), name
        [line] = [x for x in text.split("\n") if "oldest #41, 75 days old" in x]
        assert len(line) < 600, name  # the title is cut, never carried whole


def test_the_hostile_title_reaches_every_rendering() -> None:
    # The control for the tests above and the hostile table: the title is shown, as text.
    title = HOSTILE["script"]
    report = _hostile_history("script")
    doc = hostile_scorecard("script")
    assert title in history_terminal(report)
    assert title.replace("<", "&lt;") in history_markdown(report) or "`" + title in (
        history_markdown(report)
    )
    assert title in render_terminal(doc, color=False, width=400)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in render_html(doc).split(">History<")[1]
    dashboard = build_dashboard(hostile_runs("script"))
    summary = dashboard.index.lines[0]
    page = render_line(summary, dashboard.lines[summary.slug])
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.split('id="unaddressed"')[1]
    assert "<script>" not in page
