"""Every page of the published site has unique ids: a fragment link (`page.html#run-…`) reaches
the element it names, and a screen reader's references (`aria-labelledby`) are not ambiguous.

The site is the sample's: the thirty nights of `support.nights` as the nightly records them (a
matrix row's run id is its row name, so every night of `alpha-sdk@main` has the run id
`alpha-sdk@main`), with the latest matrix folder, its rows' scorecard pages and alpha-sdk's
claim page.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from support.matrices import matrix, row
from support.nights import alpha, beta, gamma, records, thirty_nights
from tiercheck.claim.html import render_claim_html
from tiercheck.claim.pack import build_claim
from tiercheck.claim.policies import POLICY_PATHS
from tiercheck.claim.sources import read_tree
from tiercheck.cli.app import main
from tiercheck.dashboard.html import _run_anchors
from tiercheck.dashboard.model import RunEntry
from tiercheck.document_files import atomic_write_text, write_matrix_reports
from tiercheck.governance.snapshot import load_snapshot
from tiercheck.history.store import HistoryStore
from tiercheck.scorecard.render.html import render_html

SAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sample-sdk"


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids += [value for name, value in attrs if name == "id" and value is not None]


def duplicate_ids(html: str) -> list[str]:
    parser = _Ids()
    parser.feed(html)
    return sorted(ident for ident, n in Counter(parser.ids).items() if n > 1)


def test_a_repeated_id_is_caught() -> None:
    assert duplicate_ids('<p id="a"></p><tr id="run-x"></tr><tr id="run-x"></tr>') == ["run-x"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ids")
    docs = [
        dataclasses.replace(
            doc, tiercheck=dataclasses.replace(doc.tiercheck, run_id=f"{doc.sdk.name}@main")
        )
        for doc in thirty_nights()
    ]
    db = root / "history.sqlite"
    HistoryStore(db).append_many(records(docs))
    folder = root / "matrix"
    latest = {"alpha-sdk": alpha(30), "beta-sdk": beta(30), "gamma-sdk": gamma(30)}
    write_matrix_reports(matrix(*(row(f"{name}@main", d) for name, d in latest.items())), folder)
    for name, doc in latest.items():
        atomic_write_text(folder / f"rows/{name}@main/scorecard.html", render_html(doc))
    claim = build_claim(
        latest["alpha-sdk"],
        target_tier=1,
        snapshot=load_snapshot(SAMPLE / "governance-snapshot.json"),
        tree=read_tree(SAMPLE, POLICY_PATHS),
    )
    atomic_write_text(folder / "rows/alpha-sdk@main/claim.html", render_claim_html(claim))
    out = root / "site"
    assert main(["publish", "--history", str(db), "--out", str(out), "--matrix", str(folder)]) == 0
    return out


def test_every_page_of_the_site_has_unique_ids(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    names = {page.relative_to(site).as_posix() for page in pages}
    assert {
        "index.html",
        "lines/alpha-sdk.html",
        "lines/alpha-sdk/scorecard.html",
        "lines/alpha-sdk/claim.html",
    } <= names
    found = {
        page.relative_to(site).as_posix(): duplicate_ids(page.read_text("utf-8")) for page in pages
    }
    assert {page: ids for page, ids in found.items() if ids} == {}


def test_each_run_of_a_line_page_has_its_own_anchor(site: Path) -> None:
    """The line page lists the last 30 runs, newest first, each under an id naming its night
    (03:00 UTC, 1 to 30 October 2026) and its run id."""
    parser = _Ids()
    parser.feed((site / "lines" / "alpha-sdk.html").read_text("utf-8"))
    runs = [ident for ident in parser.ids if ident.startswith("run-")]
    assert runs == [f"run-202610{n:02d}T030000Z-alpha-sdk@main" for n in range(30, 0, -1)]


def _run(timestamp: str, run_id: str) -> RunEntry:
    return RunEntry(
        run_id=run_id,
        timestamp=timestamp,
        commit=None,
        ref=None,
        harness_version=None,
        requirements_digest=None,
        tier=1,
        tier_changed=False,
        status="ok",
        basis_change=(),
        legs=(),
        failing=(),
        regressions=(),
        started=(),
        ended=(),
    )


def test_a_run_id_that_is_its_time_is_not_said_twice_and_a_repeat_is_numbered() -> None:
    runs = [
        _run("2026-10-01T03:00:00Z", "20261001T030000Z"),  # `tier-check` alone: its time
        _run("2026-10-02T03:00:00Z", "go-sdk@main"),  # a matrix row: its name
        _run("2026-10-02T03:00:00Z", "go-sdk@main"),  # the same again (a re-run imported)
        _run("2026-10-02T03:00:00Z", "go-sdk@main"),
    ]
    assert _run_anchors(runs) == [
        "run-20261001T030000Z",
        "run-20261002T030000Z-go-sdk@main",
        "run-20261002T030000Z-go-sdk@main-2",
        "run-20261002T030000Z-go-sdk@main-3",
    ]


def test_the_matrix_and_scorecard_pages_have_unique_ids() -> None:
    from support.matrices import report_matrix
    from support.scorecards import mixed_scorecard, probed_scorecard
    from tiercheck.matrix.html import render_matrix_html

    assert duplicate_ids(render_matrix_html(report_matrix())) == []
    assert duplicate_ids(render_html(mixed_scorecard())) == []
    assert duplicate_ids(render_html(probed_scorecard())) == []
