package main

// Vectors for the rule paths the second outside verifier
// (.ci/freshverify, GAPS.md) found no vector for: a verifier wrong there
// still matched every earlier vector. Scripted games ('masque script')
// steer play into each rule; tampered copies of them break one rule; and
// rosters refused for their options (docs/protocol.md §2.2, §13.1,
// §2.2.2).

import (
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
)

// The audit vectors' scripts.
const (
	// scriptAuditM1 is an 8-player 1st-edition game: the Witch exchanges
	// purses, a Peasant pair (each Peasant takes 2), the revealed Peasant
	// must swap, a real Judge takes the courthouse, the Inquisitor
	// (challenged by the Judge, who is fined) makes Sasha guess, wrongly
	// (Sasha pays her 4), and with 10 coins Anna claims the Cheat
	// unchallenged and wins.
	scriptAuditM1 = `game mascarade players=Anna,Boris,Sasha,Dima,Egor,Fedya,Gosha,Katya deal=Inquisitor,Peasant,Peasant,Cheat,Witch,Judge,King,Queen
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Egor no
Egor claim Witch
Egor use target=Gosha
Fedya swap Gosha no
Gosha claim King
Katya claim Queen
Anna swap Boris no
Boris claim Peasant
Sasha challenge
Sasha swap Dima yes
Dima swap Egor no
Egor swap Fedya no
Fedya claim Judge
Gosha swap Katya no
Katya swap Anna no
Anna claim Inquisitor
Fedya challenge
Anna use target=Sasha
Sasha guess Judge
Boris swap Sasha no
Sasha swap Dima no
Dima swap Egor no
Egor swap Fedya no
Fedya swap Gosha no
Gosha claim King
Katya swap Anna no
Anna claim Cheat
`
	// scriptAuditM2 is a 12-player 2nd-edition game with 14 cards (two in
	// the middle): the Guru (a wrong guess), a Peasant pair, the Judge
	// (challenged, the challenger fined), the Fool (paid, then a real
	// swap of two others' cards), the Thief, the Widow, the Patron (the
	// bank pays him 3 and each neighbour 1), the Beggar, the Swindler,
	// the Sorceress exchanging purses, the Spy; the Patron's gift brings
	// Boris to 10 coins and his claim of the Cheater wins.
	scriptAuditM2 = `game mascarade2 players=Anna,Boris,Sasha,Dima,Egor,Fedya,Gosha,Katya,Lena,Misha,Nina,Oleg deal=Patron,Beggar,Swindler,Sorceress,Guru,Peasant,Peasant,Judge,Spy,Fool,Thief,Widow,Cheater,King
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Anna no
Egor claim Guru
Egor use target=Sasha
Sasha guess King
Fedya claim Peasant
Gosha challenge
Gosha swap Katya no
Katya claim Judge
Lena challenge
Lena swap Misha no
Misha claim Fool
Misha use between=Nina,Oleg swap=yes
Nina claim Thief
Oleg claim Widow
Anna claim Patron
Boris claim Beggar
Sasha claim Swindler
Dima claim Sorceress
Dima use target=Oleg
Egor swap Fedya no
Fedya swap Gosha no
Gosha swap Katya no
Katya claim Judge
Lena claim Spy
Lena use with=Misha swap=yes
Misha swap Nina no
Nina swap Oleg no
Oleg swap Anna no
Anna claim Patron
Boris claim Cheater
`
	// scriptAuditGrimm is round 1 of a 3-player Grimm game, fixed by the
	// options (the book's eavesdropping example): Kristina plays the
	// Guest list (two private looks at the character deck, then its
	// shuffle by every seat), and Alexander's Eavesdrop names two seats,
	// who commit, then open their commitments with their hints.
	scriptAuditGrimm = `game grimm players=Kristina,Alexander,Maria
round 1 chars=RedRidingHood,EvilQueen,Hansel items=GlassSlipper,Crown,Clock,Treats,Treats,GlassSlipper,Clock,Crown,Disguise,Disguise,Spindle,Spindle,Cauldron,Spindle,Mirror actions=eavesdrop,guestlist first=Kristina
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Clock
Kristina keep
Kristina hint Beast
Kristina give Maria
Maria hint Cinderella
Kristina act guestlist GlassSlipper
Alexander keep
Alexander hint Rumpelstiltskin
Alexander give Maria
Alexander end
Maria keep
Maria hint RedRidingHood
Maria give Kristina
Maria end
Kristina give Maria
Alexander give Maria
Maria hint SleepingBeauty
Alexander act eavesdrop Crown Kristina Maria
Kristina commit EvilQueen
Maria commit EvilQueen
Kristina hint EvilQueen
Maria hint EvilQueen
`
	// scriptAuditMafiaVote is a 4-player Mafia game without incident
	// cards: two of four say yes on day 1, not a majority, so no vote;
	// Anna (the Mafioso) kills Dima
	// on night 2, and day 2's votes put Anna out.
	scriptAuditMafiaVote = `game mafia players=Anna,Boris,Clara,Dima incidents=off roles=Mafioso,Civilian,Civilian,Civilian
Anna hold yes
Boris hold yes
Clara hold no
Dima hold no
Anna kill Dima
Anna vote Boris
Boris vote Anna
Clara vote Anna
`
	// scriptAuditMafia is a 9-player Mafia game with the Madman, no
	// incident cards and a tied day vote a draw: Anna, a Mafioso, is voted
	// out on day 1, so the Madman (Clara) joins (the join's views and the
	// second tag round); on night 2 the kill's holders are the Mafioso
	// and the Madman; day 2's vote ties, and the game ends as a draw.
	scriptAuditMafia = `game mafia players=Anna,Boris,Clara,Dima,Egor,Fedya,Gosha,Hana,Igor specials=Madman incidents=off tie=draw roles=Mafioso,Mafioso,Madman,Civilian,Civilian,Civilian,Civilian,Civilian,Civilian
Anna hold no
Boris hold no
Clara hold yes
Dima hold yes
Egor hold yes
Fedya hold yes
Gosha hold yes
Hana hold no
Igor hold no
Anna vote Dima
Boris vote Dima
Clara vote Anna
Dima vote Anna
Egor vote Anna
Fedya vote Anna
Gosha vote Anna
Hana vote Boris
Igor vote abstain
Boris kill Dima
Clara kill Dima
Boris vote Egor
Clara vote Egor
Egor vote Boris
Fedya vote Boris
Gosha vote Boris
Hana vote Egor
Igor vote abstain
`
	// The probes: short games whose end comes only if one coin rule is
	// applied exactly (the verdict sees no purse, only whether the game
	// is over, so each rule decides an end).
	scriptProbePair = `game mascarade players=Anna,Boris,Sasha,Dima,Egor,Fedya,Gosha,Katya deal=Judge,King,Queen,Witch,Peasant,Peasant,Bishop,Fool coins=11
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Egor no
Egor claim Peasant
Fedya challenge
`
	scriptProbeFool2 = `game mascarade2 players=Anna,Boris,Sasha,Dima deal=Fool,Judge,King,Empress,Widow,Cheater coins=12
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Anna no
Anna claim Fool
`
	scriptProbeJudge = `game mascarade players=Anna,Boris,Sasha,Dima deal=Judge,Bishop,King,Queen,Witch,Cheat coins=12
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Anna no
Anna claim Judge
Boris challenge
Boris swap Sasha no
Sasha swap Dima no
Dima swap Anna no
Anna claim Judge
`
	scriptProbeThief = `game mascarade2 players=Anna,Boris,Sasha,Dima deal=Thief,Judge,King,Empress,Widow,Cheater coins=10
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Anna no
Anna claim Thief
Boris swap Sasha no
Sasha swap Dima no
Dima claim Cheater
Anna claim King
`
	scriptProbePatron = `game mascarade2 players=Anna,Boris,Sasha,Dima deal=Patron,Judge,King,Empress,Widow,Cheater coins=10
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Anna no
Anna claim Patron
`
)

