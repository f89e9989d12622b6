"""A test that needs Chromium or actionlint skips without it, and fails instead under
`TIERCHECK_REQUIRE_TOOLS=1` (what `.ci/run` and nox's test sessions set).

The real browser test is run in a pytest of its own with nothing but git on its PATH; the
actionlint rule is called through test_action's own helper with no actionlint found.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from support import browser, tools

REPO = Path(__file__).resolve().parents[3]
BROWSER_TEST = (
    "tests/unit/render/test_hostile_table.py::"
    "test_chromium_finds_no_element_or_request_from_sdk_text"
)


def _pytest_without_chromium(tmp_path: Path, required: str | None) -> str:
    """The outcome line of the real browser test, run where no Chromium can be found."""
    bare = tmp_path / "bin"  # git alone: the suite's conftest imports GitPython
    bare.mkdir(exist_ok=True)
    git = shutil.which("git")
    assert git is not None
    if not (bare / "git").exists():
        (bare / "git").symlink_to(git)
    env = {k: v for k, v in os.environ.items() if k != tools.REQUIRE_TOOLS}
    env["PATH"] = str(bare)
    if required is not None:
        env[tools.REQUIRE_TOOLS] = required
    # Hypothesis's and anyio's plugins are left out: the browser test uses neither, and
    # importing them is much of this pytest's start. Its own --basetemp keeps it from clearing
    # out old numbered folders of other pytest runs under the shared temporary root, which
    # a run with the default one does as it ends.
    argv = [
        *("-n", "0", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:anyio"),
        *("--basetemp", str(tmp_path / "basetemp"), "-q", BROWSER_TEST),
    ]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *argv],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr


def test_the_browser_test_skips_without_chromium(tmp_path: Path) -> None:
    outcome = _pytest_without_chromium(tmp_path, None)
    assert "1 skipped" in outcome, outcome
    assert "failed" not in outcome


def test_the_browser_test_fails_without_chromium_when_tools_are_required(tmp_path: Path) -> None:
    outcome = _pytest_without_chromium(tmp_path, "1")
    assert "1 failed" in outcome, outcome
    assert "skipped" not in outcome


def test_only_the_value_1_requires_the_tools(tmp_path: Path) -> None:
    assert "1 skipped" in _pytest_without_chromium(tmp_path, "0")


def _action_tests() -> ModuleType:
    path = REPO / "tests" / "unit" / "project" / "test_action.py"
    spec = importlib.util.spec_from_file_location("action_tests", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("required", "outcome"),
    [(None, pytest.skip.Exception), ("1", pytest.fail.Exception)],
)
def test_the_actionlint_tests_skip_or_fail_without_actionlint(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    required: str | None,
    outcome: type[BaseException],
) -> None:
    action_tests = _action_tests()
    monkeypatch.setattr(action_tests, "_actionlint", lambda: None)
    monkeypatch.delenv(tools.REQUIRE_TOOLS, raising=False)
    if required is not None:
        monkeypatch.setenv(tools.REQUIRE_TOOLS, required)
    with pytest.raises(outcome, match="actionlint is not installed"):
        action_tests._lint_project(tmp_path, {})
    assert not (tmp_path / "project").exists()


def test_a_chromium_found_is_returned_whatever_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(browser, "CHROMIUM", "/opt/chromium")
    monkeypatch.setenv(tools.REQUIRE_TOOLS, "1")
    assert browser.require_chromium() == "/opt/chromium"
