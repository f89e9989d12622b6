"""`tier-check matrix` flags become one typed `MatrixRequest`; nothing is read or run but the
registry and the cache folder's check."""

from __future__ import annotations

from pathlib import Path

import pytest

from tiercheck.cli.matrix import matrix_parser, matrix_request
from tiercheck.errors import UsageError
from tiercheck.pipeline.matrix.request import MatrixBudgets, MatrixReports, RowOptions, RowSelection


def test_the_flags_become_one_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    argv = ["--sdk", "go-sdk@v1", "--sdk", "python-sdk", "--matrix", "m.yaml", "--all"]
    argv += ["--cache-dir", str(tmp_path / "cache"), "--max-rows", "3", "--reuse"]
    argv += ["--previous", "./old.json", "--fail-on", "regression", "--out", "here"]
    argv += ["--governance-snapshot", "s.json", "--as-of", "2026-01-31", "--no-history"]
    request = matrix_request(matrix_parser("tier-check matrix").parse_args(argv))
    assert request.rows == RowSelection(
        sdk=("go-sdk@v1", "python-sdk"), matrix_file=Path("m.yaml"), every_line=True
    )
    assert request.cache_dir == tmp_path / "cache"
    assert request.reports == MatrixReports(
        out=Path("here"),
        previous="./old.json",
        fail_on=frozenset({"regression"}),
        step_summary=tmp_path / "summary.md",
    )
    assert request.budgets == MatrixBudgets(concurrency=None, max_builds=2, max_rows=3)
    assert request.options == RowOptions(
        governance_snapshot=Path("s.json"), as_of="2026-01-31", reuse=True, no_history=True
    )
    assert "go-sdk" in request.registry.names()


def test_a_bad_fail_on_is_refused_before_the_registry_is_read(tmp_path: Path) -> None:
    argv = ["--sdk", "x", "--fail-on", "regression", "--registry", str(tmp_path / "none.yaml")]
    with pytest.raises(UsageError) as info:
        matrix_request(matrix_parser("tier-check matrix").parse_args(argv))
    assert "--fail-on regression compares with a previous matrix" in info.value.message
