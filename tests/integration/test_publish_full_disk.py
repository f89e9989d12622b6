"""Issue 28: the disk fills up while `tier-check publish` brings a site up to date.

A real `tier-check publish` builds the site of five nights of `support.nights` into a tmpfs of
our own, once with room; then the file system is filled to the last byte and a few pages are
freed again, so that the next build (a sixth night: nearly every file changes) can write some
of its files and not the rest. That build must end in one line naming what it could not write
and the reason, exit 2 (the project's exit for a disk that fills, as for the reports), and leave
the first build's site byte for byte as it was: every page, the build's record, and no
temporary or staged file beside them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import suppress
from pathlib import Path

import pytest

from support.mounts import small_file_system
from support.nights import records, thirty_nights
from tiercheck.history.store import HistoryStore

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
FREED = 8 * 1024


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _publish(db: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tiercheck", "publish", "--history", str(db), "--out", str(site)],
        cwd=REPO,
        env={**os.environ, "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_a_full_disk_while_publishing_keeps_the_previous_site(tmp_path: Path) -> None:
    five, six = tmp_path / "five.sqlite", tmp_path / "six.sqlite"
    HistoryStore(five).append_many(records(thirty_nights(5)))
    HistoryStore(six).append_many(records(thirty_nights(6)))
    with small_file_system(tmp_path / "small", "size=1m") as mount:
        site = mount / "site"
        first = _publish(five, site)
        assert first.returncode == 0, first.stderr
        before = _files(site)
        assert ".tiercheck-site.json" in before
        filler = mount / "filler"
        with suppress(OSError), filler.open("wb", buffering=0) as handle:
            while True:  # fill the file system to the last byte
                handle.write(b"x" * 4096)
        os.truncate(filler, filler.stat().st_size - FREED)  # room for a few files, not all
        second = _publish(six, site)
        after = _files(site)
    lines = second.stderr.strip().splitlines()
    assert second.returncode == 2, second.stderr
    assert "Traceback" not in second.stderr
    assert len(lines) == 1, second.stderr
    assert lines[0].startswith(f"tier-check: error: publish: cannot write {site}/"), lines[0]
    assert "No space left on device" in lines[0]
    assert lines[0].endswith(f"the site in {site} is as it was")
    assert after == before  # every page and the record as they were, nothing staged left
