"""The formatters: golden files per format, plus the properties each format promises.

Golden files live in tests/golden/. They are compared byte for byte; after a deliberate change
regenerate them with `TIERCHECK_UPDATE_GOLDEN=1 pytest tests/unit/scorecard/render/test_formats.py`
and read the diff before committing it.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from junitparser import Error, Failure, JUnitXml, Skipped

from support.golden import golden
from support.scorecards import (
    R1,
    R2,
    edited,
    measured_leg,
    mixed_scorecard,
    scenario,
    skipped,
    tier1_scorecard,
)
from tiercheck.errors import ConfigError
from tiercheck.model import to_json
from tiercheck.scorecard.build import leg_entry
from tiercheck.scorecard.render.json_format import parse_scorecard, render_json, validate_scorecard
from tiercheck.scorecard.render.junit import render_junit
from tiercheck.scorecard.render.markdown import render_markdown
from tiercheck.scorecard.render.terminal import render_terminal

ANSI = re.compile(r"\x1b\[")

DOCS = {"mixed": mixed_scorecard, "tier1": tier1_scorecard}


# -- the builder stays honest -------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(DOCS))
def test_built_documents_validate_against_the_schema(name: str) -> None:
    validate_scorecard(to_json(DOCS[name]()))


@pytest.mark.parametrize("name", sorted(DOCS))
def test_json_round_trips_through_the_schema(name: str) -> None:
    doc = DOCS[name]()
    assert parse_scorecard(render_json(doc)) == doc


# -- golden files -------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(DOCS))
def test_terminal_golden(name: str) -> None:
    golden(f"{name}.txt", render_terminal(DOCS[name](), color=False))


def test_terminal_colour_golden() -> None:
    golden("mixed.ansi.txt", render_terminal(mixed_scorecard(), color=True))


@pytest.mark.parametrize("name", sorted(DOCS))
def test_markdown_golden(name: str) -> None:
    golden(f"{name}.md", render_markdown(DOCS[name]()))


@pytest.mark.parametrize("name", sorted(DOCS))
def test_junit_golden(name: str) -> None:
    golden(f"{name}.xml", render_junit(DOCS[name]()))


@pytest.mark.parametrize("name", sorted(DOCS))
def test_json_golden(name: str) -> None:
    golden(f"{name}.json", render_json(DOCS[name]()))


# -- JSON ----------------------------------------------------------------------------------


def test_json_puts_the_official_fields_first_and_ends_with_a_newline() -> None:
    text = render_json(mixed_scorecard())
    assert text.endswith("}\n")
    official = ["repo", "branch", "timestamp", "version", "requirements_revisions", "checks"]
    assert list(json.loads(text))[: len(official) + 1] == [*official, "implied_tier"]


def test_json_refuses_nan() -> None:
    doc = tier1_scorecard()
    doc = dataclasses.replace(doc, timings={**doc.timings, "build": float("nan")})
    with pytest.raises(ValueError, match="Out of range float"):
        render_json(doc)


def test_invalid_scorecard_is_one_line_config_error() -> None:
    data = to_json(mixed_scorecard())
    data["checks"]["conformance"]["state"] = "half-measured"
    with pytest.raises(ConfigError) as info:
        validate_scorecard(data, "old.json")
    message = info.value.message
    assert "\n" not in message
    assert message.startswith("old.json: checks.conformance.state: 'half-measured'")


def test_parse_scorecard_reports_bad_json_in_one_line() -> None:
    with pytest.raises(ConfigError, match=r"^new.json: not JSON: .* line 1 column 2$"):
        parse_scorecard("{oops", "new.json")


# -- terminal -------------------------------------------------------------------------------


def test_terminal_without_colour_has_no_escapes_and_with_colour_has_them() -> None:
    doc = mixed_scorecard()
    assert not ANSI.search(render_terminal(doc, color=False))
    assert ANSI.search(render_terminal(doc, color=True))


def test_terminal_shows_tier_blockers_failures_and_governance() -> None:
    text = render_terminal(mixed_scorecard(), color=False, width=120)
    assert "TIER 3" in text.splitlines()[1]
    assert "tools-call-image-content: Expected content[0].type == 'image'" in text
    assert "not measured" in text
    assert "spawn npx ENOENT" in text
    assert "? inconclusive" in text
    assert "GitHub rate limit exhausted" in text
    assert "SEP-1730: partial" in text
    assert "Tier 1 blockers" in text
    assert "What to do next" in text
    assert "reports/example-sdk/raw" in text


def test_terminal_neutralises_escape_sequences_from_the_sdk() -> None:
    def change(data: dict[str, Any]) -> None:
        detail = data["revisions"][R1]["server"]["details"][2]
        detail["failures"][0]["message"] = "boom \x1b[2J\x1b]0;pwned\x07 done"

    doc = edited(mixed_scorecard(), change)
    text = render_terminal(doc, color=False)
    assert "\x1b" not in text
    assert "\x07" not in text
    assert "boom [2J]0;pwned done" in text
    # Rich markup in a message is shown as written, never interpreted.
    assert "[bold]after 403[/]" in text


def test_terminal_respects_width() -> None:
    text = render_terminal(mixed_scorecard(), color=False, width=72)
    assert max(len(line) for line in text.splitlines()) <= 72


# -- Markdown -------------------------------------------------------------------------------


def test_markdown_headings_and_fields_match_the_official_layout() -> None:
    text = render_markdown(mixed_scorecard())
    assert text.startswith("# Tier Assessment: Tier 3\n")
    for field in ("Repo", "Branch", "Commit", "Harness", "Requirements", "Timestamp"):
        assert f"\n**{field}:** " in text
    for heading in ("## Check Results", "## Tier 1 Blockers", "## Remediation"):
        assert f"\n{heading}\n" in text
    assert "| Check | Status | Detail |" in text
    assert "<details>" in text
    assert "</details>" in text
    assert text.rstrip().splitlines()[-1].startswith("> Implied Tier 3")


def _table_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("| ")]


def test_markdown_escapes_pipes_in_table_cells() -> None:
    def change(data: dict[str, Any]) -> None:
        data["revisions"][R1]["server"]["details"][4]["failures"][0]["message"] = "a | b"
        data["checks"]["labels"]["missing"] = ["needs|repro"]

    text = render_markdown(edited(mixed_scorecard(), change))
    assert "failed: json-schema-dialect: a \\| b" in text
    assert "missing: needs\\|repro" in text
    for row in _table_rows(text):
        header = row.count(" | ")
        cells = re.split(r"(?<!\\)\|", row.strip())[1:-1]
        assert len(cells) == header + 1, row


def test_markdown_keeps_sdk_html_inert() -> None:
    def change(data: dict[str, Any]) -> None:
        data["revisions"][R1]["server"]["details"][2]["failures"][0]["message"] = "<img src=x>"

    text = render_markdown(edited(mixed_scorecard(), change))
    assert "<img" not in text
    assert "&lt;img src=x>" in text


def test_markdown_failing_scenarios_carry_messages_and_spec_links() -> None:
    text = render_markdown(mixed_scorecard())
    assert "- server: `tools-call-image` [2025-11-25]" in text
    assert (
        "  - `tools-call-image-content`: Expected content[0].type == 'image', got 'text' | "
        "mimeType missing ([spec](https://modelcontextprotocol.io/specification/2025-11-25/"
        "server/tools#image-content))"
    ) in text
    assert "_(expected failure in baseline)_" in text


# -- JUnit ---------------------------------------------------------------------------------

# The elements and attributes the JUnit readers share (a tighter reading than
# tests/support/schemas/junit-10.xsd, which tests/unit/scorecard/render/test_junit_xsd.py validates
# against): the elements allowed, their attributes, required ones marked.
_JUNIT: dict[str, tuple[set[str], set[str], set[str]]] = {
    # element: (required attributes, optional attributes, allowed children)
    "testsuites": (set(), {"name", "time", "tests", "failures", "errors"}, {"testsuite"}),
    "testsuite": (
        {"name", "tests"},
        {
            "failures",
            "errors",
            "skipped",
            "time",
            "timestamp",
            "hostname",
            "id",
            "package",
            "disabled",
            "file",
            "log",
            "url",
            "version",
            "group",
        },
        {"properties", "testcase", "system-out", "system-err"},
    ),
    "properties": (set(), set(), {"property"}),
    "property": ({"name", "value"}, set(), set()),
    "testcase": (
        {"name"},
        {"classname", "time", "assertions", "status", "file", "line"},
        {"skipped", "error", "failure", "system-out", "system-err"},
    ),
    "failure": (set(), {"message", "type"}, set()),
    "error": (set(), {"message", "type"}, set()),
    "skipped": (set(), {"message"}, set()),
    "system-out": (set(), set(), set()),
    "system-err": (set(), set(), set()),
}


def _check_junit_schema(element: ET.Element) -> None:
    required, optional, children = _JUNIT[element.tag]
    attributes = set(element.attrib)
    assert required <= attributes, (element.tag, required - attributes)
    assert attributes <= required | optional, (element.tag, attributes - required - optional)
    for child in element:
        assert child.tag in children, (element.tag, child.tag)
        _check_junit_schema(child)
    if element.tag in ("testsuites", "testsuite"):
        for key in ("tests", "failures", "errors", "skipped"):
            if key in element.attrib:
                assert element.attrib[key].isdigit()
        assert re.fullmatch(r"\d+\.\d{3}", element.attrib["time"])


@pytest.mark.parametrize("name", sorted(DOCS))
def test_junit_is_valid_against_the_common_schema(name: str) -> None:
    _check_junit_schema(ET.fromstring(render_junit(DOCS[name]())))


def _outcomes(xml: str) -> dict[str, dict[str, Any]]:
    parsed = JUnitXml.fromstring(xml)
    out: dict[str, dict[str, Any]] = {}
    for suite in parsed:
        cases = list(suite)
        out[suite.name] = {
            "suite": suite,
            "cases": {case.name: case for case in cases},
            "tests": len(cases),
            "failures": sum(isinstance(r, Failure) for c in cases for r in c.result),
            "errors": sum(isinstance(r, Error) for c in cases for r in c.result),
            "skipped": sum(isinstance(r, Skipped) for c in cases for r in c.result),
        }
    return out


def test_junit_counts_parsed_by_junitparser_equal_the_document() -> None:
    doc = mixed_scorecard()
    suites = _outcomes(render_junit(doc))
    assert list(suites) == [f"server {R1}", f"client {R1}", f"server {R2}", f"client {R2}"]
    for revision, legs in to_json(doc)["revisions"].items():
        for leg in ("server", "client"):
            data = legs[leg]
            got = suites[f"{leg} {revision}"]
            suite = got["suite"]
            # The attributes the suite declares agree with its test cases...
            for key in ("tests", "failures", "errors", "skipped"):
                assert getattr(suite, key) == got[key], (leg, revision, key)
            if data["state"] == "unmeasured":
                assert (got["tests"], got["errors"]) == (1, 1)
                continue
            # ...and with the document: every scenario is a test; scored failures not in the
            # baseline fail; not-scored and baselined ones are skipped.
            details = data["details"]
            expected = sum(d.get("baseline") == "expected-failure" for d in details)
            assert got["tests"] == len(details)
            assert got["failures"] == data["failed"] - expected
            assert got["skipped"] == data["not_scored"]["total"] + expected
            assert got["errors"] == 0
    root = ET.fromstring(render_junit(doc)).attrib
    assert (root["tests"], root["failures"], root["errors"]) == ("13", "1", "1")
    assert sum(suite["skipped"] for suite in suites.values()) == 3


def test_junit_cases_name_scenarios_and_carry_reasons() -> None:
    suites = _outcomes(render_junit(mixed_scorecard()))
    image = suites[f"server {R1}"]["cases"]["tools-call-image"]
    assert image.classname == "tiercheck.server.2025_11_25"
    failure = image.result[0]
    assert isinstance(failure, Failure)
    assert failure.message.startswith("tools-call-image-content: Expected content[0].type")
    assert "wire-schema-valid: result.content[0]: required property 'data'" in failure.text
    assert "spec: https://modelcontextprotocol.io/" in failure.text
    pending = suites[f"server {R1}"]["cases"]["json-schema-2020-12"].result[0]
    assert isinstance(pending, Skipped)
    assert pending.message.startswith(
        "not scored (pending — requirement set 2025-11-25.yaml, not_scored); failed:"
    )
    step_up = suites[f"client {R1}"]["cases"]["auth/scope-step-up"].result[0]
    assert isinstance(step_up, Skipped)
    assert step_up.message.startswith("expected failure (baseline):")
    error = suites[f"client {R2}"]["cases"]["client leg"].result[0]
    assert isinstance(error, Error)
    assert "spawn npx ENOENT" in error.message


def test_junit_strips_characters_xml_forbids() -> None:
    def change(data: dict[str, Any]) -> None:
        detail = data["revisions"][R1]["server"]["details"][2]
        bad = {"id": "nul\x00id", "status": "FAILURE", "spec_url": None}
        detail["failures"] = [bad | {"message": "bad \x00\x1b[31m\x0b byte \ud800 here"}]

    xml = render_junit(edited(mixed_scorecard(), change))
    failure = _outcomes(xml)[f"server {R1}"]["cases"]["tools-call-image"].result[0]
    assert failure.message == "nulid: bad [31m byte here"
    assert "\x00" not in xml


def test_junit_skipped_leg_is_one_skipped_case() -> None:
    leg = skipped(R2, "client", "no client command configured")
    doc = tier1_scorecard(replace_legs={(R2, "client"): leg})
    validate_scorecard(to_json(doc))
    got = _outcomes(render_junit(doc))[f"client {R2}"]
    assert (got["tests"], got["skipped"]) == (1, 1)
    assert got["cases"]["client leg"].result[0].message == "skipped: no client command configured"


def test_formatters_are_deterministic_and_do_not_mutate_the_document() -> None:
    doc = mixed_scorecard()
    before = copy.deepcopy(to_json(doc))
    for render in (render_json, render_markdown, render_junit):
        assert render(doc) == render(doc)
    assert render_terminal(doc, color=True) == render_terminal(doc, color=True)
    assert to_json(doc) == before


# -- long lists and thin documents -----------------------------------------------------------


def test_a_leg_that_left_no_results_is_cut_in_the_terminal_and_folded_in_markdown() -> None:
    leg = measured_leg(
        R1, "server", [scenario(f"scenario-{n:02d}", no_results=True) for n in range(40)]
    )

    def change(data: dict[str, Any]) -> None:
        # The per-revision leg alone: the merged legs stay as they were, as in the real report.
        data["revisions"][R1]["server"] = to_json(leg_entry(leg, duration_s=12.5))

    doc = edited(mixed_scorecard(), change)
    validate_scorecard(to_json(doc))
    text = render_terminal(doc, color=False)
    assert "scenario-14" in text
    assert "scenario-15" not in text.split("Not scored")[0]
    assert "… and 26 more (all of them in scorecard.md)" in text
    markdown = render_markdown(doc)
    assert "<summary>Failing (41)</summary>" in markdown
    assert "scenario-39" in markdown


def test_thin_document_from_raw_results_renders_without_unknowns() -> None:
    def change(data: dict[str, Any]) -> None:
        data["branch"] = None
        data["sdk"] |= {"ref": None, "commit": None, "origin": "results"}
        data["harness"] |= {"version": None, "node_version": None}
        data["artifacts"] = {"out_dir": None, "raw": None, "logs": {}}

    doc = edited(tier1_scorecard(), change)
    validate_scorecard(to_json(doc))
    text = render_terminal(doc, color=False)
    assert "example-org/example-sdk\n" in "\n".join(line.strip(" │") for line in text.splitlines())
    assert "Evidence" not in text
    assert "**Commit:** `unknown`" in render_markdown(doc)


def test_terminal_keeps_a_long_token_of_a_leg_reason_whole() -> None:
    # A build error names its cause in one long token (a URL, a path, a host); the Notes column
    # folds it over lines instead of cutting it off with an ellipsis.
    url = (
        "https://repo.spring.io/milestone/org/springaicommunity/mcp-client-security/0.1.13/"
        "mcp-client-security-0.1.13.pom"
    )
    reason = f"the build failed: transfer failed for {url}: Unknown host repo.spring.io"

    def change(data: dict[str, Any]) -> None:
        data["revisions"][R2]["client"]["reason"] = reason

    text = render_terminal(edited(mixed_scorecard(), change), color=False, width=80)
    row = next(line for line in text.splitlines() if f"{R2} │ client" in line)
    start = text.splitlines().index(row)
    # The Notes cell, line by line: what follows the last column border of each table row.
    cells = []
    for line in text.splitlines()[start:]:
        if not line.startswith("│"):
            break
        cells.append(line.rstrip(" │").rsplit("│", 1)[-1].strip())
    assert url in "".join(cells)
    assert "…" not in "".join(cells)
