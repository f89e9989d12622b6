"""`--compare-harness V` (`pipeline.assess.compare`): V read before the checkout, refused in one
line when it runs none of the planned revisions, else compared where it can; and the
scorecard's block made from both harnesses' recorded results, every leg compared or said why
not.

V's package is not run here: its answers are the real 0.1.16's, as recorded (its flags and what
it lists); the integration test (`tests/integration/test_harness_pins.py`) runs the real one.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from support.checks_builder import check, write_scenario
from tiercheck.conformance.harness import Harness
from tiercheck.conformance.legs import LegRun
from tiercheck.errors import ConfigError
from tiercheck.pipeline.assess import compare
from tiercheck.pipeline.assess.base import RunSettings
from tiercheck.pipeline.assess.compare import Comparing, comparison_block, prepare_comparison
from tiercheck.referee.bundle import Answers
from tiercheck.scoring import skipped_leg

OLD, NEW = "2025-11-25", "2026-07-28"

#: The flags of the real 0.1.16's `server --help` and `client --help` (recorded).
HELP_SERVER = """\
Usage: conformance server [options]

Options:
  --url <url>                 URL of the server to test
  --scenario <scenario>       Scenario to test
  --suite <suite>             Suite to run
  --expected-failures <path>  Path to YAML file listing expected failures
  -o, --output-dir <path>     Save results to this directory
  --spec-version <version>    Filter scenarios by spec version
  --verbose                   Show verbose output
  -h, --help                  display help for command
"""
HELP_CLIENT = """\
Usage: conformance client [options]

Options:
  --command <command>         Command to run the client
  --scenario <scenario>       Scenario to test
  --suite <suite>             Run a suite of tests in parallel (e.g., "auth")
  --timeout <ms>              Timeout in milliseconds (default: "30000")
  --expected-failures <path>  Path to YAML file listing expected failures
  -o, --output-dir <path>     Save results to this directory
  --spec-version <version>    Filter scenarios by spec version
  --verbose                   Show verbose output
  -h, --help                  display help for command
