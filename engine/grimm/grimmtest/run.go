package grimmtest

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
)

// Run plays a script on a fake table seeded with seed. It stops at the
// first failing line with a *[grimm.ScriptError] wrapping the cause (a
// parse error, a *[engine.RuleError], a *[ProofError] or a failed
// expectation) and returns the table as it was before that line.
func Run(sc *grimm.Script, seed uint64) (*Table, error) {
	t, err := New(sc.Options, seed, sc.Rounds)
	if err != nil {
		return nil, err
	}
	for _, l := range sc.Lines {
		if err := t.line(l); err != nil {
			return t, &grimm.ScriptError{Line: l.LineNo, Err: err}
		}
	}
	return t, nil
}

func (t *Table) line(l grimm.ScriptLine) error {
	switch l.Verb {
	case "random":
		return t.randomLine(l.Tokens)
	case "expect":
		return t.Expect(l.Tokens)
	}
	p, err := t.State.SeatByName(l.Seat)
	if err != nil {
		return err
	}
	tokens := t.handItem(p, l.Tokens)
	m, err := grimm.ParseMove(t.State, p, tokens)
	if err != nil {
		return err
	}
	return t.Play(m)
}

func (t *Table) randomLine(tokens []string) error {
	w := map[engine.Seat][]engine.Card{}
	for _, kv := range tokens {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("random: want NAME=ITEM[,ITEM], got %q", kv)
		}
		p, err := t.State.SeatByName(k)
		if err != nil {
			return fmt.Errorf("random: %w", err)
		}
		for _, x := range strings.Split(v, ",") {
			it, err := grimm.ParseItem(x)
			if err != nil {
				return fmt.Errorf("random: %w", err)
			}
			w[p] = append(w[p], it)
		}
	}
	t.Want(w)
	return nil
}

