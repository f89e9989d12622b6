"""One rule, read from the code: only `tiercheck/comparison.py` decides what is newly failing, a
tier drop or a regression, and the views do not reach for scoring or governance rules.

`tiercheck.comparison` says of itself: "No other module decides what is newly failing, fixed,
a tier drop or a regression." `test_one_verdict.py` checks that every view *says* what it says;
this checks, by reading the package's source with `ast`, that no other module *could* say
otherwise:

* **No second tier comparison.** No module but comparison.py orders two tiers (`<`, `>`,
  `<=`, `>=` with both sides named like a tier: `tier`, `tier_before`, `old_tier`, `.tier`,
  `tiers[1]`, or a local assigned from one, as in `old, new = diff.old_tier, diff.new_tier`).
  The few that order two tiers for another question — the tier against a claim, how long an
  open lower tier lasts — are listed in `TIER_ORDERINGS`, each with why it is not a second
  rule; a new one fails here until it is judged and listed.
* **No second verdict function.** No module but comparison.py defines a function or property
  named like a verdict (`*regress*`, `*newly_failing*`, `*tier_dropped*`) unless it is in
  `VERDICT_NAMES` with what it does instead (renders one, or reads one the rule made).
* **Views import no rules.** The dashboard, the site, notify, the matrix's text and HTML and the
  report formatters import none of `tiercheck.scoring`, `tiercheck.tier`, `tiercheck.baseline`
  or `tiercheck.governance.signals` (none does today): what they show was decided before.

Each checker is a plain function of one module's source; the self-tests feed it a planted
source and see it find the planted line, so none of the rules above passes by being blind.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable, Iterator

import pytest

from support.code_rules import modules, parse, walk

#: The one module that decides.
RULE = "tiercheck.comparison"

#: A name that holds a tier: `tier`, `tiers`, `tier_before`, `old_tier`, `claimed_tier`…
#: (lowercase: `TIER1_PASS_RATE` is a threshold, `tier2_met` a flag).
_TIER = re.compile(r"(?:^|_)tiers?(?:$|_)")
_ORDER = (ast.Lt, ast.Gt, ast.LtE, ast.GtE)
#: A function named like a verdict of the rule.
_VERDICT = re.compile(r"regress|newly_failing|tier_dropped", re.IGNORECASE)

#: (module, the comparison as `ast.unparse` writes it) → why ordering these two tiers is not a
#: second rule of what dropped or regressed.
TIER_ORDERINGS: dict[tuple[str, str], str] = {
    (
        "tiercheck.matrix.build",
        "tier.tier > source.claimed_tier",
    ): "the row is below its claimed tier (`TierCell.below_claim`): the tier against a claim, "
    "not against an earlier run",
    (
        "tiercheck.claim.markdown",
        "doc.implied_tier.tier > lower",
    ): "whether the claim's path starts below its lower tier: the assessed tier against the "
    "claim's own tiers, not against an earlier run",
    (
        "tiercheck.history.regression",
        "run.tier <= open_one.tier_before",
    ): "when an open lower-tier regression ends (the tier is back at the tier before the drop, "
    "on a run that judged its tier); the drop itself is `comparison.tier_dropped`",
    (
        "tiercheck.scorecard.diff",
        "new < old",
    ): "the diff's tier line says the tier *rose*; that it dropped is `Diff.tier_dropped`, from "
    "`compare` (a lower tier otherwise reads 'lower, not a drop')",
}

#: (module, Class.function or function) → what it does instead of deciding a verdict.
VERDICT_NAMES: dict[tuple[str, str], str] = {
    ("tiercheck.dashboard.html", "_regression_item"): "renders one open regression",
    ("tiercheck.dashboard.html", "_regression_history"): "renders a line's regressions",
    ("tiercheck.dashboard.html", "_open_regressions"): "renders a line's open regressions",
    ("tiercheck.notify.texts", "_regressions_table"): "renders the regressions of an issue",
    (
        "tiercheck.history.regression",
        "NightState.regressed",
    ): "whether the timeline has a regression open (each started by `classify` or "
    "`tier_dropped` of the rule)",
    (
        "tiercheck.matrix.model",
        "ChangesBlock.regressed",
    ): "whether `regressed_rows` is not empty (each row's `Comparison.regressed`)",
}

#: The modules that only show what was decided: they import no scoring or governance rule.
VIEW_PACKAGES = (
    "tiercheck.dashboard.",
    "tiercheck.publish.",
    "tiercheck.notify.",
    "tiercheck.scorecard.render.",
)
VIEW_MODULES = (
    "tiercheck.matrix.html",
    "tiercheck.matrix.text",
    "tiercheck.scorecard.diff",
    "tiercheck.governance.table",
)
RULE_MODULES = (
    "tiercheck.scoring",
    "tiercheck.tier",
    "tiercheck.baseline",
    "tiercheck.governance.signals",
)


# --- the checkers --------------------------------------------------------------------------


def _name(node: ast.expr) -> str | None:
    """The name an expression is read by: `x` → x, `a.b.tier` → tier, `tiers[1]` → tiers."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):
        return _name(node.value)
    return None


