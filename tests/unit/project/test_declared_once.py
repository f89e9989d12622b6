"""Each option of the assessment is declared once, read from the code.

`tiercheck/pipeline/assess/options.py` says of itself that the parser, the records the pipeline
reads and the argv a matrix row's `tier-check` is given are all derived from one declaration per
option. This checks, by reading the package's source with `ast`, that nothing spells an option a
second time:

* **One declaration.** Each flag of the assessment (`options.ASSESSMENT`) is declared in exactly
  one place: an `Option(...)` in `tiercheck/pipeline/assess/options.py`, or, for the configuration
  overrides, a field of the cascade (`Field(...)` in `tiercheck/config/resolve.py`). No
  `add_argument(...)` and no second `Option(...)` anywhere spells it again: another command with
  the same option adds the declaration (`SDK.add_to(parser, help=…)`). A command's own option
  that only shares the flag's name (`history export --out` is a data folder, not the
  assessment's reports) is listed in `OWN_OPTIONS` with what it is instead; a new one fails here
  until it is judged and listed.
* **No argv spelt by hand.** No module puts an assessment flag into a list, a tuple or an
  `append`/`extend`/`insert` as a command line: a child's argv is written by the declarations
  (`options.to_argv`). The few that write another program's command line, or one for a person
  to read, are listed in `ARGV_SPELLINGS` with why.

Each checker is a plain function of one module's source; the self-tests feed it planted sources
and see it find the planted line, so neither rule passes by being blind.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

import pytest

from support.code_rules import modules, parse, walk
from tiercheck.pipeline.assess.options import ASSESSMENT

#: Where the declarations are: the options, and the cascade's fields (the override flags).
DECLARING = ("tiercheck.pipeline.assess.options", "tiercheck.config.resolve")

#: Every flag of the assessment.
FLAGS = frozenset(flag for option in ASSESSMENT for flag in option.flags)

#: (module, flag) → what that command's option of the same name is, instead of the assessment's.
OWN_OPTIONS: dict[tuple[str, str], str] = {
    ("tiercheck.cli.history", "--sdk"): "the line whose history is shown: a name, no ref",
    ("tiercheck.cli.history", "--as-of"): "the moment the history is judged at, not governance's",
    ("tiercheck.cli.history", "--output"): "the history's formats",
    ("tiercheck.cli.history", "--out"): "`history export`'s data folder (one JSON file per run)",
    ("tiercheck.cli.config_verbs", "--revision"): "show-config's one revision, not repeatable",
    ("tiercheck.cli.probe", "--revision"): "the one revision the probes speak, of the known ones",
    ("tiercheck.cli.probe", "--output"): "the probe report's formats",
    ("tiercheck.cli.doctor", "--output"): "doctor's text or JSON",
    ("tiercheck.cli.common", "--output"): "one format of another registry (governance, diff)",
    ("tiercheck.cli.score", "--repo"): "the repository the scored results are attributed to",
    ("tiercheck.cli.score", "--expected-failures"): "a baseline FILE per use, not a SPEC",
    ("tiercheck.cli.matrix", "--sdk"): "a row, repeatable: the matrix's selection",
    ("tiercheck.cli.matrix", "--concurrency"): "the cap across every row, at least 1 (an "
    "assessment's 0 means unbounded)",
    ("tiercheck.cli.matrix", "--max-builds"): "builds at once across every row, 2 by default",
    ("tiercheck.cli.matrix", "--out"): "the matrix's folder, not a row's",
    ("tiercheck.cli.matrix", "--output"): "the matrix's formats",
    ("tiercheck.cli.governance", "--repo"): "required, the repository whose signals are read",
    ("tiercheck.cli.governance", "--sdk"): "the entry whose governance config (aliases…) applies",
    ("tiercheck.cli.governance", "--cache-dir"): "the governance commands' ETag cache folder",
    ("tiercheck.cli.notify", "--history"): "required: the history the issues are judged from",
    ("tiercheck.cli.notify", "--repo"): "required: the repository the issues are written to",
    ("tiercheck.cli.notify", "--sdk"): "a line to judge, repeatable",
    ("tiercheck.cli.notify", "--token-file"): "the token notify writes issues with",
    ("tiercheck.cli.notify", "--github-api-url"): "the GitHub notify writes the issues to",
    ("tiercheck.cli.publish", "--history"): "required: the history the site is built from",
    ("tiercheck.cli.publish", "--out"): "required: the site's folder",
}

#: (module, flag) → why that module writes the flag into a command line itself.
ARGV_SPELLINGS: dict[tuple[str, str], str] = {
    **{
        ("tiercheck.claim.reproduce", flag): "the claim's reproduce section: the command a "
        "reviewer runs, written as text for a person, from the recorded scorecard"
        for flag in (
            "--sdk",
            "--sdk-path",
            "--repo",
            "--registry",
            "--revision",
            "--harness-version",
            "--tag-prefix",
            "--probes",
            "--skip-governance",
            "--governance-snapshot",
            "--as-of",
        )
    },
    ("tiercheck.sdk.infer.workflow", "--expected-failures"): "the conformance harness's own "
    "flag, looked for in an SDK's workflow",
}


# --- the checkers --------------------------------------------------------------------------


def _callee(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _flag(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value[:2] == "--":
        return node.value
    return None


def declarations(source: str) -> Iterator[tuple[str, int]]:
    """(flag, line) of each option `source` declares: the flags of an `add_argument(...)`, the
    flag of an `Option(...)` (its first argument) or of a cascade `Field(...)` (its third, or
    `flag=`)."""
    for node in walk(parse(source)):
        if not isinstance(node, ast.Call):
            continue
        callee = _callee(node)
        if callee == "add_argument":
            named = [_flag(arg) for arg in node.args]
        elif callee == "Option":
            named = [_flag(node.args[0])] if node.args else []
        elif callee == "Field":
            named = [_flag(node.args[2])] if len(node.args) > 2 else []
            named += [_flag(kw.value) for kw in node.keywords if kw.arg == "flag"]
        else:
            continue
        for flag in named:
            if flag is not None:
                yield flag, node.lineno


def argv_spellings(source: str, flags: Iterable[str] = FLAGS) -> Iterator[tuple[str, int]]:
    """(flag, line) of each of `flags` that `source` writes into a command line: an item of a
    list, tuple or set literal, or an argument of `append`, `extend` or `insert`."""
    wanted = frozenset(flags)
    for node in walk(parse(source)):
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            items = node.elts
        elif isinstance(node, ast.Call) and _callee(node) in ("append", "extend", "insert"):
            items = node.args
        else:
            continue
        for item in items:
            flag = _flag(item)
            if flag in wanted:
                yield flag, item.lineno


def declared_where(sources: Iterable[tuple[str, str]]) -> dict[str, list[tuple[str, int]]]:
    """Each assessment flag → every (module, line) declaring it, but the listed own options."""
    found: dict[str, list[tuple[str, int]]] = {flag: [] for flag in FLAGS}
    for module, source in sources:
        for flag, line in declarations(source):
            if flag in found and (module, flag) not in OWN_OPTIONS:
                found[flag].append((module, line))
    return found


def own_options_found(sources: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
    """The (module, flag) of every declaration of an assessment flag outside `DECLARING`."""
    return {
        (module, flag)
        for module, source in sources
        if module not in DECLARING
        for flag, _ in declarations(source)
        if flag in FLAGS
    }


def spelt_argv(sources: Iterable[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """Every assessment flag written into a command line by hand: (module, flag) → line."""
    return {
        (module, flag): line for module, source in sources for flag, line in argv_spellings(source)
    }


SOURCES = list(modules())


# --- the package declares each option once -------------------------------------------------


def test_the_declarations_are_found() -> None:
    """The checker reads the declaring modules' own declarations: it sees what it looks for."""
    found = declared_where(SOURCES)
    assert [module for module, _ in found["--rebuild"]] == ["tiercheck.pipeline.assess.options"]
    assert [module for module, _ in found["--server-cmd"]] == ["tiercheck.config.resolve"]


