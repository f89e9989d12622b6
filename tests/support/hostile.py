"""Hostile inputs for the real `tier-check`, and the one place that runs it on them.

Hypothesis strategies build `Case`s: malformed registries, baselines, governance snapshots,
`checks.json` trees, scorecard pairs for `diff`, and odd command lines. `run_case` writes a
case's files into a fresh folder and runs the real CLI (`python -m tiercheck`) on them in a
subprocess, with nothing reachable: GitHub, git remotes and npm all point at a closed port on
127.0.0.1, so a command line that happens to be valid fails fast instead of reaching out.

The promise checked (`problems`): no traceback, a documented exit code (0, 1, 2, or 3 when
nothing was measured), and 2 with a short error for input known to be bad.
`tests/unit/test_fuzz_cli.py` asserts it over a bounded, derandomised run; `python
tests/support/hostile.py --examples K` counts how many of K inputs per kind break it (the figure
reported in issue 12).
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = ROOT / "known_sdks.yaml"
SNAPSHOT = ROOT / "examples" / "sample-sdk" / "governance-snapshot.json"
SNAPSHOT_REPO = "tiercheck/sample-sdk"
SCORECARDS = (
    ROOT / "tests" / "unit" / "golden" / "tier1.json",
    ROOT / "tests/unit/golden/mixed.json",
)
#: A port nothing listens on (the discard port): connections are refused at once.
CLOSED = "http://127.0.0.1:9"
#: Seconds one CLI run may take before it counts as a hang.
RUN_LIMIT_S = 60.0
REVISION = "2025-11-25"
TS = "2026-11-30T06-36-55-475Z"


@dataclass(frozen=True)
class Case:
    """One hostile input: files to lay out, the command line, and whether it is known bad.

    `argv` and file contents may use `{d}` for the case's folder. `bad` is True when the input
    is certainly invalid (exit 2 expected), None when a mutation may or may not be.
    """

    kind: str
    argv: tuple[str, ...]
    files: Mapping[str, bytes] = field(default_factory=dict)
    dirs: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    bad: bool | None = None
    note: str = ""


@dataclass(frozen=True)
class Outcome:
    """What one run did."""

    code: int | None  # None: still running after RUN_LIMIT_S, then killed
    stdout: str
    stderr: str
    seconds: float


def run_case(case: Case, *, limit_s: float = RUN_LIMIT_S) -> Outcome:
    """Lay out the case's files in a fresh folder and run `python -m tiercheck` on them."""
    with tempfile.TemporaryDirectory(prefix="tiercheck-fuzz-") as tmp:
        base = Path(tmp)
        for rel in case.dirs:
            (base / rel.replace("{d}", tmp)).mkdir(parents=True, exist_ok=True)
        for rel, content in case.files.items():
            path = base / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content.replace(b"{d}", tmp.encode()))
        argv = [a.replace("{d}", tmp) for a in case.argv]
        env = _environment(base) | {k: v.replace("{d}", tmp) for k, v in case.env.items()}
        started = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-m", "tiercheck", *argv],
            cwd=base,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        try:
            out, err = proc.communicate(timeout=limit_s)
            code: int | None = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            code = None
        return Outcome(
            code,
            out.decode("utf-8", "replace"),
            err.decode("utf-8", "replace"),
            time.monotonic() - started,
        )


def _environment(base: Path) -> dict[str, str]:
    keep = {"PATH", "LANG", "LC_ALL", "SYSTEMROOT", "TIERCHECK_TEST_PROCESS_MARK"}
    env = {k: v for k, v in os.environ.items() if k in keep}
    return env | {
        "HOME": str(base / "home"),
        "TIERCHECK_CACHE": str(base / "cache"),
        "GITHUB_API_URL": CLOSED,
        "TIERCHECK_GIT_BASE": f"{CLOSED}/git",
        "GIT_TERMINAL_PROMPT": "0",
        "npm_config_registry": CLOSED,
        "npm_config_fetch_retries": "0",
        "NO_COLOR": "1",
        "PYTHONPATH": str(ROOT),
        # Should a command line reach GitHub (closed port here), it gives up within seconds.
        "TIERCHECK_GOVERNANCE_DEADLINE": "10",
    }


