"""Two `tier-check notify` processes at once, against one fake GitHub: one issue per line.

The workflow's concurrency group is meant to keep notify runs apart; this is what happens when
it does not. Both processes are real (`python -m tiercheck notify`, real PyGithub, the real
politeness pauses), and the fake holds their first listings until both have arrived, so each
sees no tracking issue and opens one: the race is certain, not hoped for. Afterwards each
line has exactly one open issue of ours (the lowest number), the other closed as a duplicate.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.fake_github import Dataset, FakeGitHub
from support.notify_nights import BROKEN, LOGIN, REPO, TOKEN, night_scorecard, record
from tiercheck.history.store import HistoryStore
from tiercheck.notify.plan import markers_of

LINES = ("a-sdk", "b-sdk")


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    fake = FakeGitHub(Dataset(repo=REPO, accounts={TOKEN: LOGIN})).start()
    try:
        yield fake
    finally:
        fake.stop()


def _start(history: Path, github: FakeGitHub) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GH_TOKEN", "GITHUB_RUN_ID")}
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tiercheck",
            "notify",
            "--history",
            str(history),
            "--repo",
            REPO,
            "--github-api-url",
            github.url,
        ],
        env={**env, "GITHUB_TOKEN": TOKEN},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_two_runs_at_once_leave_one_open_issue_per_line(github: FakeGitHub, tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "history.sqlite")
    for line in LINES:
        for n in range(1, 13):
            record(store, night_scorecard(n, line=line, failing=[BROKEN] if n == 12 else []))
    github.gate(rf"^/repos/{REPO}/issues$", 2)
    runs = [_start(store.path, github) for _ in range(2)]
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
        assert "Traceback" not in err
        assert err == "", err
        assert TOKEN not in out + err
    issues = github.dataset.issues
    assert len(issues) == 4  # both runs opened one per line
    assert {i.author for i in issues} == {LOGIN}
    for line in LINES:
        mine = sorted(
            (i for i in issues if i.title == f"Nightly matrix: {line} regressed"),
            key=lambda i: i.number,
        )
        assert len(mine) == 2
        kept, duplicate = mine
        assert kept.closed_at is None
        markers = markers_of(kept.body or "")
        assert markers is not None
        assert markers.line == line
        assert duplicate.closed_at is not None
        assert duplicate.state_reason == "not_planned"
        assert "<!--" not in (duplicate.body or "")
        assert [c.body for c in github.comments_of(duplicate.number)] == [
            f"Duplicate of #{kept.number}.\n"
        ]
        assert github.comments_of(kept.number) == []
    # A third run, alone, finds everything in order.
    before = len(github.writes())
    third = _start(store.path, github)
    out, err = third.communicate(timeout=120)
    assert (third.returncode, err) == (0, "")
    assert "GitHub is up to date: no call needed" in out
    assert len(github.writes()) == before
