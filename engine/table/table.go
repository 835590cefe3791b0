package table

import (
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/mental"
)

// Phase is where a table is in its life.
type Phase uint8

// The phases of a table.
const (
	PhaseCommit Phase = iota + 1 // deal coins: commitments
	PhaseReveal                  // deal coins: reveals
	PhasePlay                    // the game
	PhaseKeys                    // key publication after the game
	PhaseDone                    // nothing more to append
	// PhaseShuffle: a hidden deal. Every seat in turn shuffles the deck
	// with a proof; the last deck is dealt face down. Appended last so the
	// other phases keep their encodings.
	PhaseShuffle
)

func (p Phase) String() string {
	switch p {
	case PhaseCommit:
		return "deal-commit"
	case PhaseReveal:
		return "deal-reveal"
	case PhasePlay:
		return "play"
	case PhaseKeys:
		return "keys"
	case PhaseDone:
		return "done"
	case PhaseShuffle:
		return "deal-shuffle"
	}
	return fmt.Sprintf("phase(%d)", uint8(p))
}

// Fault is a typed rejection of an entry: it names the position, the seat
// to blame and the reason. Every honest replica reaches the same Fault on
// the same entry. The signature is checked before anything else, so every
// reason but "unknown-seat" and "bad-signature" blames a seat that signed
// the entry; those two name the seat the entry claims, which did not sign
// it (an entry signed with another seat's key blames that seat, with the
// reason "signed-by-another-seat").
type Fault struct {
	Pos    uint64
	Seat   int
	Reason string
	Err    error
	// Roster: the roster, not an entry, is refused (Pos is 0): seat
	// Seat signed a roster whose part for it a table must refuse.
	Roster bool
}

func (f *Fault) Error() string {
	if f.Roster {
		return fmt.Sprintf("roster seat %d: %s: %v", f.Seat, f.Reason, f.Err)
	}
	if f.Err != nil {
		return fmt.Sprintf("entry %d by seat %d: %s: %v", f.Pos, f.Seat, f.Reason, f.Err)
	}
	return fmt.Sprintf("entry %d by seat %d: %s", f.Pos, f.Seat, f.Reason)
}

func (f *Fault) Unwrap() error { return f.Err }

// Request is a pending (or just completed) step that entries of seats
// other than a mover's fill: decryption shares, a shuffle, a joint coin.
// Requests are served one at a time, in the order the rules asked for
// them.
//
// A public reveal collects a plain share of every slot from every seat.
// A private view (a peek, or a show-others) collects shares encrypted to
// the viewers' viewing keys, so that nothing in the log opens a viewed
// card for anyone else, however many seats view it (design.md §4.1).
// A shuffle collects one shuffle of its slots from each of its seats in
// turn; a coin, one coin share from every seat. A set waits in the queue
// only behind another request, and needs no entry.
type Request struct {
	// Kind is EffectPeek, EffectReveal, EffectShowOthers, EffectShuffle,
	// EffectCoin or EffectSet.
	Kind engine.EffectKind
	By   engine.Seat // the viewer of a peek
	// Viewers: a batch of views (a game that batches them, ViewBatcher):
	// Viewers[k] views Slots[k]; By is then Viewers[0].
	Viewers []engine.Seat
	Except  engine.Seat // show-others: the seat kept in the dark
	Slots   []engine.Slot
	// Comps are the components of the slots' tuple cards a peek, reveal
	// or show-others opens (nil: every component); shares are of those
	// components only (see ShareCard).
	Comps []int
	// Cards are the slots' ciphertexts when the request reached the head
	// of the queue (share requests only; for a request made by a move,
	// after the move's swaps).
	Cards []mental.Card
	Seats []engine.Seat // who must post, in order
	// Set: EffectSet's new cards, one per slot.
	Set []engine.Card
	// At: a coin's position, that of its first share entry; the coin's
	// point is mental.CoinPoint(game id, At).
	At uint64
	// Coins are the coin shares posted so far, by Seats' order; Coin is
	// the coin's value once every share is in.
	Coins []*mental.CoinShare
	Coin  [32]byte
	// Shares[i][k] is the D vector of Seats[i]'s public share of Slots[k]
	// (a reveal; nil for a private view).
	Shares [][][]*mental.Element
	// Enc[i] are Seats[i]'s encrypted shares (a private view): for each
	// slot k in order, one per recipient in the order of
	// RecipientsOf(n, Seats[i], k).
	Enc [][]*mental.EncryptedShare
	// Parts: an actions request's (Kind EffectBallot) ballots, checks and
	// tags, in the rules' order; Posts[i][j] is Seats[i]'s part j.
	Parts []engine.Effect
	Posts [][]ActionPost
	// Checkers: a check view's (Kind EffectCheck) posters: Cards[k] is
	// Checkers[k]'s check, which only it opens.
	Checkers []engine.Seat
	// Power: a check view's power. Targets and Powers: the seats a
	// tally opens and their powers, in order (Cards[k] is the component
	// of power Powers[k]'s sum for Targets[k]).
	Power   uint8
	Targets []engine.Seat
	Powers  []uint8
	// Mixed: a shuffle (Kind EffectShuffle) of cards of Power laid out
	// by the table, filled with BodyMix entries: Cards are the cards,
	// replaced by each seat's shuffled ones (a one-vote mix, Votes, or a
	// plurality kill's mixes, below).
	Mixed bool
	// Votes: a Mixed shuffle of a one-vote mix (mental SPEC §9.8): Cards
	// are the code sums of Power's last ballots, one per voter, width 1.
	// Tested and Test: a blinded identity test (Kind EffectTally, filled
	// with BodyBlind entries by every seat in seat order, a retired
	// seat's step computed) of card Test of Power's last mix; Cards[0] is
	// the card as the last step left it.
	Votes  bool
	Tested bool
	Test   int
	// Plurality: a request of a plurality kill of k = Plurality votes
	// (mental SPEC §9.9), queued together: a Lookup request (Kind
	// EffectTally, filled with BodyLookup entries by Power's voters in
	// order; Cards collects each voter's (code sum, count) card), a Votes
	// mix of those cards, a Tested request of every mixed card's code sum
	// (Cards are the m cards as the last steps left them), a Rows mix of
	// the kill table, a Tested Rows request of every row's key, then a
	// pick of the true row's payload.
	Plurality int
	Lookup    bool
	Rows      bool
	// PickTargets and PickCodes: a pick (Kind EffectTally) opens one
	// card, Cards[0], the code of a mixed pair with PickCodes − 1 added
	// one-hot sums over PickTargets; its facts are a tally over them.
	PickTargets []engine.Seat
	PickCodes   int
	next        int
	started     bool // a coin: At is set
}

// Next returns how many of Seats have posted their entries so far.
func (r *Request) Next() int { return r.next }

