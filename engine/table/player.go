package table

import (
	"crypto/ed25519"
	"crypto/sha512"
	"errors"
	"fmt"
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/mental"
)

// Sighting is something a seat saw: the card in a slot at a position.
type Sighting struct {
	Pos    uint64 // the entry that completed the sighting
	Slot   engine.Slot
	Card   engine.Card
	Public bool // a public reveal, seen by everyone
}

// Player is one seat's private side of a table: its keys and memory, and
// the entries it authors. The same entries go through the same
// [Table.Apply] as everyone else's.
type Player struct {
	Seat   int
	sign   ed25519.PrivateKey
	card   *mental.SecretKey
	view   *mental.SecretKey
	Memory []Sighting
	// swapBits are the secret bits of the hidden swaps this seat made,
	// by the position of the move's entry, in the move's swap order.
	swapBits map[uint64][]bool
}

// NewPlayer returns the player of seat, signing with sign and holding the
// secret keys keys.
func NewPlayer(seat int, sign ed25519.PrivateKey, keys SeatSecrets) *Player {
	return &Player{Seat: seat, sign: sign, card: keys.Card, view: keys.View, swapBits: map[uint64][]bool{}}
}

// SwapBits returns the secret bits of the hidden swaps this seat made (or
// was told of with RememberSwapBits), by the position of the move's entry:
// true for an exchange, in the move's swap order. A position whose entry
// is not this seat's move (a body made but never sent) means nothing.
func (p *Player) SwapBits() map[uint64][]bool {
	out := make(map[uint64][]bool, len(p.swapBits))
	for pos, b := range p.swapBits {
		out[pos] = slices.Clone(b)
	}
	return out
}

// RememberSwapBits restores the bits of a move this seat made at pos (a
// restarted seat reads them from its own records: the log does not
// carry them).
func (p *Player) RememberSwapBits(pos uint64, bits []bool) {
	p.swapBits[pos] = slices.Clone(bits)
}

// CardKey returns the player's secret card key.
func (p *Player) CardKey() *mental.SecretKey { return p.card }

// ViewingKey returns the player's secret viewing key.
func (p *Player) ViewingKey() *mental.SecretKey { return p.view }

