"""bench/compare.py: the deterministic parts (tree sampling, verdicts, ratios, the table).

Nothing here is timed: the sampler is checked against a small process tree the test spawns and
waits for, the verdict comparison against checks.json files the test writes.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import psutil
import pytest

BENCH = Path(__file__).resolve().parents[3] / "bench" / "compare.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_compare", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_compare"] = module
    spec.loader.exec_module(module)
    return module


# --- the process-tree sampler --------------------------------------------------------------

_TREE = """
import os, subprocess, sys, time
ready = sys.argv[1]
kids = [
    subprocess.Popen([sys.executable, "-c", CHILD, f"{ready}.{i}"]) for i in range(2)
]
for kid in kids:
    kid.wait()
"""

_CHILD = """
import sys, time
block = bytearray(32 * 1024 * 1024)
for i in range(0, len(block), 4096):
    block[i] = 1
open(sys.argv[1], "w").close()
time.sleep(60)
"""


def _wait_for(paths: list[Path], timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not all(p.exists() for p in paths):
        assert time.monotonic() < deadline, "the test tree did not start"
        time.sleep(0.05)


def test_sampler_sums_rss_over_the_whole_tree(bench: ModuleType, tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    script = f"CHILD = {_CHILD!r}\n{_TREE}"
    root = subprocess.Popen([sys.executable, "-c", script, str(ready)], start_new_session=True)
    try:
        _wait_for([Path(f"{ready}.0"), Path(f"{ready}.1")])
        sampler = bench.TreeSampler(root.pid, include_root=True)
        sampler.sample_once()
        # root + two children, each child holding 32 MiB it has touched.
        assert sampler.peak.processes == 3
        assert sampler.peak.rss_bytes >= 64 * 2**20
        assert sampler.peak.samples == 1
        # PSS is read at the first sample; each child's 32 MiB is its own.
        assert sampler.peak.pss_samples == 1
        assert 64 * 2**20 <= sampler.peak.pss_bytes <= sampler.peak.rss_bytes
        assert sum(sampler.peak.pss_kinds.values()) == sampler.peak.pss_bytes
        without_root = bench.TreeSampler(root.pid, include_root=False)
        without_root.sample_once()
        assert without_root.peak.processes == 2
        assert without_root.peak.rss_bytes < sampler.peak.rss_bytes
    finally:
        os.killpg(root.pid, signal.SIGKILL)
        root.wait()


def test_sampler_keeps_peaks_and_survives_a_vanished_root(
    bench: ModuleType, tmp_path: Path
) -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    sampler = bench.TreeSampler(child.pid, include_root=True)
    sampler.sample_once()
    first = sampler.peak.rss_bytes
    child.wait()
    sampler.sample_once()  # the process is gone: no exception, peaks kept
    assert sampler.peak.rss_bytes == first
    assert sampler.peak.samples == 2


def test_sampler_thread_reads_the_watched_process_cpu(bench: ModuleType) -> None:
    busy = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import time\nt = time.process_time()\n"
            "while time.process_time() - t < 0.3: pass\ntime.sleep(5)",
        ]
    )
    try:
        with bench.TreeSampler(os.getpid(), include_root=False, interval=0.02) as sampler:
            sampler.watch = bench.psutil.Process(busy.pid)
            deadline = time.monotonic() + 10
            while (sampler.watch_cpu_s or 0) < 0.25 and time.monotonic() < deadline:
                time.sleep(0.05)
        assert sampler.watch_cpu_s is not None
        assert sampler.watch_cpu_s >= 0.25
        assert sampler.peak.processes >= 1
    finally:
        busy.kill()
        busy.wait()


# --- verdicts ------------------------------------------------------------------------------


def _checks(path: Path, *statuses: str) -> None:
    path.mkdir(parents=True, exist_ok=True)
    body: list[dict[str, Any]] = [
        {"id": f"c{i}", "name": f"c{i}", "status": s} for i, s in enumerate(statuses)
    ]
    (path / "checks.json").write_text(json.dumps(body), encoding="utf-8")


def _write_side(root: Path, *, tools_call: str = "SUCCESS") -> None:
    stamp = "2026-11-30T06-36-55-475Z"
    server = root / "2025-11-25" / "server"
    _checks(server / f"server-ping-{stamp}", "SUCCESS", "INFO")
    _checks(server / f"server-tools-list-{stamp}", "SUCCESS", "WARNING")
    _checks(server / f"server-logging-set-level-{stamp}", "SUCCESS", "FAILURE")
    client = root / "2025-11-25" / "client"
    _checks(client / f"tools_call-{stamp}", tools_call)
    _checks(client / "auth" / f"metadata-var2-{stamp}", "SUCCESS")
    _checks(client / f"initialize-{stamp}", "INFO")  # no SUCCESS: failed


def test_verdicts_strip_timestamps_prefixes_and_keep_nested_names(
    bench: ModuleType, tmp_path: Path
) -> None:
    _write_side(tmp_path)
    server = bench.scenario_verdicts(tmp_path / "2025-11-25" / "server", "server")
    client = bench.scenario_verdicts(tmp_path / "2025-11-25" / "client", "client")
    assert server == {"ping": True, "tools-list": True, "logging-set-level": False}
    assert client == {"tools_call": True, "auth/metadata-var2": True, "initialize": False}
    assert bench.scenario_verdicts(tmp_path / "absent", "client") == {}


def test_identical_sides_compare_equal(bench: ModuleType, tmp_path: Path) -> None:
    legs = ["2025-11-25/server", "2025-11-25/client"]
    for side in ("a", "b"):
        _write_side(tmp_path / side)
    a = {k: bench.scenario_verdicts(tmp_path / "a" / k, k.split("/")[1]) for k in legs}
    b = {k: bench.scenario_verdicts(tmp_path / "b" / k, k.split("/")[1]) for k in legs}
    result = bench.compare_verdicts(a, b)
    assert result == {"identical": True, "scenarios": 6, "differences": []}


def test_a_changed_or_missing_scenario_is_a_difference(bench: ModuleType, tmp_path: Path) -> None:
    legs = ["2025-11-25/server", "2025-11-25/client"]
    _write_side(tmp_path / "a")
    _write_side(tmp_path / "b", tools_call="FAILURE")
    (tmp_path / "b" / "2025-11-25" / "server").joinpath(
        "server-ping-2026-11-30T06-36-55-475Z", "checks.json"
    ).unlink()
    a = {k: bench.scenario_verdicts(tmp_path / "a" / k, k.split("/")[1]) for k in legs}
    b = {k: bench.scenario_verdicts(tmp_path / "b" / k, k.split("/")[1]) for k in legs}
    result = bench.compare_verdicts(a, b)
    assert not result["identical"]
    assert result["differences"] == [
        "2025-11-25/client tools_call: A=pass B=fail",
        "2025-11-25/server ping: A=pass B=missing",
    ]


# --- medians, ratios, targets and the table ------------------------------------------------


def _sample(bench: ModuleType, side: str, wall: float, rss: float, own: float | None = None) -> Any:
    return bench.RunSample(
        side=side,
        index=0,
        wall_s=wall,
        cpu_s=wall * 1.5,
        peak_rss_mb=rss,
        peak_processes=10 if side == "A" else 40,
        samples=100,
        returncodes=[0],
        stragglers=0,
        mem_available_drop_mb=0.0,
        loadavg_before=0.0,
        own_cpu_s=own,
        peak_pss_mb=rss / 2,
        cgroup_peak_mb=rss / 4 if side == "A" else rss / 2,
        breakdown={"cores": 2},
    )


def test_medians_ratios_and_targets(bench: ModuleType) -> None:
    samples = [
        _sample(bench, "A", 30.0, 500.0, 0.6),
        _sample(bench, "A", 34.0, 520.0, 0.7),
        _sample(bench, "A", 31.0, 510.0, 0.5),
        _sample(bench, "B", 40.0, 2000.0),
        _sample(bench, "B", 42.0, 2100.0),
        _sample(bench, "B", 41.0, 2050.0),
    ]
    medians = bench.summarize(samples)
    assert medians["A"]["wall_s"] == 31.0
    assert medians["A"]["own_cpu_s"] == 0.6
    assert medians["B"]["own_cpu_s"] is None
    rat = bench.ratios(medians)
    assert rat["wall"] == pytest.approx(31.0 / 41.0)
    assert rat["peak_rss"] == pytest.approx(510.0 / 2050.0)
    assert rat["peak_pss"] == pytest.approx(255.0 / 1025.0)
    assert rat["cgroup_peak"] == pytest.approx(127.5 / 1025.0)
    # wall ÷ (CPU ÷ cores): CPU is 1.5 × wall on 2 cores, so 2 / 1.5.
    assert medians["A"]["floor_ratio"] == pytest.approx(2 / 1.5)
    assert bench.meets("wall_ratio", 0.30) is True
    assert bench.meets("wall_ratio", 0.301) is False
    assert bench.meets("cgroup_peak_ratio", 0.15) is True
    assert bench.meets("floor_ratio", 1.31) is False
    assert bench.meets("own_cpu_s", 1.0) is False
    assert bench.meets("help_s", None) is None
    assert (bench.mark(True), bench.mark(False), bench.mark(None)) == ("✓", "✗", "–")
    assert bench.ratio(1.0, 0.0) is None


def test_table_shows_medians_ratios_and_marks(bench: ModuleType) -> None:
    samples = [_sample(bench, "A", 30.0, 700.0, 0.6), _sample(bench, "B", 40.0, 2000.0)]
    medians = bench.summarize(samples)
    result = {
        "runs": 1,
        "medians": medians,
        "ratios": bench.ratios(medians),
        "verdicts": {
            "identical": False,
            "scenarios": 2,
            "differences": ["2025/client x: A=pass B=fail"],
        },
        "help": {"median_s": 0.05},
        "warm": {
            "wall_s": 31.0,
            "build_state": "cached",
            "timings": {"build": 0.001, "harness": 0.0},
            "provisioned": False,
        },
    }
    table = bench.format_table(result)
    lines = table.splitlines()
    assert "A/B" in lines[0]
    assert "wall (s)" in lines[1]
    assert "30.0" in lines[1]
    assert "40.0" in lines[1]
    assert "0.75" in lines[1]
    assert lines[1].endswith("<= 0.30× ✗")
    rss = next(line for line in lines if line.startswith("peak summed RSS"))
    assert "0.35" in rss
    assert rss.endswith("✓")
    pss = next(line for line in lines if line.startswith("peak summed PSS"))
    assert pss.split()[-3:] == ["350", "1000", "0.35"]
    cgroup = next(line for line in lines if line.startswith("cgroup peak"))
    assert "0.17" in cgroup  # 175 / 1000
    assert cgroup.endswith("<= 0.15× ✗")
    assert "A wall ÷ its CPU floor           1.33   target ≤ 1.3 ✗" in lines
    assert "verdicts: DIFFER (1) over 2 scenario(s)" in table
    assert "  2025/client x: A=pass B=fail" in lines
    assert "target < 1 s ✓" in table
    assert "target < 0.3 s ✓" in table
    assert "build cached" in table


def test_official_steps_follow_the_official_order(bench: ModuleType, tmp_path: Path) -> None:
    revisions = [
        bench.Revision(
            name=name,
            server_command=".venv/bin/python server.py --port {port}",
            server_url="http://127.0.0.1:{port}/mcp",
            client_command=".venv/bin/python client.py",
            client_timeout_s=30.0,
            env={"X": "port={port}"},
            pass_env=[],
        )
        for name in ("2025-11-25", "2026-07-28")
    ]
    steps = bench.official_steps(
        revisions, harness_argv=["node", "cli.js"], sdk_path=tmp_path, out=tmp_path / "out"
    )
    modes = [
        (s.argv[s.argv.index("--requirements") + 1], s.argv[s.argv.index("--mode") + 1])
        for s in steps
    ]
    assert modes == [
        ("2025-11-25", "server"),
        ("2025-11-25", "client"),
        ("2026-07-28", "server"),
        ("2026-07-28", "client"),
    ]
    server = steps[0]
    port = server.env["PORT"]
    assert server.argv[server.argv.index("--server-cmd") + 1].endswith(f"--port {port}")
    assert server.argv[server.argv.index("--server-url") + 1] == f"http://127.0.0.1:{port}/mcp"
    assert server.env["X"] == f"port={port}"
    client = steps[1]
    assert client.argv[client.argv.index("--timeout") + 1] == "30000"
    assert client.argv[-2:] == ["-o", str(tmp_path / "out" / "2025-11-25" / "client")]
    assert "--skip-build" in client.argv


# --- CPU per process kind (bench/attribution.py) ----------------------------------------------


def _attribution() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bench_attribution", BENCH.with_name("attribution.py")
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_attribution"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


NODE = ["/cache/node/bin/node", "/cache/harness/node_modules/@x/conformance/dist/index.js"]
TIER = ["/v/bin/python", "-c", "…from tiercheck.cli import main…"]


def test_classify_by_ancestry() -> None:
    attribution = _attribution()

    def kind(chain: list[list[str]], tiercheck: bool = True, leg: str | None = None) -> str:
        return str(attribution.classify(chain, tiercheck=tiercheck, leg=leg))

    slot = ["sh", "/cache/slots/x/slot.sh"]
    client = [".venv/bin/python", "client.py", "http://127.0.0.1:1/"]
    server = ["sh", "-c", ".venv/bin/python server.py"]
    # tiercheck's run: itself, its harness runs, the clients under them, its server.
    assert attribution.classify([TIER], tiercheck=True, leg=None, itself=True) == "tiercheck"
    assert kind([TIER, NODE]) == "harness"
    assert kind([TIER, NODE, slot, client]) == "sdk-clients"
    assert kind([TIER, server, server[2:]]) == "sdk-server"
    # Warm start: the zygote (the clients' imports) and each client forked from it.
    zygote = [".venv/bin/python", "/site/tiercheck/conformance/warm_zygote.py", "/t/s", "c.py"]
    assert kind([TIER, zygote]) == "sdk-clients"
    assert kind([TIER, zygote, zygote]) == "sdk-clients"
    assert kind([TIER, ["/v/bin/python", "warm_zygote.py.bak"]]) == "sdk-server"
    # tier-check's own entry unreadable (non-dumpable): its children still sort.
    assert kind([NODE, slot, client]) == "sdk-clients"
    assert kind([server[2:]]) == "sdk-server"
    # The official orchestration: what is not its harness is the server or the clients, by leg,
    # whether or not it still hangs below the harness.
    assert kind([NODE], tiercheck=False, leg="server") == "harness"
    assert kind([NODE, server], tiercheck=False, leg="server") == "sdk-server"
    assert kind([NODE, client], tiercheck=False, leg="client") == "sdk-clients"
    assert kind([client], tiercheck=False, leg="client") == "sdk-clients"
    assert kind([["git", "status"]], tiercheck=False) == "other"
    assert not attribution.is_harness(["/usr/bin/python", "conformance.py"])


def test_kind_ledger_keeps_each_process_once_at_its_last_sample() -> None:
    ledger = _attribution().KindLedger()
    ledger.note((10, 1.0), "sdk-clients", 0.5)
    ledger.note((10, 1.0), "sdk-clients", 0.75)  # the same process, later
    ledger.note((10, 2.0), "sdk-clients", 0.25)  # pid reused: another process
    ledger.note((11, 1.0), "harness", 1.0)
    # A client orphaned by its harness's exit is still a client.
    ledger.note((12, 1.0), "sdk-clients", 0.5)
    ledger.note((12, 1.0), "sdk-server", 0.5)
    totals = ledger.totals()
    assert totals["sdk-clients"] == 1.5
    assert totals["harness"] == 1.0
    assert totals["sdk-server"] == 0.0


# --- legs.py --load -----------------------------------------------------------------------------


def test_load_runs_busy_processes_beside_a_side_and_not_below_the_benchmark() -> None:
    spec = importlib.util.spec_from_file_location("bench_legs", BENCH.with_name("legs.py"))
    assert spec is not None
    assert spec.loader is not None
    legs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(legs)
    load = legs.Load(2)
    try:
        with load.beside():
            spinners = [psutil.Process(pid) for pid in load.pids]
            assert len(spinners) == 2
            began = [sum(p.cpu_times()[:2]) for p in spinners]
            time.sleep(0.5)
            assert all(sum(p.cpu_times()[:2]) > b for p, b in zip(spinners, began, strict=True))
            below = {p.pid for p in psutil.Process().children(recursive=True)}
            assert not below & set(load.pids)
        assert load.pids == ()
        assert not any(p.is_running() and p.status() != psutil.STATUS_ZOMBIE for p in spinners)
        with load.beside():  # the same again for the next side
            assert len(load.pids) == 2
            again = load.pids
    finally:
        load.close()
    left = []
    for pid in again:  # the end of the holder's input stops its spinners
        with contextlib.suppress(psutil.NoSuchProcess):
            left.append(psutil.Process(pid))
    _gone, alive = psutil.wait_procs(left, timeout=5)
    assert not alive
