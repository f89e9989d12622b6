"""The published dashboard's data (pure): the documents of its versioned API, built from the
run history, which the site's pages are rendered from (`tiercheck.report.dashboard_html`) and
which `tiercheck.publish` writes under `api/v1/`."""
