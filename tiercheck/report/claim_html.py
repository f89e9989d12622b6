"""`claim.html`: the claim as one self-contained page, in the scorecard page's visual language."""

from __future__ import annotations

from tiercheck.claim.pack import Claim
from tiercheck.claim.table import Row
from tiercheck.report.badge import render_badge_svg
from tiercheck.report.claim_view import (
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
from tiercheck.report.html import chip, esc, link, page, table

__all__ = ["render_claim_html"]

_CSS = """
pre { background: var(--bg); border: 1px solid var(--line); padding: 8px; overflow-x: auto; }
#claim-header .field { margin: 2px 0; }
details > summary { cursor: pointer; color: var(--info); }
"""

#: Rows with more evidence lines than this fold them (as assessment.md does).
_INLINE_EVIDENCE = 8

_STATUS = {
    "ready": ("pass", "ready to file"),
    "needs review": ("needs review", "ready once reviewed"),
    "blocked": ("fail", "blocked"),
}


def _verdict(row: Row, column: int) -> str:
    verdict = row.verdicts[column]
    text = chip(verdict)
    if row.sep1730 is not None and row.sep1730[column] != verdict:
        text += f' <span class="msg">SEP-1730:</span> {chip(row.sep1730[column])}'
    return text


def _requirements(claim: Claim) -> str:
    t1, t2 = claim.tiers
    rows = [
        [
            esc(row.id),
            esc(row.requirement),
            esc(row.standards[0]),
            esc(row.standards[1]),
            esc(row.current),
            _verdict(row, 0),
            _verdict(row, 1),
            esc(row.gap),
        ]
        for row in claim.rows
    ]
    header = [
        "#",
        "Requirement",
        f"Tier {t1} standard",
        f"Tier {t2} standard",
        "Found",
        f"Tier {t1}",
        f"Tier {t2}",
        "Gap",
    ]
    return '<section id="requirements"><h2>Requirements</h2>' + table(header, rows) + "</section>"


def _conformance(claim: Claim) -> str:
    header, rows = split_table(claim)
    cells = [
        [
            esc(c) if i < len(header) - 2 else chip(c.lower(), c) if c != "—" else "—"
            for i, c in enumerate(row)
        ]
        for row in rows
    ]
    notes = "".join(
        '<p class="note">' + "".join(_segment(s) for s in n) + "</p>" for n in split_notes(claim)
    )
    return (
        '<section id="conformance"><h2>Conformance</h2>'
        + table(header, cells, numeric=tuple(range(1, len(header) - 2)))
        + notes
        + "</section>"
    )


def _block(title: str, ident: str, block: Block) -> str:
    parts = [f'<section id="{ident}"><h2>{esc(title)}</h2>']
    parts += ["<p>" + "".join(_segment(s) for s in p) + "</p>" for p in block.paragraphs]
    if block.header:
        cells = [["".join(_segment(s) for s in cell) for cell in row] for row in block.rows]
        parts.append(table(list(block.header), cells))
    return "".join(parts) + "</section>"


def _reproduce(claim: Claim) -> str:
    blocks, notes = reproduce_parts(claim)
    parts = ['<section id="reproduce"><h2>Reproduce</h2>']
    for intro, code in blocks:
        parts.append(f"<p>{esc(intro)}</p><pre><code>{esc(chr(10).join(code))}</code></pre>")
    parts += [f'<p class="note">{esc(n)}</p>' for n in notes]
    return "".join(parts) + "</section>"


def _changes(claim: Claim) -> str:
    block = changes_block(claim)
    return (
        "" if block is None else _block("Changes since the previous assessment", "changes", block)
    )


def _checklist(claim: Claim) -> str:
    items = []
    for row in claim.rows:
        if row.review is not None:
            items.append(
                '<li><input type="checkbox" disabled> '
                f"<strong>{esc(row.id)} {esc(row.requirement)}</strong>: "
                f"check that {esc(row.review)}</li>"
            )
    return (
        '<section id="checklist"><h2>Reviewer checklist</h2><ul>'
        + "".join(items)
        + "</ul></section>"
    )


_FOUND_CHIP = {
    "docs and example": "pass",
    "docs only": "needs review",
    "example only": "needs review",
    "no hit": "fail",
}


def _documentation(claim: Claim) -> str:
    block = docs_block(claim)
    parts = ['<section id="documentation"><h3>5 Documentation</h3>']
    parts += ["<p>" + "".join(_segment(s) for s in p) + "</p>" for p in block.paragraphs]
    if block.header and claim.coverage is not None:
        rows = []
        for f, row in zip(claim.coverage.features, block.rows, strict=True):
            cells = ["".join(_segment(s) for s in cell) for cell in row]
            kind = "skip" if f.lifecycle is not None and not f.covered else _FOUND_CHIP[f.finding]
            cells[3] = chip(kind, row[3][0].text)
            rows.append(cells)
        parts.append(table(list(block.header), rows))
    return "".join(parts) + "</section>"


def _evidence(claim: Claim) -> str:
    parts = ["<h2>Evidence</h2>"]
    for row in claim.rows:
        if row.id == "5":
            parts.append(_documentation(claim))
            continue
        parts.append(f"<h3>{esc(row.id)} {esc(row.requirement)}</h3>")
        items = [f"<li>{link(e.text, e.url)}</li>" for e in row.evidence] or [
            "<li>no further evidence recorded</li>"
        ]
        listed = "<ul>" + "".join(items) + "</ul>"
        if len(items) > _INLINE_EVIDENCE:
            # As in assessment.md: a long list folds, open on a click.
            listed = f"<details><summary>{len(items)} lines of evidence</summary>{listed}</details>"
        parts.append(listed)
    return "\n".join(parts)


def _segment(segment: Segment) -> str:
    text = link(segment.text, segment.url)
    return f"<code>{text}</code>" if segment.code else text


def _header(claim: Claim) -> str:
    items = [
        f'<div class="field"><strong>{esc(field.label)}</strong>: '
        + "".join(_segment(s) for s in field.segments)
        + "</div>"
        for field in header_fields(claim)
    ]
    return f'<section id="claim-header">{"".join(items)}</section>'


def render_claim_html(claim: Claim) -> str:
    """The whole claim page."""
    doc = claim.scorecard
    badge = render_badge_svg(doc)
    kind, text = _STATUS[claim.status]
    heading = f"{badge}<span>{esc(claim.header.title)}</span> {chip(kind, text)}"
    body = "\n".join(
        [
            _requirements(claim),
            _conformance(claim),
            _block("Baseline", "baseline", baseline_block(claim)),
            _changes(claim),
            _checklist(claim),
            _evidence(claim),
            _reproduce(claim),
        ]
    )
    return page(claim.header.title, heading, _header(claim), body, css=_CSS)
