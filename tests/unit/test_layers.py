"""The layer contracts in pyproject.toml hold, and they do fail when a layer imports upward.

The second half matters as much as the first: a contract that cannot fail proves nothing. Each
case copies the package into a temporary folder, adds one forbidden import, and runs
import-linter over the copy with the project's own contracts.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--no-cache", "pyproject.toml"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(
        REPO / "tiercheck",
        root / "tiercheck",
        ignore=shutil.ignore_patterns("__pycache__", "_data"),
    )
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    return root


def test_the_package_keeps_every_contract(tmp_path: Path) -> None:
    result = _lint_imports(_copy(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "BROKEN" not in result.stdout


@pytest.mark.parametrize(
    ("module", "forbidden_import", "contract"),
    [
        ("report/terminal.py", "import tiercheck.sdk.server", "Formatters and signals are pure"),
        ("governance/obtain.py", "import tiercheck.cli.app", "Governance knows nothing"),
        ("scoring.py", "import tiercheck.process", "Formatters and signals are pure"),
        ("config/registry.py", "import tiercheck.pipeline", "Layers point down"),
        ("sdk/markers.py", "import tiercheck.sdk.build", "No import cycles"),
    ],
)
def test_an_upward_import_breaks_a_contract(
    tmp_path: Path, module: str, forbidden_import: str, contract: str
) -> None:
    root = _copy(tmp_path)
    target = root / "tiercheck" / module
    target.write_text(target.read_text(encoding="utf-8") + f"\n{forbidden_import}  # noqa\n")
    result = _lint_imports(root)
    assert result.returncode != 0
    broken = [line for line in result.stdout.splitlines() if line.endswith("BROKEN")]
    assert any(line.startswith(contract) for line in broken), result.stdout
