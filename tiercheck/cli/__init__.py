"""The `tier-check` command line: flags in, options out, exit codes; nothing computed here.

- `app`: `main`, the table of commands (`COMMANDS`) and the exit codes.
- `assess`: the assessment, the default command, and `setup`.
- `config_verbs`: `list`, `requirements`, `show-config`.
- `score`: `score` and `diff`.
- `governance`: `governance`, `labels`, `triage`.
- `common`: shared flag groups, flags → options, the registry loader, stdout.

Start-up is kept cheap on purpose (`tier-check --help` must answer fast): these modules import
only the standard library and light tiercheck modules at the top; everything heavy (PyGithub,
git, rich, jsonschema, yaml) is imported inside the command that needs it.
"""

from __future__ import annotations

from tiercheck.cli.app import main

__all__ = ["main"]
