"""`matrix.html`: every number shown is the matrix document's, every SDK string is escaped, a
failed cell leads to its message, and nothing can be fetched or run.

Expected values are worked out by hand from `tests/support/matrices.py` and the scorecards
behind it (tests/support/scorecards.py): alpha v1 is clean (3/3, 1/1, 2/2, 2/2), alpha v2
breaks `tools-list` at
2025-11-25 (2/3), the mixed row fails two server scenarios and one client one at 2025-11-25 and
its 2026-07-28 client leg is unmeasured, and the dotnet row has no scorecard and claims
2025-11-25 only.
"""

from __future__ import annotations

import dataclasses
from html.parser import HTMLParser

from support.matrices import BROKEN, BROKEN_MESSAGE, MISSING, matrix, report_matrix, row
from support.scorecards import R1, R2, tier1_scorecard
from tiercheck.matrix.html import render_matrix_html
from tiercheck.render.trend import trend_svg
from tiercheck.scorecard.model import HistoryBlock, HistoryTrendPoint
from tiercheck.scorecard.readings import trend_columns


class _Cells(HTMLParser):
    """Text of every element with an id, and every heatmap cell's class, title and link."""

    def __init__(self) -> None:
        super().__init__()
        self.by_id: dict[str, str] = {}
        self._open: list[tuple[str, str | None]] = []
        self.heat: list[dict[str, str]] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append(tag)
        if tag == "td" and "v" in (a.get("class") or "").split():
            self.heat.append({"class": a.get("class") or "", "title": a.get("title") or ""})
        if tag == "a" and self.heat and "href" in a and "link" not in self.heat[-1]:
            self.heat[-1]["link"] = a["href"] or ""
        self._open.append((tag, a.get("id")))
        if a.get("id"):
            self.by_id[a["id"] or ""] = ""

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        for _, ident in self._open:
            if ident:
                self.by_id[ident] += data


def _parse(text: str) -> _Cells:
    cells = _Cells()
    cells.feed(text)
    return cells


def test_the_summary_shows_each_rows_scores_by_hand() -> None:
    cells = _parse(render_matrix_html(report_matrix()))
    expected = {
        0: ["3/3", "1/1", "2/2", "2/2"],
        1: ["2/3", "1/1", "2/2", "2/2"],
        2: ["3/4", "2/3", "3/3", "unmeasured"],
        3: ["3/3", "1/1", "2/2", "2/2"],
        4: ["unmeasured", "unmeasured", "not claimed", "not claimed"],
    }
    for i, scores in expected.items():
        shown = [
            cells.by_id[f"score-{i}-{rev}-{leg}"]
            for rev in (R1, R2)
            for leg in ("server", "client")
        ]
        assert shown == scores, i
    assert "Tier 1" in cells.by_id["tier-0"]
    assert "Tier 3" in cells.by_id["tier-2"]
    assert MISSING in cells.by_id["row-4"]


def test_a_failed_cell_links_to_its_escaped_message() -> None:
    page = render_matrix_html(report_matrix())
    cells = _parse(page)
    failed = [c for c in cells.heat if "failed" in c["class"].split()]
    # alpha v2's tools-list; mixed's tools-call-image and its baselined auth/scope-step-up, both
    # at 2025-11-25. Its json-schema-2020-12 failed too, but is not scored: not a failed cell.
    assert len(failed) == 3
    broken = next(c for c in failed if BROKEN_MESSAGE in c["title"])
    anchor = broken["link"].removeprefix("#")
    assert BROKEN in cells.by_id[anchor]
    assert BROKEN_MESSAGE in cells.by_id[anchor]
    assert "<b>2</b>" not in page  # the SDK's markup is text, never markup
    assert "&lt;b&gt;2&lt;/b&gt; &amp; none named echo" in page


def test_states_that_did_not_run_are_not_failures() -> None:
    cells = _parse(render_matrix_html(report_matrix()))
    classes = [c["class"].split()[1] for c in cells.heat]
    dotnet_titles = [c["title"] for c in cells.heat if MISSING in c["title"]]
    assert dotnet_titles  # the missing toolchain's cells say why on hover
    assert all(t.startswith("unmeasured: ") for t in dotnet_titles)
    assert "not-claimed" in classes  # dotnet at 2026-07-28
    assert classes.count("failed") == 3
    not_scored = [c["title"] for c in cells.heat if c["class"] == "v not-scored"]
    assert not_scored == ["not scored", "not scored"]  # json-schema-2020-12 and auth/dpop


