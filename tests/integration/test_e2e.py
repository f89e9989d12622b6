"""End to end: the real `tier-check` command on the real sample SDK, as a user runs it.

Every test runs `python -m tiercheck` as a subprocess against `examples/sample-sdk` (a real MCP
server and client on PyPI `mcp`): cloned from a local git repository or copied to a temporary
directory, built with its own build command, measured by the pinned harness. Governance is
skipped or replayed from the sample's recorded snapshot, so nothing but the package registries
(npm for the harness, PyPI for the sample's build) is reached.

A full assessment costs 35-60 s on two cores, so the runs are module-scoped fixtures shared by
the assertions that need them, and only the runs that need both spec revisions measure both:

* `clone_v1` — `--sdk sample-sdk@v1.0.0 --git-url file://…`, both revisions (clone path, recount
  from the raw checks.json files, JUnit, the reference for concurrency);
* `clone_v1_again` — the same commit at 2025-11-25 (build cache hit, no harness provisioning,
  the "old" side of the diff);
* `clone_v1_broken` — a later commit whose `test_simple_text` tool answers empty text, at
  2025-11-25 (the "new" side of the diff);
* `one_client_at_a_time` — v1.0.0 again with `--concurrency 1`, both revisions;
* `noisy_run` — a copied checkout whose build prints on both streams and whose server and client
  are wrapped to record their environment, with secrets in tier-check's environment, at
  2025-11-25 (stdout purity, schema, secrets).

The cache (`TIERCHECK_CACHE` for the command) is one directory per session, so clones and build
markers start empty and the first build is really a build; its harness is provisioned once, or
linked to the one under `$TIERCHECK_CACHE` when that is set, so repeated sessions reuse it.
After every run no process it started may be alive and no port it served may still accept
connections; after every test the `no_leftovers` fixture checks the test's own descendants.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest
from junitparser import Error, Failure, JUnitXml, Skipped

from support.e2e import (
    BOTH,
    CHEAP,
    LEGS,
    REPO,
    SAMPLE_BUILD,
    SNAPSHOT,
    Origin,
    Run,
    Session,
    assert_nothing_left,
    copy_sample,
    single_json,
    tier_check,
)
from support.junit_schema import junit_schema_errors
from support.procutil import MARK_ENV, interruptible, wait_for
from tiercheck.config.yamlio import load_yaml
from tiercheck.conformance.harness import Harness
from tiercheck.scorecard.render.json_format import validate_scorecard

pytestmark = pytest.mark.integration


def clone_run(
    session: Session, origin: Origin, tag: str, out: Path, *extra: str, revisions: tuple[str, ...]
) -> Run:
    revision_args = [a for r in revisions for a in ("--revision", r)]
    return tier_check(
        "--sdk",
        f"sample-sdk@{tag}",
        "--git-url",
        origin.url,
        "--governance-snapshot",
        str(SNAPSHOT),
        *revision_args,
        *extra,
        "--output",
        "json",
        "--out",
        str(out),
        env=session.env(),
    )


@pytest.fixture(scope="module")
def clone_v1(session: Session, origin: Origin, tmp_path_factory: pytest.TempPathFactory) -> Run:
    out = tmp_path_factory.mktemp("clone-v1") / "report"
    return clone_run(session, origin, "v1.0.0", out, revisions=BOTH)


@dataclass(frozen=True)
class SecondRun:
    run: Run
    marker_before: int
    marker_after: int


def pair_history(session: Session) -> tuple[str, str]:
    """The history of the clean/broken pair of runs alone (the session's other runs of the
    sample land in the default `$TIERCHECK_CACHE/history.sqlite`)."""
    return ("--history", str(session.cache / "pair-history.sqlite"))


@pytest.fixture(scope="module")
def clone_v1_again(
    session: Session, origin: Origin, clone_v1: Run, tmp_path_factory: pytest.TempPathFactory
) -> SecondRun:
    assert clone_v1.returncode == 0, clone_v1.explain()
    before = session.harness_marker.stat().st_mtime_ns
    out = tmp_path_factory.mktemp("clone-v1-again") / "report"
    run = clone_run(
        session,
        origin,
        "v1.0.0",
        out,
        *pair_history(session),
        "--probes",
        "none",
        revisions=(CHEAP,),
    )
    return SecondRun(run, before, session.harness_marker.stat().st_mtime_ns)


@pytest.fixture(scope="module")
def clone_v1_broken(
    session: Session,
    origin: Origin,
    clone_v1_again: SecondRun,  # after it: checking out another commit cleans the build away
    tmp_path_factory: pytest.TempPathFactory,
) -> Run:
    out = tmp_path_factory.mktemp("clone-v1-broken") / "report"
    return clone_run(session, origin, "v1.0.1", out, *pair_history(session), revisions=(CHEAP,))


@pytest.fixture(scope="module")
def one_client_at_a_time(
    session: Session, origin: Origin, clone_v1: Run, tmp_path_factory: pytest.TempPathFactory
) -> Run:
    out = tmp_path_factory.mktemp("concurrency-1") / "report"
    return clone_run(session, origin, "v1.0.0", out, "--concurrency", "1", revisions=BOTH)


# --- recounting from the raw results ----------------------------------------------------------


@dataclass(frozen=True)
class Raw:
    passed: bool
    successes: int
    failures: int


MISSING = Raw(False, 0, 0)


def recount(results_dir: Path, leg: str) -> dict[str, Raw]:
    """Every checks.json under a leg's results, by scenario, with the official rule:
    a scenario passes iff it has at least one SUCCESS and no FAILURE."""
    found: dict[str, Raw] = {}
    for path in results_dir.rglob("checks.json"):
        relative = path.parent.relative_to(results_dir).as_posix()
        name = re.sub(r"-\d{4}-\d{2}-\d{2}T[\d-]+Z$", "", relative)
        if leg == "server":
            name = name.removeprefix("server-")
        statuses = [check["status"] for check in json.loads(path.read_text())]
        ok, bad = statuses.count("SUCCESS"), statuses.count("FAILURE")
        found[name] = Raw(ok > 0 and bad == 0, ok, bad)
    return found


def harness_requirements(harness: Harness, revision: str) -> dict[str, Any]:
    """The harness's own requirement set for a revision (not tiercheck's copy)."""
    data = load_yaml(harness.requirements_file(revision))
    assert isinstance(data, dict)
    return data


def assert_leg_matches_raw(
    doc: Mapping[str, Any], harness: Harness, revision: str, leg: str
) -> None:
    data = doc["revisions"][revision][leg]
    assert data["state"] == "measured", data.get("reason")
    raw_dir = Path(doc["artifacts"]["raw"]) / revision / leg
    raw = recount(raw_dir, leg)
    assert raw, f"no checks.json under {raw_dir}"
    requirements = harness_requirements(harness, revision)
    scored = list(requirements[leg])
    not_scored = [e["scenario"] for e in requirements.get("not_scored") or () if e["leg"] == leg]
    passed = sum(raw.get(name, MISSING).passed for name in scored)
    assert (data["passed"], data["total"], data["failed"]) == (
        passed,
        len(scored),
        len(scored) - passed,
    ), f"{leg} {revision}"
    assert data["not_scored"] == {
        "total": len(not_scored),
        "failed": sum(not raw.get(name, MISSING).passed for name in not_scored),
    }, f"{leg} {revision}"
    # Leg-level check counts cover the scored scenarios, as the pass rate does.
    assert data["checks_passed"] == sum(raw.get(n, MISSING).successes for n in scored)
    assert data["checks_failed"] == sum(raw.get(n, MISSING).failures for n in scored)
    assert {d["scenario"] for d in data["details"]} >= set(scored)
    for detail in data["details"]:
        r = raw.get(detail["scenario"], MISSING)
        got = (detail["passed"], detail["checks_passed"], detail["checks_failed"])
        assert got == (r.passed, r.successes, r.failures), f"{leg} {revision} {detail['scenario']}"


def verdicts(doc: Mapping[str, Any]) -> dict[tuple[str, str, str], bool]:
    """(scenario, revision, leg) → passed, for every scenario of every measured leg."""
    found = {}
    for revision, entry in doc["revisions"].items():
        for leg in LEGS:
            assert entry[leg]["state"] == "measured", entry[leg].get("reason")
            for detail in entry[leg]["details"]:
                found[(detail["scenario"], revision, leg)] = bool(detail["passed"])
    return found


# --- 1. the clone path ------------------------------------------------------------------------


def test_clone_path_measures_the_tagged_commit(
    clone_v1: Run, origin: Origin, session: Session
) -> None:
    assert clone_v1.returncode == 0, clone_v1.explain()
    doc = clone_v1.doc
    assert single_json(clone_v1.stdout) == doc
    assert re.fullmatch(r"[0-9a-f]{40}", origin.v1)
    assert doc["sdk"]["commit"] == origin.v1
    assert doc["sdk"]["origin"] == "clone"
    assert doc["sdk"]["ref"] == "v1.0.0"
    assert doc["harness"]["version"] == "0.2.0-alpha.12"
    assert doc["harness"]["node_version"].startswith("v22"), doc["harness"]
    assert doc["build"]["state"] == "built", doc["build"]
    assert doc["governance"]["source"] == "snapshot"
    assert doc["requirements_revisions"] == list(BOTH)
    assert doc["interrupted"] is False
    assert doc["unmeasured"] == []
    for revision in BOTH:
        for leg in LEGS:
            assert_leg_matches_raw(doc, session.harness, revision, leg)
            entry = doc["revisions"][revision][leg]
            assert entry["passed"] == entry["total"] > 0, f"{leg} {revision} has failures"
    for leg, key in (("server", "conformance"), ("client", "client_conformance")):
        merged = doc["checks"][key]
        assert merged["passed"] == sum(doc["revisions"][r][leg]["passed"] for r in BOTH)
        assert merged["total"] == sum(doc["revisions"][r][leg]["total"] for r in BOTH)


def test_advisory_probes_pass_or_skip_with_a_reason_on_the_sample_at_both_revisions(
    clone_v1: Run, clone_v1_again: SecondRun
) -> None:
    """Every probe that applies, against the real sample server while it was up; they show in
    the JSON, Markdown, HTML and JUnit reports and change nothing (`--probes none` runs none)."""
    from tiercheck.probes import PROBES

    assert clone_v1.returncode == 0, clone_v1.explain()
    doc = clone_v1.doc
    for revision in BOTH:
        block = doc["revisions"][revision]["probes"]
        assert block["url"] == doc["revisions"][revision]["server_url"]
        got = {r["probe"]: r for r in block["results"]}
        assert list(got) == [p.name for p in PROBES if p.applies_to(revision)]
        for name, result in got.items():
            allowed = ("pass", "skip")
            if (revision, name) == ("2025-11-25", "concurrent-ids"):
                # mcp 2.3.0 keeps a session's response streams by request id alone, so calls
                # that share an id in one session get each other's results: in 30 to 40 rounds
                # of 40 in each of 30 runs measured, always a WARN there (the duplicate already
                # breaks the client's MUST).
                allowed = ("warn",)
                assert result["rounds"]["bound"] == 40
                assert result["rounds"]["observed"] > 0
            assert result["outcome"] in allowed, f"{revision} {name}: {result}"
            if result["outcome"] == "skip":
                assert result["summary"], f"{revision} {name} skipped without a reason"
            else:
                assert result["evidence"], f"{revision} {name} gave no evidence"
        assert f"### Probes at {revision}" in clone_v1.report("scorecard.md").read_text()
        html = clone_v1.report("scorecard.html").read_text()
        section = html[html.index("<h2>Advisory probes</h2>") :]
        for name in got:
            assert f"<code>{name}</code>" in section, f"{revision} {name} not in scorecard.html"
        xml = JUnitXml.fromfile(str(clone_v1.report("junit.xml")))
        suite = next(s for s in xml if s.name == f"advisory probes {revision}")
        assert suite.tests == len(got)
    again = clone_v1_again.run
    assert again.returncode == 0, again.explain()
    assert "probes" not in again.doc["revisions"][CHEAP]
    assert "Advisory" not in again.report("scorecard.md").read_text()
    assert "Advisory probes" not in again.report("scorecard.html").read_text()


def test_second_run_on_the_same_commit_skips_build_and_provisioning(
    clone_v1_again: SecondRun, origin: Origin
) -> None:
    run = clone_v1_again.run
    assert run.returncode == 0, run.explain()
    doc = run.doc
    assert doc["sdk"]["commit"] == origin.v1
    assert doc["build"]["state"] == "cached", doc["build"]
    assert clone_v1_again.marker_after == clone_v1_again.marker_before
    assert "provisioning" not in run.stderr
    assert doc["revisions"][CHEAP]["server"]["state"] == "measured"
    assert doc["revisions"][CHEAP]["client"]["state"] == "measured"


# --- 2, 3, 7. a noisy build, wrapped server and client, secrets in the environment -------------


SECRET_TOKEN = "secret-xyz"
SECRET_KEY = "api-key-secret-abc"
ORDINARY = "ordinary-value-7f3a"

NOISY_BUILD = f"echo BUILD-NOISE; echo more >&2; {SAMPLE_BUILD}"

_WRAPPER = """#!/bin/sh
env > "{dumps}/{kind}-$$.env"
exec .venv/bin/python {script} "$@"
"""


@dataclass(frozen=True)
class NoisyRun:
    run: Run
    dumps: Path
    build: str


@pytest.fixture(scope="module")
def noisy_run(session: Session, tmp_path_factory: pytest.TempPathFactory) -> NoisyRun:
    root = tmp_path_factory.mktemp("noisy")
    sdk = copy_sample(root / "sample-sdk")
    dumps = root / "dumps"
    dumps.mkdir()
    wrappers = {}
    for kind, script in (("server", "server.py"), ("client", "client.py")):
        wrapper = root / f"wrap-{kind}.sh"
        wrapper.write_text(_WRAPPER.format(dumps=shlex.quote(str(dumps)), kind=kind, script=script))
        wrappers[kind] = f"sh {shlex.quote(str(wrapper))}"
    build = f"env > {shlex.quote(str(dumps / 'build.env'))}; {NOISY_BUILD}"
    run = tier_check(
        "--sdk",
        "sample-sdk",
        "--sdk-path",
        str(sdk),
        "--revision",
        CHEAP,
        "--skip-governance",
        "--build-cmd",
        build,
        "--server-cmd",
        f"{wrappers['server']} --port {{port}}",
        "--client-cmd",
        wrappers["client"],
        "--output",
        "json",
        "--out",
        str(root / "report"),
        env=session.env(
            GITHUB_TOKEN=SECRET_TOKEN, MY_API_KEY=SECRET_KEY, TIERCHECK_E2E_ORDINARY=ORDINARY
        ),
    )
    return NoisyRun(run, dumps, build)


def test_stdout_is_only_the_json_scorecard_even_when_the_build_prints(
    noisy_run: NoisyRun,
) -> None:
    run = noisy_run.run
    assert run.returncode == 0, run.explain()
    doc = single_json(run.stdout)
    validate_scorecard(doc)
    assert doc == run.doc
    # The command itself is recorded in the scorecard; the build's output is not.
    assert doc["revisions"][CHEAP]["config"]["build"]["value"] == noisy_run.build
    for line in ("BUILD-NOISE", "more"):
        assert line not in run.stdout.splitlines()
        assert line not in run.stderr.splitlines()
    # The build did print, on both streams: into its log.
    log = Path(doc["build"]["log"]).read_text()
    assert "BUILD-NOISE" in log
    assert "more" in log
    assert doc["build"]["state"] == "built"
    for leg in LEGS:
        assert doc["revisions"][CHEAP][leg]["state"] == "measured"


def _dump(path: Path) -> dict[str, str]:
    values = {}
    for line in path.read_text().splitlines():
        name, sep, value = line.partition("=")
        if sep and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            values[name] = value
    return values


def test_server_client_and_build_never_see_the_secrets(noisy_run: NoisyRun) -> None:
    run = noisy_run.run
    assert run.returncode == 0, run.explain()
    dumps = {p.name: p for p in noisy_run.dumps.iterdir()}
    servers = [p for name, p in dumps.items() if name.startswith("server-")]
    clients = [p for name, p in dumps.items() if name.startswith("client-")]
    assert "build.env" in dumps
    assert servers, "the server wrapper never ran"
    assert len(clients) >= 5, "the client wrapper ran for too few scenarios"
    for path in [dumps["build.env"], *servers, *clients]:
        text = path.read_text()
        env = _dump(path)
        assert SECRET_TOKEN not in text, path.name
        assert SECRET_KEY not in text, path.name
        assert "GITHUB_TOKEN" not in env, path.name
        assert "MY_API_KEY" not in env, path.name
        assert env.get("TIERCHECK_E2E_ORDINARY") == ORDINARY, path.name
    for path in clients:
        assert _dump(path).get("MCP_CONFORMANCE_SCENARIO"), path.name


# --- 3. JUnit ---------------------------------------------------------------------------------


def assert_junit_matches(run: Run) -> int:
    """Each suite's counts equal the scorecard's; returns the total of failures."""
    doc = run.doc
    assert junit_schema_errors(run.report("junit.xml").read_text("utf-8")) == []
    xml = JUnitXml.fromfile(str(run.report("junit.xml")))
    suites = {suite.name: suite for suite in xml}
    expected_names = {f"{leg} {rev}" for rev in doc["revisions"] for leg in LEGS}
    # The advisory probes have a suite of their own where they ran (never counted as the legs).
    expected_names |= {
        f"advisory probes {rev}" for rev, entry in doc["revisions"].items() if entry.get("probes")
    }
    assert set(suites) == expected_names
    total_failures = 0
    for revision, entry in doc["revisions"].items():
        for leg in LEGS:
            data = entry[leg]
            suite = suites[f"{leg} {revision}"]
            cases = list(suite)
            counted = {
                "failures": sum(any(isinstance(r, Failure) for r in c.result) for c in cases),
                "skipped": sum(any(isinstance(r, Skipped) for r in c.result) for c in cases),
                "errors": sum(any(isinstance(r, Error) for r in c.result) for c in cases),
            }
            expected_failures = sum(
                1 for d in data["details"] if d.get("baseline") == "expected-failure"
            )
            want = {
                "tests": data["total"] + data["not_scored"]["total"],
                "failures": data["failed"] - expected_failures,
                "skipped": data["not_scored"]["total"] + expected_failures,
                "errors": 0,
            }
            got = {
                "tests": int(suite.tests),
                "failures": int(suite.failures),
                "skipped": int(suite.skipped),
                "errors": int(suite.errors),
            }
            assert got == want, suite.name
            assert {"tests": len(cases), **counted} == want, suite.name
            total_failures += want["failures"]
    return total_failures


def test_junit_suites_count_what_the_scorecard_counts(clone_v1: Run, clone_v1_broken: Run) -> None:
    assert assert_junit_matches(clone_v1) == 0
    assert assert_junit_matches(clone_v1_broken) == 1


# --- 4. diff ------------------------------------------------------------------------------------


def test_diff_names_the_one_scenario_the_new_commit_broke(
    session: Session, origin: Origin, clone_v1_again: SecondRun, clone_v1_broken: Run
) -> None:
    old, new = clone_v1_again.run, clone_v1_broken
    assert old.returncode == 0, old.explain()
    assert new.returncode == 1, new.explain()
    assert new.doc["sdk"]["commit"] == origin.broken
    old_json, new_json = old.report("scorecard.json"), new.report("scorecard.json")

    diffed = tier_check("diff", str(old_json), str(new_json), "--output", "json", env=session.env())
    assert diffed.returncode == 1, diffed.explain()
    result = json.loads(diffed.stdout)
    assert [(r["revision"], r["leg"], r["scenario"]) for r in result["regressions"]] == [
        (CHEAP, "server", "tools-call-simple-text")
    ]
    assert result["regressions"][0]["before"] == "passed"
    assert result["regressions"][0]["after"] == "failed"
    assert result["has_regression"] is True

    text = tier_check("diff", str(old_json), str(new_json), env=session.env())
    assert text.returncode == 1, text.explain()
    assert "tools-call-simple-text" in text.stdout

    same = tier_check("diff", str(old_json), str(old_json), "--output", "json", env=session.env())
    assert same.returncode == 0, same.explain()
    assert json.loads(same.stdout)["regressions"] == []


# --- 5. a failing build ------------------------------------------------------------------------


def test_a_failing_build_leaves_every_leg_unmeasured_with_the_log_tail(
    session: Session, tmp_path: Path
) -> None:
    sdk = copy_sample(tmp_path / "sample-sdk")
    out = tmp_path / "report"
    run = tier_check(
        "--sdk",
        "sample-sdk",
        "--sdk-path",
        str(sdk),
        "--skip-governance",
        "--rebuild",
        "--build-cmd",
        "echo boom >&2; exit 3",
        "--output",
        "json",
        "--out",
        str(out),
        env=session.env(),
    )
    assert run.returncode == 3, run.explain()  # every leg unmeasured: nothing was measured
    assert "nothing was measured: every leg was unmeasured or skipped" in run.stderr
    assert (out / "scorecard.json").is_file()
    doc = run.doc
    validate_scorecard(doc)
    assert single_json(run.stdout) == doc
    assert doc["build"]["state"] == "failed"
    assert "boom" in doc["build"]["reason"]
    for revision in BOTH:
        for leg in LEGS:
            entry = doc["revisions"][revision][leg]
            assert entry["state"] == "unmeasured", f"{leg} {revision}"
            assert "boom" in entry["reason"], f"{leg} {revision}: {entry['reason']}"
    assert not (out / "raw").exists() or not any((out / "raw").rglob("checks.json"))


# --- 6. Ctrl-C during a leg ---------------------------------------------------------------------


def _session_members(sid: int) -> list[psutil.Process]:
    members = []
    for proc in psutil.process_iter():
        try:
            if os.getsid(proc.pid) == sid and proc.status() != psutil.STATUS_ZOMBIE:
                members.append(proc)
        except (OSError, psutil.Error):
            continue
    return members


def test_sigint_during_the_client_leg_stops_everything_and_writes_the_scorecard(
    session: Session, tmp_path: Path
) -> None:
    revision = "2026-07-28"
    sdk = copy_sample(tmp_path / "sample-sdk")
    out = tmp_path / "report"
    mark = uuid.uuid4().hex
    stderr_path = tmp_path / "stderr.txt"
    argv = [
        sys.executable,
        "-m",
        "tiercheck",
        "--sdk",
        "sample-sdk",
        "--sdk-path",
        str(sdk),
        "--revision",
        revision,
        "--skip-governance",
        "--output",
        "json",
        "--out",
        str(out),
    ]
    client_raw = out / "raw" / revision / "client"

    def client_scenarios_started() -> bool:
        return client_raw.is_dir() and any(p.is_dir() for p in client_raw.iterdir())

    with stderr_path.open("w") as stderr:
        proc = subprocess.Popen(
            argv,
            cwd=REPO,
            env={**session.env(), MARK_ENV: mark},
            stdout=subprocess.PIPE,
            stderr=stderr,
            start_new_session=True,
            preexec_fn=interruptible,  # noqa: PLW1509 - one signal call, no lock taken
        )
        try:
            started = wait_for(
                lambda: client_scenarios_started() or proc.poll() is not None,
                timeout_s=300.0,
                interval_s=0.1,
            )
            why = f"the client leg never started:\n{stderr_path.read_text()[-3000:]}"
            assert started, why
            assert proc.poll() is None, why
            assert "client leg" in stderr_path.read_text()
            os.kill(proc.pid, signal.SIGINT)
            stdout, _ = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)  # our own session: the CLI we started
                proc.wait()
    err = stderr_path.read_text()
    assert proc.returncode == 130, err[-3000:]
    assert_nothing_left(mark, out)
    assert wait_for(lambda: not _session_members(proc.pid), timeout_s=10.0)

    doc = json.loads((out / "scorecard.json").read_text())
    validate_scorecard(doc)
    assert single_json(stdout.decode()) == doc
    assert doc["interrupted"] is True
    assert doc["exit_code"] == 130
    client = doc["revisions"][revision]["client"]
    assert client["state"] == "unmeasured"
    assert "interrupted" in client["reason"]
    server = doc["revisions"][revision]["server"]
    # The server leg is short; it may have finished before the interrupt arrived.
    assert server["state"] == "measured" or "interrupted" in server["reason"], server
    assert {"what": "assessment", "reason": "interrupted"} in doc["unmeasured"]


# --- 7 is above (noisy_run); 8. bad input ---------------------------------------------------------


def _one_line_error(run: Run) -> str:
    assert run.returncode == 2, run.explain()
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr
    return lines[0]


def test_an_unknown_sdk_is_one_line_with_a_suggestion(session: Session, tmp_path: Path) -> None:
    line = _one_line_error(
        tier_check(
            "--sdk", "go-skd", "--skip-governance", "--out", str(tmp_path), env=session.env()
        )
    )
    assert "did you mean 'go-sdk'" in line
    assert not (tmp_path / "scorecard.json").exists()


def test_a_misspelt_registry_key_is_one_line_naming_file_and_key(
    session: Session, tmp_path: Path
) -> None:
    registry = tmp_path / "known_sdks.yaml"
    registry.write_text(
        "mine:\n"
        "  repo: example/mine\n"
        '  revisions: ["2025-11-25"]\n'
        "  sever:\n"
        "    command: ./serve --port {port}\n"
        "    url: http://127.0.0.1:{port}/mcp\n"
    )
    line = _one_line_error(
        tier_check(
            "--registry", str(registry), "--sdk", "mine", "--skip-governance", env=session.env()
        )
    )
    assert str(registry) in line
    assert "sever" in line


# --- 9. concurrency does not move verdicts ------------------------------------------------------


@pytest.mark.slow  # a second whole assessment at both revisions, one client at a time
def test_one_client_at_a_time_gives_the_same_verdicts(
    clone_v1: Run, one_client_at_a_time: Run
) -> None:
    assert one_client_at_a_time.returncode == clone_v1.returncode, one_client_at_a_time.explain()
    default, sequential = verdicts(clone_v1.doc), verdicts(one_client_at_a_time.doc)
    assert {revision for _, revision, _ in default} == set(BOTH)
    assert len(default) > 50
    assert sequential == default


# --- run history ----------------------------------------------------------------------------

SIMPLE = (CHEAP, "server", "tools-call-simple-text")


def test_history_shows_the_change_and_a_one_night_streak(
    session: Session, origin: Origin, clone_v1_again: SecondRun, clone_v1_broken: Run
) -> None:
    clean, broken = clone_v1_again.run, clone_v1_broken
    assert clean.returncode == 0, clean.explain()
    assert clean.doc["history"]["previous"] is None
    section = broken.doc["history"]
    assert section["previous"]["run_id"] == clean.doc["tiercheck"]["run_id"]
    assert section["previous"]["commit"] == origin.v1
    assert [
        (c["revision"], c["leg"], c["scenario"], c["before"], c["after"])
        for c in section["changes"]
    ] == [(*SIMPLE, "pass", "fail")]
    (streak,) = section["streaks"]
    assert (streak["revision"], streak["leg"], streak["scenario"]) == SIMPLE
    assert streak["since"] == broken.doc["timestamp"]
    assert (streak["since_commit"], streak["runs"], streak["days"]) == (origin.broken, 1, 0)
    # Runs of a branch are SEP-1730's early warning; the clock itself reads the latest stable
    # release, of which this history has no run.
    tier1 = [r for r in section["relegation"] if r["rule"] == "tier1-to-tier2"]
    assert [r["status"] for r in tier1] == ["no-stable-run"]
    warned = [r for r in section["early_warning"] if r["rule"] == "tier1-to-tier2"]
    assert [r["status"] for r in warned] == ["at-risk"]
    assert "tools-call-simple-text: failing since" in broken.report("scorecard.md").read_text()

    shown = tier_check(
        "history",
        "--sdk",
        "sample-sdk",
        *pair_history(session),
        "--output",
        "json",
        env=session.env(),
    )
    assert shown.returncode == 0, shown.explain()
    data = single_json(shown.stdout)
    assert [p["commit"] for p in data["series"]] == [origin.v1, origin.broken]
    assert [(s["scenario"], s["since_commit"], s["runs"]) for s in data["streaks"]] == [
        ("tools-call-simple-text", origin.broken, 1)
    ]


def _verdicts(doc: Mapping[str, Any]) -> dict[tuple[str, str, str], bool]:
    return {
        (rev, leg, d["scenario"]): d["passed"]
        for rev, entry in doc["revisions"].items()
        for leg in LEGS
        for d in entry[leg]["details"]
    }


def test_reuse_takes_the_stored_verdicts_of_the_same_commit(
    session: Session, origin: Origin, clone_v1_broken: Run, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    run = clone_run(
        session, origin, "v1.0.1", out, "--reuse", *pair_history(session), revisions=(CHEAP,)
    )
    assert run.returncode == 1, run.explain()
    doc = run.doc
    validate_scorecard(doc)
    assert doc["history"]["reused_from"] == clone_v1_broken.doc["tiercheck"]["run_id"]
    assert doc["history"]["reused_timestamp"] == clone_v1_broken.doc["timestamp"]
    assert doc["build"]["state"] == "reused"
    assert _verdicts(doc) == _verdicts(clone_v1_broken.doc)
    assert doc["implied_tier"]["tier"] == clone_v1_broken.doc["implied_tier"]["tier"]
    # Governance was judged again, from the snapshot, not copied.
    assert doc["governance"]["source"] == clone_v1_broken.doc["governance"]["source"]
    assert any((out / "raw" / CHEAP / "server").rglob("checks.json"))
    assert "verdicts re-used from run" in run.report("scorecard.md").read_text()


def test_reuse_runs_again_when_the_configuration_changed(
    session: Session, origin: Origin, clone_v1_broken: Run, tmp_path: Path
) -> None:
    # Another server and client command is another configuration: nothing to re-use, so it
    # runs (quickly: this server never serves, so its leg is unmeasured, and no client runs).
    out = tmp_path / "report"
    run = clone_run(
        session,
        origin,
        "v1.0.1",
        out,
        "--reuse",
        *pair_history(session),
        "--server-cmd",
        "python3 -c 'import sys; sys.exit(4)'",
        "--client-cmd",
        "",
        revisions=(CHEAP,),
    )
    assert run.returncode == 3, run.explain()  # the server leg unmeasured, no client: nothing
    doc = run.doc
    assert doc["history"]["reused_from"] is None
    assert doc["build"]["state"] != "reused"
    assert doc["revisions"][CHEAP]["server"]["state"] == "unmeasured"


def test_a_garbage_history_is_refused_before_any_work(session: Session, tmp_path: Path) -> None:
    # A file that is not a database can never hold the history: bad input, refused with one
    # line before anything runs, and never overwritten. (A database that breaks while the run
    # goes on is still only a warning: tests/unit/history/test_history.py.)
    garbage = tmp_path / "history.sqlite"
    garbage.write_bytes(b"not a database " * 300)
    sdk = copy_sample(tmp_path / "sample-sdk")
    out = tmp_path / "report"
    run = tier_check(
        "--sdk",
        "sample-sdk",
        "--sdk-path",
        str(sdk),
        "--skip-governance",
        "--skip-build",
        "--revision",
        CHEAP,
        "--history",
        str(garbage),
        "--out",
        str(out),
        env=session.env(),
    )
    assert run.returncode == 2, run.explain()
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert lines == [
        f"tier-check: error: --history {garbage}: not an SQLite database "
        "(tiercheck's history is one)"
    ], run.stderr
    assert not (out / "scorecard.json").exists()
    assert garbage.read_bytes().startswith(b"not a database")
