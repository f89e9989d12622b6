"""Words that must stay true: what the package docstrings and the report writer say is there.

A package's docstring names its modules as "(`name`)"; each must be a module or package of it.
`write_reports` lists the files it writes; each file the scorecard's format table writes must be
in that list.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tiercheck.document_files import write_reports
from tiercheck.document_formats import SCORECARD_FORMATS

PACKAGE = Path(__file__).resolve().parents[3] / "tiercheck"
_NAMED_MODULE = re.compile(r"\(`([a-z_]+)`\)")
PACKAGES = sorted(p.parent for p in PACKAGE.rglob("__init__.py") if "__pycache__" not in p.parts)


def modules_named(docstring: str) -> list[str]:
    """The names a docstring gives as "(`name`)"."""
    return _NAMED_MODULE.findall(docstring)


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_a_package_docstring_names_only_modules_it_has(package: Path) -> None:
    docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text("utf-8"))) or ""
    missing = [
        name
        for name in modules_named(docstring)
        if not (package / f"{name}.py").is_file() and not (package / name / "__init__.py").is_file()
    ]
    assert missing == [], f"{package.name}/__init__.py names modules it lacks: {missing}"


def test_a_named_module_is_found() -> None:
    assert modules_named("its model (`model`), builder (`build`) and `tier-check`") == [
        "model",
        "build",
    ]


def test_write_reports_lists_every_file_it_writes() -> None:
    doc = write_reports.__doc__ or ""
    files = [name for name in SCORECARD_FORMATS.file_names().values() if f"`{name}`" not in doc]
    assert files == [], f"write_reports's docstring leaves out {files}"
