package main

// The generator of the conformance vectors (see vectors_test.go). Honest
// games are played from scripts through the real stack ('masque script':
// engine/games/localplay); tampered ones are built on the table
// harness (engine/table/tabletest), whose seats' keys are in the test's
// hands, as in engine/table's adversary tests, or by re-signing an entry
// of a scripted game with its author's key. Every vector's expected
// verdict is written here by hand: nothing is copied from what verify
// says.
//
// crypto/rand is made deterministic for each vector (testing/cryptotest,
// seeded from the file name), so the same code makes the same bytes: the
// committed vectors are checked against a fresh build.

import (
	"bytes"
	"encoding"
	"hash/fnv"
	"slices"
	"testing"
	"testing/cryptotest"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/masquerade"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
	"github.com/masque-games/masque/mental"
	"github.com/masque-games/masque/p2p/lobby"
)

// vectorSpec is a vector to build and the verdict it must get.
type vectorSpec struct {
	want vectorCase
	// build returns the file and the number of entries verify reports
	// (0 when the file does not decode).
	build func(t *testing.T) ([]byte, int)
}

// buildVectors builds every vector: the files by name, and the manifest.
func buildVectors(t *testing.T) (map[string][]byte, *vectorManifest) {
	t.Helper()
	files := map[string][]byte{}
	m := &vectorManifest{Format: 1, Protocol: lobby.Version}
	for _, s := range slices.Concat(vectorSpecs(), grimmVectorSpecs(), mafiaVectorSpecs(), mafiaPathVectorSpecs(), mafiaAnswerVectorSpecs(), grimmPathVectorSpecs(), auditVectorSpecs()) {
		if _, dup := files[s.want.File]; dup {
			t.Fatalf("two vectors named %s", s.want.File)
		}
		t.Run(s.want.File, func(t *testing.T) {
			seedVectorRandom(t, s.want.File)
			data, entries := s.build(t)
			files[s.want.File] = data
			v := s.want
			v.Entries = entries
			m.Vectors = append(m.Vectors, v)
		})
	}
	if t.Failed() {
		t.FailNow()
	}
	return files, m
}

// The scripted honest games.
const (
	scriptM1Fixed = `game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Widow,Judge,King,Bishop,Thief coins=1
Anna swap Boris yes
Boris swap center1 no
Sasha swap Dima yes
Dima swap Anna no
Anna claim Widow
Boris challenge
`
	scriptM1Coins = `game mascarade players=Anna,Boris,Sasha,Dima coins=10
Anna swap Boris yes
Boris swap Sasha no
Sasha swap Dima yes
Dima swap center1 no
Anna peek
Boris claim King
`
	scriptM1Unfinished = `game mascarade players=Anna,Boris,Sasha,Dima,Egor
Anna swap Boris yes
Boris swap Sasha no
Sasha swap Dima yes
Dima swap Egor no
Egor swap Anna yes
Anna peek
Boris claim Queen
Sasha challenge
`
	scriptM2Fixed = replayScript2 // the replay tests' 2nd-edition game
	scriptM2Coins = `game mascarade2 players=Anna,Boris,Sasha,Dima coins=11
Anna swap Boris yes
Boris swap Sasha no
Sasha swap Dima yes
Dima swap Anna no
Anna peek
Boris claim King
`
	// scriptM1Three is the 3-player variant (two cards each, left and
	// right): own-card swaps, claims and challenges naming a card, the Fool
	// between two opponents, a Spy who challenged with her right card.
	scriptM1Three = `game mascarade players=Anna,Boris,Sasha deal=King,Queen,Judge,Spy,Fool,Bishop coins=8
Anna swap Anna.left Anna.right yes
Boris swap Boris.right Sasha.left no
Sasha swap Sasha.right Sasha.left no
Anna swap Anna.right Boris.left yes
Boris peek Boris.left
Sasha claim Fool with=Sasha.left
Sasha use between=Anna.right,Boris.left swap=yes
Anna claim Spy with=Anna.left
Boris challenge with=Boris.right
Boris use with=Sasha.right swap=yes
Boris swap Boris.right Boris.left yes
Sasha claim King with=Sasha.right
Anna challenge with=Anna.right
Anna swap Anna.left Sasha.left no
Boris claim Judge with=Boris.right
Sasha claim King with=Sasha.left
Anna claim King with=Anna.right
`
	// scriptM1Two is the 2-player variant (three cards each, the third a
	// guard): the guard swapped with the opponent's card and with one's
	// own, a challenge with the guard, the Fool between the opponent's two
	// cards, the Thief taking once from the one opponent.
	scriptM1Two = `game mascarade players=Anna,Boris deal=King,Thief,Judge,Witch,Fool,Bishop coins=5
Anna swap Anna.guard Boris.left yes
Boris swap Boris.guard Boris.right yes
Anna swap Anna.left Anna.right no
Boris swap Boris.left Anna.right no
Anna peek Anna.guard
Boris claim Bishop with=Boris.right
Anna challenge with=Anna.guard
Anna swap Anna.guard Anna.left yes
Boris claim Fool with=Boris.left
Boris use between=Anna.left,Anna.right swap=no
Anna claim Thief with=Anna.right
Boris peek Boris.guard
Anna claim Witch with=Anna.left
Anna use target=Boris
Boris claim King with=Boris.left
Anna challenge with=Anna.guard
Anna swap Anna.right Boris.right no
Boris peek Boris.left
Anna claim King with=Anna.left
`
	// scriptM2Opening is where the mascarade2 rule break happens.
	scriptM2Opening = `game mascarade2 players=Anna,Boris,Sasha,Dima coins=11
Anna swap Boris yes
`
)

