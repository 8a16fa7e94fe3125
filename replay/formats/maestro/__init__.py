"""Maestro flows (YAML, read with pyyaml's safe loader): `replay import` and `replay export --format maestro`."""
