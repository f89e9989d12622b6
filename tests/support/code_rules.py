"""Rules about the package that an import contract cannot see, checked by reading the code.

Two rules:
- only `tiercheck.process` starts processes: no other module calls `os.system`, `os.fork`,
  `os.exec*`, `os.spawn*`, `os.posix_spawn*` or `os.popen` (`PROGRAMS` are not tiercheck's
  process: they are programs other interpreters run);
- every module that writes files is on `WRITERS` with the place it writes, and the reports
  under `--out` are written by `tiercheck.document_files` alone (the harness's results and the
  children's output logs are written by those processes, through `tiercheck.process`).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "tiercheck"

#: The one place reports under `--out` come from.
OUT_WRITER = "tiercheck.document_files"

#: Files of the package that are programs run in other processes (never imported by tiercheck),
#: and the processes they start: they may start processes, and write only where named.
PROGRAMS: dict[str, str] = {
    "tiercheck.conformance.warm_zygote": "the SDK's interpreter: forks one client per scenario",
    "tiercheck.conformance.warm_launcher": (
        "run by the harness: runs the client cold when the zygote is gone (exec); writes the "
        "client's registration in the slot directory's run/"
    ),
}

#: Every module that writes files, and where. One entry is `--out`'s reports.
WRITERS: dict[str, str] = {
    "tiercheck.durable": "the primitive every writer calls (temp file, fsync, replace)",
    OUT_WRITER: "--out: every report and claim file, and reused raw results",
    "tiercheck.publish.files": "publish --out: the site's folder (staged, then put in place)",
    "tiercheck.process": "--out/logs: the children's output logs",
    "tiercheck.sdk.server": "--out/logs: the server's output log (start and stop lines)",
    "tiercheck.conformance.harness": "the cache: the harness install",
    "tiercheck.referee.record": "the cache: the harness's record, in its install folder",
    "tiercheck.conformance.slots": "the cache or --budget: the client slot script",
    "tiercheck.conformance.admission": "the cache or --budget: the client slots' limit file",
    "tiercheck.conformance.node_warm": "--out/logs: the client leg's warm-up lines",
    "tiercheck.conformance.warm_launcher": PROGRAMS["tiercheck.conformance.warm_launcher"],
    "tiercheck.sdk.build": "the cache: build markers",
    "tiercheck.locks": "lock files: the cache, --budget, beside --history",
    "tiercheck.sdk.tools": "the cache: provisioned uv and pnpm",
    "tiercheck.ghapi.etag_cache": "the cache: GitHub ETags",
    "tiercheck.governance.snapshot": "--record-governance: the snapshot file named",
    "tiercheck.history.store": "--history: the history database named",
    "tiercheck.history.datadir": "history export: the data folder named (one file per run)",
    "tiercheck.pipeline.matrix.outcome": "$GITHUB_STEP_SUMMARY: the summary file GitHub names",
    "tiercheck.pipeline.init": "init --write: the known_sdks.yaml file named",
    "tiercheck.document_schemas": "the package's schemas/ folder (a developer command)",
    "tiercheck.referee.write": (
        "referee update: the tree's runners/ and requirements/ (--root), checked in a scratch "
        "folder first"
    ),
}

_PROCESS_CALLS = {"system", "fork", "forkpty", "popen"}
_PROCESS_PREFIXES = ("exec", "spawn", "posix_spawn")
_WRITE_METHODS = {"write_text", "write_bytes", "touch", "symlink_to", "hardlink_to"}
_DURABLE = {"write_text", "write_bytes", "atomic_write_text"}
_SHUTIL = {"copy", "copy2", "copyfile", "copytree", "move"}


def module_name(path: Path, root: Path = PACKAGE) -> str:
    """`tiercheck/document_files.py` → `tiercheck.document_files`."""
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _mode(call: ast.Call) -> str:
    # open(path, mode) for the builtin, path.open(mode) for a Path.
    position = 1 if isinstance(call.func, ast.Name) else 0
    args = [
        *call.args[position : position + 1],
        *(k.value for k in call.keywords if k.arg == "mode"),
    ]
    for arg in args:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value
    return "r"


def _attr(node: ast.expr) -> tuple[str | None, str | None]:
    """(owner, attribute) of `owner.attribute(...)`, e.g. ("os", "fork")."""
    if isinstance(node, ast.Attribute):
        owner = node.value
        if isinstance(owner, ast.Name):
            return owner.id, node.attr
        return (owner.attr if isinstance(owner, ast.Attribute) else "<expr>"), node.attr
    if isinstance(node, ast.Name):
        return None, node.id
    return None, None


@functools.cache
def parse(source: str) -> ast.Module:
    """`source` parsed, once per text in a test process.

    Every code-reading test (the rules here, test_one_rule, test_revisions, the kits' tests,
    test_github_edge) reads the whole package, and parsing it is most of their time: a module
    is parsed once for all of them. The tree is shared, so it is read, never changed.
    """
    return ast.parse(source)


@functools.cache
def walk(tree: ast.AST) -> tuple[ast.AST, ...]:
    """Every node of `tree` (a module from `parse`), in `ast.walk`'s order, listed once: the
    checkers walk each module several times."""
    return tuple(ast.walk(tree))


@functools.cache
def _calls(source: str) -> tuple[ast.Call, ...]:
    """Every call in `source` (both rules read the same modules)."""
    return tuple(node for node in walk(parse(source)) if isinstance(node, ast.Call))


def process_calls(source: str) -> Iterator[str]:
    """The process-starting calls in `source` (`os.fork`, `os.execvp`, …)."""
    for node in _calls(source):
        owner, name = _attr(node.func)
        if (
            owner == "os"
            and name
            and (name in _PROCESS_CALLS or name.startswith(_PROCESS_PREFIXES))
        ):
            yield f"os.{name} (line {node.lineno})"


def file_writes(source: str) -> Iterator[str]:
    """The calls in `source` that create or replace files."""
    for node in _calls(source):
        owner, name = _attr(node.func)
        line = f"(line {node.lineno})"
        if (owner in ("durable", None) and name in _DURABLE) or (
            owner == "shutil" and name in _SHUTIL
        ):
            yield f"{owner or ''}.{name} {line}".lstrip(".")
        elif name in _WRITE_METHODS and owner is not None:
            yield f".{name} {line}"
        elif name == "open" and owner != "os" and set(_mode(node)) & set("wax+"):
            yield f"open(mode={_mode(node)!r}) {line}"
        elif owner == "sqlite3" and name == "connect":
            yield f"sqlite3.connect {line}"
        elif owner == "os" and name == "open" and "O_CREAT" in ast.unparse(node):
            yield f"os.open(O_CREAT) {line}"


def modules(root: Path = PACKAGE) -> Iterator[tuple[str, str]]:
    """(module name, source) for every module of the package."""
    for path in sorted(root.rglob("*.py")):
        yield module_name(path, root), path.read_text(encoding="utf-8")
