"""The HTML reports in a real headless Chromium: they render, and fetch nothing at view time.

`scorecard.html` (the mixed scorecard: failures, an unmeasured leg, an inconclusive signal) and
`claim.html` (a Tier 1 scorecard with the sample SDK's files and governance snapshot) are
written to a temporary folder and opened from `file://`. Chromium's DOM after load must hold
what the page is for (the tier, the blockers, each revision × leg with failures first, every
claim row), and its network log must show no request to anything but the page itself. The
badge is opened on its own and rendered to a PNG.

Chromium is Debian's `chromium` (`.ci/run` installs it). Without it these tests skip, saying so
(under `TIERCHECK_REQUIRE_TOOLS=1` they are errors).
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest

from support import browser
from support.matrices import report_matrix
from support.scorecards import mixed_scorecard, probed_scorecard, tier1_scorecard
from tiercheck.claim.html import render_claim_html
from tiercheck.claim.pack import Claim, build_claim
from tiercheck.claim.policies import POLICY_PATHS
from tiercheck.claim.sources import read_tree
from tiercheck.governance.snapshot import load_snapshot
from tiercheck.matrix.html import render_matrix_html
from tiercheck.model import to_json
from tiercheck.scorecard.model import HistoryBlock, HistoryTrendPoint
from tiercheck.scorecard.render.badge import render_badge_svg
from tiercheck.scorecard.render.html import render_html

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "examples" / "sample-sdk"
_chromium = browser.chromium
_Text = browser.Text
_open = browser.open_page
_assert_nothing_fetched = browser.assert_nothing_fetched


@pytest.fixture(autouse=True, scope="module")
def _needs_chromium() -> None:
    """Every test here opens a page: skipped without Chromium, an error under
    TIERCHECK_REQUIRE_TOOLS=1 (`support.tools`)."""
    browser.require_chromium()


def _show(
    tmp_path: Path, name: str, html: str, console: list[str] | None = None
) -> tuple[_Text, str]:
    """Write `html` to `name`, open it, check it fetched nothing; its DOM and its text."""
    page = tmp_path / name
    page.write_text(html, encoding="utf-8")
    parsed, requests = _open(tmp_path, page, console)
    _assert_nothing_fetched(requests, page)
    return parsed, " ".join(" ".join(parsed.text).split())


def test_the_network_check_sees_what_a_page_fetches(tmp_path: Path) -> None:
    # The control: a page that does load external assets is caught by the same check.
    page = tmp_path / "control.html"
    page.write_text(
        '<html><body><img src="http://192.0.2.1/x.png">'
        '<link rel="stylesheet" href="https://example.invalid/a.css"></body></html>',
        encoding="utf-8",
    )
    _, requests = _open(tmp_path, page)
    assert "http://192.0.2.1/x.png" in requests
    assert "https://example.invalid/a.css" in requests


def test_scorecard_html_renders_everything_with_no_network(tmp_path: Path) -> None:
    doc = mixed_scorecard()
    parsed, text = _show(tmp_path, "scorecard.html", render_html(doc))
    assert "script" not in parsed.tags
    assert f"Tier {doc.implied_tier.tier}" in text
    for blocker in doc.implied_tier.tier1_blockers:
        assert blocker in text
    # Each revision × leg is a section; the failing scenario is listed before the passing ones.
    for revision in doc.revisions:
        for leg in ("server", "client"):
            assert f"{revision} · {leg}" in text
    failing = next(d for d in doc.checks.conformance.details if d.scored and not d.passed)
    passing = next(
        d for d in doc.checks.conformance.details if d.revision == failing.revision and d.passed
    )
    section = text[text.index(f"{failing.revision} · server") :]
    assert section.index(failing.scenario) < section.index(passing.scenario)
    assert failing.failures[0].message.split()[0] in text  # the message is shown
    assert "svg" in parsed.tags  # the badge, inline


def test_scorecard_html_shows_the_trend_and_the_probes(tmp_path: Path) -> None:
    def point(day: int, tier: int, rate: float | None) -> HistoryTrendPoint:
        return HistoryTrendPoint(
            run_id=f"202610{day:02d}T030000Z",
            timestamp=f"2026-10-{day:02d}T03:00:00Z",
            commit="ab" * 20,
            tier=tier,
            tier_changed=day == 3,
            pass_rate={"2026-07-28": {"server": rate, "client": 1.0}},
        )

    trend = (point(1, 1, 1.0), point(2, 1, None), point(3, 2, 0.5))
    doc = dataclasses.replace(probed_scorecard(), history=HistoryBlock(database=None, trend=trend))
    parsed, text = _show(tmp_path, "scorecard.html", render_html(doc))
    assert "script" not in parsed.tags
    # The chart survived the browser's parser as SVG: the badge's svg and the trend's. The
    # server line is broken by the unmeasured night (two lone markers, no line); the client
    # line is one polyline; each run's marker is titled with its night and rate, and the
    # unmeasured night has none.
    assert parsed.tags.count("svg") == 2
    assert parsed.tags.count("polyline") == 1  # the client line, unbroken
    for night, rate in (("01", 100), ("03", 50)):
        assert f"2026-10-{night} 2026-07-28 server: {rate}%" in text
    assert "2026-10-02 2026-07-28 server" not in text
    for night in ("01", "02", "03"):
        assert f"2026-10-{night} 2026-07-28 client: 100%" in text
    assert "tier 2 from 2026-10-03" in text  # the tier change on night 3, titled
    assert "over the last 3 run(s)" in text
    assert "Advisory probes" in text
    for probe in ("cross-origin", "tool-names", "notification-202", "request-state"):
        assert probe in text
    assert "Answer 202 with an empty body." in text
    # A pass shows its evidence too, as text (the server's markup in it escaped, not parsed).
    assert "POST tools/list [Origin: http://evil.example] → HTTP 403 Invalid <Origin>" in text


def test_claim_html_renders_every_row_with_no_network(tmp_path: Path) -> None:
    claim = build_claim(
        tier1_scorecard(),
        target_tier=1,
        snapshot=load_snapshot(SAMPLE / "governance-snapshot.json"),
        tree=read_tree(SAMPLE, POLICY_PATHS),
    )
    parsed, text = _show(tmp_path, "claim.html", render_claim_html(claim))
    for row in claim.rows:
        assert row.requirement in text
    assert "Reviewer checklist" in text
    assert "README.md:45" in text  # a documentation hit, by file and line
    assert parsed.tags.count("tr") >= 11 + 53  # the requirements and the feature table


def _flat(text: str) -> str:
    return " ".join(text.split())


def _full_claim() -> Claim:
    """The sample SDK at both revisions, the release its commit carries, its governance
    snapshot and files, a previous claim, its (empty) baselines: every section has content."""
    from support.scorecards import R1, R2, sample_scorecard
    from tiercheck.claim.changes import from_claim
    from tiercheck.claim.header import TagFact
    from tiercheck.claim.model import PreviousAssessment
    from tiercheck.claim.pack import ClaimContext, claim_document
    from tiercheck.claim.sources import read_baselines
    from tiercheck.config.baseline import load_baseline

    baselines = {
        rev: (
            f"expected-failures.{rev}.yml",
            load_baseline(SAMPLE / f"expected-failures.{rev}.yml"),
        )
        for rev in (R1, R2)
    }
    before = sample_scorecard(failing={(R2, "client", "auth/iss-supported"): "iss unchecked"})
    tree = read_tree(SAMPLE, POLICY_PATHS)
    previous = from_claim(
        claim_document(build_claim(before, target_tier=1, snapshot=None, tree=tree)), "prev.json"
    )
    doc = sample_scorecard(baselines=baselines)
    return build_claim(
        doc,
        target_tier=1,
        snapshot=load_snapshot(SAMPLE / "governance-snapshot.json"),
        tree=tree,
        context=ClaimContext(
            release=TagFact("v1.0.0", None, 2),
            previous=PreviousAssessment(
                url="https://github.com/modelcontextprotocol/modelcontextprotocol/issues/2304",
                tier=1,
            ),
            previous_doc=previous,
            baselines=read_baselines(SAMPLE, [f for f, _ in baselines.values()]),
        ),
    )


def test_claim_html_shows_the_header_split_and_sections(tmp_path: Path) -> None:
    from tiercheck.claim.wording import header_fields, split_table

    claim = _full_claim()
    parsed, text = _show(tmp_path, "claim.html", render_claim_html(claim))
    assert "script" not in parsed.tags
    assert "Sample SDK — Tier 1 Assessment" in text
    # The header: every field the Markdown gives, with the same words.
    header = _flat(parsed.ids["claim-header"])
    for field in header_fields(claim):
        assert _flat(f"{field.label}: " + "".join(s.text for s in field.segments)) in header
    assert "Version: 1.0.0" in header
    assert "(2 commits after v1.0.0)" in header
    assert "previous assessment #2304 (Tier 1, 2026-08-20)" in header
    assert "Revisions scored: 2025-11-25, 2026-07-28" in header
    # The split, row by row, as the Markdown table has it (cells' text runs together).
    split = "".join(parsed.ids["conformance"].split())
    _, rows = split_table(claim)
    for row in rows:
        assert "".join("".join(row).split()) in split
    assert "Client:core4/47/711/11(100%)" in split
    assert "Client:auth14/1425/2539/39(100%)" in split
    # The sections.
    assert "None: no entry is listed" in parsed.ids["baseline"]
    changes = _flat(parsed.ids["changes"])
    assert "Now passing (1): auth/iss-supported (client @ 2026-07-28)." in changes
    # One row moved (the previous claim's judgment rows read the same files).
    assert "1bClientconformance98%:49/50" in "".join(changes.split())
    assert "2bLabels" not in "".join(changes.split())
    reproduce = parsed.ids["reproduce"]
    assert "npx @modelcontextprotocol/conformance@0.2.0-alpha.12 server --url" in reproduce
    assert "tier-check claim --sdk sample-sdk@" in reproduce
    documentation = _flat(parsed.ids["documentation"])
    assert "Best documentation" in documentation
    assert "README.md:45" in documentation  # sampling/createMessage, the best (and only) hit
    assert "4b Spec tracking" in _flat(parsed.ids["checklist"])
    assert "stable release by the 2026-07-28 release date: no" in text


# Run in the page after load (a copy of it without its script-blocking policy): every form
# control's label text, and every element that scrolls (overflow auto/scroll, content wider or
# taller than its box): whether focus() lands on it, its tabindex, and the name its aria-label
# or aria-labelledby gives it. The answer is written into the DOM for --dump-dom. (Chromium
# focuses a scroller of its own accord; other browsers need the tabindex, so both are asked.)
_A11Y_PROBE = """<script>
const out = {controls: [], regions: []};
for (const box of document.querySelectorAll("input, select, textarea")) {
  out.controls.push([...box.labels].map(l => l.textContent.trim()).join(" "));
}
for (const el of document.querySelectorAll("body *")) {
  const s = getComputedStyle(el);
  const across = ["auto", "scroll"].includes(s.overflowX) && el.scrollWidth > el.clientWidth;
  const down = ["auto", "scroll"].includes(s.overflowY) && el.scrollHeight > el.clientHeight;
  if (!across && !down) continue;
  el.focus();
  const ids = (el.getAttribute("aria-labelledby") || "").split(/\\s+/).filter(Boolean);
  const named = ids.map(i => (document.getElementById(i) || {}).textContent || "").join(" ");
  out.regions.push({
    tag: el.tagName.toLowerCase(),
    focused: document.activeElement === el,
    tabindex: el.getAttribute("tabindex"),
    name: (el.getAttribute("aria-label") || named).trim(),
  });
}
const probe = document.createElement("pre");
probe.id = "a11y-probe";
probe.textContent = JSON.stringify(out);
document.body.appendChild(probe);
</script>"""


def _a11y(tmp_path: Path, name: str, html: str) -> dict[str, Any]:
    page = tmp_path / name
    unlocked = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    page.write_text(unlocked.replace("</body>", _A11Y_PROBE + "</body>"), encoding="utf-8")
    dom = _chromium(tmp_path, "--window-size=800,600", "--dump-dom", page.as_uri())
    parsed = _Text()
    parsed.feed(dom)
    result: dict[str, Any] = json.loads(parsed.ids["a11y-probe"])
    return result


def test_the_a11y_probe_sees_an_unlabelled_box_and_an_unreachable_scroll_region(
    tmp_path: Path,
) -> None:
    # The control: the claim's old markup (a bare checkbox, a plain scrolling <pre>) is caught.
    html = (
        '<html lang="en"><head><title>t</title></head><body><ul><li><input type="checkbox" '
        'disabled> <strong>4b</strong>: check</li></ul><pre style="overflow-x: auto">'
        + "x" * 400
        + "</pre></body></html>"
    )
    got = _a11y(tmp_path, "control.html", html)
    assert got["controls"] == [""]
    assert got["regions"] == [{"tag": "pre", "focused": True, "tabindex": None, "name": ""}]


def test_claim_html_labels_every_checkbox_and_the_keyboard_reaches_every_scroll_region(
    tmp_path: Path,
) -> None:
    claim = _full_claim()
    html = render_claim_html(claim)
    got = _a11y(tmp_path, "claim.html", html)
    reviewed = [row for row in claim.rows if row.review is not None]
    assert len(reviewed) == 5
    assert got["controls"] == [
        f"{row.id} {row.requirement}: check that {row.review}" for row in reviewed
    ]
    # At 800 px the two widest tables scroll sideways in their own regions (the page does
    # not), and so do the two command blocks (tiercheck's, the harness's).
    assert [r["tag"] for r in got["regions"]] == ["div", "div", "pre", "pre"]
    assert all(r["focused"] and r["tabindex"] == "0" for r in got["regions"]), got["regions"]
    assert [r["name"] for r in got["regions"]] == [
        "Requirements",
        "Documentation",
        "With tiercheck:",
        "With the official harness alone (@modelcontextprotocol/conformance 0.2.0-alpha.12), "
        "for the same conformance figures:",
    ]


def test_badge_svg_renders_to_an_image(tmp_path: Path) -> None:
    badge = tmp_path / "badge.svg"
    badge.write_text(render_badge_svg(tier1_scorecard()), encoding="utf-8")
    shot = tmp_path / "badge.png"
    _chromium(tmp_path, f"--screenshot={shot}", "--window-size=200,40", badge.as_uri())
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) > 200


def test_the_console_check_sees_what_a_page_logs(tmp_path: Path) -> None:
    # The control: a script the page's own policy blocks is a console error, and is caught.
    page = tmp_path / "blocked.html"
    page.write_text(
        '<html><head><meta http-equiv="Content-Security-Policy" content="default-src \'none\'">'
        "</head><body><script>console.log(1)</script></body></html>",
        encoding="utf-8",
    )
    console: list[str] = []
    _open(tmp_path, page, console)
    assert any("Content Security Policy" in line for line in console), console


def test_matrix_html_shows_what_matrix_json_holds(tmp_path: Path) -> None:
    doc = report_matrix()
    data = to_json(doc)
    html = render_matrix_html(doc)
    console: list[str] = []
    shown, _ = _show(tmp_path, "matrix.html", html, console)
    assert console == []
    assert "script" not in shown.tags
    written = _Text()
    written.feed(html)  # the ids the file has: the browser's DOM must keep each one
    assert shown.ids.keys() == written.ids.keys()
    for i, row in enumerate(data["rows"]):
        for cell in row["legs"]:
            want = (
                f"{cell['passed']}/{cell['total']}"
                if cell["state"] == "measured"
                else cell["state"].replace("-", " ")
            )
            assert shown.ids[f"score-{i}-{cell['revision']}-{cell['leg']}"] == want
        tier = row["tier"]
        if tier is not None:
            assert f"Tier {tier['official']}" in shown.ids[f"tier-{i}"]
    changes = data["changes"]
    listed = " ".join(shown.ids["new-failures"].split())
    for change in changes["new_failures"]:
        assert (
            f"{change['row']} {change['revision']} {change['leg']} {change['scenario']}" in listed
        )
    assert shown.ids["tier-changes"].count("→") == len(changes["tier_changes"])
    assert shown.tags.count("table") == 1 + 2 * len(data["revisions"])


def test_matrix_html_screenshot_renders(tmp_path: Path) -> None:
    page = tmp_path / "matrix.html"
    page.write_text(render_matrix_html(report_matrix()), encoding="utf-8")
    shot = tmp_path / "matrix.png"
    _chromium(tmp_path, "--window-size=1400,1000", f"--screenshot={shot}", page.as_uri())
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shot.stat().st_size > 20_000  # a rendered grid, not a blank page
