package mafiatest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mafia"
)

// Run plays a script on a fake table seeded with seed. It stops at the
// first failing line with a *[mafia.ScriptError] wrapping the cause (a
// parse error, a *[engine.RuleError] naming the seat and the rule, a
// *[ProofError] or a failed expectation), naming the player, and returns
// the table as it was before that line.
func Run(sc *mafia.Script, seed uint64) (*Table, error) {
	t, err := New(sc.Options, seed)
	if err != nil {
		return nil, err
	}
	for _, l := range sc.Lines {
		if err := t.Line(l); err != nil {
			return t, &mafia.ScriptError{Line: l.LineNo, Err: err}
		}
	}
	return t, nil
}

// RunSource parses the script src and plays it as [Run] does; it
// returns the parsed script too (nil, with a nil table, if src does not
// parse).
func RunSource(src string, seed uint64) (*mafia.Script, *Table, error) {
	sc, err := mafia.ParseScript([]byte(src))
	if err != nil {
		return nil, nil, err
	}
	t, err := Run(sc, seed)
	return sc, t, err
}

// Line plays one script line.
func (t *Table) Line(l mafia.ScriptLine) error {
	switch l.Verb {
	case "expect":
		return t.Expect(l.Tokens)
	case "coin":
		if len(l.Tokens) != 1 {
			return fmt.Errorf("coin: want coin NAME")
		}
		p, err := t.State.SeatByName(l.Tokens[0])
		if err != nil {
			return fmt.Errorf("coin: %w", err)
		}
		t.WantCoin(p)
		return nil
	}
	p, err := t.State.SeatByName(l.Seat)
	if err != nil {
		return err
	}
	name := t.State.Name(p)
	if l.IsNightLine() {
		if len(l.Tokens) != 2 {
			return fmt.Errorf("%s: %s: want %s NAME", name, l.Verb, l.Verb)
		}
		q, err := t.State.SeatByName(l.Tokens[1])
		if err != nil {
			return fmt.Errorf("%s: %s: %w", name, l.Verb, err)
		}
		power := mafia.NightVerbs[l.Verb]
		if power == mafia.PowerKill && t.holdsPower(p, mafia.PowerMadman) {
			power = mafia.PowerMadman
		}
		if err := t.Choose(p, power, q); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	}
	tokens := mafia.NameHidden(t.State, p, t.Views[p], l.Tokens)
	if len(tokens) == 2 && strings.EqualFold(tokens[0], "play") {
		return fmt.Errorf("%s: %s: %s holds no %s", name, mafia.RuleNotInHand, name, tokens[1])
	}
	m, err := mafia.ParseMove(t.State, p, tokens)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := t.Play(m); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// holdsPower reports whether seat p holds power in the night the table
// waits on.
func (t *Table) holdsPower(p engine.Seat, power uint8) bool {
	for _, e := range t.pending {
		if (e.Kind == engine.EffectBallot || e.Kind == engine.EffectCheck) && e.Power == power && slices.Contains(e.Seats, p) {
			return t.holds(p, e)
		}
	}
	return false
}

// Expect checks expectations: the public ones of [mafia.CheckExpect],
// and what seats know privately: knows=NAME:ROLE (the seat's own role),
// mates=NAME:NAME,NAME ("none" for nobody; the seats it recognised by
// tags), checked=NAME:NAME:mafia|not (a Commissar's result), holds=
// NAME:CARD,CARD (its incident hand, in any order; "none"), waiting=
// yes|no (the table waits for night choices).
func (t *Table) Expect(tokens []string) error {
	var public []string
	for _, kv := range tokens {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("expect: want KEY=VALUE, got %q", kv)
		}
		switch strings.ToLower(k) {
		case "knows", "mates", "checked", "holds":
			if err := t.expectPrivate(strings.ToLower(k), v); err != nil {
				return err
			}
		case "waiting":
			got := map[bool]string{true: "yes", false: "no"}[t.Waiting()]
			if !strings.EqualFold(got, v) {
				return fmt.Errorf("expect waiting: got %s, want %s", got, v)
			}
		default:
			public = append(public, kv)
		}
	}
	return mafia.CheckExpect(t.State, public)
}

func (t *Table) expectPrivate(k, v string) error {
	name, rest, ok := strings.Cut(v, ":")
	if !ok {
		return fmt.Errorf("expect %s: want NAME:VALUE, got %q", k, v)
	}
	p, err := t.State.SeatByName(name)
	if err != nil {
		return fmt.Errorf("expect %s: %w", k, err)
	}
	kn := t.Know[p]
	var got, want string
	switch k {
	case "knows":
		got, want = mafia.CardName(kn.Role), rest
	case "mates":
		var ns []string
		for _, q := range kn.Mates {
			ns = append(ns, t.State.Name(q))
		}
		got, want = strings.Join(ns, ","), rest
		if got == "" {
			got = "none"
		}
		if want != "none" {
			var ws []string
			for _, x := range strings.Split(rest, ",") {
				q, err := t.State.SeatByName(x)
				if err != nil {
					return fmt.Errorf("expect mates: %w", err)
				}
				ws = append(ws, t.State.Name(q))
			}
			slices.SortFunc(ws, func(a, b string) int {
				pa, _ := t.State.SeatByName(a)
				pb, _ := t.State.SeatByName(b)
				return int(pa - pb)
			})
			want = strings.Join(ws, ",")
		}
	case "checked":
		who, res, ok := strings.Cut(rest, ":")
		if !ok {
			return fmt.Errorf("expect checked: want NAME:NAME:mafia|not, got %q", v)
		}
		q, err := t.State.SeatByName(who)
		if err != nil {
			return fmt.Errorf("expect checked: %w", err)
		}
		m, ok := kn.Checks[q]
		got = "unchecked"
		if ok {
			got = map[bool]string{true: "mafia", false: "not"}[m]
		}
		want = res
	case "holds":
		var hs []string
		for _, sl := range t.State.Hand(p) {
			hs = append(hs, mafia.CardName(kn.Hand[sl]))
		}
		slices.Sort(hs)
		got = strings.Join(hs, ",")
		if got == "" {
			got = "none"
		}
		ws := strings.Split(rest, ",")
		slices.Sort(ws)
		want = strings.Join(ws, ",")
	}
	if !strings.EqualFold(got, want) {
		return fmt.Errorf("expect %s: %s: got %s, want %s", k, t.State.Name(p), got, want)
	}
	return nil
}
