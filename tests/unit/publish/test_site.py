"""`tier-check publish`: the site from the history (no browser here; see
tests/integration/test_dashboard_browser.py for the pages in Chromium).

The history is the thirty nights of `support.nights` (worked out by hand there): alpha-sdk
regresses on night 12 and is fixed on night 15, beta-sdk runs a new harness from night 25."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from support.matrices import matrix, row
from support.nights import (
    HARNESS_CHANGE_NIGHT,
    NEW_HARNESS,
    OLD_HARNESS,
    alpha,
    beta,
    gamma,
    night,
    night_scorecard,
    records,
    thirty_nights,
)
from support.schema_check import conforms
from tiercheck.cli.app import main
from tiercheck.dashboard.model import DashboardIndex, LineHistory, ScenarioIndex
from tiercheck.document_files import atomic_write_text, write_matrix_reports
from tiercheck.document_schemas import (
    DASHBOARD_DOCUMENTS,
    DASHBOARD_SCHEMAS,
    dashboard_schema,
    schema_text,
)
from tiercheck.history.record import record_of
from tiercheck.history.store import HistoryStore
from tiercheck.model import from_json
from tiercheck.scorecard.render.html import render_html

pytestmark = pytest.mark.filterwarnings("error")


def _files(folder: Path, under: str = "") -> dict[str, bytes]:
    root = folder / under
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _db(path: Path, nights: int = 30) -> Path:
    store = HistoryStore(path)
    store.append_many(records(thirty_nights(nights)))
    return path


def _publish(db: Path, site: Path, *extra: str, capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["publish", "--history", str(db), "--out", str(site), *extra])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out + captured.err


def _json(site: Path, path: str) -> Any:
    return json.loads((site / path).read_text("utf-8"))


def test_rebuilt_from_the_data_folder_alone_the_api_is_byte_identical(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _db(tmp_path / "history.sqlite")
    assert main(["history", "export", "--history", str(db), "--out", str(tmp_path / "data")]) == 0
    _publish(db, tmp_path / "site-a", capsys=capsys)
    db.unlink()  # the database is gone: only the data folder is left
    fresh = tmp_path / "fresh.sqlite"
    assert main(["history", "import", str(tmp_path / "data"), "--history", str(fresh)]) == 0
    _publish(fresh, tmp_path / "site-b", capsys=capsys)
    api_a, api_b = _files(tmp_path / "site-a", "api/v1"), _files(tmp_path / "site-b", "api/v1")
    # index, three lines, scenarios, four schemas; the grid, the nights' list, thirty nights
    # and their three schemas; the views' list and its schema
    assert len(api_a) == 1 + 3 + 1 + 4 + 1 + 1 + 30 + 3 + 2
    assert api_a == api_b
    # The pages and badges too: nothing in the site depends on where or when it was built.
    assert _files(tmp_path / "site-a") == _files(tmp_path / "site-b")


def test_the_api_follows_its_generated_schemas_and_reads_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site"
    _publish(_db(tmp_path / "h.sqlite"), site, capsys=capsys)
    documents = {
        "api/v1/index.json": ("dashboard_index.schema.json", DashboardIndex),
        "api/v1/lines/alpha-sdk.json": ("dashboard_line.schema.json", LineHistory),
        "api/v1/scenarios.json": ("dashboard_scenarios.schema.json", ScenarioIndex),
    }
    for path, (name, model) in documents.items():
        data = _json(site, path)
        schema = json.loads(schema_text(name))
        assert (site / "api/v1/schemas" / name).read_text("utf-8") == schema_text(name)
        conforms(data, schema)
        from_json(model, data)
        assert data["api_version"] == 1


def test_every_api_document_the_site_writes_has_its_schema_and_follows_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A site with every kind of document: the thirty nights and the latest matrix.
    db = _db(tmp_path / "h.sqlite")
    folder = tmp_path / "matrix"
    write_matrix_reports(matrix(row("alpha-sdk@main", alpha(30))), folder)
    site = tmp_path / "site"
    _publish(db, site, "--matrix", str(folder), capsys=capsys)
    api = site / "api/v1"
    shipped = {p.name for p in (api / "schemas").iterdir()}
    assert shipped == set(DASHBOARD_SCHEMAS) == set(DASHBOARD_DOCUMENTS.values())
    documents = sorted(
        p.relative_to(site).as_posix()
        for p in api.rglob("*")
        if p.is_file() and p.parent != api / "schemas"
    )
    # index, three lines, scenarios, the matrix, the grid, the nights' list, thirty nights,
    # the views' list.
    assert len(documents) == 1 + 3 + 1 + 1 + 1 + 1 + 30 + 1
    for path in documents:
        name = dashboard_schema(path)
        assert name is not None, f"{path} ships with no schema"
        assert (api / "schemas" / name).read_text("utf-8") == schema_text(name)
        conforms(_json(site, path), json.loads(schema_text(name)))


def test_a_document_no_schema_names_is_found() -> None:
    # The control: a path outside the table, or one folder deeper than its pattern, has none.
    assert dashboard_schema("api/v1/lines/alpha-sdk.json") == "dashboard_line.schema.json"
    assert dashboard_schema("api/v1/nights/2026-10-30.json") == "dashboard_night.schema.json"
    assert dashboard_schema("api/v1/extra.json") is None
    assert dashboard_schema("api/v1/lines/alpha-sdk/runs.json") is None
    assert dashboard_schema("api/v2/index.json") is None


def test_the_thirty_nights_in_the_api(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "site"
    _publish(_db(tmp_path / "h.sqlite"), site, capsys=capsys)
    index = _json(site, "api/v1/index.json")
    assert index["latest_night"] == "2026-10-30"
    assert [line["line"] for line in index["lines"]] == ["alpha-sdk", "beta-sdk", "gamma-sdk"]
    assert {line["status"] for line in index["lines"]} == {"ok"}
    alpha_runs = _json(site, "api/v1/lines/alpha-sdk.json")["runs"]
    assert len(alpha_runs) == 30
    by_night = {int(r["timestamp"][8:10]): r for r in alpha_runs}
    assert [n for n, r in by_night.items() if r["status"] == "regressed"] == [12, 13, 14, 20]
    assert by_night[12]["started"] == [
        "newly-failing:2025-11-25/server/tools-call-image",
        "lower-tier",
    ]
    assert sorted(by_night[15]["ended"]) == sorted(by_night[12]["started"])
    twenty = {(x["revision"], x["leg"]): x for x in by_night[20]["legs"]}
    assert twenty[("2025-11-25", "server")]["state"] == "unmeasured"
    assert twenty[("2025-11-25", "server")]["pass_rate"] is None
    assert by_night[20]["started"] == ["unmeasured:2025-11-25/server"]
    assert by_night[21]["ended"] == ["unmeasured:2025-11-25/server"]
    tiers = _json(site, "api/v1/lines/alpha-sdk.json")["tier_changes"]
    assert [(t["timestamp"][:10], t["before"], t["after"]) for t in tiers] == [
        ("2026-10-12", 1, 2),
        ("2026-10-15", 2, 1),
    ]
    scenarios = {
        (s["leg"], s["scenario"]): s for s in _json(site, "api/v1/scenarios.json")["scenarios"]
    }
    image = scenarios[("server", "tools-call-image")]
    assert [
        (p["line"], p["first"][:10], p["last"][:10], p["runs"], p["open"]) for p in image["periods"]
    ] == [("alpha-sdk", "2026-10-12", "2026-10-14", 3, False)]
    step_up = scenarios[("client", "auth/scope-step-up")]
    (failing,) = [r for r in step_up["lines"] if r["state"] == "failing"]
    assert (failing["line"], failing["since"], failing["runs"]) == (
        "beta-sdk",
        "2026-10-01T03:00:00Z",
        30,
    )


def test_a_harness_change_is_marked_and_not_a_regression(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site"
    _publish(_db(tmp_path / "h.sqlite", HARNESS_CHANGE_NIGHT), site, capsys=capsys)
    (beta_line,) = [x for x in _json(site, "api/v1/index.json")["lines"] if x["line"] == "beta-sdk"]
    assert beta_line["status"] == "incomparable"
    assert beta_line["regressions"] == []
    (change,) = beta_line["last_night"]["basis_change"]
    assert change.startswith("referee changed on ")
    assert f"(harness {OLD_HARNESS} → {NEW_HARNESS}): 0 scenarios added, 0 changed" in change
    assert beta_line["last_night"]["newly_failing"] == []  # ping: not compared across harnesses
    assert beta_line["harness_version"] == NEW_HARNESS
    badge = _json(site, "badges/beta-sdk.json")
    assert badge["message"] == "2"  # marked, never "regressed"
    page = (site / "index.html").read_text("utf-8")
    assert "harness changed" in page
    assert f"harness {OLD_HARNESS} → {NEW_HARNESS}" in page
    assert change in page


def test_incremental_build_skips_what_did_not_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, site = _db(tmp_path / "h.sqlite", 29), tmp_path / "site"
    first = _publish(db, site, capsys=capsys)
    assert " 0 unchanged" in first
    again = _publish(db, site, capsys=capsys)
    assert "0 file(s) written" in again
    # A page whose inputs did not change is not rendered again: a mark left in it stays.
    gamma_page = site / "lines/gamma-sdk.html"
    gamma_page.write_text(gamma_page.read_text("utf-8") + "<!-- mark -->", encoding="utf-8")
    # Night 30 of alpha only: the index, alpha's page and data, and the scenario pages change.
    HistoryStore(db).append(record_of(alpha(30)))
    before = _files(site)
    _publish(db, site, capsys=capsys)
    after = _files(site)
    changed = {p for p in after if before.get(p) != after[p]}
    assert "lines/gamma-sdk.html" not in changed
    assert "<!-- mark -->" in gamma_page.read_text("utf-8")
    assert {"index.html", "lines/alpha-sdk.html", "api/v1/lines/alpha-sdk.json"} <= changed
    assert "api/v1/lines/gamma-sdk.json" not in changed
    assert "badges/alpha-sdk.svg" not in changed  # still Tier 1, nothing open


def test_a_renamed_line_keeps_its_badge_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site"
    store = HistoryStore(tmp_path / "h.sqlite")
    store.append_many(records([gamma(n) for n in range(1, 4)]))
    _publish(store.path, site, capsys=capsys)
    # The line is renamed gamma-sdk → gamma-v2: a new database holds only the new name.
    renamed = HistoryStore(tmp_path / "renamed.sqlite")
    renamed.append_many(records([night_scorecard("gamma-v2", n, tier=2) for n in range(4, 6)]))
    out = _publish(renamed.path, site, "--alias", "gamma-sdk=gamma-v2", capsys=capsys)
    assert "warning" not in out
    assert (site / "badges/gamma-sdk.svg").read_bytes() == (
        site / "badges/gamma-v2.svg"
    ).read_bytes()
    assert _json(site, "badges/gamma-sdk.json")["message"] == "2"
    assert _json(site, "api/v1/index.json")["aliases"] == {"gamma-sdk": "gamma-v2"}
    assert "gamma-sdk" in (site / "lines/gamma-v2.html").read_text("utf-8")
    # The alias is carried by the site: the next build needs no --alias.
    renamed.append(record_of(night_scorecard("gamma-v2", 6, tier=1)))
    _publish(renamed.path, site, capsys=capsys)
    assert _json(site, "badges/gamma-sdk.json")["message"] == "1"
    # A line gone without an alias keeps its last badge, and the build says so.
    only_alpha = HistoryStore(tmp_path / "alpha.sqlite")
    only_alpha.append(record_of(alpha(1)))
    kept = (site / "badges/gamma-v2.svg").read_bytes()
    out = _publish(only_alpha.path, site, capsys=capsys)
    assert "badge gamma-v2: no line of that name any more" in out
    assert (site / "badges/gamma-v2.svg").read_bytes() == kept
    assert not (site / "lines/gamma-v2.html").exists()  # pages follow the history


def test_the_latest_matrix_and_its_pages_are_published(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _db(tmp_path / "h.sqlite")
    folder = tmp_path / "matrix"
    docs = {"alpha-sdk": alpha(30), "beta-sdk": beta(30)}
    doc = matrix(*(row(f"{name}@main", card) for name, card in docs.items()))
    write_matrix_reports(doc, folder)
    for name, card in docs.items():
        atomic_write_text(folder / f"rows/{name}@main/scorecard.html", render_html(card))
    atomic_write_text(folder / "rows/alpha-sdk@main/claim.html", "<html>claim</html>\n")
    site = tmp_path / "site"
    _publish(db, site, "--matrix", str(folder), capsys=capsys)
    assert (site / "api/v1/matrix.json").is_file()
    assert _json(site, "api/v1/matrix.json")["run_id"] == doc.run_id
    links = {x["line"]: x["links"] for x in _json(site, "api/v1/index.json")["lines"]}
    assert links["alpha-sdk"]["scorecard_html"] == "lines/alpha-sdk/scorecard.html"
    assert links["alpha-sdk"]["claim_html"] == "lines/alpha-sdk/claim.html"
    assert links["beta-sdk"]["claim_html"] is None
    assert links["gamma-sdk"]["scorecard_html"] is None
    assert (site / "lines/alpha-sdk/scorecard.html").read_text("utf-8") == render_html(
        docs["alpha-sdk"]
    )
    page = (site / "lines/alpha-sdk.html").read_text("utf-8")
    assert 'href="../lines/alpha-sdk/scorecard.html"' in page
    assert 'href="../lines/alpha-sdk/claim.html"' in page


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--history", "{tmp}/none.sqlite"], "no such file"),
        (["--alias", "x"], "expected OLD=NEW"),
        (["--alias", "old=nobody"], "the history has no line 'nobody'"),
        # An old name that is no plain badge name: refused, never served under another name.
        (["--alias", "../../x=gamma-sdk"], "--alias '../../x=gamma-sdk': '../../x' is not a badge"),
        (["--alias", "a/b=gamma-sdk"], "'a/b' is not a badge name (letters, digits, '.', '_' and"),
        (["--alias", ".x=gamma-sdk"], "'.x' is not a badge name"),
        (["--alias", "a..b=gamma-sdk"], "'a..b' is not a badge name"),
        (["--alias", "a\u202eb=gamma-sdk"], "'a\\u202eb' is not a badge name"),
        (["--alias", "x" * 129 + "=gamma-sdk"], "is not a badge name"),
        (["--matrix", "{tmp}"], "no matrix.json there"),
        (["--matrix", "{tmp}/missing"], "is not a directory"),
    ],
)
def test_bad_input_is_one_line(
    argv: list[str], needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "h.sqlite"
    HistoryStore(db).append(record_of(gamma(1)))
    args = ["publish", "--history", str(db), "--out", str(tmp_path / "site")]
    args += [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert needle in err
    assert err.count("\n") == 1


def test_an_alias_that_is_no_badge_name_is_refused_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "h.sqlite"
    HistoryStore(db).append(record_of(gamma(1)))
    site = tmp_path / "site"
    args = ["publish", "--history", str(db), "--out", str(site), "--alias", "../../x=gamma-sdk"]
    assert main(args) == 2
    assert capsys.readouterr().err == (
        "tier-check: error: publish: --alias '../../x=gamma-sdk': '../../x' is not a badge name "
        "(letters, digits, '.', '_' and '-', the first a letter or digit, no '..', at most 128 "
        "characters)\n"
    )
    assert not site.exists()  # no badges/x-9cdf6a50.svg, nor anything else


def test_no_build_time_anywhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Two builds a moment apart, from one history, in two places: the same bytes.
    db = _db(tmp_path / "h.sqlite", 5)
    _publish(db, tmp_path / "a", capsys=capsys)
    shutil.copy(db, tmp_path / "copy.sqlite")
    _publish(tmp_path / "copy.sqlite", tmp_path / "b", capsys=capsys)
    assert _files(tmp_path / "a") == _files(tmp_path / "b")
    assert night(5).strftime("%Y-%m-%d") in (tmp_path / "a/index.html").read_text("utf-8")


def test_an_empty_history_publishes_an_empty_dashboard(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "h.sqlite"
    HistoryStore(db).schema_version()  # created, no runs
    site = tmp_path / "site"
    _publish(db, site, capsys=capsys)
    index = _json(site, "api/v1/index.json")
    assert (index["lines"], index["latest_night"], index["scenarios"]) == ([], None, [])
    assert "No runs yet." in (site / "index.html").read_text("utf-8")
