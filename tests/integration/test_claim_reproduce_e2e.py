"""A claim's "Reproduce" command, run as printed, makes the same claim.

Three ways an SDK is configured, each on the sample SDK at one revision with the probes and
GitHub left out and a client that exits at once (every client scenario fails in a second, the
server leg is the sample's own), so each claim is quick to make twice:

* a registered SDK, cloned (`--sdk sample-sdk@COMMIT`, the clone coming from a local mirror);
* an SDK from a registry file of one's own (`--registry FILE`), which the claim folder keeps a
  copy of, so the printed command names it there;
* flags alone (`--sdk-path DIR` with every command, a baseline per leg, and `--repo`).

The last two are also claimed `--from` the scorecard of an assessment made beforehand (its
report folder the claim folder's `scorecard/`), with no flag but `--out`: the claim finds the
registry file the run's configuration names, keeps its copy and prints the same command.

The printed command is run by a shell in the claim folder with `tier-check` on PATH and
nothing else added. The second claim must agree with the first on every row, verdict and
scenario, on the configuration each revision ran with (value and source), on the baselines
applied per leg and revision, and must print the same command again. Each test makes two claims
(14 s each on an idle two-core machine, up to 35 s on a busy one), hence `slow`; the unit test
`test_the_printed_command_asks_for_the_configuration_the_run_had` guards the default run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from support.e2e import CHEAP, Run, Session, copy_sample, git, tier_check

pytestmark = pytest.mark.slow

#: A client that exits at once: each client scenario fails in a second.
QUICK_CLIENT = "true"
COMMON = ("--revision", CHEAP, "--probes", "none", "--skip-governance")


def _printed(claim_dir: Path) -> str:
    claim = json.loads((claim_dir / "claim.json").read_text("utf-8"))
    return str(claim["reproduce"]["tiercheck"][-1]["command"])


def _rerun(command: str, claim_dir: Path, env: dict[str, str]) -> Path:
    """Run `command` as printed (a shell, in the claim folder); the claim folder it wrote."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(
        command,
        shell=True,
        cwd=claim_dir,
        env={**env, "PATH": path},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr[-3000:]
    found = sorted((claim_dir / "reports").glob("*/claim-*"))
    assert len(found) == 1, (found, done.stderr[-3000:])
    return found[0]


def _the_claim(claim_dir: Path) -> dict[str, Any]:
    claim = json.loads((claim_dir / "claim.json").read_text("utf-8"))
    doc = json.loads((claim_dir / "scorecard" / "scorecard.json").read_text("utf-8"))
    return {
        "title": claim["header"]["title"],
        "status": claim["status"],
        "rows": [(r["id"], r["verdicts"], r["current"]) for r in claim["rows"]],
        "scenarios": claim["scenarios"],
        # Each value and its source, a registry named by its entry (the copy has another path).
        "config": {
            rev: {
                key: (item["value"], item["source"].rsplit(": ", 1)[-1])
                for key, item in entry["config"].items()
            }
            for rev, entry in doc["revisions"].items()
        },
        "baseline": doc.get("baseline", {}).get("applied"),
        "sdk": (doc["sdk"]["name"], doc["sdk"]["commit"], doc["repo"]),
    }


def _same_claim_again(first: Path, env: dict[str, str]) -> dict[str, Any]:
    command = _printed(first)
    second = _rerun(command, first, env)
    made, again = _the_claim(first), _the_claim(second)
    assert again == made
    assert _printed(second) == command
    return made


def test_a_registered_sdk(session: Session, tmp_path: Path) -> None:
    sample = copy_sample(tmp_path / "work" / "sample-sdk")
    env = session.env()
    git(sample, "init", "-q", "-b", "main", env=env)
    git(sample, "add", ".", env=env)
    git(sample, "commit", "-q", "-m", "sample SDK", env=env)
    commit = git(sample, "rev-parse", "HEAD", env=env)
    mirror = tmp_path / "mirror" / "tiercheck"
    mirror.mkdir(parents=True)
    (mirror / "sample-sdk.git").symlink_to(sample)
    env = session.env(TIERCHECK_GIT_BASE=str(tmp_path / "mirror"))
    out = tmp_path / "claim"
    first = tier_check(
        "claim",
        "--sdk",
        f"sample-sdk@{commit}",
        "--client-cmd",
        QUICK_CLIENT,
        *COMMON,
        "--out",
        str(out),
        env=env,
    )
    assert first.returncode == 1, first.explain()  # the client leg fails
    assert _printed(out).startswith(f"tier-check claim --sdk sample-sdk@{commit} --tier 1 ")
    made = _same_claim_again(out, env)
    assert made["sdk"] == ("sample-sdk", commit, "tiercheck/sample-sdk")