func vectorSpecs() []vectorSpec {
	honest := func(file, game, desc, script string, keys, complete bool, deal string) vectorSpec {
		return vectorSpec{
			want: vectorCase{File: file, Game: game, Description: desc, Script: script, Valid: true,
				Complete: complete, DealSource: deal, KeysPublished: keys},
			build: func(t *testing.T) ([]byte, int) {
				return encodeTranscript(t, playScript(t, game, script, keys).Transcript())
			},
		}
	}
	// fault is a tampered vector rejected with a fault.
	fault := func(file, game, desc string, exit int, pos uint64, seat int, reason, deal string, build func(t *testing.T) ([]byte, int)) vectorSpec {
		return vectorSpec{
			want: vectorCase{File: file, Game: game, Description: desc, Exit: exit, DealSource: deal,
				Fault: &vectorFault{Position: pos, Seat: seat, Reason: reason}},
			build: build,
		}
	}
	const m1, m2 = mascarade.GameName, mascarade2.GameName
	return []vectorSpec{
		// ---- Honest games ----
		honest("honest-mascarade-4-fixed.masque", m1,
			"Mascarade, 4 players, deal fixed in the roster, 1 coin each: two real and two pretended swaps, "+
				"Anna claims the Widow, Boris challenges (a public reveal of two cards), Boris's last coin ends the game; keys published.",
			scriptM1Fixed, true, true, dealFixed),
		honest("honest-mascarade-4-coins.masque", m1,
			"Mascarade, 4 players, dealt from the seats' coins, 10 coins each: four swaps, Anna peeks (shares encrypted to her viewing key), "+
				"Boris claims the King unchallenged and wins with 13; keys published.",
			scriptM1Coins, true, true, dealCoins),
		honest("honest-mascarade-5-unfinished.masque", m1,
			"Mascarade, 5 players, dealt from coins, keys not published: five swaps, a peek, Boris claims the Queen and Sasha challenges; "+
				"the transcript stops with the game going on.",
			scriptM1Unfinished, false, false, dealCoins),
		honest("honest-mascarade-3-fixed.masque", m1,
			"Mascarade, 3-player variant (two cards each, left and right), deal fixed in the roster, 8 coins each: swaps of a player's "+
				"own two cards, claims and challenges naming the card (with=), the Fool between two opponents' cards, a Spy who challenged "+
				"with her right card looks at it and another and swaps, Anna's King ends it; keys published.",
			scriptM1Three, true, true, dealFixed),
		honest("honest-mascarade-2-fixed.masque", m1,
			"Mascarade, 2-player variant (three cards each: left, right and a guard), deal fixed in the roster, 5 coins each: "+
				"the guard swapped with the opponent's card and with one's own, a challenge with the guard, the Bishop, the Fool "+
				"between the opponent's two cards, the Thief taking once from the one opponent, the Witch, Anna's King ends it; keys published.",
			scriptM1Two, true, true, dealFixed),
		honest("honest-mascarade2-6-fixed.masque", m2,
			"Mascarade 2nd edition, 6 players, deal fixed in the roster, 2 coins each: swaps, peeks, the Princess shows Dima's card "+
				"to everyone but Dima (encrypted shares to several viewers), the Puppeteer, a challenge that ends the game; keys published.",
			scriptM2Fixed, true, true, dealFixed),
		honest("honest-mascarade2-4-coins.masque", m2,
			"Mascarade 2nd edition, 4 players, dealt from coins, 11 coins each: four swaps, a peek, Boris claims the King unchallenged "+
				"and wins with 13; keys published.",
			scriptM2Coins, true, true, dealCoins),

		// ---- Damaged files: nobody is blamed ----
		{
			want: vectorCase{File: "damaged-truncated.masque", Game: m1, Exit: exitDamaged,
				Description: "honest-looking transcript of two swaps cut 100 bytes before its end, in the middle of the last entry: " +
					"not a whole transcript."},
			build: func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "truncated", 0, true)
				h.Move(0, mascarade.KindSwap, []int{0, 1}, true)
				h.Move(1, mascarade.KindSwap, []int{1, 2}, false)
				data, _ := encodeTranscript(t, h.Transcript())
				return data[:len(data)-100], 0
			},
		},
		{
			want: vectorCase{File: "damaged-roster-signature.masque", Game: m1, Exit: exitDamaged,
				Description: "the roster signature of seat 2 (Clara) has one bit flipped: the file does not hold a roster every seat signed."},
			build: func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "roster-signature", 0, true)
				h.Move(0, mascarade.KindSwap, []int{0, 1}, true)
				tr := h.Transcript()
				tr.RosterSigs[2][7] ^= 0x10
				data, _ := encodeTranscript(t, tr)
				return data, 0
			},
		},
		fault("damaged-bad-signature.masque", m1,
			"two swaps; one bit of the second entry's signature is flipped in the file: no roster key signed it, "+
				"so the entry's claimed author (Boris) is not blamed.",
			exitDamaged, 1, 1, table.ReasonBadSignature, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "bad-signature", 0, true)
				h.Move(0, mascarade.KindSwap, []int{0, 1}, true)
				e := h.Entry(1, h.Encode(h.MoveBody(1, vecMove(1, mascarade.KindSwap, 1, 2), false)))
				data, n := encodeTranscript(t, h.Transcript(e))
				data[len(data)-64+9] ^= 0x01 // the last entry's signature ends the file
				return data, n
			}),
		fault("damaged-unknown-seat.masque", m1,
			"the first entry names seat 4 of a 4-seat table (signed with seat 0's key): no such seat, nobody is blamed.",
			exitDamaged, 0, 4, table.ReasonUnknownSeat, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "unknown-seat", 0, true)
				b := h.Encode(h.MoveBody(0, vecMove(0, mascarade.KindSwap, 0, 1), true))
				return encodeTranscript(t, h.Transcript(h.Sign(0, 0, 4, h.Prev(), b)))
			}),

		// ---- A roster naming no game of the protocol: refused, nobody blamed ----
		{
			want: vectorCase{File: "refused-unknown-game.masque", Game: "chess", Exit: exitFault,
				Description: "a 4-seat roster every seat signed whose game is \"chess\", not one of the protocol's four games " +
					"(docs/protocol.md §2.4), followed by one entry (Anna's swap of a Mascarade table, signed under the game id " +
					"of the roster before its game was renamed): refused without a fault, no entry checked."},
			build: func(t *testing.T) ([]byte, int) {
				const seed = "unknown-game"
				h := vecTable(t, seed, 0, true)
				h.Move(0, mascarade.KindSwap, []int{0, 1}, true)
				tr := h.Transcript()
				tr.Roster.Game = "chess"
				sigs, err := tabletest.SignRoster(tr.Roster, tabletest.SeatKeys(seed, vecNames))
				if err != nil {
					t.Fatal(err)
				}
				tr.RosterSigs = sigs
				return encodeTranscript(t, tr)
			},
		},

		// ---- Entries: authorship, position, chain, turn ----
		fault("tampered-signed-by-another-seat.masque", m1,
			"the first entry names Anna (seat 0) as its author but is signed with Boris's key (seat 1): Boris forged it.",
			exitFault, 0, 1, table.ReasonSignedByAnotherSeat, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "signed-by-another-seat", 0, true)
				b := h.Encode(h.MoveBody(0, vecMove(0, mascarade.KindSwap, 0, 1), true))
				return encodeTranscript(t, h.Transcript(h.Sign(1, 0, 0, h.Prev(), b)))
			}),
		fault("tampered-wrong-position.masque", m1,
			"Anna's swap, then Boris's swap signed at position 2 where position 1 is due.",
			exitFault, 2, 1, table.ReasonWrongPosition, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "wrong-position", 0, true)
				h.Move(0, mascarade.KindSwap, []int{0, 1}, true)
				b := h.Encode(h.MoveBody(1, vecMove(1, mascarade.KindSwap, 1, 2), false))
				return encodeTranscript(t, h.Transcript(h.Sign(1, 2, 1, h.Prev(), b)))
			}),
		fault("tampered-wrong-previous-hash.masque", m1,
			"Anna's swap, then Boris's swap at position 1 naming the game id as its previous hash (the chain's start) "+
				"instead of the hash of entry 0.",
			exitFault, 1, 1, table.ReasonWrongPreviousHash, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "wrong-previous-hash", 0, true)
				h.Move(0, mascarade.KindSwap, []int{0, 1}, true)
				b := h.Encode(h.MoveBody(1, vecMove(1, mascarade.KindSwap, 1, 2), false))
				return encodeTranscript(t, h.Transcript(h.Sign(1, 1, 1, h.GameID(), b)))
			}),
		fault("tampered-not-your-turn.masque", m1,
			"the first entry is Boris's (seat 1) when Anna (seat 0) must make the first move.",
			exitFault, 0, 1, table.ReasonNotYourTurn, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "not-your-turn", 0, true)
				b := h.Encode(h.MoveBody(0, vecMove(0, mascarade.KindSwap, 0, 1), true))
				return encodeTranscript(t, h.Transcript(h.Sign(1, 0, 1, h.Prev(), b)))
			}),
		fault("tampered-log-closed.masque", m1,
			"a whole game (12 coins each; four pretended swaps, Anna claims the King unchallenged and wins; every key published), "+
				"then Anna publishes her key again: nothing may follow.",
			exitFault, 12, 0, table.ReasonLogClosed, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := finishedTable(t, "log-closed")
				h.Auto()
				key := h.Encode(&table.Body{Kind: table.BodyKey, Key: h.Seats[0].Card.Bytes()})
				return encodeTranscript(t, h.Transcript(h.Sign(0, h.View().Pos(), 0, h.Prev(), key)))
			}),

		// ---- Bodies ----
		fault("tampered-malformed-point.masque", m1,
			"Anna's first swap with the first output card's A point replaced by 32 bytes 0xff, not a canonical ristretto255 encoding.",
			exitFault, 0, 0, table.ReasonMalformedBody, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "malformed-point", 0, true)
				b := h.Encode(h.MoveBody(0, vecMove(0, mascarade.KindSwap, 0, 1), true))
				// kind, move kind, 2 args (4 bytes each), swap count, then the
				// first card: width byte, A, B.
				copy(b[13:], bytes.Repeat([]byte{0xff}, 32))
				return encodeTranscript(t, h.Transcript(h.Entry(0, b)))
			}),
		fault("tampered-malformed-scalar.masque", m1,
			"Anna's first swap with the swap proof's last response replaced by 32 bytes 0xff, a scalar not below the group order.",
			exitFault, 0, 0, table.ReasonMalformedBody, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "malformed-scalar", 0, true)
				b := h.Encode(h.MoveBody(0, vecMove(0, mascarade.KindSwap, 0, 1), true))
				copy(b[len(b)-32:], bytes.Repeat([]byte{0xff}, 32))
				return encodeTranscript(t, h.Transcript(h.Entry(0, b)))
			}),
		fault("tampered-wrong-body-kind.masque", m1,
			"the first entry, where Anna's move is due, is a key body (her secret card key).",
			exitFault, 0, 0, table.ReasonWrongBodyKind, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "wrong-body-kind", 0, true)
				b := h.Encode(&table.Body{Kind: table.BodyKey, Key: h.Seats[0].Card.Bytes()})
				return encodeTranscript(t, h.Transcript(h.Entry(0, b)))
			}),
		fault("tampered-rule-not-your-slot.masque", m1,
			"four pretended swaps, then Anna asks to peek at slot 1 (Boris's card), not her own.",
			exitFault, 4, 0, table.ReasonRulePrefix+masquerade.RuleNotYourSlot, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "rule-not-your-slot", 0, true)
				vecPrepared(h)
				b := h.Encode(&table.Body{Kind: table.BodyMove, Move: engine.Move{Kind: mascarade.KindPeek, Args: []int{1}}})
				return encodeTranscript(t, h.Transcript(h.Entry(0, b)))
			}),
		{
			want: vectorCase{File: "tampered-mascarade2-rule-preparatory.masque", Game: m2, Exit: exitFault, DealSource: dealCoins,
				Description: "Mascarade 2nd edition, 4 players dealt from coins: after Anna's opening swap, Boris claims the King " +
					"during the preparatory turns, where only swaps are allowed.",
				Script: scriptM2Opening,
				Fault:  &vectorFault{Position: 9, Seat: 1, Reason: table.ReasonRulePrefix + masquerade.RulePreparatory}},
			build: func(t *testing.T) ([]byte, int) {
				lt := playScript(t, m2, scriptM2Opening, true)
				st, _ := lt.View().Rules().(*mascarade2.State)
				m, _, err := mascarade2.ParseMove(st, "Boris", []string{"claim", "King"})
				if err != nil {
					t.Fatal(err)
				}
				tr := lt.Transcript()
				tr.Entries = append(tr.Entries, resign(t, lt, tr, len(tr.Entries), 1, &table.Body{Kind: table.BodyMove, Move: m}))
				return encodeTranscript(t, tr)
			},
		},

		// ---- Swaps ----
		fault("tampered-bad-swap-proof.masque", m1,
			"Anna's first swap (a real exchange) with its two output cards in the other order: both are valid cards, "+
				"the proof is for the order given first.",
			exitFault, 0, 0, table.ReasonBadSwapProof, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "bad-swap-proof", 0, true)
				b := h.MoveBody(0, vecMove(0, mascarade.KindSwap, 0, 1), true)
				b.Swaps[0].Out0, b.Swaps[0].Out1 = b.Swaps[0].Out1, b.Swaps[0].Out0
				return encodeTranscript(t, h.Transcript(h.Entry(0, h.Encode(b))))
			}),
		fault("tampered-swap-count.masque", m1,
			"Anna's first swap without its swap payload (swap count 0 where the move causes one hidden swap).",
			exitFault, 0, 0, table.ReasonSwapCount, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "swap-count", 0, true)
				b := h.MoveBody(0, vecMove(0, mascarade.KindSwap, 0, 1), false)
				b.Swaps = nil
				return encodeTranscript(t, h.Transcript(h.Entry(0, h.Encode(b))))
			}),

		// ---- Shares ----
		fault("tampered-bad-share.masque", m1,
			"four pretended swaps, Anna claims the King, Boris challenges, Clara and Dmitri pass: slots 0 and 1 are revealed; "+
				"Anna's public shares come in the wrong slot order.",
			exitFault, 8, 0, table.ReasonBadShare, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "bad-share", 0, true)
				vecPrepared(h)
				h.Move(0, mascarade.KindClaim, []int{int(mascarade.King), 0})
				h.Move(1, mascarade.KindChallenge, []int{1})
				h.Move(2, mascarade.KindPass, nil)
				h.Play(3, mascarade.KindPass, nil)
				seat, b := h.AutoBody()
				if seat != 0 || len(b.Shares) != 2 {
					t.Fatalf("seat %d owes %d shares, want seat 0 and 2", seat, len(b.Shares))
				}
				b.Shares[0], b.Shares[1] = b.Shares[1], b.Shares[0]
				return encodeTranscript(t, h.Transcript(h.Entry(0, h.Encode(b))))
			}),
		fault("tampered-bad-encrypted-share.masque", m1,
			"four pretended swaps, Anna peeks: Boris's share of her card, encrypted to her viewing key, is made with Clara's card key.",
			exitFault, 5, 1, table.ReasonBadShare, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "bad-encrypted-share", 0, true)
				vecPrepared(h)
				h.Play(0, mascarade.KindPeek, []int{0})
				v := h.View()
				es, err := h.Seats[2].Card.EncryptShare(v.ShareContext(v.Pos(), 1), v.Pending().Cards[0], v.ViewingKey(0))
				if err != nil {
					t.Fatal(err)
				}
				b := h.Encode(&table.Body{Kind: table.BodyShares, EncShares: []*mental.EncryptedShare{es}})
				return encodeTranscript(t, h.Transcript(h.Entry(1, b)))
			}),
		fault("tampered-share-count.masque", m1,
			"four pretended swaps, Anna peeks: Boris posts a public share of her card where one encrypted to her viewing key is due.",
			exitFault, 5, 1, table.ReasonShareCount, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "share-count", 0, true)
				vecPrepared(h)
				h.Play(0, mascarade.KindPeek, []int{0})
				v := h.View()
				sh, err := h.Seats[1].Card.Share(v.ShareContext(v.Pos(), 1), v.Pending().Cards[0])
				if err != nil {
					t.Fatal(err)
				}
				b := h.Encode(&table.Body{Kind: table.BodyShares, Shares: []*mental.Share{sh}})
				return encodeTranscript(t, h.Transcript(h.Entry(1, b)))
			}),
		{
			want: vectorCase{File: "tampered-mascarade2-show-others-order.masque", Game: m2, Exit: exitFault, DealSource: dealFixed,
				Description: "the honest 2nd-edition game of honest-mascarade2-6-fixed.masque up to the Princess showing Dima's card " +
					"to everyone but Dima: the first seat's encrypted shares name their recipients in the wrong order " +
					"(the first two swapped).",
				Script: scriptM2Fixed,
				Fault:  &vectorFault{Position: 29, Seat: 0, Reason: table.ReasonBadShare}},
			build: func(t *testing.T) ([]byte, int) {
				lt := playScript(t, m2, scriptM2Fixed, true)
				tr := lt.Transcript()
				k, seat, b := firstShowOthersShares(t, tr)
				if len(b.EncShares) < 2 {
					t.Fatalf("the shares at %d carry %d encrypted shares", k, len(b.EncShares))
				}
				b.EncShares[0], b.EncShares[1] = b.EncShares[1], b.EncShares[0]
				e := resign(t, lt, tr, k, seat, b)
				return encodeTranscript(t, &ledger.Transcript{Roster: tr.Roster, RosterSigs: tr.RosterSigs,
					Entries: append(tr.Entries[:k:k], e)})
			},
		},

		// ---- Coins and keys ----
		fault("tampered-coin-mismatch.masque", m1,
			"a table dealt from coins: the four commitments, then Anna reveals the all-zero coin, not the one she committed to.",
			exitFault, 4, 0, table.ReasonCoinMismatch, dealCoins,
			func(t *testing.T) ([]byte, int) {
				h := vecTable(t, "coin-mismatch", 0, false)
				for range 4 {
					seat, b := h.AutoBody()
					h.Publish(h.Entry(seat, h.Encode(b)))
				}
				b := h.Encode(&table.Body{Kind: table.BodyReveal})
				return encodeTranscript(t, h.Transcript(h.Entry(0, b)))
			}),
		fault("tampered-key-mismatch.masque", m1,
			"a whole game (12 coins each; four pretended swaps, Anna claims the King unchallenged and wins), "+
				"then Anna publishes Boris's secret card key as hers.",
			exitFault, 8, 0, table.ReasonKeyMismatch, dealFixed,
			func(t *testing.T) ([]byte, int) {
				h := finishedTable(t, "key-mismatch")
				b := h.Encode(&table.Body{Kind: table.BodyKey, Key: h.Seats[1].Card.Bytes()})
				return encodeTranscript(t, h.Transcript(h.Entry(0, b)))
			}),
		{
			want: vectorCase{File: "tampered-roster-key-proof.masque", Game: m1, Exit: exitFault, DealSource: dealCoins,
				Description: "a roster every seat signed in which Dmitri's card key (seat 3) is proven under seat 1's key context: " +
					"the key proof does not verify, the roster is refused before any entry, blaming seat 3.",
				Fault: &vectorFault{Seat: 3, Reason: table.ReasonBadSeatKeys, Roster: true},
			},
			build: func(t *testing.T) ([]byte, int) {
				g := vecGameOptions(t, 0)
				keys := tabletest.SeatKeys("roster-key-proof", vecNames)
				tid := tabletest.TableID("roster-key-proof")
				r, _, err := tabletest.Roster(mascarade.Game{}, tid, keys, table.Options{Game: g, PublishKeys: true})
				if err != nil {
					t.Fatal(err)
				}
				r.Seats[3].Keys = keys[3].Secrets().PublicKeys(tid, 1, r.Seats[3].PeerID)
				sigs, err := tabletest.SignRoster(r, keys)
				if err != nil {
					t.Fatal(err)
				}
				return encodeTranscript(t, &ledger.Transcript{Roster: r, RosterSigs: sigs})
			},
		},
	}
}