// scriptAuditMafia5 is engine/mafia's whole 5-player game with incident
// cards: a Ricochet moves the night's attack to the left.
const scriptAuditMafia5 = `# A whole 5-player game with incident cards: Anna is the mafioso.
game mafia players=Anna,Boris,Clara,Dima,Egor roles=Mafioso,Civilian,Civilian,Civilian,Civilian deck=Misfire,Alibi,Misfire,RicochetLeft,EvidenceLeft

# Night 1: Anna alone is mafia. Day 1: no majority to vote.
Anna hold no
Boris hold yes
Clara hold no
Dima hold yes
Egor hold no

# Night 2: Anna attacks Dima, who moves the attack to Egor; Egor's
# Evidence answers only a day vote, so he dies.
Anna kill Dima
Dima play RicochetLeft
Egor pass
expect role=Egor:Civilian alive=Anna,Boris,Clara,Dima day=2

# Day 2: Boris is voted out and shows his Alibi.
Anna vote Boris
Boris vote Anna
Clara vote Boris
Dima vote Boris
Boris play Alibi

# Night 3: Anna attacks Clara, who misfires.
Anna kill Clara
Clara play Misfire

# Day 3: Anna is voted out; her Misfire answers nothing by day.
Anna vote Clara
Boris vote Anna
Clara vote Anna
Dima vote Anna
Anna pass
expect over=yes side=civilians winners=Boris,Clara,Dima,Egor
`

