"""Faults injected into real runs of the sample SDK: each ends in the right state, nothing leaks.

One test per fault of the runtime audit (issue 12, items 1-6). Every test runs the real
`tier-check` command as a subprocess against the real sample SDK and the real pinned harness,
injects its fault with a small wrapper of ours around the sample's own server or client, and
asserts three things: the state the scorecard records (measured again, or unmeasured with the
reason, never "failed" for what did not run), that the scorecard was written, and that no process
(found by the run's environment mark, or by a unique word on its command line), no served port
and no client slot directory remains afterwards.

The sample is built once per module in a copied checkout and assessed with `--skip-build`,
except where the fault is about the checkout and build themselves (item 3, a shared cache).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import psutil
import pytest

from support.e2e import (
    CHEAP,
    REPO,
    SAMPLE_BUILD,
    SNAPSHOT,
    Origin,
    Run,
    Session,
    assert_nothing_left,
    copy_sample,
    tier_check,
)
from support.procutil import MARK_ENV, assert_port_free, wait_for
from tiercheck.scorecard.render.json_format import validate_scorecard

pytestmark = pytest.mark.integration

# --- shared set-up --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(session: Session, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copied sample SDK, built once with its own build command."""
    sdk = copy_sample(tmp_path_factory.mktemp("faults-built") / "sample-sdk")
    subprocess.run(["sh", "-c", SAMPLE_BUILD], cwd=sdk, env=session.env(), check=True, timeout=900)
    return sdk


def assess_built(
    session: Session, sdk: Path, out: Path, *extra: str, timeout_s: float = 900.0
) -> Run:
    """`tier-check` on the prebuilt copy at one revision, governance and the advisory probes
    skipped (the faults here are the legs' and the processes'; the probes have tests of their
    own), JSON on stdout."""
    return tier_check(
        "--sdk",
        "sample-sdk",
        "--sdk-path",
        str(sdk),
        "--revision",
        CHEAP,
        "--skip-governance",
        "--skip-build",
        "--probes",
        "none",
        *extra,
        "--output",
        "json",
        "--out",
        str(out),
        env=session.env(),
        timeout_s=timeout_s,
    )


def script(path: Path, text: str) -> str:
    """Write a shell script; return the command that runs it."""
    path.write_text(text)
    return f"sh {shlex.quote(str(path))}"


def leg(doc: Mapping[str, Any], name: str) -> dict[str, Any]:
    entry: dict[str, Any] = doc["revisions"][CHEAP][name]
    return entry


def assert_written(run: Run) -> dict[str, Any]:
    """The scorecard exists, is valid, and is what stdout carried."""
    assert run.out_dir is not None
    assert (run.out_dir / "scorecard.json").is_file(), run.explain()
    doc = run.doc
    validate_scorecard(doc)
    assert json.loads(run.stdout) == doc
    return doc


def assert_no_slots(session: Session) -> None:
    """No client slot directory (and so no slot lock file) is left in the cache."""
    slots = session.cache / "slots"
    left = sorted(p.name for p in slots.iterdir()) if slots.is_dir() else []
    assert left == [], f"slot directories left behind: {left}"


def processes_with_word(word: str) -> list[psutil.Process]:
    """Live processes whose command line contains `word` (for daemons that drop our mark)."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.status() != psutil.STATUS_ZOMBIE and word in " ".join(proc.cmdline()):
                found.append(proc)
        except psutil.Error:
            continue
    return found


def assert_none_with_word(word: str, what: str) -> None:
    """No live process carries `word`; any that does is killed (by PID: ours) and fails the test."""
    if wait_for(lambda: not processes_with_word(word), timeout_s=10.0):
        return
    left = processes_with_word(word)
    for proc in left:
        proc.kill()
    pytest.fail(f"{what} outlived the run: {[p.pid for p in left]}")


def scenario_dirs(results: Path) -> list[str]:
    return sorted(p.parent.relative_to(results).as_posix() for p in results.rglob("checks.json"))


# --- 1. re-using --out -----------------------------------------------------------------------


@pytest.mark.slow  # two whole assessments, one after the other
def test_a_reused_out_is_measured_again_into_a_fresh_raw(
    session: Session, built: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    first = assess_built(session, built, out)
    assert first.returncode == 0, first.explain()
    first_dirs = {name: scenario_dirs(out / "raw" / CHEAP / name) for name in ("server", "client")}
    second = assess_built(session, built, out)
    assert second.returncode == 0, second.explain()
    doc = assert_written(second)
    for name in ("server", "client"):
        entry = leg(doc, name)
        assert entry["state"] == "measured", entry.get("reason")
        assert entry["failed"] == 0
        now = scenario_dirs(out / "raw" / CHEAP / name)
        # The raw folder holds this run's scenarios only: as many as before, none of the old ones.
        assert len(now) == len(first_dirs[name])
        assert not set(now) & set(first_dirs[name]), name
    assert_no_slots(session)


# --- 2. a server that dies during its leg ----------------------------------------------------


def test_a_server_that_dies_during_its_leg_makes_the_leg_unmeasured(
    session: Session, built: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    raw = out / "raw" / CHEAP / "server"
    # The server is killed once the harness has written its first scenario: during the leg.
    server = script(
        tmp_path / "dying-server.sh",
        f""".venv/bin/python server.py --port "$1" &