def test_the_change_since_the_previous_matrix() -> None:
    cells = _parse(render_matrix_html(report_matrix()))
    assert " ".join(cells.by_id["new-failures"].split()) == (
        f"alpha-sdk@v2 {R1} server {BROKEN}: passed → failed"
    )
    assert "none" in cells.by_id["fixes"]
    tiers = " ".join(cells.by_id["tier-changes"].split())
    assert "mixed-sdk@main: not assessed → Tier 3" in tiers
    assert "old-sdk@v1.x: not assessed → Tier 1" in tiers
    assert "incomparable" not in cells.by_id  # every row ran the same harness as before


def test_a_row_under_another_harness_is_listed_apart() -> None:
    doc = report_matrix()
    assert doc.changes is not None
    changes = dataclasses.replace(doc.changes, incomparable=("mixed-sdk@main",))
    cells = _parse(render_matrix_html(dataclasses.replace(doc, changes=changes)))
    assert " ".join(cells.by_id["incomparable"].split()) == (
        "mixed-sdk@main: another harness version, no scenario compared"
    )


def test_the_page_is_self_contained() -> None:
    page = render_matrix_html(report_matrix())
    cells = _parse(page)
    assert "script" not in cells.tags
    assert "default-src 'none'" in page
    for attr in ("src=", 'href="http', "url("):
        assert attr not in page


def test_a_baselined_failure_is_marked_as_expected() -> None:
    page = render_matrix_html(report_matrix())
    # mixed's auth/scope-step-up is the only failure its baseline expects.
    assert page.count("✗*</a>") == 1


def test_a_row_with_history_draws_its_trend() -> None:
    trend = (
        HistoryTrendPoint(
            run_id="20261201T030000Z",
            timestamp="2026-12-01T03:00:00Z",
            commit="ab" * 20,
            tier=1,
            tier_changed=False,
            pass_rate={R1: {"server": 1.0, "client": 1.0}},
        ),
        HistoryTrendPoint(
            run_id="20261202T030000Z",
            timestamp="2026-12-02T03:00:00Z",
            commit="cd" * 20,
            tier=2,
            tier_changed=True,
            pass_rate={R1: {"server": 0.5, "client": 1.0}},
        ),
    )
    card = dataclasses.replace(tier1_scorecard(), history=HistoryBlock(database=None, trend=trend))
    page = render_matrix_html(matrix(row("alpha-sdk@v3", card, claimed=(R1,))))
    assert page.count("<svg") == 1
    assert 'aria-label="scored pass rate of alpha-sdk@v3 over time"' in page
    # 260 wide, padded by 24: x runs 24 → 236. The matrix has both revisions (the scorecard
    # measured 2026-07-28 too), so four legend entries take two lines: 24 above the plot, 35
    # below, and y is 24 at 100%, 24 + 51 × 0.5 = 49.5 at 50%.
    assert 'points="24.0,24.0 236.0,49.5"' in page
    assert "tier 2 from 2026-12-02T03:00:00Z" in page


def test_a_narrow_trend_wraps_its_legend_and_keeps_the_plot_above_it() -> None:
    point = HistoryTrendPoint(
        run_id="20261201T030000Z",
        timestamp="2026-12-01T03:00:00Z",
        commit=None,
        tier=3,
        tier_changed=False,
        pass_rate={R1: {"server": 0.0, "client": 1.0}, R2: {"server": 1.0, "client": 1.0}},
    )
    svg = trend_svg("x", (point,), trend_columns((R1, R2)), width=260, height=110)
    # Four entries, two to a 260-wide line: two legend lines at y 93 and 104, so the plot's
    # bottom padding grows by one line (24 + 11) and 0% sits at 110 - 35 = 75.
    assert svg.count('y="93"') == 2
    assert svg.count('y="104"') == 2
    assert '<circle cx="24.0" cy="75.0"' in svg  # 2025-11-25 server at 0%