// ShareCard returns the part of the k-th card that r's shares open: the
// components in Comps, or the whole card.
func (r *Request) ShareCard(k int) mental.Card {
	return subCard(r.Cards[k], r.Comps)
}

// shareName names the k-th card of a public share request, for errors.
func (r *Request) shareName(k int) string {
	if r.Kind == engine.EffectTally {
		switch {
		case r.PickTargets != nil:
			return fmt.Sprintf("share of the pick of power %d", r.Powers[k])
		}
		return fmt.Sprintf("share of the tally of power %d at seat %d", r.Powers[k], r.Targets[k])
	}
	return fmt.Sprintf("share of slot %d", r.Slots[k])
}

// subCard returns the components comps of c (c itself when comps is nil).
func subCard(c mental.Card, comps []int) mental.Card {
	if comps == nil {
		return c
	}
	out := make(mental.Card, len(comps))
	for i, k := range comps {
		out[i] = c[k]
	}
	return out
}

// Private reports whether the request is a private view, filled with
// shares encrypted to its viewers rather than public ones.
func (r *Request) Private() bool {
	return r.Kind == engine.EffectPeek || r.Kind == engine.EffectShowOthers
}

// wantBody is the body kind that fills r.
func (r *Request) wantBody() BodyKind {
	switch r.Kind {
	case engine.EffectShuffle:
		if r.Mixed {
			return BodyMix
		}
		return BodyShuffle
	case engine.EffectCoin:
		return BodyCoinShare
	case engine.EffectRetire:
		return BodyKey
	case engine.EffectBallot:
		return BodyActions
	case engine.EffectTally:
		if r.Tested {
			return BodyBlind
		}
		if r.Lookup {
			return BodyLookup
		}
	}
	return BodyShares
}

// batchView adds the peek ef to the batch of views at the end of the
// queue, when the game batches views (ViewBatcher) and that request is a
// peek not yet snapshotted or started, of other slots, opening the same
// components.
func (s *state) batchView(t *Table, ef engine.Effect) bool {
	vb, ok := t.game.(ViewBatcher)
	if !ok || !vb.BatchViews() || len(s.pending) == 0 {
		return false
	}
	last := s.pending[len(s.pending)-1]
	if last.Kind != engine.EffectPeek || last.next != 0 || last.Cards != nil ||
		!slices.Equal(last.Comps, ef.Comps) || slices.Contains(last.Slots, ef.Slots[0]) {
		return false
	}
	if last.Viewers == nil {
		last.Viewers = []engine.Seat{last.By}
	}
	last.Slots = append(slices.Clip(last.Slots), ef.Slots[0])
	last.Viewers = append(slices.Clip(last.Viewers), ef.By)
	// The authors: every seat that does not view every slot, in order.
	last.Seats = nil
	for seat := range engine.Seat(len(t.roster.Seats)) {
		for _, v := range last.Viewers {
			if v != seat {
				last.Seats = append(last.Seats, seat)
				break
			}
		}
	}
	return true
}

// viewerOf returns the seat that views the k-th slot of a peek: By, or
// Viewers[k] in a batch of views.
func (r *Request) viewerOf(k int) engine.Seat {
	if r.Viewers != nil {
		return r.Viewers[k]
	}
	return r.By
}

// viewersOf lists who privately views r's k-th slot when it completes.
func (r *Request) viewersOf(n int, k int) []engine.Seat {
	switch r.Kind {
	case engine.EffectPeek:
		return []engine.Seat{r.viewerOf(k)}
	case engine.EffectShowOthers:
		var out []engine.Seat
		for s := range n {
			if engine.Seat(s) != r.Except {
				out = append(out, engine.Seat(s))
			}
		}
		return out
	}
	return nil
}

// encOffset returns where author's encrypted shares of the k-th slot
// start among its shares: its shares are slot by slot, recipient by
// recipient (RecipientsOf).
func (r *Request) encOffset(n int, author engine.Seat, k int) int {
	off := 0
	for j := range k {
		off += len(r.RecipientsOf(n, author, j))
	}
	return off
}

// encCount returns how many encrypted shares author posts for r.
func (r *Request) encCount(n int, author engine.Seat) int {
	return r.encOffset(n, author, len(r.Slots))
}

// sentTo returns the encrypted shares of the k-th slot of a completed
// private view that viewer received, one from every other author in the
// order of Seats; false if the viewer received none from some author.
func (r *Request) sentTo(n int, viewer engine.Seat, k int) ([]*mental.EncryptedShare, bool) {
	var out []*mental.EncryptedShare
	for i, author := range r.Seats {
		if author == viewer {
			continue
		}
		idx := slices.Index(r.RecipientsOf(n, author, k), viewer)
		at := r.encOffset(n, author, k) + idx
		if idx < 0 || i >= len(r.Enc) || at >= len(r.Enc[i]) {
			return nil, false
		}
		out = append(out, r.Enc[i][at])
	}
	return out, true
}

// RecipientsOf lists who receives author's encrypted share of the k-th
// slot: the slot's viewer (a peek, or one view of a batch: nobody when
// author is that viewer); for a show-others, every seat but the excepted
// one and the author. A public reveal has none.
func (r *Request) RecipientsOf(n int, author engine.Seat, k int) []engine.Seat {
	switch r.Kind {
	case engine.EffectPeek:
		if v := r.viewerOf(k); v != author {
			return []engine.Seat{v}
		}
		return nil
	case engine.EffectShowOthers:
		var out []engine.Seat
		for s := range n {
			if engine.Seat(s) != r.Except && engine.Seat(s) != author {
				out = append(out, engine.Seat(s))
			}
		}
		return out
	}
	return nil
}

func (r *Request) clone() *Request {
	c := *r
	c.Shares = slices.Clone(r.Shares)
	c.Enc = slices.Clone(r.Enc)
	c.Coins = slices.Clone(r.Coins)
	c.Posts = slices.Clone(r.Posts)
	c.Viewers = slices.Clone(r.Viewers)
	c.Slots = slices.Clone(r.Slots)
	return &c
}

// slotView is a seat's last private view of a slot: the ciphertext it
// opened and the encrypted shares it received, which a statement about the
// card (EffectProve) is proven over while the slot still holds that
// ciphertext.
type slotView struct {
	viewer engine.Seat
	card   mental.Card
	comps  []int // the components viewed (nil: all); sent is of those
	sent   []*mental.EncryptedShare
}

