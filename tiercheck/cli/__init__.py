"""The `tier-check` command line: argv in, one typed request to `tiercheck.pipeline`, what comes
back printed, and the exit code.

- `app`: `main`, the table of commands (each command's module named as text and imported only
  when that command runs) and the one place errors become exit codes.
- `assess`: the assessment, the default command (`tier-check --sdk NAME[@REF]`), and `setup`.
- `claim`: `tier-check claim`, the evidence pack for a tier claim.
- `config_verbs`: `list`, `requirements` and `show-config`.
- `doctor`: `tier-check doctor`, which SDK lines this machine can run.
- `governance`: `governance`, `labels` and `triage`, and the governance flags as options.
- `history`: the assessment's history flags, and `history`, `history import`, `history export`.
- `matrix`: `matrix`, `matrix plan` and `matrix merge`.
- `notify`: `tier-check notify`, the tracking issues or the pull-request comment.
- `probe`: `tier-check probe`, and the assessment's probe flags.
- `publish`: `tier-check publish`, the static dashboard.
- `score`: `score` and `diff`.
- `common`: what the commands share (flag groups, flags → options, the registry loader, stdout).

Start-up is kept cheap on purpose (`tier-check --help` must answer fast): `app` imports no
command module at the top, and the modules `--help` does load (`assess` and what it imports:
`common`, `governance`, `history`, `probe`) import only the standard library and light
tiercheck modules at the top; everything heavy (PyGithub, git, rich, jsonschema, yaml, the
pipeline) is imported inside the function that needs it.
"""

from __future__ import annotations

from tiercheck.cli.app import main

__all__ = ["main"]
