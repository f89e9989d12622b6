"""The history data folder: `history export --out DIR` and `history import DIR`.

One file per run, written once, never rewritten; a fresh database imported from the folder
holds the same runs; a folder ahead of the database (another workflow run exported since) is
refused; a newer layout is refused; every refusal is one line, exit 2, nothing written."""

from __future__ import annotations

import json
import typing
from pathlib import Path

import pytest

from support.nights import R1, REGRESSED, night_scorecard, records, thirty_nights
from tiercheck.cli.app import main
from tiercheck.history.datafile import (
    DATA_MARKER,
    RunFile,
    line_slug,
    run_file_name,
    run_file_of,
    run_file_text,
)
from tiercheck.history.record import LegRow, RunRecord, ScenarioRow, record_of
from tiercheck.history.store import HistoryStore
from tiercheck.model import to_json


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _export(db: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["history", "export", "--history", str(db), "--out", str(out)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.fixture
def db(tmp_path: Path) -> Path:
    store = HistoryStore(tmp_path / "history.sqlite")
    assert store.append_many(records(thirty_nights(10))) == 30
    return store.path


def test_export_then_import_into_a_fresh_database_gives_the_same_runs(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    code, out = _export(db, data, capsys)
    assert code == 0
    assert "exported 30 run(s)" in out
    files = _files(data)
    assert len([n for n in files if n.startswith("runs/")]) == 30
    assert DATA_MARKER in files
    assert "runs/alpha-sdk/20261001T030000Z-" in "".join(files)
    fresh = tmp_path / "fresh.sqlite"
    assert main(["history", "import", str(data), "--history", str(fresh)]) == 0
    assert "imported 30 run(s)" in capsys.readouterr().out
    assert HistoryStore(fresh).runs() == HistoryStore(db).runs()
    # Importing again adds nothing.
    assert main(["history", "import", str(data), "--history", str(fresh)]) == 0
    assert "imported 0 run(s)" in capsys.readouterr().out


def test_export_is_incremental_and_never_rewrites_a_file(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    assert _export(db, data, capsys)[0] == 0
    before = {p: p.stat().st_mtime_ns for p in data.rglob("*.json")}
    # The next night adds one run of one line: one new file, the others untouched.
    HistoryStore(db).append(record_of(night_scorecard("alpha-sdk", 11)))
    code, out = _export(db, data, capsys)
    assert code == 0
    assert "exported 1 run(s)" in out
    assert "30 already there" in out
    assert {p: p.stat().st_mtime_ns for p in before} == before
    assert len(list(data.rglob("runs/*/*.json"))) == 31


def test_a_file_reformatted_but_holding_the_same_run_is_left_alone(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    assert _export(db, data, capsys)[0] == 0
    path = next(data.glob("runs/beta-sdk/*.json"))
    reformatted = json.dumps(json.loads(path.read_text("utf-8")), indent=4, sort_keys=True)
    path.write_text(reformatted, encoding="utf-8")
    code, out = _export(db, data, capsys)
    assert (code, "exported 0 run(s)") == (0, out.split(" to ")[0])
    assert path.read_text("utf-8") == reformatted


def test_a_file_already_there_is_never_rewritten(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A run's file is named by the run itself: whatever it holds now, export leaves it be.
    data = tmp_path / "data"
    assert _export(db, data, capsys)[0] == 0
    path = next(data.glob("runs/gamma-sdk/*.json"))
    doc = json.loads(path.read_text("utf-8"))
    doc["tier"] = 3
    tampered = json.dumps(doc)
    path.write_text(tampered, encoding="utf-8")
    HistoryStore(db).append(record_of(night_scorecard("alpha-sdk", 11)))
    code, out = _export(db, data, capsys)
    assert code == 0
    assert "exported 1 run(s)" in out
    assert path.read_text("utf-8") == tampered


def test_a_folder_ahead_of_the_database_is_refused(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Another workflow run imported the same folder, added night 11 and exported first.
    data = tmp_path / "data"
    assert _export(db, data, capsys)[0] == 0
    other = tmp_path / "other.sqlite"
    assert main(["history", "import", str(data), "--history", str(other)]) == 0
    HistoryStore(other).append(record_of(night_scorecard("alpha-sdk", 11)))
    assert _export(other, data, capsys)[0] == 0
    capsys.readouterr()
    # Ours, which lacks night 11 and has its own night 11 of beta, must not write.
    HistoryStore(db).append(record_of(night_scorecard("beta-sdk", 11)))
    before = _files(data)
    code, out = _export(db, data, capsys)
    assert code == 2
    assert out.count("\n") == 1
    assert "holds 1 run(s) this history lacks" in out
    assert "import the folder first" in out
    assert _files(data) == before
    # Importing first, then exporting, writes ours beside theirs.
    assert main(["history", "import", str(data), "--history", str(db)]) == 0
    assert _export(db, data, capsys)[0] == 0
    assert len(list(data.rglob("runs/*/*.json"))) == 32


def test_a_bad_run_file_is_one_warning_and_skipped_and_a_newer_layout_is_refused(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # One broken file among thirty never stops the nightly: it is named and skipped.
    data = tmp_path / "data"
    assert _export(db, data, capsys)[0] == 0
    fresh = str(tmp_path / "fresh.sqlite")
    bad = next(data.glob("runs/alpha-sdk/*.json"))
    good = bad.read_text("utf-8")
    for text, needle in (
        (good.replace('"tier": 1', '"tier": "one"'), "tier: expected an integer"),
        # A scenario line is checked as strictly (the first one is the first passing scenario).
        (good.replace('"passed": true', '"passed": 1', 1), "scenarios[0].passed: expected a bo"),
        (
            good.replace('"message": null}', '"message": null, "x": 1}', 1),
            "scenarios[0].x: not a field of this document",
        ),
    ):
        bad.write_text(text, encoding="utf-8")
        Path(fresh).unlink(missing_ok=True)
        assert main(["history", "import", str(data), "--history", fresh]) == 0
        captured = capsys.readouterr()
        assert captured.err.count("\n") == 1
        assert bad.name in captured.err
        assert needle in captured.err
        assert "skipped" in captured.err
        assert "imported 29 run(s)" in captured.out
    bad.write_text(good, encoding="utf-8")
    marker = data / DATA_MARKER
    marker.write_text(
        marker.read_text("utf-8").replace('"schema_version": 1', '"schema_version": 9')
    )
    for argv in (
        ["history", "import", str(data), "--history", fresh],
        ["history", "export", "--out", str(data), "--history", str(db)],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert "newer than this tiercheck's (1)" in err


def test_a_run_file_puts_one_scenario_on_a_line() -> None:
    # Diffable: two nights of one line differ, line for line, in the verdicts that changed.
    eleven = record_of(night_scorecard("alpha-sdk", 11))
    twelve = record_of(night_scorecard("alpha-sdk", 12, failing=[REGRESSED], tier=2))
    text = run_file_text(twelve)
    assert json.loads(text)["format"] == "tiercheck-history-run"
    lines = text.splitlines()
    image = [line for line in lines if '"scenario": "tools-call-image"' in line]
    assert len(image) == 1
    assert '"revision": "2025-11-25", "leg": "server"' in image[0]
    assert '"passed": false' in image[0]
    changed = set(lines) ^ set(run_file_text(eleven).splitlines())
    # run id, time, commit, tier, SEP-1730's tier, blockers, the leg's score, the scenario:
    # nothing else.
    assert len(changed) == 2 * 8
    assert run_file_name(twelve).startswith("runs/alpha-sdk/20261012T030000Z-")
    assert R1 in text


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("python-sdk-v1", "python-sdk-v1"),
        ("someone/go-sdk", "someone-go-sdk-"),
        ("..", "line-"),
    ],
)
def test_a_line_slug_is_a_safe_path_segment(name: str, slug: str) -> None:
    made = line_slug(name)
    assert made.startswith(slug)
    assert "/" not in made
    assert made not in (".", "..")
    assert line_slug(name) == made  # stable


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["history", "export"], "give the data folder to write with --out DIR"),
        (["history", "export", "x"], "unexpected 'x'"),
        (["history", "--sdk", "x", "--out", "y"], "--out belongs to `history export"),
    ],
)
def test_export_usage_is_one_line(
    argv: list[str], needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--history", str(tmp_path / "h.sqlite")]) == 2
    err = capsys.readouterr().err
    assert needle in err
    assert err.count("\n") == 1


def test_a_run_file_is_the_run_file_model_written_out() -> None:
    # The text is written straight from the rows: the same keys, in the model's order.
    record = record_of(night_scorecard("alpha-sdk", 12, failing=[REGRESSED], tier=2))
    written = json.loads(run_file_text(record))
    model = to_json(run_file_of(record))
    assert written == model
    assert [list(s) for s in written["scenarios"]] == [list(s) for s in model["scenarios"]]
    assert list(written) == list(model)


def test_a_run_file_holds_the_history_rows_themselves() -> None:
    # One type per row: the database's record and the data file hold the same leg and
    # scenario rows, so nothing copies a row from one type into another.
    in_file, in_db = typing.get_type_hints(RunFile), typing.get_type_hints(RunRecord)
    assert in_file["legs"] == in_db["legs"] == tuple[LegRow, ...]
    assert in_file["scenarios"] == in_db["scenarios"] == tuple[ScenarioRow, ...]
    record = record_of(night_scorecard("alpha-sdk", 12, failing=[REGRESSED], tier=2))
    written = run_file_of(record)
    assert (written.legs, written.scenarios) == (record.legs, record.scenarios)
    assert written.scenarios
