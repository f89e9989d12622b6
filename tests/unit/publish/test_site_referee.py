"""The dashboard across a referee change (tests/unit/history/test_referee_change.py has the
nights): the night the harness moved says "referee changed on DATE (harness A → B): N
scenarios added, M changed" on the index, the line's page and its API, is never called a
regression, and the harness's text is escaped."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from support.notify_nights import BROKEN, HARNESS, LINE, day, night_scorecard
from support.referee_nights import NEW, with_definitions
from tiercheck.cli.app import main
from tiercheck.history.record import record_of
from tiercheck.history.store import HistoryStore

CHANGED = "server-scenario-07"
CHANGE_NIGHT = 12


def _site(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *, new: str = NEW, broken: bool = False
) -> Path:
    """Nights 1–12 of the line; night 12 under `new`, which adds a scenario and changes
    `CHANGED`, failing under it (and `BROKEN` failing from night 3 when `broken`)."""
    store = HistoryStore(tmp_path / "h.sqlite")
    for n in range(1, CHANGE_NIGHT + 1):
        moved = n == CHANGE_NIGHT
        failing = ([BROKEN] if broken and n >= 3 else []) + ([CHANGED] if moved else [])
        doc = night_scorecard(
            n, failing=failing, harness=new if moved else HARNESS, extra=1 if moved else 0
        )
        store.append(record_of(with_definitions(doc, (CHANGED,) if moved else ())))
    site = tmp_path / "site"
    code = main(["publish", "--history", str(store.path), "--out", str(site)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return site


def _json(site: Path, path: str) -> Any:
    return json.loads((site / path).read_text("utf-8"))


def _sentence(new: str = NEW) -> str:
    return (
        f"referee changed on {day(CHANGE_NIGHT)} (harness {HARNESS} → {new}): "
        "1 scenario added, 1 changed"
    )


def test_the_night_of_the_change_says_what_the_referee_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = _site(tmp_path, capsys)
    (line,) = [x for x in _json(site, "api/v1/index.json")["lines"] if x["line"] == LINE]
    assert line["status"] == "incomparable"
    assert line["regressions"] == []
    assert line["last_night"]["basis_change"] == [_sentence()]
    assert line["last_night"]["newly_failing"] == []  # CHANGED: its checks changed
    index = (site / "index.html").read_text("utf-8")
    assert _sentence() in index
    assert "harness changed" in index  # the line's state: never "regressed"
    page = (site / f"lines/{LINE}.html").read_text("utf-8")
    assert "Harness and requirement changes" in page
    assert _sentence() in page


def test_an_open_regression_carries_the_sentence_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = _site(tmp_path, capsys, broken=True)
    (line,) = [x for x in _json(site, "api/v1/index.json")["lines"] if x["line"] == LINE]
    # BROKEN's regression began on night 3, before the change; the change adds none.
    assert line["status"] == "regressed"
    assert sorted(r["key"] for r in line["regressions"]) == [
        "lower-tier",
        f"newly-failing:2025-11-25/server/{BROKEN}",
    ]
    assert line["last_night"]["basis_change"] == [_sentence()]


def test_the_harness_version_is_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hostile = "0.2.0-alpha.13<script>alert(1)</script>"
    site = _site(tmp_path, capsys, new=hostile)
    for page in ("index.html", f"lines/{LINE}.html"):
        text = (site / page).read_text("utf-8")
        assert "<script>alert(1)" not in text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
