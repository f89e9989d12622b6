"""The one file lock: first free of some files, waits, deadlines, files that cannot be opened."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from tiercheck import locks


def test_the_first_free_file_is_taken_and_released_on_exit(tmp_path: Path) -> None:
    files = [tmp_path / "a", tmp_path / "b"]
    with locks.held(files, poll=0.01) as first, locks.held(files, poll=0.01) as second:
        assert first
        assert second
        # Both files are held now: a third holder would wait; with a deadline past, it runs
        # without the lock and says so.
        with locks.held(files, poll=0.01, deadline=time.monotonic()) as third:
            assert third is False
    with locks.held(files[:1], poll=0.01, deadline=time.monotonic()) as again:
        assert again  # released when the block ended


def test_a_waiter_is_told_once_and_gets_the_lock_when_it_is_freed(tmp_path: Path) -> None:
    lock = [tmp_path / "tree.lock"]
    calls: list[str] = []
    got = threading.Event()

    def second() -> None:
        with locks.held(lock, poll=0.01, on_wait=lambda: calls.append("wait")):
            got.set()

    with locks.held(lock, poll=0.01):
        thread = threading.Thread(target=second)
        thread.start()
        time.sleep(0.2)
        assert not got.is_set()  # still waiting while the first holds it
    thread.join(timeout=5)
    assert got.is_set()
    assert calls == ["wait"]


def test_an_unopenable_path_raises_or_runs_unlocked_with_best_effort(tmp_path: Path) -> None:
    # A path under a regular file cannot be opened, even by root.
    (tmp_path / "file").write_text("", "utf-8")
    missing = tmp_path / "file" / "x.lock"
    with pytest.raises(NotADirectoryError), locks.held([missing], poll=0.01):
        pass
    with locks.held([missing], poll=0.01, best_effort=True) as holding:
        assert holding is False
