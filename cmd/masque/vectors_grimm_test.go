package main

// The Grimm Masquerade's conformance vectors (built by
// vectors_gen_test.go): an honest bot game through the real stack with
// its keys published, and tampered copies of it. Positions and seats of
// the expected faults are written by hand; the builders check that the
// entry they tamper with is the one named.

import (
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/grimm"
	gbot "github.com/masque-games/masque/engine/grimm/bot"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/table"
)

// grimmVectorGame plays a 3-player bot game of The Grimm Masquerade (basic
// game, bot seed 3) through the real stack, keys published.
// crypto/rand is reset to the honest vector's stream first, so that every
// tampered vector is a copy of the honest game.
func grimmVectorGame(t *testing.T) *local.Table {
	t.Helper()
	return grimmBotGame(t, grimmHonestFile, grimm.Options{Players: []string{"Anna", "Boris", "Sasha"}}, 3)
}

// grimmBotGame plays a bot game of The Grimm Masquerade with options o
// (bot seed seed) through the real stack, keys published, with
// crypto/rand reset to file's stream first.
func grimmBotGame(t *testing.T, file string, o grimm.Options, seed uint64) *local.Table {
	t.Helper()
	lt := vectorTable(t, file, grimm.Game{}, o.Players, o)
	bots := make([]games.KnowingBot, len(o.Players))
	for i := range bots {
		b, err := gbot.NewBot(lt.View().Rules(), engine.Seat(i), seed)
		if err != nil {
			t.Fatal(err)
		}
		bots[i] = b.(games.KnowingBot)
	}
	for range 5000 {
		seat, kind, ok := lt.View().Expect()
		if !ok {
			return lt
		}
		if kind != table.BodyMove {
			t.Fatalf("the table waits for seat %d's %s entry", seat, kind)
		}
		me := lt.Seats[seat]
		m, bits, ok := bots[seat].ChooseKnowing(lt.View().Rules(), me.Player.Known(me.Replica))
		if !ok {
			t.Fatalf("seat %d has no move", seat)
		}
		if err := lt.Move(seat, m, bits); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the bots did not finish")
	return nil
}

// grimmEntry finds the first entry of tr at which want holds of the
// table before it (and the entry's body); it fails the test unless that
// entry is at pos.
func grimmEntry(t *testing.T, tr *ledger.Transcript, pos int, want func(rt *table.Table, b *table.Body) bool) *table.Body {
	t.Helper()
	rt, err := table.New(tr.Roster, grimm.Game{})
	if err != nil {
		t.Fatal(err)
	}
	for k, e := range tr.Entries {
		b, err := table.UnmarshalBody(e.Body, 1)
		if err != nil {
			t.Fatal(err)
		}
		if want(rt, b) {
			if k != pos {
				t.Fatalf("the entry to tamper with is at %d, the vector says %d", k, pos)
			}
			return b
		}
		if err := rt.Apply(e); err != nil {
			t.Fatalf("entry %d: %v", k, err)
		}
	}
	t.Fatal("no entry to tamper with")
	return nil
}

// grimmTampered replaces entry pos of the honest game by body, re-signed
// by its author, and cuts the transcript there.
func grimmTampered(t *testing.T, lt *local.Table, pos int, body *table.Body) ([]byte, int) {
	tr := lt.Transcript()
	e := resign(t, lt, tr, pos, int(tr.Entries[pos].Seat), body)
	return encodeTranscript(t, &ledger.Transcript{Roster: tr.Roster, RosterSigs: tr.RosterSigs, Entries: append(tr.Entries[:pos:pos], e)})
}

// firstStatement is the first move carrying a statement proof.
func firstStatement(_ *table.Table, b *table.Body) bool {
	return b.Kind == table.BodyMove && len(b.Statements) > 0
}

// grimmHonest is an honest bot game with options o, keys published.
func grimmHonest(file string, o grimm.Options, seed uint64, desc string) vectorSpec {
	return vectorSpec{
		want: vectorCase{File: file, Game: grimm.GameName, Valid: true, Complete: true, DealSource: dealShuffle, KeysPublished: true,
			Description: desc},
		build: func(t *testing.T) ([]byte, int) {
			return encodeTranscript(t, grimmBotGame(t, file, o, seed).Transcript())
		},
	}
}

// grimmHonestFile is the honest Grimm vector.
const grimmHonestFile = "honest-grimm-3-bots.masque"

func grimmVectorSpecs() []vectorSpec {
	const g = grimm.GameName
	// The positions of the tampered entries in the honest game (seat 0
	// shuffles first at 0; the round's first coin share, Anna's, is at 12:
	// after 2 shuffles by 3 seats and 3 peeks of 2 shares each).
	const shufflePos, coinPos, statementPos, statementSeat = 0, 12, 33, 2
	faultOf := func(file, desc string, pos uint64, seat int, reason string, build func(t *testing.T) ([]byte, int)) vectorSpec {
		return vectorSpec{
			want: vectorCase{File: file, Game: g, Description: desc, Exit: exitFault, DealSource: dealShuffle,
				Fault: &vectorFault{Position: pos, Seat: seat, Reason: reason}},
			build: build,
		}
	}
	return []vectorSpec{
		{
			want: vectorCase{File: grimmHonestFile, Game: g, Valid: true, Complete: true, DealSource: dealShuffle, KeysPublished: true,
				Description: "The Grimm Masquerade, 3 players, basic game, played by bots (seed 3) through the real stack: every round's characters " +
					"and items shuffled by every seat, private looks, joint coins, public draws, hints proven in zero knowledge, " +
					"unmasked players' hidden hands re-shuffled alone; three rounds; keys published."},
			build: func(t *testing.T) ([]byte, int) { return encodeTranscript(t, grimmVectorGame(t).Transcript()) },
		},
		grimmHonest("honest-grimm-2-abilities.masque", grimm.Options{Players: []string{"Anna", "Boris"}, Abilities: true}, 13,
			"The Grimm Masquerade, 2 players (two characters each, slots 2p and 2p+1) with the abilities variant, played by bots "+
				"(seed 13) through the real stack: round 1 is the basic 2-player game; hints proving \"not X\" for each masked "+
				"character, players unmasked on one character playing on with their items face up, actions earning their actor a "+
				"rose, a Mask off!; in rounds 2 and 3 the player with the fewest roses chooses the ability of one of its two "+
				"characters (True reflection, then Modest gifts, whose extra draws Anna declines); round 3 ends with both of "+
				"Boris's characters unmasked; keys published."),
		grimmHonest("honest-grimm-3-variants.masque", grimm.Options{Players: []string{"Anna", "Boris", "Sasha"}, Bets: true, Jewels: true, Abilities: true}, 23,
			"The Grimm Masquerade, 3 players with every advanced variant (bets, jewels, abilities), played by bots (seed 23) through "+
				"the real stack: the bet cards shuffled with the rest every round, actions paid with the jewel, Learn a secret "+
				"(private looks at the bet deck, a bet taken, the rest re-shuffled), a bet taken at once by a player just unmasked in "+
				"another player's turn, abilities dealt to the fewest roses (Modest "+
				"gifts' extra draws, Master of the game, True reflection), bets revealed and paid and unspent jewels counted at each "+
				"round's end; keys published."),
		faultOf("tampered-grimm-bad-shuffle.masque",
			"the honest Grimm game up to its first entry, Anna's shuffle of the 8 characters, whose first two output cards are swapped: "+
				"the shuffle proof no longer verifies.",
			shufflePos, 0, table.ReasonBadShuffle, func(t *testing.T) ([]byte, int) {
				lt := grimmVectorGame(t)
				b := grimmEntry(t, lt.Transcript(), shufflePos, func(_ *table.Table, b *table.Body) bool { return b.Kind == table.BodyShuffle })
				b.Deck[0], b.Deck[1] = b.Deck[1], b.Deck[0]
				return grimmTampered(t, lt, shufflePos, b)
			}),
		faultOf("tampered-grimm-coin-share.masque",
			"the honest Grimm game up to the round's first joint coin: Anna posts Boris's coin share (the next entry) as hers.",
			coinPos, 0, table.ReasonBadShare, func(t *testing.T) ([]byte, int) {
				lt := grimmVectorGame(t)
				tr := lt.Transcript()
				grimmEntry(t, tr, coinPos, func(_ *table.Table, b *table.Body) bool { return b.Kind == table.BodyCoinShare })
				next, err := table.UnmarshalBody(tr.Entries[coinPos+1].Body, 1)
				if err != nil {
					t.Fatal(err)
				}
				return grimmTampered(t, lt, coinPos, &table.Body{Kind: table.BodyCoinShare, CoinShare: next.CoinShare})
			}),
		faultOf("tampered-grimm-statement-count.masque",
			"the honest Grimm game up to its first move with a statement, entry 33: Sasha unmasks (\"I am X\", answering a pair, "+
				"a viewed-holding proof); the move comes without its statement proof.",
			statementPos, statementSeat, table.ReasonStatementCount, func(t *testing.T) ([]byte, int) {
				lt := grimmVectorGame(t)
				b := grimmEntry(t, lt.Transcript(), statementPos, firstStatement)
				b.Statements = nil
				return grimmTampered(t, lt, statementPos, b)
			}),
		faultOf("tampered-grimm-bad-statement.masque",
			"the honest Grimm game up to its first move with a statement, entry 33: Sasha unmasks (\"I am X\"); its proof is replaced "+
				"by the next proof of the same form, honest entry 91's (Anna's unmasking: another prover, position and statement): it does not verify.",
			statementPos, statementSeat, table.ReasonBadStatement, func(t *testing.T) ([]byte, int) {
				lt := grimmVectorGame(t)
				tr := lt.Transcript()
				b := grimmEntry(t, tr, statementPos, firstStatement)
				for _, e := range tr.Entries[statementPos+1:] {
					o, err := table.UnmarshalBody(e.Body, 1)
					if err != nil {
						t.Fatal(err)
					}
					if o.Kind == table.BodyMove && len(o.Statements) == len(b.Statements) && o.Statements[0].Not == b.Statements[0].Not {
						b.Statements = o.Statements
						return grimmTampered(t, lt, statementPos, b)
					}
				}
				t.Fatal("no later statement of the same form")
				return nil, 0
			}),
	}
}