pid=$!
until find {shlex.quote(str(raw))} -name checks.json 2>/dev/null | grep -q .; do
  kill -0 "$pid" 2>/dev/null || exit 1
  sleep 0.05
done
kill -9 "$pid"
wait "$pid"
echo "injected: the server process was killed" >&2
exit 137
""",
    )
    run = assess_built(session, built, out, "--server-cmd", f"{server} {{port}}")
    assert run.returncode == 1, run.explain()
    doc = assert_written(run)
    entry = leg(doc, "server")
    assert entry["state"] == "unmeasured", entry
    assert "137" in entry["reason"], entry["reason"]
    assert "injected: the server process was killed" in entry["reason"], entry["reason"]
    assert leg(doc, "client")["state"] == "measured"
    assert any(u["what"] == f"server leg {CHEAP}" for u in doc["unmeasured"]), doc["unmeasured"]
    assert_no_slots(session)


# --- 2b. a server that stops answering behind a process that lives on (issue 23) -------------


def _count_until(raw: Path, n: int) -> str:
    """Shell: wait until the harness has written `n` scenario results under `raw`."""
    return (
        f'until [ "$(find {shlex.quote(str(raw))} -name checks.json 2>/dev/null | wc -l)" '
        f"-ge {n} ]; do sleep 0.05; done"
    )


def _scenarios(doc: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {d["scenario"]: d for d in leg(doc, "server")["details"]}


def test_a_server_dead_behind_a_wrapper_that_lives_on_makes_the_rest_unmeasured(
    session: Session, built: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    raw = out / "raw" / CHEAP / "server"
    # The wrapper (a supervisor that does not supervise) kills the real server once three
    # scenarios are written, and lives on: the process we started never exits.
    server = script(
        tmp_path / "wrapper.sh",
        f""".venv/bin/python server.py --port "$1" &
