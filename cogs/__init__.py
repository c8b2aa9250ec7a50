"""Discord cogs: the /petersburg command group and the board's persistent buttons."""
