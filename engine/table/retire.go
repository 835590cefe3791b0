package table

import (
	"fmt"
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/mental"
)

// applyRetire applies e, the card key of the seat the rules retire
// (engine.EffectRetire): from now on the table computes that seat's
// shares itself (fillRetired).
func (s *state) applyRetire(t *Table, e *ledger.Entry, b *Body) (*Request, error) {
	r := s.pending[0]
	seat := int(e.Seat)
	if _, err := mental.RetiredKey(b.Key, t.joint.Keys[seat]); err != nil {
		return nil, because(ReasonKeyMismatch, fmt.Errorf("published key does not match the seat's public key: %w", err))
	}
	s.keys[seat] = slices.Clone(b.Key)
	s.retired[seat] = true
	r.next++
	return r, s.complete(t, e.Pos+1, r)
}

// skipPublished moves the key phase past seats that published their key
// during play, and ends it when every seat has.
func (s *state) skipPublished(n int) {
	for s.keysNext < n && s.keys[s.keysNext] != nil {
		s.keysNext++
	}
	if s.keysNext == n {
		s.phase = PhaseDone
	}
}

// fillRetired fills, from the published keys, every contribution the head
// of the queue waits for from a retired seat, completing the requests that
// this fills; next is the position of the next entry. It returns the
// requests completed.
func (s *state) fillRetired(t *Table, next uint64) ([]*Request, error) {
	var done []*Request
	for s.phase == PhasePlay && len(s.pending) > 0 {
		r := s.pending[0]
		if r.next >= len(r.Seats) || !s.retired[r.Seats[r.next]] {
			break
		}
		seat := r.Seats[r.next]
		sk, err := mental.RetiredKey(s.keys[seat], t.joint.Keys[seat])
		if err != nil {
			return nil, fmt.Errorf("seat %d's published key: %w", seat, err)
		}
		switch r.Kind {
		case engine.EffectCoin:
			r.Coins = append(r.Coins, sk.RetiredCoinShare(t.CoinPoint(r)))
		case engine.EffectCheck:
			// A check view: the retired seat's share of every other
			// checker's card, "encrypted" to that checker.
			var enc []*mental.EncryptedShare
			for k, c := range r.Checkers {
				if c != seat {
					enc = append(enc, sk.RetiredEncryptedShare(r.Cards[k]))
				}
			}
			r.Enc = append(r.Enc, enc)
		case engine.EffectTally:
			if r.Tested {
				// A blinded identity test: the retired seat's step is its
				// key taken out, (A, B − x·A), r = 1 (mental SPEC §9.8).
				out := make([]mental.Card, len(r.Cards))
				for i, c := range r.Cards {
					out[i] = sk.RetiredBlindStep(c)
				}
				r.Cards = out
				break
			}
			fallthrough
		case engine.EffectPeek, engine.EffectReveal, engine.EffectShowOthers:
			if r.Private() {
				// A retired seat's share is public: to each viewer it is
				// "encrypted" with randomness 0, (identity, D), which the
				// viewer decrypts and a statement about the card is
				// proven over like any other encrypted share (mental
				// SPEC.md §9.4).
				var enc []*mental.EncryptedShare
				for k := range r.Slots {
					for range r.RecipientsOf(len(t.roster.Seats), seat, k) {
						enc = append(enc, sk.RetiredEncryptedShare(r.ShareCard(k)))
					}
				}
				r.Enc = append(r.Enc, enc)
				r.Shares = append(r.Shares, nil)
			} else {
				var ds [][]*mental.Element
				for k := range r.Cards {
					ds = append(ds, sk.RetiredShare(r.ShareCard(k)))
				}
				r.Shares = append(r.Shares, ds)
				r.Enc = append(r.Enc, nil)
			}
		default:
			return nil, fmt.Errorf("internal: a %s waits for retired seat %d", r.Kind, seat)
		}
		r.next++
		if r.next < len(r.Seats) {
			continue
		}
		if err := s.complete(t, next, r); err != nil {
			return nil, err
		}
		done = append(done, r)
	}
	return done, nil
}
