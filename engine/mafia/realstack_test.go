package mafia_test

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/gametest"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/mafia/bot"
	"github.com/masque-games/masque/engine/table"
)

// realGame plays a whole bot game through the real stack: every seat a
// table.Player with its own keys, every entry signed, encoded, decoded
// and applied by every replica, every night's ballots and checks proven.
func realGame(tb testing.TB, o mafia.Options, seed uint64) *local.Table {
	tb.Helper()
	enc, err := o.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	lt, err := local.New(mafia.Game{}, o.Players, table.Options{Game: enc, PublishKeys: true})
	if err != nil {
		tb.Fatalf("seating: %v", err)
	}
	bots := make([]*bot.Player, len(o.Players))
	for i := range bots {
		b, err := bot.NewBot(lt.View().Rules(), engine.Seat(i), seed+uint64(i))
		if err != nil {
			tb.Fatal(err)
		}
		bots[i] = b.(*bot.Player)
	}
	var know []*mafia.Knowledge
	for steps := 0; ; steps++ {
		if steps > 5000 {
			tb.Fatal("the bots did not finish in 5000 steps")
		}
		seat, kind, ok := lt.View().Expect()
		if !ok {
			break
		}
		st := lt.View().Rules().(*mafia.State)
		me := lt.Seats[seat]
		bots[seat].Learn(mafia.KnowledgeOf(st, me.Player, me.Replica))
		know = append(know[:0], nil)
		for _, s := range lt.Seats {
			know = append(know, mafia.KnowledgeOf(st, s.Player, s.Replica))
		}
		switch kind {
		case table.BodyMove:
			m, _, ok := bots[seat].Choose(st)
			if !ok {
				tb.Fatalf("seat %d has no move", seat)
			}
			if err := lt.Move(seat, m, nil); err != nil {
				tb.Fatalf("step %d, seat %d's move %s: %v", steps, seat, mafia.FormatMove(st, m), err)
			}
		case table.BodyActions:
			choices := map[uint8]engine.Seat{}
			for _, d := range me.Player.Decisions(me.Replica) {
				choices[d.Power] = bots[seat].NightChoice(st, d.Power, d.Targets)
			}
			if err := lt.Actions(seat, choices); err != nil {
				tb.Fatalf("step %d, seat %d's night actions %v: %v", steps, seat, choices, err)
			}
		default:
			tb.Fatalf("the table waits for seat %d's %s entry, which no seat posts", seat, kind)
		}
	}
	checkKnowledge(tb, lt, know[1:])
	return lt
}

// checkKnowledge checks what each seat knew just before the last entry
// against the roles the end of the game reveals: its own role; mates
// recognised exactly among the mafia (the Madman once he joined); true
// answers to the Commissar's checks.
func checkKnowledge(tb testing.TB, lt *local.Table, know []*mafia.Knowledge) {
	tb.Helper()
	st := lt.View().Rules().(*mafia.State)
	role := make([]engine.Card, len(lt.Seats))
	for p := range role {
		r, ok := st.Revealed(engine.Seat(p))
		if !ok {
			tb.Fatalf("seat %d's role is not revealed at the end", p)
		}
		role[p] = r
	}
	checks := 0
	for p, k := range know {
		if k.Role != role[p] {
			tb.Fatalf("seat %d knew its role as %s, the end reveals %s", p, mafia.CardName(k.Role), mafia.CardName(role[p]))
		}
		mafiaNow := func(r engine.Card) bool {
			return r == mafia.Don || r == mafia.Mafioso || (r == mafia.Madman && st.Joined())
		}
		for _, q := range k.Mates {
			if !mafiaNow(role[p]) || !mafiaNow(role[q]) {
				tb.Fatalf("seat %d (%s) recognised seat %d (%s) as a mate", p, mafia.CardName(role[p]), q, mafia.CardName(role[q]))
			}
		}
		if role[p] == mafia.Don || role[p] == mafia.Mafioso {
			for q, r := range role {
				if q != p && (r == mafia.Don || r == mafia.Mafioso) && !slices.Contains(k.Mates, engine.Seat(q)) {
					tb.Fatalf("seat %d (%s) did not recognise seat %d (%s)", p, mafia.CardName(role[p]), q, mafia.CardName(r))
				}
			}
		}
		for q, isMafia := range k.Checks {
			checks++
			if role[p] != mafia.Commissar {
				tb.Fatalf("seat %d (%s) has check results", p, mafia.CardName(role[p]))
			}
			if want := role[q] == mafia.Don || role[q] == mafia.Mafioso; isMafia != want && role[q] != mafia.Madman {
				tb.Fatalf("the Commissar's check of seat %d (%s) answered mafia=%v", q, mafia.CardName(role[q]), isMafia)
			}
		}
	}
	tb.Logf("%d check results verified", checks)
}

