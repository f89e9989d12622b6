"""One named regression test per cause of a traceback that issue 12's hostile audit found (7–18),
and for the smaller faults listed with them. Each drives the real CLI entry point (or, for the
file loaders, the loader every command uses) and expects one line on stderr and exit 2, or an
inconclusive entry with the output still produced.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from support.checks_builder import TS, UNREADABLE, check, write_scenario
from support.mounts import small_file_system
from tiercheck.cli import main
from tiercheck.config.baseline import load_baseline
from tiercheck.config.registry import load_registry
from tiercheck.config.safeload import MAX_DEPTH, check_shape, load_json, read_text
from tiercheck.conformance.results import parse_results
from tiercheck.errors import ConfigError

ROOT = Path(__file__).resolve().parents[3]
SNAPSHOT = ROOT / "examples" / "sample-sdk" / "governance-snapshot.json"
SNAPSHOT_REPO = "tiercheck/sample-sdk"
GOLDEN = Path(__file__).resolve().parents[1] / "golden"
DEEP = 5_000


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The CLI in this process; a traceback would fail the test itself."""
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own exits (usage errors)
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_line_exit_2(result: tuple[int, str, str], needle: str) -> None:
    code, _, err = result
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, err
    assert "Traceback" not in err
    assert lines, "no message at all"
    assert lines[0].startswith("tier-check"), lines
    assert len(lines) <= 2, lines  # the message, and for usage errors a hint
    assert needle in lines[0], lines


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No cache, registry, GitHub or git remote of the developer's reaches the run."""
    for name in ("TIERCHECK_REGISTRY", "GITHUB_TOKEN", "GH_TOKEN", "TIERCHECK_GIT_BASE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TIERCHECK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("GITHUB_API_URL", "http://127.0.0.1:9")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _registry(tmp_path: Path, text: bytes) -> Path:
    path = tmp_path / "known_sdks.yaml"
    path.write_bytes(text)
    return path


# --- 7. not UTF-8 ----------------------------------------------------------------------------


def test_7_registry_that_is_not_utf8(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _registry(isolated, b"sample-sdk:\n  repo: a/b\n  build: caf\xe9\n")
    result = run(capsys, "list", "--registry", str(path))
    assert_one_line_exit_2(result, f"{path}:3: not UTF-8 text (byte 0xe9 at offset 36)")


def test_7_baseline_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "expected.yaml"
    path.write_bytes(b"server:\n  - \xff\xfe\n")
    with pytest.raises(ConfigError, match=r"expected\.yaml:2: not UTF-8 text \(byte 0xff"):
        load_baseline(path)


def test_7_snapshot_that_is_not_utf8(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = isolated / "s.json"
    path.write_bytes(SNAPSHOT.read_bytes().replace(b'"kwame"', b'"kw\xc3(me"', 1))
    result = run(capsys, "governance", "--repo", SNAPSHOT_REPO, "--governance-snapshot", str(path))
    assert_one_line_exit_2(result, "not UTF-8 text (byte 0xc3")


def test_7_a_byte_order_mark_is_not_an_error(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_bytes(b"\xef\xbb\xbfserver: [tools-call-image]\n")
    assert [e.text for e in load_baseline(path).entries] == ["tools-call-image"]


# --- 8. deep nesting -------------------------------------------------------------------------


def test_8_deep_registry(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _registry(isolated, b"[" * DEEP + b"]" * DEEP)
    result = run(capsys, "list", "--registry", str(path))
    assert_one_line_exit_2(result, f"nested deeper than {MAX_DEPTH} levels")


def test_8_nesting_just_past_the_limit_is_refused_and_at_it_accepted(tmp_path: Path) -> None:
    at_limit = json.loads("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    check_shape(at_limit, "x")  # does not raise
    past = json.loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    with pytest.raises(ConfigError, match=f"x: nested deeper than {MAX_DEPTH} levels"):
        check_shape(past, "x")


def test_8_deep_checks_json_is_that_scenarios_parse_error(
    isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = isolated / "results" / "2025-11-25" / "server"
    write_scenario(results, "tools-list", "[" * DEEP + "]" * DEEP)
    write_scenario(results, "ping", [check("main")])
    parsed = {r.name: r for r in parse_results(results, "server")}
    assert parsed["tools-list"].parse_error is not None
    assert "nested deeper than" in parsed["tools-list"].parse_error
    assert parsed["ping"].parse_error is None
    # `score` is handed results to judge: unreadable harness output is bad input, named.
    result = run(capsys, "score", "--results", str(isolated / "results"), "--output", "json")
    assert_one_line_exit_2(result, "unreadable harness output: ")
    assert "server-tools-list-" in result[2]
    assert "nested deeper than 64 levels" in result[2]


@pytest.mark.parametrize(("raw", "words"), UNREADABLE)
def test_score_refuses_unreadable_harness_output_naming_the_file(
    isolated: Path, capsys: pytest.CaptureFixture[str], raw: bytes, words: str
) -> None:
    results = isolated / "results" / "2025-11-25" / "server"
    write_scenario(results, "ping", [check("main")])
    bad = write_scenario(results, "tools-list", "") / "checks.json"
    bad.write_bytes(raw)
    result = run(capsys, "score", "--results", str(isolated / "results"), "--output", "json")
    assert_one_line_exit_2(result, f"unreadable harness output: {bad}")
    assert words in result[2]
    assert result[1] == ""  # no scorecard: nothing was judged


def test_8_deep_scorecard_given_to_diff(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = isolated / "deep.json"
    deep.write_text('{"repo": ' + "[" * DEEP + "]" * DEEP + "}", encoding="utf-8")
    result = run(capsys, "diff", str(GOLDEN / "tier1.json"), str(deep))
    assert_one_line_exit_2(result, f"{deep}: nested deeper than {MAX_DEPTH} levels")


def test_8_deep_snapshot(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = isolated / "s.json"
    deep.write_text('{"a": ' * DEEP + "1" + "}" * DEEP, encoding="utf-8")
    result = run(capsys, "labels", "--repo", SNAPSHOT_REPO, "--governance-snapshot", str(deep))
    assert_one_line_exit_2(result, "nested deeper than")


# --- 9. recursive alias, 10. unhashable key --------------------------------------------------


def test_9_recursive_alias_in_a_registry(
    isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _registry(isolated, b"sample-sdk:\n  repo: a/b\n  revisions: &r [*r]\n")
    result = run(capsys, "list", "--registry", str(path))
    assert_one_line_exit_2(result, "sample-sdk.revisions[0]: refers to itself")


def test_9_alias_bomb_is_refused_before_it_expands(tmp_path: Path) -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for prev, name in zip("abcdefg", "bcdefgh", strict=True):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    path = _registry(tmp_path, ("\n".join(lines) + "\n").encode())
    with pytest.raises(ConfigError, match="expands to more than"):
        load_registry(path)


def test_10_unhashable_key(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _registry(isolated, b"? [a, b]\n: 1\n")
    result = run(capsys, "list", "--registry", str(path))
    assert_one_line_exit_2(result, f"{path}:1: a list cannot be a key (line 1); use text")


def test_10_a_key_that_is_not_text(tmp_path: Path) -> None:
    path = _registry(tmp_path, b"sample-sdk:\n  repo: a/b\n  revisions: [2025-11-25]\n  1: x\n")
    with pytest.raises(ConfigError, match=r"sample-sdk: the key 1 is not text; quote it"):
        load_registry(path)


# --- 11. dates out of range ------------------------------------------------------------------


def _triage(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, str]:
    argv = ("triage", "--repo", SNAPSHOT_REPO, "--governance-snapshot", str(SNAPSHOT), *extra)
    return run(capsys, *argv)


def test_11_days_out_of_range(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = _triage(capsys, "--days", "99999999")
    assert_one_line_exit_2(result, "--days: 99999999 is not between 1 and 36500 days")


def test_11_as_of_out_of_range(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = _triage(capsys, "--as-of", "0001-01-01")
    assert_one_line_exit_2(result, "--as-of: '0001-01-01' is out of range")
    result = _triage(capsys, "--as-of", "9999-12-31T23:59:59-05:00")
    assert_one_line_exit_2(result, "is out of range")


def test_11_the_widest_accepted_window_still_answers(
    isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _triage(capsys, "--as-of", "1970-01-01", "--days", "36500")
    assert code == 0, err
    assert json.loads(out)


def test_11_snapshot_captured_out_of_range(
    isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    data["captured_at"] = "0001-01-01T00:00:00Z"
    path = isolated / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run(capsys, "triage", "--repo", SNAPSHOT_REPO, "--governance-snapshot", str(path))
    assert_one_line_exit_2(result, "$.captured_at: 0001-01-01T00:00:00+00:00 is out of range")


# --- 12. --sdk '' and an empty ref; invalid refs ---------------------------------------------


def test_12_empty_sdk(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_one_line_exit_2(run(capsys, "--sdk", ""), "--sdk: empty")


def test_12_empty_ref(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "--sdk", "sample-sdk@")
    assert_one_line_exit_2(result, "the ref after '@' is empty")


@pytest.mark.parametrize("ref", ["-rf", "a..b", "a b", "x~1", "a:b", "a.lock", "a/", "x\x01"])
def test_invalid_refs_exit_2_before_any_clone(
    ref: str, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = run(capsys, "--sdk", f"sample-sdk@{ref}", "--skip-governance")
    assert_one_line_exit_2(result, f"the ref {ref!r}")
    assert not (isolated / "cache").exists()  # nothing was cloned, nothing was created


@pytest.mark.parametrize("ref", ["main", "v1.2.3", "feature/x-y_z", "0123abcd" * 5])
def test_refs_git_accepts_we_accept(ref: str, tmp_path: Path) -> None:
    # The expected values come from git itself: every ref we accept, git accepts.
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    ok = subprocess.run(
        ["git", "check-ref-format", "--allow-onelevel", ref], check=False, cwd=tmp_path
    )
    assert ok.returncode == 0
    from tiercheck.target import ref_problem

    assert ref_problem(ref) is None


@pytest.mark.parametrize(
    "ref", ["a..b", "a b", "x~1", "a:b", "a.lock", "a/", "a@{1}", "a//b", "@", ".x", "a/.b"]
)
def test_refs_we_refuse_git_refuses(ref: str, tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    ok = subprocess.run(
        ["git", "check-ref-format", "--allow-onelevel", ref], check=False, cwd=tmp_path
    )
    assert ok.returncode != 0
    from tiercheck.target import ref_problem

    assert ref_problem(ref) is not None


# --- 13. --github-api-url --------------------------------------------------------------------


@pytest.mark.parametrize(
    "url", ["not-a-url", "ftp://x", "http://", "http://[::1", "http://h:99999"]
)
def test_13_github_api_url(url: str, isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "labels", "--repo", "a/b", "--github-api-url", url)
    assert_one_line_exit_2(result, "--github-api-url:")


def test_13_github_api_url_from_the_environment(
    isolated: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_API_URL", "not-a-url")
    result = run(capsys, "labels", "--repo", "a/b")
    assert_one_line_exit_2(result, "GITHUB_API_URL: 'not-a-url' is not an http(s) URL")


# --- 14. --cache-dir that is a file; 15. --out that is a file or unwritable ------------------


def test_14_cache_dir_is_a_file(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    afile = isolated / "afile"
    afile.write_text("x")
    result = run(capsys, "--sdk", "sample-sdk", "--skip-governance", "--cache-dir", str(afile))
    assert_one_line_exit_2(result, f"--cache-dir {afile}: is a file, not a directory")
    result = run(capsys, "setup", "--cache-dir", str(afile / "sub"))
    assert_one_line_exit_2(result, f"is under {afile}, which is a file")


def test_14_cache_from_the_environment_is_a_file(
    isolated: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    afile = isolated / "afile"
    afile.write_text("x")
    monkeypatch.setenv("TIERCHECK_CACHE", str(afile))
    result = run(capsys, "--sdk", "sample-sdk", "--skip-governance")
    assert_one_line_exit_2(result, f"TIERCHECK_CACHE {afile}: is a file")


def test_15_out_is_a_file(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    afile = isolated / "afile"
    afile.write_text("x")
    argv = ["--sdk", "sample-sdk", "--skip-governance", "--out", str(afile)]
    assert_one_line_exit_2(run(capsys, *argv), f"--out {afile}: is a file, not a directory")
    assert not (isolated / "cache").exists()  # refused before any work


def test_15_out_on_a_read_only_file_system(
    isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with small_file_system(isolated / "ro", "ro,size=64k") as mount:
        out = mount / "reports"
        result = run(capsys, "--sdk", "sample-sdk", "--skip-governance", "--out", str(out))
    assert_one_line_exit_2(result, f"--out {out}: {mount} is on a read-only file system")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into any directory")
def test_15_out_not_writable(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locked = isolated / "locked"
    locked.mkdir(mode=0o500)
    result = run(capsys, "--sdk", "sample-sdk", "--skip-governance", "--out", str(locked / "r"))
    assert_one_line_exit_2(result, "is not writable")


# --- 16. timeouts ----------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1", "1e400", "x", "100000"])
@pytest.mark.parametrize("flag", ["--ready-timeout", "--client-timeout"])
def test_16_timeout_flags(
    flag: str, value: str, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = run(capsys, "show-config", "--sdk", "sample-sdk", flag, value)
    assert_one_line_exit_2(result, f"argument {flag}:")


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-2"])
def test_16_timeout_environment(
    value: str,
    isolated: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TIERCHECK_CLIENT_TIMEOUT", value)
    result = run(capsys, "show-config", "--sdk", "sample-sdk")
    assert_one_line_exit_2(result, "TIERCHECK_CLIENT_TIMEOUT: expected a")


@pytest.mark.parametrize("value", [".nan", ".inf", "0", "-1", "1e400"])
def test_16_timeout_in_the_registry(value: str, tmp_path: Path) -> None:
    text = (
        "sample-sdk:\n  repo: a/b\n  revisions: ['2025-11-25']\n"
        f"  server:\n    ready_timeout: {value}\n"
    )
    path = _registry(tmp_path, text.encode())
    # The schema refuses zero and below in its words; NaN and infinity pass it and are ours.
    with pytest.raises(ConfigError, match=r"sample-sdk\.server\.ready_timeout: "):
        load_registry(path)


def test_16_timeout_in_a_spec_override(tmp_path: Path) -> None:
    text = (
        "sample-sdk:\n  repo: a/b\n  revisions: ['2025-11-25']\n  spec_overrides:\n"
        "    '2025-11-25':\n      client:\n        command: c\n        timeout: .nan\n"
    )
    path = _registry(tmp_path, text.encode())
    match = r"sample-sdk\.spec_overrides\.2025-11-25\.client\.timeout: expected a finite"
    with pytest.raises(ConfigError, match=match):
        load_registry(path)


def test_16_a_good_timeout_still_flows_through(
    isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        capsys, "show-config", "--sdk", "sample-sdk", "--client-timeout", "2.5", "--json"
    )
    assert code == 0, err
    value = json.loads(out)["revisions"]["2025-11-25"]["client.timeout"]
    assert value == {"value": 2.5, "source": "--client-timeout"}


# --- the smaller faults ----------------------------------------------------------------------


def test_usage_errors_are_one_line_and_a_hint(
    isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "diff", "only-one.json")
    assert code == 2
    assert err.splitlines() == [
        "tier-check diff: error: the following arguments are required: NEW.json",
        "  (see `tier-check diff --help`)",
    ]
    code, _, err = run(capsys, "--sdk", "sample-sdk", "--concurrency", "many")
    assert code == 2
    assert err.splitlines()[0] == (
        "tier-check: error: argument --concurrency: invalid int value: 'many'"
    )
    assert len(err.splitlines()) == 2


@pytest.mark.parametrize("repo", ["not a repo", "", "a/b/c", "owner/", "/x", "../x"])
def test_score_repo_must_be_owner_slash_repo(
    repo: str, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_scenario(isolated / "r" / "2025-11-25" / "server", "ping", [check("main")], ts=TS)
    result = run(capsys, "score", "--results", str(isolated / "r"), "--repo", repo)
    assert_one_line_exit_2(result, "--repo:")


# --- the one safe loader ---------------------------------------------------------------------


def test_safe_loader_refuses_an_oversized_file_without_reading_it_all(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 2048)
    with pytest.raises(ConfigError, match="larger than 0 MiB"):
        read_text(path, max_bytes=1024)
    assert read_text(path, max_bytes=4096) == " " * 2048


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"a": -Infinity}', "1e999"])
def test_safe_loader_refuses_what_json_cannot_hold(text: str, tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match="not JSON"):
        load_json(path)


def test_shared_structure_is_measured_once(tmp_path: Path) -> None:
    # The same list under 1,000 keys is 1,000 references, not a tree to walk 1,000 times.
    shared = list(range(100))
    check_shape({str(i): shared for i in range(1_000)}, "x", max_nodes=200_000)
    with pytest.raises(ConfigError, match="expands to more than 50,000 values"):
        check_shape({str(i): shared for i in range(1_000)}, "x", max_nodes=50_000)