def test_each_option_of_the_assessment_is_declared_once() -> None:
    found = declared_where(SOURCES)
    again = {flag: where for flag, where in found.items() if len(where) != 1}
    assert again == {}, (
        "an option declared again (or not at all): add the declaration where another command "
        "has the option (`OPTION.add_to(parser, help=…)`), or (if it is that command's own) "
        f"list it in OWN_OPTIONS with what it is: {again}"
    )
    assert {where[0][0] for where in found.values()} == set(DECLARING)


def test_the_own_options_are_still_there() -> None:
    stale = set(OWN_OPTIONS) - own_options_found(SOURCES)
    assert stale == set(), f"OWN_OPTIONS lists options no longer declared there: {stale}"


def test_no_module_spells_an_argv_by_hand() -> None:
    found = spelt_argv(SOURCES)
    unjudged = {k: line for k, line in found.items() if k not in ARGV_SPELLINGS}
    assert unjudged == {}, (
        "a command line spelt by hand: write it with the declarations (`options.to_argv`, "
        f"`OPTION.argv(value)`), or (if it is not tiercheck's) list it in ARGV_SPELLINGS: "
        f"{unjudged}"
    )
    stale = set(ARGV_SPELLINGS) - set(found)
    assert stale == set(), f"ARGV_SPELLINGS lists spellings no longer there: {stale}"


