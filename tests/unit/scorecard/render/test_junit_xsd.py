"""Both junit.xml files (one run's, the matrix's) against the JUnit schema Jenkins' xunit plugin
validates a report with (tests/support/schemas/junit-10.xsd, vendored from jenkinsci/xunit-plugin
with a source line added), by a validator nobody here wrote (xmlschema); then read by a JUnit
parser (junitparser), whose root totals must equal the sums over the suites it reads.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable

import pytest
from junitparser import Error, Failure, JUnitXml, Skipped

from support.junit_schema import junit_schema_errors
from support.matrices import report_matrix
from support.scorecards import mixed_scorecard, probed_scorecard, tier1_scorecard
from tiercheck.matrix.text import render_matrix_junit
from tiercheck.scorecard.render.junit import render_junit

REPORTS: dict[str, Callable[[], str]] = {
    "run mixed": lambda: render_junit(mixed_scorecard()),
    "run tier1": lambda: render_junit(tier1_scorecard()),
    "run with advisory probes": lambda: render_junit(probed_scorecard()),
    "matrix": lambda: render_matrix_junit(report_matrix()),
}


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_junit_xml_is_valid_against_the_xunit_plugins_schema(name: str) -> None:
    assert junit_schema_errors(REPORTS[name]()) == []


def test_the_schema_refuses_what_the_old_root_had() -> None:
    """The validator does reject a `skipped` on <testsuites>, as the plugin did."""
    text = render_junit(mixed_scorecard()).replace("<testsuites ", '<testsuites skipped="3" ', 1)
    errors = junit_schema_errors(text)
    assert len(errors) == 1
    assert "skipped" in errors[0]


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_a_junit_parser_reads_root_totals_equal_to_the_sum_of_the_suites(name: str) -> None:
    text = REPORTS[name]()
    declared = ET.fromstring(text).attrib  # the root as written (junitparser recomputes a
    # missing root attribute from the suites, so the root is read as text)
    suites = list(JUnitXml.fromstring(text))
    assert suites
    # Each suite's declared counts are its cases' results...
    for suite in suites:
        results = [r for case in suite for r in case.result]
        assert suite.tests == len(list(suite))
        assert suite.failures == sum(isinstance(r, Failure) for r in results)
        assert suite.errors == sum(isinstance(r, Error) for r in results)
        assert suite.skipped == sum(isinstance(r, Skipped) for r in results)
    # ...and the root's are the sums over every suite, advisory ones included.
    assert int(declared["tests"]) == sum(s.tests for s in suites)
    assert int(declared["failures"]) == sum(s.failures for s in suites)
    assert int(declared["errors"]) == sum(s.errors for s in suites)
    if "time" in declared:
        assert float(declared["time"]) == pytest.approx(sum(s.time or 0.0 for s in suites))
    assert "skipped" not in declared


def test_the_advisory_suites_count_in_the_root() -> None:
    """The probed scorecard, counted by hand from tests/unit/golden/probes.xml as it was: the
    root said tests="8" failures="0" time="50.000" (four legs: 3 + 1 + 2 + 2 cases, 12.5 s each)
    and left out the advisory suite of 2026-07-28 (4 probes, 1 failed, 1 skipped, 1.5 s)."""
    text = render_junit(probed_scorecard())
    (advisory,) = [s for s in JUnitXml.fromstring(text) if s.name.startswith("advisory probes ")]
    assert (advisory.tests, advisory.failures, advisory.skipped) == (4, 1, 1)
    root = ET.fromstring(text).attrib
    assert (root["tests"], root["failures"], root["errors"], root["time"]) == (
        "12",
        "1",
        "0",
        "51.500",
    )
