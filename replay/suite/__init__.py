"""Suites: `replay test` over many scripts, with workers, shards, retries and reports."""
