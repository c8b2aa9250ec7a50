"""The game state: flat and small (lists of ints), so that copying, hashing and random playouts are cheap.

Physical cards are ints indexing ``Catalogue.cards``; seats are ints 0..n-1 in clockwise order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from .cards import CardType
from .ruleset import Ruleset
from .seat_stats import SeatStats

if TYPE_CHECKING:
    from .prices import SeatContext

# Rows (Final: the compiled core reads them as constants, not from the module's dict).
UPPER: Final = 0
LOWER: Final = 1
HAND: Final = 2
DRAWN: Final = 3
ROW_NAMES: Final = {UPPER: "upper", LOWER: "lower", HAND: "hand", DRAWN: "drawn"}

TOKENS = ("hammer", "cathedral", "bust", "hand")


def remove_card(line: list[int], card: int) -> None:
    """``line.remove(card)`` for a row or a hand, by a loop the compiled core runs natively (a list's
    ``remove`` compares each card as an object)."""
    for i in range(len(line)):
        if line[i] == card:
            line.pop(i)
            return
    raise ValueError(f"card {card} is not in the line")


@dataclass(slots=True)
class Pending:
    """A decision outside a normal turn (BG-08, BG-09).

    kind 'observatory': ``seat`` must buy, take or discard ``card`` (drawn with Observatory ``source``).
    kind 'pub': ``seat`` may buy VP at its Pubs; ``queue`` holds the Pub owners still to decide after it.
    """

    kind: str
    seat: int
    card: int = -1
    source: int = -1
    queue: list[int] = field(default_factory=list)

    def __init__(self, kind: str, seat: int, card: int = -1, source: int = -1, queue: list[int] | None = None) -> None:
        # written out (the dataclass keeps it): compiled, the generated __init__ runs in the interpreter
        self.kind = kind
        self.seat = seat
        self.card = card
        self.source = source
        self.queue = [] if queue is None else queue


@dataclass(slots=True)
class GameState:
    ruleset: Ruleset
    seats: list[str]
    decks: dict[str, list[int]]  # top of a stack is the END of its list
    upper: list[int]
    lower: list[int]
    discard: list[int]
    rubles: list[int]
    vp: list[int]
    hands: list[list[int]]
    tableaux: list[list[int]]
    face_down: set[int]  # physical ids of used (face-down) Observatories
    tokens: dict[str, int]  # token -> seat
    round: int = 1
    phase: int = 0  # index into ruleset.phases
    to_move: int = 0
    passes: int = 0  # consecutive passes
    pending: Pending | None = None
    ending: bool = False  # the end of the game has been triggered (BG-13)
    finished: bool = False
    seed: int | None = None
    action_count: int = 0
    vp_by_source: list[dict[str, int]] = field(default_factory=list)
    stats: list[SeatStats] = field(default_factory=list)  # per seat, for the statistics table
    history: list[dict[str, Any]] = field(default_factory=list)  # per finished round: vp and rubles
    final: list[dict[str, int]] | None = None
    winners: list[int] = field(default_factory=list)
    # The expansions' own state, JSON data keyed by expansion (e.g. the marketplace); empty in the base game.
    ext: dict[str, Any] = field(default_factory=dict)
    cards: tuple[CardType, ...] = field(init=False, repr=False, compare=False)  # physical id -> type
    # Per seat, the engine's last SeatContext: derived from the tableau, checked against it on every
    # use, so it is never stale; not part of the game's value (not copied, compared or serialized).
    contexts: list[SeatContext | None] = field(init=False, repr=False, compare=False)

    def __init__(
        self,
        ruleset: Ruleset,
        seats: list[str],
        decks: dict[str, list[int]],
        upper: list[int],
        lower: list[int],
        discard: list[int],
        rubles: list[int],
        vp: list[int],
        hands: list[list[int]],
        tableaux: list[list[int]],
        face_down: set[int],
        tokens: dict[str, int],
        round: int = 1,
        phase: int = 0,
        to_move: int = 0,
        passes: int = 0,
        pending: Pending | None = None,
        ending: bool = False,
        finished: bool = False,
        seed: int | None = None,
        action_count: int = 0,
        vp_by_source: list[dict[str, int]] | None = None,
        stats: list[SeatStats] | None = None,
        history: list[dict[str, Any]] | None = None,
        final: list[dict[str, int]] | None = None,
        winners: list[int] | None = None,
        ext: dict[str, Any] | None = None,
    ) -> None:
        # written out (the dataclass keeps it): compiled, the generated __init__ runs in the interpreter,
        # and every copy of a state in a search makes one
        self.ruleset = ruleset
        self.seats = seats
        self.decks = decks
        self.upper = upper
        self.lower = lower
        self.discard = discard
        self.rubles = rubles
        self.vp = vp
        self.hands = hands
        self.tableaux = tableaux
        self.face_down = face_down
        self.tokens = tokens
        self.round = round
        self.phase = phase
        self.to_move = to_move
        self.passes = passes
        self.pending = pending
        self.ending = ending
        self.finished = finished
        self.seed = seed
        self.action_count = action_count
        self.vp_by_source = [] if vp_by_source is None else vp_by_source
        self.stats = [] if stats is None else stats
        self.history = [] if history is None else history
        self.final = final
        self.winners = [] if winners is None else winners
        self.ext = {} if ext is None else ext
        self.cards = ruleset.catalogue.cards
        self.contexts = [None] * len(seats)

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def decider(self) -> int:
        """The seat that must act now: the pending decision's owner or the player to move."""
        return self.pending.seat if self.pending is not None else self.to_move

    @property
    def phase_key(self) -> str:
        return self.ruleset.phases[self.phase].key

    def copy(self) -> GameState:
        """A deep copy of the game's value; the seats' price contexts are shared with it (copy on write,
        ``rules.prices.seat_context``): a copy need not rebuild them."""
        p = self.pending
        new = GameState(
            ruleset=self.ruleset,
            seats=list(self.seats),
            decks={k: list(v) for k, v in self.decks.items()},
            upper=list(self.upper),
            lower=list(self.lower),
            discard=list(self.discard),
            rubles=list(self.rubles),
            vp=list(self.vp),
            hands=[list(h) for h in self.hands],
            tableaux=[list(t) for t in self.tableaux],
            face_down=set(self.face_down),
            tokens=dict(self.tokens),
            round=self.round,
            phase=self.phase,
            to_move=self.to_move,
            passes=self.passes,
            pending=None if p is None else Pending(p.kind, p.seat, p.card, p.source, list(p.queue)),
            ending=self.ending,
            finished=self.finished,
            seed=self.seed,
            action_count=self.action_count,
            vp_by_source=[dict(d) for d in self.vp_by_source],
            stats=[d.copy() for d in self.stats],
            history=[dict(h) for h in self.history],
            final=None if self.final is None else [dict(d) for d in self.final],
            winners=list(self.winners),
            ext=_copy_json(self.ext) if self.ext else {},
        )
        contexts = self.contexts
        for ctx in contexts:
            if ctx is not None:
                ctx.shared = True
        new.contexts = list(contexts)
        return new

    # --- JSON ---------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        p = self.pending
        d = {
            "ruleset": self.ruleset.to_json(),
            "seats": list(self.seats),
            "decks": {k: list(v) for k, v in self.decks.items()},
            "upper": list(self.upper),
            "lower": list(self.lower),
            "discard": list(self.discard),
            "rubles": list(self.rubles),
            "vp": list(self.vp),
            "hands": [list(h) for h in self.hands],
            "tableaux": [list(t) for t in self.tableaux],
            "face_down": sorted(self.face_down),
            "tokens": dict(self.tokens),
            "round": self.round,
            "phase": self.phase,
            "to_move": self.to_move,
            "passes": self.passes,
            "pending": None
            if p is None
            else {"kind": p.kind, "seat": p.seat, "card": p.card, "source": p.source, "queue": list(p.queue)},
            "ending": self.ending,
            "finished": self.finished,
            "seed": self.seed,
            "action_count": self.action_count,
            "vp_by_source": [dict(d) for d in self.vp_by_source],
            "stats": [d.as_dict() for d in self.stats],
            "history": [dict(h) for h in self.history],
            "final": None if self.final is None else [dict(d) for d in self.final],
            "winners": list(self.winners),
        }
        if self.ext:  # only with expansions: base-game JSON is unchanged
            d["ext"] = _copy_json(self.ext)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameState:
        p = d.get("pending")
        return cls(
            ruleset=Ruleset.from_json(d["ruleset"]),
            seats=list(d["seats"]),
            decks={k: list(v) for k, v in d["decks"].items()},
            upper=list(d["upper"]),
            lower=list(d["lower"]),
            discard=list(d["discard"]),
            rubles=list(d["rubles"]),
            vp=list(d["vp"]),
            hands=[list(h) for h in d["hands"]],
            tableaux=[list(t) for t in d["tableaux"]],
            face_down=set(d["face_down"]),
            tokens=dict(d["tokens"]),
            round=d["round"],
            phase=d["phase"],
            to_move=d["to_move"],
            passes=d["passes"],
            pending=None if p is None else Pending(p["kind"], p["seat"], p["card"], p["source"], list(p["queue"])),
            ending=d["ending"],
            finished=d["finished"],
            seed=d.get("seed"),
            action_count=d.get("action_count", 0),
            vp_by_source=[dict(x) for x in d.get("vp_by_source", [])],
            stats=[SeatStats.from_dict(x) for x in d.get("stats", [])],
            history=[dict(x) for x in d.get("history", [])],
            final=None if d.get("final") is None else [dict(x) for x in d["final"]],
            winners=list(d.get("winners", [])),
            ext=_copy_json(d.get("ext", {})),
        )


def _copy_json(x: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars)."""
    if isinstance(x, dict):
        return {k: _copy_json(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_copy_json(v) for v in x]
    return x
