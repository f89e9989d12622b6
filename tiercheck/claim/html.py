"""`claim.html`: the claim as one self-contained page, in the scorecard page's visual language,
composed with the HTML kit (`tiercheck.render.html`)."""

from __future__ import annotations

from tiercheck.claim.harnesses import COMPARISON_TITLE, comparison_block
from tiercheck.claim.pack import Claim
from tiercheck.claim.table import Row
from tiercheck.claim.wording import (
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
from tiercheck.render.badge import tier_badge
from tiercheck.render.html import Css, Html, chip, el, join, link, page, scroll_region, table, void
from tiercheck.scorecard.remediation import not_assessed

__all__ = ["render_claim_html"]

_CSS = Css("""
pre { background: var(--bg); border: 1px solid var(--line); padding: 8px; overflow-x: auto; }
#claim-header .field { margin: 2px 0; }
details > summary { cursor: pointer; color: var(--info); }
""")

#: Rows with more evidence lines than this fold them (as assessment.md does).
_INLINE_EVIDENCE = 8

_STATUS = {
    "ready": ("pass", "ready to file"),
    "needs review": ("needs review", "ready once reviewed"),
    "blocked": ("fail", "blocked"),
}


def _verdict(row: Row, column: int) -> Html:
    verdict = row.verdicts[column]
    text = chip(verdict)
    if row.sep1730 is not None and row.sep1730[column] != verdict:
        sep = el("span", "SEP-1730:", class_="msg")
        text = join((text, " ", sep, " ", chip(row.sep1730[column])))
    return text


def _requirements(claim: Claim) -> Html:
    t1, t2 = claim.tiers
    rows = [
        [
            row.id,
            row.requirement,
            row.standards[0],
            row.standards[1],
            row.current,
            _verdict(row, 0),
            _verdict(row, 1),
            row.gap,
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
    region = scroll_region(table(header, rows), "Requirements")
    return el("section", el("h2", "Requirements"), region, id="requirements")


def _segments(segments: tuple[Segment, ...]) -> Html:
    return join(_segment(s) for s in segments)


def _conformance(claim: Claim) -> Html:
    header, rows = split_table(claim)
    cells = [
        [
            c if i < len(header) - 2 else chip(c.lower(), c) if c != "—" else "—"
            for i, c in enumerate(row)
        ]
        for row in rows
    ]
    notes = [el("p", _segments(n), class_="note") for n in split_notes(claim)]
    return el(
        "section",
        el("h2", "Conformance"),
        scroll_region(
            table(header, cells, numeric=tuple(range(1, len(header) - 2))), "Conformance"
        ),
        *notes,
        id="conformance",
    )


def _block(title: str, ident: str, block: Block) -> Html:
    parts = [el("h2", title)]
    parts += [el("p", _segments(p)) for p in block.paragraphs]
    if block.header:
        cells = [[_segments(cell) for cell in row] for row in block.rows]
        parts.append(scroll_region(table(list(block.header), cells), title))
    return el("section", *parts, id=ident)


def _reproduce(claim: Claim) -> Html:
    blocks, notes = reproduce_parts(claim)
    parts = [el("h2", "Reproduce")]
    for n, (intro, code) in enumerate(blocks, 1):
        # A command block scrolls sideways: the keyboard reaches it (tabindex), and a screen
        # reader names it by the paragraph that introduces it.
        named = f"reproduce-intro-{n}"
        parts += [
            el("p", _segments(intro), id=named),
            el(
                "pre",
                el("code", "\n".join(code)),
                tabindex="0",
                role="region",
                aria_labelledby=named,
            ),
        ]
    parts += [el("p", n, class_="note") for n in notes]
    return el("section", *parts, id="reproduce")


def _changes(claim: Claim) -> Html:
    block = changes_block(claim)
    return (
        Html()
        if block is None
        else _block("Changes since the previous assessment", "changes", block)
    )


def _comparison(claim: Claim) -> Html:
    block = comparison_block(claim)
    return Html() if block is None else _block(COMPARISON_TITLE, "harness-comparison", block)


def _checklist(claim: Claim) -> Html:
    items = [
        # The label holds the box and its text, so the box is named by what it checks.
        el(
            "li",
            el(
                "label",
                void("input", type="checkbox", disabled=True),
                " ",
                el("strong", f"{row.id} {row.requirement}"),
                f": check that {row.review}",
            ),
        )
        for row in claim.rows
        if row.review is not None and not all(v == "n/a" for v in row.verdicts)
    ]
    return el("section", el("h2", "Reviewer checklist"), el("ul", *items), id="checklist")


_FOUND_CHIP = {
    "docs and example": "pass",
    "docs only": "needs review",
    "example only": "needs review",
    "no hit": "fail",
}


def _documentation(claim: Claim) -> Html:
    block = docs_block(claim)
    parts = [el("h3", "5 Documentation")]
    parts += [el("p", _segments(p)) for p in block.paragraphs]
    if block.header and claim.coverage is not None:
        rows = []
        for f, row in zip(claim.coverage.features, block.rows, strict=True):
            cells: list[Html] = [_segments(cell) for cell in row]
            kind = "skip" if f.lifecycle is not None and not f.covered else _FOUND_CHIP[f.finding]
            cells[3] = chip(kind, row[3][0].text)
            rows.append(cells)
        parts.append(scroll_region(table(list(block.header), rows), "Documentation"))
    return el("section", *parts, id="documentation")


def _evidence(claim: Claim) -> Html:
    parts = [el("h2", "Evidence")]
    for row in claim.rows:
        if row.id == "5":
            parts.append(_documentation(claim))
            continue
        parts.append(el("h3", f"{row.id} {row.requirement}"))
        items = [el("li", link(e.text, e.url)) for e in row.evidence] or [
            el("li", "no further evidence recorded")
        ]
        listed = el("ul", *items)
        if len(items) > _INLINE_EVIDENCE:
            # As in assessment.md: a long list folds, open on a click.
            listed = el("details", el("summary", f"{len(items)} lines of evidence"), listed)
        parts.append(listed)
    return join(parts, "\n")


def _segment(segment: Segment) -> Html:
    text = link(segment.text, segment.url)
    return el("code", text) if segment.code else text


def _header(claim: Claim) -> Html:
    items = [
        el("div", el("strong", field.label), ": ", _segments(field.segments), class_="field")
        for field in header_fields(claim)
    ]
    return el("section", *items, id="claim-header")


def render_claim_html(claim: Claim) -> str:
    """The whole claim page."""
    doc = claim.scorecard
    kind, text = _STATUS[claim.status]
    heading = join(
        (
            # A run that measured nothing has no tier to show (`not assessed`).
            tier_badge(None if not_assessed(doc) else doc.implied_tier.tier),
            el("span", claim.header.title),
            " ",
            chip(kind, text),
        )
    )
    body = join(
        [
            _requirements(claim),
            _conformance(claim),
            _block("Baseline", "baseline", baseline_block(claim)),
            _changes(claim),
            _comparison(claim),
            _checklist(claim),
            _evidence(claim),
            _reproduce(claim),
        ],
        "\n",
    )
    return str(page(claim.header.title, heading, _header(claim), body, css=_CSS))
