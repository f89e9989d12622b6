"""`tier-check governance|labels|triage` (`tiercheck.cli.governance`) end to end: the CLI, real
PyGithub, the fake GitHub.

Numbers are the hand-worked ones of `governance_fixtures` (see test_governance_signals.py);
the sample SDK's snapshot is checked against what its generator's docstring promises.
"""

from __future__ import annotations

import importlib.util
import json
import socket
import stat
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from support.governance_fixtures import REPO, TOKEN, running
from tiercheck.cli import main
from tiercheck.config.registry import load_registry
from tiercheck.ghapi import Transport, resolve_token, transport
from tiercheck.ghapi import token as ghapi_token
from tiercheck.governance.collector import ANONYMOUS_WARNING
from tiercheck.governance.signals import CHECK_NAMES, SignalConfig, compute_signals
from tiercheck.governance.snapshot import dump_snapshot, load_snapshot
from tiercheck.tier import LegSummary, compute_tier

AS_OF_TEXT = "2025-06-16T12:00:00Z"  # governance_fixtures.AS_OF
SAMPLE_DIR = Path(__file__).resolve().parents[3] / "examples" / "sample-sdk"
SAMPLE_SNAPSHOT = SAMPLE_DIR / "governance-snapshot.json"
MEASURED = LegSummary("measured", 1.0)


@pytest.fixture(autouse=True)
def _quiet_and_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    # No politeness delay against the local fake, and no token from the developer's machine.
    monkeypatch.setattr(transport, "DEFAULT", Transport(throttle=None))
    for name in ("GITHUB_TOKEN", "GH_TOKEN", "GITHUB_API_URL"):
        monkeypatch.delenv(name, raising=False)


