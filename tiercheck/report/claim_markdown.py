"""`assessment.md` and `remediation.md`: a claim as GitHub-flavoured Markdown, ready to paste.

Links point at the assessed commit (`blob/<sha>/…`), never at a branch, so the evidence a
reviewer follows is the evidence that was judged. Untrusted text (scenario messages, issue
titles, tag and file names) becomes Markdown only through `report.untrusted_md`: one line, and
every word that could link, mention, reference or break a table cell shown as code.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from tiercheck.claim.pack import Claim
from tiercheck.claim.table import EvidenceLine, Row, Verdict
from tiercheck.report.claim_fit import BODY_LIMIT, FULL_NAME, Part, fit
from tiercheck.report.claim_view import (
    VERDICT_LABEL,
    Block,
    Segment,
    baseline_block,
    changes_block,
    docs_block,
    header_fields,
    reproduce_parts,
    split_notes,
    split_table,
)
from tiercheck.report.untrusted_md import Md, cell, code, code_cell, https_url, link, own, text
from tiercheck.scorecard.view import short_sha

__all__ = [
    "EFFORT",
    "render_assessment",
    "render_assessment_files",
    "render_remediation",
    "verdict_text",
]

#: Rows with at most this many evidence lines show them inline; longer ones fold.
_INLINE_EVIDENCE = 8
#: An evidence line is cut here (the scorecard keeps the whole message).
_LINE_LIMIT = 1500

_LABEL = VERDICT_LABEL

#: Effort per row (the official guide's scale: Small < 1 day, Medium 1–3 days, Large > 3 days).
EFFORT: dict[str, str] = {
    "1a": "Medium",
    "1b": "Medium",
    "2": "Medium",
    "2b": "Small",
    "3": "Medium",
    "4": "Small",
    "4b": "Medium",
    "5": "Large",
    "6": "Small",
    "7": "Small",
    "8": "Small",
}


def _linked(line: EvidenceLine, in_table: bool = False) -> Md:
    label = (cell if in_table else text)(line.text, _LINE_LIMIT)
    return link(label, https_url(line.url))


def verdict_text(row: Row, column: int) -> str:
    """One tier's verdict, with SEP-1730's beside it when it differs."""
    official = _LABEL[row.verdicts[column]]
    if row.sep1730 is not None and row.sep1730[column] != row.verdicts[column]:
        return f"{official} (SEP-1730: {_LABEL[row.sep1730[column]]})"
    return official


def _count(rows: Sequence[Row], column: int, verdict: Verdict) -> int:
    return sum(1 for row in rows if row.verdicts[column] == verdict)


def _summary(claim: Claim) -> list[str]:
    lines = []
    for column, tier in enumerate(claim.tiers):
        if tier > 3:
            continue
        rows = [r for r in claim.rows if r.verdicts[column] != "n/a"]
        passing = _count(rows, column, "pass")
        review = _count(rows, column, "needs review")
        blocked = [r.id for r in rows if r.verdicts[column] not in ("pass", "needs review")]
        text = f"- Tier {tier}: {passing}/{len(rows)} rows pass, {review} need review"
        text += f", blocked by {', '.join(blocked)}" if blocked else ", nothing blocks"
        lines.append(text)
    return lines


def _segment(segment: Segment, in_table: bool = False) -> str:
    raw = segment.text
    lead = " " if raw[:1].isspace() else ""
    trail = " " if raw[-1:].isspace() else ""
    if segment.own:
        shown = own(raw.strip())
    elif segment.code:
        shown = (code_cell if in_table else code)(raw)
    else:
        shown = (cell if in_table else text)(raw)
    linked = link(shown, https_url(segment.url))
    return f"{lead}{linked}{trail}" if shown else lead


def _header(claim: Claim) -> list[str]:
    lines = [f"# {text(claim.header.title)}", ""]
    for field in header_fields(claim):
        lines.append(f"**{field.label}**: " + "".join(_segment(s) for s in field.segments) + "  ")
    lines[-1] = lines[-1].rstrip()
    return [*lines, ""]


def _table(claim: Claim) -> list[str]:
    t1, t2 = claim.tiers
    lines = [
        "## Requirements",
        "",
        f"| # | Requirement | Tier {t1} standard | Tier {t2} standard | Found | Tier {t1} "
        f"| Tier {t2} | Gap |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in claim.rows:
        lines.append(
            f"| {row.id} | {row.requirement} | {cell(row.standards[0])} | "
            f"{cell(row.standards[1])} | {cell(row.current)} | {verdict_text(row, 0)} | "
            f"{verdict_text(row, 1)} | {cell(row.gap)} |"
        )
    lines += [
        "",
        "Rows 1a–4b are measured and read from the scorecard; the official reading comes "
        "first, SEP-1730's in brackets where it differs. Rows 5–8 are judged by fixed rules "
        "where a rule can decide, otherwise NEEDS REVIEW: never passed on a guess.",
        "",
        *_summary(claim),
        "",
    ]
    return lines


def _conformance(claim: Claim) -> list[str]:
    header, rows = split_table(claim)
    lines = [
        "## Conformance",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    lines.append("")
    for note in split_notes(claim):
        lines += ["".join(_segment(s) for s in note), ""]
    return lines


def _block(title: str, block: Block) -> list[str]:
    lines = [title, ""]
    for paragraph in block.paragraphs:
        lines += ["".join(_segment(s) for s in paragraph), ""]
    if block.header:
        lines.append("| " + " | ".join(block.header) + " |")
        lines.append("|" + "---|" * len(block.header))
        for row in block.rows:
            lines.append(
                "| "
                + " | ".join("".join(_segment(s, in_table=True) for s in each) for each in row)
                + " |"
            )
        lines.append("")
    return lines


def _fence(lines: list[str]) -> str:
    longest = max((len(run) for line in lines for run in re.findall(r"`+", line)), default=0)
    return "`" * max(3, longest + 1)


def _reproduce(claim: Claim) -> list[str]:
    blocks, notes = reproduce_parts(claim)
    lines = ["## Reproduce", ""]
    for intro, commands in blocks:
        fence = _fence(commands)
        lines += [intro, "", f"{fence}sh", *commands, fence, ""]
    for note in notes:
        lines += [text(note), ""]
    return lines


def _changes(claim: Claim) -> list[str]:
    block = changes_block(claim)
    return [] if block is None else _block("## Changes since the previous assessment", block)


def _checklist(claim: Claim) -> list[str]:
    lines = ["## Reviewer checklist", ""]
    for row in claim.rows:
        if row.review is None:
            continue
        if all(v in ("fail", "n/a") for v in row.verdicts):
            what = f"fix first ({text(row.gap)}), then check that {text(row.review)}"
        else:
            what = f"check that {text(row.review)}"
        lines.append(f"- [ ] **{row.id} {row.requirement}**: {what}")
    return [*lines, ""]


def _details(summary: str, lines: Sequence[str]) -> list[str]:
    # A blank line after <summary> and before </details>, so GitHub renders the Markdown inside.
    # Inside the raw HTML of <summary> GitHub reads no Markdown: HTML escaping is what holds.
    shown = html.escape(summary, quote=False)
    return ["<details>", f"<summary>{shown}</summary>", "", *lines, "", "</details>", ""]


def _moved(what: str) -> tuple[str, ...]:
    return (f"_{what}: left out to fit one issue body; see the attached {FULL_NAME}._", "")


def _evidence_parts(claim: Claim) -> list[Part]:
    parts = [Part(("## Evidence", ""))]
    for row in claim.rows:
        if row.id == "5":
            parts.append(_documentation_part(claim))
            continue
        title = [f"### {row.id} {row.requirement}", ""]
        items = row.evidence or (EvidenceLine("no further evidence recorded"),)
        lines = [f"- {_linked(item)}" for item in items]
        if len(lines) <= _INLINE_EVIDENCE:
            parts.append(Part((*title, *lines, "")))
            continue
        summary = f"{len(lines)} lines of evidence"
        steps: list[tuple[str, ...]] = []
        if row.id in ("1a", "1b"):
            failing = sum(1 for e in items if e.text.startswith("FAIL "))
            summary = f"{len(lines)} scored scenarios, {failing} failing (failures first)"
            # First the messages go (the scenario and its verdict stay), then the list.
            names = [f"- {text(e.text.split(' (', 1)[0])}" for e in items]
            brief = f"{summary}; the failing checks are in the attached {FULL_NAME}"
            steps.append((*title, *_details(brief, names)))
        steps.append((*title, *_moved(summary)))
        parts.append(Part((*title, *_details(summary, lines)), tuple(steps)))
    return parts


def _documentation_part(claim: Claim) -> Part:
    block = docs_block(claim)
    title = ["### 5 Documentation", ""]
    intro = _block("", Block(block.paragraphs))[2:]
    if not block.header:
        return Part((*title, *intro))
    table = _block("", Block((), block.header, block.rows))[2:]
    return Part(
        (*title, *intro, *_details("the features, one row each", table)),
        ((*title, *intro, *_moved("the feature table")),),
    )


def _baseline_part(claim: Claim) -> Part:
    block = baseline_block(claim)
    full = _block("## Baseline", block)
    if not block.rows:
        return Part(tuple(full))
    short = _block("## Baseline", Block(block.paragraphs))
    return Part(tuple(full), ((*short, *_moved(f"the {len(block.rows)} entries")),))


def _changes_part(claim: Claim) -> Part:
    block = changes_block(claim)
    if block is None:
        return Part(())
    full = _block("## Changes since the previous assessment", block)
    short = _block(
        "## Changes since the previous assessment",
        Block(block.paragraphs[:1], block.header, block.rows),
    )
    return Part(tuple(full), ((*short, *_moved("the scenario lists")),))


def _parts(claim: Claim) -> list[Part]:
    return [
        Part((*_header(claim), *_table(claim), *_conformance(claim))),
        _baseline_part(claim),
        _changes_part(claim),
        Part(tuple(_checklist(claim))),
        *_evidence_parts(claim),
        Part(tuple(_reproduce(claim))),
    ]


def render_assessment_files(claim: Claim) -> dict[str, str]:
    """`assessment.md`, the body to paste (under GitHub's 65,536 characters), and, when the
    body had to leave evidence out, `assessment-full.md` with all of it (to attach)."""
    parts = _parts(claim)
    # Room for the note that says what was left out, added below.
    body, shortened = fit(parts, BODY_LIMIT - 256)
    if not shortened:
        return {"assessment.md": body}
    full = "\n".join(line for part in parts for line in part.full).rstrip() + "\n"
    note = (
        f"> This body leaves some evidence out to fit one GitHub issue; the attached "
        f"`{FULL_NAME}` has all of it."
    )
    title_end = body.index("\n") + 1
    body, _ = fit([Part((body[:title_end].rstrip(), "", note, "", body[title_end:].lstrip()))])
    return {"assessment.md": body, FULL_NAME: full}


def render_assessment(claim: Claim) -> str:
    """`assessment.md`: header, the requirements table, the split, the baseline, the changes,
    the checklist, every row's evidence and how to reproduce it; under 65,536 characters."""
    return render_assessment_files(claim)["assessment.md"]


def _actions(claim: Claim, column: int) -> list[tuple[Row, str]]:
    steps = {step.blocker.split(" ")[0]: step for step in claim.scorecard.remediation}
    check_of = {
        "1a": "server_conformance",
        "1b": "client_conformance",
        "2": "triage",
        "2b": "labels",
        "3": "p0_resolution",
        "4": "stable_release",
        "4b": "spec_tracking",
    }
    out = []
    for row in claim.rows:
        verdict = row.verdicts[column]
        if verdict in ("pass", "n/a"):
            continue
        step = steps.get(check_of.get(row.id, ""))
        if verdict == "needs review":
            action = f"Review: {row.review}"
        elif step is not None:
            action = step.action
        elif row.kind == "judgment":
            action = f"Publish it: {row.review}"
        else:
            action = f"Measure it again ({row.current})"
        out.append((row, action))
    return out


def _where_cell(claim: Claim, row: Row) -> str:
    if row.id == "5" and claim.coverage is not None:
        return cell(
            ", ".join(str(f.feature.number) for f in claim.coverage.missing) or "the hits listed"
        )
    links = [e for e in row.evidence if e.url][:3]
    if links:
        return ", ".join(_linked(e, in_table=True) for e in links)
    return cell(row.gap)


def _path(claim: Claim, column: int) -> list[str]:
    tier = claim.tiers[column]
    actions = _actions(claim, column)
    lines = [f"## Path to Tier {tier}", ""]
    if not actions:
        return [*lines, "Every row passes.", ""]
    lines += ["| # | Action | Requirement | Effort | Where |", "|---|---|---|---|---|"]
    # Blocking rows first (they decide the tier), then the reviews.
    ordered = sorted(actions, key=lambda pair: pair[0].verdicts[column] == "needs review")
    for n, (row, action) in enumerate(ordered, start=1):
        effort = "Small" if row.verdicts[column] == "needs review" else EFFORT[row.id]
        lines.append(
            f"| {n} | {cell(action)} | {row.id} {row.requirement} | {effort} | "
            f"{_where_cell(claim, row)} |"
        )
    return [*lines, ""]


def render_remediation(claim: Claim) -> str:
    """`remediation.md`: the path to the tier below (if not reached yet), then to the target."""
    doc = claim.scorecard
    lines = [
        f"# Remediation: {text(doc.repo)}",
        "",
        f"**Commit**: {code(short_sha(doc.sdk.commit))} · "
        f"**Implied tier**: Tier {doc.implied_tier.tier} · "
        f"**Target**: Tier {claim.target_tier}",
        "",
        "Effort: Small (under a day), Medium (1–3 days), Large (more than 3 days).",
        "",
    ]
    if claim.target_tier >= 3:
        # A Tier 3 claim's columns are the way up: Tier 2 first, then Tier 1.
        return "\n".join([*lines, *_path(claim, 0), *_path(claim, 1)]).rstrip() + "\n"
    lower = claim.tiers[1]
    if lower <= 3 and doc.implied_tier.tier > lower:
        lines += _path(claim, 1)
    lines += _path(claim, 0)
    return "\n".join(lines).rstrip() + "\n"
