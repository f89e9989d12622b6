"""A flaky scenario (failed beside other work, passed by itself) in every report: its own
result, never a plain pass or a plain failure, its first failure said; counted as passed, so
the tier and the exit code are those of a pass. A failure that came back says so."""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET

from support.junit_schema import junit_schema_errors
from support.scorecards import R1, check, measured_leg, scenario, tier1_scorecard
from tiercheck.model import from_json
from tiercheck.scorecard.build import confirmation_block, exit_code_for, leg_summary
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.render.html import render_html
from tiercheck.scorecard.render.json_format import render_json
from tiercheck.scorecard.render.junit import render_junit
from tiercheck.scorecard.render.markdown import render_markdown
from tiercheck.scorecard.render.terminal import render_terminal
from tiercheck.scoring import LegVerdict, confirm_failure, merge_revisions, with_confirmations
from tiercheck.tier import LegSummary

NAMES = ("server-initialize", "tools-list", "tools-call-simple-text")
FLAKY = "tools-call-simple-text"
FIRST = "Expected 3 progress notifications, got 2"


def _server(*, comes_back: bool) -> LegVerdict:
    """R1's server leg with FLAKY failing beside other work, then failing again or passing."""
    failing = [check(f"{FLAKY}-check", FIRST)]
    leg = measured_leg(
        R1,
        "server",
        [scenario(n, passed=False, failing=failing) if n == FLAKY else scenario(n) for n in NAMES],
    )
    first = next(d for d in leg.details if d.scenario == FLAKY)
    alone = first if comes_back else measured_leg(R1, "server", [scenario(FLAKY)]).details[0]
    return with_confirmations(leg, [confirm_failure(first, alone, duration_s=4.25)])


def _doc(*, comes_back: bool) -> Scorecard:
    server = _server(comes_back=comes_back)
    doc = tier1_scorecard(replace_legs={(R1, "server"): server})
    return dataclasses.replace(doc, confirmation=confirmation_block([server], 1, 9.5))


def test_what_the_tier_and_the_exit_code_read_is_a_pass() -> None:
    merged = merge_revisions([_server(comes_back=False)])
    client = merge_revisions([measured_leg(R1, "client", [scenario("initialize")])])
    assert leg_summary(merged) == LegSummary("measured", 1.0)
    assert exit_code_for(merged, client, None, interrupted=False) == 0
    again = merge_revisions([_server(comes_back=True)])
    assert leg_summary(again).pass_rate == 2 / 3
    assert exit_code_for(again, client, None, interrupted=False) == 1


def test_a_flaky_scenario_counts_as_passed_and_is_said_to_be_flaky() -> None:
    doc = _doc(comes_back=False)
    server = doc.revisions[R1].server
    (detail,) = [d for d in server.details if d.scenario == FLAKY]
    assert (detail.passed, detail.result, detail.flaky) == (True, "flaky", True)
    assert (server.passed, server.failed, server.flaky, server.status) == (3, 0, 1, "pass")
    assert doc.checks.conformance.flaky == 1
    assert doc.confirmation is not None
    assert (doc.confirmation.rerun, doc.confirmation.flaky, doc.confirmation.failed) == (1, 1, 0)
    # The JSON keeps both results and reads back as written.
    data = json.loads(render_json(doc))
    (entry,) = [d for d in data["revisions"][R1]["server"]["details"] if d["scenario"] == FLAKY]
    assert entry["passed"] is True
    assert entry["confirmation"]["alone"] == "passed"
    assert entry["confirmation"]["duration_s"] == 4.25
    assert entry["confirmation"]["first"]["passed"] is False
    assert entry["confirmation"]["first"]["failures"][0]["message"] == FIRST
    assert data["confirmation"] == {
        "rerun": 1,
        "duration_s": 9.5,
        "flaky": 1,
        "failed": 0,
        "unconfirmed": 0,
    }
    assert from_json(Scorecard, data) == doc


def test_every_format_shows_flaky_apart() -> None:
    doc = _doc(comes_back=False)
    said = f"failed beside other work ({FLAKY}-check: {FIRST}), passed by itself (4.2 s)"
    text = render_terminal(doc, color=False, width=200)
    assert "Flaky (1): failed beside other work, passed when run again by itself" in text
    assert said in text
    assert "1 flaky (counted as passed)" in text
    assert "Failing (" not in text
    assert "failures confirmed by themselves: 1 run again in 9.5 s: 1 flaky, 0 failed again" in text
    markdown = render_markdown(doc)
    assert f"- server: `{FLAKY}` [{R1}]: {said}" in markdown
    assert "| 2025-11-25 | Server | 3 | 3 | ✅ pass (100%) | 1 flaky (counted as passed) |" in (
        markdown
    )
    html = render_html(doc)
    assert '<span class="chip review">flaky</span>' in html
    assert "3/3 scored passed (100%), 1 of them flaky" in html
    junit = render_junit(doc)
    assert junit_schema_errors(junit) == []
    root = ET.fromstring(junit.encode())
    suite = next(s for s in root.iter("testsuite") if s.get("name") == f"server {R1}")
    assert suite.get("failures") == "0"
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["flaky"] == "1"
    case = next(c for c in suite.iter("testcase") if c.get("name") == FLAKY)
    assert case.find("failure") is None
    out = case.find("system-out")
    assert out is not None
    assert (out.text or "").startswith(f"flaky: {said}")


def test_a_failure_that_came_back_is_a_failure_that_says_so() -> None:
    doc = _doc(comes_back=True)
    server = doc.revisions[R1].server
    (detail,) = [d for d in server.details if d.scenario == FLAKY]
    assert (detail.passed, detail.result) == (False, "failed")
    assert (server.failed, server.flaky) == (1, 0)
    text = render_terminal(doc, color=False, width=200)
    assert "Failing (1)" in text
    assert "failed again by itself (4.2 s)" in text
    assert "Flaky (" not in text
    markdown = render_markdown(doc)
    assert f"- server: `{FLAKY}` [{R1}] (failed again by itself (4.2 s))" in markdown
    junit = render_junit(doc)
    assert junit_schema_errors(junit) == []
    assert "<failure" in junit
    assert "failed again by itself" in render_html(doc)
