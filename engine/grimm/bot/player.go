package bot

import (
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/grimm"
)

// Player is the bot as masque's sessions drive it ([games.KnowingBot]):
// it chooses from what its seat knows, and commits to an Eavesdrop
// portrait with a random nonce (crypto/rand), never the predictable
// [grimm.ScriptNonce] that [grimm.State.LegalMoves] lists for scripts.
type Player struct {
	*Bot
	// known is what the seat knows, rebuilt from observations for Choose
	// (sessions that read the table layer call ChooseKnowing instead).
	known map[engine.Slot]engine.Card
	// commit is the portrait and nonce of the Eavesdrop commitment this
	// seat made and has not opened yet.
	commit *commitment
	// salt, if set (SealWith), is the secret the commitment nonces are
	// derived from.
	salt *[32]byte
}

type commitment struct {
	char  engine.Card
	nonce []int
}

var (
	_ games.KnowingBot = (*Player)(nil)
	_ games.SealingBot = (*Player)(nil)
)

// SealWith implements games.SealingBot: the bot's commitment nonces come
// from salt, the seat and the round, so that a bot restarted with the same
// salt opens the commitment its predecessor made.
func (p *Player) SealWith(salt [32]byte) { p.salt = &salt }

// sealNonce is the nonce of the bot's commitment in state s, from its
// salt: SHA-256 of a label, the salt, the seat, the round and the seat's
// hint tokens left (unchanged from a commitment to its opening, one fewer
// at the next: no two commitments share a nonce), cut to 16 bytes. The
// label is local (the derivation is the bot's own business, checked by
// nobody), so it is not a protocol label.
func (p *Player) sealNonce(s *grimm.State) []int {
	h := sha256.Sum256(append(append([]byte("grimm bot seal nonce v1"), p.salt[:]...), byte(p.Seat), byte(s.Round()), byte(s.TokensLeft(p.Seat))))
	return grimm.NonceArgs([16]byte(h[:16]))
}

// NewBot returns the bot of seat (a [games.BotMaker]), deterministic given
// seed apart from its commitment nonces.
func NewBot(s engine.State, seat engine.Seat, seed uint64) (games.Bot, error) {
	st, ok := s.(*grimm.State)
	if !ok || st == nil {
		return nil, fmt.Errorf("grimm bot: the game is %T, not The Grimm Masquerade", s)
	}
	if seat < 0 || int(seat) >= st.Players() {
		return nil, fmt.Errorf("grimm bot: no seat %d", seat)
	}
	return &Player{Bot: New(seat, seed), known: map[engine.Slot]engine.Card{}}, nil
}

// Choose returns the bot's move with what it rebuilt from observations.
func (p *Player) Choose(s engine.State) (engine.Move, []bool, bool) {
	return p.ChooseKnowing(s, p.known)
}

// ChooseKnowing returns the bot's move given what its seat knows. An
// Eavesdrop commitment gets a fresh random nonce, remembered to open it.
func (p *Player) ChooseKnowing(s engine.State, known map[engine.Slot]engine.Card) (engine.Move, []bool, bool) {
	st, ok := s.(*grimm.State)
	if !ok || st == nil {
		return engine.Move{}, nil, false
	}
	if seat, char, ok := st.Pending(); ok && seat == p.Seat && char == 0 {
		if p.commit != nil {
			m := engine.Move{Seat: p.Seat, Kind: grimm.KindHint, Args: append([]int{int(p.commit.char)}, p.commit.nonce...)}
			p.commit = nil
			return m, nil, true
		}
		if p.salt != nil {
			// Restarted after sealing: the salt's nonce opens the
			// commitment for exactly one portrait.
			nonce := p.sealNonce(st)
			for _, c := range grimm.Characters() {
				m := engine.Move{Seat: p.Seat, Kind: grimm.KindHint, Args: append([]int{int(c)}, nonce...)}
				if _, _, err := st.Play(m); err == nil {
					return m, nil, true
				}
			}
		}
	}
	m, ok := p.Bot.Choose(st, known)
	if !ok {
		return m, nil, false
	}
	if m.Kind == grimm.KindCommit {
		c, err := committed(st, p.Seat, m.Args)
		if err != nil {
			return engine.Move{}, nil, false
		}
		var nonce []int
		if p.salt != nil {
			nonce = p.sealNonce(st)
		} else if nonce, err = randomNonce(); err != nil {
			return engine.Move{}, nil, false
		}
		p.commit = &commitment{char: c, nonce: nonce}
		m.Args = grimm.CommitArgs(grimm.CommitHash(p.Seat, c, nonce))
	}
	return m, nil, true
}

// committed finds the portrait a script-nonce commitment listed by
// LegalMoves is to.
func committed(s *grimm.State, p engine.Seat, args []int) (engine.Card, error) {
	for _, c := range grimm.Characters() {
		h := grimm.CommitArgs(grimm.CommitHash(p, c, grimm.NonceArgs(grimm.ScriptNonce(p, s.Round()))))
		if slicesEqual(h, args) {
			return c, nil
		}
	}
	return 0, errors.New("grimm bot: a commitment to no portrait")
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// randomNonce draws a commitment nonce from crypto/rand.
func randomNonce() ([]int, error) {
	var n [16]byte
	if _, err := rand.Read(n[:]); err != nil {
		return nil, fmt.Errorf("grimm bot: nonce: %w", err)
	}
	return grimm.NonceArgs(n), nil
}

// Observe updates what the bot knows from a step's public effects and
// facts and what its seat saw: sets and reveals are known to all, a
// shuffle makes its slots unknown, then the seat's own sightings (its
// peeks, and where the cards of its own shuffles went) are added.
func (p *Player) Observe(o games.Observation) {
	for _, e := range o.Effects {
		switch e.Kind {
		case engine.EffectSet:
			for i, sl := range e.Slots {
				if i < len(e.Cards) {
					p.known[sl] = e.Cards[i]
				}
			}
		case engine.EffectShuffle:
			for _, sl := range e.Slots {
				delete(p.known, sl)
			}
		}
	}
	for _, f := range o.Facts {
		if f.Slot >= 0 {
			p.known[f.Slot] = f.Card
		}
	}
	for _, f := range o.Seen {
		p.known[f.Slot] = f.Card
	}
}

// Known returns a copy of what the bot rebuilt from observations.
func (p *Player) Known() map[engine.Slot]engine.Card { return maps.Clone(p.known) }
