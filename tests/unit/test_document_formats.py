"""The one table of formats: every renderer it names as text is there, sits below the table,
and is imported only when it renders.

An import contract cannot see "module:function" in a string, so this test reads the names: each
must import and be a function, and its module's floor in the "Layers point down" contract of
pyproject.toml must be below the floor of `tiercheck.document_formats`, as an import from the
table would have to be.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tiercheck.document_formats import REGISTRIES, Format, FormatRegistry, json_text

REPO = Path(__file__).resolve().parents[2]

FORMATS = [
    pytest.param(fmt, id=f"{kind}:{fmt.name}")
    for kind, registry in REGISTRIES.items()
    for fmt in registry.formats
]


def _floors() -> dict[str, int]:
    """Each top-level module of the package → its floor in "Layers point down" (0 is the top)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [
        c for c in config["tool"]["importlinter"]["contracts"] if c["name"] == "Layers point down"
    ]
    floors = {}
    for floor, layer in enumerate(contract["layers"]):
        for name in layer.replace(":", "|").split("|"):
            floors[name.strip()] = floor
    return floors


def _top(module: str) -> str:
    return ".".join(module.split(".")[:2])


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_renderer_named_is_a_function(fmt: Format[object]) -> None:
    assert fmt.renderer.count(":") == 1, fmt.renderer
    assert callable(fmt.load())


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_renderer_sits_below_the_table(fmt: Format[object]) -> None:
    module = fmt.renderer.partition(":")[0]
    if not module.startswith("tiercheck."):
        return  # the standard library
    floors = _floors()
    assert floors[_top(module)] > floors["tiercheck.document_formats"], module


def test_a_renderer_above_the_table_is_found() -> None:
    floors = _floors()
    assert floors[_top("tiercheck.pipeline.run")] < floors["tiercheck.document_formats"]
    assert floors[_top("tiercheck.scorecard.render.html")] > floors["tiercheck.document_formats"]


def test_reading_the_tables_imports_no_renderer() -> None:
    code = (
        "import sys\n"
        "from tiercheck.document_formats import REGISTRIES\n"
        "for registry in REGISTRIES.values():\n"
        "    registry.choices(), registry.file_names()\n"
        "names = {f.renderer.partition(':')[0] for r in REGISTRIES.values() for f in r.formats}\n"
        "print(' '.join(sorted(n for n in names if n in sys.modules and n != 'builtins')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.split() == []


def test_a_format_passes_colour_only_to_a_renderer_that_takes_it() -> None:
    plain: Format[str] = Format("upper", "tiercheck.plaintext:one_line")
    assert plain.render("a\nb", color=True) == "a b"
    data: Format[list[int]] = Format("json", "builtins:list", data=True)
    assert data.render([1, 2], color=False) == json_text([1, 2]) == "[\n  1,\n  2\n]\n"


def test_choices_put_the_default_first_and_leave_out_file_only_formats() -> None:
    registry: FormatRegistry[str] = FormatRegistry(
        (
            Format("json", "builtins:str", "x.json"),
            Format("badge", "builtins:str", "x.svg", stdout=False),
            Format("terminal", "builtins:str"),
        ),
        default="terminal",
    )
    assert registry.choices() == ["terminal", "json"]
    assert registry.file_names() == {"json": "x.json", "badge": "x.svg"}
    with pytest.raises(ValueError, match="unknown report format 'xml'; known: json, badge"):
        registry.get("xml")
