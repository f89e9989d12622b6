"""The advisory probes in the scorecard and its reports: golden files for a document with
probes; documents without them keep their own goldens byte for byte (test_report_formats)."""

from __future__ import annotations

import dataclasses

import pytest
from junitparser import Failure, JUnitXml, Skipped

from support.golden import golden
from support.scorecards import probe_entry, probed_scorecard, tier1_scorecard
from tiercheck.errors import ConfigError
from tiercheck.model import to_json
from tiercheck.scorecard.model import ProbeRounds
from tiercheck.scorecard.render.html import render_html
from tiercheck.scorecard.render.json_format import parse_scorecard, render_json, validate_scorecard
from tiercheck.scorecard.render.junit import render_junit
from tiercheck.scorecard.render.markdown import render_markdown
from tiercheck.scorecard.render.terminal import render_terminal

R2 = "2026-07-28"


def test_a_document_with_probes_validates_and_round_trips() -> None:
    doc = probed_scorecard()
    validate_scorecard(to_json(doc))
    assert parse_scorecard(render_json(doc)) == doc


def test_documents_without_probes_write_no_probes_key_and_no_advisory_section() -> None:
    doc = tier1_scorecard()
    assert all("probes" not in rev for rev in to_json(doc)["revisions"].values())
    assert "Advisory" not in render_markdown(doc)
    assert "Advisory" not in render_terminal(doc, color=False)


def test_terminal_golden() -> None:
    golden("probes.txt", render_terminal(probed_scorecard(), color=False))


def test_markdown_golden() -> None:
    golden("probes.md", render_markdown(probed_scorecard()))


def test_junit_golden_and_the_probe_suite_counts_in_the_totals() -> None:
    """The advisory suite changes no verdict, but it is in the file: the root's totals count it,
    so a reader of the root and a reader of the suites agree (4 probes, 1 failed)."""
    text = render_junit(probed_scorecard())
    golden("probes.xml", text)
    plain = JUnitXml.fromstring(render_junit(tier1_scorecard()).encode())
    xml = JUnitXml.fromstring(text.encode())
    assert (xml.tests, xml.failures) == (plain.tests + 4, plain.failures + 1)
    suite = next(s for s in xml if s.name == f"advisory probes {R2}")
    results = {case.name: [type(r).__name__ for r in case.result] for case in suite}
    assert results == {
        "cross-origin": [],
        "tool-names": [],  # a warning passes, with the warning in system-out
        "notification-202": [Failure.__name__],
        "request-state": [Skipped.__name__],
    }
    assert (suite.tests, suite.failures, suite.skipped) == (4, 1, 1)


def test_the_tier_and_exit_code_ignore_the_probes() -> None:
    doc, plain = probed_scorecard(), tier1_scorecard()
    assert (doc.implied_tier, doc.exit_code) == (plain.implied_tier, plain.exit_code)


def test_html_lists_every_probe_after_what_decides_the_tier() -> None:
    page = render_html(probed_scorecard())
    assert page.index("<h2>Remediation</h2>") < page.index("<h2>Advisory probes</h2>")
    section = page[page.index("<h2>Advisory probes</h2>") :]
    assert "change no score, tier or exit code" in section
    assert "1 pass, 1 warn, 1 fail, 1 skip" in section
    rows = section.split("<tr>")[2:]
    assert [row.split("<code>")[1].split("</code>")[0] for row in rows] == [
        "cross-origin",
        "tool-names",
        "notification-202",
        "request-state",
    ]
    chips = [row.split('class="chip ')[1].split('"')[0] for row in rows]
    assert chips == ["pass", "review", "fail", "skip"]
    # The warning and the failure carry their evidence (escaped), rule and fix; the others not.
    assert (
        "POST notifications/cancelled → HTTP 200 {&quot;jsonrpc&quot;:&quot;2.0&quot;}" in rows[2]
    )
    assert "rule (MUST): the server MUST return HTTP status code 202" in rows[2]
    assert "fix: Answer 202 with an empty body." in rows[2]
    assert "rule (SHOULD): Tool names SHOULD be between 1 and 128 characters" in rows[1]
    assert "rule (" not in rows[0]
    assert "rule (" not in rows[3]
    assert "no input-required fixture tool" in rows[3]
    # A pass shows its evidence too (escaped), and no rule or fix.
    sent = "POST tools/list [Origin: http://evil.example] → HTTP 403 Invalid &lt;Origin&gt;"
    assert f"<li><code>{sent}</code></li>" in rows[0]
    assert "<code>" not in rows[3].split("</code>", 1)[1]  # the skip: its reason, no evidence


def test_a_race_probe_keeps_its_rounds_through_json_and_the_schema() -> None:
    doc = probed_scorecard()
    entry = probe_entry(
        "concurrent-ids",
        "warn",
        "SHOULD",
        "cross-wired in 3 of 40 rounds (unique ids in 0, duplicate ids in 3)",
        evidence=["sent: 40 of 40 rounds"],
        rounds=ProbeRounds(bound=40, run=40, observed=3),
    )
    block = doc.revisions[R2].probes
    assert block is not None
    probes = dataclasses.replace(block, results=(*block.results, entry))
    revisions = {**doc.revisions, R2: dataclasses.replace(doc.revisions[R2], probes=probes)}
    doc = dataclasses.replace(doc, revisions=revisions)
    data = to_json(doc)
    validate_scorecard(data)
    results = data["revisions"][R2]["probes"]["results"]
    assert results[-1]["rounds"] == {"bound": 40, "run": 40, "observed": 3}
    assert all("rounds" not in r for r in results[:-1])  # only a probe that repeats has them
    assert parse_scorecard(render_json(doc)) == doc
    bad = {**results[-1], "rounds": {"bound": 40, "run": 40}}
    data["revisions"][R2]["probes"]["results"][-1] = bad
    with pytest.raises(ConfigError, match=r"revisions\.2026-07-28\.probes"):
        validate_scorecard(data)


def test_html_has_no_probes_section_without_probes() -> None:
    assert "Advisory probes" not in render_html(tier1_scorecard())
