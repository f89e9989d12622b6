"""WARNING checks (SHOULD-level): counted and listed apart from failures in every report, and
never a change to the official verdict.

What the pinned harness decides, read in its bundle (@modelcontextprotocol/conformance
0.2.0-alpha.12, `dist/index.js` line 2236, `function ul`, the parser of its own tier-check):
a scenario passes when its checks.json has no FAILURE and at least one SUCCESS; WARNING is not
counted either way. Run on a folder with `[SUCCESS, WARNING]` it answers `passed: true`, on one
with `[WARNING]` alone `passed: false`. The expected values below are those answers.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from support.scorecards import R2, Scenario, measured_leg, tier1_scorecard
from tiercheck.conformance.results import Check, SpecReference
from tiercheck.model import to_json
from tiercheck.scorecard.build import leg_summary
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.render.html import render_html
from tiercheck.scorecard.render.json_format import render_json
from tiercheck.scorecard.render.junit import render_junit
from tiercheck.scorecard.render.markdown import render_markdown
from tiercheck.scorecard.render.terminal import render_terminal
from tiercheck.scoring import merge_revisions

#: Untrusted SDK text in a warning's message: markup of every format the reports are written in.
HOSTILE = "<script>x</script> **bold** | pipe \x1b[31m"
SUCCESS = Check("caching-etag", "SUCCESS", "")
WARNING = Check(
    "caching-max-age",
    "WARNING",
    HOSTILE,
    (SpecReference("MCP-Caching", "https://modelcontextprotocol.io/specification/x"),),
)


def _server() -> Scenario:
    return Scenario("caching", (SUCCESS, WARNING), None)


def _doc() -> Scorecard:
    """Tier 1's document whose 2026-07-28 server leg has `caching` pass with one warning."""
    leg = measured_leg(
        R2, "server", [Scenario("tools-list", (Check("t", "SUCCESS", ""),)), _server()]
    )
    return tier1_scorecard(replace_legs={(R2, "server"): leg})


# -- the verdict is the bundle's ------------------------------------------------------------


def test_a_warning_beside_a_success_keeps_the_scenario_passed() -> None:
    leg = measured_leg(R2, "server", [_server()])
    (detail,) = leg.details
    assert (detail.passed, detail.reason) == (True, None)
    assert (detail.checks_passed, detail.checks_failed, detail.checks_warned) == (1, 0, 1)
    assert [n.id for n in detail.warnings] == ["caching-max-age"]
    assert detail.failures == ()
    assert (leg.pass_rate, leg.status, leg.warnings) == (1.0, "pass", 1)


def test_a_warning_alone_fails_the_scenario_as_the_bundle_does() -> None:
    leg = measured_leg(R2, "server", [Scenario("caching", (WARNING,))])
    (detail,) = leg.details
    assert (detail.passed, detail.reason) == (False, "only warnings: no check succeeded")
    assert (leg.pass_rate, leg.status) == (0.0, "fail")


def test_what_the_tier_reads_of_a_leg_is_the_same_with_or_without_the_warning() -> None:
    warned = merge_revisions([measured_leg(R2, "server", [_server()])])
    clean = merge_revisions([measured_leg(R2, "server", [Scenario("caching", (SUCCESS,))])])
    assert leg_summary(warned) == leg_summary(clean)
    assert (warned.warnings, clean.warnings) == (1, 0)


# -- every report counts and lists them apart -------------------------------------------------


def test_terminal_lists_the_warning_apart_from_failures() -> None:
    text = render_terminal(_doc(), color=False, width=200)
    assert "Failing (" not in text
    warnings = text[text.index("Warnings (1): SHOULD-level WARNING checks") :]
    assert "never change a scenario's verdict, a pass rate or the tier" in warnings
    assert "server 2026-07-28 caching  (scenario passed)" in warnings
    # Control characters are dropped; the rest is plain text in a terminal.
    assert "caching-max-age: <script>x</script> **bold** | pipe [31m" in warnings
    assert "\x1b" not in text


def test_markdown_lists_the_warning_escaped() -> None:
    text = render_markdown(_doc())
    assert "_Failing (" not in text
    assert "_Warnings (1): SHOULD-level WARNING checks, listed apart from failures" in text
    assert "- server: `caching` [2026-07-28], scenario passed" in text
    line = next(ln for ln in text.splitlines() if "`caching-max-age`" in ln)
    # The kit's neutralising: `<` as an entity, a word with markup as a code span, a control
    # character as U+FFFD; the spec URL on the specification's site linked.
    assert line == (
        "  - `caching-max-age`: &lt;script>x&lt;/script> `**bold**` | pipe `\ufffd[31m` "
        "([spec](https://modelcontextprotocol.io/specification/x))"
    )


def test_html_lists_the_warning_escaped() -> None:
    page = render_html(_doc())
    assert "<h2>Warnings (1)</h2>" in page
    assert (
        "they never change a scenario&#x27;s verdict, a pass rate or the tier "
        "(the pinned harness&#x27;s tier-check" in page
    )
    assert "&lt;script&gt;x&lt;/script&gt;" in page
    assert "<script>" not in page


def test_junit_counts_the_warning_and_leaves_the_case_passed() -> None:
    root = ET.fromstring(render_junit(_doc()))
    suite = next(s for s in root.iter("testsuite") if s.get("name") == "server 2026-07-28")
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["warnings"] == "1"
    assert suite.get("failures") == "0"
    case = next(c for c in suite.iter("testcase") if c.get("name") == "caching")
    assert [child.tag for child in case] == ["system-out"]
    out = case.findtext("system-out") or ""
    assert out.startswith("Warnings (1): SHOULD-level WARNING checks")
    assert "WARNING caching-max-age: <script>x</script>" in out
    assert "\x1b" not in out
    other = next(s for s in root.iter("testsuite") if s.get("name") == "client 2026-07-28")
    assert {p.get("name"): p.get("value") for p in other.iter("property")}["warnings"] == "0"


def test_json_keeps_the_count_and_the_warning_beside_a_passed_verdict() -> None:
    data = to_json(_doc())
    leg = data["revisions"][R2]["server"]
    assert (leg["warnings"], leg["pass_rate"]) == (1, 1.0)
    (caching,) = [d for d in leg["details"] if d["scenario"] == "caching"]
    assert (caching["passed"], caching["checks_warned"], caching["failures"]) == (True, 1, [])
    assert caching["warnings"][0]["message"] == HOSTILE
    assert data["checks"]["conformance"]["warnings"] == 1
    assert '"caching-max-age"' in render_json(_doc())


def test_a_report_without_warnings_says_none_were_found() -> None:
    doc = tier1_scorecard()
    assert "Warnings (0): SHOULD-level" in render_terminal(doc, color=False, width=200)
    assert "_Warnings (0): SHOULD-level" in render_markdown(doc)
    assert "<h2>Warnings (0)</h2>" in render_html(doc)
