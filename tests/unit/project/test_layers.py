"""The layer contracts in pyproject.toml hold, and they do fail when a layer imports upward.

The second half matters as much as the first: a contract that cannot fail proves nothing. The
package is copied into a temporary folder and import-linter runs over the copy with the
project's own contracts: once as it is, and once with every forbidden import of `PLANTED` added
(each on a line of its own at the end of its module). Each case then finds, in that one report,
its own import reported on its own, at the line it was planted on, under the contract it breaks:
no other plant can stand in for it.
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
    # Wide enough that no line of the report wraps.
    env = {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "1000"}
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


#: (module, the import planted in it, the contract it breaks, as the report's heading starts).
PLANTED = [
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
]


_CYCLES = "No import cycles"


def _module(path: str) -> str:
    """`sdk/markers.py` → `tiercheck.sdk.markers`."""
    parts = path.removesuffix(".py").split("/")
    return ".".join(
        ["tiercheck", *parts[:-1]] if parts[-1] == "__init__" else ["tiercheck", *parts]
    )


def _sections(report: str) -> dict[str, list[str]]:
    """The lines of each broken contract's part of the report, by its heading (a line
    underlined with dashes, after "Broken contracts")."""
    lines = report.splitlines()
    first = lines.index("Broken contracts") + 2
    sections: dict[str, list[str]] = {}
    current: list[str] = []
    for line, under in zip(lines[first:], [*lines[first + 1 :], ""], strict=True):
        if under and set(under) == {"-"} and len(under) == len(line):
            current = sections.setdefault(line, [])
        elif not (line and set(line) == {"-"}):
            current.append(line)
    return sections


def _chains(lines: list[str]) -> list[tuple[str, ...]]:
    """Each reported chain of imports: a line starting with "-", and the indented lines that go
    on with it, each link stripped."""
    chains: list[list[str]] = []
    current: list[str] | None = None
    for line in lines:
        if line.startswith("-"):
            current = [line[1:].strip()]
            chains.append(current)
        elif line.startswith(" ") and line.strip() and current is not None:
            current.append(line.strip())
        else:
            current = None
    return [tuple(chain) for chain in chains]


@pytest.fixture(scope="module")
def planted_report(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[int, str, dict[tuple[str, str], int]]:
    """import-linter's exit code and report over one copy of the package holding every import
    of `PLANTED`, and the line each was planted on, by (module, import)."""
    root = _copy(tmp_path_factory.mktemp("planted"))
    planted_on: dict[tuple[str, str], int] = {}
    for module, forbidden_import, _ in PLANTED:
        target = root / "tiercheck" / module
        text = target.read_text(encoding="utf-8") + f"\n{forbidden_import}  # noqa\n"
        target.write_text(text, encoding="utf-8")
        planted_on[module, forbidden_import] = text.count("\n")
    result = _lint_imports(root)
    return result.returncode, result.stdout + result.stderr, planted_on


@pytest.mark.parametrize(("module", "forbidden_import", "contract"), PLANTED)
def test_an_upward_import_breaks_a_contract(
    planted_report: tuple[int, str, dict[tuple[str, str], int]],
    module: str,
    forbidden_import: str,
    contract: str,
) -> None:
    code, report, planted_on = planted_report
    assert code != 0, report
    # "NAME BROKEN", or "NAME BROKEN (n ignored imports)" for a contract with ignore_imports.
    broken = [line for line in report.splitlines() if "BROKEN" in line]
    assert any(line.startswith(contract) for line in broken), report
    (heading,) = [name for name in _sections(report) if name.startswith(contract)]
    section = _sections(report)[heading]
    importer = _module(module)
    imported = forbidden_import.removeprefix("import ")
    if contract.startswith(_CYCLES):
        # "No cycles are allowed in PACKAGE." and the dependencies whose removal breaks them.
        package, name = importer.rsplit(".", 1)
        assert imported.startswith(f"{package}."), "a cycle is planted between siblings"
        start = section.index(f"No cycles are allowed in {package}.")
        following = [i for i, text in enumerate(section) if text.startswith("No cycles")]
        block = section[start : min([i for i in following if i > start], default=len(section))]
        sibling = f"- .{name} -> .{imported.removeprefix(package + '.')} ("
        assert any(text.startswith(sibling) for text in block), "\n".join(section)
        return
    line = planted_on[module, forbidden_import]
    # Reported on its own: a chain of this one import, at the line it was planted on.
    assert (f"{importer} -> {imported} (l.{line})",) in _chains(section), "\n".join(section)


# --- rules an import contract cannot see ---------------------------------------------------

from support.code_rules import (  # noqa: E402
    OUT_WRITER,
    PROGRAMS,
    WRITERS,
    file_writes,
    modules,
    parse,
    process_calls,
    walk,
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


def test_every_command_module_sits_above_the_assessments_steps() -> None:
    import tomllib

    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [
        c
        for c in config["tool"]["importlinter"]["contracts"]
        if c["name"] == "The assessment's steps know no command"
    ]
    commands, steps = contract["layers"]
    pipeline = REPO / "tiercheck" / "pipeline"
    present = {
        path.stem if path.suffix == ".py" else path.name
        for path in pipeline.iterdir()
        if path.name != "__init__.py" and (path.suffix == ".py" or (path / "__init__.py").is_file())
    }
    assert steps == "assess"
    assert {name.strip() for name in commands.split(":")} == present - {"assess"}


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
        for node in walk(parse(source))
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
