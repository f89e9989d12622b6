"""The real pinned harness: provisioning, requirement-set drift, and both legs at both revisions.

Runs by default (marked `integration` so it can be deselected with `-m "not integration"`).
The harness is provisioned once per session into a temporary cache, or into `TIERCHECK_CACHE`
when set so that repeated runs reuse it. The legs run against `examples/sample-sdk` (a real MCP
server and client on PyPI `mcp`) when its virtualenv can import `mcp`; otherwise against a
stdlib stand-in that answers every request with an error (`TIERCHECK_TEST_STANDIN=1` forces
it), which still measures real harness output. Either way the test recomputes every number
from the raw checks.json files with the official rule and demands that the scorer agrees.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import socket
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tiercheck import process
from tiercheck.config.requirements import RequirementSet, load_requirement_set
from tiercheck.config.yamlio import load_yaml
from tiercheck.conformance.harness import PINNED_VERSION, Harness, _prepare, provision
from tiercheck.conformance.legs import (
    LOG_NAME,
    LegRun,
    run_client_leg,
    run_server_leg,
)
from tiercheck.errors import ProcessError, ToolMissingError
from tiercheck.paths import data_path
from tiercheck.pipeline.assess.verdict import score_leg_run
from tiercheck.revisions import Leg, known_revisions
from tiercheck.scoring import LegVerdict

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "examples" / "sample-sdk"

_STANDIN_SERVER = textwrap.dedent('''
    """Answers every JSON-RPC request with "method not found"; GET gets 405."""
    import json, sys
    from http.server import BaseHTTPRequestHandler, HTTPServer

    class H(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            try:
                rid = json.loads(body).get("id")
            except Exception:
                rid = None
            data = json.dumps({"jsonrpc": "2.0", "id": rid,
                               "error": {"code": -32601, "message": "not implemented"}}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        def do_GET(self):
            self.send_response(405); self.send_header("content-length", "0"); self.end_headers()
        def log_message(self, *args):
            pass

    HTTPServer(("127.0.0.1", int(sys.argv[sys.argv.index("--port") + 1])), H).serve_forever()
''')


@dataclass(frozen=True)
class Sdk:
    """How to start the SDK under test's server and client."""

    name: str
    cwd: Path
    server: tuple[str, ...]
    client: str


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    explicit = os.environ.get("TIERCHECK_CACHE")
    return Path(explicit) if explicit else tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="session")
def harness(cache_dir: Path) -> Harness:
    return provision(cache_dir)