def _registry_file(registry: Path) -> Path:
    registry.parent.mkdir()
    registry.write_text(
        "my-sdk:\n"
        "  repo: acme/my-sdk\n"
        "  language: Pythonic\n"
        f"  revisions: ['{CHEAP}']\n"
        "  build: python3 -m venv .venv && .venv/bin/pip install -q -r requirements.txt\n"
        "  server:\n"
        "    command: .venv/bin/python server.py --port {port}\n"
        "    url: http://127.0.0.1:{port}/mcp\n"
        "  client:\n"
        f"    command: '{QUICK_CLIENT}'\n"
        f"  expected_failures: {{server: expected-failures.{CHEAP}.yml}}\n",
        encoding="utf-8",
    )
    return registry


def _claimed(how: str, assessment: tuple[str, ...], out: Path, env: dict[str, str]) -> Run:
    """A claim of the assessment `assessment` asks for, into `out`: made by `claim` itself
    ("sdk"), or from the scorecard of the assessment run beforehand ("from")."""
    if how == "sdk":
        return tier_check("claim", *assessment, *COMMON, "--out", str(out), env=env)
    run = tier_check(*assessment, *COMMON, "--out", str(out / "scorecard"), env=env)
    assert run.returncode in (0, 1), run.explain()
    return tier_check(
        "claim", "--from", str(out / "scorecard" / "scorecard.json"), "--out", str(out), env=env
    )


@pytest.mark.parametrize("how", ["sdk", "from"])
def test_an_sdk_from_a_registry_file(session: Session, tmp_path: Path, how: str) -> None:
    sdk = copy_sample(tmp_path / "work" / "checkout")
    registry = _registry_file(tmp_path / "mine" / "registry.yaml")
    env = session.env()
    out = tmp_path / "claim"
    target = ("--registry", str(registry), "--sdk-path", str(sdk), "--sdk", "my-sdk")
    first = _claimed(how, target, out, env)
    assert first.returncode == 1, first.explain()
    # The claim folder keeps the SDK's entry as the registry has it, and the command names
    # that copy.
    copy = yaml.safe_load((out / "sdk-registry.yaml").read_text("utf-8"))
    assert copy == {"my-sdk": yaml.safe_load(registry.read_text("utf-8"))["my-sdk"]}
    assert _printed(out).startswith(
        f"tier-check claim --registry sdk-registry.yaml --sdk-path {sdk} --sdk my-sdk "
    )
    made = _same_claim_again(out, env)
    assert made["title"] == "Pythonic SDK — Tier 1 Assessment"  # the registry's `language`
    assert made["baseline"] == [
        {
            "revision": CHEAP,
            "leg": "server",
            "file": str(sdk.resolve() / f"expected-failures.{CHEAP}.yml"),
        }
    ]


@pytest.mark.parametrize("how", ["sdk", "from"])
def test_flags_alone(session: Session, tmp_path: Path, how: str) -> None:
    sdk = copy_sample(tmp_path / "work" / "unregistered")
    env = session.env()
    out = tmp_path / "claim"
    target = (
        "--sdk-path",
        str(sdk),
        "--repo",
        "acme/unregistered",
        "--build-cmd",
        "python3 -m venv .venv && .venv/bin/pip install -q -r requirements.txt",
        "--server-cmd",
        ".venv/bin/python server.py --port {port}",
        "--server-url",
        "http://127.0.0.1:{port}/mcp",
        "--client-cmd",
        QUICK_CLIENT,
        "--expected-failures",
        f"server=expected-failures.{CHEAP}.yml",
    )
    first = _claimed(how, target, out, env)
    assert first.returncode == 1, first.explain()
    command = _printed(out)
    # No --sdk: the SDK is not in the registry, and naming it would be refused.
    assert command.startswith(f"tier-check claim --sdk-path {sdk} --repo acme/unregistered ")
    assert f"--expected-failures server=expected-failures.{CHEAP}.yml" in command
    made = _same_claim_again(out, env)
    # The checkout's requirements.txt says Python.
    assert made["title"] == "Python SDK — Tier 1 Assessment"
    assert made["config"][CHEAP]["expected_failures.client"] == (None, "default")


@pytest.fixture(autouse=True)
def _no_stray_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TIERCHECK_REGISTRY", raising=False)