// Table is the replicated state of one game. It is not safe for
// concurrent use.
type Table struct {
	game   Game
	roster *ledger.Roster
	gameID ledger.Hash
	opts   *Options
	joint  *mental.JointKey
	views  []*mental.Element // viewing keys by seat
	cat    *mental.Catalogue
	deck   []engine.Card
	width  int
	// tuples[k] is card kind k's tuple layout (engine.Tupler), nil for a
	// game of single-point cards.
	tuples [][]engine.Component

	st state
	// completed are the requests the last Apply completed, in order.
	completed []*Request
	// seats[i] is the author of entry i; last is the last entry applied.
	// The entries themselves are not kept: the log is its holder's (a
	// network seat's state directory, a transcript), and a table of 18
	// seats in one process held 18 logs (issue 28).
	seats []uint8
	last  *ledger.Entry
	// lastBody is the decoded body of the last entry applied (Body): its
	// points are decoded once, when it is applied.
	lastBody *Body
	// deferred, when set, collects the group proofs (swaps, shuffles,
	// shares) of applied entries instead of checking them: Replay's
	// first, batched pass (replay.go). Live tables leave it nil.
	deferred *deferredProofs
	// run holds the entries ApplyDeferred applied, their proofs not yet
	// checked (Settle).
	run *pendingRun
	// shared, if set, is where the tables of this process keep one copy
	// of the values they all keep from the same entries (Share).
	shared *Shared
}

// state is everything Apply changes; it is copied before each entry so a
// rejected entry leaves the table as it was.
type state struct {
	pos      uint64
	prev     ledger.Hash
	phase    Phase
	commits  [][32]byte
	reveals  [][32]byte
	deal     []engine.Card
	rules    engine.State
	slots    []mental.Card
	pending  []*Request
	keys     [][]byte // published secret keys by seat
	keysNext int
	// retired[seat]: the seat published its key during play
	// (EffectRetire); the table computes its shares from then on.
	retired []bool
	// tallies are the sums of the last ballots of each power; tags every
	// tag posted. Both are replaced, never modified, so clones share them.
	tallies map[uint8]tally
	// mixes are the cards of the last mix of each power as the last
	// shuffler left them (mental SPEC §9.8, §9.9); replaced, never
	// modified.
	mixes    map[uint8][]mental.Card
	tags     []TagPost
	shuffles int // hidden deal: seats that have shuffled
	// views[slot] are the seats' last private views of the slot. Slices
	// are replaced, never modified, so clones share them.
	views [][]slotView
	hash  ledger.Hash
}

func (s *state) clone() state {
	c := *s
	c.commits = slices.Clone(s.commits)
	c.reveals = slices.Clone(s.reveals)
	c.slots = slices.Clone(s.slots)
	c.pending = make([]*Request, len(s.pending))
	for i, r := range s.pending {
		c.pending[i] = r.clone()
	}
	c.keys = slices.Clone(s.keys)
	c.retired = slices.Clone(s.retired)
	c.tallies = maps.Clone(s.tallies)
	c.mixes = maps.Clone(s.mixes)
	c.views = slices.Clone(s.views)
	return c
}

// recordView remembers that viewer privately viewed components comps (nil:
// all) of slot holding card, through the encrypted shares sent. The
// viewer's earlier views of the slot are forgotten if the slot held
// another ciphertext then; views of other components of the same
// ciphertext are kept (a Mafia seat views its role, later its secret).
func (s *state) recordView(slot engine.Slot, viewer engine.Seat, card mental.Card, comps []int, sent []*mental.EncryptedShare) {
	for len(s.views) <= int(slot) {
		s.views = append(s.views, nil)
	}
	var vs []slotView
	for _, v := range s.views[slot] {
		if v.viewer != viewer || v.card.Equal(card) {
			vs = append(vs, v)
		}
	}
	s.views[slot] = append(vs, slotView{viewer: viewer, card: card, comps: comps, sent: sent})
}

// covers reports whether the view opened component comp.
func (v slotView) covers(comp int) bool { return v.comps == nil || slices.Contains(v.comps, comp) }

// viewed returns the part of the card the view opened (the components its
// shares are of) and the index in it of component comp, which the view
// must cover.
func (v slotView) viewed(comp int) (c mental.Card, i int) {
	if v.comps == nil {
		return v.card, comp
	}
	return subCard(v.card, v.comps), slices.Index(v.comps, comp)
}

// viewOf returns viewer's last private view of slot that opened
// component comp.
func (s *state) viewOf(slot engine.Slot, viewer engine.Seat, comp int) (slotView, bool) {
	if slot < 0 || int(slot) >= len(s.views) {
		return slotView{}, false
	}
	vs := s.views[slot]
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].viewer == viewer && vs[i].covers(comp) {
			return vs[i], true
		}
	}
	return slotView{}, false
}

// KeyContext returns the context a seat's card key proof is bound to: the
// roster's table id, the seat and its peer id.
func KeyContext(tableID [16]byte, seat int, peerID []byte) mental.KeyContext {
	var t [32]byte
	copy(t[:], tableID[:])
	return mental.KeyContext{Table: t, Seat: uint32(seat), Identity: peerID}
}

// New returns a table for roster, playing game. It verifies every seat's
// card key proof and builds the joint key.
func New(roster *ledger.Roster, game Game) (*Table, error) {
	if roster.Game != game.Name() {
		return nil, fmt.Errorf("table: roster is for %q, not %q", roster.Game, game.Name())
	}
	id, err := roster.GameID()
	if err != nil {
		return nil, fmt.Errorf("table: %w", err)
	}
	opts, err := UnmarshalOptions(roster.Options)
	if err != nil {
		return nil, fmt.Errorf("table: %w", err)
	}
	jk, views, err := rosterKeys(roster)
	if err != nil {
		return nil, err
	}
	if sg, ok := game.(Seated); ok {
		names, err := sg.PlayerNames(opts.Game)
		if err != nil {
			return nil, fmt.Errorf("table: %w", err)
		}
		if len(names) != len(roster.Seats) {
			return nil, fmt.Errorf("table: the game's options name %d players, the roster seats %d", len(names), len(roster.Seats))
		}
		for i, s := range roster.Seats {
			if names[i] != s.Name {
				return nil, fmt.Errorf("table: seat %d is %q in the roster but %q in the game's options", i, s.Name, names[i])
			}
		}
	}
	deck, err := game.Deck(opts.Game)
	if err != nil {
		return nil, fmt.Errorf("table: %w", err)
	}
	t := &Table{game: game, roster: roster, gameID: id, opts: opts, joint: jk, views: views,
		cat: mental.NewCatalogue(game.Kinds()), deck: deck, width: 1}
	t.st = state{prev: id, phase: PhaseCommit, keys: make([][]byte, len(roster.Seats)), retired: make([]bool, len(roster.Seats))}
	op, opens := game.(Opener)
	opens = opens && op.Opens()
	if hd, ok := game.(HiddenDealer); ok && hd.HiddenDeal() {
		if opens {
			return nil, errors.New("table: a game deals by shuffles or opens with its own effects, not both")
		}
		if opts.Deal != nil {
			return nil, errors.New("table: a hidden deal cannot be fixed in the options")
		}
		if len(deck) == 0 || len(deck) > mental.MaxShuffle {
			return nil, fmt.Errorf("table: a hidden deal of %d cards, want 1..%d", len(deck), mental.MaxShuffle)
		}
		t.st.phase = PhaseShuffle
		t.st.slots = make([]mental.Card, len(deck))
		for i, c := range deck {
			t.st.slots[i] = t.faceUp(c)
		}
	}
	if opens {
		if err := t.st.open(t, opts.Deal); err != nil {
			return nil, fmt.Errorf("table: opening: %w", err)
		}
	} else if opts.Deal != nil {
		if err := t.st.start(t, opts.Deal); err != nil {
			return nil, fmt.Errorf("table: fixed deal: %w", err)
		}
	}
	t.st.hash = t.st.computeHash(t)
	return t, nil
}