@pytest.fixture(scope="session")
def sdk(tmp_path_factory: pytest.TempPathFactory) -> Sdk:
    python = SAMPLE / ".venv" / "bin" / "python"
    wanted = not os.environ.get("TIERCHECK_TEST_STANDIN")  # force the stand-in to test it
    if wanted and (SAMPLE / "server.py").is_file() and python.exists():
        probe = process.capture([str(python), "-c", "import mcp"], cwd=SAMPLE, timeout_s=60)
        if probe.returncode == 0:
            client = f"{shlex.quote(str(python))} {shlex.quote(str(SAMPLE / 'client.py'))}"
            return Sdk("sample-sdk", SAMPLE, (str(python), str(SAMPLE / "server.py")), client)
    where = tmp_path_factory.mktemp("standin")
    (where / "server.py").write_text(_STANDIN_SERVER)
    client = f"{shlex.quote(sys.executable)} -c pass"
    return Sdk("stdlib stand-in", where, (sys.executable, str(where / "server.py")), client)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_listening(port: int, child: process.Child, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert child.poll() is None, f"server exited early:\n{process.tail(child.log_path)}"
        with socket.socket() as sock:
            sock.settimeout(0.5)
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    pytest.fail(f"server not listening on {port}:\n{process.tail(child.log_path)}")


@pytest.fixture
def server_url(sdk: Sdk, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    revision: str = request.param
    port = _free_port()
    argv = [*sdk.server, "--port", str(port), "--revision", revision]
    with process.running(
        argv, cwd=sdk.cwd, env=process.sdk_environment(), log_path=tmp_path / "server.log"
    ) as child:
        _wait_listening(port, child)
        yield f"http://127.0.0.1:{port}/mcp"


# --- the independent recomputation --------------------------------------------------------


@dataclass(frozen=True)
class Raw:
    passed: bool
    successes: int
    failures: int


def _raw_scenarios(results_dir: Path, leg: Leg) -> dict[str, Raw]:
    """Every checks.json under the dir, scored with the official rule, by scenario name."""
    out: dict[str, Raw] = {}
    for path in results_dir.rglob("checks.json"):
        name = re.sub(
            r"-\d{4}-\d{2}-\d{2}T[\d-]+Z$", "", path.parent.relative_to(results_dir).as_posix()
        )
        if leg == "server":
            name = re.sub(r"^server-", "", name)
        try:
            statuses = [c["status"] for c in json.loads(path.read_text())]
        except (ValueError, KeyError, TypeError):
            out[name] = Raw(False, 0, 1)
            continue
        ok, bad = statuses.count("SUCCESS"), statuses.count("FAILURE")
        out[name] = Raw(ok > 0 and bad == 0, ok, bad)
    return out


MEASURED: dict[str, str] = {}


def _threw(results_dir: Path, leg: Leg) -> set[str]:
    """Scenarios whose folder holds no checks.json (the harness's scenario code threw)."""
    out = set()
    for folder in results_dir.rglob("*"):
        relative = folder.relative_to(results_dir).as_posix()
        stamped = re.search(r"-\d{4}-\d{2}-\d{2}T[\d-]+Z$", relative)
        if folder.is_dir() and stamped and not (folder / "checks.json").is_file():
            name = re.sub(r"-\d{4}-\d{2}-\d{2}T[\d-]+Z$", "", relative)
            out.add(re.sub(r"^server-", "", name) if leg == "server" else name)
    return out


def _assert_agrees(run: LegRun, verdict: LegVerdict, rset: RequirementSet, sdk: Sdk) -> None:
    raw = _raw_scenarios(run.results_dir, run.leg)
    # After a harness that exited non-zero, a folder without checks.json is a scenario the
    # harness did not finish: unmeasured here (issue 23), where the harness counts a failure.
    threw = _threw(run.results_dir, run.leg) if run.returncode != 0 else set()
    scored = [n for n in rset.scored(run.leg) if n not in threw]
    expected_state = "unmeasured" if len(scored) < len(rset.scored(run.leg)) else "measured"
    assert verdict.state == expected_state, verdict.reason
    missing = Raw(False, 0, 0)
    expected_passed = sum(raw.get(n, missing).passed for n in scored)
    assert (verdict.passed, verdict.total) == (expected_passed, len(scored))
    assert verdict.failed == len(scored) - expected_passed
    assert verdict.pass_rate == pytest.approx(expected_passed / len(scored))
    unscored = [n for n in rset.not_scored_on(run.leg) if n not in threw]
    assert verdict.not_scored_total == len(unscored)
    assert verdict.not_scored_failed == sum(not raw.get(n, missing).passed for n in unscored)
    for detail in verdict.details:
        if detail.scenario in threw:
            assert (detail.unmeasured or "").startswith("no checks.json: the harness exited")
            continue
        r = raw.get(detail.scenario, missing)
        assert (detail.passed, detail.checks_passed, detail.checks_failed) == (
            r.passed,
            r.successes,
            r.failures,
        ), detail.scenario
    # The harness's own verdict: under --requirements it exits 1 iff a scored scenario FAILED.
    scored_failure = any(raw.get(n, missing).failures for n in rset.scored(run.leg))
    assert (run.returncode != 0) == scored_failure, process.tail(run.log_path)
    assert run.log_path.name == LOG_NAME
    assert run.log_path.is_file()
    MEASURED[f"{run.leg} {run.revision}"] = (
        f"{sdk.name}: {verdict.passed}/{verdict.total} scored passed, not scored "
        f"{verdict.not_scored_total - verdict.not_scored_failed}/{verdict.not_scored_total}, "
        f"checks {verdict.checks_passed} ok / {verdict.checks_failed} failed / "
        f"{verdict.warnings} warnings, {run.duration_s:.1f} s"
    )
    print(f"\n[{run.leg} {run.revision}] {MEASURED[f'{run.leg} {run.revision}']}")


# --- provisioning --------------------------------------------------------------------------


def test_provisioned_harness_is_the_pinned_one(harness: Harness) -> None:
    assert harness.version == PINNED_VERSION
    assert harness.node_version.startswith("v22."), harness.node_version
    assert harness.cli_js.is_file()


def test_reprovisioning_reuses_the_install_without_npm(
    harness: Harness, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", "")  # no npm, no node: only a complete install can succeed
    assert provision(cache_dir) == harness


def test_no_npm_is_a_one_line_tool_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "")
    with pytest.raises(ToolMissingError, match=r"npm is not on PATH; install Node\.js") as info:
        provision(tmp_path)
    assert "\n" not in info.value.message


# --- requirement sets ----------------------------------------------------------------------


def _requirement_view(path: Path) -> dict[str, object]:
    data = load_yaml(path)
    assert isinstance(data, dict), path
    return {
        "server": set(data.get("server") or ()),
        "client": set(data.get("client") or ()),
        "not_scored": {
            (e["scenario"], e["leg"]): e["reason"] for e in data.get("not_scored") or ()
        },
    }


@pytest.mark.parametrize("revision", known_revisions())
def test_requirement_sets_match_the_harness(harness: Harness, revision: str) -> None:
    ours = _requirement_view(data_path("requirements", f"{revision}.yaml"))
    theirs = _requirement_view(harness.requirements_file(revision))
    problems = []
    for leg in ("server", "client"):
        a, b = ours[leg], theirs[leg]
        assert isinstance(a, set)
        assert isinstance(b, set)
        if a - b:
            problems.append(f"{leg} scored only in ours: {sorted(a - b)}")
        if b - a:
            problems.append(f"{leg} scored only in the harness: {sorted(b - a)}")
    a_ns, b_ns = ours["not_scored"], theirs["not_scored"]
    assert isinstance(a_ns, dict)
    assert isinstance(b_ns, dict)
    for key in sorted(set(a_ns) | set(b_ns)):
        if a_ns.get(key) != b_ns.get(key):
            problems.append(
                f"not_scored {key[0]} ({key[1]}): ours {a_ns.get(key)}, harness {b_ns.get(key)}"
            )
    assert not problems, f"requirements/{revision}.yaml drifted from the harness: " + "; ".join(
        problems
    )


# --- legs ----------------------------------------------------------------------------------


def test_a_harness_that_writes_nothing_is_unmeasured(harness: Harness, tmp_path: Path) -> None:
    # An unknown revision makes the real harness exit 1 before running any scenario.
    run = run_server_leg(
        harness,
        url="http://127.0.0.1:9/mcp",
        revision="2099-01-01",
        results_dir=tmp_path / "raw",
        cwd=tmp_path,
    )
    verdict = score_leg_run(run, load_requirement_set("2026-07-28"))
    assert verdict.state == "unmeasured"
    assert verdict.total == 0
    assert "exited 1 without writing results" in (verdict.reason or "")
    assert "Unknown spec revision" in (verdict.reason or "")


@pytest.mark.parametrize("server_url", known_revisions(), indirect=True)
def test_server_leg_scores_match_the_harness(
    harness: Harness, sdk: Sdk, server_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    revision = request.node.callspec.params["server_url"]
    run = run_server_leg(
        harness, url=server_url, revision=revision, results_dir=tmp_path / "raw", cwd=sdk.cwd
    )
    rset = load_requirement_set(revision)
    _assert_agrees(run, score_leg_run(run, rset), rset, sdk)


@pytest.mark.parametrize("revision", known_revisions())
def test_client_leg_scores_match_the_harness(
    harness: Harness, sdk: Sdk, revision: str, tmp_path: Path
) -> None:
    run = run_client_leg(
        harness, command=sdk.client, revision=revision, results_dir=tmp_path / "raw", cwd=sdk.cwd
    )
    rset = load_requirement_set(revision)
    _assert_agrees(run, score_leg_run(run, rset), rset, sdk)


def test_client_leg_gets_the_scrubbed_environment(
    harness: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The harness runs the SDK's client, so our secrets must not reach either of them.
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_not_for_the_sdk")
    seen = tmp_path / "seen"
    seen.mkdir()
    spy = tmp_path / "spy.py"
    spy.write_text(
        "import json, os, sys, uuid\n"
        f"path = os.path.join({str(seen)!r}, uuid.uuid4().hex + '.json')\n"
        "open(path, 'w').write(json.dumps({'env': dict(os.environ), 'argv': sys.argv[1:]}))\n"
    )
    run = run_client_leg(
        harness,
        command=f"{shlex.quote(sys.executable)} {shlex.quote(str(spy))}",
        revision="2025-11-25",
        results_dir=tmp_path / "raw",
        cwd=tmp_path,
        env={"SDK_SETTING": "from-config"},
    )
    records = [json.loads(p.read_text()) for p in seen.iterdir()]
    assert records, process.tail(run.log_path)
    for record in records:
        assert "GITHUB_TOKEN" not in record["env"]
        assert record["env"]["SDK_SETTING"] == "from-config"
        assert record["env"]["MCP_CONFORMANCE_SCENARIO"]
        assert record["argv"][-1].startswith("http://")
    verdict = score_leg_run(run, load_requirement_set("2025-11-25"))
    assert verdict.state == "measured"


def test_a_leg_refuses_a_results_dir_with_old_results(harness: Harness, tmp_path: Path) -> None:
    (tmp_path / "raw" / "old-2026-01-01T00-00-00-000Z").mkdir(parents=True)
    with pytest.raises(ProcessError, match="is not empty"):
        run_server_leg(
            harness,
            url="http://127.0.0.1:9/mcp",
            revision="2026-07-28",
            results_dir=tmp_path / "raw",
            cwd=tmp_path,
        )


def test_another_harness_version_is_installed_without_the_lock(tmp_path: Path) -> None:
    staging = tmp_path / "staging"
    args = _prepare(staging, "0.2.0-alpha.11")
    assert args[0] == "install"
    assert not (staging / "package-lock.json").exists()
    manifest = json.loads((staging / "package.json").read_text())
    assert manifest["dependencies"]["@modelcontextprotocol/conformance"] == "0.2.0-alpha.11"
    assert manifest["dependencies"]["node"]  # still brings its own Node 22
    pinned = tmp_path / "pinned"
    assert _prepare(pinned, PINNED_VERSION)[0] == "ci"
    assert (pinned / "package-lock.json").is_file()
