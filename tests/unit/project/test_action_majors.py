"""Every action our workflows and our composite action use is at a major that runs on Node 24
(GitHub forces Node 20 actions onto Node 24 since 2026-06-02; Node 20 is end-of-life).

MINIMUM_MAJORS is the one table: each action's lowest acceptable major and where that was read.
The test reads every workflow and action file of the repository (the nightly, the release
workflow, `action.yml`, `examples/workflows/`), so a new file or a new step is covered at once,
and an action missing from the table fails until someone looks its major up.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from support import tools

REPO = Path(__file__).resolve().parents[3]

#: action → (lowest major accepted, where its current major and runtime were read).
MINIMUM_MAJORS: dict[str, tuple[int, str]] = {
    "actions/checkout": (7, "github.com/actions/checkout tags v7, v7.0.1; action.yml runs node24"),
    "actions/setup-python": (7, "github.com/actions/setup-python v7.0.0; node24 since v6"),
    "actions/setup-node": (7, "github.com/actions/setup-node v7.0.0; node24 since v5"),
    "actions/setup-go": (7, "github.com/actions/setup-go v7.0.0; node24 since v6"),
    "actions/setup-java": (5, "github.com/actions/setup-java v5.7.0; node24 since v5"),
    "actions/setup-dotnet": (6, "github.com/actions/setup-dotnet v6.0.0; node24 since v5"),
    "actions/cache": (5, "github.com/actions/cache v5.0.5; node24 since v5"),
    "actions/upload-artifact": (7, "github.com/actions/upload-artifact v7.0.0; node24 since v6"),
    "actions/download-artifact": (8, "github.com/actions/download-artifact v8.0.1; node24 v7"),
    "actions/upload-pages-artifact": (
        5,
        "github.com/actions/upload-pages-artifact v5.0.0 (composite over upload-artifact v7); "
        "include-hidden-files since v5",
    ),
    "actions/deploy-pages": (5, "github.com/actions/deploy-pages v5.0.0; node24 since v5"),
    "ruby/setup-ruby": (1, "github.com/ruby/setup-ruby v1.315.0: one major, runs node24"),
    "pypa/gh-action-pypi-publish": (
        1,
        "github.com/pypa/gh-action-pypi-publish release/v1 (a Docker action, no Node)",
    ),
    # This repository's own action, as an SDK repository pins it (examples/workflows/mcp-tier.yml).
    "modelcontextprotocol/tiercheck": (0, "this repository"),
}

_REF = re.compile(r"^(?:release/)?v(\d+)(?:\.\d+){0,2}$")


def workflow_files() -> list[Path]:
    """Every workflow and action file of the repository."""
    found = [
        *sorted((REPO / ".github" / "workflows").glob("*.y*ml")),
        *sorted((REPO / "examples" / "workflows").glob("*.y*ml")),
        *sorted(REPO.glob("action.y*ml")),
    ]
    return [p for p in found if p.is_file()]


def _uses(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "uses" and isinstance(value, str):
                yield value
            else:
                yield from _uses(value)
    elif isinstance(node, list):
        for item in node:
            yield from _uses(item)


def problems(text: str) -> list[str]:
    """Each `uses:` of a workflow or action text that is not at its table's major or above."""
    found = []
    for uses in _uses(yaml.safe_load(text)):
        if uses.startswith(("./", "docker://")):
            continue
        action, _, ref = uses.partition("@")
        action = "/".join(action.split("/")[:2])  # owner/repo/path@ref is owner/repo's
        if action not in MINIMUM_MAJORS:
            found.append(f"{uses}: not in MINIMUM_MAJORS (look its current major up)")
            continue
        match = _REF.match(ref)
        if match is None:
            found.append(f"{uses}: the ref is not a major (vN, vN.M.P or release/vN)")
            continue
        wanted = MINIMUM_MAJORS[action][0]
        if int(match.group(1)) < wanted:
            found.append(f"{uses}: below v{wanted} ({MINIMUM_MAJORS[action][1]})")
    return found