def problems(case: Case, outcome: Outcome) -> list[str]:
    """Every way the outcome breaks the promise (empty: it held)."""
    found = []
    if outcome.code is None:
        found.append(f"hang (killed after {RUN_LIMIT_S:.0f}s)")
    if "Traceback (most recent call last)" in outcome.stderr:
        found.append("traceback")
    if outcome.code is not None and outcome.code not in (0, 1, 2, 3):
        found.append(f"exit {outcome.code}")
    if case.bad and outcome.code is not None and outcome.code != 2:
        found.append(f"bad input exited {outcome.code}, not 2")
    if outcome.code == 2:
        lines = [line for line in outcome.stderr.splitlines() if line.strip()]
        if len(lines) > 2:
            found.append(f"exit 2 with {len(lines)} lines on stderr")
    return found


# --- values and documents --------------------------------------------------------------------

#: A moment with an offset on the calendar's last (first) day: no UTC datetime holds it.
LATE_EDGE = "9999-12-31T23:59:59-05:00"
EARLY_EDGE = "0001-01-01T00:00:00+05:00"
#: An integer of 401 digits: within JSON and YAML, beyond any float or 64-bit integer.
HUGE = 10**400
_ODD_STRINGS = st.sampled_from(
    [
        "",
        " ",
        "-",
        "--",
        "-rf",
        "\x00",
        "\u202e",
        "😀",
        "a" * 300,
        "..",
        "/",
        "~",
        "{port}",
        "nan",
        "\ud800",
        "a\udfff",
        LATE_EDGE,
        EARLY_EDGE,
    ]
)
_ODD_NUMBERS = st.sampled_from(
    [0, -1, 10**30, 1e308, -0.0, math.inf, -math.inf, math.nan, 2**63, HUGE, -HUGE]
)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    _ODD_STRINGS,
    _ODD_NUMBERS,
)
VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            out += _paths(value, (*prefix, i))
    return out


@st.composite
def mutated(draw: st.DrawFn, base: Any) -> Any:
    """`base` (a decoded document) with one to three parts replaced, dropped or added."""
    doc = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["replace", "drop", "add"]))
        if not path:
            doc = draw(VALUES) if op == "replace" else doc
            continue
        parent = doc
        for part in path[:-1]:
            parent = parent[part]
        last = path[-1]
        if op == "replace":
            parent[last] = draw(VALUES)
        elif op == "drop":
            del parent[last]
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(VALUES)
        else:
            parent.append(draw(VALUES))
    return doc


def _to_yaml(doc: Any) -> bytes:
    return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False).encode("utf-8", "surrogatepass")


def _to_json(doc: Any) -> bytes:
    return json.dumps(doc, allow_nan=True).encode("utf-8", "surrogatepass")


@st.composite
def invalid_utf8(draw: st.DrawFn, text: bytes) -> bytes:
    """Valid text with a byte sequence that is not UTF-8 put somewhere in it."""
    junk = draw(st.sampled_from([b"\xff", b"\xc3(", b"\xed\xa0\x80", b"\x80\x80", b"\xfe\xff"]))
    at = draw(st.integers(0, len(text)))
    return text[:at] + junk + text[at:]


def _deep_json(draw: st.DrawFn) -> bytes:
    depth = draw(st.integers(200, 100_000))
    shape = draw(st.sampled_from(["list", "object", "inside"]))
    if shape == "list":
        return b"[" * depth + b"]" * depth
    if shape == "object":
        return b'{"a":' * depth + b"1" + b"}" * depth
    return b'{"ok": 1, "deep": ' + b"[" * depth + b"]" * depth + b"}"


def _deep_yaml(draw: st.DrawFn) -> bytes:
    depth = draw(st.integers(200, 50_000))
    shape = draw(st.sampled_from(["flow", "map", "block", "inside"]))
    if shape == "flow":
        return b"[" * depth + b"]" * depth
    if shape == "map":
        return b"{a: " * depth + b"1" + b"}" * depth
    if shape == "block":
        return b"- " * depth + b"x\n"
    return b"sample-sdk:\n  repo: a/b\n  env: " + b"[" * depth + b"]" * depth + b"\n"


