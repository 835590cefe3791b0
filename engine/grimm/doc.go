// Package grimm is the pure rules engine of The Grimm Masquerade ("Маскарад
// сказок", Eisner, Eisner, Hudson; Druid City Games 2019) for 2 to 5
// players: the basic game, the 2-player game and the advanced variants
// (bets, jewels and the eight abilities, alone or combined). Decisions
// where the book
// is silent are listed, numbered, in docs/rules-grimm.md; the boons and
// banes are data (charms.txt, [ParseCharms]) and travel in the options.
//
// [State] implements [engine.State] and [engine.Opening]. The rules never
// see a hidden card: they say what must happen with [engine.Effect]
// values and receive [engine.Fact] values back ([State.Learn]): the
// cards of a reveal, in the order of its Slots, or one joint coin (Slot
// -1). A statement about one's own character is an [engine.EffectProve]
// returned by the move that makes it; the table must attach the proof to
// that move's entry and reject the entry, naming the seat, if it fails.
//
// # Slot layout
//
// One card space ([NumKinds] kinds): characters 1-8 ([EvilQueen] ..
// [Hansel]), items 9-16 ([Treats] .. [Spindle]), bet cards 17-24
// ([BetBase]+character). The slots, laid out face up in canonical order
// before the opening ([Game.Deck]):
//
//	0-7     characters. 3-5 players: seat p holds slot p; 2 players: seat
//	        p holds slots 2p ("left") and 2p+1 ("right"). The rest is the
//	        character deck, top first ([State.CharDeck]).
//	8-55    items, canonical order 6 Treats, 6 Cauldrons, 6 Disguises, 6
//	        Glass Slippers, 6 Clocks, 6 Mirrors, 6 Crowns, 6 Spindles.
//	        Slots never move: the rules track where each lies (deck, in
//	        deck order with the top first; draft row; drawn; in front of a
//	        seat, face up; in an unmasked seat's hidden hand; discard).
//	56-63   bet cards (with bets only).
//
// Each round the same slots are dealt again: [engine.EffectSet] lays the
// fresh decks out (rounds 2 and 3; round 1 starts from [Game.Deck]).
//
// # Effects
//
//	round start   [Set 0-7] Shuffle 0-7 (every seat), [Set 8-55] Shuffle
//	              8-55, [Set/Shuffle 56-63 with bets], Peek{By p, own
//	              slot} for every seat's character slot(s), Coin.
//	              Round 1's are [State.Opening]'s, without the Sets.
//	round coin    the round's 2 action cards and (round 1, or a tie) the
//	              first player; then Reveal of the draft row (n+2 items,
//	              6 with 2 players), facts in row order.
//	draw          Reveal{top item slot}; a refilled deck is first
//	              Shuffle(d) by every seat of the old discard pile d.
//	unmasked draw Peek{By p, top slot}, Shuffle{Seats: [p], hand slots}.
//	unmasked give Reveal{the given hand slot}.
//	hint          Prove{By p, own masked slot, Cards [X], Not} per masked
//	              character slot (two with 2 players).
//	unmask, win   Prove{By p, the slot, Cards [X]} (X is then public);
//	              unmasking with 3-5 players also Shuffle{Seats: [p], the
//	              items p had face up} (they become its hidden hand).
//	Guest list    Peek{By p, deck[0]}, Peek{By p, deck[1]}, Shuffle(deck).
//	Search        Peek{By p, deck[0]}, Shuffle(deck), then a draw.
//	Toast         Reveal of the top 2 items.
//	Dance         Coin, then Reveal of the cards unmasked seats pass (if any).
//	Exchange      Coin.
//	Learn secret  Peek{By p, s} for every bet slot s left; taking one:
//	              Shuffle of the rest by every seat.
//	round end     Reveal of every character slot still hidden and every
//	              bet card held, then the next round's start.
//	abilities     Curiosity, Big eyes: Peek{By p, deck[0]}, Shuffle(deck);
//	              Gambler: Peek{By p, the bet slot taken}; an extra draw
//	              (Modest gifts, Sly accusation, Master of the game):
//	              Reveal{top item slot}.
//
// A coin is turned into choices by [Stream] (SHA-512, a purpose label,
// rejection sampling); [State.PreviewCoin] shows what a coin would decide.
//
// # Moves
//
//	Kind            Args                            script form
//	KindPick (1)    [item]                          pick ITEM
//	KindKeep (2)    []                              keep
//	KindGive (3)    [seat]                          give NAME
//	                [seat, seat] (Toast, per card)  give NAME NAME
//	                [seat, hand slot] (unmasked)    give NAME slot=N
//	KindAct (4)     [action, item, jewel, args...]  act ACTION [jewel+]ITEM ARGS
//	    Mask off!   args [target seat, character]   act maskoff ITEM NAME CHARACTER
//	    Eavesdrop   args [seat] or [seat, seat]     act eavesdrop ITEM NAME [NAME]
//	    Dance       args [+1 left | -1 right, item] act dance ITEM left|right ITEM
//	    Exchange    args [target seat, item]        act exchange ITEM NAME ITEM
//	    Guest list, Toast, Search, Learn a secret: no args
//	KindEnd (5)     []                              end
//	KindHint (6)    [character (, 8 nonce words)]   hint CHARACTER [nonce=HEX]
//	KindUnmask (7)  [own character slot]            unmask [left|right]
//	KindWin (8)     [own character slot]            win [left|right]
//	KindCommit (9)  [16 words of 16 bits]           commit HEX
//	KindBet (10)    [] (unmasked: look) | [slot]    bet [SLOT]
//	KindDraw (11)   [] (an ability's optional draw) draw   (end declines)
//	KindChoose (12) [character] (2p ability)        choose CHARACTER
//
// The jewel flag is 1 to pay with the jewel and one ITEM instead of two.
// An unmask or win may omit the slot when the seat has one masked
// character. [FormatMove] and [ParseMove] convert moves to and from
// text; [ParseScript] reads a scripted table; [State.LegalMoves] lists
// the moves a seat may make given what it has seen.
//
// # Turn structure
//
// A round: the coin, the draft (from the first player, clockwise, one
// item each; two each with 2 players), then turns clockwise from the
// first player. A masked turn: the first item is revealed, kept or given
// to a masked opponent; the second is revealed and given (if the first
// was kept) or kept; then an optional action (two equal items, or the
// jewel and any item) or end. An unmasked turn (3-5 players): a private
// draw into the hand, then one card of the hand given (the table reveals
// it as it lands). After every change the rules queue forced responses
// (3 of a kind before 2 of a kind, each in turn order from the acting
// seat); [State.Next] names who owes one, and only hint, unmask or win
// answers it. Those whose answer is already public (their token lies on
// the portrait, or it is broken) are skipped. Eavesdrop on two seats asks
// both to commit ([CommitHash]) before either opens.
package grimm
