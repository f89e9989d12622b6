"""`tier-check notify` across a referee change, against the fake GitHub on 127.0.0.1.

Night 12 moves the line's harness from 0.2.0-alpha.12 to .13, which adds one server scenario
and changes another's checks (`CHANGED`, which passed on night 11 and fails under .13). Worked
out by hand:

* a green line: no issue is opened on night 12 nor on night 13 (`CHANGED` was failing already
  when it was first compared under one harness), and the run says the referee changed;
* a line with an issue open since night 5 (`BROKEN`): night 12 rewrites its body, which says
  "referee changed on 2026-10-12 (harness … → …): 1 scenario added, 1 changed" and lists
  only `BROKEN` and the tier drop of night 5: no new regression, no comment.
"""

from __future__ import annotations

import pytest

from support.fake_github import FakeGitHub, FakeIssue
from support.notify_nights import BROKEN, HARNESS, LINE, REF, REPO, day, night_scorecard, record
from support.referee_nights import NEW, with_definitions
from tiercheck.cli.app import main
from tiercheck.history.store import HistoryStore

CHANGED = "server-scenario-07"
CHANGE_NIGHT = 12
ISSUES = f"/repos/{REPO}/issues"
REFEREE = (
    f"referee changed on {day(CHANGE_NIGHT)} (harness `{HARNESS}` → `{NEW}`): "
    "1 scenario added, 1 changed"
)


def _night(store: HistoryStore, n: int, *, broken: bool) -> None:
    moved = n >= CHANGE_NIGHT
    failing = ([BROKEN] if broken and n >= 5 else []) + ([CHANGED] if moved else [])
    doc = night_scorecard(
        n, failing=failing, harness=NEW if moved else HARNESS, extra=1 if moved else 0
    )
    record(store, with_definitions(doc, (CHANGED,) if moved else ()))


def _notify(github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]) -> str:
    code = main(
        ["notify", "--history", str(store.path), "--repo", REPO, "--github-api-url", github.url]
    )
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return out


def _ours(github: FakeGitHub) -> list[FakeIssue]:
    return [i for i in github.dataset.issues if i.title.startswith("Nightly matrix:")]


def test_a_green_line_gets_no_issue_across_the_change(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    writes: dict[int, int] = {}
    out = ""
    for n in range(1, CHANGE_NIGHT + 2):
        github.now = f"{day(n).isoformat()}T05:00:00Z"
        _night(store, n, broken=False)
        before = len(github.writes())
        said = _notify(github, store, capsys)
        out = said if n == CHANGE_NIGHT else out
        writes[n] = len(github.writes()) - before
    assert set(writes.values()) == {0}
    assert _ours(github) == []
    plain = REFEREE.replace("`", "")
    assert f"{LINE}: not comparable ({LINE}@{REF}: {plain}); issue left as it is" in out


def test_an_open_issue_says_the_referee_changed_and_gains_no_regression(
    github: FakeGitHub, store: HistoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    for n in range(1, CHANGE_NIGHT):
        github.now = f"{day(n).isoformat()}T05:00:00Z"
        _night(store, n, broken=True)
        _notify(github, store, capsys)
    (issue,) = _ours(github)
    state_before = issue.body or ""
    github.now = f"{day(CHANGE_NIGHT).isoformat()}T05:00:00Z"
    _night(store, CHANGE_NIGHT, broken=True)
    before = len(github.writes())
    _notify(github, store, capsys)
    # The body is rewritten (as each night while the regression lasts); no comment, no issue.
    assert [(r.method, r.path) for r in github.writes()[before:]] == [
        ("PATCH", f"{ISSUES}/{issue.number}")
    ]
    body = github.issue(issue.number).body or ""
    assert f"The {REFEREE}; no scenario is compared across it" in body
    assert f"**not compared, never a regression**: {REFEREE}" in body
    assert CHANGED not in body  # failing under the new referee, never called a regression
    assert f"`{BROKEN}` fails" in body
    assert "since 2026-10-05" in body
    # The state the issue records is the one before the change: the same regressions.
    marker = next(line for line in state_before.splitlines() if "tiercheck:state=" in line)
    assert marker in body
    assert github.comments_of(issue.number) == []
