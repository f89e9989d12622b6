"""A re-used --out: the legs step clears its own earlier `raw/`, and never anything else."""

from __future__ import annotations

from pathlib import Path

from tiercheck.pipeline.assess.legs import _fresh_raw


def test_an_earlier_raw_laid_out_as_ours_is_cleared(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    scenario = raw / "2025-11-25" / "server" / "server-ping-2026-01-01T00-00-00-000Z"
    scenario.mkdir(parents=True)
    (scenario / "checks.json").write_text("[]")
    (raw / "2026-07-28" / "client").mkdir(parents=True)
    assert _fresh_raw(raw) is None
    assert not raw.exists()
    assert _fresh_raw(raw) is None  # nothing there: nothing to do


def test_a_raw_with_files_we_did_not_write_is_left_alone(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    (raw / "2025-11-25" / "server").mkdir(parents=True)
    (raw / "photos").mkdir()
    (raw / "photos" / "cat.jpg").write_bytes(b"\xff\xd8")
    reason = _fresh_raw(raw)
    assert reason is not None
    assert "did not write (photos)" in reason
    assert (raw / "photos" / "cat.jpg").is_file()
    (tmp_path / "file").write_text("x")
    assert "not a directory" in (_fresh_raw(tmp_path / "file") or "")
