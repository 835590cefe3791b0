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
	// seenAs[i] is the ciphertext Memory[i] was seen in, when the player
	// recorded it (nil for sightings restored from elsewhere): a sighting
	// holds for Known while its slot still holds that ciphertext.
	seenAs []mental.Card
	// shuffled is this seat's last shuffle of some slots, until its entry
	// is applied (Observe turns it into sightings).
	shuffled *trackedShuffle
	// swapBits are the secret bits of the hidden swaps this seat made,
	// by the position of the move's entry, in the move's swap order.
	swapBits map[uint64][]bool
	// restored are this seat's lone shuffles told by RememberShuffle (a
	// restart), by position, until their entries are applied.
	restored map[uint64]LoneShuffle
	// opened are the points of this seat's last private view of each
	// slot, component by component (tuple cards: Opened).
	opened map[engine.Slot][]openedView
	// checkTargets are the seats this seat checked, by the position of
	// its actions entry; Checks are the answers it received.
	checkTargets map[uint64]engine.Seat
	Checks       []CheckResult
	// ballotSecrets are the encoded secrets of the last ballots this seat
	// cast (mental.BallotSecret, newest last, at most maxBallotSecrets):
	// a plurality kill's count lookup is proven from its kill ballot's.
	ballotSecrets [][]byte
}

// maxBallotSecrets is how many ballot secrets a player keeps: a night's
// ballots (at most four powers) twice over.
const maxBallotSecrets = 8

// openedView is what a private view opened: the card's components comps
// (nil: all) were the points, while the slot held card.
type openedView struct {
	card   mental.Card
	comps  []int
	points []*mental.Element
}

// LoneShuffle is what a shuffle of some slots made by this seat alone
// left where: Cards[i] is the card that went to Slots[i] (-1 where the
// seat did not know it). Nobody else can tell (the shuffle's proof hides
// its permutation) and the log does not carry it, so a seat that must
// know its cards after a restart (an unmasked Grimm player's hidden hand)
// keeps it with its secrets: [Player.PendingShuffle] before the entry
// leaves the seat, [Player.RememberShuffle] when it restarts. Digest binds
// it to the shuffled ciphertexts ([ShuffleDigest]).
type LoneShuffle struct {
	Pos    uint64
	Slots  []engine.Slot
	Cards  []engine.Card
	Digest [32]byte
}

// ShuffleDigest is the digest of a shuffle's output ciphertexts, in slot
// order: SHA-512/256 of their encodings. It only ties a seat's own record
// (LoneShuffle) to the entry it made; it is never sent nor signed, so it
// carries no protocol label.
func ShuffleDigest(out []mental.Card) ([32]byte, error) {
	h := sha512.New512_256()
	for _, c := range out {
		b, err := c.MarshalBinary()
		if err != nil {
			return [32]byte{}, err
		}
		h.Write(b)
	}
	return [32]byte(h.Sum(nil)), nil
}

// trackedShuffle is a shuffle this seat authored: where each input card
// went, for the cards it knew.
type trackedShuffle struct {
	pos   uint64
	slots []engine.Slot
	out   []mental.Card
	perm  []int
	cards []engine.Card // the input cards, -1 where unknown
}

// NewPlayer returns the player of seat, signing with sign and holding the
// secret keys keys.
func NewPlayer(seat int, sign ed25519.PrivateKey, keys SeatSecrets) *Player {
	return &Player{Seat: seat, sign: sign, card: keys.Card, view: keys.View, swapBits: map[uint64][]bool{}, restored: map[uint64]LoneShuffle{}, opened: map[engine.Slot][]openedView{}, checkTargets: map[uint64]engine.Seat{}}
}

// PendingShuffle returns the lone shuffle this seat made for the entry at
// t's position, not yet applied (ok=false when the seat made none, or
// shuffled with others: a shuffle others shuffle after tells nothing).
func (p *Player) PendingShuffle(t *Table) (LoneShuffle, bool, error) {
	sh := p.shuffled
	if sh == nil || sh.pos != t.Pos() {
		return LoneShuffle{}, false, nil
	}
	d, err := ShuffleDigest(sh.out)
	if err != nil {
		return LoneShuffle{}, false, err
	}
	ls := LoneShuffle{Pos: sh.pos, Slots: slices.Clone(sh.slots), Digest: d}
	for i := range sh.slots {
		ls.Cards = append(ls.Cards, sh.cards[sh.perm[i]])
	}
	return ls, true, nil
}