_YAML_TRAPS = (
    b"a: &a [*a]\n",
    b"&a [*a]\n",
    b"sample-sdk: &a\n  repo: a/b\n  env: *a\n",
    b"sample-sdk:\n  repo: a/b\n  revisions: &r [*r]\n",
    b"server: &s [*s]\n",
    b"? [a, b]\n: 1\n",
    b"{[1, 2]: x}\n",
    b"? {a: 1}\n: c\n",
    b"sample-sdk:\n  ? [x]\n  : y\n",
    b"server:\n  - ? [a]\n    : b\n",
    b"a: &a [x, x, x, x, x, x, x, x, x]\n"
    b"b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
    b"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
    b"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
    b"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
    b"f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
    b"g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n",
    b"\x00\x01\x02",
    b"\xef\xbb\xbf",
    b"",
    b"!!python/object:os.system [echo hi]\n",
)


@st.composite
def yaml_document(draw: st.DrawFn, base: Any) -> tuple[bytes, bool | None]:
    """(YAML bytes, known bad?) shaped after `base`: mutated, or one of the known traps."""
    kind = draw(st.sampled_from(["mutated", "utf8", "deep", "trap", "random"]))
    if kind == "mutated":
        return _to_yaml(draw(mutated(base))), None
    if kind == "utf8":
        return draw(invalid_utf8(_to_yaml(base))), True
    if kind == "deep":
        return _deep_yaml(draw), True
    if kind == "trap":
        trap = draw(st.sampled_from(_YAML_TRAPS))
        return trap, None if trap in (b"", b"\xef\xbb\xbf") else True
    return draw(st.binary(max_size=200)), None


@st.composite
def json_document(draw: st.DrawFn, base: Any) -> tuple[bytes, bool | None]:
    """(JSON bytes, known bad?) shaped after `base`: mutated, or malformed outright."""
    kind = draw(st.sampled_from(["mutated", "utf8", "deep", "literal", "random"]))
    if kind == "mutated":
        return _to_json(draw(mutated(base))), None
    if kind == "utf8":
        return draw(invalid_utf8(_to_json(base))), True
    if kind == "deep":
        return _deep_json(draw), True
    if kind == "literal":
        text = draw(
            st.sampled_from([b"", b"null", b"[]", b"{}", b"1e999", b"NaN", b"\xef\xbb\xbf{}"])
        )
        return text, True
    return draw(st.binary(max_size=200)), None


# --- the kinds of case -----------------------------------------------------------------------


def _registry_base() -> Any:
    return yaml.safe_load(REGISTRY.read_text(encoding="utf-8"))


_TIMEOUT_VALUES = (".nan", ".inf", "-.inf", "0", "-1", "1e400", "-0.0")


@st.composite
def registry_cases(draw: st.DrawFn) -> Case:
    """A known_sdks.yaml given by flag or environment to `list` or `show-config`."""
    base = _registry_base()
    if draw(st.booleans()):
        text, bad = draw(yaml_document(base))
    else:
        which = draw(st.sampled_from(["ready_timeout", "timeout"]))
        value = draw(st.sampled_from(_TIMEOUT_VALUES))
        entry = base["sample-sdk"]
        block = "server" if which == "ready_timeout" else "client"
        entry[block][which] = "@@"
        text = _to_yaml(base).replace(b"'@@'", value.encode())
        bad = True
    verb = draw(st.sampled_from(["list", "show-config", "assess"]))
    argv: list[str] = {
        "list": ["list"],
        "show-config": ["show-config", "--sdk", "sample-sdk"],
        "assess": ["--sdk", "sample-sdk", "--skip-governance", "--cache-dir", "{d}/cache"],
    }[verb]
    if draw(st.booleans()):
        return Case("registry", (*argv, "--registry", "{d}/r.yaml"), {"r.yaml": text}, bad=bad)
    env = {"TIERCHECK_REGISTRY": "{d}/r.yaml"}
    return Case("registry", tuple(argv), {"r.yaml": text}, env=env, bad=bad)