pid=$!
{_count_until(raw, 3)}
kill -9 "$pid"
echo "injected: the server behind the wrapper was killed" >&2
sleep 600
""",
    )
    run = assess_built(session, built, out, "--server-cmd", f"{server} {{port}}")
    assert run.returncode == 1, run.explain()
    doc = assert_written(run)
    entry = leg(doc, "server")
    assert entry["state"] == "unmeasured", entry
    assert "the server stopped answering MCP after" in entry["reason"], entry["reason"]
    assert "POST initialize (protocolVersion 2025-11-25)" in entry["reason"], entry["reason"]
    assert "answered again" not in entry["reason"]
    details = _scenarios(doc)
    unmeasured = [n for n, d in details.items() if "unmeasured" in d]
    passed = [n for n, d in details.items() if d["passed"]]
    failed = [n for n, d in details.items() if not d["passed"] and "unmeasured" not in d]
    # Three (or, when the kill lands late, a few more) passed before it; nothing failed; every
    # scenario from the first unanswered one on is unmeasured, with what was sent and seen.
    assert len(passed) >= 3, details
    assert failed == [], failed
    assert unmeasured, details
    for name in unmeasured:
        assert "did not answer after it failed: POST initialize" in details[name]["unmeasured"]
        assert name in entry["reason"]
    assert leg(doc, "client")["state"] == "measured"
    assert doc["implied_tier"]["tier"] is None or entry["state"] == "unmeasured"
    assert_none_with_word(str(tmp_path / "wrapper.sh"), "the wrapper")
    assert_no_slots(session)


def test_a_server_that_stops_answering_and_comes_back_names_the_scenarios_run_while_down(
    session: Session, built: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    raw = out / "raw" / CHEAP / "server"
    # A supervisor that restarts the server. The server is killed after three scenarios; while
    # it is down a stand-in holds the port, taking each connection and dropping it 0.3 s later
    # without an answer (a hung process behind a living socket), so the scenarios run while it
    # is down take time instead of failing in a blink; after five of them the stand-in goes and
    # a second server, imported ahead so it binds at once, answers on the same port.
    hold, stop_holding, serve = (tmp_path / w for w in ("hold", "stop-holding", "serve"))
    holder = tmp_path / "holder.py"
    holder.write_text(
        "import os, socket, sys, threading, time\n"
        f"while not os.path.exists({str(hold)!r}):\n"
        "    time.sleep(0.001)\n"
        "s = socket.socket()\n"
        "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
        "while True:  # the port frees the moment the server is killed\n"
        "    try:\n"
        "        s.bind(('127.0.0.1', int(sys.argv[1])))\n"
        "        break\n"
        "    except OSError:\n"
        "        time.sleep(0.001)\n"
        "s.listen(64)\n"
        "s.settimeout(0.02)\n"
        f"while not os.path.exists({str(stop_holding)!r}):\n"
        "    try:\n"
        "        c, _ = s.accept()\n"
        "    except TimeoutError:\n"
        "        continue\n"
        "    threading.Timer(0.3, c.close).start()\n"
        "s.close()\n"
        f"open({str(serve)!r}, 'w').close()\n"
    )
    standby = tmp_path / "standby.py"
    standby.write_text(
        "import os, sys, time\n"
        "sys.path.insert(0, os.getcwd())\n"
        "sys.argv = ['server.py', '--port', sys.argv[1]]\n"
        "import server\n"
        f"while not os.path.exists({str(serve)!r}):\n"
        "    time.sleep(0.01)\n"
        "server.main()\n"
    )
    server = script(
        tmp_path / "supervisor.sh",
        f""".venv/bin/python server.py --port "$1" &
pid=$!
.venv/bin/python {shlex.quote(str(standby))} "$1" &
second=$!
python3 {shlex.quote(str(holder))} "$1" &
{_count_until(raw, 3)}
touch {shlex.quote(str(hold))}
kill -9 "$pid"
wait "$pid" 2>/dev/null
{_count_until(raw, 8)}
echo "injected: restarted" >&2
touch {shlex.quote(str(stop_holding))}
wait "$second"
""",
    )
    run = assess_built(session, built, out, "--server-cmd", f"{server} {{port}}")
    assert run.returncode == 1, run.explain()
    doc = assert_written(run)
    entry = leg(doc, "server")
    assert entry["state"] == "unmeasured", entry
    assert "it answered again later" in entry["reason"], entry["reason"]
    details = _scenarios(doc)
    # In the order they ran: the harness names each folder after its start time.
    order = sorted(details, key=lambda n: (details[n].get("results_path") or "")[-24:])
    timeline = [(n, details[n]["passed"], "unmeasured" in details[n]) for n in order]
    down = [n for n in order if "unmeasured" in details[n]]
    assert len(down) >= 2, timeline
    assert "scenarios run while it was down: " + ", ".join(down) in entry["reason"]
    # After the restart the server answers again and its scenarios are measured passes.
    last_down = max(order.index(n) for n in down)
    assert any(details[n]["passed"] for n in order[last_down + 1 :]), timeline
    assert_none_with_word(str(tmp_path / "supervisor.sh"), "the supervisor")
    assert_no_slots(session)


# --- 2c. unreadable harness output (issue 23) --------------------------------------------------

#: What a broken disk or a crashed writer leaves as a scenario's checks.json, one of each: the
#: shell command that writes the bytes, and the words the scenario's reason must hold.
BROKEN_OUTPUT = {
    "truncated": ("""printf '[{"id": "a", "status": "SUCC'""", "not JSON"),
    "not-json": ("printf '<html>oops</html>'", "not JSON"),
    "not-utf8": ("""printf '[{"id": "caf\\351", "status": "SUCCESS"}]'""", "not UTF-8"),
    "wrong-shape": ("""printf '{"checks": []}'""", "expected a JSON array of checks"),
    "deep": ("head -c 5000 /dev/zero | tr '\\0' '['", "nested deeper than"),
}


def test_unreadable_checks_json_in_a_real_leg_makes_those_scenarios_unmeasured(
    session: Session, built: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    raw = out / "raw" / CHEAP / "server"
    # The server runs untouched; once six scenarios are written, the first five checks.json
    # files are overwritten, one per kind of breakage, before the harness has finished.
    writes = "\n".join(
        f'{command} > "$(sed -n {i + 1}p "$list")"'
        for i, (command, _) in enumerate(BROKEN_OUTPUT.values())
    )
    server = script(
        tmp_path / "breaker.sh",
        f""".venv/bin/python server.py --port "$1" &