// open starts a game that opens with its own effects ([Opener]): the
// slots hold the deck face up in its canonical order (or the fixed deal,
// which the rules then know), and the rules' opening effects are queued
// before the first move.
func (s *state) open(t *Table, deal []engine.Card) error {
	if deal != nil {
		if err := s.start(t, deal); err != nil {
			return err
		}
	} else {
		rules, err := t.game.New(t.opts.Game, nil)
		if err != nil {
			return err
		}
		if err := t.setTuples(rules); err != nil {
			return err
		}
		s.rules = rules
		s.slots = make([]mental.Card, len(t.deck))
		for i, c := range t.deck {
			if s.slots[i], err = t.faceUpChecked(c); err != nil {
				return err
			}
		}
		s.phase = PhasePlay
	}
	if o, ok := s.rules.(engine.Opening); ok {
		for _, ef := range o.Opening() {
			if ef.Kind == engine.EffectSwap || ef.Kind == engine.EffectProve {
				return fmt.Errorf("the opening asks for a %s, which only a move carries", ef.Kind)
			}
			if err := s.queue(t, ef); err != nil {
				return err
			}
		}
	}
	if err := s.settle(t, 0); err != nil {
		return err
	}
	s.maybeEnd(t)
	return nil
}

// start deals and enters the play phase.
func (s *state) start(t *Table, deal []engine.Card) error {
	sorted, deck := slices.Clone(deal), slices.Clone(t.deck)
	slices.Sort(sorted)
	slices.Sort(deck)
	if !slices.Equal(sorted, deck) {
		return fmt.Errorf("deal is not a permutation of the deck")
	}
	rules, err := t.game.New(t.opts.Game, deal)
	if err != nil {
		return err
	}
	if err := t.setTuples(rules); err != nil {
		return err
	}
	s.deal = slices.Clone(deal)
	s.rules = rules
	s.slots = make([]mental.Card, len(deal))
	for i, c := range deal {
		if s.slots[i], err = t.faceUpChecked(c); err != nil {
			return err
		}
	}
	s.phase = PhasePlay
	return nil
}

// Accessors.

// GameID returns the hash of the roster.
func (t *Table) GameID() ledger.Hash { return t.gameID }

// Roster returns the roster.
func (t *Table) Roster() *ledger.Roster { return t.roster }

// Seats returns the number of seats.
func (t *Table) Seats() int { return len(t.roster.Seats) }

// Phase returns the current phase.
func (t *Table) Phase() Phase { return t.st.phase }

// Rules returns the current rules state (nil before the deal).
func (t *Table) Rules() engine.State { return t.st.rules }

// Deal returns the public deal (nil before it is known).
func (t *Table) Deal() []engine.Card { return slices.Clone(t.st.deal) }

// Slot returns the ciphertext in a slot.
func (t *Table) Slot(s engine.Slot) mental.Card { return t.st.slots[s] }

// Pending returns the share request being filled, if any.
func (t *Table) Pending() *Request {
	if len(t.st.pending) == 0 {
		return nil
	}
	return t.st.pending[0]
}

// Completed returns the share request completed by the last Apply, if any
// (the last one, when the entry's completion let the table complete more
// by itself: see CompletedAll).
func (t *Table) Completed() *Request {
	if len(t.completed) == 0 {
		return nil
	}
	return t.completed[len(t.completed)-1]
}

// CompletedAll returns every request the last Apply completed, in order:
// the one its entry filled and any the table then filled by itself from
// retired seats' published keys.
func (t *Table) CompletedAll() []*Request { return slices.Clone(t.completed) }

// ViewingKey returns a seat's public viewing key.
func (t *Table) ViewingKey(seat int) *mental.Element { return t.views[seat] }

// Joint returns the joint card key.
func (t *Table) Joint() *mental.JointKey { return t.joint }

// Catalogue maps card points to kinds.
func (t *Table) Catalogue() *mental.Catalogue { return t.cat }

// Len returns the number of entries applied so far.
func (t *Table) Len() int { return len(t.seats) }

// Last returns the last entry applied, nil before the first.
func (t *Table) Last() *ledger.Entry { return t.last }

// PublishedKey returns the secret key a seat published after the game.
func (t *Table) PublishedKey(seat int) []byte { return t.st.keys[seat] }

// Retired says whether seat has published its card key during play (it
// is out of the game; the table computes its part from then on).
func (t *Table) Retired(seat int) bool {
	return seat >= 0 && seat < len(t.st.retired) && t.st.retired[seat]
}

// Body returns e's decoded body. For the last entry applied it is the
// body Apply decoded, kept (its points are decoded once per entry: a
// narrator or a seat following the game reads it without decoding it
// again); for any other entry it is decoded afresh. The caller must not
// modify it.
func (t *Table) Body(e *ledger.Entry) (*Body, error) {
	if t.last != nil && t.last == e && t.lastBody != nil {
		return t.lastBody, nil
	}
	return UnmarshalBody(e.Body, t.width)
}

// Pos returns the position of the next entry.
func (t *Table) Pos() uint64 { return t.st.pos }

// StateHash is the hash of the state after the last applied entry.
func (t *Table) StateHash() ledger.Hash { return t.st.hash }

// Next reports the position and seat of the next entry; ok is false when
// nothing more is expected.
func (t *Table) Next() (pos uint64, seat uint8, ok bool) {
	s, ok := t.st.next(t)
	return t.st.pos, uint8(s), ok
}

// Expect returns the seat that must author the next entry and the kind of
// body it must carry.
func (t *Table) Expect() (seat engine.Seat, kind BodyKind, ok bool) {
	s, ok := t.st.next(t)
	if !ok {
		return 0, 0, false
	}
	switch t.st.phase {
	case PhaseShuffle:
		return s, BodyShuffle, true
	case PhaseCommit:
		return s, BodyCommit, true
	case PhaseReveal:
		return s, BodyReveal, true
	case PhaseKeys:
		return s, BodyKey, true
	}
	if len(t.st.pending) > 0 {
		return s, t.st.pending[0].wantBody(), true
	}
	return s, BodyMove, true
}

