"""No planted secret reaches the SDK under test, directly or through its ancestors' /proc.

Secrets shaped by their name (GITHUB_PAT, DB_PASS, SENTRY_DSN, …) and by their value (a GitHub
token in `FOO`, a JWT, a PEM private key, a URL with a password, …) are planted in the
environment of a real `tier-check` run of the sample SDK. The SDK's build, its server and every
client scenario dump their own environment and then read `/proc/<pid>/environ` of each of their
ancestors (the harness, tier-check itself, and so on up to init). None of the planted values may
appear anywhere. An ordinary variable must appear, so a dump that reads nothing cannot pass.

The threat is an SDK running as the same, non-root user as tier-check (root reads any process's
environment; no setting protects against it). When the tests run as root, tier-check and the SDK
are therefore run as a dedicated unprivileged user, created with `useradd` if it is missing; the
test is skipped (with the reason) when that is impossible.
"""

from __future__ import annotations

import json
import os
import pwd
import secrets
import shlex
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

from support.e2e import CHEAP, REPO, SAMPLE, SAMPLE_BUILD, base_env
from support.procutil import MARK_ENV, wait_for

pytestmark = pytest.mark.integration

USER = "tiercheck-sdk"
ORDINARY = f"ordinary-{uuid.uuid4().hex}"


def _alnum(n: int) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    return "".join(secrets.choice(alphabet) for _ in range(n))


