"""The command layer's tables: commands, configuration flags and output formats, each declared once.

Expected names are written out here by hand, so a table that loses or renames an entry fails.
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from support.scorecards import tier1_scorecard
from tiercheck.cli import main
from tiercheck.cli.app import COMMANDS, Command, commands_help
from tiercheck.cli.assess import assess_parser
from tiercheck.cli.common import config_flags
from tiercheck.cli.config_verbs import show_config_parser
from tiercheck.config.resolve import FIELDS, flag_fields
from tiercheck.document_files import write_reports
from tiercheck.document_formats import DIFF_FORMATS, GOVERNANCE_FORMATS, SCORECARD_FORMATS

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SAMPLE_SNAPSHOT = (
    Path(__file__).resolve().parents[3] / "examples" / "sample-sdk" / "governance-snapshot.json"
)

#: (flag, environment variable, metavar, cascade key), in the order `--help` lists them.
CONFIG_FLAGS = [
    ("--build-cmd", "TIERCHECK_BUILD_CMD", "CMD", "build"),
    ("--tag-prefix", "TIERCHECK_TAG_PREFIX", "PREFIX", "tag_prefix"),
    ("--server-cmd", "TIERCHECK_SERVER_CMD", "CMD", "server.command"),
    ("--server-url", "TIERCHECK_SERVER_URL", "URL", "server.url"),
    ("--client-cmd", "TIERCHECK_CLIENT_CMD", "CMD", "client.command"),
    ("--expected-failures", "TIERCHECK_EXPECTED_FAILURES", "SPEC", "expected_failures.server"),
    ("--ready-timeout", "TIERCHECK_READY_TIMEOUT", "S", "server.ready_timeout"),
    ("--client-timeout", "TIERCHECK_CLIENT_TIMEOUT", "S", "client.timeout"),
]


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# --- the table of commands -----------------------------------------------------------------


def test_command_table_names_every_verb_in_help_order() -> None:
    assert [c.name for c in COMMANDS] == [
        "list",
        "requirements",
        "init",
        "show-config",
        "setup",
        "doctor",
        "score",
        "diff",
        "governance",
        "labels",
        "triage",
        "history",
        "history import",
        "history export",
        "publish",
        "probe",
        "matrix",
        "matrix plan",
        "matrix merge",
        "notify",
        "claim",
        "referee update",
    ]


def test_help_epilog_is_built_from_the_table() -> None:
    lines = commands_help().splitlines()
    assert lines[0] == "commands beside the assessment:"
    assert "  list            the SDKs tiercheck knows" in lines
    # Neighbours with one summary share a line.
    assert "  labels, triage  single governance checks, as the official tool has them" in lines
    assert "run `tier-check COMMAND --help` for a command's options." in lines
    assert "exit codes:" in lines


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_each_command_has_its_own_help(
    command: Command, capsys: pytest.CaptureFixture[str]
) -> None:
    name = command.name
    with pytest.raises(SystemExit) as info:
        main([name, "--help"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: tier-check {name} ")


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_each_entry_names_a_module_and_functions_that_exist(command: Command) -> None:
    module = importlib.import_module(command.module)
    assert module.__name__.startswith("tiercheck.cli.")
    make_parser, run = command.load()
    assert (make_parser, run) == (getattr(module, command.parser), getattr(module, command.run))
    assert callable(run)
    parser = make_parser(f"tier-check {command.name}")
    assert isinstance(parser, argparse.ArgumentParser)
    assert parser.prog == f"tier-check {command.name}"


@pytest.mark.parametrize(
    ("module", "parser", "run", "error"),
    [
        ("tiercheck.cli.scroe", "score_parser", "score", ModuleNotFoundError),
        ("tiercheck.cli.score", "score_parsr", "score", AttributeError),
        ("tiercheck.cli.score", "score_parser", "scroe", AttributeError),
    ],
)
def test_a_misspelt_entry_fails_to_load(
    module: str, parser: str, run: str, error: type[Exception]
) -> None:
    with pytest.raises(error):
        Command("score", "a summary", module, parser, run).load()


def test_no_verb_is_the_assessment(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli([], capsys)
    assert (code, out) == (2, "")
    assert err == (
        "tier-check: error: nothing to assess: pass --sdk NAME[@REF] or --sdk-path DIR "
        "(see --help)\n"
    )


# --- configuration flags, declared in the cascade's field table ----------------------------


def test_every_flag_field_has_env_help_and_metavar() -> None:
    table = [(f.flag, f.env_var, f.metavar, f.key) for f in flag_fields()]
    assert table == CONFIG_FLAGS
    for spec in flag_fields():
        assert spec.help, spec.key
    # The fields without a flag are set only in known_sdks.yaml.
    assert [f.key for f in FIELDS if f.flag is None] == ["env", "pass_env", "client.commands"]


@pytest.mark.parametrize(
    "parser",
    [assess_parser("tier-check", epilog=""), show_config_parser("tier-check show-config")],
    ids=["assess", "show-config"],
)
def test_config_flags_map_to_the_cascade(parser: argparse.ArgumentParser) -> None:
    argv = ["--sdk", "go-sdk", "--server-cmd", "./s {port}", "--client-timeout", "7"]
    args = parser.parse_args(argv)
    # Only what was given; parsed as the flag is read, so a bad value is a usage error before
    # any work.
    assert config_flags(args).values == {"--server-cmd": "./s {port}", "--client-timeout": 7.0}


def test_help_lists_each_config_flag_with_its_env_var(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["show-config", "--help"])
    out = capsys.readouterr().out
    for flag, env, metavar, _ in CONFIG_FLAGS:
        assert f"{flag} {metavar}" in out
        assert env in out


def test_every_config_flag_and_env_var_reaches_show_config(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    values = {
        "build": "make",
        "tag_prefix": "go-sdk-v",
        "server.command": "./s {port}",
        "server.url": "http://127.0.0.1:{port}/mcp",
        "client.command": "./c",
        "expected_failures.server": "ef.yml",
        "server.ready_timeout": "5",
        "client.timeout": "6",
    }
    parsed = {"server.ready_timeout": 5.0, "client.timeout": 6.0}
    argv = ["show-config", "--sdk", "go-sdk", "--revision", "2025-11-25", "--json"]
    for flag, _, _, key in CONFIG_FLAGS:
        argv += [flag, values[key]]
    code, out, _ = run_cli(argv, capsys)
    assert code == 0
    resolved = json.loads(out)["revisions"]["2025-11-25"]
    for flag, _, _, key in CONFIG_FLAGS:
        # The baseline's source names the SPEC that chose it, for one leg and the other.
        source = f"{flag} ef.yml" if flag == "--expected-failures" else flag
        assert resolved[key] == {"value": parsed.get(key, values[key]), "source": source}
    assert resolved["expected_failures.client"] == resolved["expected_failures.server"]

    for _, env, _, key in CONFIG_FLAGS:
        monkeypatch.setenv(env, values[key])
    code, out, _ = run_cli(argv[:6], capsys)
    assert code == 0
    resolved = json.loads(out)["revisions"]["2025-11-25"]
    for _, env, _, key in CONFIG_FLAGS:
        assert resolved[key] == {"value": parsed.get(key, values[key]), "source": env}


# --- output formats, one registry per document ---------------------------------------------


def test_output_choices_come_from_the_registries() -> None:
    assert SCORECARD_FORMATS.choices() == ["terminal", "json", "markdown", "junit", "html"]
    assert DIFF_FORMATS.choices() == ["terminal", "markdown", "json"]
    assert GOVERNANCE_FORMATS.choices() == ["terminal", "json"]


@pytest.mark.parametrize(
    ("fmt", "file_name"),
    [
        ("json", "scorecard.json"),
        ("markdown", "scorecard.md"),
        ("junit", "junit.xml"),
        ("terminal", "scorecard.txt"),
        ("html", "scorecard.html"),
    ],
)
def test_every_scorecard_format_is_offered_and_written(
    fmt: str, file_name: str, tmp_path: Path
) -> None:
    args = assess_parser("tier-check", epilog="").parse_args(["--output", fmt])
    assert args.output == [fmt]
    written = write_reports(tier1_scorecard(), tmp_path, formats=(fmt,))
    assert {name: path.name for name, path in written.items()} == {fmt: file_name}
    assert written[fmt].read_text("utf-8") == SCORECARD_FORMATS.get(fmt).render(
        tier1_scorecard(), False
    )


def test_unknown_output_format_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--sdk", "go-sdk", "--output", "sarif"])
    assert info.value.code == 2
    assert "invalid choice: 'sarif'" in capsys.readouterr().err


def test_several_outputs_print_in_order_with_a_blank_line_between(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from support.checks_builder import passing, write_scenario
    from tiercheck.config.requirements import load_requirement_set

    results = tmp_path / "results" / "2025-11-25" / "server"
    for name in load_requirement_set("2025-11-25").server:
        write_scenario(results, name, passing())
    argv = ["score", "--results", str(tmp_path / "results"), "--output", "markdown"]
    code, out, _ = run_cli([*argv, "--output", "json", "--output", "markdown"], capsys)
    assert code == 0
    markdown, _, rest = out.partition("\n\n{")
    assert markdown.startswith("# ")
    assert json.loads("{" + rest)["revisions"]["2025-11-25"]["server"]["passed"] == 30
    assert out.count("\n# ") == 0  # markdown asked twice, printed once


@pytest.mark.parametrize("fmt", ["terminal", "markdown", "json"])
def test_every_diff_format_prints(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(
        ["diff", str(GOLDEN / "tier1.json"), str(GOLDEN / "mixed.json"), "--output", fmt], capsys
    )
    assert code == 1  # tier 1 → a mixed result is a regression
    assert out.endswith("\n")
    assert not out.endswith("\n\n")
    if fmt == "json":
        assert json.loads(out)["has_regression"] is True


def test_governance_reads_the_registry_named_in_the_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = tmp_path / "known_sdks.yaml"
    registry.write_text(
        "renamed-sample:\n"
        "  repo: tiercheck/sample-sdk\n"
        '  revisions: ["2025-11-25"]\n'
        '  label_aliases: {"bug": "needs repro"}\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("TIERCHECK_REGISTRY", str(registry))
    argv = ["labels", "--repo", "tiercheck/sample-sdk", "--sdk", "renamed-sample"]
    code, out, _ = run_cli([*argv, "--governance-snapshot", str(SAMPLE_SNAPSHOT)], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["missing"] == ["needs repro"]  # the official reading knows no aliases
    assert data["sep1730"]["aliases_applied"] == {"bug": "needs repro"}


def test_a_snapshot_of_another_repository_is_refused_before_anything_is_cloned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshot = json.loads(SAMPLE_SNAPSHOT.read_text("utf-8"))
    snapshot["repo"] = "someone/else"
    other = tmp_path / "other.json"
    other.write_text(json.dumps(snapshot), encoding="utf-8")
    cache, out = tmp_path / "cache", tmp_path / "out"
    monkeypatch.setenv("TIERCHECK_CACHE", str(cache))
    argv = ["--sdk", "sample-sdk", "--git-url", (tmp_path / "absent.git").as_uri()]
    argv += ["--governance-snapshot", str(other), "--no-history", "--out", str(out)]
    code, stdout, err = run_cli(argv, capsys)
    assert (code, stdout) == (2, "")
    assert err == (
        f"tier-check: error: --governance-snapshot: {other} is a snapshot of someone/else, "
        "not tiercheck/sample-sdk; record one for tiercheck/sample-sdk "
        "or pass --repo someone/else\n"
    )
    # Refused first: no clone, no build, no scorecard.
    assert not (cache / "repos").exists()
    assert not (out / "scorecard.json").exists()


# --- start-up stays cheap ------------------------------------------------------------------


def test_help_loads_no_formatter_and_no_registry() -> None:
    code = (
        "import sys\n"
        "from tiercheck.cli.app import commands_help\n"
        "from tiercheck.cli.assess import assess_parser\n"
        "assess_parser('tier-check', epilog=commands_help()).format_help()\n"
        "heavy = ('scorecard.render.terminal', 'scorecard.render.junit',\n"
        "    'scorecard.render.markdown', 'scorecard.render.json_format', 'scorecard.diff',\n"
        "    'config.registry', 'governance.obtain')\n"
        "loaded = [m for m in heavy if 'tiercheck.' + m in sys.modules]\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == ""


def _modules_loaded_by(code: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", "import sys\n" + code + "\nprint(' '.join(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return [m for m in result.stdout.split() if m.startswith("tiercheck.cli")]


def test_the_package_loads_no_command_module() -> None:
    assert _modules_loaded_by("import tiercheck.cli") == [
        "tiercheck.cli",
        "tiercheck.cli.app",
        "tiercheck.cli.common",
    ]


def test_help_loads_the_assessments_command_modules_only() -> None:
    code = (
        "import contextlib, io\n"
        "from tiercheck.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    try:\n"
        "        main(['--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        "assert out.getvalue().startswith('usage: tier-check '), out.getvalue()\n"
        "heavy = ('scorecard.render.terminal', 'scorecard.render.junit',\n"
        "    'scorecard.render.markdown', 'scorecard.render.json_format', 'scorecard.diff',\n"
        "    'config.registry', 'governance.obtain')\n"
        "assert not [m for m in heavy if 'tiercheck.' + m in sys.modules], sys.modules\n"
        # Of the pipeline, the options' declarations alone: the parser is built from them.
        "steps = sorted(m for m in sys.modules if m.startswith('tiercheck.pipeline'))\n"
        "assert steps == ['tiercheck.pipeline', 'tiercheck.pipeline.assess',\n"
        "    'tiercheck.pipeline.assess.options'], steps\n"
    )
    # The assessment's parser and the modules whose flags it adds; no other command's module.
    assert _modules_loaded_by(code) == [
        "tiercheck.cli",
        "tiercheck.cli.app",
        "tiercheck.cli.assess",
        "tiercheck.cli.common",
        "tiercheck.cli.governance",
        "tiercheck.cli.history",
    ]


def test_show_config_shows_each_legs_baseline_and_refuses_an_unclaimed_revision(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["show-config", "--sdk", "python-sdk-v1", "--json"]
    code, out, _ = run_cli([*argv, "--expected-failures", "client=c.yml"], capsys)
    assert code == 0
    config = json.loads(out)["revisions"]["2025-11-25"]
    assert config["expected_failures.client"] == {
        "value": "c.yml",
        "source": "--expected-failures client=c.yml",
    }
    assert config["expected_failures.server"]["source"] != "--expected-failures client=c.yml"
    code, out, err = run_cli([*argv, "--expected-failures", "@2026-07-28=x.yml"], capsys)
    assert (code, out) == (2, "")
    assert err == (
        "tier-check: error: --expected-failures @2026-07-28=x.yml: python-sdk-v1 claims only "
        "2025-11-25; it is not assessed at 2026-07-28\n"
    )
