package grimm

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/masque-games/masque/engine"
)

// CheckExpect checks a script's expect line, KEY=VALUE expectations,
// against the state s:
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
func CheckExpect(s *State, tokens []string) error {
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
						c, err := ParseCard(x)
						if err != nil {
							return fmt.Errorf("expect: %w", err)
						}
						want = append(want, CardName(c))
					}
				}
				if strings.ToLower(k) == "tokens" {
					for _, c := range Characters() {
						if s.HasToken(p, c) {
							got = append(got, CardName(c))
						}
					}
				} else {
					for _, it := range s.Front(p) {
						got = append(got, CardName(it.Item))
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
					c, err := ParseCharacter(x)
					if err != nil {
						return fmt.Errorf("expect: %w", err)
					}
					want = append(want, CardName(c))
				}
			}
			for _, c := range Characters() {
				if s.Broken(c) {
					got = append(got, CardName(c))
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
					if want, err = ParseCharacter(val); err != nil {
						return fmt.Errorf("expect: %w", err)
					}
				}
				if got := s.Ability(p); got != want {
					bad("ability of %s = %s, want %s", name, CardName(got), val)
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
			var want []Action
			for _, x := range strings.Split(v, ",") {
				a, err := ParseAction(x)
				if err != nil {
					return fmt.Errorf("expect: %w", err)
				}
				want = append(want, a)
			}
			got := s.Actions()
			g := []Action{got[0], got[1]}
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
