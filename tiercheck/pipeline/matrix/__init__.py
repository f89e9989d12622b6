"""The cross-SDK matrix: which rows to run (`rows`), running them on one machine under
machine-wide budgets (`run`), and the distributed path's plan for GitHub Actions and merge of
its jobs' folders (`distributed`). Every way ends in `tiercheck.matrix.build.build_matrix`.
"""
