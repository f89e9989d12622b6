"""The cross-SDK matrix: the typed requests of its commands (`request`), which rows to run
(`rows`), running them on one machine under machine-wide budgets (`run`, driven by `local`),
the distributed path's plan for GitHub Actions and merge of its jobs' folders (`distributed`),
and the written matrix with its exit code (`outcome`). Every way ends in
`tiercheck.matrix.build.build_matrix`.
"""