def planted() -> dict[str, str]:
    """Secrets by name (plain values) and by value (innocent names), fresh for each run."""
    by_name = {
        name: f"plain-{uuid.uuid4().hex}"
        for name in (
            "GITHUB_TOKEN",
            "GITHUB_PAT",
            "AZURE_STORAGE_ACCOUNTKEY",
            "DB_PASS",
            "MYSQL_PWD",
            "SENTRY_DSN",
            "SLACK_WEBHOOK_URL",
            "MY_API_KEY",
            "DEPLOY_CREDENTIALS",
            "SIGNING_PRIVATE",
        )
    }
    pem_body = _alnum(64)
    by_value = {
        "FOO": f"ghp_{_alnum(36)}",
        "BAR": f"glpat-{_alnum(20)}",
        "BAZ": f"xoxb-{secrets.randbelow(10**12)}-{_alnum(24)}",
        "QUX": "AKIA"
        + "".join(secrets.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") for _ in range(16)),
        "ZED": f"sk-proj-{_alnum(48)}",
        "ONE": f"eyJhbGciOiJIUzI1NiJ9.eyJ{_alnum(30)}.{_alnum(43)}",
        "CERTS": f"-----BEGIN PRIVATE KEY-----\n{pem_body}\n-----END PRIVATE KEY-----\n",
        "DATABASE_URL": f"postgres://app:{_alnum(20)}@db.example.invalid:5432/app",
    }
    return {**by_name, **by_value}


def needle(name: str, value: str) -> str:
    """The part of a planted value that must never be seen (a PEM key's body line)."""
    if value.startswith("-----BEGIN"):
        return value.splitlines()[1]
    return value


@dataclass(frozen=True)
class Sandbox:
    """A directory the unprivileged user owns, and how to run a command as that user."""

    root: Path
    uid: int
    gid: int

    def argv(self, *args: str) -> list[str]:
        if self.uid == os.getuid():
            return list(args)
        return ["setpriv", f"--reuid={self.uid}", f"--regid={self.gid}", "--init-groups", *args]

    def env(self, **extra: str) -> dict[str, str]:
        env = base_env(self.root / "cache", self.root / "home", **extra)
        env.update(HOME=str(self.root / "home"), npm_config_cache=str(self.root / "npm"))
        env.pop("XDG_CACHE_HOME", None)
        return env

    def own(self, path: Path) -> None:
        if self.uid != os.getuid():
            for item in (path, *path.rglob("*")):
                os.lchown(item, self.uid, self.gid)


def _unprivileged_user() -> tuple[int, int]:
    if os.getuid() != 0:
        return os.getuid(), os.getgid()
    try:
        entry = pwd.getpwnam(USER)
    except KeyError:
        if shutil.which("useradd") is None or shutil.which("setpriv") is None:
            pytest.skip("running as root without useradd/setpriv: no unprivileged user for the SDK")
        done = subprocess.run(
            ["useradd", "--system", "--user-group", "--no-create-home", "--shell", "/bin/sh", USER],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode not in (0, 9):  # 9: the user appeared meanwhile
            pytest.skip(f"useradd {USER} failed: {done.stderr.strip()}")
        entry = pwd.getpwnam(USER)
    return entry.pw_uid, entry.pw_gid


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    uid, gid = _unprivileged_user()
    root = Path(tempfile.mkdtemp(prefix="tiercheck-secrets-", dir="/tmp"))
    try:
        for name in ("cache", "home", "npm", "dumps"):
            (root / name).mkdir()
        box = Sandbox(root, uid, gid)
        box.own(root)
        probe = subprocess.run(
            box.argv(sys.executable, "-c", "import tiercheck"),
            cwd=REPO,
            env=box.env(),
            capture_output=True,
            text=True,
            check=False,
        )
        if probe.returncode != 0:
            pytest.skip(f"the unprivileged user cannot import tiercheck: {probe.stderr[-300:]}")
        setup = subprocess.run(
            box.argv(sys.executable, "-m", "tiercheck", "setup"),
            cwd=REPO,
            env=box.env(),
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        assert setup.returncode == 0, setup.stderr[-3000:]
        yield box
    finally:
        shutil.rmtree(root, ignore_errors=True)


DUMP = r"""#!/bin/sh
# usage: dump.sh KIND — write this process's environment, then each ancestor's /proc environ.
out="$DUMPS/$1-$$"
env > "$out.env"
pid=$$
while [ "$pid" -gt 1 ]; do
  pid=$(awk '/^PPid:/ {print $2}' "/proc/$pid/status")
  [ -n "$pid" ] && [ "$pid" -gt 0 ] || break
  if cat "/proc/$pid/environ" > "$out.ancestor-$pid" 2>/dev/null; then
    echo "$pid read" >> "$out.log"
  else
    rm -f "$out.ancestor-$pid"
    echo "$pid denied" >> "$out.log"
  fi
done
"""


def _marked(mark: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.status() != psutil.STATUS_ZOMBIE and proc.environ().get(MARK_ENV) == mark:
                found.append(proc)
        except psutil.Error:
            continue
    return found


def test_no_planted_secret_reaches_the_build_server_or_client(sandbox: Sandbox) -> None:
    root = sandbox.root
    sdk = root / "sample-sdk"
    shutil.copytree(SAMPLE, sdk, ignore=shutil.ignore_patterns(".venv", "__pycache__"))
    dumps = root / "dumps"
    dump = root / "dump.sh"
    dump.write_text(DUMP)
    sandbox.own(root)
    run_dump = f"DUMPS={shlex.quote(str(dumps))} sh {shlex.quote(str(dump))}"
    secret_env = planted()
    mark = uuid.uuid4().hex
    env = sandbox.env(TIERCHECK_E2E_ORDINARY=ORDINARY, **secret_env, **{MARK_ENV: mark})
    proc = subprocess.Popen(
        sandbox.argv(
            sys.executable,
            "-m",
            "tiercheck",
            "--sdk",
            "sample-sdk",
            "--sdk-path",
            str(sdk),
            "--revision",
            CHEAP,
            "--skip-governance",
            "--build-cmd",
            f"{run_dump} build && {SAMPLE_BUILD}",
            "--server-cmd",
            f"{run_dump} server && exec .venv/bin/python server.py --port {{port}}",
            "--client-cmd",
            f"{run_dump} client && exec .venv/bin/python client.py",
            "--output",
            "json",
            "--out",
            str(root / "report"),
        ),
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _, stderr = proc.communicate(timeout=900)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if not wait_for(lambda: not _marked(mark), timeout_s=15.0):
            left = _marked(mark)
            for child in left:  # processes of this run only: they carry its mark
                child.kill()
            pytest.fail(f"processes left behind: {[p.pid for p in left]}")
    card = root / "report" / "scorecard.json"
    # What the scorecard says was not measured, when the run did not pass: the progress lines
    # alone do not say why a leg ended.
    why = json.loads(card.read_text()).get("unmeasured") if card.is_file() else "no scorecard"
    assert proc.returncode == 0, f"{stderr[-3000:]}\nunmeasured: {why}"

    kinds = {"build": 0, "server": 0, "client": 0}
    for path in dumps.glob("*.env"):
        kinds[path.name.split("-", 1)[0]] += 1
    assert kinds["build"] == 1, kinds
    assert kinds["server"] == 1, kinds
    assert kinds["client"] >= 5, kinds

    seen = {path: path.read_bytes().decode("utf-8", "replace") for path in dumps.iterdir()}
    leaked = sorted(
        {
            name
            for name, value in secret_env.items()
            for text in seen.values()
            if needle(name, value) in text
        }
    )
    assert leaked == [], (
        f"{len(leaked)} of {len(secret_env)} planted secrets reached the SDK: {leaked}"
    )

    # The dumps really read: each process's own environment has the ordinary variable, and so
    # does at least one readable ancestor (the harness, which runs the clients).
    for path, text in seen.items():
        if path.suffix == ".env":
            assert f"TIERCHECK_E2E_ORDINARY={ORDINARY}" in text, path.name
    assert any(ORDINARY in t for p, t in seen.items() if ".ancestor-" in p.name)
    # tier-check itself is an ancestor of every dump, and its environment could not be read.
    logs = [t for p, t in seen.items() if p.suffix == ".log"]
    assert logs
    for text in logs:
        assert f"{proc.pid} denied" in text.splitlines(), text
