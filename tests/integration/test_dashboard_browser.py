"""Thirty nights of the dashboard, as the nightly builds it, checked in headless Chromium.

Each night, as the publish job does it: a fresh history database is imported from the data
folder, the night's scorecard folders (what the matrix jobs leave) are imported into it, the
history is exported back to the data folder, and the site is brought up to date in place. The
nights are the story of `support.nights` (worked out by hand there): alpha-sdk regresses on
night 12 (a scored scenario fails, Tier 1 → 2) and is fixed on night 15, and its server leg at
2025-11-25 is unmeasured on night 20; beta-sdk runs a new harness from night 25, where a
scenario fails that passed before — marked, not a regression.

The site is kept as it was after nights 12, 13, 15, 20 and 30; each kept page is opened from
`file://` in Chromium, which must show what the night is about, run no script, log nothing and
fetch nothing but the page itself.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from support import browser
from support.browser import Text, id_text, site_page
from support.nights import LINES, NEW_HARNESS, OLD_HARNESS
from tiercheck.cli.app import main
from tiercheck.document_files import write_reports


@pytest.fixture(autouse=True, scope="module")
def _needs_chromium() -> None:
    """Every test here opens a page: skipped without Chromium, an error under
    TIERCHECK_REQUIRE_TOOLS=1 (`support.tools`)."""
    browser.require_chromium()


KEPT = (12, 13, 15, 20, 30)
IMAGE_PAGE = "scenarios/server-tools-call-image.html"


def _run(argv: list[str]) -> None:
    assert main(argv) == 0, argv


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    root = tmp_path_factory.mktemp("thirty-nights")
    data, site = root / "data", root / "site"
    kept: dict[int, Path] = {}
    for n in range(1, 31):
        jobs = root / f"jobs-{n:02d}"
        for line, make in LINES.items():
            write_reports(make(n), jobs / line, ["json"])
        db = str(root / f"night-{n:02d}.sqlite")
        if data.exists():
            _run(["history", "import", str(data), "--history", db])
        _run(["history", "import", str(jobs), "--history", db])
        _run(["history", "export", "--history", db, "--out", str(data)])
        _run(["publish", "--history", db, "--out", str(site)])
        if n in KEPT:
            kept[n] = root / f"site-{n:02d}"
            shutil.copytree(site, kept[n])
    return kept


def _page(tmp_path: Path, site: Path, path: str) -> tuple[Text, str]:
    parsed = site_page(tmp_path, site, path)
    return parsed, " ".join(" ".join(parsed.text).split())


_id = id_text


def test_night_12_the_regression_is_on_the_index_the_line_and_the_scenario(
    sites: dict[int, Path], tmp_path: Path
) -> None:
    site = sites[12]
    index, _ = _page(tmp_path, site, "index.html")
    assert _id(index, "status-alpha-sdk") == "✗ regressed"
    assert _id(index, "status-gamma-sdk") == "✓ ok"
    assert _id(index, "score-alpha-sdk-2025-11-25-server") == "✗ 3/4 · 1 fail"
    night = _id(index, "night-alpha-sdk")
    assert "2025-11-25 server tools-call-image failing since 2026-10-12" in night
    assert "Tier 1 → Tier 2 since 2026-10-12" in night
    assert "night-gamma-sdk" not in index.ids  # nothing changed for gamma
    line, text = _page(tmp_path, site, "lines/alpha-sdk.html")
    assert "alpha-sdk: Tier 2" in text
    regressions = _id(line, "regressions")
    assert "newly failing 2025-11-25 server tools-call-image failing since 2026-10-12" in (
        regressions
    )
    assert "lower tier Tier 1 → Tier 2 since 2026-10-12" in regressions
    assert "2026-10-12: Tier 1 → Tier 2" in _id(line, "tier-changes")
    # The nights are of the default branch: SEP-1730's clock (the latest stable release) has
    # nothing to read, and says how to start it; the early warning says a required test
    # failing since 12 October would cost Tier 1 on 9 November, 28 days left.
    assert "no stable release assessed yet" in _id(line, "clock")
    assert "unmeasured" not in _id(line, "clock")
    assert "tier-check --sdk alpha-sdk@stable" in _id(line, "clock-no-stable-run")
    early = _id(line, "early-warning")
    assert "! at risk 2026-10-12 2026-11-09 28 day(s) server/tools-call-image" in early
    scenario, _ = _page(tmp_path, site, IMAGE_PAGE)
    row = _id(scenario, "now-alpha-sdk-2025-11-25")
    assert row.startswith("alpha-sdk 2025-11-25 ✗ failing regression 2026-10-12 1")
    assert "tools-call-image-check" in row
    assert "alpha-sdk 2025-11-25: 2026-10-12 → still failing" in _id(scenario, "periods")


def test_night_13_the_regression_is_still_open_and_nothing_new(
    sites: dict[int, Path], tmp_path: Path
) -> None:
    index, _ = _page(tmp_path, sites[13], "index.html")
    assert _id(index, "status-alpha-sdk") == "✗ regressed"
    assert "night-alpha-sdk" not in index.ids  # still failing is not a change of last night
    assert _id(index, "last-night") == "Nothing changed."


def test_night_15_the_fix_shows_everywhere(sites: dict[int, Path], tmp_path: Path) -> None:
    site = sites[15]
    index, _ = _page(tmp_path, site, "index.html")
    assert _id(index, "status-alpha-sdk") == "✓ ok"
    night = _id(index, "night-alpha-sdk")
    assert night.count("fixed") == 2
    assert "Tier 2 → Tier 1" in night
    line, _ = _page(tmp_path, site, "lines/alpha-sdk.html")
    assert _id(line, "regressions") == "None."
    history = _id(line, "regression-history")
    assert "newly-failing:2025-11-25/server/tools-call-image : 2026-10-12 → undone 2026-10-15" in (
        history
    )
    assert "2026-10-15: Tier 2 → Tier 1" in _id(line, "tier-changes")
    scenario, _ = _page(tmp_path, site, IMAGE_PAGE)
    assert _id(scenario, "now-alpha-sdk-2025-11-25").startswith("alpha-sdk 2025-11-25 ✓ passing")
    assert "alpha-sdk 2025-11-25: 2026-10-12 → 2026-10-14 (3 failing run(s))" in _id(
        scenario, "periods"
    )


def test_night_20_unmeasured_is_shown_and_a_regression_of_its_own(
    sites: dict[int, Path], tmp_path: Path
) -> None:
    site = sites[20]
    index, _ = _page(tmp_path, site, "index.html")
    assert _id(index, "score-alpha-sdk-2025-11-25-server") == "? unmeasured"
    # The leg, measured the night before, is newly unmeasured: a regression (never a failure).
    assert _id(index, "status-alpha-sdk") == "✗ regressed"
    night = _id(index, "night-alpha-sdk")
    # Said once, by the regression it began.
    assert (
        "unmeasured 2025-11-25 server unmeasured since 2026-10-20: server never became ready "
        "within 30 s"
    ) in night
    line, _ = _page(tmp_path, site, "lines/alpha-sdk.html")
    assert "2026-10-20 — 2025-11-25 server: server never became ready within 30 s" in _id(
        line, "unmeasured"
    )
    scenario, _ = _page(tmp_path, site, IMAGE_PAGE)
    # The leg was not measured: the scenario's state is unmeasured, never failing.
    assert _id(scenario, "now-alpha-sdk-2025-11-25").startswith("alpha-sdk 2025-11-25 ? unmeasured")


def test_night_30_the_month_is_in_the_history(sites: dict[int, Path], tmp_path: Path) -> None:
    site = sites[30]
    index, _ = _page(tmp_path, site, "index.html")
    assert {_id(index, f"status-{line}") for line in LINES} == {"✓ ok"}
    # alpha's sparkline at 2025-11-25 server: the fall on night 12, the gap on night 20.
    row = _id(index, "line-alpha-sdk")
    assert "2026-10-12: 75%" in row
    assert "2026-10-20: unmeasured" in row
    assert index.tags.count("svg") >= 3 * (1 + 4)  # a badge and four sparklines per line
    line, text = _page(tmp_path, site, "lines/alpha-sdk.html")
    assert "2026-10-20: 2025-11-25 server not measured" in text  # the tick under the trend
    history = _id(line, "regression-history")
    assert "lower-tier : 2026-10-12 → undone 2026-10-15" in history
    assert "2026-10-20" in _id(line, "unmeasured")
    assert _id(line, "recent-runs").count("Tier 2 (changed)") == 1  # night 12 in the last 30
    beta, _ = _page(tmp_path, site, "lines/beta-sdk.html")
    assert f"2026-10-25: referee changed on 2026-10-25 (harness {OLD_HARNESS} → {NEW_HARNESS})" in (
        _id(beta, "basis-changes")
    )
    assert _id(beta, "regression-history") == "None."
    scenario, _ = _page(tmp_path, site, IMAGE_PAGE)
    assert "alpha-sdk 2025-11-25: 2026-10-12 → 2026-10-14 (3 failing run(s))" in _id(
        scenario, "periods"
    )
    ping, _ = _page(tmp_path, site, "scenarios/server-ping.html")
    row = _id(ping, "now-beta-sdk-2025-11-25")
    assert row.startswith("beta-sdk 2025-11-25 ✗ failing 2026-10-25 6")
    assert "regression" not in row  # failing since the harness change: marked, not regressed