// The audit vectors' files.
const (
	auditGrimmFile = "honest-grimm-3-eavesdrop-guestlist.masque"
	auditMafiaFile = "honest-mafia-9-madman-tie-draw.masque"
)

// auditEntry returns the position and body of the first entry of tr that
// is a move for which want holds; it fails unless that is at pos.
func auditEntry(t *testing.T, tr *ledger.Transcript, pos int, want func(e *ledger.Entry, m engine.Move) bool) *table.Body {
	t.Helper()
	for k, e := range tr.Entries {
		b, err := table.UnmarshalBody(e.Body, 1)
		if err != nil {
			continue // a body of wider cards (Mafia's tuples): no move
		}
		if b.Kind == table.BodyMove && want(e, b.Move) {
			if k != pos {
				t.Fatalf("the entry to tamper with is at %d, the vector says %d", k, pos)
			}
			return b
		}
	}
	t.Fatal("no entry to tamper with")
	return nil
}

// auditTampered plays script, replaces entry pos by body re-signed by its
// author, and cuts the transcript there.
func auditTampered(t *testing.T, game, script string, pos int, edit func(b *table.Body)) ([]byte, int) {
	lt := playScript(t, game, script, true)
	tr := lt.Transcript()
	b, err := table.UnmarshalBody(tr.Entries[pos].Body, 1) // a move: no cards
	if err != nil {
		t.Fatal(err)
	}
	edit(b)
	e := resign(t, lt, tr, pos, int(tr.Entries[pos].Seat), b)
	return encodeTranscript(t, &ledger.Transcript{Roster: tr.Roster, RosterSigs: tr.RosterSigs, Entries: append(tr.Entries[:pos:pos], e)})
}

