"""Choosing the first dealer, antes, the banner deal and the palace deal.

Source: palace-poker.txt, "The Deal", "Banner Cards" and "Palace Cards"; palace-poker-hindi.txt
(the same sections) agrees.
"""

from __future__ import annotations

from dataclasses import replace

from games.engine.cards import FULL_DECK, SORT_KEY, Card
from games.engine.poker.context import Ctx, private, public
from games.engine.poker.state import BANNER_DEAL, CHOOSE_DEALER, PALACE_DEAL, PLAY, TURN, PokerState

BANNER_GROUP = 4
"""Banner suits differ inside each group of four players in deal order (players 1-4, 5-8, 9-10)."""
PALACE_CARDS = 3


def initial_state(state: PokerState) -> PokerState:
    """Set up who deals first: an explicit ``first_dealer`` or a draw for the deal (chance)."""
    if state.options.first_dealer is not None:
        return replace(
            state, phase=BANNER_DEAL, chance="banner_deal", dealer=state.options.first_dealer, in_hand=state.in_match
        )
    return replace(
        state,
        phase=CHOOSE_DEALER,
        chance="first_dealer",
        dealer_contenders=tuple(range(state.seats)),
        dealer_cards=((),) * state.seats,
    )


def shuffle_cards(state: PokerState) -> tuple[Card, ...]:
    """The cards the pending shuffle must order (canonical order)."""
    purpose = state.chance
    if purpose in ("first_dealer", "banner_deal"):
        return FULL_DECK
    if purpose == "banner_redeal":
        return tuple(sorted(state.set_aside, key=SORT_KEY))
    if purpose == "palace_deal":
        return tuple(sorted(state.stock + state.set_aside, key=SORT_KEY))
    if purpose == "stock_rebuild":
        return tuple(sorted(state.discards, key=SORT_KEY))
    raise AssertionError(f"no shuffle is pending ({purpose!r})")


def draw_for_dealer(ctx: Ctx, order: tuple[Card, ...]) -> None:
    """Deal one face-up card to each contender; the high card deals; tied high cards draw again.

    Source: palace-poker.txt, "The Deal" (no suit rank; holders of tied high cards get one more
    card each until the dealer is decided). Cards go to contenders in seat order. Should the deck
    run out among ever-tied contenders, the cards are gathered and the draw starts again among them
    (a new ``first_dealer`` shuffle): the text is silent on this.
    """
    t = ctx.t
    t.stock = list(order)
    t.dealer_cards = [[] for _ in range(t.seats)]
    while True:
        if len(t.stock) < len(t.dealer_contenders):
            t.stock = []
            t.dealer_cards = [[] for _ in range(t.seats)]
            t.chance = "first_dealer"
            ctx.emit("dealer_draw_restarted", contenders=list(t.dealer_contenders))
            return
        for seat in t.dealer_contenders:
            card = t.stock.pop(0)
            t.dealer_cards[seat].append(card)
            ctx.emit("dealer_card", seat, cards={"card": public([card])})
        high = max(t.dealer_cards[seat][-1].rank for seat in t.dealer_contenders)
        t.dealer_contenders = [seat for seat in t.dealer_contenders if t.dealer_cards[seat][-1].rank == high]
        if len(t.dealer_contenders) == 1:
            break
    dealer = t.dealer_contenders[0]
    ctx.emit("dealer_chosen", dealer)
    t.stock = []
    t.dealer_cards = []
    t.dealer_contenders = []
    t.phase = BANNER_DEAL
    t.chance = "banner_deal"
    t.dealer = dealer
    t.in_hand = list(t.in_match)


def start_hand(ctx: Ctx, order: tuple[Card, ...]) -> None:
    """Antes, then the banner deal from the shuffled deck ``order`` (top card first).

    Source: palace-poker.txt, "Banner Cards": every player antes before his banner. A player whose
    stack is below the ante antes all he has and plays the hand with an empty stack (the text is
    silent; a player with no chips at all has already left the match).
    """
    t = ctx.t
    t.hand_number += 1
    t.in_hand = list(t.in_match)
    n = t.seats
    t.banners = [None] * n
    t.palace = [[] for _ in range(n)]
    t.soldiers = [[] for _ in range(n)]
    t.known = [set() for _ in range(n)]
    t.shown = [False] * n
    t.put_in = [0] * n
    t.discards, t.set_aside, t.quiet = [], [], set()
    t.quiet_start = t.turn = t.step = t.actor = t.battle = None
    t.deal_index = 0
    deal_order = _deal_order(t)
    ctx.emit("hand_started", None, hand=t.hand_number, dealer=t.dealer, seats=deal_order)
    for seat in deal_order:
        ante = min(t.options.ante, t.stacks[seat])
        ctx.pay(seat, ante)
        ctx.emit("ante", seat, amount=ante)
    t.stock = list(order)
    continue_banner_deal(ctx)


def _deal_order(t: object) -> list[int]:
    dealer, seats, in_hand = t.dealer, t.seats, t.in_hand  # type: ignore[attr-defined]
    return [seat for seat in ((dealer + 1 + k) % seats for k in range(seats)) if in_hand[seat]]


def continue_banner_deal(ctx: Ctx) -> None:
    """Deal banners where the deal stands, rejecting suits already in the player's group of four.

    Source: palace-poker.txt, "Banner Cards": one face-up card at a time from the dealer's left;
    a player receives cards until one's suit differs from every banner already in his group
    (players 1-4, 5-8 and 9-10 in deal order); rejected cards are set aside face up. If the deck
    runs out mid-deal the set-aside cards are shuffled (chance ``banner_redeal``) and the deal goes
    on at the same player. When every banner is out, the remaining cards are shuffled again
    (chance ``palace_deal``).
    """
    t = ctx.t
    deal_order = _deal_order(t)
    while t.deal_index < len(deal_order):
        seat = deal_order[t.deal_index]
        group_start = t.deal_index - t.deal_index % BANNER_GROUP
        taken = {t.banners[other].suit for other in deal_order[group_start : t.deal_index]}
        while True:
            if not t.stock:
                t.chance = "banner_redeal"
                ctx.emit("stock_exhausted", seat, set_aside=len(t.set_aside))
                return
            card = t.stock.pop(0)
            if card.suit in taken:
                t.set_aside.append(card)
                ctx.emit("banner_rejected", seat, cards={"card": public([card])})
                continue
            t.banners[seat] = card
            ctx.emit("banner_dealt", seat, cards={"banner": public([card])})
            break
        t.deal_index += 1
    t.phase = PALACE_DEAL
    t.chance = "palace_deal"


def redeal_banners(ctx: Ctx, order: tuple[Card, ...]) -> None:
    """The set-aside cards, reshuffled, become the stock and the banner deal goes on."""
    t = ctx.t
    t.stock = list(order)
    t.set_aside = []
    continue_banner_deal(ctx)


def deal_palace(ctx: Ctx, order: tuple[Card, ...]) -> None:
    """Three face-down palace cards each, one at a time from the dealer's left; then play begins.

    Source: palace-poker.txt, "Palace Cards" and "The Play" (turns start at the dealer's left).
    Each player sees only his own palace cards.
    """
    t = ctx.t
    t.stock = list(order)
    t.set_aside = []
    deal_order = _deal_order(t)
    for _ in range(PALACE_CARDS):
        for seat in deal_order:
            t.palace[seat].append(t.stock.pop(0))
    for seat in deal_order:
        ctx.emit("palace_dealt", seat, cards={"palace": private(t.palace[seat], [seat])})
    t.phase = PLAY
    t.chance = None
    t.turn = deal_order[0]
    t.step = TURN
