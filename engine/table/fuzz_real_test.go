package table_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/grimm"
	grimmbot "github.com/masque-games/masque/engine/grimm/bot"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/mafia"
	mafiabot "github.com/masque-games/masque/engine/mafia/bot"
	"github.com/masque-games/masque/engine/table"
)

// FuzzApplyMafia offers an arbitrary body, as the entry of the seat due,
// at every position of real Mafia games played through the real stack
// (engine/local: every seat its own keys and replica, every ballot, check
// and tag proven): the book's 5-player game (incident cards, a
// ricochet, an alibi, day votes, reveals of the eliminated, keys) and a
// 9-player bot game on a shuffled deal (the deal's shuffles, the
// recognition night, nights with the Commissar's check, the Nurse's save
// and the mafia's kill, day votes). The body reaches the table through
// ApplyVerified, the path p2p's room takes once it has checked the
// entry's signature. The body never panics the table; a refusal is a
// *table.Fault naming that seat and position for a known reason, leaves
// the table exactly as it was (position, state hash as stored and as
// recomputed, log, phase, pending requests, rules), and a table that
// refused a body beyond its decoding still accepts the honest entry and
// reaches the honest state hash.
func FuzzApplyMafia(f *testing.F) {
	src, err := os.ReadFile("../mafia/testdata/game-5.txt")
	if err != nil {
		f.Fatal(err)
	}
	book := scriptLog(f, mafia.Game{}, src)
	bots := cachedGame(f, "mafia-9-bots.transcript", mafia.Game{}.Table(), func(tb testing.TB) *ledger.Transcript {
		return mafiaBotLog(tb, 9, 1)
	})
	fuzzRealApply(f, mafia.Game{}.Table(), book, bots)
}

// FuzzApplyMafiaPlurality is FuzzApplyMafia at every position of the
// 12-seat vector game whose nights play the plurality kill (mental SPEC
// §9.9): the count lookups (body kind 11), the blind bodies of m steps
// (kind 10), the vote and kill-table mixes and their tests, offered
// arbitrary bodies as the seat due.
func FuzzApplyMafiaPlurality(f *testing.F) {
	fuzzRealApply(f, mafia.Game{}.Table(), pluralityLog(f))
}

// pluralityLog reads the vector transcript of a 12-seat Mafia game that
// plays the plurality kill.
func pluralityLog(tb testing.TB) *ledger.Transcript {
	tb.Helper()
	data, err := os.ReadFile("../../cmd/masque/testdata/vectors/honest-mafia-12-plurality.masque")
	if err != nil {
		tb.Fatal(err)
	}
	tr, err := ledger.UnmarshalTranscript(data)
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}

// FuzzApplyGrimm is FuzzApplyMafia for The Grimm Masquerade: the book's
// four scripted rounds (picks, keeps and gives of the exchange, hints,
// Mask off! guessed right and wrong, an eavesdrop's committed and opened
// guesses) and a 4-player bot game on a shuffled deal (its shuffles,
// private draws and re-shuffled hands).
func FuzzApplyGrimm(f *testing.F) {
	files, err := filepath.Glob("../grimm/testdata/book-*.txt")
	if err != nil || len(files) == 0 {
		f.Fatalf("the Grimm book scripts: %v", err)
	}
	var logs []*ledger.Transcript
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		logs = append(logs, scriptLog(f, grimm.Game{}, src))
	}
	logs = append(logs, cachedGame(f, "grimm-4-bots.transcript", grimm.Game{}.Table(), func(tb testing.TB) *ledger.Transcript {
		return grimmBotLog(tb, 4, 1)
	}))
	fuzzRealApply(f, grimm.Game{}.Table(), logs...)
}

// realGamesEnv, set to 1, rewrites the bot games' transcripts in
// testdata/realgames (after a change of the wire format or of the rules):
//
//	MASQUE_WRITE_REAL_GAMES=1 go test ./engine/table -run 'FuzzApply(Mafia|Grimm)'
const realGamesEnv = "MASQUE_WRITE_REAL_GAMES"