def _forbid_gh(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(hostname: str | None) -> str | None:
        raise AssertionError("gh auth token must not run here")

    monkeypatch.setattr(ghapi_token, "_gh_auth_token", refuse)


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A listening socket no one should connect to: a connection would sit in its backlog."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    sock.setblocking(False)
    try:
        yield sock
    finally:
        sock.close()


def _never_contacted(sock: socket.socket) -> bool:
    try:
        conn, _ = sock.accept()
    except BlockingIOError:
        return True
    conn.close()
    return False


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _live(url: str, cache: Path, *extra: str) -> list[str]:
    return [
        "--repo",
        REPO,
        "--github-api-url",
        url,
        "--token",
        TOKEN,
        "--cache-dir",
        str(cache),
        "--as-of",
        AS_OF_TEXT,
        *extra,
    ]


# --- against the fake GitHub ---------------------------------------------------------------


def test_governance_json_has_the_six_official_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with running() as fake:
        code, out, err = _run(capsys, "governance", *_live(fake.url, tmp_path, "--output", "json"))
    assert code == 0
    assert TOKEN not in out + err
    doc = json.loads(out)
    # A live collection records the conformance repository's disputed issues too: none here.
    keys = ["repo", "as_of", "captured_at", "source", "checks", "disputes", "implied_tier"]
    assert list(doc) == keys
    assert (doc["disputes"]["status"], doc["disputes"]["items"]) == ("recorded", [])
    assert (doc["repo"], doc["as_of"], doc["source"]) == (REPO, AS_OF_TEXT, "github")
    assert list(doc["checks"]) == list(CHECK_NAMES)
    checks = doc["checks"]
    # Official fields, then ours (`reason`, `sep1730`, `disagrees_with_official`).
    assert checks["labels"]["missing"] == ["P3"]
    assert checks["triage"]["compliance_rate"] == 5 / 6
    assert checks["triage"]["sep1730"]["rate_2_business_days"] == 0.7143
    assert checks["p0_resolution"]["status"] == "fail"
    assert checks["stable_release"]["version"] == "2.0.0-rc.1"
    assert all("disagrees_with_official" in check for check in checks.values())


def test_labels_verb_prints_the_label_check_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with running() as fake:
        code, out, _ = _run(capsys, "labels", *_live(fake.url, tmp_path))
    assert code == 0
    data = json.loads(out)
    official = ["status", "reason", "present", "required", "missing", "found", "uses_issue_types"]
    assert list(data)[: len(official)] == official
    assert (data["status"], data["present"], data["required"]) == ("fail", 11, 12)
    assert data["missing"] == ["P3"]
    assert data["sep1730"]["aliases_applied"] == {}  # no --sdk: no aliases


def test_sdk_flag_applies_that_sdks_label_aliases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = tmp_path / "known_sdks.yaml"
    registry.write_text(
        "example-sdk:\n"
        f"  repo: {REPO}\n"
        '  revisions: ["2025-11-25"]\n'
        '  label_aliases: {"priority: low": "P3"}\n',
        encoding="utf-8",
    )
    monkeypatch.setattr("tiercheck.config.registry.default_registry_path", lambda: registry)
    with running() as fake:
        code, out, _ = _run(capsys, "labels", *_live(fake.url, tmp_path, "--sdk", "example-sdk"))
    assert code == 0
    data = json.loads(out)
    assert data["status"] == "fail"  # the official reading knows no aliases
    assert data["sep1730"]["status"] == "pass"
    assert data["sep1730"]["aliases_applied"] == {"priority: low": "P3"}
    assert data["disagrees_with_official"] is True


def test_triage_verb_honours_days(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with running() as fake:
        code, out, _ = _run(capsys, "triage", *_live(fake.url, tmp_path, "--days", "7"))
    assert code == 0
    data = json.loads(out)
    # Open issues created in the 7 days before as_of (since 06-09 12:00): #5 and #9; only #9
    # carries a label → 0.5.
    assert (data["days_analyzed"], data["total_issues"], data["compliance_rate"]) == (7, 2, 0.5)
    assert data["status"] == "fail"
    assert data["sep1730"]["window_days"] == 90


def test_api_url_comes_from_the_environment_when_no_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with running() as fake:
        monkeypatch.setenv("GITHUB_API_URL", fake.url)
        code, out, _ = _run(
            capsys,
            "labels",
            "--repo",
            REPO,
            "--token",
            TOKEN,
            "--cache-dir",
            str(tmp_path),
            "--as-of",
            AS_OF_TEXT,
        )
        assert fake.requests() > 0
    assert code == 0
    assert json.loads(out)["missing"] == ["P3"]


def test_anonymous_run_warns_on_stderr_and_keeps_stdout_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ghapi_token, "_gh_auth_token", lambda hostname: None)
    with running() as fake:
        code, out, err = _run(
            capsys,
            "triage",
            "--repo",
            REPO,
            "--github-api-url",
            fake.url,
            "--cache-dir",
            str(tmp_path),
            "--as-of",
            AS_OF_TEXT,
        )
        assert all(not r.authorization for r in fake.log)
    assert code == 0
    assert ANONYMOUS_WARNING in err
    data = json.loads(out)
    assert data["status"] == "partial"  # the official reading needs no timelines
    assert data["sep1730"]["status"] == "inconclusive"


def test_terminal_output_is_a_table_of_the_six_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with running() as fake:
        code, out, _ = _run(capsys, "governance", *_live(fake.url, tmp_path))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"Governance of {REPO}"
    for name in CHECK_NAMES:
        assert any(line.split()[:1] == [name] for line in lines), name
    triage = next(line for line in lines if line.split()[:1] == ["triage"])
    assert triage.split()[1:3] == ["partial", "fail"]


# --- record and replay ---------------------------------------------------------------------


def test_record_then_replay_is_byte_identical_and_offline(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    listener: socket.socket,
) -> None:
    recorded = tmp_path / "snap.json"
    with running() as fake:
        code, live_out, _ = _run(
            capsys,
            "governance",
            *_live(fake.url, tmp_path / "cache", "--output", "json"),
            "--record-governance",
            str(recorded),
        )
    assert code == 0
    load_snapshot(recorded)  # valid

    _forbid_gh(monkeypatch)  # a replay resolves no token at all
    dead = f"http://127.0.0.1:{listener.getsockname()[1]}"
    monkeypatch.setenv("GITHUB_API_URL", dead)
    replay = [
        "governance",
        "--repo",
        REPO,
        "--governance-snapshot",
        str(recorded),
        "--as-of",
        AS_OF_TEXT,
        "--github-api-url",
        dead,
        "--output",
        "json",
    ]
    first = _run(capsys, *replay)
    second = _run(capsys, *replay)
    assert first == second
    code, out, err = first
    assert code == 0
    assert err == ""
    assert _never_contacted(listener)
    assert json.loads(out)["source"] == "snapshot"
    assert json.loads(out)["checks"] == json.loads(live_out)["checks"]


def test_replay_defaults_as_of_to_the_capture_time(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _forbid_gh(monkeypatch)
    argv = ["governance", "--repo", "tiercheck/sample-sdk", "--output", "json"]
    code, out, _ = _run(capsys, *argv, "--governance-snapshot", str(SAMPLE_SNAPSHOT))
    assert code == 0
    doc = json.loads(out)
    assert doc["as_of"] == doc["captured_at"] == "2026-11-27T12:00:00Z"
    code, later, _ = _run(
        capsys, *argv, "--governance-snapshot", str(SAMPLE_SNAPSHOT), "--as-of", "2027-06-01"
    )
    assert code == 0
    assert json.loads(later)["as_of"] == "2027-06-01T00:00:00Z"


# --- the sample SDK's snapshot -------------------------------------------------------------


def _generator() -> ModuleType:
    path = SAMPLE_DIR / "make_governance_snapshot.py"
    spec = importlib.util.spec_from_file_location("make_governance_snapshot", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_sample_snapshot_is_what_its_generator_writes() -> None:
    built = _generator().build_snapshot()
    assert dump_snapshot(built) == SAMPLE_SNAPSHOT.read_text(encoding="utf-8")


def test_sample_snapshot_policy_paths_exist_in_the_sample() -> None:
    snapshot = load_snapshot(SAMPLE_SNAPSHOT)
    paths = snapshot.policy_files.paths  # type: ignore[union-attr]
    assert all((SAMPLE_DIR / path).is_file() for path in paths)
    for name in ("CHANGELOG.md", "CONTRIBUTING.md", "SECURITY.md", "VERSIONING.md", "README.md"):
        assert name in paths
    assert ".github/dependabot.yml" in paths


def _sample_config() -> SignalConfig:
    entry = load_registry().get("sample-sdk")
    return SignalConfig(label_aliases=dict(entry.label_aliases), tag_prefix=entry.tag_prefix)


def test_sample_snapshot_yields_the_documented_tier() -> None:
    snapshot = load_snapshot(SAMPLE_SNAPSHOT)
    signals = compute_signals(snapshot, snapshot.captured_at, _sample_config())
    tier = compute_tier(MEASURED, MEASURED, signals)
    assert tier.tier == 3
    names = [str(b) for b in tier.tier1_blockers]
    assert names == ["triage", "p0_resolution", "stable_release", "labels"]
    assert [str(b) for b in tier.tier2_blockers] == ["stable_release"]
    assert tier.sep1730.tier == 2
    # #66 was closed without ever being labelled: not triage, so SEP-1730 triage is partial.
    assert [str(b) for b in tier.sep1730.blockers] == ["triage", "p0_resolution", "labels"]
    assert tier.sep1730.tier2_met
    # The numbers the generator's docstring states.
    assert signals.labels.missing == ("needs repro",)
    triage = signals.triage
    assert (triage.total_issues, triage.triaged_within_sla, triage.compliance_rate) == (
        7,
        6,
        6 / 7,
    )
    sep = triage.sep1730
    assert (sep.issues_considered, sep.bot_issues_excluded) == (13, 1)
    assert (sep.within_2_business_days, sep.breached_2_business_days) == (10, 2)
    assert (sep.pending_2_business_days, sep.rate_2_business_days) == (1, 0.8333)
    assert sep.self_or_bot_labels_ignored == 2
    p0 = signals.p0_resolution
    assert (p0.closed_total, p0.closed_within_7d, p0.closed_within_14d) == (2, 1, 2)
    assert p0.sep1730.status == "partial"
    release = signals.stable_release
    assert (release.version, release.is_stable, release.sep1730.tag) == (
        "1.1.0-rc.1",
        False,
        "v1.0.0",
    )
    spec = signals.spec_tracking
    # 2026-07-28 17:00 → 2026-08-12 14:20 is 14.9 days: Math.round → 15 (the bundle's figure).
    assert (spec.latest_spec_release, spec.latest_sdk_release, spec.days_gap) == (
        "2026-07-28T17:00:00Z",
        "2026-08-12T14:20:00Z",
        15,
    )
    assert signals.policy_signals.categories["roadmap"] == ()


def test_sample_snapshot_through_the_cli_with_sdk_config(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _forbid_gh(monkeypatch)
    code, out, _ = _run(
        capsys,
        "governance",
        "--repo",
        "tiercheck/sample-sdk",
        "--sdk",
        "sample-sdk",
        "--governance-snapshot",
        str(SAMPLE_SNAPSHOT),
        "--output",
        "json",
    )
    assert code == 0
    snapshot = load_snapshot(SAMPLE_SNAPSHOT)
    expected: dict[str, Any] = compute_signals(
        snapshot, snapshot.captured_at, _sample_config()
    ).to_dict()
    checks = json.loads(out)["checks"]
    assert checks == {name: expected[name] for name in CHECK_NAMES}


def test_governance_prints_the_tier_governance_alone_implies(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The sample snapshot's tiers with both legs at 100%, as make_governance_snapshot.py works
    # them out: officially Tier 3 (Tier 1: triage, p0_resolution, stable_release, labels; Tier
    # 2: stable_release); SEP-1730 Tier 2 (#66 was closed unlabelled, so triage blocks Tier 1).
    _forbid_gh(monkeypatch)
    argv = ["governance", "--repo", "tiercheck/sample-sdk"]
    argv += ["--governance-snapshot", str(SAMPLE_SNAPSHOT)]
    code, out, _ = _run(capsys, *argv, "--output", "json")
    assert code == 0
    implied = json.loads(out)["implied_tier"]
    assert implied == {
        "tier": 3,
        "tier1_blockers": ["triage", "p0_resolution", "stable_release", "labels"],
        "tier2_met": False,
        "tier2_blockers": ["stable_release"],
        "assumes": "both conformance legs at 100% (governance alone)",
        "sep1730": {
            "tier": 2,
            "tier1_blockers": ["triage", "p0_resolution", "labels"],
            "tier2_met": True,
            "tier2_blockers": [],
        },
    }
    code, out, _ = _run(capsys, *argv)
    assert code == 0
    assert "Implied governance tier: Tier 3 (conformance taken as 100%)" in out
    assert "  Tier 1 blockers: triage, p0_resolution, stable_release, labels" in out
    assert "  Tier 2 blockers: stable_release" in out


# --- bad input: exit 2, one line -----------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--as-of", "next tuesday"], "--as-of: 'next tuesday' is not an ISO date or time"),
        (["--as-of", "2026-13-01"], "--as-of: '2026-13-01'"),
        (["--sdk", "no-such-sdk"], "unknown SDK 'no-such-sdk'"),
        (["--days", "0"], "--days: 0"),
        (["--record-governance", "out.json"], "drop --record-governance"),
    ],
)
def test_bad_input_is_exit_2_with_one_line(
    extra: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(
        capsys,
        "governance",
        "--repo",
        "tiercheck/sample-sdk",
        "--governance-snapshot",
        str(SAMPLE_SNAPSHOT),
        *extra,
    )
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("tier-check: error: ")
    assert needle in err


def test_missing_or_invalid_snapshot_or_wrong_repo_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"schema_version": 1}', encoding="utf-8")
    cases = [
        (["--repo", "a/b", "--governance-snapshot", str(tmp_path / "none.json")], "cannot read"),
        (["--repo", "a/b", "--governance-snapshot", str(broken)], str(broken)),
        (
            ["--repo", "other/repo", "--governance-snapshot", str(SAMPLE_SNAPSHOT)],
            "is a snapshot of tiercheck/sample-sdk, not other/repo",
        ),
    ]
    for argv, needle in cases:
        code, out, err = _run(capsys, "triage", *argv)
        assert (code, out) == (2, ""), argv
        assert err.count("\n") == 1, err
        assert needle in err


# --- gh auth token goes through tiercheck.process ------------------------------------------


def test_gh_auth_token_runs_gh_through_process_capture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gh = tmp_path / "gh"
    gh.write_text('#!/bin/sh\n[ "$1 $2" = "auth token" ] && echo gho_from_gh\n', encoding="utf-8")
    gh.chmod(gh.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path))
    found = resolve_token(None, env={})
    assert (found.value, found.source) == ("gho_from_gh", "gh auth token")
    gh.unlink()
    found = resolve_token(None, env={})
    assert (found.value, found.source) == (None, "anonymous")  # no gh: no token
