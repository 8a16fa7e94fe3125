"""Healing: the repair orchestrator, the agent protocol, the built-in healer, the audit trail."""