pid=$!
{_count_until(raw, 6)}
list=$(mktemp)
find {shlex.quote(str(raw))} -name checks.json | sort > "$list"
{writes}
rm -f "$list"
wait "$pid"
""",
    )
    run = assess_built(session, built, out, "--server-cmd", f"{server} {{port}}")
    assert run.returncode == 1, run.explain()
    doc = assert_written(run)
    entry = leg(doc, "server")
    assert entry["state"] == "unmeasured", entry
    assert "5 scored scenario(s) not measured" in entry["reason"], entry["reason"]
    details = _scenarios(doc)
    unmeasured = {n: d["unmeasured"] for n, d in details.items() if "unmeasured" in d}
    assert len(unmeasured) == 5, unmeasured
    words = sorted(w for _, w in BROKEN_OUTPUT.values())
    seen = sorted(next(w for w in words if w in why) for why in unmeasured.values())
    assert seen == words, unmeasured
    # Nothing was failed for it: every other scored scenario is the SDK's own pass.
    scored = [d for n, d in details.items() if n not in unmeasured and "notScoredReason" not in d]
    assert all(d["passed"] for d in scored), details
    assert entry["failed"] == 0
    assert_no_slots(session)


# --- 3. two runs sharing a cache -------------------------------------------------------------


def start_tier_check(
    *args: str, env: Mapping[str, str], log: Path
) -> tuple[subprocess.Popen[str], str]:
    mark = uuid.uuid4().hex
    with log.open("w") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tiercheck", *args],
            cwd=REPO,
            env={**env, MARK_ENV: mark},
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
    return proc, mark


@pytest.mark.slow  # two whole assessments with fresh builds, racing for one cache
def test_two_runs_sharing_a_cache_never_share_a_working_tree(
    session: Session, origin: Origin, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "harness").symlink_to(session.cache / "harness")
    env = {**session.env(), "TIERCHECK_CACHE": str(cache)}

    def args(tag: str, out: Path, build: str) -> list[str]:
        return [
            "--sdk",
            f"sample-sdk@{tag}",
            "--git-url",
            origin.url,
            "--revision",
            CHEAP,
            "--governance-snapshot",
            str(SNAPSHOT),
            "--build-cmd",
            build,
            "--output",
            "json",
            "--out",
            str(out),
        ]

    out_a, out_b = tmp_path / "a", tmp_path / "b"
    # A is slow to build, so B arrives while A's build is under way.
    slow = f"sleep 8 && {SAMPLE_BUILD}"
    a, mark_a = start_tier_check(*args("v1.0.0", out_a, slow), env=env, log=tmp_path / "a.err")
    b: subprocess.Popen[str] | None = None
    mark_b = ""
    try:
        building = wait_for(
            lambda: (out_a / "logs" / "build.log").is_file() or a.poll() is not None,
            timeout_s=300.0,
            interval_s=0.1,
        )
        why = (tmp_path / "a.err").read_text()[-3000:]
        assert building, why
        assert a.poll() is None, why
        b, mark_b = start_tier_check(
            *args("v1.0.1", out_b, SAMPLE_BUILD), env=env, log=tmp_path / "b.err"
        )
        a.communicate(timeout=900)
        b.communicate(timeout=900)
    finally:
        for proc in (a, b):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
    assert_nothing_left(mark_a, out_a)
    assert_nothing_left(mark_b, out_b)
    assert a.returncode == 0, (tmp_path / "a.err").read_text()[-3000:]
    assert b.returncode == 1, (tmp_path / "b.err").read_text()[-3000:]
    doc_a = json.loads((out_a / "scorecard.json").read_text())
    doc_b = json.loads((out_b / "scorecard.json").read_text())
    assert doc_a["sdk"]["commit"] == origin.v1
    assert doc_b["sdk"]["commit"] == origin.broken
    for doc in (doc_a, doc_b):
        assert doc["build"]["state"] == "built", doc["build"]
        for name in ("server", "client"):
            assert leg(doc, name)["state"] == "measured", leg(doc, name).get("reason")

    def simple_text(doc: Mapping[str, Any]) -> bool:
        details = leg(doc, "server")["details"]
        return next(bool(d["passed"]) for d in details if d["scenario"] == "tools-call-simple-text")

    # Each run measured the commit it reports: A's tree was not switched to B's commit under it.
    assert simple_text(doc_a) is True
    assert simple_text(doc_b) is False
    assert leg(doc_a, "server")["failed"] == 0
    assert leg(doc_b, "server")["failed"] == 1


# --- 4. a port race ----------------------------------------------------------------------------


def test_a_port_taken_before_the_server_binds_is_retried_on_a_fresh_port(
    session: Session, built: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    squatted = tmp_path / "squatted-port"
    # On the first start only, another process takes the port between tiercheck's check and the
    # server's bind: the server then fails with EADDRINUSE, as in a real race.
    server = script(
        tmp_path / "raced-server.sh",
        f"""if [ ! -e {shlex.quote(str(squatted))} ]; then
  .venv/bin/python -c '
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen()
open(sys.argv[2], "w").write(sys.argv[1])
time.sleep(600)
' "$1" {shlex.quote(str(squatted))} &
  until [ -s {shlex.quote(str(squatted))} ]; do sleep 0.05; done