func (s *state) next(t *Table) (engine.Seat, bool) {
	n := len(t.roster.Seats)
	switch s.phase {
	case PhaseShuffle:
		return engine.Seat(s.shuffles), true
	case PhaseCommit:
		return engine.Seat(len(s.commits)), true
	case PhaseReveal:
		return engine.Seat(len(s.reveals)), true
	case PhaseKeys:
		return engine.Seat(s.keysNext), s.keysNext < n
	case PhasePlay:
		if len(s.pending) > 0 {
			r := s.pending[0]
			return r.Seats[r.next], true
		}
		need := s.rules.Next()
		if need.Kind == engine.NeedMove {
			return need.Seat, true
		}
	}
	return 0, false
}

// Apply validates e as the next entry and applies it. On error the table
// is unchanged and the error is a *Fault naming the seat to blame.
func (t *Table) Apply(e *ledger.Entry) error {
	if t.run != nil {
		return errUnsettled
	}
	return t.apply(e, true)
}

// ApplyVerified is [Table.Apply] for an entry whose signature the caller
// has already checked against the roster's key of seat e.Seat (a network
// layer that checks every received entry's signature before buffering
// it): everything else is checked as by Apply. An entry whose signature
// was not checked must go through Apply.
func (t *Table) ApplyVerified(e *ledger.Entry) error {
	if t.run != nil {
		return errUnsettled
	}
	return t.apply(e, false)
}

// errUnsettled refuses an entry applied on top of entries ApplyDeferred
// applied and Settle has not checked (a caller's mistake, not the
// entry's).
var errUnsettled = errors.New("table: entries applied deferred are not settled")

func (t *Table) apply(e *ledger.Entry, checkSig bool) error {
	fault := func(reason string, err error) error {
		return &Fault{Pos: e.Pos, Seat: int(e.Seat), Reason: reason, Err: err}
	}
	// Authenticate first: every later reason blames the entry's author,
	// which only its signature proves.
	if int(e.Seat) >= len(t.roster.Seats) {
		return fault(ReasonUnknownSeat, fmt.Errorf("the table has %d seats", len(t.roster.Seats)))
	}
	if checkSig {
		if err := e.VerifySignature(t.gameID, t.roster.Seats[e.Seat].SignKey); err != nil {
			// Signed by another seat's key: that seat forged the entry.
			for i, s := range t.roster.Seats {
				if i != int(e.Seat) && e.VerifySignature(t.gameID, s.SignKey) == nil {
					return &Fault{Pos: e.Pos, Seat: i, Reason: ReasonSignedByAnotherSeat,
						Err: fmt.Errorf("the entry names seat %d as its author", e.Seat)}
				}
			}
			return fault(ReasonBadSignature, err)
		}
	}
	if e.Pos != t.st.pos {
		return fault(ReasonWrongPosition, fmt.Errorf("expected position %d", t.st.pos))
	}
	if e.Prev != t.st.prev {
		return fault(ReasonWrongPreviousHash, errors.New("entry does not extend this log"))
	}
	seat, ok := t.st.next(t)
	if !ok {
		return fault(ReasonLogClosed, errors.New("no entry is expected"))
	}
	if int(e.Seat) != int(seat) {
		return fault(ReasonNotYourTurn, fmt.Errorf("seat %d must author this entry", seat))
	}
	body, err := UnmarshalBody(e.Body, t.width)
	if err != nil {
		return fault(ReasonMalformedBody, err)
	}
	ns := t.st.clone()
	if t.deferred != nil {
		t.deferred.begin()
	}
	completed, err := ns.apply(t, e, body)
	var done []*Request
	if completed != nil {
		done = append(done, completed)
	}
	if err == nil {
		var more []*Request
		more, err = ns.fillRetired(t, e.Pos+1)
		done = append(done, more...)
	}
	if err != nil {
		var re *engine.RuleError
		if errors.As(err, &re) {
			return fault(ReasonRulePrefix+re.Rule, err)
		}
		var rs *reasoned
		if errors.As(err, &rs) {
			return fault(rs.reason, rs.err)
		}
		return fault(ReasonInvalid, err)
	}
	ns.pos++
	ns.prev = e.Hash()
	ns.hash = ns.computeHash(t)
	t.st = ns
	t.completed = done
	t.seats = append(t.seats, e.Seat)
	t.last, t.lastBody = e, body
	if t.deferred != nil {
		t.deferred.commit(e.Pos)
	}
	return nil
}

func (t *Table) ctx(pos uint64, seat int) mental.Context {
	return mental.Context{Table: t.gameID, Pos: pos, Seat: uint32(seat)}
}

