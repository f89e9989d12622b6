"""Target resolution, client slots, the scorecard document and exit codes."""

from __future__ import annotations

import shlex
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from support.procutil import wait_for
from tiercheck.config.registry import load_registry
from tiercheck.conformance import slots
from tiercheck.errors import UsageError
from tiercheck.governance.obtain import GovernanceOptions
from tiercheck.model import to_json
from tiercheck.pipeline.assess.judge import evaluate_governance
from tiercheck.pipeline.assess.plan import decide_ref
from tiercheck.pipeline.assess.silent import NullProgress
from tiercheck.scorecard.build import (
    ScorecardParts,
    build_scorecard,
    exit_code_for,
    leg_summary,
    signal_entries,
)
from tiercheck.scorecard.model import Artifacts, HarnessBlock, SdkBlock, ToolBlock
from tiercheck.scorecard.render.json_format import validate_scorecard
from tiercheck.scoring import (
    merge_revisions,
    score_leg,
    skipped_leg,
    unmeasured_leg,
)
from tiercheck.target import parse_sdk_spec, resolve_target
from tiercheck.tier import compute_tier

# --- what to assess ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "ref"),
    [
        ("go-sdk", "go-sdk", None),
        ("go-sdk@v1.7.0", "go-sdk", "v1.7.0"),
        ("me/go-sdk@feature/x-2", "me/go-sdk", "feature/x-2"),
        ("go-sdk@0123abc", "go-sdk", "0123abc"),
        ("@weird", "@weird", None),
    ],
)
def test_parse_sdk_spec(text: str, name: str, ref: str | None) -> None:
    spec = parse_sdk_spec(text)
    assert (spec.name, spec.ref) == (name, ref)


def test_resolve_known_name_uses_default_ref() -> None:
    target = resolve_target(load_registry(), sdk="python-sdk-v1", sdk_path=None, repo=None)
    checkout = decide_ref(target, "clone").checkout
    assert (target.repo, checkout, target.path) == (
        "modelcontextprotocol/python-sdk",
        "v1.x",
        None,
    )


def test_owner_repo_is_attributed_to_that_owner() -> None:
    target = resolve_target(load_registry(), sdk="someone/go-sdk@fix", sdk_path=None, repo=None)
    assert target.repo == "someone/go-sdk"
    assert target.ref == "fix"
    assert target.entry is not None
    assert target.entry.name == "go-sdk"  # the configuration still applies


def test_sdk_path_picks_config_by_flag_then_directory(tmp_path: Path) -> None:
    registry = load_registry()
    checkout = tmp_path / "python-sdk"
    checkout.mkdir()
    by_dir = resolve_target(registry, sdk=None, sdk_path=checkout, repo=None)
    assert by_dir.entry is not None
    assert by_dir.entry.name == "python-sdk"
    by_flag = resolve_target(registry, sdk="go-sdk", sdk_path=checkout, repo=None)
    assert by_flag.entry is not None
    assert by_flag.entry.name == "go-sdk"
    unknown = tmp_path / "my-sdk"
    unknown.mkdir()
    bare = resolve_target(registry, sdk=None, sdk_path=unknown, repo=None)
    assert bare.entry is None
    assert bare.repo == "local/my-sdk"


def test_unknown_sdk_and_nothing_to_assess() -> None:
    with pytest.raises(UsageError, match="did you mean 'go-sdk'"):
        resolve_target(load_registry(), sdk="go-skd", sdk_path=None, repo=None)
    with pytest.raises(UsageError, match="nothing to assess"):
        resolve_target(load_registry(), sdk=None, sdk_path=None, repo=None)


# --- client slots (real processes) ------------------------------------------------------------


def test_slot_wrapper_bounds_concurrency_and_passes_the_url(tmp_path: Path) -> None:
    script = slots.prepare_slots(tmp_path / "slots")
    log = tmp_path / "log"
    # Each "client" records its start and end; the URL the harness appends arrives as $1.
    client = f"{shlex.quote(sys.executable)} -c " + shlex.quote(
        "import sys, time\n"
        f"log = open({str(log)!r}, 'a')\n"
        "log.write(f'start {time.monotonic()} {sys.argv[1]}\\n'); log.flush()\n"
        "time.sleep(0.15)\n"
        "log.write(f'end {time.monotonic()}\\n'); log.flush()\n"
    )
    wrapped = slots.wrap_client_command(client, script=script, slots=2, timeout_s=60)
    procs = [
        subprocess.Popen(f"{wrapped} http://127.0.0.1:9/scenario-{i}", shell=True) for i in range(6)
    ]
    for proc in procs:
        assert proc.wait(timeout=120) == 0
    events = []
    urls = set()
    for line in log.read_text().splitlines():
        kind, stamp, *rest = line.split()
        events.append((float(stamp), 1 if kind == "start" else -1))
        urls.update(rest)
    assert urls == {f"http://127.0.0.1:9/scenario-{i}" for i in range(6)}
    running = peak = 0
    for _, delta in sorted(events, key=lambda e: (e[0], e[1])):
        running += delta
        peak = max(peak, running)
    assert peak == 2