def _results_tree(checks: bytes) -> dict[str, bytes]:
    return {f"results/{REVISION}/server/server-tools-list-{TS}/checks.json": checks}


_PASSING = json.dumps(
    [{"id": "main", "name": "Main", "status": "SUCCESS", "description": "ok"}]
).encode()


@st.composite
def baseline_cases(draw: st.DrawFn) -> Case:
    """An expected-failures baseline given to `score`."""
    base = {"server": ["tools-call-image", "auth/scope-step-up:scope-check"], "client": []}
    text, bad = draw(yaml_document(base))
    files = {**_results_tree(_PASSING), "b.yaml": text}
    argv = ("score", "--results", "{d}/results", "--expected-failures", "{d}/b.yaml")
    return Case("baseline", argv, files, bad=bad)


@st.composite
def snapshot_cases(draw: st.DrawFn) -> Case:
    """A governance snapshot replayed by `governance`, `labels`, `triage` or an assessment."""
    text, bad = draw(json_document(json.loads(SNAPSHOT.read_text(encoding="utf-8"))))
    verb = draw(st.sampled_from(["governance", "labels", "triage"]))
    argv = (verb, "--repo", SNAPSHOT_REPO, "--governance-snapshot", "{d}/s.json")
    return Case("snapshot", argv, {"s.json": text}, bad=bad)


_CHECKS_BASE = [
    {
        "id": "main",
        "name": "Main",
        "status": "FAILURE",
        "errorMessage": "boom",
        "specReferences": [{"id": "MCP-1", "url": "https://example.com"}],
    },
    {"id": "other", "name": "Other", "status": "SUCCESS", "description": "ok"},
]


@st.composite
def checks_tree_cases(draw: st.DrawFn) -> Case:
    """A `<revision>/<leg>/<scenario>-<ts>/checks.json` tree given to `score --results`."""
    files: dict[str, bytes] = {}
    dirs: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        revision = draw(st.sampled_from([REVISION, "2026-07-28", "1999-01-01", "x", "-"]))
        leg = draw(st.sampled_from(["server", "client", "Server", "junk"]))
        scenario = draw(st.sampled_from(["tools-list", "auth/dpop", "initialize", "-", "x"]))
        prefix = "server-" if leg == "server" else ""
        where = f"results/{revision}/{leg}/{prefix}{scenario}-{TS}"
        if draw(st.booleans()):
            text, _ = draw(json_document(_CHECKS_BASE))
            files[f"{where}/checks.json"] = text
        else:
            dirs.append(where)
    bad_flag = draw(st.sampled_from(["", "repo"]))
    argv: tuple[str, ...] = ("score", "--results", "{d}/results")
    bad: bool | None = None
    if bad_flag == "repo":
        repo = draw(st.sampled_from(["not a repo", "", "a/b/c", "/x", "owner/", "ok/repo"]))
        argv = (*argv, "--repo", repo)
        bad = True if repo != "ok/repo" else None
    return Case("checks-tree", argv, files, tuple(dirs), bad=bad)


@st.composite
def diff_cases(draw: st.DrawFn) -> Case:
    """A pair of scorecards for `diff`, either or both malformed."""
    bases = [json.loads(p.read_text(encoding="utf-8")) for p in SCORECARDS]
    old_text, old_bad = draw(json_document(draw(st.sampled_from(bases))))
    if draw(st.booleans()):
        new_text, new_bad = _to_json(draw(st.sampled_from(bases))), False
    else:
        new_text, new_bad = draw(json_document(draw(st.sampled_from(bases))))
    pair = [("old.json", old_text), ("new.json", new_text)]
    if draw(st.booleans()):
        pair.reverse()
    bad = True if (old_bad or new_bad) else None
    output = draw(st.sampled_from([(), ("--output", "json"), ("--output", "markdown")]))
    argv = ("diff", "{d}/" + pair[0][0], "{d}/" + pair[1][0], *output)
    return Case("diff", argv, dict(pair), bad=bad)