// TestRealStackGame plays bot games of 4 to 12 players through the real
// stack to the end with the contract suite's invariants (every replica
// agrees after every step, the game ends, the transcript replays to the
// same state; engine/games/gametest.Playout).
func TestRealStackGame(t *testing.T) {
	t.Parallel() // a real-stack game: CPU only, nothing shared
	g := games.WithBot(mafia.Game{}, bot.NewBot)
	for _, tc := range []struct {
		n    int
		seed uint64
	}{{4, 1}, {7, 2}, {9, 3}, {12, 4}} {
		t.Run(fmt.Sprintf("%d-players", tc.n), func(t *testing.T) {
			t.Parallel()
			tr := gametest.Playout(t, g, tc.n, tc.seed, 0)
			t.Logf("%d entries", len(tr.Entries))
		})
	}
}

// untilActions plays a bot game on the real stack until the table waits
// for the actions entries of the given night with powers (the first is
// the second night of the game), or returns nil if the game ends first.
func untilActions(tb testing.TB, names []string, seed uint64, night int) (*local.Table, []*bot.Player) {
	tb.Helper()
	return playUntilNight(tb, names, seed, night, nil)
}

// playUntilNight is untilActions with ownNight, if not nil, as the
// table's local.Table.OwnNight.
func playUntilNight(tb testing.TB, names []string, seed uint64, night int, ownNight func(engine.Seat) bool) (*local.Table, []*bot.Player) {
	tb.Helper()
	o := mafia.Options{Players: names}
	enc, err := o.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	lt, err := local.New(mafia.Game{}, names, table.Options{Game: enc, PublishKeys: true})
	if err != nil {
		tb.Fatal(err)
	}
	if ownNight != nil {
		lt.OwnNight = ownNight
	}
	bots := make([]*bot.Player, len(names))
	for i := range bots {
		b, err := bot.NewBot(lt.View().Rules(), engine.Seat(i), seed+uint64(i))
		if err != nil {
			tb.Fatal(err)
		}
		bots[i] = b.(*bot.Player)
	}
	nights := 0
	for steps := 0; steps < 5000; steps++ {
		seat, kind, ok := lt.View().Expect()
		if !ok {
			return nil, nil // the game ended first (the keys are random)
		}
		st := lt.View().Rules().(*mafia.State)
		me := lt.Seats[seat]
		bots[seat].Learn(mafia.KnowledgeOf(st, me.Player, me.Replica))
		switch kind {
		case table.BodyMove:
			m, _, _ := bots[seat].Choose(st)
			if err := lt.Move(seat, m, nil); err != nil {
				tb.Fatal(err)
			}
		case table.BodyActions:
			if r := lt.View().Pending(); r.Next() == 0 && len(r.Parts) > 1 {
				nights++
				if nights == night {
					return lt, bots
				}
			}
			choices := map[uint8]engine.Seat{}
			for _, d := range me.Player.Decisions(me.Replica) {
				choices[d.Power] = bots[seat].NightChoice(st, d.Power, d.Targets)
			}
			if err := lt.Actions(seat, choices); err != nil {
				tb.Fatal(err)
			}
		default:
			tb.Fatalf("unexpected %s", kind)
		}
	}
	tb.Fatal("no night")
	return nil, nil
}

// wantFault applies e to the table and requires a fault naming seat for
// reason.
func wantFault(tb testing.TB, lt *local.Table, e *ledger.Entry, seat int, reason string) {
	tb.Helper()
	err := lt.View().Apply(e)
	var f *table.Fault
	if !errors.As(err, &f) {
		tb.Fatalf("want a %s fault by seat %d, got %v", reason, seat, err)
	}
	if f.Seat != seat || f.Reason != reason {
		tb.Fatalf("fault %s by seat %d (%v), want %s by seat %d", f.Reason, f.Seat, f.Err, reason, seat)
	}
}