func (s *state) apply(t *Table, e *ledger.Entry, b *Body) (*Request, error) {
	seat := int(e.Seat)
	n := len(t.roster.Seats)
	want := map[Phase]BodyKind{PhaseCommit: BodyCommit, PhaseReveal: BodyReveal, PhaseKeys: BodyKey, PhaseShuffle: BodyShuffle}[s.phase]
	if s.phase == PhasePlay {
		want = BodyMove
		if len(s.pending) > 0 {
			want = s.pending[0].wantBody()
		}
	}
	if b.Kind != want {
		return nil, because(ReasonWrongBodyKind, fmt.Errorf("expected a %s entry, got %s", want, b.Kind))
	}
	switch s.phase {
	case PhaseShuffle:
		if len(b.Deck) != len(s.slots) {
			return nil, because(ReasonBadShuffle, fmt.Errorf("the shuffled deck has %d cards, the table %d", len(b.Deck), len(s.slots)))
		}
		ctx := t.ctx(e.Pos, seat)
		if t.deferred != nil {
			in, out, p := slices.Clone(s.slots), b.Deck, b.Shuffle
			t.deferred.stage(func(bt *mental.Batch) {
				bt.AddShuffle(fmt.Sprintf("shuffle by seat %d", seat), t.joint, ctx, in, out, p)
			})
		} else if err := t.joint.VerifyShuffle(ctx, s.slots, b.Deck, b.Shuffle); err != nil {
			return nil, because(ReasonBadShuffle, err)
		}
		s.slots = slices.Clone(b.Deck)
		s.shuffles++
		if s.shuffles == n {
			rules, err := t.game.New(t.opts.Game, nil)
			if err != nil {
				return nil, fmt.Errorf("hidden deal: %w", err)
			}
			s.rules, s.phase = rules, PhasePlay
			s.maybeEnd(t)
		}
		return nil, nil
	case PhaseCommit:
		s.commits = append(s.commits, b.Coin)
		if len(s.commits) == n {
			s.phase = PhaseReveal
		}
		return nil, nil
	case PhaseReveal:
		if CoinCommitment(t.gameID, seat, b.Coin) != s.commits[seat] {
			return nil, because(ReasonCoinMismatch, errors.New("deal coin does not match its commitment"))
		}
		s.reveals = append(s.reveals, b.Coin)
		if len(s.reveals) == n {
			deal := DealFromSeed(CombineCoins(t.gameID, s.reveals), t.deck)
			if err := s.start(t, deal); err != nil {
				return nil, fmt.Errorf("deal: %w", err)
			}
		}
		return nil, nil
	case PhaseKeys:
		sk, err := mental.SecretKeyFromBytes(b.Key)
		if err != nil {
			return nil, because(ReasonKeyMismatch, err)
		}
		if sk.Public().Equal(t.joint.Keys[seat]) != 1 {
			return nil, because(ReasonKeyMismatch, errors.New("published key does not match the seat's public key"))
		}
		s.keys[seat] = slices.Clone(b.Key)
		s.keysNext++
		s.skipPublished(n)
		return nil, nil
	}
	if len(s.pending) > 0 {
		switch s.pending[0].Kind {
		case engine.EffectShuffle:
			return s.applyShuffle(t, e, b)
		case engine.EffectCoin:
			return s.applyCoinShare(t, e, b)
		case engine.EffectRetire:
			return s.applyRetire(t, e, b)
		case engine.EffectBallot:
			return s.applyActions(t, e, b)
		case engine.EffectCheck:
			return s.applyCheckShares(t, e, b)
		}
		if s.pending[0].Tested {
			return s.applyBlind(t, e, b)
		}
		if s.pending[0].Lookup {
			return s.applyLookup(t, e, b)
		}
		return s.applyShares(t, e, b)
	}
	// A move.
	m := b.Move
	m.Seat = engine.Seat(seat)
	rules, effects, err := s.rules.Apply(m)
	if err != nil {
		return nil, err
	}
	s.rules = rules
	swaps, statements := 0, 0
	for _, ef := range effects {
		if ef.Kind == engine.EffectProve {
			if ef.By != m.Seat {
				return nil, fmt.Errorf("internal: the rules asked seat %d to prove in seat %d's move", ef.By, m.Seat)
			}
			if statements >= len(b.Statements) {
				return nil, because(ReasonStatementCount, errors.New("the move needs a statement proof the entry does not carry"))
			}
			if err := s.applyProve(t, e, ef, &b.Statements[statements], statements); err != nil {
				return nil, err
			}
			statements++
			continue
		}
		if ef.Kind == engine.EffectSwap {
			if ef.By != m.Seat {
				return nil, fmt.Errorf("internal: the rules asked seat %d to swap in seat %d's move", ef.By, m.Seat)
			}
			if swaps >= len(b.Swaps) {
				return nil, because(ReasonSwapCount, errors.New("the move needs a swap proof the entry does not carry"))
			}
			if err := s.applySwap(t, e, ef, b.Swaps[swaps], swaps); err != nil {
				return nil, err
			}
			swaps++
			continue
		}
		if err := s.queue(t, ef); err != nil {
			return nil, err
		}
	}
	if swaps != len(b.Swaps) {
		return nil, because(ReasonSwapCount, fmt.Errorf("the entry carries %d swap proofs, the move needs %d", len(b.Swaps), swaps))
	}
	if statements != len(b.Statements) {
		return nil, because(ReasonStatementCount, fmt.Errorf("the entry carries %d statement proofs, the move needs %d", len(b.Statements), statements))
	}
	if err := s.settle(t, e.Pos+1); err != nil {
		return nil, err
	}
	s.maybeEnd(t)
	return nil, nil
}

// maybeEnd moves to the key phase (or done) when the rules are over and no
// request is pending.
func (s *state) maybeEnd(t *Table) {
	if s.phase == PhasePlay && len(s.pending) == 0 && s.rules.Next().Kind == engine.NeedNothing {
		if t.opts.PublishKeys {
			s.phase = PhaseKeys
			s.skipPublished(len(t.roster.Seats))
		} else {
			s.phase = PhaseDone
		}
	}
}

// SwapContext is the context of the i-th swap proof of the entry at pos.
func (t *Table) SwapContext(pos uint64, seat int, i int) mental.Context {
	return mental.Context{Table: t.gameID, Pos: pos<<8 | uint64(i), Seat: uint32(seat)}
}

func (s *state) applySwap(t *Table, e *ledger.Entry, ef engine.Effect, p SwapPayload, i int) error {
	if len(ef.Slots) != 2 {
		return fmt.Errorf("internal: swap effect with %d slots", len(ef.Slots))
	}
	a, b := ef.Slots[0], ef.Slots[1]
	if a < 0 || b < 0 || int(a) >= len(s.slots) || int(b) >= len(s.slots) || a == b {
		return fmt.Errorf("internal: swap of slots %d and %d", a, b)
	}
	ctx := t.SwapContext(e.Pos, int(e.Seat), i)
	if t.deferred != nil {
		c0, c1 := s.slots[a], s.slots[b]
		t.deferred.stage(func(bt *mental.Batch) {
			bt.AddSwap(fmt.Sprintf("swap %d (slots %d and %d)", i, a, b), t.joint, ctx, c0, c1, p.Out0, p.Out1, p.Proof)
		})
	} else if err := t.joint.VerifySwap(ctx, s.slots[a], s.slots[b], p.Out0, p.Out1, p.Proof); err != nil {
		return because(ReasonBadSwapProof, fmt.Errorf("swap of slots %d and %d: %w", a, b, err))
	}
	s.slots[a], s.slots[b] = p.Out0, p.Out1
	return nil
}

