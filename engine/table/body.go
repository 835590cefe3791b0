package table

import (
	"errors"
	"fmt"

	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/mental"
)

// BodyKind is the first byte of an entry body.
type BodyKind uint8

// The kinds of entry body.
const (
	BodyCommit    BodyKind = iota + 1 // a deal coin commitment: 32 bytes
	BodyReveal                        // a deal coin reveal: 32 bytes
	BodyMove                          // a move and the swap proofs it needs
	BodyShares                        // decryption shares for one pending request
	BodyKey                           // the author's secret card key, after the game
	BodyShuffle                       // a shuffle (the hidden deal's whole deck, or a request's slots) and its proof
	BodyCoinShare                     // a seat's share of a joint coin (mental SPEC §3.12)
	BodyActions                       // a seat's secret actions: ballots, a check, a tag (Mafia's night)
	BodyMix                           // a seat's shuffle of a one-vote kill's code sums (width 1) or of a plurality kill's cards or rows (width 2), and the proof
	BodyBlind                         // a seat's steps of blinded identity tests (mental SPEC §9.8, §9.9): 224 bytes per card tested
	BodyLookup                        // a seat's count lookup of a plurality kill (mental SPEC §9.9)
)

// MixWidth is the width of a plurality kill's (code sum, count) cards and
// kill table rows (mental SPEC §9.9); VoteMixWidth that of a one-vote
// kill's code sums (§9.8).
const (
	MixWidth     = 2
	VoteMixWidth = 1
)

func (k BodyKind) String() string {
	switch k {
	case BodyCommit:
		return "commit"
	case BodyReveal:
		return "reveal"
	case BodyMove:
		return "move"
	case BodyShares:
		return "shares"
	case BodyKey:
		return "key"
	case BodyShuffle:
		return "shuffle"
	case BodyCoinShare:
		return "coin-share"
	case BodyActions:
		return "actions"
	case BodyMix:
		return "mix"
	case BodyBlind:
		return "blind"
	case BodyLookup:
		return "lookup"
	}
	return fmt.Sprintf("body(%d)", uint8(k))
}

// SwapPayload is what a hidden swap adds to the entry of the move that
// causes it: both output cards and the proof.
type SwapPayload struct {
	Out0, Out1 mental.Card
	Proof      *mental.SwapProof
}

// StatementProof is what an [engine.EffectProve] adds to the entry of the
// move that causes it: the prover's proof about its own privately viewed
// card (docs/protocol.md §4.1). A statement "my card is one of S" (Not
// false) is one viewed-holding proof over the |S| kinds (mental SPEC
// §3.9); "my card is none of S" (Not true) is one constant-size not-held
// proof per kind of S, in S's order (SPEC §3.11), all of which must hold.
type StatementProof struct {
	Not     bool
	Holding *mental.SigmaProof // Not false
	Kinds   int                // Not false: the number of kinds Holding is over
	NotHeld []*mental.NotHeldProof
}

// size is the number of kinds the proof is about.
func (sp *StatementProof) size() int {
	if sp.Not {
		return len(sp.NotHeld)
	}
	return sp.Kinds
}

// Statement proof tags (docs/protocol.md §4.1).
const (
	statementOneOf  = 1
	statementNoneOf = 2
)

// Body is a decoded entry body. Exactly the fields of its Kind are set.
type Body struct {
	Kind BodyKind
	Coin [32]byte // commit or reveal
	Move engine.Move
	// Swaps holds one payload per EffectSwap the move causes, in order.
	Swaps []SwapPayload
	// Statements holds one proof per EffectProve the move causes, in
	// order. A move without any encodes exactly as before they existed.
	Statements []StatementProof
	// Shares holds, for a peek or reveal, one share per slot of the
	// request; for a show-others request, one encrypted share per slot and
	// recipient (recipients in seat order, skipping the excepted seat and
	// the author).
	Shares    []*mental.Share
	EncShares []*mental.EncryptedShare
	Key       []byte // BodyKey: the secret key's encoding
	// Deck and Shuffle: a seat's shuffle (BodyShuffle) of the whole deck
	// (a hidden deal) or of the pending shuffle request's slots, in the
	// request's slot order.
	Deck    []mental.Card
	Shuffle *mental.ShuffleProof
	// CoinShare: BodyCoinShare.
	CoinShare *mental.CoinShare
	// Actions: BodyActions' parts, one per part of the pending actions
	// request in its order, each the encoding of a powered ballot
	// (mental SPEC §9.2), a check (§9.3) or a 32-byte tag (§9.1), decoded
	// against the request's statements when the entry is applied.
	Actions [][]byte
	// Blinds: BodyBlind, one step of a blinded identity test per card
	// the pending test request tests, in its order (one for a one-vote
	// kill's test, every card of a plurality kill's).
	Blinds []*mental.BlindStep
	// Lookup and LookupTargets: BodyLookup, a count lookup over
	// LookupTargets targets.
	Lookup        *mental.CountLookup
	LookupTargets int
}