// RememberShuffle restores a lone shuffle this seat made (a restarted
// seat reads it from its own records): when its entry is applied again,
// Observe remembers the cards it moved, as after the shuffle itself. A
// record whose digest does not match the applied entry is ignored.
func (p *Player) RememberShuffle(ls LoneShuffle) {
	if len(ls.Slots) != len(ls.Cards) {
		return
	}
	p.restored[ls.Pos] = LoneShuffle{Pos: ls.Pos, Slots: slices.Clone(ls.Slots), Cards: slices.Clone(ls.Cards), Digest: ls.Digest}
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
		// The hidden deal shuffles the whole deck; a shuffle request, its
		// slots.
		if t.st.phase != PhasePlay {
			deck, proof, err := t.joint.Shuffle(t.ctx(t.Pos(), p.Seat), t.st.slots)
			if err != nil {
				return nil, false, fmt.Errorf("table: seat %d's shuffle: %w", p.Seat, err)
			}
			return &Body{Kind: BodyShuffle, Deck: deck, Shuffle: proof}, true, nil
		}
		r := t.Pending()
		known := p.Known(t)
		in := make([]mental.Card, len(r.Slots))
		cards := make([]engine.Card, len(r.Slots))
		for i, sl := range r.Slots {
			in[i] = t.st.slots[sl]
			cards[i] = -1
			if c, ok := known[sl]; ok {
				cards[i] = c
			}
		}
		deck, proof, perm, err := t.joint.ShuffleTracked(t.ctx(t.Pos(), p.Seat), in)
		if err != nil {
			return nil, false, fmt.Errorf("table: seat %d's shuffle of slots %v: %w", p.Seat, r.Slots, err)
		}
		if len(r.Seats) == 1 {
			// A shuffle by this seat alone: it keeps knowing the cards it
			// knew (a later shuffle by others would make them unknown at
			// once, so only a lone shuffle is worth remembering).
			p.shuffled = &trackedShuffle{pos: t.Pos(), slots: slices.Clone(r.Slots), out: deck, perm: perm, cards: cards}
		}
		return &Body{Kind: BodyShuffle, Deck: deck, Shuffle: proof}, true, nil
	case BodyMix:
		r := t.Pending()
		deck, proof, err := t.joint.Shuffle(t.ctx(t.Pos(), p.Seat), r.Cards)
		if err != nil {
			return nil, false, fmt.Errorf("table: seat %d's shuffle of the mix of power %d: %w", p.Seat, r.Power, err)
		}
		return &Body{Kind: BodyMix, Deck: deck, Shuffle: proof}, true, nil
	case BodyBlind:
		r := t.Pending()
		b := &Body{Kind: BodyBlind}
		for i, c := range r.Cards {
			// A fresh factor per card (mental SPEC §9.9 (c)).
			st, err := p.card.BlindStep(t.ctx(t.Pos(), p.Seat), c)
			if err != nil {
				return nil, false, fmt.Errorf("table: seat %d's step %d of the test of power %d: %w", p.Seat, i, r.Power, err)
			}
			b.Blinds = append(b.Blinds, st)
		}
		return b, true, nil
	case BodyLookup:
		b, err := p.lookup(t)
		return b, err == nil, err
	case BodyCoinShare:
		cs, err := p.card.CoinShare(t.ctx(t.Pos(), p.Seat), t.CoinPoint(t.Pending()))
		if err != nil {
			return nil, false, fmt.Errorf("table: seat %d's coin share: %w", p.Seat, err)
		}
		return &Body{Kind: BodyCoinShare, CoinShare: cs}, true, nil
	case BodyShares:
		b, err := p.shares(t)
		return b, err == nil, err
	case BodyActions:
		// Only a seat with no decision to make posts its actions by
		// itself (every ballot empty, the neutral check, its tag).
		if len(p.Decisions(t)) > 0 {
			return nil, false, nil
		}
		b, err := p.ActionsBody(t, nil)
		return b, err == nil, err
	}
	return nil, false, nil
}

