"""noxfile.py runs what .ci/run runs: the same test runs, the same pinned actionlint, and
`TIERCHECK_REQUIRE_TOOLS=1` around every test run. Read from the two files' text (nox need not
be installed)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]
CI = (REPO / ".ci" / "run").read_text(encoding="utf-8")
NOXFILE = ast.parse((REPO / "noxfile.py").read_text(encoding="utf-8"))


def _constant(name: str) -> Any:
    for node in NOXFILE.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == name:
                    return ast.literal_eval(node.value)
                if isinstance(target, ast.Attribute) and ast.unparse(target) == name:
                    return ast.literal_eval(node.value)
    raise AssertionError(f"noxfile.py sets no {name}")


def _sessions() -> dict[str, str]:
    """Each session's name and its source."""
    return {
        node.name: ast.unparse(node)
        for node in NOXFILE.body
        if isinstance(node, ast.FunctionDef)
        and any("nox.session" in ast.unparse(d) for d in node.decorator_list)
    }


def test_nox_runs_every_session_by_default() -> None:
    assert sorted(_constant("nox.options.sessions")) == sorted(_sessions())
    assert set(_sessions()) == {"lint", "types", "layers", "unit", "integration", "slow", "package"}


def test_the_slow_session_runs_what_ci_runs() -> None:
    ci = re.search(r'STRESS_RUNS="\$\{STRESS_RUNS:-(\d+)\}" \.venv/bin/pytest -m slow', CI)
    assert ci is not None
    source = _sessions()["slow"]
    assert "'pytest', '-m', 'slow'" in source
    assert f"os.environ.get('STRESS_RUNS', '{ci.group(1)}')" in source


def test_the_tools_are_required_wherever_tests_run() -> None:
    assert _constant("REQUIRE_TOOLS") == {"TIERCHECK_REQUIRE_TOOLS": "1"}
    for name in ("unit", "integration", "slow"):
        assert "REQUIRE_TOOLS" in _sessions()[name], name
    exported = CI.index("export TIERCHECK_REQUIRE_TOOLS=1")
    assert exported < CI.index(".venv/bin/pytest")
    assert CI.index("go install") < exported
    assert CI.index("apt-get install -y -qq chromium") < exported


def test_nox_pins_the_actionlint_ci_installs() -> None:
    assert f"go install {_constant('ACTIONLINT')}" in CI


def test_the_package_session_runs_what_ci_runs() -> None:
    assert ".ci/package-check" in CI
    assert "'.ci/package-check'" in _sessions()["package"]
