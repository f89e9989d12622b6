"""GitHub is reached through one edge, `tiercheck.ghapi`: the code says so.

Every module of the package outside `tiercheck.ghapi` is read, and each of these is a finding:

- naming a token's environment variable (a string that is exactly `GITHUB_TOKEN` or
  `GH_TOKEN`: reading it, or keeping its name to read it by), or running `gh auth token` (its
  argv, or a command line starting with it): the token is looked up by `ghapi.token` alone;
- naming the API URL's variable (exactly `GITHUB_API_URL`) or GitHub's API host
  (`api.github.com` anywhere in a string): the REST base is resolved by `ghapi.url` alone;
- borrowing the edge's own names for those variables (`TOKEN_ENV`, `API_URL_ENV`) or its
  `gh auth token` runner, which would read them by another road;
- importing a GitHub client or its transport (`github`, PyGithub; `requests` and `urllib3`,
  which PyGithub sends through), by an import statement or by `importlib.import_module`: a
  session with GitHub is built by `ghapi.client` and `ghapi.session` alone.

Other HTTP clients (`httpx`, `urllib.request`, `http.client`, `aiohttp`) reach other servers:
`ELSEWHERE` lists each module that imports one with the server it reaches, which is never
GitHub (a module on it naming GitHub's API is caught by the rules above); a module importing one
that is not listed, and an entry that no longer imports one, fail too.

Docstrings are not read: a docstring may say what a variable is for. A sentence naming the
variables (a flag's help: "else GITHUB_TOKEN, GH_TOKEN, gh auth token") is no finding either;
a string that *is* a variable's name is.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

import pytest

from support.code_rules import modules, parse, walk

EDGE = "tiercheck.ghapi"

#: Module (or package, ending in ".") → the server its HTTP client reaches, never GitHub.
ELSEWHERE: dict[str, str] = {
    "tiercheck.probes.": "the SDK's server under test (the advisory probes)",
    "tiercheck.sdk.server": "the SDK's server under test (readiness and liveness)",
    "tiercheck.conformance.upstream": "the npm registry (the harness's newest version)",
}

_TOKEN_VARIABLES = frozenset({"GITHUB_TOKEN", "GH_TOKEN"})
_API_URL_VARIABLE = "GITHUB_API_URL"
_API_HOST = "api.github.com"
_GH_AUTH_TOKEN = re.compile(r"\s*gh\s+auth\s+token\b")
#: The edge's names for the variables it reads, and its `gh auth token` runner.
_EDGE_NAMES = frozenset({"TOKEN_ENV", "API_URL_ENV", "_gh_auth_token"})
#: GitHub's client (PyGithub) and what it sends through.
_GITHUB_CLIENTS = frozenset({"github", "requests", "urllib3"})
#: HTTP clients that may reach a server other than GitHub (`ELSEWHERE` says which).
_OTHER_CLIENTS = frozenset({"httpx", "urllib.request", "http.client", "aiohttp"})


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the nodes that are docstrings (of the module, a class or a function)."""
    found = set()
    for node in walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _strings(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, text) of every string constant that is not a docstring."""
    skip = _docstrings(tree)
    for node in walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node.lineno, node.value


def _argv_runs_gh_auth_token(node: ast.List | ast.Tuple) -> bool:
    """Whether a list or tuple literal holds "gh", "auth", "token" in a row (an argv)."""
    words = [e.value if isinstance(e, ast.Constant) else None for e in node.elts]
    return any(words[i : i + 3] == ["gh", "auth", "token"] for i in range(len(words)))


def _imported(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, module) of every import: statements, and `import_module`/`__import__` calls
    with a constant name."""
    for node in walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.lineno, node.module
            yield from ((node.lineno, f"{node.module}.{alias.name}") for alias in node.names)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            first = node.args[0]
            if name in ("import_module", "__import__") and isinstance(first, ast.Constant):
                yield node.lineno, str(first.value)


def _name(node: ast.AST) -> str | None:
    """The name a node uses: a name, an attribute, or what an import brings in."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.ImportFrom):
        names = [alias.name for alias in node.names if alias.name in _EDGE_NAMES]
        return names[0] if names else None
    return None


def _within(module: str, packages: frozenset[str]) -> str | None:
    """The one of `packages` that `module` is or lies in, if any."""
    for package in sorted(packages):
        if module == package or module.startswith(f"{package}."):
            return package
    return None


def github_access(source: str) -> list[str]:
    """Each way `source` reaches GitHub on its own, as "what (line n)", in the order written."""
    tree = parse(source)
    found: list[tuple[int, str]] = []
    for line, text in _strings(tree):
        if text in _TOKEN_VARIABLES:
            found.append((line, f"token variable {text}"))
        if text == _API_URL_VARIABLE:
            found.append((line, f"API URL variable {text}"))
        if _API_HOST in text:
            found.append((line, f"GitHub's API host in {text!r:.60}"))
        if _GH_AUTH_TOKEN.match(text):
            found.append((line, "gh auth token"))
    for node in walk(tree):
        if isinstance(node, ast.List | ast.Tuple) and _argv_runs_gh_auth_token(node):
            found.append((node.lineno, "gh auth token"))
        name = _name(node)
        if name in _EDGE_NAMES:
            found.append((getattr(node, "lineno", 0), f"the edge's {name}"))
    for line, module in _imported(tree):
        client = _within(module, _GITHUB_CLIENTS)
        if client is not None:
            found.append((line, f"imports {client}"))
    return list(dict.fromkeys(f"{what} (line {line})" for line, what in sorted(found)))


def other_clients(source: str) -> list[str]:
    """The HTTP clients other than GitHub's that `source` imports."""
    imported = (_within(module, _OTHER_CLIENTS) for _, module in _imported(parse(source)))
    return sorted({client for client in imported if client is not None})