def test_slot_wrapper_follows_the_limit_file_and_registers_its_clients(tmp_path: Path) -> None:
    script = slots.prepare_slots(tmp_path / "slots")
    (tmp_path / "slots" / "limit").write_text("1\n")
    log = tmp_path / "log"
    run_dir = tmp_path / "slots" / "run"
    # Each "client" records its start, end and how many clients are registered meanwhile.
    client = (
        "sh -c "
        + shlex.quote(
            f"echo start $(ls {shlex.quote(str(run_dir))} | wc -l) >> {shlex.quote(str(log))}; "
            f"sleep 0.1; echo end >> {shlex.quote(str(log))}"
        )
        + " client"
    )
    # A cap of 3, a measured limit of 1: one at a time.
    wrapped = slots.wrap_client_command(client, script=script, slots=3, timeout_s=60)
    procs = [subprocess.Popen(f"{wrapped} http://127.0.0.1:9/{i}", shell=True) for i in range(3)]
    for proc in procs:
        assert proc.wait(timeout=120) == 0
    lines = log.read_text().splitlines()
    assert lines == ["start 1", "end"] * 3
    assert list(run_dir.iterdir()) == []  # every registration removed


def test_a_waiting_client_takes_whichever_slot_frees_first(tmp_path: Path) -> None:
    script = slots.prepare_slots(tmp_path / "slots")
    log = tmp_path / "log"
    # The harness appends the URL; its last part is how long this "client" runs, or "slow":
    # a client that runs until the four quick ones have ended (at most 30 s).
    quote = shlex.quote(str(log))
    client = (
        "sh -c "
        + shlex.quote(
            f'echo "start ${{1##*/}}" >> {quote}; '
            'if [ "${1##*/}" = slow ]; then n=0; '
            f'while [ "$(grep -c "^end" {quote})" -lt 4 ] && [ "$n" -lt 600 ]; do '
            "sleep 0.05; n=$((n + 1)); done; "
            'else sleep "${1##*/}"; fi; '
            f'echo "end ${{1##*/}}" >> {quote}'
        )
        + " client"
    )
    wrapped = slots.wrap_client_command(client, script=script, slots=2, timeout_s=60)
    slow = subprocess.Popen(f"{wrapped} http://127.0.0.1:9/slow", shell=True)
    assert wait_for(lambda: log.is_file() and "start slow" in log.read_text(), timeout_s=30)
    quick = [
        subprocess.Popen(f"{wrapped} http://127.0.0.1:9/{seconds}", shell=True)
        for seconds in ("0.02", "0.04", "0.06", "0.08")
    ]
    for proc in [slow, *quick]:
        assert proc.wait(timeout=120) == 0
    ends = [line for line in log.read_text().splitlines() if line.startswith("end")]
    # Every quick client ran on the free slot, none queued behind the slow one (which would
    # have ended only after 30 s, before the quick one queued behind it).
    assert ends[-1] == "end slow", ends
    assert len(ends) == 5


def test_harness_timeout_covers_the_queue() -> None:
    ms = slots.harness_timeout_ms(scenario_timeout_s=30, queued_clients=10, slots=2)
    assert ms >= 30_000 * 5


# --- scorecard and exit codes -----------------------------------------------------------------


def _skipped_governance() -> tuple[object, dict[str, object]]:
    return evaluate_governance(
        "tiercheck/sample-sdk",
        GovernanceOptions(skip=True),
        entry=None,
        checkout=None,
        now=datetime(2026, 11, 30, tzinfo=UTC),
        progress=NullProgress(),
    )