func (p *Player) shares(t *Table) (*Body, error) {
	r := t.Pending()
	ctx := t.ShareContext(t.Pos(), p.Seat)
	b := &Body{Kind: BodyShares}
	if r.Kind == engine.EffectCheck {
		for _, c := range r.checkRecipients(engine.Seat(p.Seat)) {
			es, err := p.card.EncryptShare(ctx, r.Cards[slices.Index(r.Checkers, c)], t.views[c])
			if err != nil {
				return nil, err
			}
			b.EncShares = append(b.EncShares, es)
		}
		return b, nil
	}
	if r.Private() {
		for k := range r.Slots {
			for _, y := range r.RecipientsOf(t.Seats(), engine.Seat(p.Seat), k) {
				es, err := p.card.EncryptShare(ctx, r.ShareCard(k), t.views[y])
				if err != nil {
					return nil, err
				}
				b.EncShares = append(b.EncShares, es)
			}
		}
		return b, nil
	}
	for k := range r.Cards {
		sh, err := p.card.Share(ctx, r.ShareCard(k))
		if err != nil {
			return nil, err
		}
		b.Shares = append(b.Shares, sh)
	}
	return b, nil
}

// Why a Player refuses to author a statement (MoveBody): errors.Is
// tells them apart.
var (
	// ErrFalseStatement: the statement a move would make about the
	// player's own card is false (it knows the card).
	ErrFalseStatement = errors.New("the statement is false")
	// ErrNotViewed: the player has no private view of the slot's current
	// card (never viewed, or the card changed since), so it can prove
	// nothing about it.
	ErrNotViewed = errors.New("no private view of the slot's current card")
)

// FalseStatementError is a move whose statement about the seat's own
// card (in Slot) the seat knows to be false: the card is Kind, and the
// statement says it is one of Kinds (none of them, if Not). It wraps
// [ErrFalseStatement]; a game names the cards for people.
type FalseStatementError struct {
	Who   string // "table: seat 0 (Anna)"
	Seat  engine.Seat
	Slot  engine.Slot
	Not   bool
	Kinds []int // card kinds
	Kind  int
}

func (e *FalseStatementError) Error() string {
	what := "one of"
	if e.Not {
		what = "none of"
	}
	return fmt.Sprintf("%s will not state that its card in slot %d is %s %v: it is %d: %v", e.Who, e.Slot, what, e.Kinds, e.Kind, ErrFalseStatement)
}

// Unwrap returns [ErrFalseStatement].
func (e *FalseStatementError) Unwrap() error { return ErrFalseStatement }

