// Package mascarade is the pure rules engine of Mascarade, 1st edition
// (Bruno Faidutti, Repos Production 2013), for 2 to 13 players: all 13
// characters, the recommended and custom sets, centre cards, the 2- and
// 3-player variants, challenges, fines, the Inquisitor's question and every
// end of game. Decisions where the book is silent are listed, with
// reasons, in docs/rules-mascarade.md.
//
// [State] implements [engine.State]. The rules never see a hidden card:
// swaps and peeks are [engine.Effect] values the table carries out, and
// when cards are revealed (a challenge, the Inquisitor) the rules wait
// ([engine.NeedFacts]) until the table feeds the revealed cards back with
// [State.Learn], in the order of the reveal's Slots. The initial deal is
// face up, so [NewGame] receives it.
//
// # Slot layout
//
// Standard game (4-13 players): slot i is seat i's card (i = 0..n-1), then
// the centre cards, slots n and n+1, named centre1 and centre2. With 4
// players 2 cards lie in the centre, with 5 players 1 (the game uses 6
// cards); with 6+ players 0, 1 or 2 ([Options.Center]).
//
// 3 players: seat i has slots 2i (left) and 2i+1 (right).
// 2 players: seat i has slots 3i (left), 3i+1 (right) and 3i+2 (guard).
// There are no centre cards in the variants. Script names are
// "Name.left", "Name.right", "Name.guard"; in the standard game a player's
// name names their card. Deals list cards in slot order.
//
// # Moves
//
// A move is engine.Move{Seat, Kind, Args}. Slots and seats in Args are
// plain integers; characters are [engine.Card] values (Judge=1 .. Widow=12,
// see [Cards]). The secret bit of a swap is never in a Move.
//
//	Kind            Args                      script form
//	KindSwap (1)    [own slot, target slot]   swap TARGET yes|no      (2/3p: swap MYSLOT TARGET yes|no)
//	KindPeek (2)    [own slot]                peek [MYSLOT]
//	KindClaim (3)   [character, own slot]     claim CHARACTER [with=MYSLOT]
//	KindChallenge(4)[own slot]                challenge [with=SLOT]
//	KindPass (5)    []                        pass
//	KindUse (6)     see below                 use KEY=VALUE...
//	KindGuess (7)   [character]               guess CHARACTER
//
// KindUse, by the power being resolved:
//
//	Bishop (tie only)  [target seat]      use target=NAME
//	Witch              [target seat]      use target=NAME
//	Inquisitor         [target seat]      use target=NAME
//	Fool               [slot a, slot b]   use between=A,B swap=yes|no
//	Spy                [target slot]      use with=SLOT               (or target=SLOT)
//	Spy, having looked []                 use swap=yes|no
//
// Judge, King, Queen, Thief, Peasant, Cheat, Widow and the Bishop with a
// single richest opponent resolve without a choice.
//
// # Effects
//
//	swap            EffectSwap{By: seat, Slots: [own, target]}
//	peek            EffectPeek{By: seat, Slots: [own]}
//	closed window   EffectReveal{Slots: claimant's slot, then challengers' in clockwise order}
//	Fool            EffectSwap{By: fool, Slots: [a, b]}
//	Spy             EffectPeek own, EffectPeek target (By the spy); then the
//	                decision move: EffectSwap{own, target} By the spy
//	guess           EffectReveal{Slots: [target's slot]}
//
// # Turn structure
//
// Seat 0 plays first, then play goes clockwise (seat+1). Turns 1-4 are
// preparatory: swap (or pretend to) only. From turn 5 the turn player
// swaps, peeks or claims, except a player whose card was revealed during
// the previous turn, who must swap. After a claim, every other player,
// clockwise from the claimant's left, challenges or passes once
// ([State.Next] names each in turn). Without a challenge the claimant uses
// the power unseen. With challenges all contenders' cards are revealed;
// every real owner uses the power (even out of turn: [State.Next] names
// the owner who must "use"), then the impostors pay 1 coin each to the
// courthouse. The Inquisitor's target must "guess" before their card is
// revealed. The game ends at once when someone has 13 coins (they win) or
// someone has none (the richest win); ties share the win. The Cheat with
// 10+ coins wins when the power is used.
//
// # Coins
//
// The bank starts with [BoxCoins] (194, the box) minus the players'
// purses, so bank + purses + courthouse is always 194. Whoever must pay
// more than they have pays all they have; the bank, too, pays at most what
// it holds.
//
// # Text and scripts
//
// [FormatMove], [FormatLine] and [ParseMove] convert moves to and from the
// script verbs; [ParseScript] reads a whole scripted table. Package
// mascaradetest plays scripts with an omniscient oracle; package bot plays
// plausible moves.
package mascarade
