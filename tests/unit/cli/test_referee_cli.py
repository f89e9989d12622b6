"""`tier-check referee update` on the command line: the report on stdout, progress on stderr,
exit 0 written (or a dry run), 1 blocked, 2 bad input. The releases are the recorded ones
(`support.referee_releases`): the pipeline is handed their fetch, nothing else is replaced."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from support.referee_releases import TODAY, answers, fake_fetch, tree_pinned_to
from tiercheck.cli import main
from tiercheck.pipeline import referee as pipeline

ALPHA_11 = "0.2.0-alpha.11"


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    """The command's pipeline call, given the recorded releases instead of npm."""

    def run(request: pipeline.RefereeUpdateRequest, *, say: Callable[[str], None]) -> Any:
        return pipeline.referee_update(request, say=say, fetch=fake_fetch)

    monkeypatch.setattr("tiercheck.cli.referee.run", run)
    return run


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TIERCHECK_CACHE", str(tmp_path / "cache"))


def _argv(tree: Path, *extra: str) -> list[str]:
    return ["referee", "update", "--harness", TODAY, "--root", str(tree), *extra]


def test_an_update_prints_the_report_and_writes_the_tree(
    recorded: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tree = tree_pinned_to(tmp_path / "tree", ALPHA_11)
    assert main(_argv(tree)) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith(
        "referee: @modelcontextprotocol/conformance 0.2.0-alpha.11 → 0.2.0-alpha.12\n"
    )
    assert "files written, for review (git diff):\n" in captured.out
    assert "tier-check: recorded 0.2.0-alpha.11\n" in captured.err
    assert "tier-check: took today's pin " in captured.err
    assert TODAY in (tree / "runners/package.json").read_text()


def test_a_dry_run_writes_nothing_and_exits_0(
    recorded: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tree = tree_pinned_to(tmp_path / "tree", ALPHA_11)
    assert main(_argv(tree, "--dry-run")) == 0
    assert "files that would change (nothing written):\n" in capsys.readouterr().out
    assert ALPHA_11 in (tree / "runners/package.json").read_text()


def test_a_blocked_change_exits_1(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = {k: v for k, v in answers(TODAY).sets.items() if k != "2025-11-25"}

    def fetch(version: str, runners: Path, scratch: Path, say: Callable[[str], None]) -> Any:
        release = fake_fetch(version, runners, scratch, say)
        if version != TODAY:
            return release
        return dataclasses.replace(release, answers=dataclasses.replace(release.answers, sets=gone))

    def run(request: pipeline.RefereeUpdateRequest, *, say: Callable[[str], None]) -> Any:
        return pipeline.referee_update(request, say=say, fetch=fetch)

    monkeypatch.setattr("tiercheck.cli.referee.run", run)
    tree = tree_pinned_to(tmp_path / "tree", ALPHA_11)
    assert main(_argv(tree)) == 1
    out = capsys.readouterr().out
    assert "BLOCKED: nothing is written until these are resolved\n" in out
    assert ALPHA_11 in (tree / "runners/package.json").read_text()


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--harness", "latest"], "give an exact release (e.g. 0.2.0-alpha.12)"),
        (["--harness", TODAY, "--root", "/nonexistent"], "no runners/package.json"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    recorded: object, argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["referee", "update", *argv]) == 2
    err = capsys.readouterr().err
    assert says in err
    assert err.startswith("tier-check")


def test_the_release_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["referee", "update", "--dry-run"])
    assert exited.value.code == 2
    assert "the following arguments are required: --harness" in capsys.readouterr().err
