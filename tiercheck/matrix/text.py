"""The matrix's text formats: Markdown for a GitHub step summary, JUnit XML, terminal (pure).

Each reads only the `Matrix` document. Cell text is shared: a measured leg is `passed/total`,
and every other state says its name, so an unmeasured leg never reads as a score of zero.

JUnit mapping, as for one scorecard (`scorecard.render.junit`): a suite per row × revision ×
leg, a test case per scenario; a failure the baseline expects and a not-scored scenario are
`<skipped>`; an unmeasured leg is one `<error>` case with the reason (the SDK did not fail a
test); a skipped or not-claimed leg is one skipped case.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tiercheck.matrix.model import LegCell, Matrix, MatrixRow, ScenarioCell
from tiercheck.render import markdown as md
from tiercheck.render.markdown import BLANK, Inline, Md, bullet, code, fmt
from tiercheck.render.xml import xml_text

__all__ = [
    "blockers_text",
    "cell_text",
    "render_matrix_junit",
    "render_matrix_markdown",
    "render_matrix_terminal",
    "tier_text",
]


def cell_text(cell: LegCell) -> str:
    """A leg's score as a grid shows it: `30/30`, `30/30 (2 flaky)`, `unmeasured`, `skipped`,
    `not claimed`."""
    if cell.state == "measured":
        flaky = f" ({cell.flaky} flaky)" if cell.flaky else ""
        return f"{cell.passed}/{cell.total}{flaky}"
    return cell.state.replace("-", " ")


def tier_text(row: MatrixRow) -> str:
    """`Tier 3`, with the SEP-1730 reading when it differs; `unmeasured` without a scorecard."""
    if row.tier is None:
        return "unmeasured"
    text = f"Tier {row.tier.official}"
    if row.tier.sep1730 != row.tier.official:
        text += f" (SEP-1730: {row.tier.sep1730})"
    if row.tier.below_claim:
        text += f", below its claimed Tier {row.tier.claimed}"
    return text


def blockers_text(row: MatrixRow) -> str:
    """What stands between the row and the next tier up; the reason for an unmeasured row
    (its first line)."""
    if row.tier is None or row.state == "unmeasured":
        # The first line: a build's reason carries the compiler's output after it.
        lines = (row.reason or "").strip().splitlines()
        return lines[0] if lines else ""
    nearest = [b.text for b in row.blockers if b.tier == row.tier.official - 1]
    return "; ".join(dict.fromkeys(nearest))


def _columns(matrix: Matrix) -> list[tuple[str, str]]:
    return [(revision, leg) for revision in matrix.revisions for leg in ("server", "client")]


def _cells(row: MatrixRow) -> dict[tuple[str, str], LegCell]:
    return {(c.revision, c.leg): c for c in row.legs}


def render_matrix_markdown(matrix: Matrix) -> str:
    """One line per row: tier, every revision × leg score, blockers; then what changed."""
    columns = _columns(matrix)
    lines: list[Md] = [md.heading(2, fmt("tiercheck matrix {}", matrix.run_id)), BLANK]
    if matrix.interrupted:
        lines += [md.own("**Interrupted**: rows that did not finish say so."), BLANK]
    head = ["SDK", "commit", "tier", *(f"{r} {leg}" for r, leg in columns), "blockers"]
    rows: list[list[Inline]] = []
    for row in matrix.rows:
        cells = _cells(row)
        rows.append(
            [
                row.id,
                code(row.commit[:12]) if row.commit else "",
                tier_text(row),
                *(cell_text(cells[c]) if c in cells else "" for c in columns),
                blockers_text(row),
            ]
        )
    lines += md.table(head, rows)
    changes = matrix.changes
    if changes is not None:
        lines += [BLANK, md.heading(3, fmt("Since {}", changes.previous_run_id)), BLANK]
        if not (
            changes.new_failures
            or changes.fixes
            or changes.tier_changes
            or changes.incomparable
            or changes.newly_unmeasured
        ):
            lines.append(md.own("No change."))
        for where in changes.newly_unmeasured:
            lines.append(bullet(fmt("newly unmeasured: {} (a regression)", where)))
        for row_id in changes.incomparable:
            lines.append(bullet(fmt("{}: another harness version, no scenario compared", row_id)))
        for change in changes.tier_changes:
            before = "unassessed" if change.before is None else f"Tier {change.before}"
            after = "unassessed" if change.after is None else f"Tier {change.after}"
            dropped = " (dropped: a regression)" if change.dropped else ""
            lines.append(bullet(fmt("{}: {} → {}{}", change.row, before, after, dropped)))
        for label, items in (("new failure", changes.new_failures), ("fixed", changes.fixes)):
            for item in items:
                lines.append(
                    bullet(
                        fmt(
                            "{}: {} {} {} {}",
                            label,
                            item.row,
                            item.revision,
                            item.leg,
                            code(item.scenario),
                        )
                    )
                )
    return md.document(lines)


def render_matrix_terminal(matrix: Matrix) -> str:
    """The same grid as plain aligned text, for a terminal or a CI log."""
    columns = _columns(matrix)
    head = ["row", "tier", *(f"{r} {leg}" for r, leg in columns)]
    table = [head]
    for row in matrix.rows:
        cells = _cells(row)
        table.append(
            [
                row.id,
                tier_text(row),
                *(cell_text(cells[c]) if c in cells else "" for c in columns),
            ]
        )
    widths = [max(len(line[i]) for line in table) for i in range(len(head))]
    out = [f"matrix {matrix.run_id}" + (" (interrupted)" if matrix.interrupted else "")]
    out += [
        "  ".join(v.ljust(w) for v, w in zip(line, widths, strict=True)).rstrip() for line in table
    ]
    for row in matrix.rows:
        blockers = blockers_text(row)
        if blockers:
            out.append(f"{row.id}: {blockers}")
    if matrix.changes is not None:
        c = matrix.changes
        out.append(
            f"since {c.previous_run_id}: {len(c.new_failures)} new failure(s), "
            f"{len(c.fixes)} fix(es), {len(c.tier_changes)} tier change(s)"
            + (f", {len(c.incomparable)} under another harness" if c.incomparable else "")
        )
    return "\n".join(out) + "\n"


def _case(suite: ET.Element, classname: str, scenario: ScenarioCell) -> tuple[int, int, int]:
    case = ET.SubElement(suite, "testcase")
    case.set("classname", xml_text(classname))
    case.set("name", xml_text(scenario.scenario))
    message = xml_text(": ".join(p for p in (scenario.check, scenario.message) if p) or "failed")
    if scenario.verdict == "failed" and not scenario.expected_failure:
        ET.SubElement(case, "failure", message=message).text = message
        return 1, 0, 0
    if scenario.verdict == "failed":
        ET.SubElement(case, "skipped", message=xml_text(f"expected failure: {message}"))
        return 0, 0, 1
    if scenario.verdict == "not-scored":
        ET.SubElement(case, "skipped", message="not scored")
        return 0, 0, 1
    if scenario.verdict == "unmeasured":
        ET.SubElement(case, "error", message="unmeasured")
        return 0, 1, 0
    if scenario.verdict == "flaky":
        # As it counts: a pass, with how it failed beside other work said beside it.
        ET.SubElement(case, "system-out").text = xml_text(f"flaky: {scenario.message or ''}")
    return 0, 0, 0


def render_matrix_junit(matrix: Matrix) -> str:
    """A `<testsuite>` per row × revision × leg under one `<testsuites>`."""
    root = ET.Element("testsuites", name=xml_text(f"tiercheck matrix {matrix.run_id}"))
    totals = [0, 0, 0, 0]
    for row in matrix.rows:
        for cell in row.legs:
            name = f"{row.id} {cell.revision} {cell.leg}"
            suite = ET.SubElement(root, "testsuite", name=xml_text(name))
            classname = f"{row.id}.{cell.revision}.{cell.leg}"
            counts = [0, 0, 0, 0]  # tests, failures, errors, skipped
            if cell.state == "measured":
                for scenario in cell.scenarios:
                    failed, errored, skipped = _case(suite, classname, scenario)
                    counts = [
                        counts[0] + 1,
                        counts[1] + failed,
                        counts[2] + errored,
                        counts[3] + skipped,
                    ]
            else:
                case = ET.SubElement(
                    suite, "testcase", classname=xml_text(classname), name=cell.leg
                )
                reason = xml_text(cell.reason or cell.state)
                if cell.state == "unmeasured":
                    ET.SubElement(case, "error", message=reason).text = reason
                    counts = [1, 0, 1, 0]
                else:
                    ET.SubElement(case, "skipped", message=reason)
                    counts = [1, 0, 0, 1]
            for key, value in zip(("tests", "failures", "errors", "skipped"), counts, strict=True):
                suite.set(key, str(value))
            totals = [a + b for a, b in zip(totals, counts, strict=True)]
    # The root has the sums but no `skipped`: the xunit plugin's JUnit schema allows none there.
    for key, value in zip(("tests", "failures", "errors"), totals[:3], strict=True):
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
