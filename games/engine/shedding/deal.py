"""The first dealer, the deal, the simultaneous choice of face-up cards and the first player.

Sources: palace-shedding-a.txt ¶6.1-2 (draw for high card), ¶8.3-7 (the deal), ¶9.1-4 (the
exchange), ¶10.2-4 (the lowest face-up card starts); palace-shedding-b.txt "Setup".
"""

from __future__ import annotations

from dataclasses import replace

from games.engine.cards import Card
from games.engine.errors import EngineCode, IllegalAction
from games.engine.shedding.context import Ctx, nobody, private, public
from games.engine.shedding.options import LEFT_OF_DEALER, LOWEST_FACE_UP
from games.engine.shedding.ranks import contains, draw_value, minus, sort_cards
from games.engine.shedding.state import CHOOSE_DEALER, DEAL, HAND_SIZE, PLAY, SETUP, ShedState, pack
from games.engine.shedding.turns import start_turn

FACE_UP_CARDS = 3


def initial_state(state: ShedState) -> ShedState:
    """Who deals first: the ``first_dealer`` option, else a draw for the deal (chance)."""
    if state.options.first_dealer is not None:
        return replace(state, phase=DEAL, chance="deal", dealer=state.options.first_dealer)
    return replace(
        state,
        phase=CHOOSE_DEALER,
        chance="first_dealer",
        dealer_contenders=tuple(range(state.seats)),
        dealer_cards=((),) * state.seats,
    )


def shuffle_cards(state: ShedState) -> tuple[Card, ...]:
    """The cards the pending shuffle must order: always the whole pack, in canonical order."""
    if state.chance not in ("first_dealer", "deal"):
        raise AssertionError(f"no shuffle is pending ({state.chance!r})")
    return pack(state.options.decks)


def deal_order(t: object) -> list[int]:
    """Seats from the dealer's left clockwise, the dealer last (a¶8.3)."""
    dealer, seats = t.dealer, t.seats  # type: ignore[attr-defined]
    return [(dealer + 1 + k) % seats for k in range(seats)]


def draw_for_dealer(ctx: Ctx, order: tuple[Card, ...]) -> None:
    """One face-up card to each contender in seat order; the highest deals (a¶6.1-2, ranked as in
    a¶5.2: a two is highest). Tied high cards draw again; should the pack run out among ever-tied
    contenders, the draw starts again among them with a new shuffle (the text is silent)."""
    t = ctx.t
    t.stock = list(order)
    t.dealer_cards = [[] for _ in range(t.seats)]
    while True:
        if len(t.stock) < len(t.dealer_contenders):
            t.stock, t.dealer_cards = [], [[] for _ in range(t.seats)]
            t.chance = "first_dealer"
            ctx.emit("dealer_draw_restarted", contenders=list(t.dealer_contenders))
            return
        for seat in t.dealer_contenders:
            card = t.stock.pop(0)
            t.dealer_cards[seat].append(card)
            ctx.emit("dealer_card", seat, cards={"card": public([card])})
        high = max(draw_value(t.dealer_cards[seat][-1]) for seat in t.dealer_contenders)
        t.dealer_contenders = [s for s in t.dealer_contenders if draw_value(t.dealer_cards[s][-1]) == high]
        if len(t.dealer_contenders) == 1:
            break
    t.dealer = t.dealer_contenders[0]
    ctx.emit("dealer_chosen", t.dealer)
    t.stock, t.dealer_cards, t.dealer_contenders = [], [], []
    t.phase = DEAL
    t.chance = "deal"


def deal(ctx: Ctx, order: tuple[Card, ...]) -> None:
    """Deal one card at a time from the dealer's left: three face down, three face up, three to the
    hand; the rest is the stock (a¶8.3-7). Nobody sees a face-down card, its owner included
    (a¶13.2; b "Setup"). With ``setup_deal: "hand"`` the three middle cards are seen by their
    owner only (b "Setup": six cards to the hand); with ``"face_up"`` by everyone (a¶8.5)."""
    t = ctx.t
    n = t.seats
    t.stock = list(order)
    rows: list[list[list[Card]]] = [[[] for _ in range(n)] for _ in range(3)]
    for row in rows:
        for _ in range(HAND_SIZE):
            for seat in deal_order(t):
                row[seat].append(t.stock.pop(0))
    face_down, face_up, hands = rows
    t.face_down = face_down
    t.face_up = [sort_cards(cards) for cards in face_up]
    t.hands = [sort_cards(cards) for cards in hands]
    t.hand_public = [[] for _ in range(n)]
    t.choices = [None] * n
    t.pile, t.burned, t.out = [], [], []
    shown_face_up = t.options.setup_deal == "face_up"
    ctx.emit("deal_started", t.dealer, seats=deal_order(t))
    for seat in deal_order(t):
        ctx.emit(
            "dealt",
            seat,
            cards={
                "face_down": nobody(t.face_down[seat]),
                "face_up": public(t.face_up[seat]) if shown_face_up else private(t.face_up[seat], [seat]),
                "hand": private(t.hands[seat], [seat]),
            },
        )
    ctx.emit("stock_placed", None, size=len(t.stock))
    t.phase = SETUP
    t.chance = None


