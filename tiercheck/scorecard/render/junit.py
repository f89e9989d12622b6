"""JUnit XML for CI dashboards: a test suite per revision × leg, a test case per scenario (pure).

Mapping (the shape Jenkins, GitLab, GitHub test reporters and junitparser read):

* a scored scenario that passed → a plain `<testcase>`;
* a scored scenario that failed → `<failure message="first failing check">` with every failing
  check (id, message, spec link) in the body;
* a flaky scored scenario (failed beside other work, passed by itself) → a plain `<testcase>`,
  as it counts, its first failure said in `<system-out>` and counted in the suite's `flaky`
  property;
* a not-scored scenario, and a failure the expected-failures baseline lists → `<skipped
  message="…">` with the reason, so neither turns a dashboard red;
* an unmeasured leg → a suite with one `<error>` test case carrying the reason (the harness or
  the server broke; the SDK did not fail a test);
* a skipped leg → a suite with one skipped test case.

WARNING checks (SHOULD-level) never change a test case's result: each suite of a measured leg
counts them in its `warnings` property, and a scenario that has some lists them in its
`<system-out>`, beside whatever its verdict is. The scenarios the harness lists for other
revisions only are no test case at all: each suite names its leg's in a `not_applicable`
property, never counted.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tiercheck.plaintext import one_line
from tiercheck.render.xml import xml_text
from tiercheck.scorecard.model import ProbesBlock, ScenarioEntry, Scorecard
from tiercheck.scorecard.readings import (
    FLAKY_NOTE,
    NOT_APPLICABLE_NOTE,
    WARNINGS_NOTE,
    LegView,
    confirmation_note,
    dispute_summary,
    failure_message,
    flaky_summary,
    legs,
    not_applicable_rows,
    not_scored_why,
    scenario_result,
    short_sha,
)

__all__ = ["render_junit"]


def _attr(element: ET.Element, **values: object) -> None:
    for key, value in values.items():
        element.set(key, xml_text(value))


def _classname(view: LegView) -> str:
    return f"tiercheck.{view.leg}.{view.revision.replace('-', '_')}"


def _seconds(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "0.000"
    return f"{value:.3f}"


def _failure_body(detail: ScenarioEntry) -> str:
    lines = []
    for check in detail.failures:
        line = f"{check.id}: {check.message or ''}".rstrip(": ")
        if check.spec_url:
            line += f"\n  spec: {check.spec_url}"
        lines.append(line)
    if detail.reason:
        lines.append(str(detail.reason))
    if detail.results_path:
        lines.append(f"results: {detail.results_path}")
    return "\n".join(lines)


def _warnings_text(detail: ScenarioEntry) -> str:
    """The scenario's WARNING checks under the note that they change nothing ("" without)."""
    if not detail.measured or not detail.warnings:
        return ""
    lines = [f"Warnings ({len(detail.warnings)}): {WARNINGS_NOTE}."]
    for check in detail.warnings:
        line = f"WARNING {check.id}: {check.message or ''}".rstrip(": ")
        if check.spec_url:
            line += f"\n  spec: {check.spec_url}"
        lines.append(line)
    return "\n".join(lines)


def _not_applicable(doc: Scorecard, view: LegView) -> str | None:
    """The leg's scenarios the harness lists for other revisions only, one property value:
    `not applicable at this revision (3; …): removed in 2026-07-28 (harness …: conformance
    list --client): initialize, sse-retry; …` (None without any)."""
    found = [
        r for r in not_applicable_rows(doc) if (r.revision, r.leg) == (view.revision, view.leg)
    ]
    if not found:
        return None
    said = "; ".join(
        f"{r.reason} ({one_line(r.source)}): {', '.join(one_line(n) for n in r.scenarios)}"
        for r in found
    )
    total = sum(len(r.scenarios) for r in found)
    return f"not applicable at this revision ({total}; {NOT_APPLICABLE_NOTE}): {said}"


def _properties(suite: ET.Element, doc: Scorecard, view: LegView) -> None:
    harness = doc.harness
    props = ET.SubElement(suite, "properties")
    measured = view.state not in ("skipped", "unmeasured")
    warned = sum(len(d.warnings) for d in view.details if d.measured)
    values = {
        "repo": doc.repo,
        "commit": doc.sdk.commit,
        "revision": view.revision,
        "leg": view.leg,
        "state": view.state,
        "harness": f"{harness.package}@{harness.version}",
        "node": harness.node_version,
        "warnings": str(warned) if measured else None,
        "flaky": str(view.data.flaky) if measured and view.data.flaky else None,
        "not_applicable": _not_applicable(doc, view),
    }
    for name, value in values.items():
        if value:
            _attr(ET.SubElement(props, "property"), name=name, value=value)


def _testcase(suite: ET.Element, view: LegView, name: str) -> ET.Element:
    case = ET.SubElement(suite, "testcase")
    _attr(case, name=name, classname=_classname(view), time="0.000")
    return case


