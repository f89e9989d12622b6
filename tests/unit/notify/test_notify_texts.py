"""The texts of the tracking issues and the pull-request comment (tiercheck.notify.texts):
what they say, worked out by hand from simulated nights, and that nothing an SDK or the harness
wrote can mention a user, open HTML or break a table."""

from __future__ import annotations

import dataclasses
import re
from datetime import date
from pathlib import Path

import pytest

from support.notify_nights import BROKEN, LINE, day, night_scorecard, record
from tiercheck.history.record import RunRecord
from tiercheck.history.regression import NightState, line_states, night_end
from tiercheck.history.store import HistoryStore
from tiercheck.notify.texts import (
    MESSAGE_CHARS,
    changed_comment,
    green_comment,
    issue_body,
    pr_comment,
)

HOSTILE = "@octocat <img src=x onerror=alert(1)> | `rm -rf` ![p](http://x/y.png)\nsecond line"


@pytest.fixture
def store(tmp_path: Path) -> HistoryStore:
    store = HistoryStore(tmp_path / "history.sqlite")
    for n in range(1, 12):
        record(store, night_scorecard(n))
    return store


def _state(runs: list[RunRecord], line: str, night: date) -> NightState:
    return line_states(runs, as_of=night_end(night))[line]


def _outside_code(markdown: str) -> str:
    """The text outside inline code spans."""
    return re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", markdown)


def test_a_hostile_message_stays_inside_code_spans(store: HistoryStore) -> None:
    record(store, night_scorecard(12, failing=[BROKEN]))
    state = _state(store.runs(LINE), LINE, day(12))
    hostile = tuple(
        dataclasses.replace(r, message=HOSTILE, check="id|`x`") if r.kind == "newly-failing" else r
        for r in state.regressions
    )
    state = dataclasses.replace(state, regressions=hostile)
    for text in (issue_body(state), changed_comment(state), pr_comment({LINE: state}, day(12))):
        outside = _outside_code(text)
        assert "@octocat" not in outside
        assert "<img" not in outside
        assert "![p]" not in outside
        assert "second line" in text  # one line: the newline is gone, the words stay
    body = issue_body(state)
    # In the table the pipe is escaped and the span's fence outruns the backticks inside, so
    # the row keeps 4 cells.
    (row,) = [line for line in body.splitlines() if "fails" in line]
    assert len(re.findall(r"(?<!\\)\|", row)) == 5  # | row | what | since | nights |
    assert "`` id\\|`x` ``" in row


def test_a_long_message_is_cut(store: HistoryStore) -> None:
    record(store, night_scorecard(12, failing=[BROKEN]))
    state = _state(store.runs(LINE), LINE, day(12))
    long = "x" * (MESSAGE_CHARS * 3)
    cut = tuple(dataclasses.replace(r, message=long) for r in state.regressions)
    body = issue_body(dataclasses.replace(state, regressions=cut))
    assert "x" * (MESSAGE_CHARS - 1) + "…" in body
    assert "x" * MESSAGE_CHARS not in body


def test_the_green_body_and_comment(store: HistoryStore) -> None:
    record(store, night_scorecard(12, harness="0.2.0-alpha.13"))
    state = _state(store.runs(LINE), LINE, day(12))
    body = issue_body(state, dashboard="https://example.github.io/nightly/")
    assert body.startswith("**sample-sdk** is green again (latest run: 2026-10-12).")
    assert "The line on [the dashboard](https://example.github.io/nightly/)." in body
    referee = (
        "referee changed on 2026-10-12 (harness `0.2.0-alpha.12` → `0.2.0-alpha.13`): "
        "0 scenarios added, 0 changed"
    )
    assert f"**not compared, never a regression**: {referee}" in body
    comment = green_comment(state)
    assert comment.startswith("Green again on 2026-10-12: no row of `sample-sdk` regresses.")
    assert f"Not compared with the nights before: the {referee}" in comment
    assert "`sample-sdk@v1.0.0`" in comment


def test_the_pull_request_comment_has_one_row_per_line(store: HistoryStore) -> None:
    record(store, night_scorecard(12, failing=[BROKEN]))
    record(store, night_scorecard(11, line="quiet-sdk"))
    record(store, night_scorecard(12, line="quiet-sdk", unmeasured=True))
    runs = store.runs()
    states = {
        LINE: _state(runs, LINE, day(12)),
        "quiet-sdk": _state(runs, "quiet-sdk", day(12)),
        "new-sdk": None,
    }
    text = pr_comment(states, date(2026, 10, 12), run_url="https://github.com/o/r/actions/runs/9")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert rows[0].startswith("| `sample-sdk` | ❌ regression | `sample-sdk@v1.0.0`: ")
    # Measured on night 11, unmeasured on night 12: the leg newly unmeasured is a regression.
    assert rows[1] == (
        "| `quiet-sdk` | ❌ regression | `quiet-sdk@v1.0.0`: server leg at 2025-11-25 unmeasured "
        "1 night: `server never became ready within 30 s` |"
    )
    assert rows[2] == "| `new-sdk` | no run | — |"
    assert "[The workflow run](https://github.com/o/r/actions/runs/9)." in text


def test_outside_a_table_a_pipe_is_not_escaped(store: HistoryStore) -> None:
    # Only a table row splits at a pipe; elsewhere `\|` in code would show its backslash.
    record(store, night_scorecard(12, failing=[BROKEN]))
    state = _state(store.runs(LINE), LINE, day(12))
    piped = tuple(dataclasses.replace(r, check="id|x") for r in state.regressions)
    state = dataclasses.replace(state, regressions=piped, line="a|b")
    assert issue_body(state).startswith("**a|b** has regressed")
    (item,) = [line for line in changed_comment(state).splitlines() if "fails" in line]
    assert ": `id|x`" in item
    (row,) = [line for line in issue_body(state).splitlines() if "fails" in line]
    assert ": `id\\|x`" in row
    assert green_comment(state).startswith("Green again on 2026-10-12: no row of `a|b` regresses")


@pytest.mark.parametrize(
    "address",
    ["http://example.org/dash/", "https://example.org:8443/dash/", "javascript:alert(1)"],
)
def test_only_an_https_dashboard_is_linked(store: HistoryStore, address: str) -> None:
    state = _state(store.runs(LINE), LINE, day(11))
    body = issue_body(state, dashboard=address)
    assert "dashboard" not in body.split("_Kept by")[0]
    assert "](" not in body
    text = pr_comment({LINE: state}, day(11), run_url=address)
    assert "workflow run" not in text.lower().split("_compared")[0]
