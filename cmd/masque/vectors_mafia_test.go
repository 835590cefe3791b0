package main

// Mafia's conformance vectors (built by vectors_gen_test.go): honest bot
// games through the real stack with their keys published, and tampered
// copies of the 6-player one, each breaking one part of a night's
// actions entry. Positions and seats of the expected faults are written
// by hand; the builders check that the entry they tamper with is the one
// named.

import (
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/table"
)

// mafiaBotGame plays a bot game of Mafia with options o (bot seed seed)
// through the real stack, keys published, with crypto/rand reset to
// file's stream first: every night's choices come from the bots
// (games.NightBot), the other seats' actions are posted empty.
func mafiaBotGame(t *testing.T, file string, o mafia.Options, seed uint64) *local.Table {
	t.Helper()
	return mafiaBotPlay(t, file, o, seed, nil)
}

// mafiaBotPlay is [mafiaBotGame] telling record, if not nil, every night
// choice a bot makes (seat, power, target) with the rules state then.
func mafiaBotPlay(t *testing.T, file string, o mafia.Options, seed uint64, record func(st engine.State, seat engine.Seat, power uint8, target engine.Seat)) *local.Table {
	t.Helper()
	return mafiaSteeredGame(t, file, o, seed, mafiaSteer{record: record})
}

// mafiaHonest6 is the 6-player honest game the tampered vectors copy.
const mafiaHonest6 = "honest-mafia-6-bots.masque"

