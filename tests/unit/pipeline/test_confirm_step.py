"""The confirming step: which failures are run again by themselves, how (one `--scenario` run
each, into its own folder), and what it does when that run cannot measure. The harness is
replaced by a recorder that writes the checks.json a real run would."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from support.checks_builder import failing, passing, requirement_set, write_scenario
from tiercheck.config.resolve import ConfigFlags, resolve
from tiercheck.conformance.harness import Harness
from tiercheck.conformance.legs import LegRun
from tiercheck.errors import ServerStartError
from tiercheck.pipeline.assess import confirm
from tiercheck.pipeline.assess.base import AssessOptions, RunSettings
from tiercheck.pipeline.assess.plan import RevisionPlan
from tiercheck.pipeline.assess.silent import NullProgress
from tiercheck.revisions import Leg
from tiercheck.scoring import LegVerdict, score_leg
from tiercheck.target import Target

REV = "2025-11-25"
RSET = requirement_set(server=["s-ok", "s-bad"], client=["c-ok", "c-bad", "c-worse"], revision=REV)
HARNESS = Harness(Path("/nowhere/node"), Path("/nowhere/dist/index.js"), "0", "v22.0.0")


def _options(tmp_path: Path, *, sequential: bool = False, url: str | None = None) -> AssessOptions:
    target = Target(name="x", repo="o/x", ref=None, entry=None, path=tmp_path)
    settings = RunSettings(cache_dir=tmp_path / "cache", sequential=sequential)
    return AssessOptions(target=target, settings=settings, out_dir=tmp_path / "out", server_url=url)


def _plan() -> RevisionPlan:
    flags = ConfigFlags(
        {
            "--server-cmd": "serve {port}",
            "--server-url": "http://127.0.0.1:{port}/mcp",
            "--client-cmd": "./client",
        }
    )
    return RevisionPlan(REV, resolve(None, REV, environ={}, flags=flags), RSET)


def _leg(tmp_path: Path, leg: Leg, verdicts: dict[str, bool]) -> LegVerdict:
    raw = tmp_path / "raw" / leg
    for name, ok in verdicts.items():
        write_scenario(raw, name, passing() if ok else failing("beside"), leg=leg)
    from tiercheck.conformance.results import parse_results

    return score_leg(leg, REV, parse_results(raw, leg), RSET, results_dir=raw)


def _verdicts(tmp_path: Path) -> dict[tuple[str, Leg], LegVerdict]:
    return {
        (REV, "server"): _leg(tmp_path, "server", {"s-ok": True, "s-bad": False}),
        (REV, "client"): _leg(tmp_path, "client", {"c-ok": True, "c-bad": False, "c-worse": False}),
    }


#: scenario → passes by itself (None: the harness writes nothing; "empty": an empty folder
#: and exit 1, as when the harness throws in the scenario)
Alone = dict[str, bool | str | None]


def _harness(monkeypatch: pytest.MonkeyPatch, alone: Alone) -> list[dict[str, Any]]:
    """Replace both harness commands by one that writes the scenario's checks as `alone` says;
    return what each call was given."""
    calls: list[dict[str, Any]] = []

    def run(leg: Leg) -> Callable[..., LegRun]:
        def fake(harness: Harness, **kwargs: Any) -> LegRun:
            calls.append({"leg": leg, **kwargs})
            name, folder = kwargs["scenario"], kwargs["results_dir"]
            assert not folder.exists()
            folder.mkdir(parents=True)
            ok = alone[name]
            if ok == "empty":
                write_scenario(folder, name, None, leg=leg)
            elif ok is not None:
                write_scenario(folder, name, passing() if ok else failing("alone"), leg=leg)
            return LegRun(leg, REV, folder, 0 if ok is True else 1, False, "", 0.1)

        return fake

    monkeypatch.setattr(confirm, "run_server_leg", run("server"))
    monkeypatch.setattr(confirm, "run_client_leg", run("client"))
    return calls


@contextlib.contextmanager
def _no_server(*_: object, **__: object) -> Iterator[Any]:
    msg = "exited 3 during start-up"
    raise ServerStartError(msg)
    yield  # pragma: no cover


def test_each_failure_runs_by_itself_and_the_rule_judges_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _harness(monkeypatch, {"s-bad": True, "c-bad": True, "c-worse": False})
    url = "http://127.0.0.1:9/mcp"  # a server someone else runs: nothing started
    options = _options(tmp_path, url=url)
    done = confirm.confirm_failures(
        options, [_plan()], tmp_path, HARNESS, NullProgress(), _verdicts(tmp_path)
    )
    assert done.rerun == 3
    assert done.duration_s >= 0
    assert [(c["leg"], c["scenario"]) for c in calls] == [
        ("server", "s-bad"),
        ("client", "c-bad"),
        ("client", "c-worse"),
    ]
    assert calls[0]["url"] == url
    assert calls[1]["command"] == "./client"  # as configured: cold, no slot wrapper
    assert calls[1]["results_dir"] == options.out_dir / "confirm" / REV / "client" / "c-bad"
    server, client = done.verdicts[(REV, "server")], done.verdicts[(REV, "client")]
    assert [d.result for d in server.details] == ["passed", "flaky"]
    assert [d.result for d in client.details] == ["passed", "flaky", "failed"]
    assert (server.flaky, server.failed, client.flaky, client.failed) == (1, 0, 1, 1)
    worse = client.details[2]
    assert worse.confirmation is not None
    assert worse.failures[0].message == "alone"
    assert worse.confirmation.first.failures[0].message == "beside"


def test_a_server_leg_run_sequentially_ran_by_itself_already(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _harness(monkeypatch, {"c-bad": False, "c-worse": False})
    options = _options(tmp_path, sequential=True, url="http://127.0.0.1:9/mcp")
    done = confirm.confirm_failures(
        options, [_plan()], tmp_path, HARNESS, NullProgress(), _verdicts(tmp_path)
    )
    assert [c["scenario"] for c in calls] == ["c-bad", "c-worse"]
    assert done.rerun == 2
    (bad,) = done.verdicts[(REV, "server")].failing
    assert bad.confirmation is None


def test_a_run_by_itself_that_measures_nothing_leaves_the_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _harness(monkeypatch, {"c-bad": None, "c-worse": "empty"})
    monkeypatch.setattr("tiercheck.sdk.server.managed_server", _no_server)
    done = confirm.confirm_failures(
        _options(tmp_path), [_plan()], tmp_path, HARNESS, NullProgress(), _verdicts(tmp_path)
    )
    (server_bad,) = done.verdicts[(REV, "server")].failing
    assert server_bad.confirmation is not None
    assert server_bad.confirmation.alone == "unmeasured"
    reason = server_bad.confirmation.reason or ""
    assert reason.startswith("the server did not become ready again: exited 3")
    client = done.verdicts[(REV, "client")]
    assert [d.result for d in client.details] == ["passed", "failed", "failed"]
    bad, worse = client.failing
    for d in (bad, worse):
        assert d.confirmation is not None
        assert d.confirmation.alone == "unmeasured"
        assert d.results_path is not None
        assert "raw" in d.results_path.parts  # the first result stands
    assert "without writing c-bad's results" in (bad.confirmation.reason or "")
    assert (worse.confirmation.reason or "").startswith("no checks.json: the harness exited 1")


def test_a_leg_failing_more_widely_than_the_bound_is_not_run_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _harness(monkeypatch, {"s-bad": True})
    monkeypatch.setattr(confirm, "MOST_PER_LEG", 1)
    done = confirm.confirm_failures(
        _options(tmp_path, url="http://127.0.0.1:9/mcp"),
        [_plan()],
        tmp_path,
        HARNESS,
        NullProgress(),
        _verdicts(tmp_path),
    )
    # The server leg's one failure is run again; the client leg's two are not.
    assert [(c["leg"], c["scenario"]) for c in calls] == [("server", "s-bad")]
    assert done.rerun == 1
    client = done.verdicts[(REV, "client")]
    assert [d.result for d in client.details] == ["passed", "failed", "failed"]
    for d in client.failing:
        assert d.confirmation is not None
        assert d.confirmation.alone == "unmeasured"
        assert d.confirmation.reason == (
            "not run again: 2 failures in the client leg at 2025-11-25, more than 1; "
            "a leg failing that widely fails for the SDK"
        )
    assert [d.result for d in done.verdicts[(REV, "server")].details] == ["passed", "flaky"]


def test_nothing_to_confirm_runs_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _harness(monkeypatch, {})
    verdicts = {
        (REV, "server"): _leg(tmp_path, "server", {"s-ok": True, "s-bad": True}),
        (REV, "client"): _leg(tmp_path, "client", {"c-ok": True, "c-bad": True, "c-worse": True}),
    }
    done = confirm.confirm_failures(
        _options(tmp_path), [_plan()], tmp_path, HARNESS, NullProgress(), verdicts
    )
    assert (calls, done.rerun, done.duration_s) == ([], 0, 0.0)
    assert done.verdicts == verdicts


def test_a_stored_run_with_a_flaky_scenario_is_not_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its stored raw results are the runs beside other work: scored again, the flaky
    scenario would read as a failure. A run whose failure came back is re-used."""
    from tiercheck.history.record import RunRecord, ScenarioRow
    from tiercheck.pipeline.assess import reuse
    from tiercheck.pipeline.assess.checkout import CheckoutResult
    from tiercheck.pipeline.assess.plan import Plan, decide_ref

    target = Target(name="x", repo="o/x", ref=None, entry=None, path=None)
    plan = Plan(target, "clone", decide_ref(target, "clone"), (_plan(),))
    options = _options(tmp_path)
    monkeypatch.setattr(
        reuse, "check_out", lambda *_: CheckoutResult(path=tmp_path, commit="c" * 40)
    )
    looked: list[object] = []

    def lookup(flaky: bool | None) -> reuse.ReuseLookup:
        row = ScenarioRow(REV, "server", "s-bad", flaky is True, True, None, None, flaky=flaky)
        record = RunRecord.__new__(RunRecord)
        object.__setattr__(record, "scenarios", (row,))
        object.__setattr__(record, "run_id", "run-1")

        def found(key: object) -> Any:
            looked.append(key)
            return record, {}

        return found

    assert reuse.reused_measurement(options, plan, NullProgress(), lookup(True)) is None
    assert len(looked) == 1
    # Without a flaky scenario the stored run is taken (its legs here: skipped ones).
    monkeypatch.setattr(RunRecord, "leg", lambda *_: SimpleNamespace(reason="no command"))
    taken = reuse.reused_measurement(options, plan, NullProgress(), lookup(None))
    assert taken is not None
    assert {v.state for v in taken.measurement.verdicts.values()} == {"skipped"}
