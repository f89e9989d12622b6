"""The steps of one assessment, in order, and the one module that owns them.

plan → checkout → provision → build → legs → judge → scorecard, one module per step, run in
order by `assessment.assess` (the conformance half, checkout to legs, by `measure.measure`). Each
step is a function from typed inputs to a frozen result that carries what it measured and its
own unmeasured entries; nothing is shared and appended to across steps. Nothing here prints or
parses YAML: progress goes through the `ProgressSink` the CLI hands in, and every failure to
measure becomes an unmeasured entry with its reason, so a scorecard is always produced.

Beside the steps: what they share (`base`), the request of an assessment (`request`) and its
command-line options, each declared once (`options`: the parser, the request and a child's argv
are derived from them), the files it names (`inputs`), its report folder (`output`), its history
hook (`history`), `--reuse` (`reuse`), what it would run, read without running it (`would_run`,
`preview`), and the progress that shows nothing (`silent`). The commands that run an assessment
(`pipeline.run`, `pipeline.claim`, `pipeline.doctor`) sit one floor up.
"""