// Limits on what a body may hold.
const (
	// MaxActions is the most parts an actions body carries.
	MaxActions = 16
	// maxActionSize bounds one part's encoding (a powered ballot over 64
	// targets with 64 roles is under 25 KiB).
	maxActionSize = 1 << 16
	maxArgs       = 16
	maxSwaps      = 4
	maxShares     = 256
	// MaxStatements is the most statement proofs a move's entry carries.
	MaxStatements = 4
	// MaxStatementKinds is the most kinds one statement is about.
	MaxStatementKinds = mental.MaxHoldingKinds
)

// MarshalBinary returns the canonical encoding of b.
func (b *Body) MarshalBinary() ([]byte, error) {
	var out cryptobyte.Builder
	out.AddUint8(uint8(b.Kind))
	switch b.Kind {
	case BodyCommit, BodyReveal:
		out.AddBytes(b.Coin[:])
	case BodyMove:
		if len(b.Move.Args) > maxArgs || len(b.Swaps) > maxSwaps {
			return nil, errors.New("body: move too large")
		}
		out.AddUint8(b.Move.Kind)
		out.AddUint8(uint8(len(b.Move.Args)))
		for _, a := range b.Move.Args {
			if a != int(int32(a)) {
				return nil, fmt.Errorf("body: move argument %d out of range", a)
			}
			out.AddUint32(uint32(int32(a)))
		}
		out.AddUint8(uint8(len(b.Swaps)))
		for _, s := range b.Swaps {
			for _, c := range []mental.Card{s.Out0, s.Out1} {
				enc, err := c.MarshalBinary()
				if err != nil {
					return nil, err
				}
				out.AddBytes(enc)
			}
			p, _ := s.Proof.MarshalBinary()
			out.AddBytes(p)
		}
		if len(b.Statements) > MaxStatements {
			return nil, errors.New("body: too many statement proofs")
		}
		if len(b.Statements) > 0 {
			out.AddUint8(uint8(len(b.Statements)))
		}
		for i, sp := range b.Statements {
			if err := appendStatement(&out, &sp); err != nil {
				return nil, fmt.Errorf("body: statement %d: %w", i, err)
			}
		}
	case BodyShares:
		if len(b.Shares) > 255 || len(b.EncShares) > 255 || len(b.Shares)+len(b.EncShares) > maxShares {
			return nil, errors.New("body: too many shares")
		}
		out.AddUint8(uint8(len(b.Shares)))
		for _, s := range b.Shares {
			enc, _ := s.MarshalBinary()
			out.AddUint16LengthPrefixed(func(o *cryptobyte.Builder) { o.AddBytes(enc) })
		}
		out.AddUint8(uint8(len(b.EncShares)))
		for _, s := range b.EncShares {
			enc, _ := s.MarshalBinary()
			out.AddUint16LengthPrefixed(func(o *cryptobyte.Builder) { o.AddBytes(enc) })
		}
	case BodyKey:
		if len(b.Key) != mental.ScalarSize {
			return nil, errors.New("body: key must be 32 bytes")
		}
		out.AddBytes(b.Key)
	case BodyShuffle, BodyMix:
		if len(b.Deck) == 0 || len(b.Deck) > mental.MaxShuffle || b.Shuffle == nil {
			return nil, errors.New("body: a shuffle needs 1..64 cards and a proof")
		}
		out.AddUint8(uint8(len(b.Deck)))
		for _, c := range b.Deck {
			enc, err := c.MarshalBinary()
			if err != nil {
				return nil, err
			}
			out.AddBytes(enc)
		}
		p, err := b.Shuffle.MarshalBinary()
		if err != nil {
			return nil, err
		}
		out.AddBytes(p)
	case BodyBlind:
		if len(b.Blinds) == 0 || len(b.Blinds) > mental.MaxShuffle {
			return nil, errors.New("body: a blind body needs 1..64 steps")
		}
		for _, st := range b.Blinds {
			if st == nil {
				return nil, errors.New("body: a blind body needs its steps")
			}
			enc, err := st.MarshalBinary()
			if err != nil {
				return nil, err
			}
			out.AddBytes(enc)
		}
	case BodyLookup:
		if b.Lookup == nil || b.LookupTargets < 1 || b.LookupTargets > mental.MaxBallotEntries {
			return nil, errors.New("body: a lookup body needs its lookup over 1..64 targets")
		}
		enc, err := b.Lookup.MarshalBinary()
		if err != nil {
			return nil, err
		}
		if len(enc) != mental.CountLookupSize(b.LookupTargets) {
			return nil, fmt.Errorf("body: a lookup of %d bytes over %d targets", len(enc), b.LookupTargets)
		}
		out.AddUint8(uint8(b.LookupTargets))
		out.AddBytes(enc)
	case BodyCoinShare:
		if b.CoinShare == nil {
			return nil, errors.New("body: a coin share body needs its share")
		}
		enc, err := b.CoinShare.MarshalBinary()
		if err != nil {
			return nil, err
		}
		out.AddBytes(enc)
	case BodyActions:
		if len(b.Actions) < 1 || len(b.Actions) > MaxActions {
			return nil, fmt.Errorf("body: %d actions, want 1..%d", len(b.Actions), MaxActions)
		}
		out.AddUint8(uint8(len(b.Actions)))
		for i, a := range b.Actions {
			if len(a) < 1 || len(a) > maxActionSize {
				return nil, fmt.Errorf("body: action %d is %d bytes, want 1..%d", i, len(a), maxActionSize)
			}
			out.AddUint32(uint32(len(a)))
			out.AddBytes(a)
		}
	default:
		return nil, fmt.Errorf("body: unknown kind %d", b.Kind)
	}
	return out.Bytes()
}

