"""tiercheck.process against real tiny programs: groups, staged stop, timeouts, env scrubbing."""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from pathlib import Path

import pytest

from support.procutil import pid_gone, wait_for
from tiercheck import process
from tiercheck.errors import ProcessError

PY = shlex.quote(sys.executable)

# A program that ignores SIGTERM, reports its PID once the handler is in place, then sleeps.
IGNORES_TERM = """
import os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
with open(sys.argv[1], "w") as f:
    f.write(str(os.getpid()))
time.sleep(120)
"""

# A leader that leaves a grandchild in its group and exits at once (a daemonising launcher).
LEAVES_GRANDCHILD = """
import subprocess, sys
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
with open(sys.argv[1], "w") as f:
    f.write(str(child.pid))
"""


def _script(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return shlex.quote(str(path))


def _read_pid(path: Path) -> int:
    assert wait_for(lambda: path.is_file() and path.read_text().strip() != ""), path
    return int(path.read_text())


def _group_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def test_run_reports_exit_code_and_writes_log(tmp_path: Path) -> None:
    log = tmp_path / "logs" / "run.log"
    command = f"{PY} -c \"print('hello'); raise SystemExit(3)\""
    result = process.run(command, cwd=tmp_path, env=os.environ, log_path=log)
    assert result.returncode == 3
    assert not result.ok
    assert not result.timed_out
    assert "hello" in process.tail(log)


def test_run_succeeds_with_argv(tmp_path: Path) -> None:
    result = process.run([sys.executable, "-c", "pass"], cwd=tmp_path, env=os.environ)
    assert result.ok
    assert result.returncode == 0


def test_run_timeout_stops_the_group_and_is_reported(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    script = _script(tmp_path, "ignore.py", IGNORES_TERM)
    # The shell leader is stopped by the timeout; its grandchild ignores SIGTERM and needs SIGKILL.
    command = f"{PY} {script} {shlex.quote(str(pid_file))} & wait"
    began = time.monotonic()
    result = process.run(command, cwd=tmp_path, env=os.environ, timeout_s=2)
    assert result.timed_out
    assert not result.ok
    assert time.monotonic() - began < 60  # bounded: 2 s + TERM grace + KILL grace
    assert pid_gone(_read_pid(pid_file))


def test_run_stops_stragglers_left_in_the_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "straggler.pid"
    script = _script(tmp_path, "leave.py", LEAVES_GRANDCHILD)
    result = process.run(
        f"{PY} {script} {shlex.quote(str(pid_file))}", cwd=tmp_path, env=os.environ
    )
    assert result.ok
    assert pid_gone(_read_pid(pid_file))


def test_stop_kills_a_grandchild_that_ignores_sigterm(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    script = _script(tmp_path, "ignore.py", IGNORES_TERM)
    child = process.start(
        f"{PY} {script} {shlex.quote(str(pid_file))} & wait", cwd=tmp_path, env=os.environ
    )
    grandchild = _read_pid(pid_file)
    assert child in process.live_children()
    child.stop(term_grace_s=0.5)
    assert _group_gone(child.pid)
    assert pid_gone(grandchild)
    assert child not in process.live_children()
    child.stop()  # idempotent


def test_running_stops_the_group_when_the_block_raises(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    script = _script(tmp_path, "ignore.py", IGNORES_TERM)
    command = f"{PY} {script} {shlex.quote(str(pid_file))} & wait"
    seen: dict[str, int] = {}

    def use_then_fail() -> None:
        with process.running(command, cwd=tmp_path, env=os.environ) as child:
            seen["group"] = child.pid
            seen["grandchild"] = _read_pid(pid_file)
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        use_then_fail()
    assert _group_gone(seen["group"])
    assert pid_gone(seen["grandchild"])


def test_running_stops_the_group_on_keyboard_interrupt(tmp_path: Path) -> None:
    command = f'{PY} -c "import time; time.sleep(120)"'
    seen: dict[str, int] = {}

    def interrupted() -> None:
        with process.running(command, cwd=tmp_path, env=os.environ) as child:
            seen["group"] = child.pid
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted()
    assert _group_gone(seen["group"])


def test_kill_all_children_stops_every_live_group(tmp_path: Path) -> None:
    sleeper = f'{PY} -c "import time; time.sleep(120)"'
    first = process.start(sleeper, cwd=tmp_path, env=os.environ)
    second = process.start(sleeper, cwd=tmp_path, env=os.environ)
    process.kill_all_children(term_grace_s=1)
    assert _group_gone(first.pid)
    assert _group_gone(second.pid)
    assert first not in process.live_children()
    assert second not in process.live_children()


def test_start_in_a_missing_directory_raises_process_error(tmp_path: Path) -> None:
    with pytest.raises(ProcessError, match="cannot start") as info:
        process.start("true", cwd=tmp_path / "missing", env=os.environ)
    assert info.value.exit_code == 1


def test_capture_returns_output(tmp_path: Path) -> None:
    done = process.capture(
        [sys.executable, "-c", "print('out'); import sys; print('err', file=sys.stderr)"]
    )
    assert done.returncode == 0
    assert done.stdout.strip() == "out"
    assert done.stderr.strip() == "err"


def test_capture_timeout_kills_and_raises(tmp_path: Path) -> None:
    with pytest.raises(ProcessError, match="took longer than"):
        process.capture([sys.executable, "-c", "import time; time.sleep(120)"], timeout_s=1)


def test_capture_of_a_missing_program_raises(tmp_path: Path) -> None:
    with pytest.raises(ProcessError, match="cannot run"):
        process.capture([str(tmp_path / "no-such-program")])


def test_sdk_environment_withholds_secret_names() -> None:
    base = {
        "PATH": "/bin",
        "GITHUB_TOKEN": "ghp_x",
        "AWS_SECRET_ACCESS_KEY": "s",
        "OPENAI_API_KEY": "k",
        "NPM_AUTH": "a",
        "DB_PASSWORD": "p",
        "SSH_KEY": "k",
        "KEYBOARD_LAYOUT": "us",
        "HOME": "/home/x",
    }
    env = process.sdk_environment(
        {"SDK_SETTING": "1", "MY_TOKEN": "configured"}, allow=["NPM_AUTH"], base=base
    )
    assert env == {
        "PATH": "/bin",
        "KEYBOARD_LAYOUT": "us",
        "HOME": "/home/x",
        "NPM_AUTH": "a",
        "SDK_SETTING": "1",
        "MY_TOKEN": "configured",  # written in the SDK's config on purpose: not filtered
    }


def test_a_child_started_with_the_sdk_environment_never_sees_the_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_secret_value")
    monkeypatch.setenv("TIERCHECK_VISIBLE", "yes")
    out = tmp_path / "env.json"
    dump = f"import json, os; open({str(out)!r}, 'w').write(json.dumps(dict(os.environ)))"
    result = process.run([sys.executable, "-c", dump], cwd=tmp_path, env=process.sdk_environment())
    assert result.ok
    seen = json.loads(out.read_text())
    assert "GITHUB_TOKEN" not in seen
    assert "ghp_secret_value" not in out.read_text()
    assert seen["TIERCHECK_VISIBLE"] == "yes"


def test_tail_of_a_missing_log_is_empty(tmp_path: Path) -> None:
    assert process.tail(None) == ""
    assert process.tail(tmp_path / "nothing.log") == ""


def test_tail_keeps_the_last_lines(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text("".join(f"line {i}\n" for i in range(100)))
    assert process.tail(log, max_lines=3) == "line 97\nline 98\nline 99"


def test_stop_reaches_a_descendant_that_left_the_group(tmp_path: Path) -> None:
    # `timeout` (as the client slot wrapper uses it) puts its command in a group of its own;
    # stopping our child must still stop that group, or the sleeper would outlive the leg.
    pid_file = tmp_path / "sleeper.pid"
    code = "import os, sys, time\nopen(sys.argv[1], 'w').write(str(os.getpid()))\ntime.sleep(120)\n"
    sleeper = f"{PY} -c {shlex.quote(code)} {shlex.quote(str(pid_file))}"
    child = process.start(f"timeout 120 {sleeper}", cwd=tmp_path, env=dict(os.environ))
    assert wait_for(lambda: pid_file.exists() and pid_file.read_text() != "", timeout_s=30)
    sleeper_pid = int(pid_file.read_text())
    assert os.getpgid(sleeper_pid) != child.pid  # it really escaped our group
    child.stop(term_grace_s=2.0)
    assert wait_for(lambda: pid_gone(sleeper_pid), timeout_s=10)


# --- secrets by name and by value (issue 12, item 19) ------------------------------------------

# Shapes written by hand from each issuer's documented format; none is a real credential.
SECRET_VALUES = {
    "github classic": "ghp_" + "A1b2C3d4E5" * 3 + "f6G7h8",
    "github oauth": "gho_" + "Z" * 36,
    "github fine-grained": "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
    "gitlab": "glpat-abcdefghij0123456789",
    "slack bot": "xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx",
    "slack webhook": "https://hooks.slack.com/services/T000/B000/XXXXXXXX",
    "aws access key": "AKIAIOSFODNN7EXAMPLE",
    "openai": "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
    "anthropic-style": "sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
    "jwt": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNH",
    "pem": "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
    "pem pkcs8": "-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----",
    "url with password": "postgres://app:hunter2@db.internal:5432/app",
    "url, empty user": "redis://:hunter2@cache:6379/0",
    "bearer header": "Authorization: Bearer ghp_" + "q" * 36,
}

ORDINARY_VALUES = {
    "path": "/usr/local/bin:/usr/bin:/bin",
    "url without password": "https://user@example.com/repo.git",
    "plain url": "http://127.0.0.1:3000/mcp",
    "proxy list": "localhost,127.0.0.1,.internal",
    "short sk": "sk-1",
    "locale": "en_US.UTF-8",
    "json": '{"a": 1, "b": "c"}',
    "git sha": "0123456789abcdef0123456789abcdef01234567",
}


@pytest.mark.parametrize("value", SECRET_VALUES.values(), ids=SECRET_VALUES)
def test_a_credential_shaped_value_is_secret_whatever_its_name(value: str) -> None:
    assert process.is_secret_value(value)
    env = process.sdk_environment(base={"FOO": value, "PATH": "/bin"})
    assert env == {"PATH": "/bin"}


@pytest.mark.parametrize("value", ORDINARY_VALUES.values(), ids=ORDINARY_VALUES)
def test_an_ordinary_value_is_not_secret(value: str) -> None:
    assert not process.is_secret_value(value)


@pytest.mark.parametrize(
    "name",
    [
        "GITHUB_PAT",
        "AZURE_STORAGE_ACCOUNTKEY",
        "DB_PASS",
        "MYSQL_PWD",
        "SENTRY_DSN",
        "SLACK_WEBHOOK_URL",
        "GOOGLE_APPLICATION_CREDENTIALS",
        "SIGNING_PRIVATE",
        "PAT",
        "api_key",
        "SIGNING_KEYS",
    ],
)
def test_more_names_mark_a_secret(name: str) -> None:
    assert process.is_secret_name(name)


@pytest.mark.parametrize(
    "name", ["PATH", "PWD", "OLDPWD", "PASSENGER_ENV", "DSNAME", "PYTHONPATH", "KEYBOARD_LAYOUT"]
)
def test_names_that_only_look_like_secrets_pass(name: str) -> None:
    assert not process.is_secret_name(name)


def test_pass_env_lets_a_value_shaped_secret_through_and_withheld_lists_names_only() -> None:
    base = {"FOO": SECRET_VALUES["github classic"], "DB_PASS": "x", "HOME": "/h"}
    assert process.sdk_environment(base=base, allow=["FOO"]) == {"FOO": base["FOO"], "HOME": "/h"}
    assert process.withheld(base) == ["DB_PASS", "FOO"]
    assert process.withheld(base, allow=["FOO"]) == ["DB_PASS"]


# --- orphans re-parented to a hardened tier-check (issue 12, item 6) ---------------------------

# Run in a child interpreter: harden() changes the whole process, and must not change pytest's.
HARDENED = """
import json, os, sys, time
from pathlib import Path
from tiercheck import process
missing = process.harden()
word = sys.argv[1]
child = process.start(
    f"(setsid sleep {word} &); (setsid env -i sleep {word} &); sleep 60",
    cwd=Path.cwd(), env=os.environ,
)
def daemons():
    found = []
    for pid in os.listdir("/proc"):
        try:
            argv = open(f"/proc/{pid}/cmdline").read().split("\\0") if pid.isdigit() else []
            if argv[:2] == ["sleep", word]:
                state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    found.append(int(pid))
        except OSError:
            pass
    return found
deadline = time.monotonic() + 20
while len(daemons()) < 2 and time.monotonic() < deadline:
    time.sleep(0.05)
started = daemons()
parents = [int(open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()[1]) for p in started]
child.stop(term_grace_s=2)
after_stop = daemons()
process.stop_adopted(term_grace_s=2)
print(json.dumps({"missing": missing, "started": started, "parents": parents,
                  "after_stop": after_stop, "after_sweep": daemons(), "me": os.getpid()}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux-only")
def test_a_hardened_process_adopts_double_forked_daemons_and_stops_them(tmp_path: Path) -> None:
    word = f"777.{os.getpid()}{time.monotonic_ns() % 10**6}"
    script = tmp_path / "hardened.py"
    script.write_text(HARDENED)
    done = subprocess_run([sys.executable, str(script), word], cwd=tmp_path)
    report = json.loads(done)
    assert report["missing"] == []
    assert len(report["started"]) == 2
    # Re-parented to the hardened process, not to init.
    assert report["parents"] == [report["me"], report["me"]]
    # The daemon that kept the child's tag went with the child; the one that dropped its whole
    # environment was stopped by the sweep at exit.
    assert len(report["after_stop"]) == 1
    assert report["after_sweep"] == []


def subprocess_run(argv: list[str], cwd: Path) -> str:
    import subprocess

    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux-only")
def test_a_hardened_process_is_not_dumpable(tmp_path: Path) -> None:
    code = (
        "from tiercheck import process; process.harden(); "
        "import ctypes; print(ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))"  # PR_GET_DUMPABLE
    )
    assert subprocess_run([sys.executable, "-c", code], cwd=tmp_path).strip() == "0"
