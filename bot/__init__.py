"""The Discord application: configuration, SQLite store, game service and the bot client."""

__version__ = "0.2.0"  # pyproject.toml reads it; CHANGELOG.md has an entry per version