// appendStatement encodes one statement proof: tag u8 ‖ k u8 ‖ proof.
func appendStatement(out *cryptobyte.Builder, sp *StatementProof) error {
	k := sp.size()
	if k < 1 || k > MaxStatementKinds {
		return fmt.Errorf("a statement about %d kinds, want 1..%d", k, MaxStatementKinds)
	}
	if sp.Not {
		out.AddUint8(statementNoneOf)
		out.AddUint8(uint8(k))
		for _, p := range sp.NotHeld {
			if p == nil {
				return errors.New("a missing not-held proof")
			}
			enc, err := p.MarshalBinary()
			if err != nil {
				return err
			}
			out.AddBytes(enc)
		}
		return nil
	}
	if sp.Holding == nil {
		return errors.New("a missing holding proof")
	}
	enc, err := sp.Holding.MarshalBinary()
	if err != nil {
		return err
	}
	if len(enc) != mental.ViewedHoldingProofSize(k) {
		return fmt.Errorf("a holding proof of %d bytes for %d kinds", len(enc), k)
	}
	out.AddUint8(statementOneOf)
	out.AddUint8(uint8(k))
	out.AddBytes(enc)
	return nil
}

// readStatement decodes one statement proof strictly.
func readStatement(s *cryptobyte.String) (StatementProof, error) {
	var tag, k uint8
	if !s.ReadUint8(&tag) || !s.ReadUint8(&k) {
		return StatementProof{}, errors.New("truncated")
	}
	if k < 1 || int(k) > MaxStatementKinds {
		return StatementProof{}, fmt.Errorf("about %d kinds, want 1..%d", k, MaxStatementKinds)
	}
	switch tag {
	case statementOneOf:
		var p []byte
		if !s.ReadBytes(&p, mental.ViewedHoldingProofSize(int(k))) {
			return StatementProof{}, errors.New("holding proof truncated")
		}
		proof, err := mental.UnmarshalViewedHoldingProof(p, int(k))
		if err != nil {
			return StatementProof{}, err
		}
		return StatementProof{Holding: proof, Kinds: int(k)}, nil
	case statementNoneOf:
		sp := StatementProof{Not: true}
		for j := range int(k) {
			var p []byte
			if !s.ReadBytes(&p, notHeldSize) {
				return StatementProof{}, fmt.Errorf("not-held proof %d truncated", j)
			}
			proof, err := mental.UnmarshalNotHeldProof(p)
			if err != nil {
				return StatementProof{}, fmt.Errorf("not-held proof %d: %w", j, err)
			}
			sp.NotHeld = append(sp.NotHeld, proof)
		}
		return sp, nil
	}
	return StatementProof{}, fmt.Errorf("unknown statement tag %d", tag)
}