// MoveBody returns the body of a move by this seat, with a proof for each
// hidden swap the move causes (swaps[i] is the secret bit of the i-th;
// true: exchange the cards) and for each statement it makes about its own
// card (engine.EffectProve), in the order of the rules' effects. A
// statement is proven over the encrypted shares of the seat's last private
// view of the slot; MoveBody refuses, with an error wrapping
// ErrFalseStatement, a statement it knows to be false, and, wrapping
// ErrNotViewed, one about a card it has not viewed (or that changed since).
func (p *Player) MoveBody(t *Table, m engine.Move, swaps []bool) (*Body, error) {
	seat, kind, ok := t.Expect()
	if !ok || int(seat) != p.Seat || kind != BodyMove {
		// The rules may refuse the move for a reason of their own that
		// matters more than the turn (a player out of the game).
		if r := t.Rules(); ok && kind == BodyMove && r != nil && int(m.Seat) == p.Seat {
			var re *engine.RuleError
			if _, _, err := r.Apply(m); errors.As(err, &re) && re.Rule != ReasonNotYourTurn {
				return nil, err
			}
		}
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
		if ef.Kind == engine.EffectProve {
			sp, err := p.prove(t, ef, slots, len(b.Statements))
			if err != nil {
				return nil, err
			}
			b.Statements = append(b.Statements, *sp)
			continue
		}
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

// prove makes the i-th statement proof of this seat's move: ef is the
// EffectProve, slots the table's ciphertexts at that point of the move.
func (p *Player) prove(t *Table, ef engine.Effect, slots []mental.Card, i int) (*StatementProof, error) {
	if len(ef.Slots) != 1 || int(ef.By) != p.Seat {
		return nil, fmt.Errorf("table: the rules ask for a statement by seat %d about %d slots", ef.By, len(ef.Slots))
	}
	slot := ef.Slots[0]
	kinds, err := statementKinds(t, ef)
	if err != nil {
		return nil, fmt.Errorf("table: %w", err)
	}
	who := fmt.Sprintf("table: seat %d (%s)", p.Seat, t.roster.Seats[p.Seat].Name)
	if int(slot) < 0 || int(slot) >= len(slots) {
		return nil, fmt.Errorf("%s: no slot %d", who, slot)
	}
	comp, err := statementComp(t, ef)
	if err != nil {
		return nil, fmt.Errorf("table: %w", err)
	}
	v, ok := t.st.viewOf(slot, engine.Seat(p.Seat), comp)
	if !ok {
		return nil, fmt.Errorf("%s cannot make a statement about slot %d: it never viewed it: %w", who, slot, ErrNotViewed)
	}
	if !v.card.Equal(slots[slot]) {
		return nil, fmt.Errorf("%s cannot make a statement about slot %d: its card changed since it was viewed: %w", who, slot, ErrNotViewed)
	}
	c, comp := v.viewed(comp)
	var others [][]*mental.Element
	for _, es := range v.sent {
		others = append(others, p.view.Decrypt(es))
	}
	m, err := p.card.Peek(c, others)
	if err != nil {
		return nil, fmt.Errorf("%s: opening slot %d: %w", who, slot, err)
	}
	kind, known := t.cat.Kind(m[comp])
	if !known {
		return nil, fmt.Errorf("%s: slot %d opens to no known card", who, slot)
	}
	if slices.Contains(kinds, kind) == ef.Not {
		return nil, &FalseStatementError{Who: who, Seat: engine.Seat(p.Seat), Slot: slot, Not: ef.Not, Kinds: slices.Clone(kinds), Kind: kind}
	}
	ctx := t.StatementContext(t.Pos(), p.Seat, i)
	if !ef.Not {
		proof, err := mental.ProveViewedHolding(ctx, p.card, p.view, c, comp, v.sent, kinds)
		if err != nil {
			return nil, fmt.Errorf("%s: statement about slot %d: %w", who, slot, err)
		}
		return &StatementProof{Holding: proof, Kinds: len(kinds)}, nil
	}
	sp := &StatementProof{Not: true}
	for _, k := range kinds {
		proof, err := mental.ProveNotHeld(ctx, p.card, p.view, c, comp, v.sent, k)
		if err != nil {
			return nil, fmt.Errorf("%s: statement about slot %d: %w", who, slot, err)
		}
		sp.NotHeld = append(sp.NotHeld, proof)
	}
	return sp, nil
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
// it asked for, a show-others it receives, a public reveal, and its own
// shuffle of some slots (where every card it knew went: a seat shuffling
// its own hidden hand still knows every card of it; nobody else learns
// anything).
func (p *Player) Observe(t *Table) error {
	if t.Pos() == 0 {
		return nil
	}
	pos := t.Pos() - 1
	p.observeShuffle(t, pos)
	for _, r := range t.CompletedAll() {
		if err := p.observeRequest(t, pos, r); err != nil {
			return err
		}
	}
	return nil
}

// observeRequest updates the player's memory after request r completed
// at pos.
func (p *Player) observeRequest(t *Table, pos uint64, r *Request) error {
	switch r.Kind {
	case engine.EffectCheck:
		return p.observeCheck(t, pos, r)
	case engine.EffectPeek:
		for k, sl := range r.Slots {
			if int(r.viewerOf(k)) != p.Seat {
				continue
			}
			m, err := p.open(t, r, k)
			if err != nil {
				return err
			}
			p.rememberOpened(sl, openedView{card: r.Cards[k], comps: r.Comps, points: m})
			first := firstComp(r.Comps)
			if first < 0 {
				continue // a view of other components than the card's kind
			}
			kind, ok := t.cat.Kind(m[first])
			if !ok {
				return fmt.Errorf("table: peeked slot %d opens to no known card", sl)
			}
			p.remember(Sighting{Pos: pos, Slot: sl, Card: engine.Card(kind)}, r.Cards[k])
		}
	case engine.EffectReveal:
		for k, sl := range r.Slots {
			var all [][]*mental.Element
			for i := range r.Seats {
				all = append(all, r.Shares[i][k])
			}
			m, err := mental.Open(r.ShareCard(k), all)
			if err != nil {
				return err
			}
			if first := firstComp(r.Comps); first < 0 {
				continue
			} else if kind, ok := t.cat.Kind(m[first]); ok {
				p.remember(Sighting{Pos: pos, Slot: sl, Card: engine.Card(kind), Public: true}, r.Cards[k])
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
			p.rememberOpened(sl, openedView{card: r.Cards[k], comps: r.Comps, points: m})
			if first := firstComp(r.Comps); first < 0 {
				continue
			} else if kind, ok := t.cat.Kind(m[first]); ok {
				p.remember(Sighting{Pos: pos, Slot: sl, Card: engine.Card(kind)}, r.Cards[k])
			}
		}
	}
	return nil
}

// firstComp is the index, in a view of components comps, of the card's
// first component (its kind), or -1 if the view did not open it.
func firstComp(comps []int) int {
	if comps == nil {
		return 0
	}
	return slices.Index(comps, 0)
}

// Opened returns component comp of the card in slot as this seat's last
// private view of it opened it (the point, which a component holding no
// card kind, such as a group secret, needs), while the slot still holds
// the ciphertext it viewed; ok is false otherwise.
func (p *Player) Opened(t *Table, slot engine.Slot, comp int) (*mental.Element, bool) {
	if int(slot) >= len(t.st.slots) {
		return nil, false
	}
	vs := p.opened[slot]
	for j := len(vs) - 1; j >= 0; j-- {
		v := vs[j]
		if !t.st.slots[slot].Equal(v.card) {
			return nil, false
		}
		i := comp
		if v.comps != nil {
			i = slices.Index(v.comps, comp)
		}
		if i >= 0 && i < len(v.points) {
			return v.points[i], true
		}
	}
	return nil, false
}

// rememberOpened adds a private view of slot; earlier views of another
// ciphertext in the slot are forgotten.
func (p *Player) rememberOpened(slot engine.Slot, v openedView) {
	vs := p.opened[slot]
	if len(vs) > 0 && !vs[len(vs)-1].card.Equal(v.card) {
		vs = nil
	}
	p.opened[slot] = append(slices.Clip(vs), v)
}

// remember appends a sighting of a card seen in ciphertext c.
func (p *Player) remember(sg Sighting, c mental.Card) {
	for len(p.seenAs) < len(p.Memory) {
		p.seenAs = append(p.seenAs, nil)
	}
	p.Memory = append(p.Memory, sg)
	p.seenAs = append(p.seenAs, c)
}

// observeShuffle turns this seat's shuffle, if the entry at pos is it,
// into sightings of the cards it knew, in the slots they went to.
func (p *Player) observeShuffle(t *Table, pos uint64) {
	if ls, ok := p.restored[pos]; ok && (p.shuffled == nil || p.shuffled.pos != pos) {
		delete(p.restored, pos)
		p.observeRestored(t, pos, ls)
		return
	}
	sh := p.shuffled
	if sh == nil || sh.pos > pos {
		return
	}
	p.shuffled = nil
	if sh.pos != pos {
		return // never applied (another body took the position)
	}
	for i, sl := range sh.slots {
		if int(sl) >= len(t.st.slots) || !t.st.slots[sl].Equal(sh.out[i]) {
			return // the applied shuffle is not the one this seat made
		}
	}
	for i, sl := range sh.slots {
		if c := sh.cards[sh.perm[i]]; c >= 0 {
			p.remember(Sighting{Pos: pos, Slot: sl, Card: c}, sh.out[i])
		}
	}
}

// observeRestored turns a remembered lone shuffle into sightings, when the
// entry at pos is this seat's and holds the shuffle remembered.
func (p *Player) observeRestored(t *Table, pos uint64, ls LoneShuffle) {
	if int(pos) >= len(t.seats) || int(t.seats[pos]) != p.Seat {
		return
	}
	out := make([]mental.Card, len(ls.Slots))
	for i, sl := range ls.Slots {
		if int(sl) >= len(t.st.slots) {
			return
		}
		out[i] = t.st.slots[sl]
	}
	if d, err := ShuffleDigest(out); err != nil || d != ls.Digest {
		return // another shuffle took the position (a record of one never sent)
	}
	for i, sl := range ls.Slots {
		if ls.Cards[i] >= 0 {
			p.remember(Sighting{Pos: pos, Slot: sl, Card: ls.Cards[i]}, out[i])
		}
	}
}

// Known returns what this seat knows now, by slot: every card lying face
// up (a fresh deck laid out by a set, a deal never shuffled), and every
// card it saw (its peeks, public reveals, cards shown to it, its own
// shuffles of cards it knew) in a slot that still holds the ciphertext it
// saw the card in. A swap or shuffle by anyone else makes the slot
// unknown again.
func (p *Player) Known(t *Table) map[engine.Slot]engine.Card {
	out := map[engine.Slot]engine.Card{}
	for i, c := range t.st.slots {
		if kind, ok := faceUpKind(t, c); ok {
			out[engine.Slot(i)] = engine.Card(kind)
		}
	}
	for i := len(p.Memory) - 1; i >= 0; i-- {
		sg := p.Memory[i]
		if _, done := out[sg.Slot]; done || i >= len(p.seenAs) || p.seenAs[i] == nil {
			continue
		}
		if int(sg.Slot) < len(t.st.slots) && t.st.slots[sg.Slot].Equal(p.seenAs[i]) {
			out[sg.Slot] = sg.Card
		}
	}
	return out
}

// Opened returns every card of the table by slot, opened with the card
// keys every seat published at the end (Options.PublishKeys), or nil
// until every seat has published its key. Once they are published anyone
// holding the log can open every card (masque replay --reveal); a screen
// shows them face up.
func (t *Table) Opened() map[engine.Slot]engine.Card {
	sum := mental.NewScalar()
	for _, k := range t.st.keys {
		if k == nil {
			return nil
		}
		x, err := mental.NewScalar().SetCanonicalBytes(k)
		if err != nil {
			return nil // checked against the seat's public key when applied
		}
		sum.Add(sum, x)
	}
	if len(t.st.keys) == 0 {
		return nil
	}
	out := map[engine.Slot]engine.Card{}
	for i, c := range t.st.slots {
		if len(c) == 0 {
			continue
		}
		m := mental.Identity().ScalarMult(sum, c[0].A)
		m.Subtract(c[0].B, m)
		if kind, ok := t.cat.Kind(m); ok {
			out[engine.Slot(i)] = engine.Card(kind)
		}
	}
	return out
}

// faceUpKind returns the kind of a trivially masked card (every
// component's first element the identity), or ok=false.
func faceUpKind(t *Table, c mental.Card) (int, bool) {
	if len(c) == 0 {
		return 0, false
	}
	id := mental.Identity()
	for _, ct := range c {
		if ct.A.Equal(id) != 1 {
			return 0, false
		}
	}
	return t.cat.Kind(c[0].B)
}

// open opens the k-th card of a completed private view this seat
// receives: every other author's share, decrypted with the viewing key,
// plus the seat's own share, computed locally and never published.
func (p *Player) open(t *Table, r *Request, k int) ([]*mental.Element, error) {
	var ds [][]*mental.Element
	sent, ok := r.sentTo(t.Seats(), engine.Seat(p.Seat), k)
	if !ok {
		return nil, fmt.Errorf("table: seat %d does not receive a share of slot %d from every other seat", p.Seat, r.Slots[k])
	}
	for _, es := range sent {
		ds = append(ds, p.view.Decrypt(es))
	}
	return p.card.Peek(r.ShareCard(k), ds)
}
