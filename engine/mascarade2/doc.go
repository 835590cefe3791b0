// Package mascarade2 is the pure rules engine of Mascarade, 2nd edition
// (Bruno Faidutti, 2021), for 4 to 12 players: all 17 masks (16 kinds, two
// Peasants), scenarios as data files, masks in the middle, challenges,
// fines, the Guru's question, the Princess's show, the Puppeteer's change
// of seats and every end of game. Decisions where the book is silent are
// listed, with reasons, in docs/rules-mascarade2.md.
//
// [State] implements [engine.State]. The rules never see a hidden card:
// swaps and peeks are [engine.Effect] values the table carries out, and
// when cards are revealed (a challenge, the Guru) the rules wait
// ([engine.NeedFacts]) until the table feeds the revealed cards back with
// [State.Learn], in the order of the reveal's Slots. The Princess's show
// is an [engine.EffectShowOthers]: the table opens the card to everyone
// but its owner and the rules learn nothing. The initial deal is face up,
// so [NewGame] receives it.
//
// # Scenarios
//
// The masks in play come from a scenario: a text file ("name:",
// "players:", "masks:" lines, see [ParseScenario]). The default scenarios
// for 4..12 players ("default-4" .. "default-12") are embedded from
// scenarios/*.txt; a user's own file is checked with [Scenario.Check]
// against the book's constraints, one [*SetError] per broken constraint.
// [Options] carry the resulting multiset of masks.
//
// # Slot layout and seating
//
// Slot i (i = 0..n-1) is the card in front of chair i; slots n and n+1
// are the masks in the middle (centre1, centre2): exactly two with 4-5
// players, 0-2 with more ([Options.Center] = masks - players). Chairs are
// numbered clockwise; at the start seat i sits on chair i. The Puppeteer
// makes two players change chairs: their cards and coins stay on the
// table, so each now owns the other's card and purse, and the turn order
// and neighbours follow the chairs ([State.Seating], [State.ChairOf],
// [State.SlotOf]). In scripts a player's name names the card in front of
// that player now. Deals list cards in slot order.
//
// # Moves
//
// A move is engine.Move{Seat, Kind, Args}. Slots and seats in Args are
// plain integers; masks are [engine.Card] values (Empress=1 .. Swindler=16,
// see [Cards]). The secret bit of a swap is never in a Move.
//
//	Kind            Args                      script form
//	KindSwap (1)    [own slot, target slot]   swap TARGET yes|no
//	KindPeek (2)    [own slot]                peek
//	KindClaim (3)   [mask, own slot]          claim MASK
//	KindChallenge(4)[own slot]                challenge
//	KindPass (5)    []                        pass
//	KindUse (6)     see below                 use KEY=VALUE...
//	KindGuess (7)   [mask]                    guess MASK   (the Guru's target names its mask)
//
// KindUse, by the power being resolved:
//
//	Swindler (tie only) [target seat]      use target=NAME
//	Sorceress           [target seat|-1]   use target=NAME|none
//	Guru                [target seat]      use target=NAME
//	Princess            [target seat]      use target=NAME
//	Puppeteer           [seat a, seat b]   use between=A,B
//	Fool                [slot a, slot b]   use between=A,B swap=yes|no
//	Spy                 [target slot]      use with=NAME               (or target=NAME)
//	Spy, having looked  []                 use swap=yes|no
//
// A script line "use with=NAME swap=yes|no" by the Spy plays both Spy
// moves. Empress, Widow, Beggar, King, Thief, Judge, Patron, Cheater,
// Peasant and the Swindler with a single richest opponent resolve without
// a choice.
//
// # Effects
//
//	swap            EffectSwap{By: seat, Slots: [own, target]}
//	peek            EffectPeek{By: seat, Slots: [own]}
//	closed window   EffectReveal{Slots: claimant's slot, then challengers' in clockwise order}
//	Fool            EffectSwap{By: fool, Slots: [a, b]}
//	Spy             EffectPeek own, EffectPeek target (By the spy); then the
//	                decision move: EffectSwap{own, target} By the spy
//	Guru            EffectReveal{Slots: [target's slot]} after the target's guess
//	Princess        EffectShowOthers{By: princess, Except: target, Slots: [target's slot]}
//
// # Turn structure
//
// Seat 0 plays first, then play goes clockwise by chair. Turns 1-4 are
// preparatory: swap (or pretend to) only. From turn 5 the turn player
// swaps, looks at its card or announces a mask; a player whose card was
// revealed during the previous turn may not announce (but may swap or
// look). After an announcement every other player, clockwise from the
// claimant's left, challenges or passes once ([State.Next] names each in
// turn). Without a challenge the claimant uses the power unseen. With
// challenges all contenders' cards are revealed; every real owner uses the
// power (even out of turn: [State.Next] names the owner who must "use"),
// then the impostors pay 1 coin each to the courthouse. The game ends at
// once when someone has 13 coins (they win) or someone has none (the
// richest win); ties share the win. The Cheater with 10+ coins wins when
// the power is used.
//
// # Coins
//
// The bank starts with [BoxCoins] (200: 80 coins of 1 and 24 of 5) minus
// the players' purses, so bank + purses + courthouse is always 200.
// Whoever must pay more than they have pays all they have; the bank, too,
// pays at most what it holds.
//
// # Text and scripts
//
// [FormatMove], [FormatLine] and [ParseMove] convert moves to and from the
// script verbs; [ParseScript] reads a whole scripted table (header
// "game mascarade2 players=... [scenario=NAME|FILE | set=MASKS]
// [deal=...] [coins=N]"; scenario files are read by the caller's
// [ScenarioLoader]). Package mascarade2test plays scripts with an
// omniscient oracle; package bot plays plausible moves; [Game] is the
// game's side of the game contract (engine/games), through which
// engine/games/localplay plays scripts on the real cryptographic stack.
package mascarade2
