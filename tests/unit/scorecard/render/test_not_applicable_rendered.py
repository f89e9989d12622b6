"""Scenarios the harness lists for other revisions only (`harness.not_applicable`): listed apart
in every report with their source, never a test case, a count or a verdict.

The entries are those the pinned harness's `conformance list` gives (0.2.0-alpha.12): at
2026-07-28 `ping` (server) and `initialize`, `sse-retry` (client) are removed in 2026-07-28 and
`auth/2025-03-26-oauth-endpoint-fallback` was removed in 2025-06-18; at 2025-11-25
`server-stateless` is not yet introduced (introduced in 2026-07-28).
"""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

from support.scorecards import R1, R2, tier1_scorecard
from tiercheck.model import to_json
from tiercheck.scorecard.model import NotApplicableEntry, NotApplicableWhy, Scorecard
from tiercheck.scorecard.readings import not_applicable_rows
from tiercheck.scorecard.render.html import render_html
from tiercheck.scorecard.render.json_format import parse_scorecard, render_json
from tiercheck.scorecard.render.junit import render_junit
from tiercheck.scorecard.render.markdown import render_markdown
from tiercheck.scorecard.render.terminal import render_terminal

HARNESS = "harness 0.2.0-alpha.12"
SERVER = f"{HARNESS}: conformance list --server"
CLIENT = f"{HARNESS}: conformance list --client"
STATEFUL = ("2025-06-18", "2025-11-25")


def _entry(
    name: str, leg: str, why: NotApplicableWhy, version: str, applies: tuple[str, ...]
) -> NotApplicableEntry:
    source = SERVER if leg == "server" else CLIENT
    return NotApplicableEntry(
        scenario=name, leg=leg, why=why, version=version, applies=applies, source=source
    )


def _doc() -> Scorecard:
    doc = tier1_scorecard()
    recorded = {
        R1: (_entry("server-stateless", "server", "not-yet-introduced", R2, (R2,)),),
        R2: (
            _entry("ping", "server", "removed", R2, STATEFUL),
            _entry("initialize", "client", "removed", R2, STATEFUL),
            _entry("sse-retry", "client", "removed", R2, ("2025-11-25",)),
            _entry(
                "auth/2025-03-26-oauth-endpoint-fallback",
                "client",
                "removed",
                "2025-06-18",
                ("2025-03-26",),
            ),
        ),
    }
    harness = dataclasses.replace(doc.harness, not_applicable=recorded)
    return dataclasses.replace(doc, harness=harness)


def test_the_readings_group_them_by_revision_leg_and_reason() -> None:
    rows = [
        (r.revision, r.leg, r.reason, r.scenarios, r.source) for r in not_applicable_rows(_doc())
    ]
    assert rows == [
        (R1, "server", f"not yet introduced (introduced in {R2})", ("server-stateless",), SERVER),
        (R2, "server", f"removed in {R2}", ("ping",), SERVER),
        (R2, "client", f"removed in {R2}", ("initialize", "sse-retry"), CLIENT),
        (
            R2,
            "client",
            "removed in 2025-06-18",
            ("auth/2025-03-26-oauth-endpoint-fallback",),
            CLIENT,
        ),
    ]
    assert not_applicable_rows(tier1_scorecard()) == []


def test_terminal_lists_them_apart_with_their_source() -> None:
    text = render_terminal(_doc(), color=False, width=200)
    section = text[text.index("Not applicable at this revision (5): the harness lists them") :]
    assert f"- client {R2} removed in {R2}: initialize, sse-retry\n" in section
    assert CLIENT in section
    assert f"- server {R1} not yet introduced (introduced in {R2}): server-stateless" in section
    assert "Not applicable" not in render_terminal(tier1_scorecard(), color=False, width=200)


def test_markdown_lists_them_folded_with_their_source() -> None:
    text = render_markdown(_doc())
    assert "<summary>Not applicable at this revision (5): the harness lists them for" in text
    row = next(ln for ln in text.splitlines() if "`initialize`" in ln)
    assert row == (f"| {R2} | client | removed in {R2} | `initialize`, `sse-retry` | {CLIENT} |")


def test_html_lists_them_with_their_source() -> None:
    page = render_html(_doc())
    assert "<h2>Not applicable at this revision (5)</h2>" in page
    assert "<code>initialize</code>, <code>sse-retry</code>" in page
    assert "conformance list --client" in page


def test_junit_names_them_in_a_property_and_counts_no_test() -> None:
    plain = ET.fromstring(render_junit(tier1_scorecard()))
    root = ET.fromstring(render_junit(_doc()))
    assert [(s.get("name"), s.get("tests")) for s in root.iter("testsuite")] == [
        (s.get("name"), s.get("tests")) for s in plain.iter("testsuite")
    ]
    suite = next(s for s in root.iter("testsuite") if s.get("name") == f"client {R2}")
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["not_applicable"] == (
        "not applicable at this revision (3; the harness lists them for other revisions only: "
        "never run or scored at this one, they change no verdict, pass rate or tier): removed "
        f"in {R2} ({CLIENT}): initialize, sse-retry; removed in 2025-06-18 ({CLIENT}): "
        "auth/2025-03-26-oauth-endpoint-fallback"
    )
    other = next(s for s in root.iter("testsuite") if s.get("name") == f"client {R1}")
    assert "not_applicable" not in {p.get("name") for p in other.iter("property")}


def test_json_keeps_them_and_reads_them_back_and_no_verdict_moves() -> None:
    doc = _doc()
    data = to_json(doc)
    assert data["harness"]["not_applicable"][R2][1] == {
        "scenario": "initialize",
        "leg": "client",
        "why": "removed",
        "version": R2,
        "applies": list(STATEFUL),
        "source": CLIENT,
    }
    assert parse_scorecard(render_json(doc)) == doc  # through the shipped schema
    plain = to_json(tier1_scorecard())
    for key in ("checks", "implied_tier", "revisions", "exit_code", "remediation"):
        assert data[key] == plain[key]
    assert "not_applicable" not in plain["harness"]


def test_terminal_cuts_a_long_group_and_says_where_the_rest_are() -> None:
    doc = tier1_scorecard()
    many = tuple(
        _entry(f"input-required-result-{n}", "server", "not-yet-introduced", R2, (R2,))
        for n in range(10)
    )
    doc = dataclasses.replace(
        doc, harness=dataclasses.replace(doc.harness, not_applicable={R1: many})
    )
    text = render_terminal(doc, color=False, width=300)
    assert "Not applicable at this revision (10)" in text
    flat = " ".join(text.split())
    assert "input-required-result-7, … and 2 more (all of them in scorecard.md)" in flat
    assert "input-required-result-8" not in text
    assert "input-required-result-9" in render_markdown(doc)
