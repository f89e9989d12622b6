"""The scorecard as one self-contained HTML page (`scorecard.html`, `--output html`).

Self-contained means it renders the same with no network: the styles are inline, the badge is
inline SVG, there is no script and no external asset of any kind. Every string from the SDK or
the harness is escaped (they are untrusted), and control characters are dropped first.

`page`, `chip`, `esc` and `table` are shared with the claim report so both look alike.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from tiercheck.plaintext import clean, one_line
from tiercheck.report.badge import render_badge_svg
from tiercheck.report.history import history_lines
from tiercheck.report.probes import ADVISORY_NOTE, probe_blocks, probe_counts
from tiercheck.report.trend import trend_svg
from tiercheck.scorecard.model import ScenarioEntry, Scorecard
from tiercheck.scorecard.view import (
    SIGNALS,
    failure_message,
    legs,
    pct,
    short_sha,
    signal_detail,
)

__all__ = ["chip", "esc", "link", "page", "render_html", "table"]

_CSS = """
:root { color-scheme: light; --ink:#1f2328; --muted:#59636e; --line:#d1d9e0; --bg:#f6f8fa;
  --pass:#1a7f37; --fail:#cf222e; --warn:#9a6700; --info:#0969da; --skip:#6e7781; }
* { box-sizing: border-box; }
body { font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif;
  color: var(--ink); margin: 0; background: #fff; }
header { background: var(--bg); border-bottom: 1px solid var(--line); padding: 16px 24px; }
header h1 { font-size: 20px; margin: 0 0 6px; display: flex; gap: 12px; align-items: center; }
header .meta { color: var(--muted); font-size: 13px; }
main { padding: 8px 24px 32px; max-width: 1200px; }
h2 { font-size: 16px; border-bottom: 1px solid var(--line); padding-bottom: 4px; margin-top: 28px; }
h3 { font-size: 14px; margin: 18px 0 6px; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--bg); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.chip { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px;
  font-weight: 600; color: #fff; white-space: nowrap; }
.chip.pass { background: var(--pass); } .chip.fail { background: var(--fail); }
.chip.review { background: var(--warn); } .chip.info { background: var(--info); }
.chip.skip { background: var(--skip); }
.msg { color: var(--muted); font-size: 12px; }
ul.blockers li { margin: 2px 0; }
.note { color: var(--muted); border-left: 3px solid var(--line); padding-left: 8px; }
"""

_CHIP_CLASS = {
    "pass": "pass",
    "fail": "fail",
    "warn": "review",
    "skip": "skip",
    "partial": "review",
    "needs review": "review",
    "inconclusive": "review",
    "unmeasured": "review",
    "partially-measured": "review",
    "skipped": "skip",
    "n/a": "skip",
}


def esc(text: object) -> str:
    """Untrusted text, safe inside HTML (control characters dropped, markup escaped)."""
    return html.escape(clean(text), quote=True)


def chip(verdict: str, text: str | None = None) -> str:
    """A coloured verdict label."""
    cls = _CHIP_CLASS.get(verdict.lower(), "info")
    return f'<span class="chip {cls}">{esc(text or verdict)}</span>'


def link(text: str, url: str | None) -> str:
    """`text`, linked to `url` when there is one (only http(s) links are kept)."""
    if url and url.startswith(("https://", "http://")):
        return f'<a href="{esc(url)}">{esc(text)}</a>'
    return esc(text)


def table(header: Sequence[str], rows: Sequence[Sequence[str]], numeric: Sequence[int] = ()) -> str:
    """A table whose cells are already HTML."""
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = []
    for row in rows:
        cells = "".join(
            f'<td class="num">{c}</td>' if i in numeric else f"<td>{c}</td>"
            for i, c in enumerate(row)
        )
        body.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def page(title: str, heading: str, meta: str, body: str, *, css: str = "") -> str:
    """A whole document: inline styles (`css` after the shared ones), no script, no external
    reference."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        # Nothing may be fetched at view time: no scripts, styles, images or fonts from elsewhere.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">\n"
        f"<title>{esc(title)}</title>\n<style>{_CSS}{css}</style>\n</head>\n<body>\n"
        f'<header><h1>{heading}</h1><div class="meta">{meta}</div></header>\n'
        f"<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def _scenario_row(entry: ScenarioEntry) -> list[str]:
    why = ""
    if not entry.measured:
        verdict, why = chip("skipped", "unmeasured"), one_line(entry.unmeasured)
    elif entry.passed:
        verdict = chip("pass")
    elif entry.expected_failure:
        verdict, why = chip("partial", "expected failure"), failure_message(entry)
    else:
        verdict, why = chip("fail"), failure_message(entry)
    message = f'<div class="msg">{esc(why)}</div>' if why else ""
    scored = (
        ""
        if entry.scored
        else f' <span class="msg">(not scored: {esc(entry.not_scored_reason)})</span>'
    )
    checks = f"{entry.checks_passed}/{entry.checks_passed + entry.checks_failed}"
    return [f"<code>{esc(entry.scenario)}</code>{scored}{message}", verdict, checks]


def _conformance(doc: Scorecard) -> str:
    parts = ["<h2>Conformance, per revision and leg</h2>"]
    for view in legs(doc):
        data = view.data
        title = f"{view.revision} · {view.leg}"
        if view.state != "measured":
            parts.append(f"<h3>{esc(title)} {chip(view.state)}</h3>")
            parts.append(f'<p class="msg">{esc(view.reason)}</p>')
            continue
        summary = f"{data.passed}/{data.total} scored passed ({pct(data.pass_rate)})"
        parts.append(
            f'<h3>{esc(title)} {chip(data.status)} <span class="msg">{esc(summary)}</span></h3>'
        )
        # Failures first, then the rest, each group by name: what needs acting on is on top.
        ordered = sorted(view.details, key=lambda d: (d.passed, not d.scored, d.scenario))
        parts.append(
            table(
                ["Scenario", "Result", "Checks"], [_scenario_row(d) for d in ordered], numeric=(2,)
            )
        )
    return "\n".join(parts)


def _governance(doc: Scorecard) -> str:
    rows = []
    for key, name in SIGNALS:
        signal = doc.checks.signal(key)
        sep = signal.sep1730_status
        sep_text = f" · SEP-1730: {chip(sep)}" if sep and signal.disagrees_with_official else ""
        rows.append([esc(name), chip(signal.status) + sep_text, esc(signal_detail(key, signal))])
    source = doc.governance
    when = f" as of {source.as_of}" if source.as_of else ""
    return f'<h2>Governance</h2><p class="msg">source: {esc(source.source)}{esc(when)}</p>' + table(
        ["Check", "Status", "Evidence"], rows
    )


def _blockers(doc: Scorecard) -> str:
    implied = doc.implied_tier
    items = [f"<li>Tier 1: {esc(b)}</li>" for b in implied.tier1_blockers]
    items += [f"<li>Tier 2: {esc(b)}</li>" for b in implied.tier2_blockers]
    body = f'<ul class="blockers">{"".join(items)}</ul>' if items else "<p>None.</p>"
    sep = implied.sep1730
    differ = (
        f"<p>SEP-1730 as written implies Tier {sep.tier}.</p>"
        if implied.disagrees_with_official
        else ""
    )
    return f'<h2>Blockers</h2>{body}{differ}<p class="note">{esc(implied.note)}</p>'


def _remediation(doc: Scorecard) -> str:
    if not doc.remediation:
        return "<h2>Remediation</h2><p>Nothing to do.</p>"
    rows = [
        [
            f"Tier {step.for_tier}",
            esc(step.action),
            "<br>".join(esc(item) for item in step.items[:10])
            + (
                f' <span class="msg">(+{len(step.items) - 10} more)</span>'
                if len(step.items) > 10
                else ""
            ),
        ]
        for step in doc.remediation
    ]
    return "<h2>Remediation</h2>" + table(["For", "Action", "Evidence"], rows)


def _history(doc: Scorecard) -> str:
    block = doc.history
    if block is None:
        return ""
    items = "".join(f"<li>{esc(line)}</li>" for line in history_lines(block))
    chart = (
        f'<figure class="trend">{trend_svg(doc.sdk.name, block.trend, doc.requirements_revisions)}'
        f'<figcaption class="msg">Scored pass rate per revision and leg over the last '
        f"{len(block.trend)} run(s); a dashed line marks a tier change.</figcaption></figure>"
        if block.trend
        else ""
    )
    return f"<h2>History</h2><ul>{items}</ul>{chart}"


def _probes(doc: Scorecard) -> str:
    blocks = probe_blocks(doc)
    if not blocks:
        return ""
    parts = [
        "<h2>Advisory probes</h2>",
        f'<p class="note">{esc(ADVISORY_NOTE)} WARN is a SHOULD broken, FAIL a MUST broken.</p>',
    ]
    for revision, block in blocks.items():
        counts = probe_counts(block) or "none run"
        parts.append(f'<h3>{esc(revision)} <span class="msg">{esc(counts)}</span></h3>')
        rows = []
        for entry in block.results:
            detail = ""
            sent = "".join(f"<li><code>{esc(e)}</code></li>" for e in entry.evidence)
            if entry.outcome in ("warn", "fail"):
                fix = f"<div>fix: {esc(entry.fix)}</div>" if entry.fix else ""
                detail = (
                    f'<div class="msg"><ul>{sent}</ul>rule ({esc(entry.level)}): '
                    f"{esc(entry.spec)}{fix}</div>"
                )
            elif sent:
                # A pass shows what was sent and seen, without the rule it kept.
                detail = f'<div class="msg"><ul>{sent}</ul></div>'
            rows.append(
                [
                    f"<code>{esc(entry.probe)}</code>",
                    chip(entry.outcome),
                    esc(entry.summary) + detail,
                ]
            )
        parts.append(table(["Probe", "Result", "Observed"], rows))
    return "\n".join(parts)


def render_html(doc: Scorecard) -> str:
    """The scorecard page: the tier and its blockers, every leg, governance, remediation."""
    badge = render_badge_svg(doc).replace('<?xml version="1.0"?>', "")
    heading = f"{badge}<span>Tier {doc.implied_tier.tier}: {esc(doc.repo)}</span>"
    meta = esc(
        f"{doc.sdk.name} at {short_sha(doc.sdk.commit)} · revisions "
        f"{', '.join(doc.requirements_revisions) or 'none'} · harness {doc.harness.package} "
        f"{doc.harness.version or '?'} · {doc.timestamp}"
    )
    # What decides the tier first; history and the advisory probes (which change nothing) last.
    sections = [
        _blockers(doc),
        _conformance(doc),
        _governance(doc),
        _remediation(doc),
        _history(doc),
        _probes(doc),
    ]
    body = "\n".join(section for section in sections if section)
    return page(f"Tier {doc.implied_tier.tier}: {doc.repo}", heading, meta, body)
