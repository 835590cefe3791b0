// Package bot plays Mafia for one seat: deterministic given a seed, by
// its role, what its seat knows privately ([mafia.Knowledge]) and what it
// has seen of the public game. The mafia never name a mate they
// recognised; the Commissar checks the players he trusts least, votes for
// the mafia he found and spares the players he cleared; the civilians
// want a vote on the first day, trust the players who survived a night
// attack and those whose votes eliminated a mafia member (and distrust
// those whose votes eliminated a civilian), and join the day's vote that
// the players they trust lead; the Nurse and the Night Butterfly protect
// the players they trust most; everyone plays an incident card when
// attacked or voted out, if they hold one that answers.
package bot

import (
	"math/rand/v2"
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mafia"
)

// Bot is one seat's player.
type Bot struct {
	Seat engine.Seat
	rng  *rand.Rand
	mem  memory
}

// memory is what the bot remembers of the public game, from the states
// it is shown (its own turns and night choices): how far it trusts each
// seat, and the day votes it saw.
type memory struct {
	trust    map[engine.Seat]int         // > 0: likely a civilian; < 0: suspect
	alive    []bool                      // the living seats when last shown a state
	seen     map[engine.Seat]engine.Seat // voter → target: today's votes seen
	seenDay  int                         // the day of seen
	attacked int                         // the last day whose night attacks were counted
}

// New returns seat's bot, whose choices are deterministic given seed.
func New(seat engine.Seat, seed uint64) *Bot {
	return &Bot{Seat: seat, rng: rand.New(rand.NewPCG(seed, uint64(seat)+0x51ed2701)),
		mem: memory{trust: map[engine.Seat]int{}, seen: map[engine.Seat]engine.Seat{}}}
}

// observe updates the memory from the public state s: a seat eliminated
// by day (dead, and not attacked last night) tells on the voters the bot
// saw naming it (trusted if it was of the mafia, suspect if not); a seat
// that survived a night attack was most likely the mafia's victim, a
// civilian; today's votes are noted.
func (b *Bot) observe(s *mafia.State) {
	m := &b.mem
	n := s.Players()
	if m.alive == nil {
		m.alive = make([]bool, n)
		for p := range engine.Seat(n) {
			m.alive[p] = s.Alive(p)
		}
	}
	for p := range engine.Seat(n) {
		if !m.alive[p] || s.Alive(p) {
			continue
		}
		m.alive[p] = false
		role, ok := s.Revealed(p)
		if attacked, _, _ := s.Attacked(p); attacked || !ok {
			continue
		}
		for v, q := range m.seen {
			if q != p || v == b.Seat {
				continue
			}
			if mafia.IsMafia(role) {
				m.trust[v] += 2
			} else {
				m.trust[v]--
			}
		}
	}
	day := s.Phase() == mafia.PhaseVote || s.Phase() == mafia.PhaseDayAnswer
	if day && m.attacked != s.Day() {
		m.attacked = s.Day()
		for _, p := range s.Living() {
			if attacked, _, _ := s.Attacked(p); attacked {
				m.trust[p]++
			}
		}
	}
	if s.Day() != m.seenDay {
		clear(m.seen)
		m.seenDay = s.Day()
	}
	if s.Phase() == mafia.PhaseVote {
		for v, q := range s.Votes() {
			if q >= 0 {
				m.seen[engine.Seat(v)] = engine.Seat(q)
			}
		}
	}
}

// mafiaSide reports whether the seat plays for the mafia now (the Madman
// counts from the start: he wants the civilians dead too).
func mafiaSide(k *mafia.Knowledge) bool { return k.Mafia || mafia.IsMafia(k.Role) }

// avoid reports whether the bot would rather not name q: itself, a mate
// for the mafia, a cleared player for the Commissar.
func (b *Bot) avoid(k *mafia.Knowledge, q engine.Seat) bool {
	if q == b.Seat {
		return true
	}
	if mafiaSide(k) && slices.Contains(k.Mates, q) {
		return true
	}
	if m, ok := k.Checks[q]; ok && !m && !mafiaSide(k) {
		return true
	}
	return false
}

// pick returns a random seat of cands the bot does not avoid, or any of
// cands but itself if it avoids them all, or NoSeat.
func (b *Bot) pick(k *mafia.Knowledge, cands []engine.Seat) engine.Seat {
	var good, any []engine.Seat
	for _, q := range cands {
		if q == b.Seat {
			continue
		}
		any = append(any, q)
		if !b.avoid(k, q) {
			good = append(good, q)
		}
	}
	if len(good) > 0 {
		return good[b.rng.IntN(len(good))]
	}
	if len(any) > 0 {
		return any[b.rng.IntN(len(any))]
	}
	return mafia.NoSeat
}

