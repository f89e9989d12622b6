"""Triage links judged against the thirty nights of `support.nights` (worked out by hand there):
alpha-sdk's `tools-call-image` (2025-11-25, server) fails on nights 12-14 and passes from night
15; its server leg at 2025-11-25 is unmeasured on night 20; beta-sdk's `auth/scope-step-up`
(2025-11-25, client) fails every night."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from support.nights import R1, R2, records, thirty_nights
from tiercheck.cli.app import main
from tiercheck.config.triage import TriageEntry
from tiercheck.dashboard.build import build_dashboard
from tiercheck.dashboard.triage import Triage, judge_triage
from tiercheck.history.store import HistoryStore

ISSUE = "https://github.com/example/sdk/issues/1"


def _e(
    line: str, scenario: str, revision: str | None = None, leg: str | None = None
) -> TriageEntry:
    return TriageEntry(line, scenario, revision, leg, ISSUE, "a note", "t.yaml", 0)  # type: ignore[arg-type]


IMAGE = _e("alpha-sdk", "tools-call-image", R1, "server")
IMAGE_ANY = _e("alpha-sdk", "tools-call-image")
STEP_UP = _e("beta-sdk", "auth/scope-step-up", leg="client")
GONE_LINE = _e("delta-sdk", "ping")
GONE_SCENARIO = _e("gamma-sdk", "no-such-scenario")
IMAGE_R2 = _e("alpha-sdk", "tools-call-image", R2)  # R2's server leg has no such scenario


def test_the_most_specific_entry_wins() -> None:
    leg_only = _e("alpha-sdk", "tools-call-image", leg="server")
    rev_only = _e("alpha-sdk", "tools-call-image", R1)
    triage = Triage([IMAGE_ANY, rev_only, leg_only, IMAGE])
    assert triage.lookup("alpha-sdk", R1, "server", "tools-call-image") is IMAGE
    assert (
        Triage([IMAGE_ANY, rev_only, leg_only]).lookup(
            "alpha-sdk", R1, "server", "tools-call-image"
        )
        is leg_only
    )
    assert (
        Triage([IMAGE_ANY, rev_only]).lookup("alpha-sdk", R1, "server", "tools-call-image")
        is rev_only
    )
    assert triage.lookup("alpha-sdk", R2, "client", "tools-call-image") is IMAGE_ANY
    assert triage.lookup("beta-sdk", R1, "server", "tools-call-image") is None
    assert Triage([IMAGE]).lookup("alpha-sdk", R2, "server", "tools-call-image") is None


def _states(nights: int) -> dict[TriageEntry, str]:
    dashboard = build_dashboard(records(thirty_nights(nights)))
    lines = [s.line for s in dashboard.index.lines]
    entries = [IMAGE, IMAGE_ANY, STEP_UP, GONE_LINE, GONE_SCENARIO, IMAGE_R2]
    return {s.entry: s.state for s in judge_triage(entries, dashboard.scenarios, lines)}


def test_nights_12_15_and_20() -> None:
    # Night 12: alpha-sdk's image scenario fails at 2025-11-25 (server); beta's step-up fails.
    assert _states(12) == {
        IMAGE: "met",
        IMAGE_ANY: "met",
        STEP_UP: "met",
        GONE_LINE: "stale",  # no line delta-sdk
        GONE_SCENARIO: "stale",  # gamma-sdk has no such scenario
        IMAGE_R2: "stale",  # no tools-call-image at 2026-07-28
    }
    # Night 15: it passes again, so both alpha entries are stale.
    night_15 = _states(15)
    assert (night_15[IMAGE], night_15[IMAGE_ANY], night_15[STEP_UP]) == ("stale", "stale", "met")
    # Night 20: the leg is unmeasured: neither met nor stale (as a baseline entry not run).
    night_20 = _states(20)
    assert (night_20[IMAGE], night_20[IMAGE_ANY], night_20[STEP_UP]) == (
        "not-measured",
        "not-measured",
        "met",
    )


def test_publish_shows_the_link_beside_the_failure_and_prints_stale_entries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "h.sqlite"
    HistoryStore(db).append_many(records(thirty_nights(15)))
    path = tmp_path / "triage.yaml"
    entries = [
        {
            "line": "beta-sdk",
            "scenario": "auth/scope-step-up",
            "leg": "client",
            "issue": "https://github.com/example/beta-sdk/issues/7",
            "note": "step-up <b>not</b> yet",
        },
        {
            "line": "alpha-sdk",
            "scenario": "tools-call-image",
            "revision": R1,
            "issue": "https://github.com/example/alpha-sdk/issues/12",
            "note": "MIME type",
        },
    ]
    path.write_text(yaml.safe_dump({"triage": entries}), "utf-8")
    site = tmp_path / "site"
    argv = ["publish", "--history", str(db), "--out", str(site), "--triage", str(path)]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == [
        f"triage: stale: {path}: triage[1] (alpha-sdk {R1} * tools-call-image → "
        "https://github.com/example/alpha-sdk/issues/12): the scenario passes now; remove the "
        "entry"
    ]
    line = (site / "lines/beta-sdk.html").read_text("utf-8")
    streaks = line.split('id="streaks"')[1].split("</tbody>")[0]
    assert (
        '<span class="chip info">triaged</span> '
        '<a href="https://github.com/example/beta-sdk/issues/7">example/beta-sdk#7</a>: '
        "step-up &lt;b&gt;not&lt;/b&gt; yet"
    ) in streaks
    scenario = (site / "scenarios/client-auth-scope-step-up-aeafbbb1.html").read_text("utf-8")
    assert "example/beta-sdk#7" in scenario.split('id="now-beta-sdk-2025-11-25"')[1]
    index = (site / "index.html").read_text("utf-8")
    stale = index.split('id="stale-triage"')[1].split("</ul>")[0]
    assert "alpha-sdk 2025-11-25 * tools-call-image" in stale
    assert "(triage.yaml: triage[1])" in stale
    assert str(tmp_path) not in index
    alpha = (site / "lines/alpha-sdk.html").read_text("utf-8")
    assert '<span class="chip review">stale</span>' in alpha.split('id="triage"')[1]