// refusedRoster signs a roster of game with the given game options and
// table options (opts.Game is replaced by gameOpts) and no entry.
func refusedRoster(t *testing.T, seed string, game table.Game, names []string, gameOpts []byte, opts table.Options) ([]byte, int) {
	t.Helper()
	opts.Game = gameOpts
	keys := tabletest.SeatKeys(seed, names)
	r, sigs, err := tabletest.Roster(game, tabletest.TableID(seed), keys, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := table.New(r, game); err == nil {
		t.Fatal("the table accepts the roster the vector says is refused")
	}
	return encodeTranscript(t, &ledger.Transcript{Roster: r, RosterSigs: sigs})
}

func auditVectorSpecs() []vectorSpec {
	honest := func(file, game, desc, script string, complete bool) vectorSpec {
		return vectorSpec{
			want: vectorCase{File: file, Game: game, Description: desc, Script: script, Valid: true,
				Complete: complete, DealSource: dealFixed, KeysPublished: complete},
			build: func(t *testing.T) ([]byte, int) {
				return encodeTranscript(t, playScript(t, game, script, true).Transcript())
			},
		}
	}
	// The tampered entries' positions (checked by the builders).
	const grimmCommitPos, mafiaVotePos = 71, 26
	return []vectorSpec{
		honest("honest-mascarade-8-guess-pair.masque", mascarade.GameName,
			"Mascarade, 8 players, deal fixed in the roster (the Inquisitor, two Peasants, the Cheat, the Witch, the Judge, the King, "+
				"the Queen), 6 coins each: pretended swaps stand for the turns between; the Witch exchanges purses with Gosha; Boris claims the Peasant and Sasha challenges: both "+
				"are Peasants and each takes 2 (the pair bonus, protocol §13.4); Sasha, revealed last turn, must swap; the Judge takes "+
				"the courthouse; Anna claims the Inquisitor, the Judge challenges and is fined, and Anna asks Sasha, who guesses the "+
				"Judge (a `guess` move, kind 7) wrongly and pays Anna 4; with 10 coins Anna claims the Cheat unchallenged and wins; keys published.",
			scriptAuditM1, true),
		honest("honest-mascarade2-12-powers.masque", mascarade2.GameName,
			"Mascarade 2nd edition, 12 players and 14 cards (two in the middle), deal fixed in the roster, 6 coins each, pretended swaps between: the Guru "+
				"(Sasha guesses wrongly and pays 4), a Peasant pair, the Judge challenged (the challenger fined), the Fool (paid 1, "+
				"then a real swap of Nina's and Oleg's cards), the Thief, the Widow, the Patron (the bank pays him 3 and each "+
				"neighbour 1: protocol §13.5), the Beggar, the Swindler, the Sorceress exchanging purses, the Spy swapping; "+
				"the Patron's second claim brings Boris to 10 coins and his claim of the Cheater wins; keys published.",
			scriptAuditM2, true),
		honest(auditGrimmFile, grimm.GameName,
			"The Grimm Masquerade, 3 players, round 1 fixed by the options (the book's eavesdropping example, protocol §2.2.2): "+
				"Kristina plays the Guest list (a private look at each of the character deck's two top slots, then a shuffle of "+
				"the character deck by every seat, §9.5); Alexander's Eavesdrop names two seats: both commit (move 9, "+
				"masque/grimm/eavesdrop/v1 with the script nonce, §9.8), then open their commitments with their hints "+
				"(hint [character, 8 nonce words]); stops there (unfinished, no keys).",
			scriptAuditGrimm, false),
		{
			want: vectorCase{File: "tampered-grimm-rule-bad-commit.masque", Game: grimm.GameName, Exit: exitFault, DealSource: dealFixed,
				Description: "the game of " + auditGrimmFile + " up to the Eavesdrop's first opening: Kristina's hint on the Evil Queen " +
					"carries her nonce with its first word changed, so it does not open her commitment (protocol §4.3, §9.8).",
				Script: scriptAuditGrimm,
				Fault:  &vectorFault{Position: grimmCommitPos, Seat: 0, Reason: table.ReasonRulePrefix + grimm.RuleBadCommit}},
			build: func(t *testing.T) ([]byte, int) {
				lt := playScript(t, grimm.GameName, scriptAuditGrimm, true)
				auditEntry(t, lt.Transcript(), grimmCommitPos, func(e *ledger.Entry, m engine.Move) bool {
					return m.Kind == grimm.KindHint && len(m.Args) == 1+grimm.NonceWords
				})
				return auditTampered(t, grimm.GameName, scriptAuditGrimm, grimmCommitPos, func(b *table.Body) {
					b.Move.Args[1] ^= 1
				})
			},
		},
		honest(auditMafiaFile, mafia.GameName,
			"Mafia, 9 players, the Madman the only special, no incident cards, a tied day vote a draw (options flag bit 1), roles "+
				"fixed by the options: day 1's question holds a vote and Anna, a Mafioso, is voted out, so the Madman joins "+
				"(protocol §12.6: the join's views of component 4 and the second tag round); on night 2 the kill's holders are "+
				"[4, 6], the Mafioso's and the joined Madman's ballots of power 1, no ballot of power 2; day 2's vote ties 3 to 3 "+
				"and the game ends as a draw (§12.4, §12.7); keys published.",
			scriptAuditMafia, true),
		honest("honest-mafia-5-ricochet.masque", mafia.GameName,
			"Mafia, 5 players (a Mafioso, four Civilians) with incident cards, roles and incident deck fixed by the options "+
				"(engine/mafia's whole scripted game): no majority on day 1; on night 2 Anna attacks Dima, who plays a Ricochet "+
				"to the left (kind 8: the next living seat clockwise, Egor, protocol §12.5) and Egor passes and dies; on day 2 "+
				"Boris is voted out and plays an Alibi; on night 3 Clara's Misfire saves her; on day 3 Anna is voted out and the "+
				"civilians win; keys published.",
			scriptAuditMafia5, true),
		{
			want: vectorCase{File: "tampered-mafia-rule-bad-target.masque", Game: mafia.GameName, Exit: exitFault, DealSource: dealFixed,
				Description: "Mafia, 4 players (a Mafioso, three Civilians), roles fixed by the options, no incident cards: two of four say " +
					"yes on day 1's question, not a majority (2 × 2 > 4 fails), so no vote; Anna kills Dima on night 2; on day 2, after Anna's vote, Boris votes for Dima, no longer living " +
					"(a vote names one other living player: rule:bad-target, protocol §4.4).",
				Script: scriptAuditMafiaVote,
				Fault:  &vectorFault{Position: mafiaVotePos, Seat: 1, Reason: table.ReasonRulePrefix + mafia.RuleBadTarget}},
			build: func(t *testing.T) ([]byte, int) {
				lt := playScript(t, mafia.GameName, scriptAuditMafiaVote, true)
				auditEntry(t, lt.Transcript(), mafiaVotePos, func(e *ledger.Entry, m engine.Move) bool {
					return m.Kind == mafia.MoveVote && e.Seat == 1 && slices.Equal(m.Args, []int{0})
				})
				return auditTampered(t, mafia.GameName, scriptAuditMafiaVote, mafiaVotePos, func(b *table.Body) {
					b.Move.Args[0] = 3
				})
			},
		},
		honest("honest-mascarade-8-peasant-pair-ends.masque", mascarade.GameName,
			"Mascarade, 8 players, fixed deal, 11 coins each: Egor claims the Peasant and Fedya challenges; both are Peasants, so "+
				"each takes 2 (the pair bonus, protocol §13.4) and reaches 13: the game is over and the keys follow (with 1 each, "+
				"a verifier would wait for Fedya's move); keys published.",
			scriptProbePair, true),
		honest("honest-mascarade2-4-fool-paid-ends.masque", mascarade2.GameName,
			"Mascarade 2nd edition, 4 players, fixed deal, 12 coins each: Anna claims the Fool; the bank pays her 1 when the power "+
				"is applied, before her choice (protocol §13.5), so she reaches 13 and the game is over before any `use`; keys published.",
			scriptProbeFool2, true),
		honest("honest-mascarade-4-judge-court-ends.masque", mascarade.GameName,
			"Mascarade, 4 players, fixed deal, 12 coins each: Anna claims the Judge and Boris challenges (his fine goes to the "+
				"courthouse after the power); Boris, revealed, must swap; Anna's second Judge takes the courthouse's coin and "+
				"reaches 13: the game is over; keys published.",
			scriptProbeJudge, true),
		honest("honest-mascarade2-4-patron-ends.masque", mascarade2.GameName,
			"Mascarade 2nd edition, 4 players, fixed deal, 10 coins each: Anna claims the Patron; the bank pays her 3 (and each "+
				"neighbour 1) and she reaches 13: the game is over; keys published.",
			scriptProbePatron, true),
		honest("honest-mascarade2-4-thief-cheater.masque", mascarade2.GameName,
			"Mascarade 2nd edition, 4 players, fixed deal, 10 coins each: Anna claims the Thief and takes 1 from each neighbour "+
				"(Dima on her right, then Boris on her left: protocol §13.5), so Dima's claim of the Cheater with 9 coins wins "+
				"nothing (one side taking 2 would leave him 10, and the game over); Anna's King then brings her to 14; keys published.",
			scriptProbeThief, true),
		{
			want: vectorCase{File: "honest-grimm-3-fixed-actions-first-drawn.masque", Game: grimm.GameName, Valid: true, DealSource: dealFixed,
				Description: "The Grimm Masquerade, 3 players, round 1 fixed by the options except its first player (mask 16|1|2|4, " +
					"actions Toast and Search belongings): the round's coin still draws the two action cards from the stream, then " +
					"the first player (protocol §9.3), whose first pick is the last entry (a probe: restarting the stream for the " +
					"first player names another seat); unfinished, no keys."},
			build: func(t *testing.T) ([]byte, int) {
				names := []string{"Anna", "Boris", "Sasha"}
				o := grimm.Options{Players: names}
				items := make([]engine.Card, 0, 48)
				for k := range 48 {
					items = append(items, grimm.Treats+engine.Card(k/6))
				}
				o.Fixed[0] = &grimm.FixedRound{Chars: []engine.Card{1, 2, 3, 4, 5, 6, 7, 8}, Items: items,
					Actions: []grimm.Action{grimm.Toast, grimm.Search}, First: -1}
				lt := vectorTable(t, "honest-grimm-3-fixed-actions-first-drawn.masque", grimm.Game{}, names, o)
				seat, kind, ok := lt.View().Expect()
				if !ok || kind != table.BodyMove {
					t.Fatalf("after the opening the table waits for %v (%v)", kind, ok)
				}
				st := lt.View().Rules().(*grimm.State)
				m, err := grimm.ParseMove(st, seat, []string{"pick", "Treats"})
				if err != nil {
					t.Fatal(err)
				}
				if err := lt.Move(seat, m, nil); err != nil {
					t.Fatal(err)
				}
				return encodeTranscript(t, lt.Transcript())
			},
		},
		{
			want: vectorCase{File: "refused-fixed-deal.masque", Game: mascarade.GameName, Exit: exitFault, DealSource: dealFixed,
				Description: "a 4-seat Mascarade roster every seat signed whose table options fix a deal that is not a permutation of the " +
					"game's deck (the Judge twice, no Cheat): the table cannot be set up and the roster is refused without a fault " +
					"(protocol §2.2)."},
			build: func(t *testing.T) ([]byte, int) {
				g := vecGameOptions(t, 0)
				deck, err := mascarade.Game{}.Deck(g)
				if err != nil {
					t.Fatal(err)
				}
				deal := slices.Clone(deck)
				deal[len(deal)-1] = deal[0]
				return refusedRoster(t, "refused-fixed-deal", mascarade.Game{}, vecNames, g, table.Options{PublishKeys: true, Deal: deal})
			},
		},
		{
			want: vectorCase{File: "refused-mascarade-bank-cards.masque", Game: mascarade.GameName, Exit: exitFault, DealSource: dealCoins,
				Description: "a 4-seat Mascarade roster every seat signed whose options' set (Judge, Bishop, Thief, Witch, Spy, Cheat) " +
					"holds no card that brings coins from the bank: 3 × 0 < 6 breaks protocol §13.1's bank-card rule, and the roster " +
					"is refused without a fault."},
			build: func(t *testing.T) ([]byte, int) {
				// version 1, 4 names, 6 coins, 2 centre cards, the set.
				g := []byte{1, 4}
				for _, n := range vecNames {
					g = append(g, byte(len(n)))
					g = append(g, n...)
				}
				g = append(g, 6, 2, 6, 1, 2, 6, 7, 8, 10)
				return refusedRoster(t, "refused-bank-cards", mascarade.Game{}, vecNames, g, table.Options{PublishKeys: true})
			},
		},
		{
			want: vectorCase{File: "refused-grimm-fixed-mask.masque", Game: grimm.GameName, Exit: exitFault, DealSource: dealShuffle,
				Description: "a 3-seat Grimm roster every seat signed whose options fix round 1's actions with the mask 4, without " +
					"the required bit 16 (protocol §2.2.2): the options do not decode and the roster is refused without a fault."},
			build: func(t *testing.T) ([]byte, int) {
				names := []string{"Anna", "Boris", "Sasha"}
				o := grimm.Options{Players: names}
				o.Fixed[0] = &grimm.FixedRound{Actions: []grimm.Action{grimm.Eavesdrop, grimm.Toast}, First: -1}
				g, err := o.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				// version, players, names, flags, 16 charm bytes: then round 1's mask.
				at := 2 + 3 + len("AnnaBorisSasha") + 1 + 16
				if g[at] != 16|4 {
					t.Fatalf("round 1's mask is %#x at %d", g[at], at)
				}
				g[at] = 4
				return refusedRoster(t, "refused-grimm-mask", grimm.Game{}, names, g, table.Options{PublishKeys: true})
			},
		},
	}
}
