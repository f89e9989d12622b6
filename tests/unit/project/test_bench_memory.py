"""bench/breakdown.py and bench/cgroup.py: the wall's breakdown from ticks worked out by hand,
and a run's own memory cgroup with a real process charged to it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[3] / "bench"
sys.path.insert(0, str(BENCH))

import breakdown  # noqa: E402
import cgroup  # noqa: E402

TIER = ("/v/bin/python", "-c", "…from tiercheck.cli import main…")
NODE = ("/cache/node/bin/node", "/cache/harness/node_modules/@x/conformance/dist/index.js")
SERVER_HARNESS = (*NODE, "server", "--url", "http://127.0.0.1:4001/mcp", "-o", "/r/2025/server")
CLIENT_HARNESS = (*NODE, "client", "--command", "launch", "-o", "/r/2026/client/")
SERVER = ("/sdk/.venv/bin/mcp-everything-server", "--port", "4001")
ZYGOTE = ("/sdk/.venv/bin/python", "/t/warm_zygote.py", "/tmp/w1/zygote.sock", "client.py")
LAUNCHER = ("sh", "-c", "/v/bin/python -I -S /t/warm_launcher.py /tmp/w1/zygote.sock - x")


def _row(
    pid: int, kind: str, chain: tuple[tuple[str, ...], ...], cpu: float, runnable: bool
) -> breakdown.Row:
    return breakdown.Row((pid, 0.0), kind, chain, cpu, runnable)


def test_harness_leg_from_its_output_folder() -> None:
    assert breakdown.harness_leg(SERVER_HARNESS) == "2025/server"
    assert breakdown.harness_leg(CLIENT_HARNESS) == "2026/client"
    assert breakdown.harness_leg((*NODE, "list")) is None
    assert breakdown.harness_leg(("python", "x", "-o", "/r/2025/server")) is None


def test_breakdown_by_kind_leg_and_phase() -> None:
    line = breakdown.Timeline(cores=2)
    line.begin(0.0)
    tier = _row(1, "tiercheck", (TIER,), 0.5, True)
    server = _row(2, "sdk-server", (TIER, SERVER), 0.2, False)
    line.observe(1.0, [tier, server])
    line.observe(
        2.0,
        [
            _row(1, "tiercheck", (TIER,), 0.6, False),
            _row(2, "sdk-server", (TIER, SERVER), 0.9, True),
            _row(3, "harness", (TIER, SERVER_HARNESS), 0.4, True),
            _row(5, "sdk-clients", (TIER, ZYGOTE), 0.5, False),
        ],
    )
    line.observe(
        3.0,
        [
            _row(1, "tiercheck", (TIER,), 0.6, False),
            _row(2, "sdk-server", (TIER, SERVER), 1.0, False),
            _row(3, "harness", (TIER, SERVER_HARNESS), 0.5, False),
            _row(4, "harness", (TIER, CLIENT_HARNESS), 0.3, True),
            _row(6, "sdk-clients", (TIER, CLIENT_HARNESS, LAUNCHER), 0.1, False),
            _row(5, "sdk-clients", (TIER, ZYGOTE), 0.6, True),
            _row(7, "sdk-clients", (TIER, ZYGOTE, ZYGOTE), 0.8, True),
        ],
    )
    line.probes = [(1.5, 1.8)]
    got = line.report()
    assert got["cores"] == 2
    assert got["wall_s"] == 3.0
    assert got["cpu_s"] == 3.9  # 0.7 + 1.7 + 1.5
    assert got["floor_s"] == 1.95
    assert got["idle_core_s"] == 2.1  # 1.3 + 0.3 + 0.5
    assert got["short_of_cores_s"] == 1.0  # only the first second had < 2 runnable
    assert got["kinds"] == {
        "harness": {"cpu_s": 0.8, "alive_s": 2.0, "runnable_s": 2.0},
        "sdk-clients": {"cpu_s": 1.5, "alive_s": 2.0, "runnable_s": 1.0},
        "sdk-server": {"cpu_s": 1.0, "alive_s": 3.0, "runnable_s": 1.0},
        "tiercheck": {"cpu_s": 0.6, "alive_s": 3.0, "runnable_s": 1.0},
    }
    # The server by the port its harness's URL names; the zygote and its fork by the socket
    # their leg's launcher names; tiercheck itself has no leg.
    assert got["legs"] == {
        "2025/server": {
            "span_s": 3.0,
            "cpu_s": 1.5,
            "runnable_s": 1.0,
            "kinds": {"harness": 0.5, "sdk-server": 1.0},
        },
        "2026/client": {
            "span_s": 2.0,
            "cpu_s": 1.8,
            "runnable_s": 1.0,
            "kinds": {"harness": 0.3, "sdk-clients": 1.5},
        },
    }
    phases = got["phases"]
    assert list(phases) == [
        "2025/server + 2026/client",
        "2025/server + probes",
        "no harness",
    ]
    assert phases["no harness"] == {
        "wall_s": 1.0,
        "cpu_s": 0.7,
        "idle_core_s": 1.3,
        "short_of_cores_s": 1.0,
        "kinds": {"sdk-server": 0.2, "tiercheck": 0.5},
    }
    assert phases["2025/server + 2026/client"]["idle_core_s"] == 0.5


def test_a_step_leg_and_the_pause_between_steps() -> None:
    line = breakdown.Timeline(cores=2)
    line.begin(0.0)
    client = breakdown.Row((9, 0.0), "sdk-clients", (("client",),), 1.0, True, "2025/client")
    line.observe(1.0, [client])
    line.begin(5.0)  # the next step: the pause is not the run's
    line.observe(5.5, [])
    got = line.report()
    assert got["wall_s"] == 1.5
    assert got["legs"]["2025/client"]["cpu_s"] == 1.0
    assert got["phases"]["no harness"]["idle_core_s"] == 2.0  # 2 × 1.5 − 1.0


def test_memory_hierarchy_from_proc_texts(tmp_path: Path) -> None:
    v1 = "4:memory:/jobs/a\n0::/\n"
    mounts = "cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0\n"
    assert cgroup.memory_hierarchy(v1, mounts) == (Path("/sys/fs/cgroup/memory/jobs/a"), 1)
    (tmp_path / "cgroup.controllers").write_text("cpu io memory pids\n")
    v2_mounts = f"cgroup2 {tmp_path} cgroup2 rw 0 0\n"
    assert cgroup.memory_hierarchy("0::/user/b\n", v2_mounts) == (tmp_path / "user" / "b", 2)
    (tmp_path / "cgroup.controllers").write_text("cpu io\n")
    assert cgroup.memory_hierarchy("0::/user/b\n", v2_mounts) is None
    assert cgroup.memory_hierarchy("", "") is None


def test_a_group_of_its_own_keeps_the_peak_of_what_ran_in_it() -> None:
    group = cgroup.MemoryGroup.create(f"tiercheck-test-{id(object())}")
    if group is None:
        pytest.skip("no writable memory cgroup here")
    with group:
        script = (
            "import pathlib, sys\n"
            "block = bytearray(48 * 2**20)\n"
            "for i in range(0, len(block), 4096): block[i] = 1\n"
            "print(pathlib.Path('/proc/self/cgroup').read_text())\n"
        )
        done = subprocess.run(
            group.wrap([sys.executable, "-c", script]),
            capture_output=True,
            text=True,
            check=True,
        )
        assert group.path.name in done.stdout
        peak = group.peak_bytes()
        assert peak is not None
        assert peak >= 48 * 2**20
    assert not group.path.exists()