// coin is this seat's deal coin: derived from its secret key and the game,
// so a restarted peer reveals the coin it committed to.
func (p *Player) coin(gameID ledger.Hash) [32]byte {
	h := sha512.New512_256()
	h.Write([]byte("masque/v1/deal-coin"))
	h.Write(p.card.Bytes())
	h.Write(gameID[:])
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// AutoBody returns the body of the next entry when it is this seat's turn
// to post something that needs no decision (a deal coin, shares, its key).
// ok is false when the next entry is not this seat's or needs a decision
// (a move).
func (p *Player) AutoBody(t *Table) (b *Body, ok bool, err error) {
	seat, kind, more := t.Expect()
	if !more || int(seat) != p.Seat {
		return nil, false, nil
	}
	switch kind {
	case BodyCommit:
		return &Body{Kind: BodyCommit, Coin: CoinCommitment(t.gameID, p.Seat, p.coin(t.gameID))}, true, nil
	case BodyReveal:
		return &Body{Kind: BodyReveal, Coin: p.coin(t.gameID)}, true, nil
	case BodyKey:
		return &Body{Kind: BodyKey, Key: p.card.Bytes()}, true, nil
	case BodyShuffle:
		deck, proof, err := t.joint.Shuffle(t.ctx(t.Pos(), p.Seat), t.st.slots)
		if err != nil {
			return nil, false, err
		}
		return &Body{Kind: BodyShuffle, Deck: deck, Shuffle: proof}, true, nil
	case BodyShares:
		b, err := p.shares(t)
		return b, err == nil, err
	}
	return nil, false, nil
}

func (p *Player) shares(t *Table) (*Body, error) {
	r := t.Pending()
	ctx := t.ShareContext(t.Pos(), p.Seat)
	b := &Body{Kind: BodyShares}
	if r.Private() {
		rec := r.Recipients(t.Seats(), engine.Seat(p.Seat))
		for k := range r.Slots {
			for _, y := range rec {
				es, err := p.card.EncryptShare(ctx, r.Cards[k], t.views[y])
				if err != nil {
					return nil, err
				}
				b.EncShares = append(b.EncShares, es)
			}
		}
		return b, nil
	}
	for k := range r.Slots {
		sh, err := p.card.Share(ctx, r.Cards[k])
		if err != nil {
			return nil, err
		}
		b.Shares = append(b.Shares, sh)
	}
	return b, nil
}

// MoveBody returns the body of a move by this seat, with a proof for each
// hidden swap the move causes; swaps[i] is the secret bit of the i-th
// (true: exchange the cards).
func (p *Player) MoveBody(t *Table, m engine.Move, swaps []bool) (*Body, error) {
	seat, kind, ok := t.Expect()
	if !ok || int(seat) != p.Seat || kind != BodyMove {
		return nil, p.notYourMove(t, seat, kind, ok)
	}
	m.Seat = engine.Seat(p.Seat)
	_, effects, err := t.st.rules.Apply(m)
	if err != nil {
		return nil, err
	}
	slots := slices.Clone(t.st.slots)
	b := &Body{Kind: BodyMove, Move: engine.Move{Kind: m.Kind, Args: slices.Clone(m.Args)}}
	i := 0
	for _, ef := range effects {
		if ef.Kind != engine.EffectSwap {
			continue
		}
		if i >= len(swaps) {
			return nil, errors.New("table: the move causes a hidden swap: say whether to exchange the cards")
		}
		a, c := ef.Slots[0], ef.Slots[1]
		o0, o1, proof, err := t.joint.Swap(t.SwapContext(t.Pos(), p.Seat, i), slots[a], slots[c], swaps[i])
		if err != nil {
			return nil, err
		}
		slots[a], slots[c] = o0, o1
		b.Swaps = append(b.Swaps, SwapPayload{Out0: o0, Out1: o1, Proof: proof})
		i++
	}
	if i != len(swaps) {
		return nil, fmt.Errorf("table: %d swap bits given, the move causes %d swaps", len(swaps), i)
	}
	if i > 0 {
		p.swapBits[t.Pos()] = slices.Clone(swaps)
	}
	return b, nil
}

// notYourMove says why this seat cannot move now, naming it, whose entry
// the table waits for and what that entry is (rule "not-your-turn").
func (p *Player) notYourMove(t *Table, seat engine.Seat, kind BodyKind, ok bool) error {
	name := func(s int) string {
		if s >= 0 && s < len(t.roster.Seats) {
			return t.roster.Seats[s].Name
		}
		return fmt.Sprintf("seat %d", s)
	}
	var why string
	switch {
	case !ok:
		why = "the game is over"
	case kind == BodyMove:
		why = fmt.Sprintf("it is %s's move", name(int(seat)))
	case kind == BodyShares:
		why = fmt.Sprintf("the table waits for %s's decryption shares", name(int(seat)))
	default:
		why = fmt.Sprintf("the table waits for %s's %s entry", name(int(seat)), kind)
	}
	return &engine.RuleError{Seat: engine.Seat(p.Seat), Rule: ReasonNotYourTurn, Msg: fmt.Sprintf("%s cannot move now: %s", name(p.Seat), why)}
}

// Entry signs body as this seat's entry at the table's next position.
func (p *Player) Entry(t *Table, b *Body) (*ledger.Entry, error) {
	enc, err := b.MarshalBinary()
	if err != nil {
		return nil, err
	}
	e := &ledger.Entry{Pos: t.st.pos, Seat: uint8(p.Seat), Prev: t.st.prev, Body: enc}
	e.Sign(t.gameID, p.sign)
	return e, nil
}

// Observe updates the player's memory after an entry was applied: a peek
// it asked for, a show-others it receives, a public reveal.
func (p *Player) Observe(t *Table) error {
	r := t.Completed()
	if r == nil {
		return nil
	}
	pos := t.Pos() - 1
	switch r.Kind {
	case engine.EffectPeek:
		if int(r.By) != p.Seat {
			return nil
		}
		m, err := p.open(t, r, 0)
		if err != nil {
			return err
		}
		kind, ok := t.cat.Kind(m[0])
		if !ok {
			return fmt.Errorf("table: peeked slot %d opens to no known card", r.Slots[0])
		}
		p.Memory = append(p.Memory, Sighting{Pos: pos, Slot: r.Slots[0], Card: engine.Card(kind)})
	case engine.EffectReveal:
		for k, sl := range r.Slots {
			var all [][]*mental.Element
			for i := range r.Seats {
				all = append(all, r.Shares[i][k])
			}
			m, err := mental.Open(r.Cards[k], all)
			if err != nil {
				return err
			}
			if kind, ok := t.cat.Kind(m[0]); ok {
				p.Memory = append(p.Memory, Sighting{Pos: pos, Slot: sl, Card: engine.Card(kind), Public: true})
			}
		}
	case engine.EffectShowOthers:
		if int(r.Except) == p.Seat {
			return nil
		}
		for k, sl := range r.Slots {
			m, err := p.open(t, r, k)
			if err != nil {
				return err
			}
			if kind, ok := t.cat.Kind(m[0]); ok {
				p.Memory = append(p.Memory, Sighting{Pos: pos, Slot: sl, Card: engine.Card(kind)})
			}
		}
	}
	return nil
}

// open opens the k-th card of a completed private view this seat
// receives: every other author's share, decrypted with the viewing key,
// plus the seat's own share, computed locally and never published.
func (p *Player) open(t *Table, r *Request, k int) ([]*mental.Element, error) {
	var ds [][]*mental.Element
	for i, author := range r.Seats {
		if int(author) == p.Seat {
			continue
		}
		rec := r.Recipients(t.Seats(), author)
		idx := slices.Index(rec, engine.Seat(p.Seat))
		if idx < 0 || i >= len(r.Enc) || k*len(rec)+idx >= len(r.Enc[i]) {
			return nil, fmt.Errorf("table: seat %d receives no share of slot %d from seat %d", p.Seat, r.Slots[k], author)
		}
		ds = append(ds, p.view.Decrypt(r.Enc[i][k*len(rec)+idx]))
	}
	return p.card.Peek(r.Cards[k], ds)
}
