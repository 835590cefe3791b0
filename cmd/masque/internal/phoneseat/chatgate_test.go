package phoneseat

import (
	"crypto/ed25519"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/mafia/bot"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p/chat"
)

// mafiaWithDead plays a Mafia table of bots until a seat is out and the
// game goes on; it returns the table and that seat.
func mafiaWithDead(t *testing.T) (*local.Table, engine.Seat) {
	t.Helper()
	names := []string{"alice", "mila", "boris", "sasha", "dima"}
	for seed := uint64(1); seed < 20; seed++ {
		o := mafia.Options{Players: names}
		enc, err := o.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		lt, err := local.New(mafia.Game{}, names, table.Options{Game: enc})
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]*bot.Player, len(names))
		for i := range bots {
			b, err := bot.NewBot(lt.View().Rules(), engine.Seat(i), seed+uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			bots[i] = b.(*bot.Player)
		}
		for steps := 0; steps < 5000; steps++ {
			st := lt.View().Rules().(*mafia.State)
			if st.Over() {
				break
			}
			for s := range engine.Seat(len(names)) {
				if !st.Alive(s) {
					return lt, s
				}
			}
			seat, kind, ok := lt.View().Expect()
			if !ok {
				break
			}
			me := lt.Seats[seat]
			bots[seat].Learn(mafia.KnowledgeOf(st, me.Player, me.Replica))
			switch kind {
			case table.BodyMove:
				m, _, _ := bots[seat].Choose(st)
				if err := lt.Move(seat, m, nil); err != nil {
					t.Fatal(err)
				}
			case table.BodyActions:
				choices := map[uint8]engine.Seat{}
				for _, d := range me.Player.Decisions(me.Replica) {
					choices[d.Power] = bots[seat].NightChoice(st, d.Power, d.Targets)
				}
				if err := lt.Actions(seat, choices); err != nil {
					t.Fatal(err)
				}
			default:
				t.Fatalf("unexpected %s", kind)
			}
		}
	}
	t.Fatal("no Mafia game with a seat out before its end")
	return nil, 0
}

// TestChatGateOnPhone: the phone checks the table's chat lines as every
// seat checks them (docs/protocol.md §11.2), not only their signatures:
// a line of a seat the game bars from writing now (Mafia's dead) is
// refused, and past chat.MaxPerAuthor lines of one seat the rest are.
// The phone's server is a seat of the table (host --phones, join
// --phones): the first version showed its phones every line it handed
// them signed by the seat it named, so that a dead Mafia host (or a dead
// seat it carries lines for) could go on talking to the living on their
// phones while every other seat refused its lines.
func TestChatGateOnPhone(t *testing.T) {
	now := time.Now()
	lt, dead := mafiaWithDead(t)
	p, _, err := New("mila", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The phone's replica is the table's; its roster gives every seat a
	// key this test holds (the dead seat's signs its lines).
	r := *lt.Transcript().Roster
	r.Seats = append([]ledger.SeatInfo(nil), r.Seats...)
	keys := make([]ed25519.PrivateKey, len(r.Seats))
	for i := range r.Seats {
		pub, priv, _ := ed25519.GenerateKey(nil)
		r.Seats[i].SignKey, keys[i] = pub, priv
	}
	p.roster, p.tab, p.seat = &r, lt.View(), 1
	if int(dead) == p.seat {
		p.seat = (p.seat + 1) % len(r.Seats)
	}
	gid, err := r.GameID()
	if err != nil {
		t.Fatal(err)
	}
	line := func(seat engine.Seat, seq uint32, text string) []byte {
		m := &chat.Message{Game: gid, Seat: uint8(seat), Seq: seq, Time: now, Text: text}
		if err := m.Sign(keys[seat]); err != nil {
			t.Fatal(err)
		}
		return m.Marshal()
	}
	if _, err := p.OnControl(now, Control{T: "chat", Chat: line(dead, 1, "I was the Commissar!")}); err == nil || !strings.Contains(err.Error(), "may not write") {
		t.Errorf("a line of dead seat %d: %v, want refused (may not write)", dead, err)
	}
	for _, l := range p.chatLines() {
		if strings.Contains(l.Text, "Commissar") {
			t.Errorf("the phone shows the dead seat's line %+v", l)
		}
	}
	living := engine.Seat(0)
	for living == dead || int(living) == p.seat {
		living++
	}
	for i := range chat.MaxPerAuthor {
		if _, err := p.OnControl(now, Control{T: "chat", Chat: line(living, uint32(i+1), fmt.Sprint("line ", i+1))}); err != nil {
			t.Fatalf("line %d of a living seat: %v", i+1, err)
		}
	}
	if _, err := p.OnControl(now, Control{T: "chat", Chat: line(living, chat.MaxPerAuthor+1, "one more")}); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("line %d of one seat: %v, want refused", chat.MaxPerAuthor+1, err)
	}
	if n := len(p.chat.msgs); n != chat.MaxPerAuthor {
		t.Errorf("the phone keeps %d lines, want %d", n, chat.MaxPerAuthor)
	}
}