fi
exec .venv/bin/python server.py --port "$1"
""",
    )
    run = assess_built(session, built, out, "--server-cmd", f"{server} {{port}}")
    assert run.returncode == 0, run.explain()
    doc = assert_written(run)
    assert leg(doc, "server")["state"] == "measured", leg(doc, "server").get("reason")
    assert leg(doc, "server")["failed"] == 0
    lost = int(squatted.read_text())
    served = doc["revisions"][CHEAP]["server_url"]
    assert f":{lost}/" not in served, served
    assert_port_free(lost)
    assert_no_slots(session)


# --- 5. a client that ignores SIGTERM ------------------------------------------------------------


def test_a_client_that_traps_sigterm_is_stopped_at_its_limit_with_its_whole_group(
    session: Session, built: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    word = f"trapper-{uuid.uuid4().hex}"
    # For one scenario the client's shell runs a grandchild that ignores SIGTERM and never ends;
    # the shell itself dies of SIGTERM, which is what let `timeout` exit without its SIGKILL.
    client = script(
        tmp_path / "trapping-client.sh",
        f"""if [ "$MCP_CONFORMANCE_SCENARIO" = initialize ]; then
  .venv/bin/python -c '
import signal, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
time.sleep(600)
' {word}
  exit $?
fi
exec .venv/bin/python client.py "$@"
""",
    )
    # The default per-scenario limit (30 s): a shorter one would also cut off the real
    # clients, which start slowly on a loaded machine.
    run = assess_built(session, built, out, "--client-cmd", client, timeout_s=600.0)
    doc = assert_written(run)
    assert_none_with_word(word, "the SIGTERM-trapping client")
    entry = leg(doc, "client")
    assert entry["state"] == "measured", entry.get("reason")
    failing = {d["scenario"] for d in entry["details"] if not d["passed"]}
    # The client that never answered failed its scenario, the only scored one to fail; every
    # other scenario was measured as usual.
    assert "initialize" in failing, failing
    assert entry["failed"] == 1, failing
    assert leg(doc, "server")["state"] == "measured"
    assert run.returncode == 1, run.explain()
    assert_no_slots(session)


# --- 6. a server that double-forks a daemon -----------------------------------------------------


def test_a_daemon_double_forked_by_the_server_is_found_and_stopped(
    session: Session, built: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    word = f"777.{uuid.uuid4().int % 10**9:09d}"
    # Two daemons: one keeps our environment (and so the run's mark), the other starts from an
    # empty environment, so only its command line (a unique sleep) can find it.
    server = (
        f"(setsid sleep {word} &); (setsid env -i sleep {word} &); "
        "exec .venv/bin/python server.py --port {port}"
    )
    run = assess_built(session, built, out, "--server-cmd", server)
    assert run.returncode == 0, run.explain()
    doc = assert_written(run)
    for name in ("server", "client"):
        assert leg(doc, name)["state"] == "measured", leg(doc, name).get("reason")
    assert_none_with_word(word, "the double-forked daemon")
    assert_no_slots(session)