"""
LISTS = {
    "server": "Server scenarios (test against a server):\n  - ping [2025-06-18,2025-11-25]\n",
    "client": "Client scenarios (test against a client):\n  - initialize [2025-06-18,2025-11-25]\n",
}


class _Said:
    """A progress sink that keeps what it is told."""

    def __init__(self) -> None:
        self.finished: list[str] = []
        self.warned: list[str] = []

    def step(self, name: str, detail: str = "") -> None:
        pass

    def done(self, name: str, detail: str = "", *, ok: bool = True) -> None:
        self.finished.append(detail)

    def warn(self, text: str) -> None:
        self.warned.append(text)

    def leg_progress(self, revision: str, leg: str, done: int, total: int) -> None:
        pass


@pytest.fixture
def old_release(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Harness:
    harness = Harness(tmp_path / "node", tmp_path / "cli.js", "0.1.16", "v22")
    monkeypatch.setattr(compare, "provision", lambda *a, **k: harness)
    answers = Answers(
        "0.1.16", listings=LISTS, helps={"server": HELP_SERVER, "client": HELP_CLIENT}
    )
    monkeypatch.setattr("tiercheck.referee.harvest.ask_fit", lambda *a, **k: answers)
    return harness


def _options(tmp_path: Path, version: str | None) -> Any:
    return SimpleNamespace(settings=RunSettings(cache_dir=tmp_path, compare_harness=version))


def test_not_asked_reads_nothing(tmp_path: Path) -> None:
    assert prepare_comparison(_options(tmp_path, None), [OLD], _Said()) is None


def test_compared_where_it_can_and_said_where_it_cannot(
    old_release: Harness, tmp_path: Path
) -> None:
    progress = _Said()
    found = prepare_comparison(_options(tmp_path, "0.1.16"), [OLD, NEW], progress)
    assert found is not None
    assert found.harness is old_release
    assert dict(found.ways) == {OLD: "spec-version"}
    assert list(found.cannot) == [NEW]
    assert found.cannot[NEW].startswith(f"harness 0.1.16 cannot run {NEW}: ")
    assert f"it lists no scenario for {NEW}" in found.cannot[NEW]
    assert progress.finished == [f"0.1.16 runs {OLD} with --spec-version"]
    assert progress.warned == [f"{found.cannot[NEW]}; not compared there"]


def test_a_release_that_runs_no_planned_revision_is_refused_in_one_line(
    old_release: Harness, tmp_path: Path
) -> None:
    with pytest.raises(ConfigError) as refused:
        prepare_comparison(_options(tmp_path, "0.1.16"), [NEW], _Said())
    message = refused.value.message
    assert "\n" not in message
    assert message.startswith(f"--compare-harness: harness 0.1.16 cannot run {NEW}: ")


def _measured(revision: str, leg: Any, results_dir: Path) -> Any:
    skipped = skipped_leg(leg, revision, "x")
    return dataclasses.replace(skipped, state="measured", reason=None, results_dir=results_dir)


def _run(leg: Any, results_dir: Path, **kw: Any) -> LegRun:
    fields: dict[str, Any] = {
        "returncode": 0,
        "timed_out": False,
        "log_tail": "",
        "duration_s": 2.0,
    }
    fields.update(kw)
    return LegRun(leg=leg, revision=OLD, results_dir=results_dir, **fields)


def test_the_block_compares_each_leg_or_says_why_not(tmp_path: Path) -> None:
    harness = Harness(tmp_path / "node", tmp_path / "cli.js", "0.1.16", "v22")
    comparing = Comparing(harness, {OLD: "spec-version"}, {NEW: f"harness 0.1.16 cannot run {NEW}"})
    referee, ci = tmp_path / "raw" / OLD / "server", tmp_path / "compare" / OLD / "server"
    write_scenario(referee, "ping", [check("ping")])
    write_scenario(referee, "tools-list", [check("schema", "FAILURE", message="not 2020-12")])
    write_scenario(ci, "ping", [check("ping")])
    write_scenario(ci, "tools-list", [check("list")])
    client_ci = tmp_path / "compare" / OLD / "client"
    client_ci.mkdir(parents=True)
    verdicts = {
        (OLD, "server"): _measured(OLD, "server", referee),
        (OLD, "client"): _measured(OLD, "client", tmp_path / "raw" / OLD / "client"),
        (NEW, "server"): skipped_leg("server", NEW, "no server command"),
        (NEW, "client"): skipped_leg("client", NEW, "no client command"),
    }
    runs = {
        (OLD, "server"): _run("server", ci),
        # V's client leg crashed before writing anything.
        (OLD, "client"): _run("client", client_ci, returncode=1, log_tail="a\nerror: boom\n"),
    }
    block = comparison_block(comparing, "0.2.0-alpha.12", [OLD, NEW], verdicts, runs)
    assert (block.version, block.referee) == ("0.1.16", "0.2.0-alpha.12")
    legs = [
        (e.revision, e.leg, e.state, e.way, e.reason, e.scenarios, e.agreed) for e in block.legs
    ]
    assert legs == [
        (OLD, "server", "compared", "spec-version", None, 2, 1),
        (
            OLD,
            "client",
            "not-compared",
            "spec-version",
            "harness 0.1.16: it left no results (exit 1): error: boom",
            0,
            0,
        ),
        (NEW, "server", "not-compared", None, f"harness 0.1.16 cannot run {NEW}", 0, 0),
        (NEW, "client", "not-compared", None, f"harness 0.1.16 cannot run {NEW}", 0, 0),
    ]
    assert block.legs[0].results_dir == str(ci)
    rows = [(d.scenario, d.kind, d.check, d.referee, d.ci) for d in block.disagreements]
    assert rows == [
        ("tools-list", "verdict-flipped", "schema", "fail", "pass"),
        ("tools-list", "check-added", "schema", "FAILURE", None),
        ("tools-list", "check-removed", "list", None, "SUCCESS"),
    ]


def test_a_leg_the_referee_did_not_measure_is_not_compared(tmp_path: Path) -> None:
    harness = Harness(tmp_path / "node", tmp_path / "cli.js", "0.1.16", "v22")
    comparing = Comparing(harness, {OLD: "spec-version"}, {})
    verdicts = {
        (OLD, "server"): skipped_leg("server", OLD, "no server command"),
        (OLD, "client"): skipped_leg("client", OLD, "no client command"),
    }
    block = comparison_block(comparing, "0.2.0-alpha.12", [OLD], verdicts, {})
    assert [(e.state, e.reason) for e in block.legs] == [
        ("not-compared", "the referee's leg is skipped: no server command"),
        ("not-compared", "the referee's leg is skipped: no client command"),
    ]
    assert block.disagreements == ()
