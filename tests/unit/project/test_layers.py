"""The layer contracts in pyproject.toml hold, and they do fail when a layer imports upward.

The second half matters as much as the first: a contract that cannot fail proves nothing. Each
case copies the package into a temporary folder, adds one forbidden import, and runs
import-linter over the copy with the project's own contracts.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


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
        (
            "scorecard/render/terminal.py",
            "import tiercheck.sdk.server",
            "Formatters and signals are pure",
        ),
        ("governance/obtain.py", "import tiercheck.cli.app", "Governance knows nothing"),
        # The governance table is a formatter, though its package reaches GitHub.
        ("governance/table.py", "import github", "Formatters and signals are pure"),
        ("scoring.py", "import tiercheck.process", "Formatters and signals are pure"),
        ("config/registry.py", "import tiercheck.pipeline", "Layers point down"),
        ("document_formats.py", "import tiercheck.pipeline.run", "Layers point down"),
        ("document_files.py", "import tiercheck.publish.site", "Layers point down"),
        ("scorecard/render/html.py", "import tiercheck.claim.pack", "Layers point down"),
        ("sdk/markers.py", "import tiercheck.sdk.build", "No import cycles"),
        # The assessment's steps sit below every command that runs them.
        (
            "pipeline/assess/legs.py",
            "import tiercheck.pipeline.run",
            "The assessment's steps know no command",
        ),
        ("pipeline/assess/plan.py", "import tiercheck.pipeline.matrix.run", "The assessment's"),
        ("pipeline/assess/silent.py", "import tiercheck.pipeline.claim", "The assessment's"),
        # Independent layers (`|`): siblings that must not import each other.
        ("history/record.py", "import tiercheck.matrix.model", "Layers point down"),
        ("probes/base.py", "import tiercheck.governance.snapshot", "Layers point down"),
        ("config/registry.py", "import tiercheck.process", "Layers point down"),
        ("baseline.py", "import tiercheck.tier", "Layers point down"),
        # The GitHub edge sits below governance and notify, and notify reaches no governance.
        ("ghapi/session.py", "import tiercheck.governance.snapshot", "Layers point down"),
        ("notify/github.py", "import tiercheck.governance.collector", "Notify knows nothing"),
        # Only tiercheck.process starts processes; GitPython only in sdk.checkout.
        ("config/registry.py", "import subprocess", "Only tiercheck.process starts processes"),
        ("sdk/build.py", "import git", "Only tiercheck.process starts processes"),
        ("cli/app.py", "import multiprocessing", "Only tiercheck.process starts processes"),
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
    # "NAME BROKEN", or "NAME BROKEN (n ignored imports)" for a contract with ignore_imports.
    broken = [line for line in result.stdout.splitlines() if "BROKEN" in line]
    assert any(line.startswith(contract) for line in broken), result.stdout


# --- rules an import contract cannot see ---------------------------------------------------

from support.code_rules import (  # noqa: E402
    OUT_WRITER,
    PROGRAMS,
    WRITERS,
    file_writes,
    modules,
    process_calls,
)


def _top_level_modules() -> set[str]:
    names = set()
    for path in (REPO / "tiercheck").iterdir():
        if path.name.startswith("_") and path.name != "__main__.py":
            continue
        if path.is_dir() and (path / "__init__.py").is_file():
            names.add(f"tiercheck.{path.name}")
        elif path.suffix == ".py":
            names.add(f"tiercheck.{path.stem}")
    return names


def test_the_process_contract_covers_every_module_but_process() -> None:
    import tomllib

    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [
        c
        for c in config["tool"]["importlinter"]["contracts"]
        if c["name"].startswith("Only tiercheck.process starts processes")
    ]
    assert set(contract["source_modules"]) == _top_level_modules() - {"tiercheck.process"}
    assert contract["ignore_imports"] == ["tiercheck.sdk.checkout -> git"]


def test_only_process_starts_processes_by_any_os_call() -> None:
    found = {
        name: list(process_calls(source))
        for name, source in modules()
        if name != "tiercheck.process"
    }
    assert {name: calls for name, calls in found.items() if calls and name not in PROGRAMS} == {}
    # The programs do start processes (so the rule above would have caught them), and nothing
    # in tiercheck imports them.
    assert all(found[name] for name in PROGRAMS)
    imported = {
        f"{node.module}.{alias.name}" if isinstance(node, ast.ImportFrom) else alias.name
        for _, source in modules()
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert not imported & set(PROGRAMS)


def test_a_planted_fork_is_found() -> None:
    planted = (
        "import os\n\ndef go() -> None:\n    if os.fork() == 0:\n        os.execvp('sh', ['sh'])\n"
    )
    assert list(process_calls(planted)) == ["os.fork (line 4)", "os.execvp (line 5)"]


def test_every_module_that_writes_files_is_known_and_only_the_writer_writes_reports() -> None:
    writers = {name for name, source in modules() if any(file_writes(source))}
    assert writers == set(WRITERS), "a new writer: add it to tests/support/code_rules.py WRITERS"
    reports = [name for name, place in WRITERS.items() if place.startswith("--out:")]
    assert reports == [OUT_WRITER]


@pytest.mark.parametrize(
    ("planted", "found"),
    [
        ("from pathlib import Path\nPath('x').write_text('y')\n", [".write_text (line 2)"]),
        (
            "def f(p):\n    with open(p, 'w') as h:\n        h.write('x')\n",
            ["open(mode='w') (line 2)"],
        ),
        ("def f(p):\n    return p.open('ab')\n", ["open(mode='ab') (line 2)"]),
        (
            "from tiercheck import durable\ndurable.write_text(p, 't')\n",
            ["durable.write_text (line 2)"],
        ),
        ("import shutil\nshutil.copy('a', 'b')\n", ["shutil.copy (line 2)"]),
        ("def f(p):\n    return open(p).read()\n", []),
    ],
)
def test_a_planted_file_write_is_found(planted: str, found: list[str]) -> None:
    assert list(file_writes(planted)) == found