# Command lines: (flags, a strategy of values, known bad?) per verb.
_HOSTILE_DAYS = st.sampled_from(["99999999", "0", "-5", "1e3", "nan", "", "9" * 40])
_HOSTILE_AS_OF = st.sampled_from(
    ["0001-01-01", "9999-12-31T23:59:59", "1900-01-01", "yesterday", "", "2026-13-01", "0"]
)
_HOSTILE_URLS = st.sampled_from(
    [
        "not-a-url",
        "",
        "ftp://x",
        "http://",
        "http://[::1",
        "http://127.0.0.1:99999",
        "file:///x",
        "://",
    ]
)
_HOSTILE_TIMEOUTS = st.sampled_from(["nan", "inf", "-inf", "0", "-1", "1e400", "", "x", "NaN"])
_HOSTILE_SDKS = st.sampled_from(
    [
        "",
        " ",
        "@",
        "sample-sdk@",
        "sample-sdk@-rf",
        "sample-sdk@a..b",
        "sample-sdk@a b",
        "sample-sdk@x~1",
        "sample-sdk@refs/heads/",
        "sample-sdk@a.lock",
        "sample-sdk@@{1}",
        "sample-sdk@a:b",
        "owner/@main",
        "/@x",
        "sample-sdk@\x01",
        "nosuch-sdk",
    ]
)


@st.composite
def command_cases(draw: st.DrawFn) -> Case:
    """An odd command line: one hostile flag value among otherwise ordinary ones."""
    snapshot = ("--governance-snapshot", str(SNAPSHOT))
    assess_base = ("--sdk", "sample-sdk", "--cache-dir", "{d}/cache", "--out", "{d}/out")
    choices: list[
        tuple[str, Callable[[], tuple[tuple[str, ...], dict[str, bytes], dict[str, str]]]]
    ]
    choices = [
        (
            "days",
            lambda: (
                ("triage", "--repo", SNAPSHOT_REPO, *snapshot, "--days", draw(_HOSTILE_DAYS)),
                {},
                {},
            ),
        ),
        (
            "as-of",
            lambda: (
                ("governance", "--repo", SNAPSHOT_REPO, *snapshot, "--as-of", draw(_HOSTILE_AS_OF)),
                {},
                {},
            ),
        ),
        (
            "as-of+days",
            lambda: (
                (
                    "triage",
                    "--repo",
                    SNAPSHOT_REPO,
                    *snapshot,
                    "--as-of",
                    draw(_HOSTILE_AS_OF),
                    "--days",
                    "90",
                ),
                {},
                {},
            ),
        ),
        (
            "api-url",
            lambda: (
                ("labels", "--repo", SNAPSHOT_REPO, "--github-api-url", draw(_HOSTILE_URLS)),
                {},
                {},
            ),
        ),
        (
            "sdk",
            lambda: (
                ("--sdk", draw(_HOSTILE_SDKS), "--skip-governance", "--cache-dir", "{d}/cache"),
                {},
                {},
            ),
        ),
        (
            "cache-file",
            lambda: (
                ("--sdk", "sample-sdk", "--skip-governance", "--cache-dir", "{d}/afile"),
                {"afile": b"x"},
                {},
            ),
        ),
        (
            "out-file",
            lambda: (
                (
                    "--sdk",
                    "sample-sdk",
                    "--skip-governance",
                    "--cache-dir",
                    "{d}/cache",
                    "--out",
                    "{d}/afile",
                ),
                {"afile": b"x"},
                {},
            ),
        ),
        (
            "out-under-file",
            lambda: (
                (
                    "--sdk",
                    "sample-sdk",
                    "--skip-governance",
                    "--cache-dir",
                    "{d}/cache",
                    "--out",
                    "{d}/afile/sub",
                ),
                {"afile": b"x"},
                {},
            ),
        ),
        (
            "timeout-flag",
            lambda: (
                (
                    *assess_base,
                    "--skip-governance",
                    draw(st.sampled_from(["--ready-timeout", "--client-timeout"])),
                    draw(_HOSTILE_TIMEOUTS),
                ),
                {},
                {},
            ),
        ),
        (
            "timeout-env",
            lambda: (
                ("show-config", "--sdk", "sample-sdk"),
                {},
                {
                    draw(
                        st.sampled_from(["TIERCHECK_READY_TIMEOUT", "TIERCHECK_CLIENT_TIMEOUT"])
                    ): draw(_HOSTILE_TIMEOUTS.filter(bool))
                },
            ),
        ),
        (
            "show-config-timeout",
            lambda: (
                (
                    "show-config",
                    "--sdk",
                    "sample-sdk",
                    draw(st.sampled_from(["--ready-timeout", "--client-timeout"])),
                    draw(_HOSTILE_TIMEOUTS),
                ),
                {},
                {},
            ),
        ),
        (
            "score-repo",
            lambda: (
                (
                    "score",
                    "--results",
                    "{d}/results",
                    "--repo",
                    draw(st.sampled_from(["not a repo", "", "a/b/c", "owner/", "/"])),
                ),
                _results_tree(_PASSING),
                {},
            ),
        ),
        ("cache-file-setup", lambda: (("setup", "--cache-dir", "{d}/afile"), {"afile": b"x"}, {})),
        (
            "cache-file-gov",
            lambda: (
                ("governance", "--repo", SNAPSHOT_REPO, "--cache-dir", "{d}/afile", *snapshot),
                {"afile": b"x"},
                {},
            ),
        ),
        (
            "usage",
            lambda: (
                tuple(
                    draw(
                        st.lists(
                            st.sampled_from(
                                [
                                    "--sdk",
                                    "--bogus",
                                    "-x",
                                    "list",
                                    "diff",
                                    "--output",
                                    "nope",
                                    "--concurrency",
                                    "many",
                                    "--revision",
                                    "requirements",
                                    "1999-01-01",
                                    "--days",
                                    "--",
                                ]
                            ),
                            min_size=1,
                            max_size=4,
                        )
                    )
                ),
                {},
                {},
            ),
        ),
    ]
    name, make = draw(st.sampled_from(choices))
    argv, files, env = make()
    bad = name not in ("usage",)
    if name == "usage":
        bad = None
    return Case("command", argv, files, env=env, bad=bad, note=name)