def _tierish(node: ast.expr, aliases: set[str]) -> bool:
    name = _name(node)
    if name is None:
        return False
    return bool(_TIER.search(name)) or (isinstance(node, ast.Name) and name in aliases)


def _pairs(target: ast.expr, value: ast.expr) -> Iterator[tuple[ast.expr, ast.expr]]:
    """(target, value) of an assignment, element by element when both are tuples."""
    if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
        if len(target.elts) == len(value.elts):
            for t, v in zip(target.elts, value.elts, strict=True):
                yield from _pairs(t, v)
        return
    yield target, value


def _scopes(tree: ast.Module) -> list[list[ast.AST]]:
    """The nodes of each scope (the module, each function), a nested function's apart."""
    scopes: list[list[ast.AST]] = [[]]

    def visit(node: ast.AST, bucket: list[ast.AST]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Assign | ast.AnnAssign | ast.Compare):
                bucket.append(child)
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                scopes.append([])
                visit(child, scopes[-1])
            else:
                visit(child, bucket)

    visit(tree, scopes[0])
    return scopes


@functools.cache
def tier_orderings(source: str) -> tuple[tuple[int, str], ...]:
    """(line, text) of each comparison in `source` that orders two tiers."""
    return tuple(_tier_orderings(source))


def _tier_orderings(source: str) -> Iterator[tuple[int, str]]:
    for scope in _scopes(parse(source)):
        # A local assigned from a tier holds one (`old, new = d.old_tier, d.new_tier`).
        aliases: set[str] = set()
        for node in scope:
            if isinstance(node, ast.Assign):
                assigned = [p for t in node.targets for p in _pairs(t, node.value)]
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                assigned = list(_pairs(node.target, node.value))
            else:
                continue
            for target, value in assigned:
                if isinstance(target, ast.Name) and _tierish(value, set()):
                    aliases.add(target.id)
        for node in scope:
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, sides[:-1], sides[1:], strict=True):
                if isinstance(op, _ORDER) and _tierish(left, aliases) and _tierish(right, aliases):
                    yield node.lineno, ast.unparse(node)
                    break


def verdict_functions(source: str) -> Iterator[str]:
    """`Class.name` or `name` of each function in `source` named like a verdict."""

    def visit(node: ast.AST, owner: str) -> Iterator[str]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                yield from visit(child, f"{owner}{child.name}.")
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                if _VERDICT.search(child.name):
                    yield f"{owner}{child.name}"
                yield from visit(child, f"{owner}{child.name}.")

    yield from visit(parse(source), "")


