"""`history`, `history import` and `history export` in the pipeline, from typed requests (no argv).

Expected texts and counts are worked out by hand from the one Tier 1 run the tests save.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from support.scorecards import tier1_scorecard
from tiercheck.document_files import atomic_write_text
from tiercheck.errors import ConfigError, UsageError
from tiercheck.history.store import HistoryStore
from tiercheck.pipeline.history_export import HistoryExportRequest, export_history
from tiercheck.pipeline.history_import import HistoryImportRequest, import_history, rebase
from tiercheck.pipeline.history_show import HistoryShowRequest, moment, show_history, since
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.render.json_format import render_json

AS_OF = datetime(2026, 10, 15, 12, 0, tzinfo=UTC)


def _save(doc: Scorecard, folder: Path) -> Path:
    return atomic_write_text(folder / "scorecard.json", render_json(doc))


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    """A folder holding one saved run."""
    folder = tmp_path / "runs"
    _save(tier1_scorecard(), folder / "night-1")
    return folder


# --- import ---------------------------------------------------------------------------------


def test_import_adds_the_run_once(tmp_path: Path, saved: Path) -> None:
    db = tmp_path / "h.sqlite"
    warnings: list[str] = []
    first = import_history(HistoryImportRequest(db, (saved,)), warn=warnings.append)
    assert (first.added, first.found, first.exit_code) == (1, 1, 0)
    assert first.summary == f"imported 1 run(s) into {db} (0 already there, 1 found)"
    again = import_history(HistoryImportRequest(db, (saved,)), warn=warnings.append)
    assert again.summary == f"imported 0 run(s) into {db} (1 already there, 1 found)"
    assert warnings == []
    assert len(HistoryStore(db).runs()) == 1


def test_a_link_out_of_the_folder_is_a_warning_and_not_read(tmp_path: Path, saved: Path) -> None:
    outside = _save(tier1_scorecard(), tmp_path / "elsewhere")
    (saved / "linked").mkdir()
    link = saved / "linked" / "scorecard.json"
    link.symlink_to(outside)
    warnings: list[str] = []
    outcome = import_history(
        HistoryImportRequest(tmp_path / "h.sqlite", (saved,)), warn=warnings.append
    )
    assert outcome.found == 1
    assert warnings == [f"{link}: a symbolic link out of {saved}; not followed"]


@pytest.mark.parametrize(
    ("folders", "message"),
    [
        ((), "history import: give at least one folder of saved scorecards or a data folder"),
        ((Path("no-such-folder"),), "history import: no-such-folder is not a directory"),
    ],
)
def test_import_refuses_before_touching_the_database(
    tmp_path: Path, folders: tuple[Path, ...], message: str
) -> None:
    db = tmp_path / "h.sqlite"
    with pytest.raises(UsageError) as info:
        import_history(HistoryImportRequest(db, folders), warn=print)
    assert info.value.message == message
    assert not db.exists()


def test_one_bad_folder_adds_nothing(tmp_path: Path, saved: Path) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "scorecard.json").write_text("{not json", "utf-8")
    db = tmp_path / "h.sqlite"
    with pytest.raises(ConfigError, match="not JSON"):
        import_history(HistoryImportRequest(db, (saved, bad)), warn=print)
    assert HistoryStore(db).runs() == []


def test_rebase_moves_results_folders_under_the_old_report_folder_only() -> None:
    doc = tier1_scorecard()
    rev = next(iter(doc.revisions))
    entry = doc.revisions[rev]
    doc = dataclasses.replace(
        doc,
        artifacts=dataclasses.replace(doc.artifacts, out_dir="/ci/reports/run-1/"),
        revisions={
            rev: dataclasses.replace(
                entry,
                server=dataclasses.replace(
                    entry.server, results_dir="/ci/reports/run-1/results/server"
                ),
                client=dataclasses.replace(entry.client, results_dir="/tmp/client-results"),
            )
        },
    )
    moved = rebase(doc, Path("/downloads/run-1"))
    assert moved.revisions[rev].server.results_dir == "/downloads/run-1/results/server"
    assert moved.revisions[rev].client.results_dir == "/tmp/client-results"


# --- show -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("8w", AS_OF - timedelta(days=56)),
        ("30d", AS_OF - timedelta(days=30)),
        ("12h", datetime(2026, 10, 15, 0, 0, tzinfo=UTC)),
        ("2026-10-01", datetime(2026, 10, 1, 0, 0, tzinfo=UTC)),
        ("2026-10-01T07:00:00Z", datetime(2026, 10, 1, 7, 0, tzinfo=UTC)),
        (None, None),
    ],
)
def test_since_is_an_age_back_from_the_moment_or_a_date(
    text: str | None, start: datetime | None
) -> None:
    assert since(text, AS_OF) == start


def test_a_date_as_the_moment_is_the_end_of_that_day() -> None:
    assert moment("2026-10-01", "--as-of") == datetime(2026, 10, 1, 23, 59, 59, tzinfo=UTC)


def test_an_age_beyond_the_calendar_is_refused() -> None:
    with pytest.raises(UsageError) as info:
        since("200000w", AS_OF)  # 1.4 million days: before the year 1
    assert info.value.message == (
        "--since '200000w': reaches back beyond the calendar; give a shorter age"
    )


def test_a_bad_moment_names_its_flag() -> None:
    with pytest.raises(UsageError) as info:
        moment("yesterday", "--as-of")
    assert info.value.message == (
        "--as-of 'yesterday': expected a date (2026-10-01) or a time (2026-10-01T07:00:00Z) "
        "between 1970-01-01 and 3000-01-01"
    )


def test_show_without_a_line_names_the_lines_there(tmp_path: Path, saved: Path) -> None:
    db = tmp_path / "h.sqlite"
    with pytest.raises(UsageError) as info:
        show_history(HistoryShowRequest(db))
    assert info.value.message == f"history: --sdk NAME is required (lines in {db}: none yet)"
    import_history(HistoryImportRequest(db, (saved,)), warn=print)
    with pytest.raises(UsageError) as info:
        show_history(HistoryShowRequest(db))
    assert info.value.message == f"history: --sdk NAME is required (lines in {db}: example-sdk)"


def test_show_renders_the_line_as_of_the_moment(tmp_path: Path, saved: Path) -> None:
    db = tmp_path / "h.sqlite"
    import_history(HistoryImportRequest(db, (saved,)), warn=print)
    outcome = show_history(
        HistoryShowRequest(db, sdk="example-sdk", as_of="2030-01-01", output="json")
    )
    data = json.loads(outcome.text)
    assert (data["sdk"], data["runs"], data["as_of"], data["since"]) == (
        "example-sdk",
        1,
        "2030-01-01T23:59:59Z",
        None,
    )
    assert outcome.exit_code == 0


# --- export ---------------------------------------------------------------------------------


def test_export_writes_each_run_once(tmp_path: Path, saved: Path) -> None:
    db = tmp_path / "h.sqlite"
    import_history(HistoryImportRequest(db, (saved,)), warn=print)
    folder = tmp_path / "data"
    first = export_history(HistoryExportRequest(db, folder), warn=print)
    assert (first.written, first.unchanged, first.moved) == (1, 0, 0)
    assert first.summary == f"exported 1 run(s) to {folder} (0 already there, never rewritten)"
    again = export_history(HistoryExportRequest(db, folder), warn=print)
    assert again.summary == f"exported 0 run(s) to {folder} (1 already there, never rewritten)"


def test_export_into_a_file_is_refused(tmp_path: Path) -> None:
    afile = tmp_path / "data"
    afile.write_text("", "utf-8")
    with pytest.raises(UsageError) as info:
        export_history(HistoryExportRequest(tmp_path / "h.sqlite", afile), warn=print)
    assert info.value.message == f"history export: {afile} is not a directory"
