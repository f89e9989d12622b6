"""The run's settings: declared once (`RunSettings`), held by the request and by the options, and
built from the command line's flags in one place."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tiercheck.cli.assess import assess_parser, assess_request
from tiercheck.config.registry import load_registry
from tiercheck.governance.obtain import GovernanceOptions
from tiercheck.pipeline.assess.base import AssessOptions, RunSettings
from tiercheck.pipeline.assess.output import ReportFolder
from tiercheck.pipeline.assess.request import AssessRequest, TargetRequest
from tiercheck.pipeline.run import assess_options
from tiercheck.target import Target

#: The names the request and the options may both declare: the settings record each holds, and
#: `target`, which is what the command line names (`TargetRequest`) in the one and the SDK it
#: resolved to (`Target`) in the other.
HELD_BY_BOTH = {"settings": ("RunSettings", "RunSettings"), "target": ("TargetRequest", "Target")}


def _declared_twice(*records: type) -> dict[str, list[str]]:
    """Each field name declared by more than one of `records` → the records declaring it."""
    where: dict[str, list[str]] = {}
    for record in records:
        for f in dataclasses.fields(record):
            where.setdefault(f.name, []).append(record.__name__)
    return {name: owners for name, owners in where.items() if len(owners) > 1}


def _types(name: str) -> tuple[str, str]:
    fields = [
        {f.name: str(f.type) for f in dataclasses.fields(r)}[name]
        for r in (AssessRequest, AssessOptions)
    ]
    return fields[0], fields[1]


def test_no_setting_is_declared_in_two_records() -> None:
    twice = _declared_twice(RunSettings, AssessRequest, AssessOptions)
    assert twice == {name: ["AssessRequest", "AssessOptions"] for name in HELD_BY_BOTH}
    assert {name: _types(name) for name in HELD_BY_BOTH} == HELD_BY_BOTH


def test_a_field_declared_again_is_found() -> None:
    @dataclasses.dataclass(frozen=True)
    class Planted:
        rebuild: bool = False
        out_dir: Path | None = None

    assert _declared_twice(RunSettings, AssessOptions, Planted) == {
        "rebuild": ["RunSettings", "Planted"],
        "out_dir": ["AssessOptions", "Planted"],
    }


def _request(tmp_path: Path, server_url: str | None) -> AssessRequest:
    settings = RunSettings(
        cache_dir=tmp_path / "cache",
        flags={"--build-cmd": "make"},
        revisions=("2025-11-25",),
        rebuild=True,
        concurrency=3,
    )
    return AssessRequest(
        registry=load_registry(),
        target=TargetRequest(sdk="python-sdk-v1", repo="me/sdk", server_url=server_url),
        governance=GovernanceOptions(skip=True),
        settings=settings,
    )


TARGET = Target(name="sdk", repo="me/sdk", ref=None, entry=None, path=None)


def test_the_options_hold_the_request_settings_as_they_are(tmp_path: Path) -> None:
    request = _request(tmp_path, None)
    folder = ReportFolder(tmp_path / "out", "20260801T000000Z")
    options = assess_options(request, TARGET, folder)
    assert options.settings is request.settings
    assert (options.target, options.out_dir, options.run_id, options.server_url) == (
        TARGET,
        tmp_path / "out",
        "20260801T000000Z",
        None,
    )


def test_a_running_server_is_never_built(tmp_path: Path) -> None:
    request = _request(tmp_path, "http://127.0.0.1:9/mcp")
    options = assess_options(request, TARGET, ReportFolder(tmp_path / "out", "r"))
    assert options.server_url == "http://127.0.0.1:9/mcp"
    assert options.settings == dataclasses.replace(request.settings, skip_build=True)
    assert not request.settings.skip_build  # the request itself is left as parsed


def test_the_command_line_builds_the_settings_in_one_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TIERCHECK_MARK", "x")
    parser = assess_parser("tier-check", epilog="")
    args = parser.parse_args(
        [
            "--sdk",
            "python-sdk-v1",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--revision",
            "2025-11-25",
            "--git-url",
            "https://example.invalid/sdk.git",
            "--rebuild",
            "--harness-version",
            "9.9.9",
            "--concurrency",
            "-4",
            "--sequential",
            "--probes",
            "none",
            "--budget",
            str(tmp_path / "budget"),
            "--max-builds",
            "0",
            "--skip-governance",
            "--no-history",
            "--out",
            str(tmp_path / "out"),
        ]
    )
    request = assess_request(args)
    settings = request.settings
    assert settings.cache_dir == tmp_path / "cache"
    assert settings.revisions == ("2025-11-25",)
    assert settings.git_url == "https://example.invalid/sdk.git"
    assert (settings.rebuild, settings.skip_build, settings.sequential) == (True, False, True)
    assert settings.harness_version == "9.9.9"
    assert settings.concurrency == 0  # a negative count means unbounded
    assert settings.probes == ()
    assert settings.budget_dir == (tmp_path / "budget").resolve()
    assert settings.max_builds == 1  # at least one build at once
    assert settings.flags["--expected-failures"] is None  # not given
    assert settings.environ["TIERCHECK_MARK"] == "x"
    assert settings.flags["--build-cmd"] is None  # not given
    assert request.target == TargetRequest(sdk="python-sdk-v1")
    assert (request.out, request.history) == (tmp_path / "out", None)


def test_clients_are_admitted_by_measured_cpu_unless_capped(tmp_path: Path) -> None:
    parser = assess_parser("tier-check", epilog="")
    base = ["--sdk", "python-sdk-v1", "--cache-dir", str(tmp_path / "cache")]
    # No flag: admitted by the CPU they use (no cap); N: a hard cap of N; 0: all at once.
    assert assess_request(parser.parse_args(base)).settings.concurrency is None
    capped = parser.parse_args([*base, "--concurrency", "3"])
    assert assess_request(capped).settings.concurrency == 3
    unbounded = parser.parse_args([*base, "--concurrency", "0"])
    assert assess_request(unbounded).settings.concurrency == 0
