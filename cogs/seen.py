"""Which game version a player may have seen, for commands typed without one.

A typed command (no autocomplete value) is checked against the board the player saw. The version stored as
shown (``Game.shown_version``) is saved only after the board's edit is visible, so right after a change the
player sees a newer board than the one stored; and a player told privately "✅ … You decide again" (with the
new menu) may type before the board is edited at all. This process remembers both: the version whose board it
is putting up (from the moment the edit or post is sent), and the version each player was last shown
privately. A typed command counts against the newest of these and the stored one.

Kept in memory by the process that serves the game (with shards, a server's interactions and its boards go to
one process); a restart forgets it, and then the stored version alone counts.
"""

from __future__ import annotations

from bot.store import Game

MAX_TOLD = 50_000  # (game, player) pairs remembered; the oldest are forgotten first


class SeenVersions:
    def __init__(self) -> None:
        self._showing: dict[int, int] = {}  # game -> version of the board being put up (or up)
        self._told: dict[tuple[int, int], int] = {}  # (game, user) -> version last shown privately

    def showing(self, game_id: int, version: int) -> None:
        """The board of ``version`` is being sent to the channel now."""
        if version > self._showing.get(game_id, -1):
            self._showing[game_id] = version

    def not_shown(self, game_id: int) -> None:
        """Putting up the board failed: the channel may still show the old one."""
        self._showing.pop(game_id, None)

    def told(self, game_id: int, user_id: int, version: int) -> None:
        """``user_id`` was shown the game at ``version`` privately (the move menu, "You decide again")."""
        key = (game_id, user_id)
        self._told.pop(key, None)
        self._told[key] = version
        if len(self._told) > MAX_TOLD:
            del self._told[next(iter(self._told))]

    def typed_version(self, game: Game, user_id: int) -> int | None:
        """The version a command typed by ``user_id`` counts against; None: the stored one (the service's rule,
        also while the board cannot be shown)."""
        if game.board_problem or game.shown_version < 0:
            return None
        seen = max(self._showing.get(game.id, -1), self._told.get((game.id, user_id), -1))
        return seen if seen > game.shown_version else None