// queue turns an effect that entries of other seats fill (shares, a
// shuffle, a coin) or that waits its turn (a set) into a pending request.
func (s *state) queue(t *Table, ef engine.Effect) error {
	n := len(t.roster.Seats)
	r := &Request{Kind: ef.Kind, By: ef.By, Except: ef.Except, Slots: slices.Clone(ef.Slots)}
	if len(ef.Comps) > 0 {
		if ef.Kind != engine.EffectPeek && ef.Kind != engine.EffectReveal && ef.Kind != engine.EffectShowOthers {
			return fmt.Errorf("internal: a %s names components", ef.Kind)
		}
		for i, k := range ef.Comps {
			if k < 0 || k >= t.width || (i > 0 && k <= ef.Comps[i-1]) {
				return fmt.Errorf("internal: components %v of width-%d cards (want increasing, in range)", ef.Comps, t.width)
			}
		}
		r.Comps = slices.Clone(ef.Comps)
	}
	switch ef.Kind {
	case engine.EffectBallot, engine.EffectCheck, engine.EffectTag:
		return s.queueAction(t, ef)
	case engine.EffectTally:
		return s.queueTally(t, ef)
	}
	if ef.Kind == engine.EffectRetire {
		if ef.By < 0 || int(ef.By) >= n || len(ef.Slots) != 0 {
			return fmt.Errorf("internal: a retirement of seat %d", ef.By)
		}
		for _, q := range s.pending {
			if q.Kind == engine.EffectRetire && q.By == ef.By {
				return fmt.Errorf("internal: seat %d retires twice", ef.By)
			}
		}
		if s.retired[ef.By] {
			return fmt.Errorf("internal: seat %d has already retired", ef.By)
		}
		r.Seats = []engine.Seat{ef.By}
		s.pending = append(s.pending, r)
		return nil
	}
	for _, sl := range ef.Slots {
		if sl < 0 || int(sl) >= len(s.slots) {
			return fmt.Errorf("internal: %s of slot %d", ef.Kind, sl)
		}
	}
	if ef.Kind != engine.EffectSet && ef.Kind != engine.EffectShuffle {
		for seat := range n {
			if ef.Kind == engine.EffectPeek && engine.Seat(seat) == ef.By {
				continue
			}
			r.Seats = append(r.Seats, engine.Seat(seat))
		}
	}
	distinct := func() error {
		seen := map[engine.Slot]bool{}
		for _, sl := range ef.Slots {
			if seen[sl] {
				return fmt.Errorf("internal: a %s lists slot %d twice", ef.Kind, sl)
			}
			seen[sl] = true
		}
		return nil
	}
	switch ef.Kind {
	case engine.EffectPeek:
		if len(ef.Slots) != 1 {
			return errors.New("internal: a peek is of one slot")
		}
		if ef.By < 0 || int(ef.By) >= n {
			return fmt.Errorf("internal: a peek by seat %d", ef.By)
		}
		if s.batchView(t, ef) {
			return nil
		}
	case engine.EffectReveal, engine.EffectShowOthers:
		// A public share of a group-secret component is a share of the
		// secret (mental SPEC §9.1): no reveal or show-others opens one.
		if c, ok := t.secretComp(ef.Comps); ok {
			return fmt.Errorf("internal: a %s of component %d, which holds the group secret in some card", ef.Kind, c)
		}
	case engine.EffectSet:
		if len(ef.Cards) != len(ef.Slots) {
			return fmt.Errorf("internal: a set of %d slots with %d cards", len(ef.Slots), len(ef.Cards))
		}
		for _, c := range ef.Cards {
			if c < 0 || int(c) >= t.game.Kinds() {
				return fmt.Errorf("internal: a set of card %d, the game has %d kinds", c, t.game.Kinds())
			}
			if _, err := t.faceUpChecked(c); err != nil {
				return fmt.Errorf("internal: a set: %w", err)
			}
		}
		if err := distinct(); err != nil {
			return err
		}
		r.Set = slices.Clone(ef.Cards)
		s.pending = append(s.pending, r)
		return nil
	case engine.EffectShuffle:
		if len(ef.Slots) == 0 || len(ef.Slots) > mental.MaxShuffle {
			return fmt.Errorf("internal: a shuffle of %d slots, want 1..%d", len(ef.Slots), mental.MaxShuffle)
		}
		if err := distinct(); err != nil {
			return err
		}
		r.Seats = slices.Clone(ef.Seats)
		if len(r.Seats) == 0 {
			for seat := range n {
				if !s.retired[seat] {
					r.Seats = append(r.Seats, engine.Seat(seat))
				}
			}
		}
		for _, seat := range r.Seats {
			if seat < 0 || int(seat) >= n {
				return fmt.Errorf("internal: a shuffle by seat %d", seat)
			}
			if s.retired[seat] {
				return fmt.Errorf("internal: a shuffle by seat %d, which has retired", seat)
			}
		}
	case engine.EffectCoin:
		if len(ef.Slots) != 0 {
			return errors.New("internal: a coin is of no slot")
		}
	default:
		return fmt.Errorf("internal: unexpected effect %s", ef.Kind)
	}
	if len(r.Seats) == 0 {
		return errors.New("internal: a request nobody can fill")
	}
	s.pending = append(s.pending, r)
	return nil
}

// settle runs the queue up to the next request that needs entries: sets
// at its head take effect; the coin at its head gets its position (next,
// that of the entry that will serve it first); every share request not
// behind a shuffle or a set snapshots its slots' ciphertexts (so a request
// made by a move sees the cards after the move's swaps, and one behind a
// shuffle sees the shuffled cards).
func (s *state) settle(t *Table, next uint64) error {
	for len(s.pending) > 0 && s.pending[0].Kind == engine.EffectSet {
		r := s.pending[0]
		for i, sl := range r.Slots {
			s.slots[sl] = t.faceUp(r.Set[i])
		}
		s.pending = s.pending[1:]
	}
	if len(s.pending) > 0 {
		if r := s.pending[0]; r.Kind == engine.EffectCoin && !r.started {
			r.At, r.started = next, true
		}
	}
	for i, r := range s.pending {
		if i == 0 && r.Kind == engine.EffectShuffle && r.Mixed && r.Cards == nil {
			if err := s.snapshotMix(r); err != nil {
				return err
			}
		}
		if r.Kind == engine.EffectShuffle || r.Kind == engine.EffectSet {
			break
		}
		switch r.Kind {
		case engine.EffectTally:
			// A tally opens the sum of ballots that may still be posted
			// ahead of it: it snapshots when it reaches the head.
			if i == 0 && r.Cards == nil {
				if err := s.snapshotTally(r); err != nil {
					return err
				}
			}
			continue
		case engine.EffectBallot, engine.EffectCheck, engine.EffectRetire:
			continue
		}
		if r.Kind != engine.EffectCoin && r.Cards == nil {
			for _, sl := range r.Slots {
				r.Cards = append(r.Cards, s.slots[sl])
			}
		}
	}
	return nil
}

// ShareContext is the context of a seat's shares for the request being
// filled at pos.
func (t *Table) ShareContext(pos uint64, seat int) mental.Context { return t.ctx(pos, seat) }

func (s *state) applyShares(t *Table, e *ledger.Entry, b *Body) (*Request, error) {
	r := s.pending[0]
	seat := int(e.Seat)
	X := t.joint.Keys[seat]
	ctx := t.ctx(e.Pos, seat)
	// The entry's shares are checked together in one batch, or, in
	// Replay's batched pass, added to the table's deferred batch.
	var batch mental.Batch
	add := func(f func(*mental.Batch)) { f(&batch) }
	verify := batch.Verify
	if t.deferred != nil {
		add = t.deferred.stage
		verify = func() error { return nil }
	}
	if r.Private() {
		n := len(t.roster.Seats)
		want := r.encCount(n, engine.Seat(seat))
		if len(b.Shares) != 0 || len(b.EncShares) != want {
			return nil, because(ReasonShareCount, fmt.Errorf("expected %d encrypted shares, got %d plain and %d encrypted", want, len(b.Shares), len(b.EncShares)))
		}
		for k := range r.Slots {
			off := r.encOffset(n, engine.Seat(seat), k)
			for j, y := range r.RecipientsOf(n, engine.Seat(seat), k) {
				name := fmt.Sprintf("encrypted share of slot %d for seat %d", r.Slots[k], y)
				Y, c, es := t.views[y], r.ShareCard(k), b.EncShares[off+j]
				add(func(bt *mental.Batch) { bt.AddEncryptedShare(name, ctx, X, Y, c, es) })
			}
		}
		if err := verify(); err != nil {
			return nil, because(ReasonBadShare, err)
		}
		r.Enc = append(r.Enc, t.keepShares(e, withoutProofs(b.EncShares)))
		r.Shares = append(r.Shares, nil)
	} else {
		if len(b.EncShares) != 0 || len(b.Shares) != len(r.Cards) {
			return nil, because(ReasonShareCount, fmt.Errorf("expected %d shares, got %d plain and %d encrypted", len(r.Cards), len(b.Shares), len(b.EncShares)))
		}
		var ds [][]*mental.Element
		for k := range r.Cards {
			name := r.shareName(k)
			c, sh := r.ShareCard(k), b.Shares[k]
			add(func(bt *mental.Batch) { bt.AddShare(name, ctx, X, c, sh) })
			ds = append(ds, b.Shares[k].D)
		}
		if err := verify(); err != nil {
			return nil, because(ReasonBadShare, err)
		}
		r.Shares = append(r.Shares, ds)
		r.Enc = append(r.Enc, nil)
	}
	r.next++
	if r.next < len(r.Seats) {
		return nil, nil
	}
	return r, s.complete(t, e.Pos+1, r)
}

