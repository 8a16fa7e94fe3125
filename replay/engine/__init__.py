"""Replay: step execution, verification before acting, divergences, repairHint, resume preflight."""
