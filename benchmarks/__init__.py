"""Benchmarks: scripts that print figures (not timed tests)."""