def _suite(root: ET.Element, doc: Scorecard, view: LegView) -> dict[str, int]:
    suite = ET.SubElement(root, "testsuite")
    _properties(suite, doc, view)
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    if view.state == "unmeasured":
        case = _testcase(suite, view, f"{view.leg} leg")
        error = ET.SubElement(case, "error")
        _attr(error, message=f"not measured: {view.reason}", type="unmeasured")
        error.text = xml_text(view.data.reason or view.data.error or "")
        counts |= {"tests": 1, "errors": 1}
    elif view.state == "skipped":
        case = _testcase(suite, view, f"{view.leg} leg")
        _attr(ET.SubElement(case, "skipped"), message=f"skipped: {view.reason}")
        counts |= {"tests": 1, "skipped": 1}
    for detail in view.details:
        case = _testcase(suite, view, one_line(detail.scenario))
        counts["tests"] += 1
        # The verdict below stays the official one; a dispute and the warnings are said
        # beside it.
        flaky = f"flaky: {flaky_summary(detail)} ({FLAKY_NOTE})" if detail.flaky else ""
        said = [flaky, confirmation_note(detail), dispute_summary(detail), _warnings_text(detail)]
        if any(said):
            ET.SubElement(case, "system-out").text = xml_text("\n".join(t for t in said if t))
        if not detail.scored:
            message = f"not scored ({not_scored_why(detail)}); {scenario_result(detail)}"
            _attr(ET.SubElement(case, "skipped"), message=message)
            counts["skipped"] += 1
        elif not detail.measured:
            # JUnit's <error> is a test that could not run as meant, not a failed assertion.
            error = ET.SubElement(case, "error")
            _attr(error, message=scenario_result(detail), type="unmeasured")
            counts["errors"] += 1
        elif detail.passed:
            continue
        elif detail.expected_failure:
            message = f"expected failure (baseline): {failure_message(detail)}"
            _attr(ET.SubElement(case, "skipped"), message=message)
            counts["skipped"] += 1
        else:
            failure = ET.SubElement(case, "failure")
            kind = detail.failures[0].id if detail.failures else "scenario-failed"
            _attr(failure, message=failure_message(detail), type=kind)
            failure.text = xml_text(_failure_body(detail))
            counts["failures"] += 1
    # Counts are known only now; the attributes still print before the children.
    _attr(
        suite,
        name=f"{view.leg} {view.revision}",
        **{k: str(v) for k, v in counts.items()},
        time=_seconds(view.duration_s),
        timestamp=doc.timestamp or "",
    )
    return counts


def _probe_suite(
    root: ET.Element, doc: Scorecard, revision: str, block: ProbesBlock
) -> dict[str, int]:
    """The advisory probes of one revision as their own suite: WARN passes (its warning in
    system-out), FAIL is a failure, SKIP is skipped with its reason."""
    suite = ET.SubElement(root, "testsuite")
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    classname = f"tiercheck.probes.{revision.replace('-', '_')}"
    for entry in block.results:
        case = ET.SubElement(suite, "testcase")
        _attr(case, name=entry.probe, classname=classname, time=_seconds(entry.duration_s))
        counts["tests"] += 1
        body = "\n".join([entry.summary, *entry.evidence, f"rule: {entry.spec}"])
        if entry.fix:
            body += f"\nfix: {entry.fix}"
        if entry.outcome == "fail":
            failure = ET.SubElement(case, "failure")
            _attr(failure, message=one_line(entry.summary), type=f"probe-{entry.level.lower()}")
            failure.text = xml_text(body)
            counts["failures"] += 1
        elif entry.outcome == "skip":
            _attr(ET.SubElement(case, "skipped"), message=one_line(entry.summary))
            counts["skipped"] += 1
        elif entry.outcome == "warn":
            ET.SubElement(case, "system-out").text = xml_text(f"WARN: {body}")
    _attr(
        suite,
        name=f"advisory probes {revision}",
        **{k: str(v) for k, v in counts.items()},
        time=_seconds(block.duration_s),
        timestamp=doc.timestamp or "",
    )
    return counts


def render_junit(doc: Scorecard) -> str:
    """The scorecard's conformance results as JUnit XML (UTF-8 declaration, trailing newline).

    `<testsuites>` holds a `<testsuite>` per revision × leg named like ``server 2025-11-25``
    with tests/failures/errors/skipped/time, and a `<testcase>` per scenario whose classname is
    ``tiercheck.<leg>.<revision with underscores>``, then an advisory-probes suite per revision
    that ran them. The root's tests/failures/errors/time are the sums over every suite; it has
    no `skipped` (the JUnit schema of Jenkins' xunit plugin allows none there). Governance is
    not a test and is left out.
    """
    root = ET.Element("testsuites")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    time = 0.0
    for view in legs(doc):
        for key, value in _suite(root, doc, view).items():
            totals[key] += value
        time += view.duration_s or 0.0
    # Advisory suites come last. They change no verdict, but they are in the file, so they are
    # in the root's totals: a reader of the root and a reader of the suites agree.
    for revision, entry in doc.revisions.items():
        if entry.probes is not None:
            for key, value in _probe_suite(root, doc, revision, entry.probes).items():
                totals[key] += value
            time += entry.probes.duration_s or 0.0
    name = f"tiercheck {doc.repo} @ {short_sha(doc.sdk.commit)}"
    # The xunit plugin's JUnit schema allows no `skipped` on <testsuites>: each suite has its own.
    counts = {k: str(v) for k, v in totals.items() if k != "skipped"}
    _attr(root, name=name, **counts, time=_seconds(time))
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'