# --- values no consumer can hold, one case each ------------------------------------------------


def _golden_with(where: tuple[str | int, ...], literal: str) -> bytes:
    """The Tier 1 golden scorecard with the value at `where` replaced by JSON text `literal`."""
    doc = json.loads(SCORECARDS[0].read_text(encoding="utf-8"))
    parent = doc
    for part in where[:-1]:
        parent = parent[part]
    parent[where[-1]] = "@@value@@"
    return json.dumps(doc).replace('"@@value@@"', literal).encode()


def _snapshot_with(key: str, literal: str) -> bytes:
    doc = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    doc[key] = "@@value@@"
    return json.dumps(doc).replace('"@@value@@"', literal).encode()


def _registry_with(setting: str, value: str) -> bytes:
    """known_sdks.yaml with the sample SDK's first `setting` (`claimed_tier: 3`) set to `value`
    instead."""
    text = REGISTRY.read_text(encoding="utf-8")
    head, entry = text.split("\nsample-sdk:\n", 1)
    key = setting.split(":", 1)[0]
    assert f" {setting}\n" in entry
    entry = entry.replace(f" {setting}\n", f" {key}: {value}\n", 1)
    return f"{head}\nsample-sdk:\n{entry}".encode()


_GOOD = SCORECARDS[0].read_bytes()
_DIFF = ("diff", "{d}/old.json", "{d}/new.json")
_CLAIM = ("claim", "--from", "{d}/s.json", "--out", "{d}/claim")
_SCORE = ("score", "--results", "{d}/results")
_GOVERNANCE = ("governance", "--repo", SNAPSHOT_REPO, "--governance-snapshot")
_MATRIX = ("matrix", "--matrix", "{d}/m.yaml", "--skip-governance", "--cache-dir", "{d}/cache")


