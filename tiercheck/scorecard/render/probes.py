"""The advisory probes, rendered: plain text (terminal, `tier-check probe`) and Markdown.

Advisory means apart: the section comes after everything that decides the tier, and says
that it changes nothing. WARN is a SHOULD broken and passes; FAIL is a MUST broken and is
listed with its evidence, spec sentence and fix; SKIP carries its reason. A pass carries its
evidence too (what was sent and seen), folded in Markdown so that it does not crowd out the
warnings and failures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from tiercheck.plaintext import one_line
from tiercheck.render import markdown as md
from tiercheck.render.markdown import Md, bullet, code, fmt
from tiercheck.scorecard.model import ProbeEntry, ProbesBlock, Scorecard

__all__ = [
    "ADVISORY_NOTE",
    "probe_blocks",
    "probe_counts",
    "probes_markdown",
    "probes_markdown_lines",
    "probes_text",
]

ADVISORY_NOTE = "Advisory: these probes change no score, tier or exit code."
_MARK = {"pass": "PASS", "warn": "WARN", "fail": "FAIL", "skip": "SKIP"}


def probe_blocks(doc: Scorecard) -> dict[str, ProbesBlock]:
    """Revision → its probes, for the revisions that ran any."""
    return {rev: entry.probes for rev, entry in doc.revisions.items() if entry.probes is not None}


def probe_counts(block: ProbesBlock) -> str:
    """`3 pass, 1 warn`: how many probes ended each way, in a fixed order."""
    counts = Counter(r.outcome for r in block.results)
    return ", ".join(f"{counts[o]} {o}" for o in ("pass", "warn", "fail", "skip") if counts[o])


def _needs_detail(entry: ProbeEntry) -> bool:
    return entry.outcome in ("warn", "fail")


def probes_text(blocks: Mapping[str, ProbesBlock]) -> str:
    """One line per probe per revision, then the warnings and failures with evidence and fix."""
    lines = [f"Advisory probes  ({ADVISORY_NOTE})"]
    for revision, block in blocks.items():
        lines.append(f"  {revision}  {one_line(block.url)}  {probe_counts(block) or 'none run'}")
        for entry in block.results:
            lines.append(f"    {_MARK[entry.outcome]}  {entry.probe:<20} {one_line(entry.summary)}")
    flagged = [(rev, e) for rev, b in blocks.items() for e in b.results if _needs_detail(e)]
    for revision, entry in flagged:
        lines.append("")
        lines.append(f"  {_MARK[entry.outcome]} {entry.probe} at {revision} ({entry.level})")
        lines += [f"    sent/got: {one_line(e)}" for e in entry.evidence]
        lines.append(f"    rule: {one_line(entry.spec)}")
        if entry.fix:
            lines.append(f"    fix: {one_line(entry.fix)}")
    return "\n".join(lines) + "\n"


def _evidence_lines(entry: ProbeEntry) -> list[Md]:
    """The entry's evidence as a nested Markdown list of `sent/got:` code spans."""
    return [bullet(fmt("sent/got: {}", code(e)), 2) for e in entry.evidence]


def probes_markdown_lines(blocks: Mapping[str, ProbesBlock]) -> list[Md]:
    """`## Advisory`: a table per revision, failures and warnings apart with their fix."""
    lines = [
        md.heading(2, "Advisory"),
        md.BLANK,
        fmt("{} WARN is a SHOULD broken, FAIL a MUST broken.", md.italic(ADVISORY_NOTE)),
    ]
    for revision, block in blocks.items():
        counts = probe_counts(block) or "none run"
        lines += [md.BLANK, md.heading(3, fmt("Probes at {} ({})", revision, counts)), md.BLANK]
        rows = [[code(e.probe), _MARK[e.outcome], e.summary] for e in block.results]
        lines += md.table(["Probe", "Result", "Observed"], rows, spaced=True)
    flagged = [(rev, e) for rev, b in blocks.items() for e in b.results if _needs_detail(e)]
    if flagged:
        lines += [md.BLANK, md.heading(3, "Probe failures and warnings"), md.BLANK]
        for revision, entry in flagged:
            title = md.bold(fmt("{} {}", _MARK[entry.outcome], code(entry.probe)))
            lines.append(
                bullet(fmt("{} at {} ({}): {}", title, revision, entry.level, entry.summary))
            )
            lines += _evidence_lines(entry)
            lines.append(bullet(fmt("rule: {}", entry.spec), 2))
            if entry.fix:
                lines.append(bullet(fmt("fix: {}", entry.fix), 2))
    passed = [(rev, e) for rev, b in blocks.items() for e in b.results if e.outcome == "pass"]
    if any(e.evidence for _, e in passed):
        items: list[Md] = []
        for revision, entry in passed:
            title = md.bold(fmt("PASS {}", code(entry.probe)))
            items.append(bullet(fmt("{} at {}: {}", title, revision, entry.summary)))
            items += _evidence_lines(entry)
        lines += [md.BLANK, *md.details(f"Evidence of the passes ({len(passed)})", items)]
    return lines


def probes_markdown(blocks: Mapping[str, ProbesBlock]) -> str:
    """`probes_markdown_lines` as a document (ends with a newline)."""
    return md.document(probes_markdown_lines(blocks))
