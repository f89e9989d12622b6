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


def test_a_lock_tried_once_is_kept_until_released(tmp_path: Path) -> None:
    lock = [tmp_path / "controller.lock"]
    first = locks.try_hold(lock)
    assert first is not None
    # Another holder (flock is per open file description: a second open is another holder).
    assert locks.try_hold(lock) is None
    with locks.held(lock, poll=0.01, deadline=time.monotonic()) as waited:
        assert waited is False
    first.release()
    first.release()  # a second release does nothing
    again = locks.try_hold(lock)
    assert again is not None
    again.release()


def test_admission_controls_a_slot_folder_through_the_one_lock(tmp_path: Path) -> None:
    from tiercheck.conformance.admission import LIMIT_FILE, Admission, Policy

    policy = Policy(cores=2.0, floor=1, cap=2)
    one, two = Admission(tmp_path, policy), Admission(tmp_path, policy)
    assert one._controlling()
    assert not two._controlling()  # the lock is the first run's until its admission stops
    with locks.held([tmp_path / "controller.lock"], poll=0.01, deadline=time.monotonic()) as h:
        assert h is False
    one.__exit__(None, None, None)
    assert two._controlling()
    two.__exit__(None, None, None)
    one.tick()
    assert (tmp_path / LIMIT_FILE).read_text("ascii").strip().isdigit()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
