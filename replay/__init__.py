"""replay: record, replay and heal UI flows, verifying element identity before every action."""

__version__ = "0.1.0"