def test_the_files_read_are_the_ones_we_have() -> None:
    names = {p.relative_to(REPO).as_posix() for p in workflow_files()}
    assert {
        ".github/workflows/nightly-matrix.yml",
        ".github/workflows/release.yml",
        "action.yml",
        "examples/workflows/mcp-tier.yml",
        "examples/workflows/action-selftest.yml",
    } <= names


@pytest.mark.parametrize("path", workflow_files(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_action_is_at_a_node24_major(path: Path) -> None:
    assert problems(path.read_text("utf-8")) == []


def test_a_node20_major_is_caught() -> None:
    text = (
        "jobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n"
        "      - uses: actions/setup-python@v7.0.0\n"
        "      - uses: actions/download-artifact@v7\n"
        "      - uses: someone/unknown@v9\n"
        "      - uses: actions/cache@0123456789abcdef0123456789abcdef01234567\n"
        "      - uses: ./\n"
    )
    found = problems(text)
    assert len(found) == 4
    assert found[0].startswith("actions/checkout@v4: below v7")
    assert found[1].startswith("actions/download-artifact@v7: below v8")
    assert "not in MINIMUM_MAJORS" in found[2]
    assert "not a major" in found[3]


def test_the_composite_action_steps_are_read() -> None:
    text = "runs:\n  using: composite\n  steps:\n    - uses: actions/cache@v4\n"
    assert problems(text) == [
        "actions/cache@v4: below v5 (github.com/actions/cache v5.0.5; node24 since v5)"
    ]


def test_the_pages_upload_keeps_the_site_dotfiles() -> None:
    """upload-pages-artifact v5 leaves out every dotfile unless asked; the site has two
    (`.nojekyll` and `.tiercheck-site.json`, the build's record)."""
    nightly = yaml.safe_load((REPO / ".github/workflows/nightly-matrix.yml").read_text("utf-8"))
    uploads = [
        step
        for job in nightly["jobs"].values()
        for step in job.get("steps", [])
        if str(step.get("uses", "")).startswith("actions/upload-pages-artifact@")
    ]
    assert uploads
    for step in uploads:
        assert step["with"]["include-hidden-files"] is True


def _actionlint() -> str:
    beside = Path(sys.executable).parent / "actionlint"
    found = str(beside) if beside.is_file() else shutil.which("actionlint")
    return tools.require("actionlint", found, ".ci/run installs it with go install")


def test_actionlint_passes_on_every_workflow_of_the_repository() -> None:
    files = sorted((REPO / ".github" / "workflows").glob("*.yml"))
    done = subprocess.run(
        [_actionlint(), "-no-color", *map(str, files)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_release_publishes_only_what_the_check_job_built_and_checked() -> None:
    release = yaml.safe_load((REPO / ".github/workflows/release.yml").read_text("utf-8"))
    check, publish = release["jobs"]["check"], release["jobs"]["publish"]
    assert any(step.get("run") == ".ci/package-check dist" for step in check["steps"])
    assert publish["needs"] == "check"
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    assert publish["if"] == "startsWith(github.ref, 'refs/tags/v')"
    uses = [step.get("uses", "") for step in publish["steps"]]
    assert uses == ["actions/download-artifact@v8", "pypa/gh-action-pypi-publish@release/v1"]
    # Nothing in the publish job builds: it uploads the checked files.
    assert not any("run" in step for step in publish["steps"])


def test_ci_runs_the_package_check_without_publishing() -> None:
    ci = (REPO / ".ci" / "run").read_text("utf-8")
    assert "\n.ci/package-check" in ci
    script = (REPO / ".ci" / "package-check").read_text("utf-8")
    for needed in (
        'pip" install -q --upgrade pip build twine',
        'twine" check --strict',
        'tier-check" --version',
        'tiercheck" --version',  # the name `uvx tiercheck` runs
        'tier-check" list',
        'tier-check" doctor --sdk sample-sdk',
    ):
        assert needed in script, needed
    assert "pypi-publish" not in ci + script
    assert "upload" not in ci + script