// A night's actions that are not the author's own, not of the request's
// shape, or not a true statement are refused, naming the author: another
// seat's ballots and check replayed as one's own, a missing or extra
// part, a short tag, a vote by a seat without the power.
func TestRealStackNightAdversary(t *testing.T) {
	t.Parallel() // a real-stack game: CPU only, nothing shared
	names := []string{"Anna", "Boris", "Sasha", "Dima", "Fedya", "Galya", "Igor", "Kira", "Lev", "Masha", "Nina", "Oleg"}
	var lt *local.Table
	for seed := uint64(5); lt == nil; seed++ {
		if seed > 15 {
			t.Fatal("no game of 10 reached a night")
		}
		lt, _ = untilActions(t, names, seed, 1)
	}
	v := lt.View()
	seat, _, _ := v.Expect()
	st := v.Rules().(*mafia.State)
	me := lt.Seats[seat]
	// The honest body of the seat due, and of the next seat, made now.
	honest, err := me.Player.ActionsBody(me.Replica, choicesFor(me.Player, me.Replica, st))
	if err != nil {
		t.Fatal(err)
	}
	sign := func(author engine.Seat, b *table.Body) *ledger.Entry {
		e, err := lt.Seats[author].Player.Entry(lt.Seats[author].Replica, b)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	// The honest entry is accepted (on a copy of the table: Apply keeps
	// the table as it was when it refuses, so refusals come first).
	parts := len(honest.Actions)
	short := &table.Body{Kind: table.BodyActions, Actions: honest.Actions[:parts-1]}
	wantFault(t, lt, sign(seat, short), int(seat), table.ReasonActionCount)
	long := &table.Body{Kind: table.BodyActions, Actions: append(slices.Clone(honest.Actions), honest.Actions[0])}
	wantFault(t, lt, sign(seat, long), int(seat), table.ReasonActionCount)
	// A tag of 31 bytes.
	badTag := &table.Body{Kind: table.BodyActions, Actions: slices.Clone(honest.Actions)}
	badTag.Actions[parts-1] = badTag.Actions[parts-1][:31]
	if r := v.Pending(); r.Parts[parts-1].Kind != engine.EffectTag {
		badTag = nil // no tag this night
	}
	if badTag != nil {
		wantFault(t, lt, sign(seat, badTag), int(seat), table.ReasonBadTag)
	}
	// Each ballot and the check swapped for the same part of a ballot
	// made for another power (a ballot proven for the kill posted as the
	// save): the proofs bind the power.
	r := v.Pending()
	for j := 0; j+1 < len(r.Parts); j++ {
		if r.Parts[j].Kind != engine.EffectBallot || r.Parts[j+1].Kind != engine.EffectBallot {
			continue
		}
		swapped := &table.Body{Kind: table.BodyActions, Actions: slices.Clone(honest.Actions)}
		swapped.Actions[j], swapped.Actions[j+1] = honest.Actions[j+1], honest.Actions[j]
		wantFault(t, lt, sign(seat, swapped), int(seat), table.ReasonBadBallot)
	}
	// Post the honest entry; the next seat replays it as its own.
	if err := lt.Actions(seat, choicesFor(me.Player, me.Replica, st)); err != nil {
		t.Fatal(err)
	}
	next, kind, _ := v.Expect()
	if kind != table.BodyActions {
		t.Fatalf("after one seat's actions the table waits for %s", kind)
	}
	wantFault(t, lt, sign(next, honest), int(next), table.ReasonBadBallot)
	// Its own honest ballots with the first seat's check: the check binds
	// its author (and the author's role).
	other := lt.Seats[next]
	mine, err := other.Player.ActionsBody(other.Replica, choicesFor(other.Player, other.Replica, st))
	if err != nil {
		t.Fatal(err)
	}
	for j, part := range v.Pending().Parts {
		if part.Kind == engine.EffectCheck {
			forged := &table.Body{Kind: table.BodyActions, Actions: slices.Clone(mine.Actions)}
			forged.Actions[j] = honest.Actions[j]
			wantFault(t, lt, sign(next, forged), int(next), table.ReasonBadCheck)
		}
	}
	// A seat without the kill power asking to kill is refused by its own
	// player (the proof cannot be made), and a seat with it cannot
	// abstain.
	know := mafia.KnowledgeOf(st, other.Player, other.Replica)
	holds := slices.Contains(st.KillRoles(), know.Role)
	choices := choicesFor(other.Player, other.Replica, st)
	if holds {
		delete(choices, mafia.PowerKill)
	} else {
		choices[mafia.PowerKill] = (next + 1) % engine.Seat(len(names))
	}
	if _, err := other.Player.ActionsBody(other.Replica, choices); !errors.Is(err, table.ErrNoChoice) {
		t.Fatalf("seat %d (%s) changing its kill ballot: %v, want ErrNoChoice", next, mafia.CardName(know.Role), err)
	}
}

// choicesFor returns a seat's honest choices: the first other living
// target for every power it holds.
func choicesFor(pl *table.Player, t *table.Table, st *mafia.State) map[uint8]engine.Seat {
	out := map[uint8]engine.Seat{}
	for _, d := range pl.Decisions(t) {
		for _, q := range d.Targets {
			if int(q) != pl.Seat {
				out[d.Power] = q
				break
			}
		}
	}
	return out
}

// TestDumpTranscripts writes whole bot games on the real stack to
// $MAFIA_DUMP_DIR (skipped without it): material for an outside
// verifier while the conformance vectors are being made.
func TestDumpTranscripts(t *testing.T) {
	dir := os.Getenv("MAFIA_DUMP_DIR")
	if dir == "" {
		t.Skip("MAFIA_DUMP_DIR is not set")
	}
	for _, n := range []int{4, 6, 9} {
		lt := realGame(t, mafia.Options{Players: names(n)}, uint64(n))
		enc, err := lt.Transcript().MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("mafia-%d.masque", n)), enc, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The table's refusals of a seat's night actions name the player and the
// power in words ("Anna must choose whom to kill tonight: Anna's card
// gives them a mafia vote"), never "seat 3 holds power 1": a holder of
// the kill without a choice, a seat without it choosing, a target the
// power may not name, a power nobody is asked for.
func TestRealStackNightRefusalsInWords(t *testing.T) {
	t.Parallel() // a real-stack game: CPU only, nothing shared
	names := []string{"Anna", "Boris", "Sasha", "Dima", "Fedya", "Galya"}
	var lt *local.Table
	for seed := uint64(5); lt == nil; seed++ {
		if seed > 15 {
			t.Fatal("no game of 10 reached a night")
		}
		lt, _ = untilActions(t, names, seed, 1)
	}
	st := lt.View().Rules().(*mafia.State)
	jargon := regexp.MustCompile(`power \d|seat \d`)
	refused := func(who string, err error, want ...string) {
		t.Helper()
		if !errors.Is(err, table.ErrNoChoice) {
			t.Fatalf("%s: %v, want ErrNoChoice", who, err)
		}
		msg := err.Error()
		if jargon.MatchString(msg) {
			t.Errorf("%s: the refusal speaks of seats and powers by number: %s", who, msg)
		}
		for _, w := range append(want, who) {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: the refusal lacks %q: %s", who, w, msg)
			}
		}
	}
	holders, others := 0, 0
	for {
		seat, kind, _ := lt.View().Expect()
		if kind != table.BodyActions {
			break
		}
		s, who := lt.Seats[seat], names[seat]
		choices := choicesFor(s.Player, s.Replica, st)
		kill := slices.IndexFunc(s.Player.Decisions(s.Replica), func(d engine.Effect) bool { return d.Power == mafia.PowerKill })
		if kill >= 0 {
			holders++
			c := maps.Clone(choices)
			delete(c, mafia.PowerKill)
			_, err := s.Player.ActionsBody(s.Replica, c)
			refused(who, err, "must choose whom to kill tonight", "a mafia vote")
			d := s.Player.Decisions(s.Replica)[kill]
			for q := range engine.Seat(len(names)) {
				if !slices.Contains(d.Targets, q) {
					c := maps.Clone(choices)
					c[mafia.PowerKill] = q
					_, err := s.Player.ActionsBody(s.Replica, c)
					refused(who, err, "cannot kill "+names[q], "the choice names one of")
					break
				}
			}
		} else {
			others++
			// A seat it could name, were its card the mafia's.
			r := lt.View().Pending()
			part := slices.IndexFunc(r.Parts, func(e engine.Effect) bool { return e.Power == mafia.PowerKill })
			if part < 0 {
				t.Fatalf("the night asks for no kill: %+v", r.Parts)
			}
			ti := slices.IndexFunc(r.Parts[part].Targets, func(q engine.Seat) bool { return q != seat })
			c := maps.Clone(choices)
			c[mafia.PowerKill] = r.Parts[part].Targets[ti]
			_, err := s.Player.ActionsBody(s.Replica, c)
			refused(who, err, "cannot kill tonight", "card does not give them a mafia vote")
		}
		c := maps.Clone(choices)
		c[mafia.PowerCheck+10] = (seat + 1) % engine.Seat(len(names))
		_, err := s.Player.ActionsBody(s.Replica, c)
		refused(who, err, "cannot make that night choice now", "the table asks nobody for")
		if err := lt.Actions(seat, choices); err != nil {
			t.Fatal(err)
		}
	}
	if holders == 0 || others == 0 {
		t.Fatalf("%d seats hold the kill, %d do not", holders, others)
	}
}
