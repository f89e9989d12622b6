"""Warm start: which commands qualify, and a forked client that behaves as the cold one.

The zygote and the launcher are the real programs, run by this interpreter against small client
scripts written here; each behaviour is compared with the same script started cold
(`python SCRIPT ARGS`, through `sh -c` as the harness starts a client).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.procutil import pid_gone, wait_for
from tiercheck.conformance import admission, warm
from tiercheck.conformance.admission import GroupSample
from tiercheck.conformance.warm import WarmPlan, warm_plan

# --- which commands qualify -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "plan"),
    [
        (
            ".venv/bin/python .github/actions/conformance/client.py",
            WarmPlan(".venv/bin/python", ".github/actions/conformance/client.py"),
        ),
        ("python3 client.py --verbose", WarmPlan("python3", "client.py", ("--verbose",))),
        ("/usr/bin/python3.12 c.py", WarmPlan("/usr/bin/python3.12", "c.py")),
        ("uv run python client.py", None),  # another program first
        ("python -u client.py", None),  # an interpreter option
        ("python -m mcp.client", None),  # a module, not a script
        ("python client.py && echo done", None),  # shell syntax
        ("python client.py $EXTRA", None),
        ("python 'my client.py'", None),
        ("node client.js", None),
        ("./target/debug/conformance-client", None),
        ("pythonista client.py", None),
        ("python", None),
    ],
)
def test_only_a_plain_python_script_run_is_warmed(command: str, plan: WarmPlan | None) -> None:
    assert warm_plan(command) == plan


# --- the real zygote and launcher --------------------------------------------------------------

CLIENT = """\
import atexit
import json
import os
import random
import sys
import threading
import time

print("body", flush=True)


def main():
    mode = os.environ.get("MODE", "ok")
    print(json.dumps({"argv": sys.argv, "cwd": os.getcwd(), "scenario": os.environ.get("SCENARIO"),
                      "name": __name__, "stdin": sys.stdin.read(), "random": random.random()}))
    sys.stderr.write("to stderr\\n")
    atexit.register(lambda: print("atexit ran"))
    if mode == "thread":
        threading.Thread(target=lambda: (time.sleep(0.2), print("thread done"))).start()
    elif mode == "code":
        sys.exit(3)
    elif mode == "message":
        sys.exit("a message")
    elif mode == "raise":
        raise ValueError("boom")
    elif mode == "signal":
        sys.stdout.flush()
        os.kill(os.getpid(), 15)
    elif mode == "frozen":
        import gc
        print("frozen", gc.get_freeze_count())
    elif mode == "wait":
        import signal
        signal.signal(signal.SIGTERM, lambda *_: (print("terminated", flush=True), sys.exit(7)))
        print("waiting", flush=True)
        time.sleep(60)


if __name__ == "__main__":
    main()
