package mafia_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/mafia/mafiatest"
)

func FuzzOptions(f *testing.F) {
	for _, o := range []mafia.Options{{Players: names(4)}, {Players: names(12), TieDraw: true}, {Players: names(9), NoIncidents: true, Specials: []engine.Card{mafia.Madman}}} {
		b, _ := o.MarshalBinary()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := mafia.UnmarshalOptions(data)
		if err != nil {
			return
		}
		b, err := o.MarshalBinary()
		if err != nil || !bytes.Equal(b, data) {
			t.Fatalf("accepted options do not re-encode: %v", err)
		}
		if _, err := (mafia.Game{}).New(data, nil); err != nil {
			t.Fatalf("accepted options give no game: %v", err)
		}
	})
}

func FuzzScript(f *testing.F) {
	f.Add([]byte(five + noVote5 + "Anna kill Dima\nDima play RicochetLeft\nEgor pass\n"))
	f.Add([]byte(f12 + noVote12 + "Anna kill Galya\nBoris kill Galya\n"))
	f.Add([]byte("game mafia players=A,B,C,D deck=Misfire\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := mafia.ParseScript(data)
		if err != nil {
			return
		}
		if len(sc.Lines) > 200 {
			return
		}
		_, _ = mafiatest.Run(sc, 1) // errors are fine; panics are not
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"hold yes", "vote Anna", "vote abstain", "pass", "play Misfire slot=5", "leave", "play Alibi"} {
		f.Add(s)
	}
	st, err := mafia.NewGame(mafia.Options{Players: []string{"Anna", "Boris", "Clara", "Dima"}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line string) {
		m, err := mafia.ParseMove(st, 0, strings.Fields(line))
		if err != nil {
			return
		}
		back, err := mafia.ParseMove(st, 0, strings.Fields(mafia.FormatMove(st, m))[1:])
		if err != nil || back.Kind != m.Kind || len(back.Args) != len(m.Args) {
			t.Fatalf("%q: formatted move does not parse back: %v", line, err)
		}
	})
}

// FuzzMoves plays arbitrary moves (and the bots' night choices) on a
// fake table: the rules reject or accept, never panic, and the
// invariants hold after every accepted move.
func FuzzMoves(f *testing.F) {
	f.Add(uint64(1), []byte{1, 0, 1, 1, 0, 1})
	f.Add(uint64(7), []byte{5, 3, 0, 2, 4, 0, 3, 2, 2, 9})
	f.Fuzz(func(t *testing.T, seed uint64, data []byte) {
		n := 4 + int(seed%15)
		tab, err := mafiatest.New(mafia.Options{Players: names(n), TieDraw: seed%5 == 0}, seed)
		if err != nil {
			t.Fatal(err)
		}
		deck := tab.State.RoleDeck()
		var players []mafiatest.Player
		for p := range engine.Seat(n) {
			players = append(players, newBot(p, seed))
		}
		for i := 0; i+2 < len(data) && !tab.State.Over(); i += 3 {
			if tab.Waiting() {
				if _, err := tab.Step(players); err != nil {
					t.Fatal(err)
				}
				continue
			}
			m := engine.Move{Seat: engine.Seat(int(data[i]) % (n + 1)), Kind: data[i+1] % 7}
			switch m.Kind {
			case mafia.MoveHold, mafia.MoveVote:
				m.Args = []int{int(int8(data[i+2]))}
			case mafia.MoveCard:
				m.Args = []int{int(data[i+2] % 16), n + int(data[i+2]%21), int(data[i+2] >> 7)}
			}
			if err := tab.Play(m); err != nil {
				continue
			}
			if err := invariants(tab, deck); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzLearn feeds arbitrary facts to a state waiting for the night's
// tallies: rejected or accepted, never a panic.
func FuzzLearn(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 2, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := mafia.NewGame(mafia.Options{Players: names(6), NoIncidents: true})
		if err != nil {
			t.Fatal(err)
		}
		for p := range engine.Seat(6) {
			ns, _, err := s.Play(engine.Move{Seat: p, Kind: mafia.MoveHold, Args: []int{0}})
			if err != nil {
				t.Fatal(err)
			}
			s = ns
		}
		for len(data) >= 3 && s.Next().Kind == engine.NeedFacts {
			k := int(data[0]%8) + 1
			var facts []engine.Fact
			for i := 0; i < k && 3*i+2 < len(data); i++ {
				facts = append(facts, engine.Fact{Slot: engine.Slot(int(int8(data[3*i])) % 8), Seat: engine.Seat(data[3*i+1] % 7), Count: int(data[3*i+2] % 4), Card: engine.Card(data[3*i+2] % 16)})
			}
			data = data[min(len(data), 3*k):]
			ns, _, err := s.LearnFacts(facts)
			if err != nil {
				continue
			}
			s = ns
		}
	})
}