def _outside_the_edge() -> list[tuple[str, str]]:
    return [
        (name, source)
        for name, source in modules()
        if name != EDGE and not name.startswith(f"{EDGE}.")
    ]


def _listed(module: str) -> str | None:
    """The `ELSEWHERE` entry that covers `module`, if any."""
    for entry in ELSEWHERE:
        if module == entry or (entry.endswith(".") and module.startswith(entry)):
            return entry
    return None


def test_no_module_outside_the_edge_reaches_github() -> None:
    found = {name: github_access(source) for name, source in _outside_the_edge()}
    assert {name: ways for name, ways in found.items() if ways} == {}


def test_every_other_http_client_is_known_to_reach_another_server() -> None:
    users = {name for name, source in _outside_the_edge() if other_clients(source)}
    assert {name for name in users if _listed(name) is None} == set(), (
        "a module imports an HTTP client: add it to ELSEWHERE with the server it reaches "
        "(GitHub is reached through tiercheck.ghapi)"
    )
    stale = {entry for entry in ELSEWHERE if not any(_listed(name) == entry for name in users)}
    assert stale == set(), "remove what no longer imports an HTTP client from ELSEWHERE"


def test_the_edge_is_read_and_its_own_access_is_what_the_rules_find() -> None:
    """The rules do find real access: the edge's own modules break them, one rule each."""
    edge = {name: github_access(source) for name, source in modules() if name.startswith(EDGE)}
    assert not any(name.startswith(EDGE) for name, _ in _outside_the_edge())
    found = " ".join(way for ways in edge.values() for way in ways)
    for way in (
        "token variable GITHUB_TOKEN",
        "token variable GH_TOKEN",
        "gh auth token",
        "API URL variable GITHUB_API_URL",
        "GitHub's API host",
        "imports github",
        "imports requests",
        "imports urllib3",
        "the edge's TOKEN_ENV",
        "the edge's API_URL_ENV",
    ):
        assert way in found, way


@pytest.mark.parametrize(
    ("planted", "found"),
    [
        (
            "import os\nTOKEN = os.environ.get('GITHUB_TOKEN')\n",
            ["token variable GITHUB_TOKEN (line 2)"],
        ),
        (
            "import os\ndef token(env):\n    return env['GH_TOKEN'] or os.getenv('GITHUB_TOKEN')\n",
            ["token variable GH_TOKEN (line 3)", "token variable GITHUB_TOKEN (line 3)"],
        ),
        (
            "from tiercheck.process import capture\n"
            "def token():\n    return capture(['gh', 'auth', 'token'], timeout_s=5).stdout\n",
            ["gh auth token (line 3)"],
        ),
        ("import os\nos.system('gh auth token --hostname x')\n", ["gh auth token (line 2)"]),
        (
            "import os\nURL = os.environ.get('GITHUB_API_URL') or 'https://api.github.com'\n",
            [
                "API URL variable GITHUB_API_URL (line 2)",
                "GitHub's API host in 'https://api.github.com' (line 2)",
            ],
        ),
        ("VAR = 'GITHUB_API_URL'\n", ["API URL variable GITHUB_API_URL (line 1)"]),
        (
            "import os\nfrom tiercheck.ghapi.url import API_URL_ENV\nos.environ.get(API_URL_ENV)\n",
            ["the edge's API_URL_ENV (line 2)", "the edge's API_URL_ENV (line 3)"],
        ),
        (
            "from tiercheck.ghapi import token\nT = token._gh_auth_token(None)\n",
            ["the edge's _gh_auth_token (line 2)"],
        ),
        (
            "def u(r):\n    return f'https://api.github.com/repos/{r}'\n",
            ["GitHub's API host in 'https://api.github.com/repos/' (line 2)"],
        ),
        ("from github import Github\n", ["imports github (line 1)"]),
        ("import github.Requester\n", ["imports github (line 1)"]),
        ("def f():\n    import requests\n    return requests\n", ["imports requests (line 2)"]),
        ("from urllib3.util import Retry\n", ["imports urllib3 (line 1)"]),
        (
            "import importlib\nGH = importlib.import_module('github')\n",
            ["imports github (line 2)"],
        ),
        # Not access: a docstring, a sentence naming the variables, another HTTP client, a
        # module whose name merely begins like one.
        ('"""Reads GITHUB_TOKEN, else `gh auth token`, from api.github.com."""\n', []),
        ("HELP = 'a token (else GITHUB_TOKEN, GH_TOKEN, gh auth token)'\n", []),
        ("import httpx\nhttpx.get('http://127.0.0.1:9/mcp')\n", []),
        ("import githubkit_like_but_not\nimport requests_toolbelt_like\n", []),
    ],
)
def test_planted_github_access_is_found(planted: str, found: list[str]) -> None:
    assert github_access(planted) == found


@pytest.mark.parametrize(
    ("planted", "clients"),
    [
        ("import httpx\n", ["httpx"]),
        ("from urllib.request import urlopen\n", ["urllib.request"]),
        ("import http.client\n", ["http.client"]),
        ("from urllib.parse import urlsplit\n", []),
    ],
)
def test_planted_other_clients_are_found(planted: str, clients: list[str]) -> None:
    assert other_clients(planted) == clients
