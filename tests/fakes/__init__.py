"""Test doubles that stand in for the browser: a driver serving stored captures, and a clock."""
