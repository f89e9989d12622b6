"""A claim compared with a previous assessment under another harness: the referee changed.

The previous assessment ran 0.2.0-alpha.12, this one .13, which changed the checks of the
server scenario `tools-list`; `tools-list` passed before and fails now. Worked out by hand:
no scenario is compared (nothing is "now failing"), and the claim says "The referee changed
on DATE (harness A → B): 0 scenarios added, 1 changed", from a previous scorecard.json and
from a previous claim.json alike (a claim records its harness's definitions for the next).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from support.referee_nights import NEW, with_definitions
from support.scorecards import R1, sample_scorecard
from tiercheck.cli.app import main
from tiercheck.document_files import atomic_write_text
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.render.json_format import render_json

SAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sample-sdk"
OLD = "0.2.0-alpha.12"


def _under(doc: Scorecard, version: str, changed: tuple[str, ...] = ()) -> Scorecard:
    doc = dataclasses.replace(doc, harness=dataclasses.replace(doc.harness, version=version))
    return with_definitions(doc, changed)


def _claim(tmp: Path, name: str, doc: Scorecard, *args: str) -> tuple[dict[str, Any], str]:
    saved = atomic_write_text(tmp / f"{name}-scorecard.json", render_json(doc))
    out = tmp / name
    code = main(
        ["claim", "--from", str(saved), "--sdk-path", str(SAMPLE), "--out", str(out), *args]
    )
    assert code in (0, 1)
    claim = json.loads((out / "claim.json").read_text("utf-8"))
    return claim, (out / "assessment.md").read_text("utf-8")


def _now() -> Scorecard:
    failing = sample_scorecard(failing={(R1, "server", "tools-list"): "tools not listed"})
    return _under(failing, NEW, ("tools-list",))


def _said(claim: dict[str, Any], text: str) -> None:
    changes = claim["changes"]
    assert changes["incomparable"] is True
    assert changes["now_failing"] == changes["now_passing"] == []
    referee = changes["referee"]
    assert (referee["harness_before"], referee["harness_after"]) == (OLD, NEW)
    assert (referee["added"], referee["changed"], referee["unknown"]) == ([], ["tools-list"], [])
    date = referee["date"]
    assert (
        f"The referee changed on {date} (harness `{OLD}` → `{NEW}`): 0 scenarios added, "
        "1 changed; no scenario is compared with the previous assessment, so nothing it "
        "changed is called a regression."
    ) in text
    assert "Now failing" not in text


def test_against_a_previous_scorecard(tmp_path: Path) -> None:
    before = atomic_write_text(
        tmp_path / "before.json", render_json(_under(sample_scorecard(), OLD))
    )
    _said(*_claim(tmp_path, "after", _now(), "--previous", str(before)))


def test_against_a_previous_claim(tmp_path: Path) -> None:
    first, _ = _claim(tmp_path, "before", _under(sample_scorecard(), OLD))
    assert first["header"]["harness_definitions"]["tools-list"]
    _said(*_claim(tmp_path, "after", _now(), "--previous", str(tmp_path / "before/claim.json")))


def test_the_harness_versions_are_code(tmp_path: Path) -> None:
    hostile = "1.0.0`<b>x</b>"
    before = atomic_write_text(
        tmp_path / "before.json", render_json(_under(sample_scorecard(), hostile))
    )
    _, text = _claim(tmp_path, "after", _now(), "--previous", str(before))
    assert "(harness ``1.0.0`<b>x</b>`` → " in text  # a code span: shown, never markup
    page = (tmp_path / "after" / "claim.html").read_text("utf-8")
    assert "<b>x</b>" not in page
    assert "1.0.0`&lt;b&gt;x&lt;/b&gt;" in page