def _edge(note: str, argv: tuple[str, ...], files: Mapping[str, bytes] | None = None) -> Case:
    return Case("edge", argv, files or {}, bad=True, note=note)


#: Each a value that JSON or YAML decodes but no consumer can hold: a number of hundreds of
#: digits, a moment outside the calendar once converted to UTC, a lone surrogate in a name.
#: Every one is bad input: exit 2 with one line.
EDGE_CASES: tuple[Case, ...] = (
    _edge(
        "diff: pass rate of 401 digits",
        _DIFF,
        {
            "old.json": _golden_with(("checks", "conformance", "pass_rate"), str(HUGE)),
            "new.json": _GOOD,
        },
    ),
    _edge(
        "diff: tier of 401 digits",
        _DIFF,
        {"old.json": _GOOD, "new.json": _golden_with(("implied_tier", "tier"), str(HUGE))},
    ),
    _edge(
        "diff: scenario name with a lone surrogate",
        (*_DIFF, "--output", "markdown"),
        {
            "old.json": _GOOD,
            "new.json": _golden_with(
                ("checks", "conformance", "details", 0, "scenario"), '"\\ud800"'
            ),
        },
    ),
    _edge(
        "claim: a timestamp past the calendar",
        _CLAIM,
        {"s.json": _golden_with(("timestamp",), json.dumps(LATE_EDGE))},
    ),
    _edge(
        "claim: as_of before the calendar",
        _CLAIM,
        {"s.json": _golden_with(("governance", "as_of"), json.dumps(EARLY_EDGE))},
    ),
    _edge(
        "claim: SDK name with a lone surrogate",
        _CLAIM,
        {"s.json": _golden_with(("sdk", "name"), '"\\ud800"')},
    ),
    _edge(
        "claim: line name with a lone surrogate",
        _CLAIM,
        {"s.json": _golden_with(("branch",), '"main\\udfff"')},
    ),
    _edge(
        "claim: pass rate of 401 digits",
        _CLAIM,
        {"s.json": _golden_with(("checks", "conformance", "pass_rate"), str(HUGE))},
    ),
    _edge(
        "claim: pass rate 1e400",
        _CLAIM,
        {"s.json": _golden_with(("checks", "conformance", "pass_rate"), "1e400")},
    ),
    _edge(
        "score: checks.json with a moment past the calendar",
        _SCORE,
        _results_tree(
            b'[{"id": "main", "name": "Main", "status": "SUCCESS", "timestamp": "'
            + LATE_EDGE.encode()
            + b'"}]'
        ),
    ),
    _edge(
        "score: checks.json naming a check with a lone surrogate",
        _SCORE,
        _results_tree(b'[{"id": "main", "name": "Main\\ud800", "status": "SUCCESS"}]'),
    ),
    _edge(
        "score: baseline entry with a lone surrogate",
        (*_SCORE, "--expected-failures", "{d}/b.yaml"),
        {**_results_tree(_PASSING), "b.yaml": b'server:\n  - "tools\\ud800"\nclient: []\n'},
    ),
    _edge(
        "score: baseline entry of 401 digits",
        (*_SCORE, "--expected-failures", "{d}/b.yaml"),
        {**_results_tree(_PASSING), "b.yaml": f"server:\n  - {HUGE}\nclient: []\n".encode()},
    ),
    _edge(
        "registry: a value of 401 digits",
        ("list", "--registry", "{d}/r.yaml"),
        {"r.yaml": _registry_with("claimed_tier: 3", str(HUGE))},
    ),
    _edge(
        "registry: a value of 5000 digits",
        ("show-config", "--sdk", "sample-sdk", "--registry", "{d}/r.yaml"),
        {"r.yaml": _registry_with("ready_timeout: 30", "9" * 5000)},
    ),
    _edge(
        "registry: a name with a lone surrogate",
        ("show-config", "--sdk", "sample-sdk", "--registry", "{d}/r.yaml"),
        {"r.yaml": _registry_with("tag_prefix: v", '"v\\ud800"')},
    ),
    _edge(
        "snapshot: captured past the calendar",
        (*_GOVERNANCE, "{d}/s.json"),
        {"s.json": _snapshot_with("captured_at", json.dumps(LATE_EDGE))},
    ),
    _edge(
        "snapshot: captured before the calendar",
        ("triage", *_GOVERNANCE[1:], "{d}/s.json"),
        {"s.json": _snapshot_with("captured_at", json.dumps(EARLY_EDGE))},
    ),
    _edge("--as-of past the calendar", (*_GOVERNANCE, str(SNAPSHOT), "--as-of", LATE_EDGE)),
    _edge(
        "--as-of before the calendar",
        ("labels", *_GOVERNANCE[1:], str(SNAPSHOT), "--as-of", EARLY_EDGE),
    ),
    _edge(
        "history: --since past the calendar",
        ("history", "--sdk", "sample-sdk", "--history", "{d}/h.db", "--since", LATE_EDGE),
    ),
    _edge(
        "history: --as-of before the calendar",
        ("history", "--sdk", "sample-sdk", "--history", "{d}/h.db", "--as-of", EARLY_EDGE),
    ),
    _edge(
        "matrix: a claimed tier of 401 digits",
        _MATRIX,
        {"m.yaml": f"rows:\n  - sdk: sample-sdk\n    claimed_tier: {HUGE}\n".encode()},
    ),
    _edge(
        "matrix: an SDK name with a lone surrogate",
        _MATRIX,
        {"m.yaml": b'rows:\n  - sdk: "sample\\ud800"\n'},
    ),
)


