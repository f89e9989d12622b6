"""The spec revisions are data (`requirements/revisions.yaml`), read by `tiercheck/revisions.py`.

A code-reading test: every string literal of the package's code (docstrings and comments aside)
is read, and one that is a revision, or that lists revisions (two or more side by side: "one of
2025-11-25, 2026-07-28"), is reported; so is a date compared with anything (`revision >=
"2026-07-28"` decides behaviour by date) and a use of the names the revisions once had in code
(`STATEFUL_REVISION`, `STATELESS_REVISION`, `KNOWN_REVISIONS`, the probes' `MODERN`). A sentence
citing what a revision says ("a SHOULD at 2026-07-28", "2026-07-28: servers MUST …; 2025-11-25:
…") is text about that revision, not the list of revisions, and is left alone. No module is
exempt: `tiercheck/revisions.py` reads the data and spells none.
"""

from __future__ import annotations

import ast
import functools
import re
import shutil
from pathlib import Path

import pytest

from support.code_rules import parse, walk
from tiercheck.revisions import (
    harness_release,
    harness_requirements,
    is_known_revision,
    known_revisions,
    release_date,
    revisions_on,
    unknown_revision,
    wire_of,
)

PACKAGE = Path(__file__).resolve().parents[2] / "tiercheck"

#: The revisions the shipped data names, written out by hand.
SHIPPED = ("2025-11-25", "2026-07-28")
#: Names the revisions had as code; logic that uses one decides by revision, not by data.
RETIRED_NAMES = {"STATEFUL_REVISION", "STATELESS_REVISION", "KNOWN_REVISIONS", "MODERN"}
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_ONE = "|".join(re.escape(r) for r in SHIPPED)
#: Two or more revisions with nothing but a separator between them.
_LISTED = re.compile(rf"(?:{_ONE})(?:\s*(?:,|/|\||\band\b|\bor\b)\s*(?:{_ONE}))+")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the nodes that are docstrings."""
    found: set[int] = set()
    for node in walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _dated_comparisons(tree: ast.AST) -> set[int]:
    """The ids of date literals that are compared with something (`rev >= "2026-07-28"`)."""
    found: set[int] = set()
    for node in walk(tree):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if (
                    isinstance(side, ast.Constant)
                    and isinstance(side.value, str)
                    and _DATE.match(side.value)
                ):
                    found.add(id(side))
    return found


def spelled_revisions(source: str) -> list[tuple[int, str]]:
    """(line, text) of each revision `source`'s code spells: a string literal that is a known
    revision or lists revisions, a date compared with something, or a retired name."""
    return list(_spelled(source))


@functools.cache
def _spelled(source: str) -> tuple[tuple[int, str], ...]:
    # Cached by the text: a module scanned again unchanged (the planted copy) is not re-parsed.
    tree = parse(source)
    docstrings = _docstrings(tree)
    compared = _dated_comparisons(tree)
    found = []
    for node in walk(tree):
        if isinstance(node, ast.Name | ast.alias | ast.Attribute):
            name = (
                node.id
                if isinstance(node, ast.Name)
                else node.attr
                if isinstance(node, ast.Attribute)
                else node.name.rsplit(".", 1)[-1]
            )
            if name in RETIRED_NAMES:
                line = getattr(node, "lineno", None)
                found.append((line or 0, name))
            continue
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            continue
        if id(node) in docstrings:
            continue
        if node.value in SHIPPED or _LISTED.search(node.value) or id(node) in compared:
            found.append((node.lineno, node.value))
    return tuple(sorted(found))


def scan(package: Path) -> dict[str, str]:
    """`module:line` → text of each revision spelled in `package`."""
    return {
        f"{path.relative_to(package).as_posix()}:{line}": text
        for path in sorted(package.rglob("*.py"))
        for line, text in spelled_revisions(path.read_text(encoding="utf-8"))
    }


def test_no_module_spells_a_revision() -> None:
    assert scan(PACKAGE) == {}


def test_the_scan_finds_a_revision_planted_in_the_package(tmp_path: Path) -> None:
    copy = tmp_path / "tiercheck"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "_data"))
    base = copy / "probes" / "base.py"
    base.write_text(base.read_text() + '\nNEWEST = "2026-07-28"\n')
    junit = copy / "scorecard" / "render" / "junit.py"
    junit.write_text(
        junit.read_text() + '\n\ndef _modern(rev: str) -> bool:\n    return rev >= "2026-12-15"\n'
    )
    revisions = copy / "revisions.py"
    revisions.write_text(revisions.read_text() + '\nSTATELESS_REVISION = "x"\n')
    found = scan(copy)
    assert set(found.values()) == {"2026-07-28", "2026-12-15", "STATELESS_REVISION"}
    assert {key.split(":")[0] for key in found} == {
        "probes/base.py",
        "scorecard/render/junit.py",
        "revisions.py",
    }


def test_the_check_finds_each_kind_of_plant() -> None:
    source = '''"""A docstring may cite 2025-11-25 and 2026-07-28."""

from tiercheck.revisions import STATELESS_REVISION
from tiercheck import revisions

REVISIONS = ("2025-11-25", "2026-07-28")


def message(bad: str, revision: str) -> str:
    """Another docstring: 2026-07-28."""
    note = "a SHOULD at 2026-07-28"  # one revision cited in a sentence: fine
    both = "2026-07-28: a MUST; 2025-11-25: a SHOULD"  # what each says: fine
    modern = revision >= "2026-12-15" or revision == revisions.KNOWN_REVISIONS[-1]
    stateless = revision >= STATELESS_REVISION
    return f"{bad!r} is not one of 2025-11-25, 2026-07-28" or "2025-11-25 or 2026-07-28"
'''
    assert spelled_revisions(source) == [
        (3, "STATELESS_REVISION"),
        (6, "2025-11-25"),
        (6, "2026-07-28"),
        (13, "2026-12-15"),
        (13, "KNOWN_REVISIONS"),
        (14, "STATELESS_REVISION"),
        (15, " is not one of 2025-11-25, 2026-07-28"),
        (15, "2025-11-25 or 2026-07-28"),
    ]


def test_the_shipped_data_is_the_two_wires_oldest_first() -> None:
    assert known_revisions() == SHIPPED
    assert wire_of("2025-11-25") == "stateful"
    assert wire_of("2026-07-28") == "stateless"
    assert revisions_on("stateless") == ("2026-07-28",)
    # The spec repository's tags 2025-11-25 (38c84e9) and 2026-07-28 (5f5440b), by their dates.
    assert [release_date(r).isoformat() for r in SHIPPED] == list(SHIPPED)
    assert {harness_release(r) for r in SHIPPED} == {"0.2.0-alpha.12"}
    assert [harness_requirements(r) for r in SHIPPED] == list(SHIPPED)
    assert harness_requirements("2024-11-05") == "2024-11-05"  # no data: passed as it is
    assert is_known_revision("2026-07-28")
    assert not is_known_revision("2026-07-29")
    assert unknown_revision(20261125) == (
        "20261125 is not a known spec revision; use one of 2025-11-25, 2026-07-28"
    )


def test_the_revisions_data_and_harness_sets_are_named_alike() -> None:
    # Each shipped revision's requirement set sits beside the data, under the revision's name.
    folder = PACKAGE.parent / "requirements"
    assert sorted(p.stem for p in folder.glob("20*.yaml")) == list(SHIPPED)


@pytest.mark.parametrize("name", ["STATEFUL_REVISION", "KNOWN_REVISIONS"])
def test_the_retired_names_are_gone(name: str) -> None:
    import tiercheck.revisions as module

    assert not hasattr(module, name)