func mafiaVectorGame6(t *testing.T) *local.Table {
	return mafiaBotGame(t, mafiaHonest6, mafia.Options{Players: []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya"}, NoIncidents: true}, 6)
}

// mafiaEntry finds the first actions entry of tr whose request has a part
// of kind part (any part when part is 0) and, with two, the one at which
// the next entry is another seat's actions for the same request; it
// fails the test unless that entry is at pos. It returns the entry's body,
// the index of the part, and the next entry's body.
func mafiaEntry(t *testing.T, tr *ledger.Transcript, pos int, part engine.EffectKind) (b *table.Body, j int, next *table.Body) {
	t.Helper()
	rt, err := table.New(tr.Roster, mafia.Game{})
	if err != nil {
		t.Fatal(err)
	}
	for k, e := range tr.Entries {
		if _, kind, _ := rt.Expect(); kind == table.BodyActions && k+1 < len(tr.Entries) {
			r := rt.Pending()
			j := slices.IndexFunc(r.Parts, func(ef engine.Effect) bool { return ef.Kind == part })
			if j >= 0 && r.Next()+1 < len(r.Seats) {
				if k != pos {
					t.Fatalf("the entry to tamper with is at %d, the vector says %d", k, pos)
				}
				b, err := table.UnmarshalBody(e.Body, 1)
				if err != nil {
					t.Fatal(err)
				}
				nb, err := table.UnmarshalBody(tr.Entries[k+1].Body, 1)
				if err != nil {
					t.Fatal(err)
				}
				return b, j, nb
			}
		}
		if err := rt.Apply(e); err != nil {
			t.Fatalf("entry %d: %v", k, err)
		}
	}
	t.Fatal("no entry to tamper with")
	return nil, 0, nil
}

func mafiaVectorSpecs() []vectorSpec {
	const g = mafia.GameName
	// The first night's actions entries with a ballot (the second night of
	// the game: the first is the mafia's recognition, tags only), and with
	// a check; their authors.
	const tagPos, tagSeat, ballotPos, ballotSeat, checkPos, checkSeat = 12, 0, 37, 0, 37, 0
	// The second mix entry of honest-mafia-6-tie's night 2 and its author.
	const mixPos, mixSeat = 43, 1
	// The second blind step of the first test of that night's one-vote
	// kill and its author.
	const blindPos, blindSeat = 48, 1
	// The second lookup entry of honest-mafia-12-plurality's night 2 and its author.
	const lookupPos, lookupSeat = 94, 2
	faultOf := func(file, desc string, pos uint64, seat int, reason string, build func(t *testing.T) ([]byte, int)) vectorSpec {
		return vectorSpec{
			want: vectorCase{File: file, Game: g, Description: desc, Exit: exitFault, DealSource: dealShuffle,
				Fault: &vectorFault{Position: pos, Seat: seat, Reason: reason}},
			build: build,
		}
	}
	// fixedDeal marks a vector cut from a game dealt by the options' fixed
	// deal.
	fixedDeal := func(v vectorSpec) vectorSpec {
		v.want.DealSource = dealFixed
		return v
	}
	return []vectorSpec{
		{
			want: vectorCase{File: "honest-mafia-4-bots.masque", Game: g, Valid: true, Complete: true, DealSource: dealShuffle, KeysPublished: true,
				Description: "Mafia: Random Incident, 4 players (the book's roles: one Mafioso, three Civilians) with incident cards, played by bots " +
					"(seed 4) through the real stack: the role tuples and the incident deck shuffled by every seat, each role viewed by its " +
					"holder alone, the mafia's recognition tags, the first day's question, day votes, incident cards played with their " +
					"eliminations moved or cancelled, every night's actions entries (proven ballots, tags), tallies opened by shares, " +
					"roles revealed at each elimination and at the end; keys published."},
			build: func(t *testing.T) ([]byte, int) {
				return encodeTranscript(t, mafiaBotGame(t, "honest-mafia-4-bots.masque", mafia.Options{Players: []string{"Anna", "Boris", "Sasha", "Dima"}}, 4).Transcript())
			},
		},
		{
			want: vectorCase{File: mafiaHonest6, Game: g, Valid: true, Complete: true, DealSource: dealShuffle, KeysPublished: true,
				Description: "Mafia: Random Incident, 6 players with the book's specials, without incident cards (a smaller file), played by bots (seed 6) through " +
					"the real stack: every night each living seat's actions entry carries a proven ballot per power (a holder names one legal " +
					"target, every other seat an empty ballot), the Commissar's proven check, whose answer goes to the Commissar alone by " +
					"encrypted shares, and a tag; tallies of the ballots opened by shares; keys published."},
			build: func(t *testing.T) ([]byte, int) { return encodeTranscript(t, mafiaVectorGame6(t).Transcript()) },
		},
		{
			want: vectorCase{File: "honest-mafia-6-tie.masque", Game: g, Valid: true, Complete: true, DealSource: dealShuffle, KeysPublished: true,
				Description: "Mafia: Random Incident, 6 players without specials (two Mafiosi, no Don) and without incident cards, played by bots " +
					"(seed 1) through the real stack: on night 2 the two mafiosi's kill ballots name different seats; with two kill holders the " +
					"kill is a one-vote kill (docs/protocol.md §5, §12.5 item 6; mental SPEC.md §9.8): every living seat shuffles the kill " +
					"ballots' code sums in turn (mix bodies of width-1 cards), blinded identity tests (blind bodies, kind 10) open them in the " +
					"shuffled order only as \"a vote or not\" until the first vote, and only that vote's code is opened, naming the victim: " +
					"a uniformly random one of the two votes, which is the majority with a tie broken by a uniform coin, and nothing says " +
					"whether they agreed; keys published."},
			build: func(t *testing.T) ([]byte, int) { return encodeTranscript(t, mafiaTieGame(t).Transcript()) },
		},
		faultOf("tampered-mafia-bad-blind.masque",
			"the honest game of honest-mafia-6-tie up to night 2's one-vote kill; the second seat's step of the first blinded identity "+
				"test (a blind body, kind 10) is the first seat's step posted again: its proof is for another input card, position and "+
				"key, so it does not verify (docs/protocol.md §5 test: bad-blind).",
			blindPos, blindSeat, table.ReasonBadBlind, func(t *testing.T) ([]byte, int) {
				lt := mafiaTieGame(t)
				first, k := mafiaSecondOf(t, lt.Transcript(), table.BodyBlind)
				if k != blindPos {
					t.Fatalf("the second blind entry is at %d, the vector says %d", k, blindPos)
				}
				return mafiaTampered(t, lt, k, first)
			}),
		fixedDeal(faultOf("tampered-mafia-bad-lookup.masque",
			"the honest game of honest-mafia-12-plurality up to night 2's plurality kill; the second seat's count lookup (a lookup "+
				"body, kind 11) is the first seat's posted again: its proof is for another author's ballot, position and seat, so it "+
				"does not verify (docs/protocol.md §5 plurality kill: bad-lookup).",
			lookupPos, lookupSeat, table.ReasonBadLookup, func(t *testing.T) ([]byte, int) {
				lt := mafiaPluralityGame(t)
				first, k := mafiaSecondOf(t, lt.Transcript(), table.BodyLookup)
				if k != lookupPos {
					t.Fatalf("the second lookup entry is at %d, the vector says %d", k, lookupPos)
				}
				return mafiaTampered(t, lt, k, first)
			})),
		faultOf("tampered-mafia-bad-mix.masque",
			"the honest game of honest-mafia-6-tie up to night 2's one-vote kill; the second seat's mix entry (kind 9) is the first "+
				"seat's mix posted again: its proof is for another input deck, position and seat, so it does not verify "+
				"(docs/protocol.md §5 one-vote mix: bad-shuffle).",
			mixPos, mixSeat, table.ReasonBadShuffle, func(t *testing.T) ([]byte, int) {
				lt := mafiaTieGame(t)
				first, k := mafiaSecondMix(t, lt.Transcript())
				if k != mixPos {
					t.Fatalf("the second mix entry is at %d, the vector says %d", k, mixPos)
				}
				return mafiaTampered(t, lt, k, first)
			}),
		faultOf("tampered-mafia-action-count.masque",
			"the honest 6-player Mafia game up to its first actions entry of a night with a ballot; the entry comes without its last part.",
			ballotPos, ballotSeat, table.ReasonActionCount, func(t *testing.T) ([]byte, int) {
				lt := mafiaVectorGame6(t)
				b, _, _ := mafiaEntry(t, lt.Transcript(), ballotPos, engine.EffectBallot)
				b.Actions = b.Actions[:len(b.Actions)-1]
				return mafiaTampered(t, lt, ballotPos, b)
			}),
		faultOf("tampered-mafia-bad-ballot.masque",
			"the honest 6-player Mafia game up to its first actions entry of a night with a ballot; its first ballot is replaced by the "+
				"next seat's (the next entry's) ballot for the same power: the proof binds its author, so it does not verify.",
			ballotPos, ballotSeat, table.ReasonBadBallot, func(t *testing.T) ([]byte, int) {
				lt := mafiaVectorGame6(t)
				b, j, next := mafiaEntry(t, lt.Transcript(), ballotPos, engine.EffectBallot)
				b.Actions[j] = next.Actions[j]
				return mafiaTampered(t, lt, ballotPos, b)
			}),
		faultOf("tampered-mafia-bad-check.masque",
			"the honest 6-player Mafia game up to its first actions entry of a night with the Commissar's check; its check is replaced "+
				"by the next seat's (the next entry's) check: the proof binds its author, so it does not verify.",
			checkPos, checkSeat, table.ReasonBadCheck, func(t *testing.T) ([]byte, int) {
				lt := mafiaVectorGame6(t)
				b, j, next := mafiaEntry(t, lt.Transcript(), checkPos, engine.EffectCheck)
				b.Actions[j] = next.Actions[j]
				return mafiaTampered(t, lt, checkPos, b)
			}),
		faultOf("tampered-mafia-bad-tag.masque",
			"the honest 6-player Mafia game up to its first actions entry, the first night's recognition: its tag is cut to 31 bytes.",
			tagPos, tagSeat, table.ReasonBadTag, func(t *testing.T) ([]byte, int) {
				lt := mafiaVectorGame6(t)
				b, j, _ := mafiaEntry(t, lt.Transcript(), tagPos, engine.EffectTag)
				b.Actions[j] = b.Actions[j][:31]
				return mafiaTampered(t, lt, tagPos, b)
			}),
	}
}

// mafiaTampered replaces entry pos of the honest game by body, re-signed
// by its author, and cuts the transcript there.
func mafiaTampered(t *testing.T, lt *local.Table, pos int, body *table.Body) ([]byte, int) {
	tr := lt.Transcript()
	e := resign(t, lt, tr, pos, int(tr.Entries[pos].Seat), body)
	return encodeTranscript(t, &ledger.Transcript{Roster: tr.Roster, RosterSigs: tr.RosterSigs, Entries: append(tr.Entries[:pos:pos], e)})
}

// mafiaTieGame is honest-mafia-6-tie's game: 6 players without specials
// (two Mafiosi, no Don), no incident cards, bots (seed 1); on night 2 the
// kill ballots name different seats and the kill is a one-vote kill.
func mafiaTieGame(t *testing.T) *local.Table {
	o := mafia.Options{Players: []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya"}, Specials: []engine.Card{}, NoIncidents: true}
	return mafiaBotGame(t, "honest-mafia-6-tie.masque", o, 1)
}

// mafiaSecondMix returns the body of tr's first mix entry and the
// position of the second.
func mafiaSecondMix(t *testing.T, tr *ledger.Transcript) (*table.Body, int) {
	return mafiaSecondOf(t, tr, table.BodyMix)
}

// mafiaSecondOf returns the body of tr's first entry of kind and the
// position of the second.
func mafiaSecondOf(t *testing.T, tr *ledger.Transcript, kind table.BodyKind) (*table.Body, int) {
	t.Helper()
	var first *table.Body
	for k, e := range tr.Entries {
		b, err := table.UnmarshalBody(e.Body, 5)
		if err != nil {
			t.Fatal(err)
		}
		if b.Kind != kind {
			continue
		}
		if first != nil {
			return first, k
		}
		first = b
	}
	t.Fatalf("fewer than two %s entries", kind)
	return nil, 0
}
