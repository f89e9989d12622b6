"""The `tier-check` command line: flags in, options out, exit codes; nothing computed here.

`app` holds `main`, the table of commands and the one place errors become exit codes; each
other module is one command or one group of related commands (its parsers and what it prints),
and `common` holds what they share (flag groups, flags → options, the registry loader, stdout).

Start-up is kept cheap on purpose (`tier-check --help` must answer fast): these modules import
only the standard library and light tiercheck modules at the top; everything heavy (PyGithub,
git, rich, jsonschema, yaml) is imported inside the command that needs it.
"""

from __future__ import annotations

from tiercheck.cli.app import main

__all__ = ["main"]
