"""Other tools' flow formats, read into `.ad` scripts and written from them (design §14: Maestro)."""
