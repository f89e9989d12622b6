"""`tier-check matrix merge` makes a matrix folder that is whole by itself: each job's folder is
copied to `rows/<job>/`, recorded relative to the matrix's folder, and nothing a job's folder
links to outside itself is read (issue 28).

The jobs' folders are written by the real report writer from scorecards of `support.nights`;
the merge is the real command (`tiercheck.cli.app.main`), run from a folder of its own with
relative paths, as the nightly's merge job runs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.nights import night_scorecard
from tiercheck.cli.app import main
from tiercheck.document_files import write_reports

JOBS = ("alpha-sdk@main", "beta-sdk@main")


@pytest.fixture
def merged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[Path, Path]:
    """(the merge's working folder, the secret file a job's folder links to)."""
    monkeypatch.setenv("TIERCHECK_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("not the job's\n", encoding="utf-8")
    for job in JOBS:
        folder = Path("jobs") / job
        write_reports(night_scorecard(job.partition("@")[0], 1), folder)
        (folder / "raw").mkdir()
        (folder / "raw" / "checks.json").write_text("[]\n", encoding="utf-8")
    (Path("jobs") / JOBS[0] / "linked.txt").symlink_to(secret)
    (Path("jobs") / JOBS[0] / "linked-folder").symlink_to(tmp_path)
    code = main(["matrix", "merge", "jobs", "--out", "matrix", "--output", "json"])
    assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    return tmp_path, secret


def test_each_row_is_recorded_and_copied_inside_the_matrix_folder(
    merged: tuple[Path, Path],
) -> None:
    cwd, _ = merged
    doc = json.loads((cwd / "matrix" / "matrix.json").read_text("utf-8"))
    assert {r["id"]: r["scorecard"] for r in doc["rows"]} == {job: f"rows/{job}" for job in JOBS}
    for job in JOBS:
        source, copy = cwd / "jobs" / job, cwd / "matrix" / "rows" / job
        for name in ("scorecard.json", "scorecard.html", "scorecard.md", "raw/checks.json"):
            assert (copy / name).read_bytes() == (source / name).read_bytes(), (job, name)


def test_a_link_in_a_jobs_folder_is_neither_followed_nor_copied(
    merged: tuple[Path, Path],
) -> None:
    cwd, secret = merged
    copy = cwd / "matrix" / "rows" / JOBS[0]
    assert not (copy / "linked.txt").exists()
    assert not (copy / "linked-folder").exists()
    everything = [p for p in (cwd / "matrix").rglob("*") if p.is_file()]
    assert all(p.read_bytes() != secret.read_bytes() for p in everything)
    assert not any(p.is_symlink() for p in (cwd / "matrix").rglob("*"))


def test_merging_again_into_the_same_folder_replaces_the_rows(
    merged: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    cwd, _ = merged
    stale = cwd / "matrix" / "rows" / JOBS[1] / "stale.txt"
    stale.write_text("from an earlier merge\n", encoding="utf-8")
    assert main(["matrix", "merge", "jobs", "--out", "matrix", "--output", "json"]) == 0
    capsys.readouterr()
    assert not stale.exists()
    assert (cwd / "matrix" / "rows" / JOBS[1] / "scorecard.json").is_file()
