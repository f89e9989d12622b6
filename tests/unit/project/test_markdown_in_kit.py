"""Markdown is made only in the render kit (`tiercheck/render/markdown.py`).

The code is read, not run: outside `tiercheck/render/`, no module may construct `Md` or `Url`
itself (nor through `str.__new__` or `cast`), reach the kit's private names (`_md`), or hand
`own` or `fmt` anything but a string literal: tiercheck's own wording is written in the source,
and everything else reaches Markdown through a function that neutralises it. Each rule is shown
to catch a planted violation.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from support.code_rules import parse, walk
from tiercheck.render.markdown import Md, own

PACKAGE = Path(__file__).resolve().parents[3] / "tiercheck"
KIT = "tiercheck.render.markdown"
#: The kit's functions whose first argument is taken as Markdown as it is.
LITERAL_ONLY = frozenset({"own", "fmt"})
#: The kit's types: made only by the kit.
TYPES = frozenset({"Md", "Url"})


def _kit_names(tree: ast.Module) -> tuple[dict[str, str], set[str]]:
    """Local name → kit name for names imported from the kit, and the kit's module aliases."""
    names: dict[str, str] = {}
    modules: set[str] = set()
    for node in walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == KIT:
            names.update({a.asname or a.name: a.name for a in node.names})
        elif isinstance(node, ast.ImportFrom) and node.module == "tiercheck.render":
            modules.update(a.asname or a.name for a in node.names if a.name == "markdown")
        elif isinstance(node, ast.Import):
            modules.update(a.asname for a in node.names if a.name == KIT and a.asname)
    return names, modules


def _kit_function(func: ast.expr, names: dict[str, str], modules: set[str]) -> str | None:
    """The kit's name for what `func` calls, when it calls into the kit."""
    if isinstance(func, ast.Name):
        return names.get(func.id)
    if isinstance(func, ast.Attribute):
        base = func.value
        if isinstance(base, ast.Name) and base.id in modules:
            return func.attr
        if ast.unparse(base) == KIT:
            return func.attr
    return None


def _mentions_type(node: ast.AST) -> bool:
    return any(
        (isinstance(n, ast.Name) and n.id in TYPES)
        or (isinstance(n, ast.Attribute) and n.attr in TYPES)
        or (isinstance(n, ast.Constant) and n.value in TYPES)
        for n in ast.walk(node)
    )


def violations(source: str, where: str) -> list[str]:
    """Every place in `source` that makes Markdown outside the kit's functions."""
    tree = parse(source)
    names, modules = _kit_names(tree)
    found = [
        f"{where}: imports the kit's private {name}"
        for local, name in names.items()
        if name.startswith("_")
    ]
    for node in walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
        ):
            found.append(f"{where}:{node.lineno}: reaches the kit's private {node.attr}")
        if not isinstance(node, ast.Call):
            continue
        line = f"{where}:{node.lineno}"
        func = node.func
        called = _kit_function(func, names, modules)
        if called in TYPES or (isinstance(func, ast.Name) and func.id in TYPES):
            found.append(f"{line}: constructs {ast.unparse(func)} itself")
        callee = ast.unparse(func)
        if callee.endswith(("__new__", "cast")) and any(_mentions_type(a) for a in node.args):
            found.append(f"{line}: makes Markdown through {callee}")
        if called in LITERAL_ONLY:
            first = node.args[0] if node.args else None
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                given = ast.unparse(first) if first else "nothing"
                found.append(f"{line}: {called}() takes a string literal, not {given}")
    return found


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "render" not in p.relative_to(PACKAGE).parts)


def test_the_package_makes_markdown_only_through_the_kit() -> None:
    modules = _modules()
    assert len(modules) > 50  # the whole package is read, not an empty folder
    found = [v for p in modules for v in violations(p.read_text("utf-8"), str(p))]
    assert found == []


def test_the_renderers_are_read_and_use_the_kit() -> None:
    # The rules above only mean something if the renderers import the kit the way they expect.
    source = (PACKAGE / "claim" / "markdown.py").read_text("utf-8")
    names, modules = _kit_names(parse(source))
    assert {"own", "fmt"} <= set(names)
    assert modules == {"md"}


PLANTED = {
    "direct Md": "from tiercheck.render.markdown import Md\nx = Md('**hi**')\n",
    "direct Url": "from tiercheck.render import markdown as md\nu = md.Url('javascript:x')\n",
    "bare Url": "from tiercheck.render.markdown import Url as U\nu = U('javascript:x')\n",
    "str.__new__": "from tiercheck.render.markdown import Md\nx = str.__new__(Md, 'x')\n",
    "cast": "from typing import cast\nfrom tiercheck.render.markdown import Md\nx = cast(Md, s)\n",
    "cast by name": "import typing\nx = typing.cast('Md', s)\n",
    "private import": "from tiercheck.render.markdown import _md\nx = _md(s)\n",
    "private attribute": "from tiercheck.render import markdown as md\nx = md._md(s)\n",
    "own of a variable": "from tiercheck.render.markdown import own\nx = own(name)\n",
    "own of an f-string": "from tiercheck.render import markdown as m\nx = m.own(f'# {t}')\n",
    "fmt of a variable": "from tiercheck.render.markdown import fmt\nx = fmt(template, a)\n",
    "aliased fmt": "from tiercheck.render.markdown import fmt as f\nx = f(t + '{}', a)\n",
    "module path": "import tiercheck.render.markdown\nx = tiercheck.render.markdown.own(s)\n",
    "module alias": "import tiercheck.render.markdown as k\nx = k.fmt(s)\n",
}


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_a_planted_violation_is_caught(name: str) -> None:
    assert len(violations(PLANTED[name], name)) == 1


def test_the_kit_used_as_meant_is_no_violation() -> None:
    source = (
        "from tiercheck.render import markdown as md\n"
        "from tiercheck.render.markdown import Md, fmt, own, text\n"
        "def f(name: str) -> Md:\n"
        "    return fmt('**{}**: {}', own('`x`'), md.own('y'), text(name), md.code(name))\n"
    )
    assert violations(source, "fine") == []


def test_md_cannot_be_made_at_run_time_either() -> None:
    with pytest.raises(TypeError, match=r"only by tiercheck\.render\.markdown"):
        Md("**hi**")
    assert isinstance(own("**hi**"), Md)