// vecNames are the seats of the harness tables.
var vecNames = []string{"Anna", "Boris", "Clara", "Dmitri"}

func vecGameOptions(t *testing.T, coins int) []byte {
	t.Helper()
	g, err := mascarade.Options{Players: vecNames, Coins: coins}.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// vecTable is a 4-seat Mascarade table on the harness, keys published at
// the end, with coins coins each (0: the default). fixed deals the
// recommended set face up in its canonical order (Judge, Bishop, King,
// Queen to the seats; Witch and Cheat in the centre); otherwise the deal
// coins come first and the log is empty.
func vecTable(t *testing.T, seed string, coins int, fixed bool) *tabletest.Harness {
	t.Helper()
	g := vecGameOptions(t, coins)
	opts := table.Options{Game: g, PublishKeys: true}
	if !fixed {
		return tabletest.NewManual(t, mascarade.Game{}, seed, vecNames, opts)
	}
	deck, err := mascarade.Game{}.Deck(g)
	if err != nil {
		t.Fatal(err)
	}
	opts.Deal = deck
	return tabletest.New(t, mascarade.Game{}, seed, vecNames, opts)
}

// vecPrepared plays the four preparatory turns: every seat pretends to
// swap its card with the next seat's.
func vecPrepared(h *tabletest.Harness) {
	for i := range 4 {
		h.Move(i, mascarade.KindSwap, []int{i, (i + 1) % 4}, false)
	}
}

// finishedTable is a game with 12 coins each that Anna wins by claiming
// the King unchallenged after the preparatory turns: the key publication
// is due (position 8, Anna first).
func finishedTable(t *testing.T, seed string) *tabletest.Harness {
	t.Helper()
	h := vecTable(t, seed, 12, true)
	vecPrepared(h)
	h.Move(0, mascarade.KindClaim, []int{int(mascarade.King), 0})
	h.Move(1, mascarade.KindPass, nil)
	h.Move(2, mascarade.KindPass, nil)
	h.Play(3, mascarade.KindPass, nil)
	if h.View().Phase() != table.PhaseKeys {
		t.Fatalf("phase %v after the winning claim, want the keys", h.View().Phase())
	}
	return h
}

func vecMove(seat int, kind uint8, args ...int) engine.Move {
	return engine.Move{Seat: engine.Seat(seat), Kind: kind, Args: args}
}

// playScript plays a script of game through the real stack, as 'masque
// script' does.
func playScript(t *testing.T, game, src string, keys bool) *local.Table {
	t.Helper()
	var lt *local.Table
	var err error
	switch game {
	case mascarade.GameName:
		lt, err = localplay.Run(mascarade.Game{}, []byte(src), nil, keys)
	case mascarade2.GameName:
		lt, err = localplay.Run(mascarade2.Game{}, []byte(src), nil, keys)
	case grimm.GameName:
		lt, err = localplay.Run(grimm.Game{}, []byte(src), nil, keys)
	case mafia.GameName:
		lt, err = localplay.Run(mafia.Game{}, []byte(src), nil, keys)
	default:
		t.Fatalf("no script player for %q", game)
	}
	if err != nil {
		t.Fatalf("script: %v", err)
	}
	return lt
}

// resign returns body as the entry at position k of tr, after tr's first k
// entries, signed by seat's own key (held by its player in lt).
func resign(t *testing.T, lt *local.Table, tr *ledger.Transcript, k, seat int, body *table.Body) *ledger.Entry {
	t.Helper()
	rt, err := table.Replay(&ledger.Transcript{Roster: tr.Roster, RosterSigs: tr.RosterSigs, Entries: tr.Entries[:k:k]}, gameOf(t, tr))
	if err != nil {
		t.Fatalf("replaying the first %d entries: %v", k, err)
	}
	e, err := lt.Seats[seat].Player.Entry(rt, body)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// firstShowOthersShares finds the first shares entry of tr that fills a
// show-to-all-but-the-owner request: its position, author and body.
func firstShowOthersShares(t *testing.T, tr *ledger.Transcript) (int, int, *table.Body) {
	t.Helper()
	rt, err := table.New(tr.Roster, gameOf(t, tr))
	if err != nil {
		t.Fatal(err)
	}
	for k, e := range tr.Entries {
		if r := rt.Pending(); r != nil && r.Kind == engine.EffectShowOthers {
			b, err := table.UnmarshalBody(e.Body, 1)
			if err != nil {
				t.Fatal(err)
			}
			return k, int(e.Seat), b
		}
		if err := rt.Apply(e); err != nil {
			t.Fatalf("entry %d: %v", k, err)
		}
	}
	t.Fatal("no show-others request in the transcript")
	return 0, 0, nil
}

func gameOf(t *testing.T, tr *ledger.Transcript) table.Game {
	t.Helper()
	g, err := newApp(nil, nil, nil).games.Lookup(tr.Roster.Game)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// encodeTranscript returns tr's file encoding and its entry count.
func encodeTranscript(t *testing.T, tr *ledger.Transcript) ([]byte, int) {
	t.Helper()
	data, err := tr.MarshalBinary()
	if err != nil {
		t.Fatalf("encoding the transcript: %v", err)
	}
	return data, len(tr.Entries)
}

// seedVectorRandom resets crypto/rand, for the rest of t, to a stream
// given by the vector file's name.
func seedVectorRandom(t *testing.T, file string) {
	h := fnv.New64a()
	h.Write([]byte(file))
	cryptotest.SetGlobalRandom(t, h.Sum64())
}

// vectorTable is a table of game for players through the real stack,
// keys published, its options o, with crypto/rand reset to file's
// stream first (seedVectorRandom).
func vectorTable(t *testing.T, file string, game table.Game, players []string, o encoding.BinaryMarshaler) *local.Table {
	t.Helper()
	seedVectorRandom(t, file)
	enc, err := o.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	lt, err := local.New(game, players, table.Options{Game: enc, PublishKeys: true})
	if err != nil {
		t.Fatal(err)
	}
	return lt
}
