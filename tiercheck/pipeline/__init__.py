"""What each command does, from its typed request to what it wrote: one module per command.

`run` is the assessment (`tier-check --sdk …`): request → target → report folder → the
assessment → history → files. `claim`, `doctor`, `init`, `notify`, `publish`, `show_config`,
`history_show`, `history_import`, `history_export`, `score`, `diff`, `probe` and `setup` are
the other commands, and `matrix/` the matrix's. The assessment's own steps (plan → checkout →
provision → build → legs → judge → scorecard) are a room of their own, `pipeline.assess`,
which knows none of the commands (a layer contract holds it). Nothing here prints or parses
argv: `cli/` builds each request and prints what comes back. The assessment's options are
declared in that room (`pipeline.assess.options`), so the parser `cli/` builds and the argv the
matrix writes for a row's `tier-check` come from one declaration.
"""
