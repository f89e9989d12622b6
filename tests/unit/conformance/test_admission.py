"""Admission of client scenarios by measured CPU: the pure decision on hand-made samples, and
the /proc edge on a real process group."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tiercheck.conformance import admission
from tiercheck.conformance.admission import (
    GroupSample,
    Policy,
    admit_limit,
    expected_demand,
    read_groups,
)

TWO_CORES = Policy(cores=2, floor=2)


def heavy(age: float = 2.0) -> GroupSample:
    """An interpreter starting up: on a CPU the whole time."""
    return GroupSample(cpu_s=age, wait_s=0.0, age_s=age)


def light(age: float = 2.0) -> GroupSample:
    """A native client waiting on its scenario: 2% of a core."""
    return GroupSample(cpu_s=0.02 * age, wait_s=0.0, age_s=age)


def test_demand_counts_the_wait_for_a_cpu() -> None:
    # Starved on a busy machine: half its life on a CPU, half waiting for one: it wanted a core.
    assert GroupSample(cpu_s=1.0, wait_s=1.0, age_s=2.0).demand == pytest.approx(1.0)
    assert GroupSample(cpu_s=0.0, wait_s=0.0, age_s=0.0).demand == 0.0


def test_no_evidence_means_one_client_per_core() -> None:
    assert expected_demand([]) is None
    # Too young to have shown anything: 0.2 s < the settling time.
    assert expected_demand([heavy(0.2), heavy(0.2)]) is None
    assert admit_limit(TWO_CORES, [heavy(0.2)], None) == 2


def test_expected_demand_is_weighted_by_life() -> None:
    # 1 s at a full core and 3 s idle-ish at 0: (1 + 0) / (1 + 3) = 0.25 of a core.
    seen = [GroupSample(1.0, 0.0, 1.0), GroupSample(0.0, 0.0, 3.0)]
    assert expected_demand(seen) == pytest.approx(0.25)


def test_heavy_clients_stay_one_per_core() -> None:
    running = [heavy(), heavy()]
    assert admit_limit(TWO_CORES, running, expected_demand(running)) == 2
    # Even when they were starved by other work (their wait counts as demand).
    starved = [GroupSample(1.0, 1.0, 2.0), GroupSample(1.0, 1.0, 2.0)]
    assert admit_limit(TWO_CORES, starved, expected_demand(starved)) == 2


def test_light_clients_fill_the_cores() -> None:
    running = [light(), light()]
    # 2 cores - 0.04 in use = 1.96 of room, 98 newcomers at 0.02 each, beside the 2 running.
    assert admit_limit(TWO_CORES, running, expected_demand(running)) == 100


def test_a_young_client_counts_at_the_expected_demand() -> None:
    # Settled heavy clients say a newcomer wants a core; one started 0.1 s ago is counted so:
    # 4.5 cores - 2 = 2.5 of room, 2 more. At its own (tiny) demand it would have been 3 more.
    running = [heavy(), light(0.1)]
    assert admit_limit(Policy(cores=4.5, floor=1), running, 1.0) == 4


def test_mixed_clients_leave_room_for_what_fits() -> None:
    # One heavy (1 core) and one light (0.02) running, newcomers expected at 0.75 of a core:
    # 3 - 1.02 = 1.98 of room, 2 more.
    running = [heavy(), light()]
    assert admit_limit(Policy(cores=3, floor=1), running, 0.75) == 4


def test_the_cap_is_hard_and_the_floor_holds() -> None:
    running = [light(), light()]
    assert admit_limit(Policy(cores=2, floor=2, cap=5), running, 0.02) == 5
    assert admit_limit(Policy(cores=2, floor=2, cap=1), running, None) == 1
    # Overloaded (more running than fit): the limit falls back to the floor, never fewer.
    running = [heavy(), heavy(), heavy()]
    assert admit_limit(TWO_CORES, running, 1.0) == 2
    assert admit_limit(Policy(cores=2, floor=1), running, 1.0) == 1
    # A zero expectation does not divide by zero.
    assert admit_limit(Policy(cores=1, floor=1, cap=None), [], 0.0) == 50


# --- the edge: /proc ----------------------------------------------------------------------------


def _group(code: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", code], start_new_session=True)


def test_read_groups_measures_a_busy_and_an_idle_group() -> None:
    busy = _group("import time\nend = time.monotonic() + 30\nwhile time.monotonic() < end: pass")
    idle = subprocess.Popen(["sleep", "30"], start_new_session=True)
    try:
        time.sleep(0.6)
        samples = read_groups([busy.pid, idle.pid, 999_999_999])
        assert set(samples) == {busy.pid, idle.pid}  # the missing group is left out
        assert samples[busy.pid].age_s >= 0.5
        # The spinning one was on a CPU or waiting for one most of its life; the sleeping one
        # barely.
        assert samples[busy.pid].demand > 0.5
        assert samples[idle.pid].demand < samples[busy.pid].demand
        assert samples[idle.pid].cpu_s < samples[idle.pid].age_s / 2
    finally:
        for proc in (busy, idle):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_read_groups_does_not_read_settled_outsiders_again() -> None:
    outsider = subprocess.Popen(["sleep", "30"], start_new_session=True)
    member = subprocess.Popen(["sleep", "30"], start_new_session=True)
    try:
        time.sleep(0.5)
        outsiders: set[int] = set()
        # Settled after 0.2 s here (the default, SETTLED_OUTSIDER_S, is longer).
        assert set(read_groups([member.pid], outsiders, settled_s=0.2)) == {member.pid}
        assert outsider.pid in outsiders
        assert member.pid not in outsiders
        # Still measured on the next scan; a skipped pid that is gone leaves the set.
        outsider.kill()
        outsider.wait()
        assert set(read_groups([member.pid], outsiders, settled_s=0.2)) == {member.pid}
        assert outsider.pid not in outsiders
    finally:
        for proc in (outsider, member):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_admission_writes_the_limit_for_the_registered_clients(tmp_path: Path) -> None:
    slot_dir = tmp_path / "slots"
    idle = [subprocess.Popen(["sleep", "30"], start_new_session=True) for _ in range(2)]
    try:
        control = admission.Admission(slot_dir, Policy(cores=2, floor=2, cap=7), interval_s=60)
        with control:
            for proc in idle:
                (slot_dir / admission.RUN_DIR / str(proc.pid)).touch()
            # Both settled (older than SETTLE_S) and, together, past EVIDENCE_S of life.
            time.sleep(max(admission.SETTLE_S, admission.EVIDENCE_S / 2) + 0.2)
            limit = control.tick()
        # Two idle clients leave both cores free: up to the cap.
        assert limit == 7
        assert (slot_dir / admission.LIMIT_FILE).read_text() == "7\n"
        # A second controller on the same directory waits its turn (the first has left).
        other = admission.Admission(slot_dir, Policy(cores=2, floor=2, cap=3), interval_s=60)
        assert other._controlling()
        blocked = admission.Admission(slot_dir, Policy(cores=2, floor=2), interval_s=60)
        assert not blocked._controlling()
        other.__exit__()
    finally:
        for proc in idle:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