def _imported(module: str, source: str) -> Iterator[tuple[int, str]]:
    """(line, module) of every module `source` imports (relative imports resolved; a name
    imported from a package counted as its submodule too)."""
    package = module.split(".")
    for node in walk(parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                # `module` names a file: level 1 is its own package.
                parent = package[: len(package) - node.level]
                base = ".".join([*parent, *([base] if base else [])])
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def rule_imports(module: str, source: str) -> list[str]:
    """What `source` (the module `module`) imports of the scoring and governance rules: one
    entry per import statement, the first rule it names."""
    found: dict[int, str] = {}
    for line, name in _imported(module, source):
        if any(name == rule or name.startswith(f"{rule}.") for rule in RULE_MODULES):
            found.setdefault(line, f"{name} (line {line})")
    return [found[line] for line in sorted(found)]


def is_view(module: str) -> bool:
    """Whether `module` only shows what was decided."""
    return module.startswith(VIEW_PACKAGES) or module in VIEW_MODULES


def found_tier_orderings(sources: Iterable[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """Every tier ordering outside the rule: (module, text) → line."""
    return {
        (module, text): line
        for module, source in sources
        if module != RULE
        for line, text in tier_orderings(source)
    }


def found_verdict_functions(sources: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
    """Every function named like a verdict outside the rule: (module, name)."""
    return {
        (module, name)
        for module, source in sources
        if module != RULE
        for name in verdict_functions(source)
    }


def found_rule_imports(sources: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """Each view module that imports a rule, with what it imports."""
    out = {}
    for module, source in sources:
        if is_view(module):
            found = rule_imports(module, source)
            if found:
                out[module] = found
    return out


SOURCES = list(modules())


# --- the package keeps the rules -----------------------------------------------------------


def test_the_rule_itself_is_found() -> None:
    """The checkers read comparison.py's own tier drop and verdicts: they see what they look
    for (the package walk left it out only by name)."""
    source = dict(SOURCES)[RULE]
    assert ("after.tier > before.tier") in {text for _, text in tier_orderings(source)}
    assert {"tier_dropped", "Comparison.regressed", "Comparison.newly_failing"} <= set(
        verdict_functions(source)
    )


def test_no_module_but_the_rule_orders_two_tiers() -> None:
    found = found_tier_orderings(SOURCES)
    unjudged = {k: line for k, line in found.items() if k not in TIER_ORDERINGS}
    assert unjudged == {}, (
        "a second tier comparison: decide it in tiercheck/comparison.py, or (if it asks "
        f"another question) list it in TIER_ORDERINGS with why: {unjudged}"
    )
    stale = set(TIER_ORDERINGS) - set(found)
    assert stale == set(), f"TIER_ORDERINGS lists comparisons no longer there: {stale}"


def test_no_module_but_the_rule_defines_a_verdict() -> None:
    found = found_verdict_functions(SOURCES)
    unjudged = found - set(VERDICT_NAMES)
    assert unjudged == set(), (
        "a function named like a verdict outside tiercheck/comparison.py: decide it there, or "
        f"(if it renders or reads one) list it in VERDICT_NAMES with what it does: {unjudged}"
    )
    stale = set(VERDICT_NAMES) - found
    assert stale == set(), f"VERDICT_NAMES lists functions no longer there: {stale}"


def test_the_views_import_no_scoring_or_governance_rule() -> None:
    views = [module for module, _ in SOURCES if is_view(module)]
    # The walk reaches every kind of view (a renamed folder would empty it silently).
    for prefix in (*VIEW_PACKAGES, *VIEW_MODULES):
        assert any(m == prefix or m.startswith(prefix) for m in views), prefix
    assert found_rule_imports(SOURCES) == {}


# --- each checker fails on a planted source ------------------------------------------------

PLANTED_ORDERINGS = {
    "a direct drop": ("def worse(a, b):\n    return b.tier > a.tier\n", 1),
    "named before and after": (
        "def f(tier_before, tier_after):\n    return tier_after > tier_before\n",
        1,
    ),
    "through locals": (
        "def f(diff):\n    old, new = diff.old_tier, diff.new_tier\n    return new > old\n",
        1,
    ),
    "through an annotated local": (
        "def f(d, run):\n    was: int = d.tiers[0]\n    return run.tier >= was\n",
        1,
    ),
    "a chained comparison": ("ok = 1 <= old_tier < new_tier\n", 1),
    "a tier against a number": ("def f(tier):\n    return tier >= 3\n", 0),
    "a tier against a threshold": ("def f(leg):\n    return leg.pass_rate < TIER1_PASS_RATE\n", 0),
    "equality is no ordering": ("def f(a, b):\n    return a.tier != b.tier\n", 0),
    "a local of another function": (
        "def f(d):\n    old = d.old_tier\n    return old\n\n"
        "def g(old, new):\n    return new > old\n",
        0,
    ),
}


@pytest.mark.parametrize("name", list(PLANTED_ORDERINGS))
def test_a_planted_tier_ordering_is_found(name: str) -> None:
    source, count = PLANTED_ORDERINGS[name]
    assert len(list(tier_orderings(source))) == count


def test_a_planted_tier_ordering_fails_the_package_check() -> None:
    planted = [
        *SOURCES,
        ("tiercheck.dashboard.planted", "def f(a, b):\n    return b.tier > a.tier\n"),
    ]
    assert ("tiercheck.dashboard.planted", "b.tier > a.tier") in found_tier_orderings(planted)
    # The rule's own module is the one left out.
    assert ("tiercheck.comparison", "after.tier > before.tier") not in found_tier_orderings(planted)


PLANTED_VERDICTS = {
    "a function": ("def tier_dropped(a, b):\n    return True\n", ["tier_dropped"]),
    "a private one": ("def _is_regression(x):\n    return x\n", ["_is_regression"]),
    "a property": (
        "class Row:\n    @property\n    def newly_failing(self):\n        return ()\n",
        ["Row.newly_failing"],
    ),
    "a nested one": (
        "def outer():\n    def regressed():\n        return 1\n    return regressed\n",
        ["outer.regressed"],
    ),
    "another name": ("def changes(a, b):\n    return []\n", []),
}


@pytest.mark.parametrize("name", list(PLANTED_VERDICTS))
def test_a_planted_verdict_function_is_found(name: str) -> None:
    source, expected = PLANTED_VERDICTS[name]
    assert list(verdict_functions(source)) == expected


def test_a_planted_verdict_function_fails_the_package_check() -> None:
    planted = [*SOURCES, ("tiercheck.notify.planted", "def regressed(a, b):\n    return 1\n")]
    assert found_verdict_functions(planted) - set(VERDICT_NAMES) == {
        ("tiercheck.notify.planted", "regressed")
    }


PLANTED_IMPORTS = {
    "import": ("tiercheck.dashboard.x", "import tiercheck.scoring\n", 1),
    "from a module": (
        "tiercheck.scorecard.render.x",
        "from tiercheck.tier import ImpliedTier\n",
        1,
    ),
    "from the package": ("tiercheck.notify.x", "from tiercheck import baseline\n", 1),
    "a signal": ("tiercheck.publish.x", "from tiercheck.governance.signals.triage import f\n", 1),
    "relative": ("tiercheck.notify.x", "from ..governance.signals import labels\n", 1),
    "relative, the package": ("tiercheck.matrix.text", "from .. import tier\n", 1),
    "under TYPE_CHECKING": (
        "tiercheck.dashboard.x",
        "if TYPE_CHECKING:\n    from tiercheck.scoring import LegVerdict\n",
        1,
    ),
    "the comparison is no rule": (
        "tiercheck.scorecard.render.x",
        "from tiercheck.comparison import compare\n",
        0,
    ),
    "governance's model is no signal": (
        "tiercheck.scorecard.render.x",
        "from tiercheck.governance.disputes import DisputeMark\n",
        0,
    ),
    "a name like a rule": ("tiercheck.scorecard.render.x", "import tiercheck.tiers_text\n", 0),
}


@pytest.mark.parametrize("name", list(PLANTED_IMPORTS))
def test_a_planted_rule_import_is_found(name: str) -> None:
    module, source, count = PLANTED_IMPORTS[name]
    assert len(rule_imports(module, source)) == count


def test_a_planted_rule_import_fails_the_package_check() -> None:
    planted = [*SOURCES, ("tiercheck.matrix.html", "from tiercheck.scoring import score_leg\n")]
    assert "tiercheck.matrix.html" in found_rule_imports(planted)
    # Outside the views the same import is no view's business.
    other = [("tiercheck.pipeline.planted", "from tiercheck.scoring import score_leg\n")]
    assert found_rule_imports(other) == {}
