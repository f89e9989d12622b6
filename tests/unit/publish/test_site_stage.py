"""`publish.files.SiteStage`: staged files leave every target untouched until `commit`, which
flushes them all and puts them in place; `discard` leaves the folder as it was."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tiercheck.publish.files import SiteStage


def _listing(root: Path) -> dict[str, bytes | None]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes() if p.is_file() else None
        for p in sorted(root.rglob("*"))
    }


def test_nothing_is_in_place_before_commit_and_everything_after(tmp_path: Path) -> None:
    (tmp_path / "old.html").write_bytes(b"old")
    os.chmod(tmp_path / "old.html", 0o600)
    stage = SiteStage(tmp_path)
    stage.add("old.html", b"new")
    stage.add("nights/2026-01-01/grid.html", b"grid")
    stage.sync()
    assert (tmp_path / "old.html").read_bytes() == b"old"
    assert not (tmp_path / "nights/2026-01-01/grid.html").exists()
    staged = [p.name for p in tmp_path.rglob("*.staged")]
    assert len(staged) == 2
    stage.commit()
    assert _listing(tmp_path) == {
        "nights": None,
        "nights/2026-01-01": None,
        "nights/2026-01-01/grid.html": b"grid",
        "old.html": b"new",
    }
    # A replaced file keeps its mode; a new one is readable by everyone, whatever the umask.
    assert stat.S_IMODE((tmp_path / "old.html").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "nights/2026-01-01/grid.html").stat().st_mode) == 0o644


def test_discard_leaves_the_folder_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_bytes(b"index")
    before = _listing(tmp_path)
    stage = SiteStage(tmp_path)
    stage.add("index.html", b"changed")
    stage.add("compare/a/b.html", b"pair")
    stage.sync()
    stage.discard()
    assert _listing(tmp_path) == before
    stage.commit()  # nothing staged any more: nothing changes
    assert _listing(tmp_path) == before
