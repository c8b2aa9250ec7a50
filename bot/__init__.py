"""The Discord application: configuration, SQLite store, game service and the bot client."""
