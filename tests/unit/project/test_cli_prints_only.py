"""`tiercheck/cli/` parses argv and prints: the code says so.

Each verb is a typed request run by a module of `tiercheck.pipeline`; the command line builds
the request from its flags and prints what comes back. So a module of `tiercheck/cli/` imports,
of the package, only:

- `tiercheck.cli.*` (itself) and `tiercheck.pipeline.*` (the requests and the functions that
  run them);
- `tiercheck.errors` (the errors it turns into stderr lines and exit codes),
  `tiercheck.document_formats` (the renderers of what it prints), `tiercheck.plaintext`
  (cleaning what it prints) and `tiercheck.__version__` (`--version`);
- and the imports of `EXCEPTIONS`, each one module's, with the reason it is parsing or printing.

Imports under `if TYPE_CHECKING:` run nothing and are not read. Any other import (a scorer, a
renderer of the scorecard's own, the SDK's checkout) is a finding: the work belongs in the
pipeline.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

import pytest

from support.code_rules import modules, parse

CLI = "tiercheck.cli"

#: What any module of `tiercheck/cli/` may import from the package, and why.
ALLOWED: dict[str, str] = {
    CLI: "the command line itself: the parsers, the shared flags and stdout",
    "tiercheck.pipeline": "the requests and the command functions that run them",
    "tiercheck.errors": "the errors it turns into stderr lines and exit codes",
    "tiercheck.document_formats": "the renderers of what it prints",
    "tiercheck.plaintext": "cleaning what it prints",
    "tiercheck.__version__": "`--version`",
}

#: (cli module, imported module) → why it is parsing or printing.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("tiercheck.cli.app", "tiercheck.process"): (
        "the process group the command runs in, and the signals that end it"
    ),
    ("tiercheck.cli.common", "tiercheck.paths"): "`writable_dir`: an argparse type",
    ("tiercheck.cli.common", "tiercheck.config.registry"): (
        "`known_sdks`: the registry `--registry FILE` names, read as the flags are, its "
        "warnings printed; every request that names an SDK carries it"
    ),
    ("tiercheck.cli.notify", "tiercheck.target"): "`check_repo`: `--repo`'s argparse type",
    ("tiercheck.cli.governance", "tiercheck.target"): "`check_repo`: `--repo`'s argparse type",
    ("tiercheck.cli.governance", "tiercheck.config.seconds"): (
        "`parse_seconds`: `--governance-deadline`'s fallback variable, read as the flag is"
    ),
    ("tiercheck.cli.publish", "tiercheck.dashboard.panel"): (
        "`check_base_url`: `--base-url`'s shape, checked as the flag is read"
    ),
    ("tiercheck.cli.config_verbs", "tiercheck.config.requirements"): (
        "`requirements REV` prints a requirement set as it is read: nothing is run or decided"
    ),
    ("tiercheck.cli.config_verbs", "tiercheck.revisions"): "`LEGS`: the order it prints legs in",
    ("tiercheck.cli.referee", "tiercheck.paths"): "`--cache-dir`'s default and argparse type",
    ("tiercheck.cli.referee", "tiercheck.referee.report"): "`render_report`: what it prints",
    ("tiercheck.cli.referee", "tiercheck.referee.tree"): "`default_root`: `--root`'s default",
}


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the imports under `if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
            found |= {id(inner) for stmt in node.body for inner in ast.walk(stmt)}
    return found


def package_imports(source: str) -> Iterator[tuple[int, str]]:
    """(line, module) of each import of the package that runs: `from tiercheck import X` is
    `tiercheck.X`."""
    tree = parse(source)
    skip = _type_checking_only(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module == "tiercheck":
                names = [f"tiercheck.{alias.name}" for alias in node.names]
            else:
                names = [node.module]
        else:
            continue
        for name in names:
            if name == "tiercheck" or name.startswith("tiercheck."):
                yield node.lineno, name


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(f"{package}.")


def computing_imports(module: str, source: str) -> list[str]:
    """The imports of `source` (the cli module `module`) that are neither allowed nor listed,
    as "module (line n)", in line order."""
    found = []
    for line, name in sorted(package_imports(source)):
        if any(_within(name, allowed) for allowed in ALLOWED):
            continue
        if any(_within(name, imported) for (where, imported) in EXCEPTIONS if where == module):
            continue
        found.append(f"{name} (line {line})")
    return found


def _cli_modules() -> dict[str, str]:
    return {name: source for name, source in modules() if _within(name, CLI)}


def test_cli_imports_only_requests_and_printing() -> None:
    found = {name: computing_imports(name, source) for name, source in _cli_modules().items()}
    assert {name: imports for name, imports in found.items() if imports} == {}, (
        "a cli module imports what computes: give the verb a request and a pipeline module, "
        "or list the import in EXCEPTIONS with why it is parsing or printing"
    )


def test_every_exception_is_still_used() -> None:
    cli = _cli_modules()
    stale = [
        (where, imported)
        for (where, imported) in EXCEPTIONS
        if not any(_within(name, imported) for _, name in package_imports(cli.get(where, "")))
    ]
    assert stale == [], "remove what no cli module imports any more from EXCEPTIONS"


def test_every_exception_has_a_reason() -> None:
    assert all(reason.strip() for reason in (*ALLOWED.values(), *EXCEPTIONS.values()))


@pytest.mark.parametrize(
    ("planted", "found"),
    [
        ("from tiercheck.scoring import score\n", ["tiercheck.scoring (line 1)"]),
        ("import tiercheck.scoring\n", ["tiercheck.scoring (line 1)"]),
        (
            "def run(args):\n    from tiercheck.probes import run_probes\n    return run_probes\n",
            ["tiercheck.probes (line 2)"],
        ),
        ("from tiercheck import scoring\n", ["tiercheck.scoring (line 1)"]),
        # The target is allowed in notify as an argparse type, not in a module not listed.
        ("from tiercheck.target import resolve_target\n", ["tiercheck.target (line 1)"]),
        # Not findings: the request and its function, printing, a type-only import, the
        # standard library.
        (
            "from tiercheck.pipeline.score import ScoreRequest, score\n"
            "from tiercheck.document_formats import DIFF_FORMATS\n"
            "from tiercheck.errors import UsageError\n"
            "from tiercheck import __version__\n"
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from tiercheck.scorecard.model import Scorecard\n"
            "import argparse\n",
            [],
        ),
    ],
)
def test_planted_imports_are_found(planted: str, found: list[str]) -> None:
    assert computing_imports("tiercheck.cli.synthetic", planted) == found


def test_an_exception_is_one_modules() -> None:
    source = "from tiercheck.target import check_repo\n"
    assert computing_imports("tiercheck.cli.notify", source) == []
    assert computing_imports("tiercheck.cli.score", source) == ["tiercheck.target (line 1)"]
