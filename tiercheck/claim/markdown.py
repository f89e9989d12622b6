"""`assessment.md` and `remediation.md`: a claim as GitHub-flavoured Markdown, ready to paste.

Links point at the assessed commit (`blob/<sha>/…`), never at a branch, so the evidence a
reviewer follows is the evidence that was judged. The documents are composed over
`tiercheck.render.markdown`: untrusted text (scenario messages, issue titles, tag and file
names) is one line there, every word that could link, mention, reference or break a table cell
shown as code.
"""

from __future__ import annotations

from collections.abc import Sequence

from tiercheck.claim.fit import BODY_LIMIT, FULL_NAME, Part, fitted_lines
from tiercheck.claim.harnesses import COMPARISON_TITLE, comparison_block
from tiercheck.claim.pack import Claim
from tiercheck.claim.table import EvidenceLine, Row, Verdict
from tiercheck.claim.wording import (
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
from tiercheck.render import markdown as md
from tiercheck.render.markdown import (
    BLANK,
    Inline,
    Md,
    bold,
    bullet,
    code,
    fmt,
    https_url,
    link,
    own,
)
from tiercheck.scorecard.readings import short_sha
from tiercheck.scorecard.remediation import NOT_ASSESSED, not_assessed

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


def _linked(line: EvidenceLine) -> Md:
    return link(md.text(line.text, _LINE_LIMIT), https_url(line.url))


def verdict_text(row: Row, column: int) -> str:
    """One tier's verdict, with SEP-1730's beside it when it differs."""
    official = _LABEL[row.verdicts[column]]
    if row.sep1730 is not None and row.sep1730[column] != row.verdicts[column]:
        return f"{official} (SEP-1730: {_LABEL[row.sep1730[column]]})"
    return official


def _count(rows: Sequence[Row], column: int, verdict: Verdict) -> int:
    return sum(1 for row in rows if row.verdicts[column] == verdict)


def _summary(claim: Claim) -> list[Md]:
    lines = []
    for column, tier in enumerate(claim.tiers):
        if tier > 3:
            continue
        rows = [r for r in claim.rows if r.verdicts[column] != "n/a"]
        if not rows:  # Tier 3 asks for nothing: no row to pass
            lines.append(bullet(f"Tier {tier}: no row applies, so nothing blocks"))
            continue
        passing = _count(rows, column, "pass")
        review = _count(rows, column, "needs review")
        blocked = [r.id for r in rows if r.verdicts[column] not in ("pass", "needs review")]
        text = f"Tier {tier}: {passing}/{len(rows)} rows pass, {review} need review"
        text += f", blocked by {', '.join(blocked)}" if blocked else ", nothing blocks"
        lines.append(bullet(text))
    return lines


_SPACE = own(" ")


def _segment(segment: Segment) -> Md:
    if segment.own:  # tiercheck's own Markdown (`Md`), spaces and all
        return link(segment.text, https_url(segment.url))
    raw = segment.text
    shown = code(raw) if segment.code else md.text(raw)
    lead = _SPACE if raw[:1].isspace() else BLANK
    if not shown:
        return lead
    trail = _SPACE if raw[-1:].isspace() else BLANK
    return md.join([lead, link(shown, https_url(segment.url)), trail])


def _segments(segments: Sequence[Segment]) -> Md:
    return md.join(_segment(s) for s in segments)


def _header(claim: Claim) -> list[Md]:
    lines = [md.heading(1, claim.header.title), BLANK]
    fields = header_fields(claim)
    for n, field in enumerate(fields, start=1):
        shown = fmt("**{}**: {}", field.label, _segments(field.segments))
        # Two trailing spaces, a hard line break, between the fields.
        lines.append(fmt("{}  ", shown) if n < len(fields) else shown)
    return [*lines, BLANK]


def _table(claim: Claim) -> list[Md]:
    t1, t2 = claim.tiers
    header: list[Inline] = [
        own("#"),
        "Requirement",
        f"Tier {t1} standard",
        f"Tier {t2} standard",
        "Found",
        f"Tier {t1}",
        f"Tier {t2}",
        "Gap",
    ]
    rows = [
        [
            row.id,
            row.requirement,
            row.standards[0],
            row.standards[1],
            row.current,
            verdict_text(row, 0),
            verdict_text(row, 1),
            row.gap,
        ]
        for row in claim.rows
    ]
    return [
        md.heading(2, "Requirements"),
        BLANK,
        *md.table(header, rows),
        BLANK,
        md.text(
            "Rows 1a–4b are measured and read from the scorecard; the official reading comes "
            "first, SEP-1730's in brackets where it differs. Rows 5–8 are judged by fixed rules "
            "where a rule can decide, otherwise NEEDS REVIEW: never passed on a guess."
        ),
        BLANK,
        *_summary(claim),
        BLANK,
    ]


def _conformance(claim: Claim) -> list[Md]:
    header, rows = split_table(claim)
    lines = [md.heading(2, "Conformance"), BLANK, *md.table(header, rows), BLANK]
    for note in split_notes(claim):
        lines += [_segments(note), BLANK]
    return lines


def _block(title: Md | None, block: Block) -> list[Md]:
    lines = [title, BLANK] if title is not None else []
    for paragraph in block.paragraphs:
        lines += [_segments(paragraph), BLANK]
    if block.header:
        rows = [[_segments(each) for each in row] for row in block.rows]
        lines += [*md.table(block.header, rows), BLANK]
    return lines


def _reproduce(claim: Claim) -> list[Md]:
    blocks, notes = reproduce_parts(claim)
    lines = [md.heading(2, "Reproduce"), BLANK]
    for intro, commands in blocks:
        lines += [_segments(intro), BLANK, *md.code_block(commands, "sh"), BLANK]
    for note in notes:
        lines += [md.text(note), BLANK]
    return lines


_CHANGES = md.heading(2, "Changes since the previous assessment")


def _checklist(claim: Claim) -> list[Md]:
    lines = [md.heading(2, "Reviewer checklist"), BLANK]
    for row in claim.rows:
        if row.review is None or all(v == "n/a" for v in row.verdicts):
            continue  # nothing to review: the row applies to neither tier
        if all(v in ("fail", "n/a") for v in row.verdicts):
            what = fmt("fix first ({}), then check that {}", row.gap, row.review)
        else:
            what = fmt("check that {}", row.review)
        lines.append(md.task(fmt("{}: {}", bold(f"{row.id} {row.requirement}"), what)))
    return [*lines, BLANK]


def _details(summary: str, lines: Sequence[Md]) -> list[Md]:
    # A blank line after <summary> and before </details>, so GitHub renders the Markdown inside.
    return [*md.details(summary, lines), BLANK]


def _moved(what: str) -> tuple[Md, ...]:
    moved = f"{what}: left out to fit one issue body; see the attached {FULL_NAME}."
    return (md.italic(moved), BLANK)


def _evidence_parts(claim: Claim) -> list[Part]:
    parts = [Part((md.heading(2, "Evidence"), BLANK))]
    for row in claim.rows:
        if row.id == "5":
            parts.append(_documentation_part(claim))
            continue
        title = [md.heading(3, f"{row.id} {row.requirement}"), BLANK]
        items = row.evidence or (EvidenceLine("no further evidence recorded"),)
        lines = [bullet(_linked(item)) for item in items]
        if len(lines) <= _INLINE_EVIDENCE:
            parts.append(Part((*title, *lines, BLANK)))
            continue
        summary = f"{len(lines)} lines of evidence"
        steps: list[tuple[Md, ...]] = []
        if row.id in ("1a", "1b"):
            failing = sum(1 for e in items if e.text.startswith("FAIL "))
            summary = f"{len(lines)} scored scenarios, {failing} failing (failures first)"
            # First the messages go (the scenario and its verdict stay), then the list.
            names = [bullet(e.text.split(" (", 1)[0]) for e in items]
            brief = f"{summary}; the failing checks are in the attached {FULL_NAME}"
            steps.append((*title, *_details(brief, names)))
        steps.append((*title, *_moved(summary)))
        parts.append(Part((*title, *_details(summary, lines)), tuple(steps)))
    return parts


def _documentation_part(claim: Claim) -> Part:
    block = docs_block(claim)
    title = [md.heading(3, "5 Documentation"), BLANK]
    intro = _block(None, Block(block.paragraphs))
    if not block.header:
        return Part((*title, *intro))
    table = _block(None, Block((), block.header, block.rows))
    return Part(
        (*title, *intro, *_details("the features, one row each", table)),
        ((*title, *intro, *_moved("the feature table")),),
    )


def _baseline_part(claim: Claim) -> Part:
    block = baseline_block(claim)
    title = md.heading(2, "Baseline")
    full = _block(title, block)
    if not block.rows:
        return Part(tuple(full))
    short = _block(title, Block(block.paragraphs))
    return Part(tuple(full), ((*short, *_moved(f"the {len(block.rows)} entries")),))


def _changes_part(claim: Claim) -> Part:
    block = changes_block(claim)
    if block is None:
        return Part(())
    full = _block(_CHANGES, block)
    short = _block(_CHANGES, Block(block.paragraphs[:1], block.header, block.rows))
    return Part(tuple(full), ((*short, *_moved("the scenario lists")),))


def _comparison_part(claim: Claim) -> Part:
    """`--compare-harness`: what was compared, each leg, then the disagreements (folded; the
    table goes first when the body must shrink)."""
    block = comparison_block(claim)
    if block is None:
        return Part(())
    title = md.heading(2, COMPARISON_TITLE)
    intro = _block(title, Block(block.paragraphs))
    if not block.rows:
        return Part(tuple(intro))
    table = _block(None, Block((), block.header, block.rows))
    summary = f"{len(block.rows)} disagreements, one row each"
    return Part(
        (*intro, *_details(summary, table)),
        ((*intro, *_moved(f"the {len(block.rows)} disagreements")),),
    )


def _parts(claim: Claim) -> list[Part]:
    return [
        Part((*_header(claim), *_table(claim), *_conformance(claim))),
        _baseline_part(claim),
        _changes_part(claim),
        _comparison_part(claim),
        Part(tuple(_checklist(claim))),
        *_evidence_parts(claim),
        Part(tuple(_reproduce(claim))),
    ]


def render_assessment_files(claim: Claim) -> dict[str, str]:
    """`assessment.md`, the body to paste (under GitHub's 65,536 characters), and, when the
    body had to leave evidence out, `assessment-full.md` with all of it (to attach)."""
    parts = _parts(claim)
    # Room for the note that says what was left out, added below.
    body, shortened = fitted_lines(parts, BODY_LIMIT - 256)
    if not shortened:
        return {"assessment.md": md.document(body)}
    full = md.document(md.inline(line) for part in parts for line in part.full)
    note = fmt(
        "> This body leaves some evidence out to fit one GitHub issue; the attached `{}` has "
        "all of it.",
        FULL_NAME,
    )
    title, rest = body[0], body[1:]
    while rest and not rest[0].strip():
        rest = rest[1:]
    return {"assessment.md": md.document([title, BLANK, note, BLANK, *rest]), FULL_NAME: full}


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


def _where_cell(claim: Claim, row: Row) -> Inline:
    if row.id == "5" and claim.coverage is not None:
        return ", ".join(str(f.feature.number) for f in claim.coverage.missing) or "the hits listed"
    links = [e for e in row.evidence if e.url][:3]
    if links:
        return md.join((_linked(e) for e in links), ", ")
    return row.gap


def _path(claim: Claim, column: int) -> list[Md]:
    tier = claim.tiers[column]
    actions = _actions(claim, column)
    lines = [md.heading(2, f"Path to Tier {tier}"), BLANK]
    if not actions:
        return [*lines, own("Every row passes."), BLANK]
    # Blocking rows first (they decide the tier), then the reviews.
    ordered = sorted(actions, key=lambda pair: pair[0].verdicts[column] == "needs review")
    rows: list[list[Inline]] = []
    for n, (row, action) in enumerate(ordered, start=1):
        effort = "Small" if row.verdicts[column] == "needs review" else EFFORT[row.id]
        rows.append(
            [str(n), action, f"{row.id} {row.requirement}", effort, _where_cell(claim, row)]
        )
    header: list[Inline] = [own("#"), "Action", "Requirement", "Effort", "Where"]
    return [*lines, *md.table(header, rows), BLANK]


def render_remediation(claim: Claim) -> str:
    """`remediation.md`: the path to the tier below (if not reached yet), then to the target."""
    doc = claim.scorecard
    lines = [
        md.heading(1, fmt("Remediation: {}", doc.repo)),
        BLANK,
        fmt(
            "**Commit**: {} · **Implied tier**: {} · **Target**: Tier {}",
            code(short_sha(doc.sdk.commit)),
            NOT_ASSESSED if not_assessed(doc) else f"Tier {doc.implied_tier.tier}",
            claim.target_tier,
        ),
        BLANK,
        md.text("Effort: Small (under a day), Medium (1–3 days), Large (more than 3 days)."),
        BLANK,
    ]
    if claim.target_tier >= 3:
        # A Tier 3 claim's columns are the way up: Tier 2 first, then Tier 1.
        return md.document([*lines, *_path(claim, 0), *_path(claim, 1)])
    lower = claim.tiers[1]
    if lower <= 3 and doc.implied_tier.tier > lower:
        lines += _path(claim, 1)
    lines += _path(claim, 0)
    return md.document(lines)