// Expect checks KEY=VALUE expectations against the state:
//
//	roses=NAME:N,...     roses (tokens plus rewards) of the named seats
//	rewards=NAME:N,...   the value of their reward tokens
//	tokens=NAME:CHAR+CHAR,...  exactly the portraits with NAME's hint token ("-" for none)
//	unmasked=NAME,...    exactly the unmasked seats ("none")
//	front=NAME:ITEM+ITEM exactly the items in front of NAME, any order ("-")
//	hand=NAME:N          the size of NAME's hidden hand
//	round=N  turn=NAME  next=NAME (who must move)  over=yes|no  winners=NAME,...
//	actions=A,B          the round's action cards (any order)
//	lastwinner=NAME|none the winner of the last finished round
//	broken=CHAR,...      exactly the broken portraits ("none")
//	ability=NAME:CHAR    the ability card NAME holds ("-" for none)
//	bets=NAME:N          how many bet cards NAME holds
func (t *Table) Expect(tokens []string) error {
	s := t.State
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	for _, kv := range tokens {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("expect: want KEY=VALUE, got %q", kv)
		}
		switch strings.ToLower(k) {
		case "roses", "rewards", "hand":
			for _, pair := range strings.Split(v, ",") {
				name, num, _ := strings.Cut(pair, ":")
				p, err := s.SeatByName(name)
				n, nerr := strconv.Atoi(num)
				if err != nil || nerr != nil {
					return fmt.Errorf("expect: bad %s pair %q", k, pair)
				}
				var got int
				switch strings.ToLower(k) {
				case "roses":
					got = s.Roses(p)
				case "rewards":
					got = s.Rewards(p)
				default:
					got = len(s.Hand(p))
				}
				if got != n {
					bad("%s of %s = %d, want %d", k, name, got, n)
				}
			}
		case "tokens", "front":
			for _, pair := range strings.Split(v, ",") {
				name, list, _ := strings.Cut(pair, ":")
				p, err := s.SeatByName(name)
				if err != nil {
					return fmt.Errorf("expect: %w", err)
				}
				var want, got []string
				if list != "-" && list != "" {
					for _, x := range strings.Split(list, "+") {
						c, err := grimm.ParseCard(x)
						if err != nil {
							return fmt.Errorf("expect: %w", err)
						}
						want = append(want, grimm.CardName(c))
					}
				}
				if strings.ToLower(k) == "tokens" {
					for _, c := range grimm.Characters() {
						if s.HasToken(p, c) {
							got = append(got, grimm.CardName(c))
						}
					}
				} else {
					for _, it := range s.Front(p) {
						got = append(got, grimm.CardName(it.Item))
					}
				}
				slices.Sort(want)
				slices.Sort(got)
				if !slices.Equal(want, got) {
					bad("%s of %s = %v, want %v", k, name, got, want)
				}
			}
		case "unmasked", "winners":
			var want, got []string
			if v != "none" {
				for _, name := range strings.Split(v, ",") {
					p, err := s.SeatByName(name)
					if err != nil {
						return fmt.Errorf("expect: %w", err)
					}
					want = append(want, s.Name(p))
				}
			}
			if strings.ToLower(k) == "unmasked" {
				for p := range engine.Seat(s.Players()) {
					if s.Unmasked(p) {
						got = append(got, s.Name(p))
					}
				}
			} else {
				for _, p := range s.Winners() {
					got = append(got, s.Name(p))
				}
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(want, got) {
				bad("%s = %v, want %v", k, got, want)
			}
		case "broken":
			var want, got []string
			if v != "none" {
				for _, x := range strings.Split(v, ",") {
					c, err := grimm.ParseCharacter(x)
					if err != nil {
						return fmt.Errorf("expect: %w", err)
					}
					want = append(want, grimm.CardName(c))
				}
			}
			for _, c := range grimm.Characters() {
				if s.Broken(c) {
					got = append(got, grimm.CardName(c))
				}
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(want, got) {
				bad("broken = %v, want %v", got, want)
			}
		case "ability", "bets":
			for _, pair := range strings.Split(v, ",") {
				name, val, _ := strings.Cut(pair, ":")
				p, err := s.SeatByName(name)
				if err != nil {
					return fmt.Errorf("expect: %w", err)
				}
				if strings.ToLower(k) == "bets" {
					if n, err := strconv.Atoi(val); err != nil || len(s.BetsOf(p)) != n {
						bad("bets of %s = %d, want %s", name, len(s.BetsOf(p)), val)
					}
					continue
				}
				want := engine.Card(0)
				if val != "-" {
					if want, err = grimm.ParseCharacter(val); err != nil {
						return fmt.Errorf("expect: %w", err)
					}
				}
				if got := s.Ability(p); got != want {
					bad("ability of %s = %s, want %s", name, grimm.CardName(got), val)
				}
			}
		case "round":
			if n, err := strconv.Atoi(v); err != nil || s.Round() != n {
				bad("round = %d, want %s", s.Round(), v)
			}
		case "turn", "next":
			p, err := s.SeatByName(v)
			if err != nil {
				return fmt.Errorf("expect: %w", err)
			}
			got := s.Turn()
			if strings.ToLower(k) == "next" {
				need := s.Next()
				got = need.Seat
				if need.Kind != engine.NeedMove {
					got = -1
				}
			}
			if got != p {
				bad("%s = %s, want %s", k, s.Name(got), v)
			}
		case "over":
			if want := v == "yes"; s.Over() != want {
				bad("over = %v, want %s", s.Over(), v)
			}
		case "lastwinner":
			res := s.Results()
			got := "none"
			if len(res) > 0 && res[len(res)-1].Winner >= 0 {
				got = s.Name(res[len(res)-1].Winner)
			}
			if len(res) == 0 {
				got = "(no round finished)"
			}
			if !strings.EqualFold(got, v) {
				bad("last winner = %s, want %s", got, v)
			}
		case "actions":
			var want []grimm.Action
			for _, x := range strings.Split(v, ",") {
				a, err := grimm.ParseAction(x)
				if err != nil {
					return fmt.Errorf("expect: %w", err)
				}
				want = append(want, a)
			}
			got := s.Actions()
			g := []grimm.Action{got[0], got[1]}
			slices.Sort(g)
			slices.Sort(want)
			if !slices.Equal(g, want) {
				bad("actions = %v, want %v", g, want)
			}
		default:
			return fmt.Errorf("expect: unknown key %q", k)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("expect: %w (state: %v)", errors.Join(errs...), s)
	}
	return nil
}

// handItem rewrites "give NAME ITEM" by an unmasked seat (whose hand is
// hidden, so a script cannot know the slots) into "give NAME slot=N", and
// "bet CHARACTER" into "bet SLOT", using the seat's own view.
func (t *Table) handItem(p engine.Seat, tokens []string) []string {
	if len(tokens) == 2 && strings.EqualFold(tokens[0], "bet") {
		if c, err := grimm.ParseCharacter(tokens[1]); err == nil {
			for _, sl := range t.State.BetDeck() {
				if v, ok := t.Views[p][sl]; ok && v == grimm.BetBase+c {
					return []string{tokens[0], strconv.Itoa(int(sl))}
				}
			}
		}
	}
	hand := t.State.Hand(p)
	if len(tokens) != 3 || !strings.EqualFold(tokens[0], "give") || len(hand) == 0 {
		return tokens
	}
	it, err := grimm.ParseItem(tokens[2])
	if err != nil {
		return tokens
	}
	for _, sl := range hand {
		if c, ok := t.Views[p][sl]; ok && c == it {
			return []string{tokens[0], tokens[1], "slot=" + strconv.Itoa(int(sl))}
		}
	}
	return tokens
}
