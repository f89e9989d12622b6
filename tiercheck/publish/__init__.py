"""`tier-check publish`: the static dashboard site, assembled from the run history and the
latest matrix, written incrementally (`site`). The documents come from `tiercheck.dashboard`,
the pages and badges from `tiercheck.dashboard.html`, and every file is written by
`tiercheck.report.writer`."""