// notHeldSize is the length of a not-held proof (mental SPEC §6).
const notHeldSize = 224

// UnmarshalBody decodes a body strictly: every field canonical, nothing
// left over. Card widths are checked against width.
func UnmarshalBody(data []byte, width int) (*Body, error) {
	s := cryptobyte.String(data)
	var kind uint8
	if !s.ReadUint8(&kind) {
		return nil, errors.New("body: empty")
	}
	b := &Body{Kind: BodyKind(kind)}
	switch b.Kind {
	case BodyCommit, BodyReveal:
		if !s.CopyBytes(b.Coin[:]) {
			return nil, fmt.Errorf("body: %s truncated", b.Kind)
		}
	case BodyMove:
		var n uint8
		if !s.ReadUint8(&b.Move.Kind) || !s.ReadUint8(&n) {
			return nil, errors.New("body: move truncated")
		}
		if n > maxArgs {
			return nil, fmt.Errorf("body: move has %d arguments, limit %d", n, maxArgs)
		}
		for range n {
			var v uint32
			if !s.ReadUint32(&v) {
				return nil, errors.New("body: move arguments truncated")
			}
			b.Move.Args = append(b.Move.Args, int(int32(v)))
		}
		if !s.ReadUint8(&n) {
			return nil, errors.New("body: swap count truncated")
		}
		if n > maxSwaps {
			return nil, fmt.Errorf("body: %d swaps, limit %d", n, maxSwaps)
		}
		cardLen := 1 + 64*width
		for i := range int(n) {
			var c0, c1, p []byte
			if !s.ReadBytes(&c0, cardLen) || !s.ReadBytes(&c1, cardLen) || !s.ReadBytes(&p, 224) {
				return nil, fmt.Errorf("body: swap %d truncated", i)
			}
			var sp SwapPayload
			var err error
			if sp.Out0, err = mental.UnmarshalCard(c0); err != nil {
				return nil, fmt.Errorf("body: swap %d: first card: %w", i, err)
			}
			if sp.Out1, err = mental.UnmarshalCard(c1); err != nil {
				return nil, fmt.Errorf("body: swap %d: second card: %w", i, err)
			}
			if sp.Out0.Width() != width || sp.Out1.Width() != width {
				return nil, fmt.Errorf("body: swap %d: card width, want %d", i, width)
			}
			if sp.Proof, err = mental.UnmarshalSwapProof(p); err != nil {
				return nil, fmt.Errorf("body: swap %d: %w", i, err)
			}
			b.Swaps = append(b.Swaps, sp)
		}
		if !s.Empty() {
			// Statement proofs: present only when the move has some,
			// so a count of zero is not canonical.
			if !s.ReadUint8(&n) || n == 0 || n > MaxStatements {
				return nil, fmt.Errorf("body: statement count %d, want 1..%d", n, MaxStatements)
			}
			for i := range int(n) {
				sp, err := readStatement(&s)
				if err != nil {
					return nil, fmt.Errorf("body: statement %d: %w", i, err)
				}
				b.Statements = append(b.Statements, sp)
			}
		}
	case BodyShares:
		var n uint8
		if !s.ReadUint8(&n) {
			return nil, errors.New("body: share count truncated")
		}
		for i := range int(n) {
			var enc cryptobyte.String
			if !s.ReadUint16LengthPrefixed(&enc) {
				return nil, fmt.Errorf("body: share %d truncated", i)
			}
			sh, err := mental.UnmarshalShare(enc)
			if err != nil {
				return nil, fmt.Errorf("body: share %d: %w", i, err)
			}
			b.Shares = append(b.Shares, sh)
		}
		if !s.ReadUint8(&n) {
			return nil, errors.New("body: encrypted share count truncated")
		}
		for i := range int(n) {
			var enc cryptobyte.String
			if !s.ReadUint16LengthPrefixed(&enc) {
				return nil, fmt.Errorf("body: encrypted share %d truncated", i)
			}
			sh, err := mental.UnmarshalEncryptedShare(enc)
			if err != nil {
				return nil, fmt.Errorf("body: encrypted share %d: %w", i, err)
			}
			b.EncShares = append(b.EncShares, sh)
		}
		if len(b.Shares)+len(b.EncShares) > maxShares {
			return nil, fmt.Errorf("body: %d shares, limit %d", len(b.Shares)+len(b.EncShares), maxShares)
		}
	case BodyKey:
		b.Key = make([]byte, mental.ScalarSize)
		if !s.CopyBytes(b.Key) {
			return nil, errors.New("body: key truncated")
		}
	case BodyShuffle, BodyMix:
		w := width
		var n uint8
		if !s.ReadUint8(&n) || n == 0 || int(n) > mental.MaxShuffle {
			return nil, fmt.Errorf("body: %s: bad deck size", b.Kind)
		}
		if b.Kind == BodyMix {
			// A mix's width is its first card's: 2 (a plurality kill's
			// cards or rows) or 1 (a one-vote kill's code sums); every
			// card's must be the same.
			if len(s) == 0 || (s[0] != MixWidth && s[0] != VoteMixWidth) {
				return nil, fmt.Errorf("body: %s: card 0 missing or not of width %d or %d", b.Kind, VoteMixWidth, MixWidth)
			}
			w = int(s[0])
		}
		cardLen := 1 + 64*w
		for i := range int(n) {
			var c []byte
			if !s.ReadBytes(&c, cardLen) {
				return nil, fmt.Errorf("body: %s: card %d truncated", b.Kind, i)
			}
			card, err := mental.UnmarshalCard(c)
			if err != nil {
				return nil, fmt.Errorf("body: %s: card %d: %w", b.Kind, i, err)
			}
			if card.Width() != w {
				return nil, fmt.Errorf("body: %s: card %d has width %d, want %d", b.Kind, i, card.Width(), w)
			}
			b.Deck = append(b.Deck, card)
		}
		var p []byte
		if !s.ReadBytes(&p, mental.ShuffleProofSize(int(n), w)) {
			return nil, fmt.Errorf("body: %s: proof truncated", b.Kind)
		}
		proof, err := mental.UnmarshalShuffleProof(p, int(n), w)
		if err != nil {
			return nil, fmt.Errorf("body: %s: %w", b.Kind, err)
		}
		b.Shuffle = proof
	case BodyBlind:
		// m steps of 224 bytes, m ≥ 1 (the request says how many).
		if len(s) == 0 || len(s)%mental.BlindStepSize != 0 || len(s)/mental.BlindStepSize > mental.MaxShuffle {
			return nil, fmt.Errorf("body: blind steps truncated (%d bytes, want 1..64 steps of %d)", len(s), mental.BlindStepSize)
		}
		for i := 0; len(s) > 0; i++ {
			var enc []byte
			s.ReadBytes(&enc, mental.BlindStepSize)
			st, err := mental.UnmarshalBlindStep(enc)
			if err != nil {
				return nil, fmt.Errorf("body: blind step %d: %w", i, err)
			}
			b.Blinds = append(b.Blinds, st)
		}
	case BodyLookup:
		var n uint8
		if !s.ReadUint8(&n) || n == 0 || int(n) > mental.MaxBallotEntries {
			return nil, errors.New("body: lookup: target count missing or not 1..64")
		}
		var enc []byte
		if !s.ReadBytes(&enc, mental.CountLookupSize(int(n))) {
			return nil, errors.New("body: lookup truncated")
		}
		l, err := mental.UnmarshalCountLookup(enc, int(n))
		if err != nil {
			return nil, fmt.Errorf("body: lookup: %w", err)
		}
		b.Lookup, b.LookupTargets = l, int(n)
	case BodyCoinShare:
		var enc []byte
		if !s.ReadBytes(&enc, mental.CoinShareSize) {
			return nil, errors.New("body: coin share truncated")
		}
		cs, err := mental.UnmarshalCoinShare(enc)
		if err != nil {
			return nil, fmt.Errorf("body: coin share: %w", err)
		}
		b.CoinShare = cs
	case BodyActions:
		var n uint8
		if !s.ReadUint8(&n) || n < 1 || n > MaxActions {
			return nil, fmt.Errorf("body: actions: count missing or not 1..%d", MaxActions)
		}
		for i := range int(n) {
			var l uint32
			var a []byte
			if !s.ReadUint32(&l) || l < 1 || l > maxActionSize || !s.ReadBytes(&a, int(l)) {
				return nil, fmt.Errorf("body: actions: part %d truncated or its length not 1..%d", i, maxActionSize)
			}
			b.Actions = append(b.Actions, a)
		}
	default:
		return nil, fmt.Errorf("body: unknown kind %d", kind)
	}
	if !s.Empty() {
		return nil, fmt.Errorf("body: %s has %d trailing bytes", b.Kind, len(s))
	}
	return b, nil
}