// cachedGame returns the bot game stored in testdata/realgames/name, or
// plays it when the file is missing or no longer replays (playing a
// 9-seat Mafia game takes seconds: every fuzz worker would play it).
func cachedGame(tb testing.TB, name string, game table.Game, play func(testing.TB) *ledger.Transcript) *ledger.Transcript {
	tb.Helper()
	file := filepath.Join("testdata", "realgames", name)
	write := os.Getenv(realGamesEnv) == "1"
	if !write {
		data, err := os.ReadFile(file)
		if err == nil {
			var tr *ledger.Transcript
			if tr, err = ledger.UnmarshalTranscript(data); err == nil {
				if _, err = table.Replay(tr, game); err == nil {
					return tr
				}
			}
		}
		tb.Logf("%s: %v; playing the game (%s=1 rewrites the file)", file, err, realGamesEnv)
	}
	tr := play(tb)
	if write {
		data, err := tr.MarshalBinary()
		if err == nil {
			if err = os.MkdirAll(filepath.Dir(file), 0o755); err == nil {
				err = os.WriteFile(file, data, 0o644)
			}
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	return tr
}

// scriptLog plays a script through the real stack and returns its
// transcript.
func scriptLog(tb testing.TB, g games.Rules, src []byte) *ledger.Transcript {
	tb.Helper()
	lt, err := localplay.Run(g, src, nil, true)
	if err != nil {
		tb.Fatal(err)
	}
	return lt.Transcript()
}

// mafiaBotLog plays a whole Mafia game of n bots (seeded) on a shuffled
// deal through the real stack and returns its transcript.
func mafiaBotLog(tb testing.TB, n int, seed uint64) *ledger.Transcript {
	tb.Helper()
	names := []string{"Anna", "Boris", "Clara", "Dima", "Egor", "Fedor", "Galya", "Igor", "Katya"}[:n]
	o := mafia.Options{Players: names}
	enc, err := o.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	lt, err := local.New(mafia.Game{}, names, table.Options{Game: enc, PublishKeys: true})
	if err != nil {
		tb.Fatal(err)
	}
	bots := make([]*mafiabot.Player, n)
	for i := range bots {
		b, err := mafiabot.NewBot(lt.View().Rules(), engine.Seat(i), seed+uint64(i))
		if err != nil {
			tb.Fatal(err)
		}
		bots[i] = b.(*mafiabot.Player)
	}
	for steps := 0; ; steps++ {
		seat, kind, ok := lt.View().Expect()
		if !ok {
			return lt.Transcript()
		}
		if steps > 5000 {
			tb.Fatal("the Mafia bots did not finish in 5000 steps")
		}
		st := lt.View().Rules().(*mafia.State)
		me := lt.Seats[seat]
		bots[seat].Learn(mafia.KnowledgeOf(st, me.Player, me.Replica))
		switch kind {
		case table.BodyMove:
			m, _, ok := bots[seat].Choose(st)
			if !ok {
				tb.Fatalf("seat %d has no move", seat)
			}
			err = lt.Move(seat, m, nil)
		case table.BodyActions:
			choices := map[uint8]engine.Seat{}
			for _, d := range me.Player.Decisions(me.Replica) {
				choices[d.Power] = bots[seat].NightChoice(st, d.Power, d.Targets)
			}
			err = lt.Actions(seat, choices)
		default:
			tb.Fatalf("the table waits for seat %d's %s entry, which no seat posts", seat, kind)
		}
		if err != nil {
			tb.Fatalf("step %d, seat %d: %v", steps, seat, err)
		}
	}
}

// grimmBotLog plays a whole Grimm game of n bots (seeded) on a shuffled
// deal through the real stack and returns its transcript.
func grimmBotLog(tb testing.TB, n int, seed uint64) *ledger.Transcript {
	tb.Helper()
	names := []string{"Anna", "Boris", "Sasha", "Dima", "Fedya"}[:n]
	enc, err := grimm.Options{Players: names}.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	lt, err := local.New(grimm.Game{}, names, table.Options{Game: enc, PublishKeys: true})
	if err != nil {
		tb.Fatal(err)
	}
	bots := make([]games.KnowingBot, n)
	for i := range bots {
		b, err := grimmbot.NewBot(lt.View().Rules(), engine.Seat(i), seed)
		if err != nil {
			tb.Fatal(err)
		}
		bots[i] = b.(games.KnowingBot)
	}
	for moves := 0; ; moves++ {
		seat, kind, ok := lt.View().Expect()
		if !ok {
			return lt.Transcript()
		}
		if moves > 5000 || kind != table.BodyMove {
			tb.Fatalf("the Grimm bots: move %d, the table waits for seat %d's %s entry", moves, seat, kind)
		}
		me := lt.Seats[seat]
		m, bits, ok := bots[seat].ChooseKnowing(lt.View().Rules(), me.Player.Known(me.Replica))
		if !ok {
			tb.Fatalf("seat %d has no move", seat)
		}
		if err := lt.Move(seat, m, bits); err != nil {
			tb.Fatalf("move %d: %v", moves, err)
		}
	}
}

// realPosition is a replica of one game at one position (kept as it
// is: each body goes to a fork of it), with the honest entry there and
// the state hash it leads to.
type realPosition struct {
	k      int  // entries applied
	seed   bool // a seed of the corpus
	t      *table.Table
	honest *ledger.Entry
	after  ledger.Hash
}

// tableSnapshot is everything a refused entry must leave as it was.
type tableSnapshot struct {
	pos                uint64
	stored, recomputed ledger.Hash
	log, completed     int
	phase              table.Phase
	pending, rules     string
	last               ledger.Hash
}

func snapshotOf(tb testing.TB, t *table.Table) tableSnapshot {
	s := tableSnapshot{pos: t.Pos(), stored: t.StateHash(), recomputed: table.RecomputeStateHash(t),
		log: t.Len(), completed: len(t.CompletedAll()), phase: t.Phase()}
	if r := t.Pending(); r != nil {
		s.pending = fmt.Sprintf("%+v", *r)
	}
	if rs := t.Rules(); rs != nil {
		enc, err := rs.AppendBinary(nil)
		if err != nil {
			tb.Fatalf("rules do not encode: %v", err)
		}
		s.rules = string(enc)
	}
	if e := t.Last(); e != nil {
		s.last = e.Hash()
	}
	return s
}

// decodingReasons are the faults found before a body reaches the rules
// and the proofs: nothing beyond decoding was touched.
var decodingReasons = map[string]bool{table.ReasonMalformedBody: true, table.ReasonWrongBodyKind: true}

// fuzzRealApply offers arbitrary bodies at every position of the games in
// logs. The seeds are the honest body and the next one at the first
// position of each kind of body (its first two bytes: a move's kind, a
// count of shares) and at every 16th position (CI fuzzes from the seeds:
// each costs proofs to check, and the many entries of one kind add
// little; every position is still reached through the index).
func fuzzRealApply(f *testing.F, game table.Game, logs ...*ledger.Transcript) {
	var positions []*realPosition
	for _, tr := range logs {
		run, err := table.New(tr.Roster, game)
		if err != nil {
			f.Fatal(err)
		}
		seen := map[[2]byte]bool{}
		for k, e := range tr.Entries {
			p := &realPosition{k: k, t: run.Fork(), honest: e}
			var kind [2]byte // the body's kind and its first byte after it
			copy(kind[:], e.Body)
			p.seed = k%16 == 0 || !seen[kind]
			seen[kind] = true
			if err := run.ApplyVerified(e); err != nil {
				f.Fatal(err)
			}
			p.after = run.StateHash()
			positions = append(positions, p)
		}
	}
	if len(positions) > 1<<16 {
		f.Fatalf("%d positions: the index is a uint16", len(positions))
	}
	for i, p := range positions {
		if !p.seed {
			continue
		}
		f.Add(uint16(i), p.honest.Body)
		if i+1 < len(positions) && positions[i+1].k == p.k+1 {
			f.Add(uint16(i), positions[i+1].honest.Body) // the next body, one step early
		}
	}
	f.Add(uint16(0), []byte{})
	f.Fuzz(func(t *testing.T, at uint16, body []byte) {
		p := positions[int(at)%len(positions)]
		tb := p.t.Fork()
		e := &ledger.Entry{Pos: p.honest.Pos, Seat: p.honest.Seat, Prev: p.honest.Prev, Body: body}
		before := snapshotOf(t, tb)
		err := tb.ApplyVerified(e)
		if err == nil {
			return
		}
		var fault *table.Fault
		if !errors.As(err, &fault) {
			t.Fatalf("position %d: not a *table.Fault: %v", p.k, err)
		}
		if fault.Seat != int(e.Seat) || fault.Pos != e.Pos {
			t.Fatalf("position %d: fault %v blames seat %d at %d, not the author %d", p.k, fault, fault.Seat, fault.Pos, e.Seat)
		}
		if !table.KnownReason(fault.Reason) {
			t.Fatalf("position %d: fault reason %q is not in table.Reasons()", p.k, fault.Reason)
		}
		if after := snapshotOf(t, tb); after != before {
			t.Fatalf("position %d: the refused body %x (%v) changed the table:\n%+v\n->\n%+v", p.k, body, fault, before, after)
		}
		if bytes.Equal(body, p.honest.Body) {
			t.Fatalf("position %d: the honest body is refused: %v", p.k, fault)
		}
		if decodingReasons[fault.Reason] {
			return
		}
		// The body reached the rules or the proofs: the honest entry must
		// still take the table to the honest state.
		if err := tb.ApplyVerified(p.honest); err != nil {
			t.Fatalf("position %d: after refusing %x (%v), the honest entry is refused: %v", p.k, body, fault, err)
		}
		if tb.StateHash() != p.after {
			t.Fatalf("position %d: after refusing %x (%v), the honest entry leads to another state", p.k, body, fault)
		}
	})
}
