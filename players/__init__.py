"""The computer players of Saint Petersburg: greedy and search levels, the arena, the think command.

They import ``rules`` and are never imported by it. This file imports nothing, so that
``players.compile`` can tell whether the compiled build is current before ``rules`` is imported.
"""