def test_skipped_governance_is_named_skipped_in_both_readings() -> None:
    signals, meta = _skipped_governance()
    assert meta.source == "skipped"
    server = merge_revisions([skipped_leg("server", "2025-11-25", "x")])
    implied = compute_tier(leg_summary(server), leg_summary(server), signals)  # type: ignore[arg-type]
    blockers = implied.tier1_blockers + implied.sep1730.blockers
    assert "triage (skipped)" in [str(b) for b in blockers]
    assert not [b for b in blockers if b.kind == "inconclusive"]
    assert implied.tier == 3


def test_exit_codes() -> None:
    from support.scorecards import measured_leg, scenario

    passing = merge_revisions([measured_leg("2025-11-25", "server", [scenario("ping")])])
    failing = merge_revisions(
        [measured_leg("2025-11-25", "server", [scenario("ping", passed=False)])]
    )
    skipped = merge_revisions([skipped_leg("client", "2025-11-25", "no client")])
    unmeasured = merge_revisions([unmeasured_leg("server", "2026-07-28", "boom")])
    half = merge_revisions(
        [
            measured_leg("2025-11-25", "server", [scenario("ping")]),
            unmeasured_leg("server", "2026-07-28", "boom"),
        ]
    )
    assert exit_code_for(passing, skipped, None, interrupted=False) == 0
    assert exit_code_for(failing, skipped, None, interrupted=False) == 1
    assert exit_code_for(unmeasured, passing, None, interrupted=False) == 1
    assert exit_code_for(half, skipped, None, interrupted=False) == 1
    # Nothing measured at all: every leg skipped, or unmeasured, or both (exit 3).
    assert exit_code_for(skipped, skipped, None, interrupted=False) == 3
    assert exit_code_for(unmeasured, skipped, None, interrupted=False) == 3
    assert exit_code_for(unmeasured, unmeasured, None, interrupted=False) == 3
    assert exit_code_for(passing, passing, None, interrupted=True) == 130
    assert exit_code_for(skipped, skipped, None, interrupted=True) == 130


def test_scorecard_with_an_unmeasured_revision_validates(tmp_path: Path) -> None:
    from tiercheck.config.requirements import load_requirement_set
    from tiercheck.conformance.results import parse_results

    rset = load_requirement_set("2025-11-25")
    measured = score_leg("server", "2025-11-25", parse_results(tmp_path, "server"), rset)
    missing = unmeasured_leg("server", "2026-07-28", "the server did not become ready")
    server = merge_revisions([measured, missing])
    client = merge_revisions(
        [skipped_leg("client", "2025-11-25", "none"), skipped_leg("client", "2026-07-28", "none")]
    )
    signals, meta = _skipped_governance()
    implied = compute_tier(leg_summary(server), leg_summary(client), signals)  # type: ignore[arg-type]
    doc = build_scorecard(
        ScorecardParts(
            repo="tiercheck/sample-sdk",
            branch="main",
            finished_at=datetime(2026, 11, 30, 12, tzinfo=UTC),
            revisions=["2025-11-25", "2026-07-28"],
            sdk=SdkBlock(name="sample-sdk", ref="main", commit=None, path=None, origin="clone"),
            harness=HarnessBlock(
                package="@modelcontextprotocol/conformance", version="x", node_version=None
            ),
            tiercheck=ToolBlock(version="0.1.0", schema_version=1, run_id="r"),
            server=server,
            client=client,
            per_revision={
                "2025-11-25": {"server": measured, "client": client.parts[0]},
                "2026-07-28": {"server": missing, "client": client.parts[1]},
            },
            server_urls={},
            configs={},
            checks=signal_entries(signals),
            governance=meta,
            implied_tier=implied,
            stable_version=None,
            baseline=None,
            baseline_files={},
            build=None,
            unmeasured=[("server leg 2026-07-28", "not ready")],
            timings={},
            artifacts=Artifacts(out_dir=None, raw=None, logs={}),
            interrupted=False,
            exit_code=exit_code_for(server, client, None, interrupted=False),
        )
    )
    data = to_json(doc)
    validate_scorecard(data)
    conformance = data["checks"]["conformance"]
    # The measured revision is kept (every scenario failed "no results": nothing was written),
    # the unmeasured one is named, and no tier above 3 rests on it.
    assert conformance["state"] == "partially-measured"
    assert conformance["total"] == 30
    assert "2026-07-28" in conformance["error"]
    assert doc.implied_tier.tier == 3
    assert doc.exit_code == 1
    assert any(b.kind == "unmeasured" for b in doc.implied_tier.blocker_details)


