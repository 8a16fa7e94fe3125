"""Other tools' flow formats, read into `.ad` scripts and written from them (SPEC §14: Maestro)."""
