// Package bot plays Mafia for one seat: deterministic given a seed, by
// its role and what its seat knows privately ([mafia.Knowledge]). The
// mafia never name a mate they recognised; the Commissar votes for the
// mafia he found and spares the players he cleared; everyone plays an
// incident card when attacked or voted out, if they hold one that
// answers.
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
}

// New returns seat's bot, whose choices are deterministic given seed.
func New(seat engine.Seat, seed uint64) *Bot {
	return &Bot{Seat: seat, rng: rand.New(rand.NewPCG(seed, uint64(seat)+0x51ed2701))}
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
	m := engine.Move{Seat: b.Seat}
	switch s.Phase() {
	case mafia.PhaseHold:
		m.Kind, m.Args = mafia.MoveHold, []int{b.rng.IntN(2)}
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
	}
	if b.rng.IntN(10) == 0 {
		return mafia.NoSeat
	}
	return b.pick(k, living)
}

// answer plays the first card of prefs the seat holds whose effect it
// likes (a mafioso moves nothing onto a mate), or passes.
func (b *Bot) answer(s *mafia.State, k *mafia.Knowledge, prefs []engine.Card) engine.Move {
	for _, c := range prefs {
		sl := k.Holds(s, c)
		if sl < 0 {
			continue
		}
		if d := mafia.Direction(c); d != 0 && b.avoid(k, s.Neighbour(b.Seat, d)) && mafiaSide(k) {
			continue
		}
		claim := 0
		if s.Phase() == mafia.PhaseNightAnswer && s.ClaimDue() && k.Role == mafia.Butterfly {
			claim = 1
		}
		return engine.Move{Seat: b.Seat, Kind: mafia.MoveCard, Args: []int{int(c), int(sl), claim}}
	}
	return engine.Move{Seat: b.Seat, Kind: mafia.MovePass}
}

// Night returns the seat's secret choice for power among targets: the
// mafia's and the Madman's victims, the Nurse's save, the Butterfly's
// date, the Commissar's check (a player it has not checked yet).
func (b *Bot) Night(s *mafia.State, k *mafia.Knowledge, power uint8, targets []engine.Seat) engine.Seat {
	switch power {
	case mafia.PowerCheck:
		var fresh []engine.Seat
		for _, q := range targets {
			if _, ok := k.Checks[q]; !ok && q != b.Seat {
				fresh = append(fresh, q)
			}
		}
		if len(fresh) > 0 {
			return fresh[b.rng.IntN(len(fresh))]
		}
	case mafia.PowerSave, mafia.PowerDate:
		// Protect someone the bot trusts: a cleared player if any.
		var cleared []engine.Seat
		for _, q := range targets {
			if m, ok := k.Checks[q]; ok && !m && q != b.Seat {
				cleared = append(cleared, q)
			}
		}
		if len(cleared) > 0 && b.rng.IntN(2) == 0 {
			return cleared[b.rng.IntN(len(cleared))]
		}
		var others []engine.Seat
		for _, q := range targets {
			if q != b.Seat {
				others = append(others, q)
			}
		}
		if len(others) > 0 {
			return others[b.rng.IntN(len(others))]
		}
	}
	return b.pick(k, targets)
}
