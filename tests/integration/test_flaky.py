"""A failure is confirmed by itself before it counts: the real harness, the sample SDK's real
server, one scenario that fails only on its first try.

The sample's `test_simple_text` tool answers an empty text (which fails the harness's
`tools-call-simple-text`) the first time it is called in the SDK's folder, and the right text
after: the server leg (run beside the client leg) fails it, and the run by itself, against the
server started again, passes it. That scenario is reported flaky with both results, counted as
passed, in every format. The same server answering an empty text every time is reported
failed, its run by itself failing again. The cost of the runs by themselves is in the scorecard.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from support.e2e import BROKEN_TEXT, CHEAP, SIMPLE_TEXT, SNAPSHOT, Session, copy_sample, tier_check

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SCENARIO = "tools-call-simple-text"
#: An empty text the first time the tool is called in the server's folder, the right one after.
FIRST_CALL_FAILS = (
    'text("" if not (m := __import__("pathlib").Path("first-call.marker")).exists() '
    'and not m.touch() else "This is a simple text response for testing.")'
)


def _serve(sdk: Path, answer: str) -> None:
    server = sdk / "server.py"
    text = server.read_text(encoding="utf-8")
    if SIMPLE_TEXT in text:
        text = text.replace(SIMPLE_TEXT, answer)
    else:
        text = text.replace(FIRST_CALL_FAILS, answer)
    assert answer in text
    server.write_text(text, encoding="utf-8")


def _detail(doc: dict[str, Any]) -> dict[str, Any]:
    details = doc["revisions"][CHEAP]["server"]["details"]
    (found,) = [d for d in details if d["scenario"] == SCENARIO]
    return found


def _assess(session: Session, sdk: Path, out: Path, *extra: str) -> Any:
    return tier_check(
        "--sdk-path", str(sdk), "--governance-snapshot", str(SNAPSHOT), "--revision", CHEAP,
        "--no-history", "--probes", "none", "--out", str(out), *extra,
        env=session.env(),
    )  # fmt: skip


def test_a_failure_that_does_not_come_back_is_flaky_and_one_that_does_is_failed(
    session: Session, tmp_path: Path
) -> None:
    sdk = copy_sample(tmp_path / "sample-sdk")
    _serve(sdk, FIRST_CALL_FAILS)
    run = _assess(session, sdk, tmp_path / "flaky")
    assert run.returncode == 0, run.explain()  # counted as the run by itself judged it
    doc = run.doc
    assert (sdk / "first-call.marker").is_file()
    detail = _detail(doc)
    assert detail["passed"] is True
    conf = detail["confirmation"]
    assert conf["alone"] == "passed"
    assert conf["duration_s"] > 0
    first = conf["first"]
    assert first["passed"] is False
    assert first["checks_failed"] >= 1
    assert first["failures"][0]["message"] == "Text content missing text field"
    # Both results kept: the first beside other work under raw/, the run by itself apart.
    assert "/raw/" in first["results_path"]
    assert "/confirm/" in detail["results_path"]
    assert Path(detail["results_path"], "checks.json").is_file()
    assert Path(first["results_path"], "checks.json").is_file()
    server = doc["revisions"][CHEAP]["server"]
    assert (server["flaky"], server["failed"], server["status"]) == (1, 0, "pass")
    assert doc["checks"]["conformance"]["flaky"] == 1
    block = doc["confirmation"]
    assert {k: block[k] for k in ("rerun", "flaky", "failed", "unconfirmed")} == {
        "rerun": 1,
        "flaky": 1,
        "failed": 0,
        "unconfirmed": 0,
    }
    assert block["duration_s"] >= conf["duration_s"] > 0
    assert doc["timings"]["confirm"] >= block["duration_s"]
    assert "server-2025-11-25-confirm" in doc["artifacts"]["logs"]
    # Every format says flaky, never a plain pass.
    out = tmp_path / "flaky"
    markdown = (out / "scorecard.md").read_text(encoding="utf-8")
    assert "_Flaky (1):" in markdown
    assert f"`{SCENARIO}` [{CHEAP}]: failed beside other work" in markdown
    assert "1 run again in" in markdown
    junit = (out / "junit.xml").read_text(encoding="utf-8")
    assert '<property name="flaky" value="1" />' in junit
    assert "flaky: failed beside other work (tools-call-simple-text: Text content" in junit
    html = (out / "scorecard.html").read_text(encoding="utf-8")
    assert re.search(r'<span class="chip review">flaky</span>', html)
    assert "Flaky (1):" in run.stdout
    assert "1 flaky (counted as passed)" in run.stdout

    # The same server failing every time: a failure, confirmed by itself.
    _serve(sdk, BROKEN_TEXT)
    broken = _assess(session, sdk, tmp_path / "failed", "--skip-build")
    assert broken.returncode == 1, broken.explain()
    doc = broken.doc
    detail = _detail(doc)
    assert detail["passed"] is False
    assert detail["confirmation"]["alone"] == "failed"
    assert detail["confirmation"]["first"]["passed"] is False
    assert detail["failures"][0]["message"] == "Text content missing text field"
    server = doc["revisions"][CHEAP]["server"]
    assert (server["flaky"], server["failed"]) == (0, 1)
    block = doc["confirmation"]
    assert (block["rerun"], block["flaky"], block["failed"]) == (1, 0, 1)
    assert block["duration_s"] > 0
    markdown = (tmp_path / "failed" / "scorecard.md").read_text(encoding="utf-8")
    assert "failed again by itself" in markdown
    assert "Flaky (" not in markdown
