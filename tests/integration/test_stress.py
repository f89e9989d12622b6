"""Fifty back-to-back assessments of the sample SDK at one revision leave nothing behind.

Slow (about half a minute per assessment on two cores), so marked `slow` and left out of the
default run (`pytest -m slow tests/integration/test_stress.py` runs it; `STRESS_RUNS` changes
the count). One long-lived driver process, hardened as the `tier-check` command hardens itself,
runs the real command's `main` once per assessment, as a matrix would, and after each one
counts its own open file descriptors and threads and the processes below it. Afterwards no
process carrying the run's mark may be alive, no port a server used may still answer, the
driver's descriptors and threads may not have grown, no client slot directory and no temporary
file (the driver and its children have a TMPDIR of their own) may be left, and no leg may be
lost: every leg of every assessment is measured.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from support.e2e import CHEAP, REPO, SNAPSHOT, Origin, Session, assert_nothing_left

pytestmark = [pytest.mark.integration, pytest.mark.slow]

RUNS = int(os.environ.get("STRESS_RUNS", "50"))

DRIVER = r"""
import json, os, sys, threading
import psutil
from tiercheck import process
from tiercheck.cli import main

process.harden()
runs, out_root, report = int(sys.argv[1]), sys.argv[2], sys.argv[3]
argv = sys.argv[4:]
me = psutil.Process()
with open(report, "w") as log:
    for i in range(runs):
        out = os.path.join(out_root, f"run-{i:03d}")
        code = main([*argv, "--out", out])
        process.stop_adopted()
        alive = [p.pid for p in me.children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE]
        zombies = [p.pid for p in me.children(recursive=True) if p.status() == psutil.STATUS_ZOMBIE]
        log.write(json.dumps({
            "run": i, "code": code, "out": out, "fds": len(os.listdir("/proc/self/fd")),
            "threads": threading.active_count(), "alive": alive, "zombies": zombies,
        }) + "\n")
        log.flush()
"""


@pytest.mark.timeout(RUNS * 240 + 600)
def test_fifty_assessments_back_to_back_leave_nothing_and_lose_no_leg(
    session: Session, origin: Origin, tmp_path: Path
) -> None:
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    temp = tmp_path / "tmp"
    temp.mkdir()
    outs = tmp_path / "runs"
    report = tmp_path / "report.jsonl"
    mark = uuid.uuid4().hex
    from support.procutil import MARK_ENV

    env = {**session.env(), MARK_ENV: mark, "TMPDIR": str(temp)}
    argv = [
        "--sdk",
        "sample-sdk@v1.0.0",
        "--git-url",
        origin.url,
        "--revision",
        CHEAP,
        "--governance-snapshot",
        str(SNAPSHOT),
        "--output",
        "json",
    ]
    try:
        done = subprocess.run(
            [sys.executable, str(driver), str(RUNS), str(outs), str(report), *argv],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=RUNS * 240,
            check=False,
        )
    finally:
        assert_nothing_left(mark, None)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [json.loads(line) for line in report.read_text().splitlines()]
    assert len(rows) == RUNS

    lost = []
    ports = []
    for row in rows:
        doc = json.loads((Path(row["out"]) / "scorecard.json").read_text())
        for leg in ("server", "client"):
            entry = doc["revisions"][CHEAP][leg]
            if entry["state"] != "measured":
                lost.append((row["run"], leg, (entry.get("reason") or "")[:200]))
        url = doc["revisions"][CHEAP].get("server_url") or ""
        if url:
            ports.append(int(url.rsplit(":", 1)[1].split("/")[0]))
    answering = [p for p in ports if _answers(p)]
    slots = session.cache / "slots"
    left_slots = sorted(p.name for p in slots.iterdir()) if slots.is_dir() else []
    left_temp = sorted(str(p.relative_to(temp)) for p in temp.rglob("*"))
    figure = {
        "runs": RUNS,
        "exit_codes": sorted({row["code"] for row in rows}),
        "legs_lost": len(lost),
        "processes_left_after_a_run": sum(len(row["alive"]) for row in rows),
        "zombies_after_a_run": sum(len(row["zombies"]) for row in rows),
        "ports_still_answering": len(answering),
        "fds_first_last": (rows[0]["fds"], rows[-1]["fds"]),
        "threads_first_last": (rows[0]["threads"], rows[-1]["threads"]),
        "slot_dirs_left": len(left_slots),
        "temp_files_left": len(left_temp),
    }
    print("stress figure:", json.dumps(figure))
    assert lost == []
    assert figure["exit_codes"] == [0]
    assert figure["processes_left_after_a_run"] == 0
    assert figure["zombies_after_a_run"] == 0
    assert answering == []
    assert rows[-1]["fds"] <= rows[0]["fds"], figure
    assert rows[-1]["threads"] <= rows[0]["threads"], figure
    assert left_slots == []
    assert left_temp == [], left_temp[:20]


def _answers(port: int) -> bool:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0