# --- each checker fails on a planted source ------------------------------------------------

PLANTED_DECLARATIONS = {
    "add_argument": ('parser.add_argument("--rebuild", action="store_true")\n', ["--rebuild"]),
    "on a group": ('group.add_argument("--out", metavar="DIR")\n', ["--out"]),
    "a short and a long flag": ('p.add_argument("-s", "--sdk")\n', ["--sdk"]),
    "an Option": ('X = Option("--git-url", RUNNING, metavar="URL")\n', ["--git-url"]),
    "a qualified Option": ('X = options.Option("--budget", None)\n', ["--budget"]),
    "a cascade Field": ('Field("build", "TIERCHECK_BUILD_CMD", "--build-cmd")\n', ["--build-cmd"]),
    "a Field by keyword": ('Field("build", None, flag="--build-cmd")\n', ["--build-cmd"]),
    "a positional is no flag": ('parser.add_argument("dirs", nargs="*")\n', []),
    "a message is no declaration": ('raise UsageError("--rebuild and --skip-build")\n', []),
}


@pytest.mark.parametrize("name", list(PLANTED_DECLARATIONS))
def test_a_planted_declaration_is_found(name: str) -> None:
    source, expected = PLANTED_DECLARATIONS[name]
    assert [flag for flag, _ in declarations(source)] == expected


def test_a_planted_duplicate_fails_the_package_check() -> None:
    planted = [
        *SOURCES,
        ("tiercheck.cli.planted", 'parser.add_argument("--rebuild", action="store_true")\n'),
        ("tiercheck.pipeline.assess.options", 'OTHER = Option("--cold-clients", RUNNING)\n'),
    ]
    found = declared_where(planted)
    assert ("tiercheck.cli.planted", 1) in found["--rebuild"]
    assert len(found["--rebuild"]) == 2
    assert len(found["--cold-clients"]) == 2
    # A command's own option of the name is left out, where it is listed.
    own = [("tiercheck.cli.matrix", 'rows.add_argument("--sdk", action="append")\n')]
    assert ("tiercheck.cli.matrix", 1) not in declared_where(own)["--sdk"]


PLANTED_ARGV = {
    "a list": ('argv = ["--sdk", f"{name}@{ref}"]\n', ["--sdk"]),
    "added to a list": ('args += ["--revision", revision]\n', ["--revision"]),
    "appended": ('out.append("--skip-governance")\n', ["--skip-governance"]),
    "a tuple": ('return ("--max-builds", str(n))\n', ["--max-builds"]),
    "extended": ('argv.extend(("--budget", str(path)))\n', ["--budget"]),
    "a message is no argv": ('msg = "--budget: no such folder"\n', []),
    "another program's flag": ('argv = ["--spec-version", rev]\n', []),
}


@pytest.mark.parametrize("name", list(PLANTED_ARGV))
def test_a_planted_argv_spelling_is_found(name: str) -> None:
    source, expected = PLANTED_ARGV[name]
    assert [flag for flag, _ in argv_spellings(source)] == expected


def test_a_planted_argv_spelling_fails_the_package_check() -> None:
    planted = [
        *SOURCES,
        ("tiercheck.pipeline.matrix.planted", 'args = ["--budget", str(budget)]\n'),
    ]
    assert spelt_argv(planted)[("tiercheck.pipeline.matrix.planted", "--budget")] == 1
