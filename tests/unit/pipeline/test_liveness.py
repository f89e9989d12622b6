"""The liveness watch of a server leg: which failed scenarios ran while the server was down.

The watch reads a results folder written here as the harness writes it (one `checks.json`
per finished scenario, folders named by start time) and asks a probe of ours, whose answers
are scripted; `judge_liveness` then rewrites a leg verdict scored from the same folder.
Expected verdicts are worked out by hand from the script.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from support.checks_builder import failing, passing, requirement_set, write_scenario
from tiercheck.conformance.results import parse_results
from tiercheck.pipeline.assess.liveness import Answer, Liveness, LivenessWatch, judge_liveness
from tiercheck.scoring import LegVerdict, score_leg

NAMES = ["s1", "s2", "s3", "s4", "s5", "s6"]


def _ts(n: int) -> str:
    return f"2026-12-03T07-00-0{n}-000Z"


def _wait_until(condition: Callable[[], bool], timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "the watch never got there"
        time.sleep(0.02)


class ScriptedServer:
    """A probe whose answers follow `up`: the server is down while `up` is False."""

    def __init__(self) -> None:
        self.up = True
        self.asked = 0

    def __call__(self) -> tuple[bool, str]:
        up = self.up  # read before counting: the test flips `up` once it sees the count
        self.asked += 1
        if up:
            return True, "POST initialize (protocolVersion 2025-11-25) to U: answered"
        return False, "POST initialize (protocolVersion 2025-11-25) to U: not answering"


@pytest.fixture
def server() -> ScriptedServer:
    return ScriptedServer()


def _write(tmp_path: Path, n: int, ok: bool) -> None:
    write_scenario(tmp_path, NAMES[n], passing() if ok else failing(), ts=_ts(n))


def _verdict(tmp_path: Path, liveness: Liveness) -> LegVerdict:
    rset = requirement_set(server=NAMES, revision="2025-11-25")
    scored = score_leg("server", rset.revision, parse_results(tmp_path, "server"), rset)
    return judge_liveness(scored, liveness)


def test_a_server_that_always_answers_leaves_its_failures_the_sdks(
    tmp_path: Path, server: ScriptedServer
) -> None:
    with LivenessWatch(tmp_path, "server", server) as watch:
        for n, ok in enumerate([True, False, True, True, False, True]):
            _write(tmp_path, n, ok)
    liveness = watch.liveness
    assert liveness.end == liveness.answers[-1]
    assert all(a.ok for a in liveness.answers)
    verdict = _verdict(tmp_path, liveness)
    assert verdict.state == "measured"
    assert [d.scenario for d in verdict.failing] == ["s2", "s5"]


def test_a_server_that_stops_answering_makes_every_failure_from_then_on_unmeasured(
    tmp_path: Path, server: ScriptedServer
) -> None:
    with LivenessWatch(tmp_path, "server", server) as watch:
        for n in range(3):
            _write(tmp_path, n, True)
        server.up = False
        for n in range(3, 6):
            _write(tmp_path, n, False)
    verdict = _verdict(tmp_path, watch.liveness)
    assert verdict.state == "unmeasured"
    assert (verdict.passed, verdict.failed, verdict.total) == (3, 0, 3)
    down = [d.scenario for d in verdict.details if not d.measured]
    assert down == ["s4", "s5", "s6"]
    assert verdict.reason is not None
    assert verdict.reason.startswith("the server stopped answering MCP after s4 failed (POST")
    assert "not answering" in verdict.reason
    assert "answered again" not in verdict.reason
    assert verdict.reason.endswith("scenarios run while it was down: s4, s5, s6")
    assert watch.liveness.end is not None
    assert not watch.liveness.end.ok


def test_a_server_that_comes_back_names_the_scenarios_run_while_it_was_down(
    tmp_path: Path, server: ScriptedServer
) -> None:
    with LivenessWatch(tmp_path, "server", server) as watch:
        _write(tmp_path, 0, True)
        _write(tmp_path, 1, False)  # a real failure: the server answers after it
        _wait_until(lambda: server.asked >= 1)
        server.up = False
        _write(tmp_path, 2, False)
        _write(tmp_path, 3, False)
        _wait_until(lambda: server.asked >= 2)
        server.up = True  # a supervisor restarted it
        _write(tmp_path, 4, True)
        _write(tmp_path, 5, False)  # failed again, and it answers: the SDK's failure
    verdict = _verdict(tmp_path, watch.liveness)
    assert verdict.state == "unmeasured"
    assert [d.scenario for d in verdict.details if not d.measured] == ["s3", "s4"]
    assert [d.scenario for d in verdict.failing] == ["s2", "s6"]
    assert verdict.reason is not None
    assert "it answered again later" in verdict.reason
    assert verdict.reason.endswith("scenarios run while it was down: s3, s4")


def test_an_unmeasured_leg_is_left_as_it_is() -> None:
    from tiercheck.scoring import unmeasured_leg

    leg = unmeasured_leg("server", "2025-11-25", "the harness was killed by SIGKILL")
    down = Liveness((Answer(("x",), False, "no answer"),))
    assert judge_liveness(leg, down) is leg


def test_an_exception_inside_the_watch_skips_the_end_probe(
    tmp_path: Path, server: ScriptedServer
) -> None:
    watch = LivenessWatch(tmp_path, "server", server)
    with pytest.raises(KeyboardInterrupt), watch:
        raise KeyboardInterrupt
    assert server.asked == 0
    assert watch.liveness.answers == ()