"""


@pytest.fixture(scope="module")
def sdk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sdk")
    (folder / "client.py").write_text(CLIENT, encoding="utf-8")
    return folder


@pytest.fixture
def zygote(sdk: Path, tmp_path: Path) -> Iterator[Path]:
    plan = WarmPlan(sys.executable, "client.py")
    log = tmp_path / "zygote.log"
    with warm.zygote(plan, cwd=sdk, env=dict(os.environ), log_path=log) as socket_path:
        assert socket_path is not None, log.read_text()
        yield socket_path


def _cold(args: str = "") -> str:
    return f"{sys.executable} client.py {args}"


def _warm(socket_path: Path, args: str = "", run_dir: Path | None = None) -> str:
    command = warm.launcher_command(
        WarmPlan(sys.executable, "client.py"), socket_path=socket_path, run_dir=run_dir
    )
    return f"{command} {args}"


def _run(command: str, cwd: Path, mode: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        shell=True,
        cwd=cwd,
        env={**os.environ, "MODE": mode, "SCENARIO": f"scenario-{mode}"},
        input="from the harness",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _same(out: str) -> str:
    """The output without the random number, which must differ between runs."""
    lines = []
    for line in out.splitlines():
        doc = json.loads(line) if line.startswith("{") else None
        if doc is not None:
            doc.pop("random")
        lines.append(line if doc is None else json.dumps(doc))
    return "\n".join(lines)


@pytest.mark.parametrize("mode", ["ok", "thread", "code", "message", "raise", "signal"])
def test_a_forked_client_behaves_as_the_cold_one(sdk: Path, zygote: Path, mode: str) -> None:
    cold = _run(_cold("http://127.0.0.1:9/mcp"), sdk, mode)
    forked = _run(_warm(zygote, "http://127.0.0.1:9/mcp"), sdk, mode)
    assert forked.returncode == cold.returncode
    assert _same(forked.stdout) == _same(cold.stdout)
    assert forked.stderr == cold.stderr
    # What the client saw, worked out by hand.
    assert '"argv": ["client.py", "http://127.0.0.1:9/mcp"]' in forked.stdout
    assert f'"scenario": "scenario-{mode}"' in forked.stdout
    assert '"stdin": "from the harness"' in forked.stdout
    assert '"name": "__main__"' in forked.stdout
    assert forked.stdout.startswith("body\n")  # the script's own top level runs every time
    expected = {
        "ok": 0,
        "thread": 0,
        "code": 3,
        "message": 1,
        "raise": 1,
        "signal": cold.returncode,
    }
    assert forked.returncode == expected[mode]


def test_every_client_draws_its_own_random_numbers(sdk: Path, zygote: Path) -> None:
    draws = set()
    for _ in range(3):
        out = _run(_warm(zygote), sdk, "ok").stdout
        draws.add(
            json.loads(next(line for line in out.splitlines() if line.startswith("{")))["random"]
        )
    assert len(draws) == 3


def _frozen(out: str) -> int:
    return int(next(line for line in out.splitlines() if line.startswith("frozen "))[7:])


def test_a_forked_client_starts_with_the_zygotes_imports_frozen(sdk: Path, zygote: Path) -> None:
    # Frozen objects are left out of every collection, so the child's collections never write
    # to the pages it shares with the zygote; a cold client has nothing frozen.
    assert _frozen(_run(_cold(), sdk, "frozen").stdout) == 0
    assert _frozen(_run(_warm(zygote), sdk, "frozen").stdout) > 1000


def _waiting_client(command: str, cwd: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        command,
        shell=True,
        cwd=cwd,
        env={**os.environ, "MODE": "wait"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.strip() == "waiting":
            break
    return proc


def test_a_signal_to_the_launcher_reaches_the_client(sdk: Path, zygote: Path) -> None:
    proc = _waiting_client(f"exec {_warm(zygote)}", sdk)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    assert out.strip().splitlines()[0] == "terminated"
    assert proc.returncode == 7


def test_a_killed_launcher_takes_its_client_with_it_and_its_registration_names_it(
    sdk: Path, zygote: Path, tmp_path: Path
) -> None:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    proc = _waiting_client(f"exec {_warm(zygote, run_dir=run_dir)}", sdk)
    assert wait_for(lambda: len(os.listdir(run_dir)) == 1, timeout_s=10)
    (name,) = os.listdir(run_dir)
    launcher_group, client = (int(part) for part in name.split("."))
    assert launcher_group == proc.pid  # the launcher's own group, as the slot wrapper makes it
    assert admission.registered(tmp_path) == {proc.pid: (proc.pid, client)}
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert wait_for(lambda: pid_gone(client), timeout_s=10)


def test_a_finished_client_leaves_no_registration(sdk: Path, zygote: Path, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    assert _run(_warm(zygote, run_dir=run_dir), sdk, "ok").returncode == 0
    assert os.listdir(run_dir) == []


def test_without_its_zygote_the_launcher_runs_the_command_cold(sdk: Path, tmp_path: Path) -> None:
    for mode in ("ok", "code", "raise"):
        cold = _run(_cold("x"), sdk, mode)
        launched = _run(_warm(tmp_path / "no.sock", "x"), sdk, mode)
        assert (launched.returncode, _same(launched.stdout), launched.stderr) == (
            cold.returncode,
            _same(cold.stdout),
            cold.stderr,
        )


def test_a_zygote_that_cannot_come_up_yields_none(sdk: Path, tmp_path: Path) -> None:
    (sdk / "threads.py").write_text("import threading, time\nimport spawner\n", encoding="utf-8")
    (sdk / "spawner.py").write_text(
        "import threading, time\n"
        "threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n",
        encoding="utf-8",
    )
    began = time.monotonic()
    plan = WarmPlan(sys.executable, "threads.py")
    log = tmp_path / "zygote.log"
    with warm.zygote(plan, cwd=sdk, env=dict(os.environ), log_path=log) as socket_path:
        assert socket_path is None
    assert "an import started a thread" in log.read_text()
    assert time.monotonic() - began < 10
    with warm.zygote(
        WarmPlan(sys.executable, "missing.py"), cwd=sdk, env=dict(os.environ), log_path=log
    ) as socket_path:
        assert socket_path is None


def test_a_forked_clients_cpu_counts_for_its_registration() -> None:
    clients = {10: (10, 20), 11: (11,), 12: (12, 30)}
    samples = {
        10: GroupSample(cpu_s=0.01, wait_s=0.0, age_s=2.0),
        20: GroupSample(cpu_s=0.5, wait_s=0.1, age_s=1.5),
        11: GroupSample(cpu_s=1.0, wait_s=0.0, age_s=1.0),
        30: GroupSample(cpu_s=0.3, wait_s=0.0, age_s=0.5),  # its launcher (12) is gone
    }
    merged = admission.merge_groups(clients, samples)
    assert merged == {
        10: GroupSample(cpu_s=pytest.approx(0.51), wait_s=pytest.approx(0.1), age_s=2.0),  # type: ignore[arg-type]
        11: GroupSample(cpu_s=1.0, wait_s=0.0, age_s=1.0),
    }


def test_a_signal_before_the_client_exists_reaches_it_once_it_does(
    sdk: Path, tmp_path: Path
) -> None:
    # A stand-in zygote that answers the client's pid only after the launcher was signalled:
    # the "client" is a sleep in a process group of its own.
    socket_path = tmp_path / "z.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(socket_path))
    listener.listen(1)
    signalled = threading.Event()
    asked = threading.Event()
    sleeper = subprocess.Popen(["sleep", "60"], start_new_session=True)

    def serve() -> None:
        conn, _ = listener.accept()
        conn.recv(1 << 20)
        asked.set()
        signalled.wait(30)
        conn.sendall(b'{"pid": %d}\n' % sleeper.pid)
        status = sleeper.wait(30)
        conn.sendall(b'{"status": %d}\n' % status)
        conn.close()

    server = threading.Thread(target=serve)
    server.start()
    try:
        launcher = subprocess.Popen(_warm(socket_path).split(), cwd=sdk, stdin=subprocess.DEVNULL)
        assert asked.wait(10)
        time.sleep(0.1)  # the launcher is waiting for the pid
        launcher.send_signal(signal.SIGTERM)
        time.sleep(0.2)
        assert launcher.poll() is None  # held, not fatal
        signalled.set()
        assert launcher.wait(timeout=30) == -signal.SIGTERM  # the client's fate, passed on
        assert sleeper.returncode == -signal.SIGTERM
    finally:
        signalled.set()
        if sleeper.poll() is None:
            sleeper.kill()
            sleeper.wait()
        server.join(timeout=30)
        listener.close()
