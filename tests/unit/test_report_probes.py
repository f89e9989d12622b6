"""The advisory probes in the scorecard and its reports: golden files for a document with
probes; documents without them keep their own goldens byte for byte (test_report_formats)."""

from __future__ import annotations

import dataclasses

from junitparser import Failure, JUnitXml, Skipped
from test_report_formats import golden

from scorecards import tier1_scorecard
from tiercheck.model import to_json
from tiercheck.report import (
    parse_scorecard,
    render_json,
    render_junit,
    render_markdown,
    render_terminal,
    validate_scorecard,
)
from tiercheck.scorecard.model import ProbeEntry, ProbesBlock, Scorecard

R2 = "2026-07-28"


def _entry(probe: str, outcome: str, level: str, summary: str, **more: object) -> ProbeEntry:
    return ProbeEntry(
        probe=probe,
        outcome=outcome,  # type: ignore[arg-type]
        level=level,  # type: ignore[arg-type]
        summary=summary,
        evidence=tuple(more.get("evidence", ())),  # type: ignore[arg-type]
        spec=str(more.get("spec", "a spec sentence")),
        fix=more.get("fix"),  # type: ignore[arg-type]
        duration_s=0.125,
    )


def probed_scorecard() -> Scorecard:
    """Tier 1's document with one pass, one warn, one fail and one skip at 2026-07-28."""
    doc = tier1_scorecard()
    block = ProbesBlock(
        url="http://127.0.0.1:40001/mcp",
        revision=R2,
        duration_s=1.5,
        results=(
            _entry("cross-origin", "pass", "MUST", "a foreign Origin was refused with 403"),
            _entry(
                "tool-names",
                "warn",
                "SHOULD",
                "1 of 3 tool names break SEP-986: 'bad name'",
                spec="Tool names SHOULD be between 1 and 128 characters",
                fix="Rename the tools.",
            ),
            _entry(
                "notification-202",
                "fail",
                "MUST",
                "the notification got 200 with a body, not 202",
                evidence=['POST notifications/cancelled → HTTP 200 {"jsonrpc":"2.0"}'],
                spec="the server MUST return HTTP status code 202 Accepted with no body",
                fix="Answer 202 with an empty body.",
            ),
            _entry("request-state", "skip", "MUST", "no input-required fixture tool"),
        ),
    )
    revisions = dict(doc.revisions)
    revisions[R2] = dataclasses.replace(revisions[R2], probes=block)
    return dataclasses.replace(doc, revisions=revisions)


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


def test_junit_golden_and_the_probe_suite_stays_out_of_the_totals() -> None:
    text = render_junit(probed_scorecard())
    golden("probes.xml", text)
    plain = JUnitXml.fromstring(render_junit(tier1_scorecard()).encode())
    xml = JUnitXml.fromstring(text.encode())
    assert (xml.tests, xml.failures) == (plain.tests, plain.failures)
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
