"""Tree reuse between moves: the strong search's tree of a seat's decision is kept, and the
seat's next decision in the same game starts from the subtree under the move it played.

The strong tree holds only the searching seat's own decisions, keyed by its own actions (the other seats
are modelled inside it, ``search``), so the subtree under the move played is a tree of the seat's next
decision whatever the others did in between: its statistics were gathered over the modelled replies and
re-dealt hidden cards, and a child is still followed only where its action is legal in the deal.

A ``Trees`` lives in the process that thinks (the arena's game, the bot's thinking worker) and holds a
few subtrees, the least recently kept dropped first (a kept subtree holds a few thousand nodes of about 700
bytes at the default 2 s). Per (key, seat) it keeps the subtree under the move chosen, with the action
count of the position searched: a later decision of the seat takes it. The caller's key names one game,
and a seat's moves between two of its decisions must be those the search chose (a move made for the seat
by someone else makes the kept statistics stale, never a move illegal).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass

from rules.actions import Action

from .search import Node


@dataclass(slots=True)
class Kept:
    subtree: Node  # the tree under the move chosen
    count: int  # the action count of the position where it was chosen (GameState.action_count)


class Trees:
    """The kept subtrees of up to ``size`` (game, seat) pairs."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self.kept: OrderedDict[tuple[Hashable, int], Kept] = OrderedDict()

    def take(self, key: Hashable, seat: int, count: int) -> Node | None:
        """The tree to start the seat's decision at action count ``count`` from (None: a new tree)."""
        found = self.kept.pop((key, seat), None)
        return found.subtree if found is not None and count > found.count else None

    def keep(self, key: Hashable, seat: int, count: int, root: Node | None, action: Action) -> None:
        """Keep the subtree under ``action``, the move chosen at action count ``count`` with the tree
        ``root`` (none: nothing is kept for the seat)."""
        subtree = None if root is None else root.children.get(action)
        if subtree is None:
            self.kept.pop((key, seat), None)
            return
        self.kept[(key, seat)] = Kept(subtree, count)
        self.kept.move_to_end((key, seat))
        while len(self.kept) > self.size:
            self.kept.popitem(last=False)

    def forget(self, key: Hashable) -> None:
        """Drop every kept tree of the game ``key`` (it ended)."""
        for k in [k for k in self.kept if k[0] == key]:
            del self.kept[k]


TREES = Trees()  # this process's kept trees (decide's ``tree_key``)
