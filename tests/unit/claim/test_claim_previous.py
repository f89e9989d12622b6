"""`claim --previous`: the rows and scenarios that changed since the previous assessment.

The previous claim is the sample SDK's claim on a run where one scored scenario failed
(`auth/iss-supported`, client, 2026-07-28), written by the real command; then one of its
scenarios (`tools-list`, server, 2025-11-25) is taken out of its claim.json, as if that
assessment had not scored it. The current run passes everything. By hand: exactly one row
moved (1b: "98%: 49/50 (18/18 @ 2025-11-25 + 31/32 @ 2026-07-28)…" FAIL at Tier 1 → "100%:
50/50 (18/18 @ 2025-11-25 + 32/32 @ 2026-07-28)…" PASS); one scenario is now passing and one
is added; nothing is now failing or removed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from support.scorecards import R1, R2, sample_scorecard
from tiercheck.cli.app import main
from tiercheck.document_files import atomic_write_text
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.render.json_format import render_json

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "examples" / "sample-sdk"


def _claim(tmp: Path, name: str, doc: Scorecard, *args: str) -> tuple[int, dict[str, Any], Path]:
    saved = atomic_write_text(tmp / f"{name}-scorecard.json", render_json(doc))
    out = tmp / name
    code = main(
        ["claim", "--from", str(saved), "--sdk-path", str(SAMPLE), "--out", str(out), *args]
    )
    return code, json.loads((out / "claim.json").read_text("utf-8")), out


@pytest.fixture
def previous(tmp_path: Path) -> Path:
    failing = sample_scorecard(failing={(R2, "client", "auth/iss-supported"): "iss not checked"})
    _, data, _ = _claim(tmp_path, "before", failing)
    data["scenarios"] = [
        s
        for s in data["scenarios"]
        if (s["revision"], s["leg"], s["scenario"]) != (R1, "server", "tools-list")
    ]
    path = tmp_path / "previous-claim.json"
    path.write_text(json.dumps(data))
    return path


def test_one_row_and_one_scenario_changed(previous: Path, tmp_path: Path) -> None:
    _, data, out = _claim(tmp_path, "after", sample_scorecard(), "--previous", str(previous))
    changes = data["changes"]
    assert (changes["kind"], changes["source"]) == ("claim", str(previous))
    assert [
        (r["id"], r["verdicts_before"]["tier1"], r["verdicts_after"]["tier1"])
        for r in changes["rows"]
    ] == [("1b", "fail", "pass")]
    row = changes["rows"][0]
    assert row["before"].startswith("98%: 49/50 (18/18 @ 2025-11-25 + 31/32 @ 2026-07-28)")
    assert row["after"].startswith("100%: 50/50 (18/18 @ 2025-11-25 + 32/32 @ 2026-07-28)")
    pick = [
        (c["revision"], c["leg"], c["scenario"], c["before"], c["after"])
        for c in changes["now_passing"]
    ]
    assert pick == [(R2, "client", "auth/iss-supported", "failed", "passed")]
    assert [(c["revision"], c["leg"], c["scenario"], c["before"]) for c in changes["added"]] == [
        (R1, "server", "tools-list", None)
    ]
    assert changes["now_failing"] == changes["removed"] == changes["other"] == []
    # The header names the previous assessment from its own claim.json.
    assert data["header"]["previous"]["date"] == "2026-08-20"
    assert data["header"]["previous"]["tier"] == 1
    text = (out / "assessment.md").read_text("utf-8")
    section = text[text.index("## Changes since the previous assessment") :]
    assert "Now passing (1): auth/iss-supported (client @ 2026-07-28)." in section
    assert "Added to the scored scenarios (1): tools-list (server @ 2025-11-25)." in section
    assert "| 1b | Client conformance | 98%: 49/50" in section
    assert "Tier 1 FAIL, Tier 2 PASS → Tier 1 PASS, Tier 2 PASS |" in section


def test_a_previous_scorecard_compares_the_measured_rows(tmp_path: Path) -> None:
    old = sample_scorecard(failing={(R1, "server", "ping"): "no pong"})
    saved = atomic_write_text(tmp_path / "old.json", render_json(old))
    _, data, _ = _claim(tmp_path, "after", sample_scorecard(), "--previous", str(saved))
    changes = data["changes"]
    assert changes["kind"] == "scorecard"
    # Judgment rows need the checkout: a scorecard has none to compare.
    assert [r["id"] for r in changes["rows"]] == ["1a"]
    assert [c["scenario"] for c in changes["now_passing"]] == ["ping"]


def test_nothing_changed_says_so(tmp_path: Path) -> None:
    _, _, first = _claim(tmp_path, "first", sample_scorecard())
    _, data, out = _claim(
        tmp_path, "second", sample_scorecard(), "--previous", str(first / "claim.json")
    )
    assert data["changes"]["rows"] == []
    assert "No row and no scored scenario changed." in (out / "assessment.md").read_text("utf-8")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"a": 1}', "neither a claim.json nor a scorecard.json"),
        ('{"rows": [], "target_tier": 1, "schema_version": 1}', "a claim.json of schema 1"),
        ("not json", "previous-claim.json"),
    ],
)
def test_a_bad_previous_is_one_line(
    tmp_path: Path, content: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "previous-claim.json"
    path.write_text(content)
    saved = atomic_write_text(tmp_path / "s.json", render_json(sample_scorecard()))
    code = main(
        ["claim", "--from", str(saved), "--previous", str(path), "--out", str(tmp_path / "o")]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_a_previous_claim_under_another_harness_compares_no_scenario(
    previous: Path, tmp_path: Path
) -> None:
    data = json.loads(previous.read_text("utf-8"))
    data["header"]["harness_version"] = "0.0.1-other"
    previous.write_text(json.dumps(data))
    _, claim, out = _claim(tmp_path, "after", sample_scorecard(), "--previous", str(previous))
    changes = claim["changes"]
    assert changes["incomparable"] is True
    assert changes["now_passing"] == changes["added"] == changes["other"] == []
    # Rows are not scenarios: row 1b still moved.
    assert [r["id"] for r in changes["rows"]] == ["1b"]
    text = (out / "assessment.md").read_text("utf-8")
    # Neither assessment recorded its harness's definitions: none is known to have changed.
    assert changes["referee"]["harness_before"] == "0.0.1-other"
    assert "The referee changed on " in text
    assert "no scenario is compared with the previous assessment" in text


def test_a_leg_the_previous_claim_could_not_measure_is_measured_again(tmp_path: Path) -> None:
    _, data, _ = _claim(tmp_path, "before", sample_scorecard())
    # As if 2026-07-28's client leg had been unmeasured: no scenario, the split says so.
    data["scenarios"] = [
        s for s in data["scenarios"] if (s["revision"], s["leg"]) != (R2, "client")
    ]
    for split in data["conformance"]["rows"]:
        if split["name"] == "client":
            split["by_revision"][R2]["state"] = "unmeasured"
    path = tmp_path / "previous-claim.json"
    path.write_text(json.dumps(data))
    _, claim, _ = _claim(tmp_path, "after", sample_scorecard(), "--previous", str(path))
    changes = claim["changes"]
    other = {(c["revision"], c["leg"], c["before"], c["after"]) for c in changes["other"]}
    assert other == {(R2, "client", "unmeasured", "passed")}
    assert len(changes["other"]) == 32  # every scored client scenario at 2026-07-28 (1b: 32/32)
    assert changes["added"] == []