// complete pops the request at the head of the queue, which its last
// entry (e) just filled: a reveal's cards and a coin's value go to the
// rules as facts, a private view is remembered for its viewers; then the
// queue settles.
func (s *state) complete(t *Table, next uint64, r *Request) error {
	n := len(t.roster.Seats)
	s.pending = s.pending[1:]
	var facts []engine.Fact
	learn := false
	switch r.Kind {
	case engine.EffectPeek, engine.EffectShowOthers:
		for k, sl := range r.Slots {
			for _, v := range r.viewersOf(n, k) {
				if sent, ok := r.sentTo(n, v, k); ok {
					s.recordView(sl, v, r.Cards[k], r.Comps, sent)
				}
			}
		}
	case engine.EffectCoin:
		v, err := mental.CoinValue(t.gameID, r.At, r.Coins)
		if err != nil {
			return err
		}
		r.Coin = v
		facts, learn = []engine.Fact{{Slot: -1, Coin: v}}, true
	case engine.EffectShuffle:
		if r.Mixed {
			mixes := maps.Clone(s.mixes)
			if mixes == nil {
				mixes = map[uint8][]mental.Card{}
			}
			mixes[r.Power] = r.Cards
			s.mixes = mixes
		}
	case engine.EffectTally:
		if r.Plurality > 0 && (r.Lookup || r.Tested) {
			// A plurality kill's inner steps: nothing for the rules.
			if err := s.completePlurality(r); err != nil {
				return err
			}
			break
		}
		learn = true
		if r.Tested {
			count := 1
			if r.Cards[0][0].B.Equal(mental.Identity()) == 1 {
				count = 0
			}
			facts = []engine.Fact{{Slot: engine.FactBlind, Seat: -1, Count: count}}
			break
		}
		if r.PickTargets != nil {
			f, err := s.pickFacts(r)
			if err != nil {
				return err
			}
			facts = f
			break
		}
		for k, target := range r.Targets {
			var all [][]*mental.Element
			for i := range r.Seats {
				all = append(all, r.Shares[i][k])
			}
			m, err := mental.Open(r.Cards[k], all)
			if err != nil {
				return err
			}
			count, err := mental.TallyCount(m[0])
			if err != nil {
				return fmt.Errorf("the tally of %s at %s: %w", t.powerLabel(r.Powers[k]), t.seatName(int(target)), err)
			}
			facts = append(facts, engine.Fact{Slot: engine.FactTally, Seat: target, Count: count})
		}
	case engine.EffectReveal:
		learn = true
		for k, sl := range r.Slots {
			var all [][]*mental.Element
			for i := range r.Seats {
				all = append(all, r.Shares[i][k])
			}
			m, err := mental.Open(r.ShareCard(k), all)
			if err != nil {
				return err
			}
			kind, ok := t.cat.Kind(m[0])
			if !ok {
				return fmt.Errorf("slot %d opens to no known card", sl)
			}
			facts = append(facts, engine.Fact{Slot: sl, Card: engine.Card(kind)})
		}
	}
	if learn {
		rules, effects, err := s.rules.Learn(facts)
		if err != nil {
			return fmt.Errorf("rules rejected the established facts: %w", err)
		}
		s.rules = rules
		for _, ef := range effects {
			if ef.Kind == engine.EffectSwap || ef.Kind == engine.EffectProve {
				return fmt.Errorf("internal: the rules asked for a %s without a move", ef.Kind)
			}
			if err := s.queue(t, ef); err != nil {
				return err
			}
		}
	}
	if err := s.settle(t, next); err != nil {
		return err
	}
	s.maybeEnd(t)
	return nil
}

func (s *state) computeHash(t *Table) ledger.Hash {
	h := sha512.New512_256()
	h.Write([]byte("masque/v1/table-state"))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], s.pos)
	h.Write(b[:])
	h.Write(s.prev[:])
	h.Write([]byte{byte(s.phase), byte(s.shuffles)})
	if s.rules != nil {
		enc, err := s.rules.AppendBinary(nil)
		if err == nil {
			binary.BigEndian.PutUint64(b[:], uint64(len(enc)))
			h.Write(b[:])
			h.Write(enc)
		}
	}
	var enc []byte
	for _, c := range s.slots {
		enc, _ = c.AppendBinary(enc[:0])
		h.Write(enc)
	}
	binary.BigEndian.PutUint64(b[:], uint64(len(s.pending)))
	h.Write(b[:])
	for _, r := range s.pending {
		h.Write([]byte{byte(r.Kind), byte(r.By), byte(r.Except), byte(r.next)})
	}
	// Seats retired during play (a table without any hashes as before).
	if slices.Contains(s.retired, true) {
		h.Write([]byte("retired"))
		for _, r := range s.retired {
			if r {
				h.Write([]byte{1})
			} else {
				h.Write([]byte{0})
			}
		}
	}
	var out ledger.Hash
	copy(out[:], h.Sum(nil))
	return out
}

// withoutProofs returns the checked shares es as a table keeps them: the
// ciphertexts, without the proofs (mental.EncryptedShare.WithoutProof).
func withoutProofs(es []*mental.EncryptedShare) []*mental.EncryptedShare {
	out := make([]*mental.EncryptedShare, len(es))
	for i, e := range es {
		out[i] = e.WithoutProof()
	}
	return out
}

// reasoned attaches a stable Fault reason to an error from apply.
type reasoned struct {
	reason string
	err    error
}

func (r *reasoned) Error() string { return r.reason + ": " + r.err.Error() }
func (r *reasoned) Unwrap() error { return r.err }

// because tags err with a stable reason for the Fault it becomes.
func because(reason string, err error) error { return &reasoned{reason: reason, err: err} }