KINDS: dict[str, st.SearchStrategy[Case]] = {
    "registry": registry_cases(),
    "baseline": baseline_cases(),
    "snapshot": snapshot_cases(),
    "checks-tree": checks_tree_cases(),
    "diff": diff_cases(),
    "command": command_cases(),
}


# --- counting (the figure for the issue) -----------------------------------------------------


def measure_kind(kind: str, examples: int, seed: int) -> dict[str, int]:
    """Run `examples` inputs of one kind; print what broke; return the counts."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as fix_seed

    tallies: dict[str, int] = {}
    samples: dict[str, str] = {}
    counts = {"inputs": 0, "broken": 0, "tracebacks": 0}

    @fix_seed(seed)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(KINDS[kind])
    def one(case: Case) -> None:
        counts["inputs"] += 1
        outcome = run_case(case)
        found = problems(case, outcome)
        counts["broken"] += bool(found)
        counts["tracebacks"] += "traceback" in found
        last = (outcome.stderr.strip().splitlines() or [""])[-1]
        for problem in found:
            label = problem.split(" with ")[0] if problem.startswith("exit 2") else problem
            tallies[label] = tallies.get(label, 0) + 1
            samples.setdefault(label, f"{case.note} {list(case.argv)[:5]} -> {last[:150]}")

    one()
    detail = ", ".join(f"{k}: {v}" for k, v in sorted(tallies.items()))
    print(
        f"{kind:<12} {counts['inputs']:>4} inputs {counts['tracebacks']:>4} tracebacks "
        f"{counts['broken']:>4} broken  ({detail})"
    )
    for label, sample in sorted(samples.items()):
        print(f"    e.g. {label}: {sample}")
    return counts


def measure(examples: int, seed: int) -> int:
    """Every kind in turn; print the totals; return how many inputs broke a promise."""
    totals = {"inputs": 0, "broken": 0, "tracebacks": 0}
    for kind in KINDS:
        for key, value in measure_kind(kind, examples, seed).items():
            totals[key] += value
    print(
        f"total: {totals['inputs']} inputs, {totals['tracebacks']} tracebacks, "
        f"{totals['broken']} broke a promise"
    )
    return totals["broken"]


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Count broken promises over fuzzed inputs.")
    parser.add_argument("--examples", type=int, default=50, help="inputs per kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kind", choices=list(KINDS), help="only this kind")
    args = parser.parse_args()
    if args.kind:
        measure_kind(args.kind, args.examples, args.seed)
    else:
        measure(args.examples, args.seed)