# --- tier-check score: results produced elsewhere ---------------------------------------------


def _write_server_results(out: Path, *, failing_scenario: str | None) -> None:
    from support.checks_builder import failing, passing, write_scenario
    from tiercheck.config.requirements import load_requirement_set

    for name in load_requirement_set("2025-11-25").server:
        write_scenario(out, name, failing() if name == failing_scenario else passing())


def test_score_verb_judges_results_and_baselines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from tiercheck.cli import main

    results = tmp_path / "results" / "2025-11-25" / "server"
    _write_server_results(results, failing_scenario="ping")
    code = main(["score", "--results", str(tmp_path / "results"), "--output", "json"])
    doc = json.loads(capsys.readouterr().out)
    validate_scorecard(doc)
    server = doc["revisions"]["2025-11-25"]["server"]
    assert (server["passed"], server["failed"], server["total"]) == (29, 1, 30)
    assert doc["revisions"]["2025-11-25"]["client"]["state"] == "skipped"
    assert code == 1

    baseline = tmp_path / "expected.yml"
    baseline.write_text("server:\n  - ping\n")
    code = main(
        [
            "score",
            "--requirements",
            "2025-11-25",
            "--server-results",
            str(results),
            "--expected-failures",
            str(baseline),
            "--output",
            "json",
        ]
    )
    doc = json.loads(capsys.readouterr().out)
    assert code == 0  # the one failure is expected
    assert doc["baseline"]["expected_failures"] == 1
    assert doc["implied_tier"]["tier"] == 3  # a baseline never lifts the tier

    baseline.write_text("server:\n  - ping\n  - tools-list\n")
    flags = ["--expected-failures", str(baseline), "--output", "json"]
    code = main(["score", "--requirements", "2025-11-25", "--server-results", str(results), *flags])
    doc = json.loads(capsys.readouterr().out)
    assert code == 1  # tools-list passes: a stale entry
    assert doc["baseline"]["stale"] == 1


def test_score_verb_bad_input_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tiercheck.cli import main

    code = main(["score", "--requirements", "2025-11-25"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    code = main(["score", "--requirements", "2099-01-01", "--server-results", str(tmp_path)])
    assert code == 2
    assert "not a known spec revision" in capsys.readouterr().err


# --- progress while a leg runs ------------------------------------------------------------------


class _Recorder(NullProgress):
    def __init__(self) -> None:
        self.events: list[tuple[str, str, int, int]] = []

    def leg_progress(self, revision: str, leg: str, done: int, total: int) -> None:
        self.events.append((revision, leg, done, total))


def test_leg_progress_counts_finished_scenarios(tmp_path: Path) -> None:
    from tiercheck.config.requirements import load_requirement_set
    from tiercheck.config.resolve import ConfigFlags, resolve
    from tiercheck.pipeline.assess.legs import _watching
    from tiercheck.pipeline.assess.plan import RevisionPlan

    plan = RevisionPlan(
        "2025-11-25",
        resolve(None, "2025-11-25", environ={}, flags=ConfigFlags()),
        load_requirement_set("2025-11-25"),
    )
    recorder = _Recorder()
    raw = tmp_path / "raw"
    with _watching(recorder, plan, "client", raw, every_s=0.05):
        for i in range(3):
            scenario = raw / f"scenario-{i}-2026-11-30T06-36-55-475Z"
            scenario.mkdir(parents=True)
            (scenario / "checks.json").write_text("[]")
            assert wait_for(lambda n=i + 1: any(e[2] == n for e in recorder.events), timeout_s=30)
    assert recorder.events[-1] == ("2025-11-25", "client", 3, 25)  # 18 scored + 7 not scored
    done = [e[2] for e in recorder.events]
    assert done == sorted(done)


def test_a_server_leg_gives_up_its_turn_once_and_the_next_one_starts() -> None:
    from tiercheck.pipeline.assess.legs import _Turn

    lock = threading.Lock()
    order: list[str] = []

    def second() -> None:
        with _Turn(lock):
            order.append("second started")

    with _Turn(lock) as turn:
        waiting = threading.Thread(target=second)
        waiting.start()
        waiting.join(timeout=0.2)
        assert order == []  # the turn is held: the next leg waits
        turn.release()
        turn.release()  # idempotent: the lock is not released twice
        waiting.join(timeout=10)
        order.append("first probing")
    assert order == ["second started", "first probing"]
    assert not lock.locked()
