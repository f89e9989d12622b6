"""`tier-check publish`: the static dashboard site, assembled from the run history and the
latest matrix, written incrementally (`site`). The documents come from `tiercheck.dashboard`,
the pages and badges from `tiercheck.dashboard.html`; every file of the site is read, staged
and put in place, or removed, only inside its folder (`files`)."""
