"""Backends behind one Driver protocol; only ``drivers/web.py`` imports Playwright."""