def choose_face_up(ctx: Ctx, seat: int, cards: tuple[Card, ...]) -> None:
    """``seat`` names the three of his six visible cards that lie face up (a¶9.2-3: exchange any or
    none; b "Setup": choose 3 of 6; the same decision). Choices are sealed: each player sees only
    his own until all have chosen, then all are turned face up at once and play begins.

    Raises ``IllegalAction`` ``choose_three``, ``not_your_cards``.
    """
    t = ctx.t
    if len(cards) != FACE_UP_CARDS:
        raise IllegalAction(EngineCode.CHOOSE_THREE, "name exactly three cards to lie face up")
    if not contains([*t.hands[seat], *t.face_up[seat]], cards):
        raise IllegalAction(EngineCode.NOT_YOUR_CARDS, "choose among your hand and face-up cards")
    t.choices[seat] = sort_cards(cards)
    ctx.emit("face_up_chosen", seat, cards={"cards": private(cards, [seat])})
    if setup_done(ctx):
        begin_play(ctx)


def setup_done(ctx: Ctx) -> bool:
    """Whether every seat still in the match has chosen (a seat that resigned chooses nothing)."""
    t = ctx.t
    return all(t.choices[seat] is not None for seat in ctx.active())


def unchosen_to_hand(ctx: Ctx, seat: int) -> None:
    """A seat leaving the setup without its choice turned up (it resigned, or the match ended in the setup):
    its visible row joins its hand, as if it had exchanged all three (a¶9.2), with no event: dealt face up
    (a¶8.5) those cards stay known to all, dealt to the hand (b "Setup") to their owner alone. So no view
    ever shows a row that was never turned up."""
    t = ctx.t
    row = t.face_up[seat]
    t.hands[seat] = sort_cards([*t.hands[seat], *row])
    if t.options.setup_deal == "face_up":
        t.hand_public[seat] = sort_cards([*t.hand_public[seat], *row])
    t.face_up[seat] = []
    t.choices[seat] = None


def begin_play(ctx: Ctx) -> None:
    """Turn every choice face up, then give the first turn (see ``first_player``).

    With ``setup_deal: "face_up"`` the dealt face-up cards a player exchanged into his hand stay
    known to all (everyone saw them dealt and taken up).
    """
    t = ctx.t
    for seat in ctx.active():
        chosen = t.choices[seat]
        six = [*t.hands[seat], *t.face_up[seat]]
        exchanged = minus(t.face_up[seat], chosen) if t.options.setup_deal == "face_up" else []
        t.hands[seat] = minus(six, chosen)
        t.face_up[seat] = sort_cards(chosen)
        t.hand_public[seat] = exchanged
        groups = {"face_up": public(chosen)}
        if exchanged:
            groups["to_hand"] = public(exchanged)
        ctx.emit("face_up_set", seat, cards=groups)
    t.choices = []
    t.phase = PLAY
    first, rule = first_player(ctx)
    ctx.emit("first_player", first, rule=rule)
    start_turn(ctx, first, replay=False)


def first_player(ctx: Ctx) -> tuple[int, str]:
    """The seat that plays first, and by which rule.

    ``"lowest_face_up"``: clockwise from the dealer's left, the first player showing a face-up three,
    else a four, and so on (a¶10.2-4), ranks counted as in a¶5.2 (a two highest; a ten between 9
    and J); ``"left_of_dealer"``; or the seat the option names (b "Setup", last paragraph). A seat
    that resigned in the setup is skipped.
    """
    t = ctx.t
    rule = t.options.first_player
    if isinstance(rule, int):
        # A chosen seat that resigned in the setup: the next seat clockwise still in the match.
        return (rule if rule in ctx.active() else ctx.next_active(rule)), "chosen_seat"
    order = [seat for seat in deal_order(t) if seat in ctx.active()]
    if rule == LEFT_OF_DEALER:
        return order[0], LEFT_OF_DEALER
    assert rule == LOWEST_FACE_UP  # noqa: S101 - parse_options allows nothing else
    return min(order, key=lambda seat: (min(draw_value(c) for c in t.face_up[seat]), order.index(seat))), rule
