"""Suites: `replay test` over many scripts, with workers, shards, retries and reports."""

# Playwright's trace modes: which attempts record a Playwright trace, and which traces are kept
TRACE_MODES = ("retain-on-failure", "on", "off", "on-first-retry")
