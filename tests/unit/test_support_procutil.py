"""The leftover check every test ends with (`support.procutil`): the processes this process
starts are counted from its audit events, from any thread, and a re-parented grandchild that
carries the test's mark is found whenever one was started."""

from __future__ import annotations

import os
import subprocess
import threading
import time
import uuid

import psutil

from support.procutil import MARK_ENV, left_behind, processes_started, wait_for


def test_every_way_of_starting_a_process_is_counted() -> None:
    before = processes_started()
    subprocess.run(["true"], check=True)
    assert processes_started() == before + 1
    thread = threading.Thread(target=subprocess.run, args=(["true"],))
    thread.start()
    thread.join()
    assert processes_started() == before + 2
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    assert processes_started() == before + 3
    assert os.system("true") == 0
    assert processes_started() == before + 4


def test_a_grandchild_left_to_init_is_found_by_its_mark() -> None:
    mark, began, started = uuid.uuid4().hex, time.time(), processes_started()
    env = {**os.environ, MARK_ENV: mark}
    # The shell exits at once; its `sleep` is re-parented, no longer our descendant.
    subprocess.run(["sh", "-c", "sleep 30 >/dev/null 2>&1 &"], env=env, check=True)
    found: list[psutil.Process] = []

    def orphaned() -> bool:
        # The shell's child is a shell until it has become `sleep`.
        found[:] = left_behind(mark, began=began, started=started)
        return bool(found) and all(p.cmdline()[:1] == ["sleep"] for p in found)

    try:
        assert wait_for(orphaned, 5)
        (orphan,) = found
        assert orphan.cmdline()[:1] == ["sleep"]
        assert orphan.ppid() != os.getpid()
        # With no process started since, the marked scan is not run: nothing of this test's
        # could carry the mark.
        assert left_behind(mark, began=began, started=processes_started()) == []
    finally:
        for proc in found:
            proc.kill()
            proc.wait(5)