// Move returns the seat's move in s, or ok=false if none is due from it.
func (b *Bot) Move(s *mafia.State, k *mafia.Knowledge) (engine.Move, bool) {
	if s.Next().Kind != engine.NeedMove || s.Turn() != b.Seat {
		return engine.Move{}, false
	}
	b.observe(s)
	m := engine.Move{Seat: b.Seat}
	switch s.Phase() {
	case mafia.PhaseHold:
		m.Kind, m.Args = mafia.MoveHold, []int{b.rng.IntN(2)}
		if !mafiaSide(k) {
			m.Args[0] = 1 // the civilians want every chance to vote
		}
	case mafia.PhaseVote:
		m.Kind = mafia.MoveVote
		m.Args = []int{int(b.vote(s, k))}
	case mafia.PhaseDayAnswer:
		m = b.answer(s, k, []engine.Card{mafia.Alibi, mafia.EvidenceLeft, mafia.EvidenceRight})
	case mafia.PhaseNightAnswer:
		m = b.answer(s, k, []engine.Card{mafia.Misfire, mafia.RicochetLeft, mafia.RicochetRight})
	case mafia.PhaseDateAnswer:
		m = b.answer(s, k, []engine.Card{mafia.Misfire})
	default:
		return engine.Move{}, false
	}
	return m, true
}

func (b *Bot) vote(s *mafia.State, k *mafia.Knowledge) engine.Seat {
	living := s.Living()
	if !mafiaSide(k) {
		for _, q := range living {
			if m, ok := k.Checks[q]; ok && m && q != b.Seat {
				return q
			}
		}
		if q := b.civilVote(s, k); q != mafia.NoSeat {
			return q
		}
	}
	if b.rng.IntN(10) == 0 {
		return mafia.NoSeat
	}
	return b.pick(k, living)
}

// civilVote is a civilian's day vote: the player with the most weight
// against him, where each vote already cast weighs by how far the bot
// trusts its voter, and the bot's own suspicion adds to it (a trusted
// player, or one the bot cleared, is never named). Ties are broken at
// random.
func (b *Bot) civilVote(s *mafia.State, k *mafia.Knowledge) engine.Seat {
	votes := s.Votes()
	best, top := mafia.NoSeat, 0
	for _, q := range s.Living() {
		if q == b.Seat || b.avoid(k, q) || b.mem.trust[q] > 0 {
			continue
		}
		w := 4 - 3*b.mem.trust[q]
		for v, t := range votes {
			if t == int(q) && engine.Seat(v) != b.Seat {
				w += max(0, 12+3*b.mem.trust[engine.Seat(v)])
			}
		}
		w = 4*w + b.rng.IntN(4)
		if w > top {
			best, top = q, w
		}
	}
	return best
}

// trusted returns the seats of cands (not the bot's own) the bot trusts
// most, ties broken at random, or NoSeat.
func (b *Bot) trusted(k *mafia.Knowledge, cands []engine.Seat) engine.Seat {
	best, top := mafia.NoSeat, 0
	for _, q := range cands {
		if q == b.Seat {
			continue
		}
		w := b.mem.trust[q]
		if m, ok := k.Checks[q]; ok && !m {
			w += 4
		}
		w = 8*(w+16) + b.rng.IntN(8)
		if best == mafia.NoSeat || w > top {
			best, top = q, w
		}
	}
	return best
}

// answer plays the first card of prefs the seat holds whose effect it
// likes (a mafioso moves nothing onto a mate), or passes.
func (b *Bot) answer(s *mafia.State, k *mafia.Knowledge, prefs []engine.Card) engine.Move {
	if !mafiaSide(k) {
		prefs = b.civilPrefs(s, k, prefs)
	}
	for _, c := range prefs {
		sl := k.Holds(s, c)
		if sl < 0 {
			continue
		}
		if d := mafia.Direction(c); d != 0 && b.avoid(k, s.Neighbour(b.Seat, d)) && mafiaSide(k) {
			continue
		}
		return engine.Move{Seat: b.Seat, Kind: mafia.MoveCard, Args: []int{int(c), int(sl), 0}}
	}
	return engine.Move{Seat: b.Seat, Kind: mafia.MovePass}
}

// civilPrefs orders a civilian's answers: a card that cancels first,
// then the cards that move the elimination or attack to a neighbour, the
// less trusted neighbour first.
func (b *Bot) civilPrefs(s *mafia.State, k *mafia.Knowledge, prefs []engine.Card) []engine.Card {
	var cancel, move []engine.Card
	for _, c := range prefs {
		d := mafia.Direction(c)
		if d == 0 {
			cancel = append(cancel, c)
			continue
		}
		move = append(move, c)
	}
	slices.SortStableFunc(move, func(x, y engine.Card) int {
		return b.mem.trust[s.Neighbour(b.Seat, mafia.Direction(x))] - b.mem.trust[s.Neighbour(b.Seat, mafia.Direction(y))]
	})
	return append(cancel, move...)
}

// Night returns the seat's secret choice for power among targets: the
// mafia's and the Madman's victims, the Nurse's save, the Butterfly's
// date, the Commissar's check (a player it has not checked yet).
func (b *Bot) Night(s *mafia.State, k *mafia.Knowledge, power uint8, targets []engine.Seat) engine.Seat {
	b.observe(s)
	switch power {
	case mafia.PowerCheck:
		// The least trusted player not checked yet.
		best, top := mafia.NoSeat, 0
		for _, q := range targets {
			if _, ok := k.Checks[q]; ok || q == b.Seat {
				continue
			}
			w := 8*(16-b.mem.trust[q]) + b.rng.IntN(8)
			if best == mafia.NoSeat || w > top {
				best, top = q, w
			}
		}
		if best != mafia.NoSeat {
			return best
		}
	case mafia.PowerSave, mafia.PowerDate:
		// Protect the player the bot trusts most.
		if q := b.trusted(k, targets); q != mafia.NoSeat {
			return q
		}
	}
	return b.pick(k, targets)
}
