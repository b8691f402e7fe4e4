"""Palace, the shedding game (Shed), kind ``"palace"``: palace-shedding-a.txt and palace-shedding-b.txt.

Citations: ``a¶N.k`` is palace-shedding-a.txt, line (one paragraph a line) N, sentence k; ``b
"Section"`` is a section of palace-shedding-b.txt. Where the texts disagree, each disagreement is an
option (``options.ShedOptions``, defaults from text a). Modules: ``options``, ``state`` (zones, the
Draft), ``deal`` (dealer, deal, setup, first player), ``play`` (plays, burns, pick-ups, blind cards),
``turns`` (drawing, turn order), ``ending`` (going out, ranking, stalemate), ``legal`` (to_act,
legal actions, timeouts), ``view``, ``game`` (the ``Game`` protocol).

Decisions where the texts are silent (or where the issue asked for one):

1. Two decks (option ``decks``): a card code (``9s``) names either copy; every zone is a multiset
   and actions name cards by code, any copy being equivalent in play; views and the log list codes,
   so a code may appear twice. Conservation: each code is in play exactly ``decks`` times.
2. The high-card draw (a¶6.1-2) only picks the first dealer (the server seats the players); cards
   rank as in a¶5.2 (a two highest); tied high cards draw again, and should the pack run out among
   them, the draw restarts with a new shuffle. The cut (a¶8.1-2) is part of the shuffle action.
   The loser dealing the next game (a¶22.3) is not modelled: a match is one game.
3. Both texts deal as a¶8.3-6: one card at a time from the dealer's left, three rows face down,
   face up, hand. With ``setup_deal: "hand"`` (b "Setup") the middle row is its owner's only.
4. The face-up choice (a¶9.2-3, b "Setup") is made by every seat at once and sealed: each sees only
   his own until all have chosen; then all are turned up together. A seat chooses once. Dealt
   face-up cards exchanged into the hand stay known to all (they were seen dealt face up).
5. ``first_player: "lowest_face_up"`` (a¶10.2-4) ranks as a¶5.2: 3 lowest, a ten between 9 and J,
   a two highest; the first such player clockwise from the dealer's left starts.
6. Meet or beat: a rank at least the top card's (a¶13.4, b "Gameplay"); anything goes on an empty
   pile and on a two; twos and tens go on anything (a¶18.1, a¶20.1). Four of a kind: four or more
   cards of one rank on top in a row (with two decks a play of five burns too); a two between them
   breaks the run; fours of twos burn like any other.
7. After a burn (ten or four) the same player plays again; he draws back up to three only when his
   turn ends, except under ``draw_before_replay`` (b "Card Value", the NOTE: after twos and tens,
   not after a four) and except when his hand is empty while the stock has cards: then he draws
   first, having nothing he may play. Playing his last card on a burn or a ``play_again`` two puts
   him out; the turn passes.
8. Picking up the pile ends the turn without a draw (a¶11.9); the cards are known to all and the
   views show them in his hand (a played card leaves the known part first).
9. Redraw (option ``redraw``, a¶19.1): only the cards just drawn of the rank just played, any
   number of them; he then draws again; the turn stays with the next player unless the redraw
   completes a four (then he plays again). Any other decision closes the chance.
10. Completing a four out of turn (option ``out_of_turn_four``, b "Other Misc. Rules"): with at least
    the cards missing, from where the seat plays now (its hand, or its face-up row once hand and
    stock are empty under ``"from_table"``), never blind. Any seat but the one on turn may, the
    player who just played included. The turn it cuts short (a player to play again after a
    ``play_again`` two, or one who has not played yet) ends there, and with the draw back up to
    three, before the four's player plays again: every turn ends with that draw (b "Gameplay";
    a¶11.8), only a pick-up ends one without it (a¶11.9). A redraw that completes a four does the
    same.
11. Out-of-turn seats follow the seat on turn in ``to_act`` (so the server times out the seat on turn
    first); views show the seat on turn and, of the others, only the viewer himself, since the
    chance tells what he holds. There is no "pass": a seat that lets the chance go simply waits.
12. ``face_up_play`` is an option, not "the same effect": a¶12.2-4 plays the face-up cards from the
    table and, after a pick-up, the hand must be emptied again first; b "Gameplay" takes them into
    the hand (then they mix with picked-up cards). Both agree while no pick-up intervenes.
13. Face-down cards keep positions 0-2; ``play_face_down`` names one in ``target`` (default: the
    first left). A flipped card that meets the pile is played like any card (burns and twos apply);
    one that fails goes to the hand with the pile and the turn passes (a¶13.5). A player on turn
    with only face-down cards may not pick up instead while ``must_play_if_able`` is on.
14. Timeouts (the issue's defaults): keep the dealt face-up cards; play one card of the lowest
    playable rank, 3 up to A, then a two, then a ten; else pick up; flip the first face-down card.
15. Finishing order: the players out in the order they went out, then the rest by fewest cards left,
    ties in deal order. ``first_out_wins`` ends the match with the first player out.
16. Stalemate (neither text has one): after ``max_turns`` play decisions (default 1000; two basic
    bots finish in about 70 turns, 110 at most over 200 games, ten in 200 to 250) the match ends
    with reason ``"stalemate"``, ranked as in 15. This bounds every match: ``seats + max_turns``
    decisions besides the shuffles.
17. Resigning (neither text has it; ``resign``): at any decision point, on turn or not, in the setup too. The
    player is out for good and ranked last (the last to resign above the first); his cards stay where they
    lie, as hidden as before; in the setup his visible row joins his hand unturned. The turn passes only if
    it was his. One player left ends the match (reason ``"resigned"``). Each seat resigns at most once, so a
    match takes at most ``2 x seats + max_turns`` decisions besides its shuffles.
"""

from games.engine.shedding.game import PALACE, PalaceShedding

__all__ = ["PALACE", "PalaceShedding"]
