"""The run's settings: declared once (`RunSettings`), held by the request and by the options, and
built from the command line's flags in one place."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tiercheck.cli.assess import assess_parser, assess_request
from tiercheck.config.registry import load_registry
from tiercheck.config.resolve import ConfigFlags
from tiercheck.governance.obtain import GovernanceOptions
from tiercheck.pipeline.assess.base import AssessOptions, RunSettings
from tiercheck.pipeline.assess.options import ASSESSMENT, declared_in, from_args, to_argv
from tiercheck.pipeline.assess.output import ReportFolder
from tiercheck.pipeline.assess.request import AssessCommand, AssessRequest, TargetRequest
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
        flags=ConfigFlags({"--build-cmd": "make"}),
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
    assert settings.flags.value("--expected-failures") is None  # not given
    assert settings.environ["TIERCHECK_MARK"] == "x"
    assert settings.flags.value("--build-cmd") is None  # not given
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


# --- written as argv, read back -------------------------------------------------------------


def test_every_setting_but_the_environment_is_bound_to_an_option() -> None:
    # A new setting is one option and one field bound to it: the parser, the request and a
    # matrix row's argv then have it without another line.
    bound = declared_in(RunSettings)
    assert set(bound) == {f.name for f in dataclasses.fields(RunSettings)} - {"environ"}
    assert set(declared_in(TargetRequest)) == {f.name for f in dataclasses.fields(TargetRequest)}
    on_the_parser = set(ASSESSMENT)
    for record in (RunSettings, TargetRequest, AssessRequest, AssessCommand):
        assert set(declared_in(record).values()) <= on_the_parser, record


def _every_setting(tmp_path: Path) -> RunSettings:
    """Settings with every field away from its default."""
    return RunSettings(
        cache_dir=tmp_path / "cache",
        flags=ConfigFlags(
            {
                "--build-cmd": "make all",
                "--tag-prefix": "sdk-v",
                "--server-cmd": "./serve --port {port}",
                "--server-url": "http://127.0.0.1:{port}/mcp",
                "--client-cmd": "./client",
                "--expected-failures": ("server=s.yml", "client@2025-11-25=c d.yml", "b.yml"),
                "--ready-timeout": "12.5",
                "--client-timeout": "0.1",
            }
        ),
        environ={"TIERCHECK_MARK": "x"},
        revisions=("2025-11-25", "2026-07-28"),
        git_url="https://example.invalid/sdk.git",
        rebuild=True,
        skip_build=True,
        harness_version="9.9.9",
        concurrency=0,
        sequential=True,
        cold_clients=True,
        probes=("dns-rebind", "session-id"),
        budget_dir=(tmp_path / "budget").resolve(),
        max_builds=3,
    )


@pytest.mark.parametrize("every", [True, False], ids=["every-setting", "the-defaults"])
def test_settings_written_as_argv_are_read_back_the_same(tmp_path: Path, every: bool) -> None:
    settings = _every_setting(tmp_path) if every else RunSettings(cache_dir=tmp_path / "cache")
    argv = to_argv(settings)
    if not every:
        assert argv == ["--cache-dir", str(tmp_path / "cache")]  # a default is left out
    args = assess_parser("tier-check", epilog="").parse_args(argv)
    assert from_args(RunSettings, args, environ=settings.environ) == settings


def test_no_probes_and_no_cap_are_written_too(tmp_path: Path) -> None:
    settings = RunSettings(cache_dir=tmp_path, probes=(), concurrency=None)
    assert to_argv(settings)[2:] == ["--probes", "none"]
    args = assess_parser("tier-check", epilog="").parse_args(to_argv(settings))
    assert from_args(RunSettings, args) == settings


def test_a_matrix_row_is_read_by_its_tier_check_as_it_was_written(tmp_path: Path) -> None:
    from tiercheck.governance.obtain import parse_as_of
    from tiercheck.pipeline.assess.request import HistoryRequest

    registry = load_registry().path
    command = AssessCommand(
        target=TargetRequest(sdk="python-sdk-v1@main"),
        settings=dataclasses.replace(_every_setting(tmp_path), skip_build=False),
        registry=registry,
        governance_snapshot=tmp_path / "snapshot.json",
        as_of="2026-01-31",
        history=tmp_path / "h.sqlite",
        reuse=True,
        out=tmp_path / "rows" / "python-sdk-v1@main",
    )
    args = assess_parser("tier-check", epilog="").parse_args(command.argv())
    target = from_args(TargetRequest, args)
    settings = from_args(RunSettings, args, environ=command.settings.environ)
    assert from_args(AssessCommand, args, target=target, settings=settings) == command
    # The child's own reading, as `tier-check` builds its request from that argv.
    request = assess_request(args)
    assert request.target == command.target
    assert request.settings == dataclasses.replace(
        command.settings, environ=request.settings.environ
    )
    assert request.registry.path == registry
    assert request.out == command.out
    assert request.history == HistoryRequest(tmp_path / "h.sqlite", reuse=True)
    assert request.governance.snapshot == command.governance_snapshot
    assert request.governance.as_of == parse_as_of("2026-01-31")
    assert not request.governance.skip
