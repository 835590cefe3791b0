package p2p

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/store"
)

// rosterTimeout bounds the roster agreement once seating is closed.
const rosterTimeout = 30 * time.Second

// TableConfig describes a table the local node creates. The creator takes
// seat 0; joiners take the next seats in the order they were accepted.
type TableConfig struct {
	// ID identifies the table in the lobby and in join requests; zero
	// means a random one.
	ID [16]byte
	// Game and Options go into the roster unchanged.
	Game    string
	Options []byte
	// Seats is the number of seats, the creator's included (1..16).
	Seats int
	// Name and CardKey are the creator's seat.
	Name    string
	CardKey []byte
	// Validate, if set, checks a joiner's name and card key (the mental
	// public key and its proof); an error refuses the seat with its text.
	Validate func(name string, cardKey []byte) error
	// ValidateSeat, if set, checks a joiner for the seat it would take
	// (card key proofs are bound to the seat): info has its name, peer id,
	// signing key and card key. An error refuses the seat with its text.
	// With ValidateSeat set, a joiner leaving before the table starts also
	// drops the joiners after it (their seats would move), so that they ask
	// again.
	ValidateSeat func(seat int, info ledger.SeatInfo) error
	// OptionsFor, if set, computes the roster's options from the seated
	// players' names (seat order) when seating closes, instead of Options.
	OptionsFor func(names []string) ([]byte, error)
	// OnChange, if set, is called (it must not block) when a seat is taken
	// or freed, e.g. to update the lobby advertisement.
	OnChange func(taken, total int)
}

// Seating is the result of a roster agreement: everything needed to create
// the table's state directory (store.Create) and open its room.
type Seating struct {
	Roster *ledger.Roster
	GameID ledger.Hash
	Seat   uint8
	// Table holds the roster, every seat's signature and addresses.
	Table store.Table
}

// Table is an open table on its creator's node, accepting joiners until it
// is full or [Table.Start] is called.
type Table struct {
	node  *Node
	cfg   TableConfig
	ready chan struct{}
	once  sync.Once

	mu      sync.Mutex
	joiners []*joiner
	started bool
	closed  bool
}

type joiner struct {
	peer     peer.ID
	req      *joinRequest
	s        network.Stream
	observed ma.Multiaddr
	frames   chan joinFrame
	gone     chan struct{}
	// welcomed is closed once the joiner's JoinOK has been written (or
	// failed): the roster offer must not overtake it on the stream, and
	// two goroutines must never write the stream at once.
	welcomed chan struct{}
}

type joinFrame struct {
	m   *message
	err error
}

// CreateTable opens a table for joiners on [ProtocolJoin].
func (n *Node) CreateTable(cfg TableConfig) (*Table, error) {
	if cfg.Seats < 1 || cfg.Seats > ledger.MaxSeats {
		return nil, fmt.Errorf("p2p: table of %d seats, want 1..%d", cfg.Seats, ledger.MaxSeats)
	}
	if len(cfg.Name) == 0 || len(cfg.Name) > ledger.MaxNameBytes {
		return nil, fmt.Errorf("p2p: name must be 1..%d bytes", ledger.MaxNameBytes)
	}
	if cfg.ID == ([16]byte{}) {
		rand.Read(cfg.ID[:])
	}
	t := &Table{node: n, cfg: cfg, ready: make(chan struct{})}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.tables[cfg.ID] != nil {
		return nil, fmt.Errorf("p2p: table %x is already open", cfg.ID[:4])
	}
	n.tables[cfg.ID] = t
	if cfg.Seats == 1 {
		t.Start()
	}
	return t, nil
}

// ID is the table id (the roster's TableID).
func (t *Table) ID() [16]byte { return t.cfg.ID }

// Taken reports the seats taken (the creator's included) and the total.
func (t *Table) Taken() (taken, total int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return 1 + len(t.joiners), t.cfg.Seats
}

// Start closes seating with the seats taken so far.
func (t *Table) Start() { t.once.Do(func() { close(t.ready) }) }

// Close withdraws the table and drops its joiners.
func (t *Table) Close() error {
	t.node.mu.Lock()
	if t.node.tables[t.cfg.ID] == t {
		delete(t.node.tables, t.cfg.ID)
	}
	t.node.mu.Unlock()
	t.mu.Lock()
	t.closed = true
	js := t.joiners
	t.mu.Unlock()
	for _, j := range js {
		j.s.Reset()
	}
	return nil
}

func (t *Table) changed() {
	if t.cfg.OnChange != nil {
		taken, total := t.Taken()
		t.cfg.OnChange(taken, total)
	}
}

// RefusalCode says why a table's creator refused a join, for programs: a
// [JoinRefusedError]'s Reason is for people. It is one byte of the join
// refused message; 0 is no code, and a code the decoder does not know makes
// the message malformed.
type RefusalCode uint8

// Refusal codes. Their values are on the wire: never renumber them.
const (
	// RefusedOther: none of the codes below, e.g. the creator could not
	// compute the table's options when seating closed.
	RefusedOther RefusalCode = 1
	// RefusedNoSuchTable: the creator has no table of the id asked for
	// (or, asked for none, not exactly one table).
	RefusedNoSuchTable RefusalCode = 2
	// RefusedStarted: seating is closed.
	RefusedStarted RefusalCode = 3
	// RefusedFull: every seat is taken.
	RefusedFull RefusalCode = 4
	// RefusedSignKey: the signing key in the request is not the key of the
	// connecting peer.
	RefusedSignKey RefusalCode = 5
	// RefusedAlreadySeated: the peer holds a seat at the table already.
	RefusedAlreadySeated RefusalCode = 6
	// RefusedNameTaken: another seat has the name (compared without
	// case); asking again with another name may succeed.
	RefusedNameTaken RefusalCode = 7
	// RefusedSeatNotFree: the seat asked for is not the next free one,
	// which the refusal names.
	RefusedSeatNotFree RefusalCode = 8
	// RefusedCardKey: [TableConfig.Validate] refused the name or card key.
	RefusedCardKey RefusalCode = 9
	// RefusedSeat: [TableConfig.ValidateSeat] refused the joiner for the
	// next free seat.
	RefusedSeat RefusalCode = 10

	refusedFirst, refusedLast = RefusedOther, RefusedSeat
)

var refusalNames = [...]string{
	RefusedOther:         "other",
	RefusedNoSuchTable:   "no such table",
	RefusedStarted:       "table started",
	RefusedFull:          "table full",
	RefusedSignKey:       "signing key not the peer's",
	RefusedAlreadySeated: "already seated",
	RefusedNameTaken:     "name taken",
	RefusedSeatNotFree:   "seat not free",
	RefusedCardKey:       "card key refused",
	RefusedSeat:          "seat refused",
}

// String names the code, e.g. "name taken"; an unknown one is
// "RefusalCode(n)".
func (c RefusalCode) String() string {
	if c.known() {
		return refusalNames[c]
	}
	return fmt.Sprintf("RefusalCode(%d)", uint8(c))
}

func (c RefusalCode) known() bool { return c >= refusedFirst && c <= refusedLast }

// seatFree reports whether a refusal with code c may name a next free
// seat: not when seating is over or there is no table.
func (c RefusalCode) seatFree() bool {
	return c != RefusedStarted && c != RefusedFull && c != RefusedNoSuchTable
}

// refusal is the creator's refusal of a join: the code and the reason are
// made together, so that they agree.
type refusal struct {
	Code   RefusalCode
	Reason string
}

func refuse(code RefusalCode, format string, args ...any) *refusal {
	return &refusal{Code: code, Reason: fmt.Sprintf(format, args...)}
}

// noSuchTable is the refusal of a join request for a table the node does
// not have; it goes with a zero table id and no seat.
var noSuchTable = refusal{RefusedNoSuchTable, "no such table"}

// admit decides on a join request. It returns the seat given and the
// seats taken with it; or a refusal, with in seat the next free seat (the
// one the joiner would get if it asked again for it, 0 when the table is
// full or has started).
func (t *Table) admit(j *joiner) (seat, taken int, no *refusal) {
	t.mu.Lock()
	defer t.mu.Unlock()
	next := 1 + len(t.joiners)
	switch {
	case t.closed || t.started:
		return 0, 0, refuse(RefusedStarted, "table has started")
	case next >= t.cfg.Seats:
		return 0, 0, refuse(RefusedFull, "table is full")
	}
	if err := ledger.CheckSigningKey(j.req.SignKey); err != nil {
		return next, 0, refuse(RefusedSignKey, "signing key refused: %v", err)
	}
	if id, err := seatPeerID(ledger.SeatInfo{PeerID: []byte(j.peer), SignKey: j.req.SignKey}); err != nil || id != j.peer {
		return next, 0, refuse(RefusedSignKey, "signing key is not the key of the connecting peer")
	}
	switch {
	case j.peer == t.node.ID():
		return next, 0, refuse(RefusedAlreadySeated, "already seated")
	case strings.EqualFold(j.req.Name, t.cfg.Name):
		return next, 0, refuse(RefusedNameTaken, "name %q is taken", j.req.Name)
	}
	for _, o := range t.joiners {
		if o.peer == j.peer {
			return next, 0, refuse(RefusedAlreadySeated, "already seated")
		}
		if strings.EqualFold(o.req.Name, j.req.Name) {
			return next, 0, refuse(RefusedNameTaken, "name %q is taken", j.req.Name)
		}
	}
	if j.req.Seat != 0 && int(j.req.Seat) != next {
		return next, 0, refuse(RefusedSeatNotFree, "seat %d is not free; the next seat is %d", j.req.Seat, next)
	}
	if t.cfg.Validate != nil {
		if err := t.cfg.Validate(j.req.Name, j.req.CardKey); err != nil {
			return next, 0, refuse(RefusedCardKey, "card key refused: %v", err)
		}
	}
	if t.cfg.ValidateSeat != nil {
		info := ledger.SeatInfo{Name: j.req.Name, PeerID: []byte(j.peer), SignKey: j.req.SignKey, Keys: j.req.CardKey}
		if err := t.cfg.ValidateSeat(next, info); err != nil {
			return next, 0, refuse(RefusedSeat, "seat refused: %v", err)
		}
	}
	t.joiners = append(t.joiners, j)
	if next+1 == t.cfg.Seats {
		t.Start()
	}
	return next, next + 1, nil
}

// serveJoiner runs on the join stream's handler goroutine: it admits or
// refuses the joiner, then reads its frames until the stream ends.
func (t *Table) serveJoiner(s network.Stream, r *bufio.Reader, req *joinRequest) {
	j := &joiner{peer: s.Conn().RemotePeer(), req: req, s: s, observed: s.Conn().RemoteMultiaddr(),
		frames: make(chan joinFrame, 4), gone: make(chan struct{}), welcomed: make(chan struct{})}
	seat, taken, no := t.admit(j)
	if no != nil {
		WriteFrame(s, encodeJoinNo(t.cfg.ID, uint8(seat), *no))
		s.Close()
		return
	}
	// seat and taken come from admit, under the lock that gave the seat:
	// another joiner admitted meanwhile does not change what this one is
	// told.
	err := WriteFrame(s, encodeJoinOK(uint8(seat), uint8(taken), uint8(t.cfg.Seats)))
	close(j.welcomed)
	if err != nil {
		t.drop(j)
		return
	}
	t.changed()
	defer close(j.gone)
	for {
		m, err := t.node.readMsg(r, s)
		select {
		case j.frames <- joinFrame{m, err}:
		default:
			err = errors.New("too many frames")
		}
		if err != nil {
			t.drop(j)
			return
		}
	}
}

// drop frees a joiner's seat if seating is still open.
func (t *Table) drop(j *joiner) {
	j.s.Reset()
	t.mu.Lock()
	freed := false
	var moved []*joiner
	if !t.started {
		for i, o := range t.joiners {
			if o == j {
				if t.cfg.ValidateSeat != nil || askedSeat(t.joiners[i+1:]) {
					// The later joiners were checked for (or asked
					// for) seats that would now move: let them ask
					// again.
					moved = append(moved, t.joiners[i+1:]...)
					t.joiners = t.joiners[:i]
				} else {
					t.joiners = append(t.joiners[:i], t.joiners[i+1:]...)
				}
				freed = true
				break
			}
		}
	}
	t.mu.Unlock()
	for _, o := range moved {
		o.s.Reset()
	}
	if freed {
		t.changed()
	}
}

// askedSeat reports whether one of js asked for a particular seat.
func askedSeat(js []*joiner) bool {
	for _, j := range js {
		if j.req.Seat != 0 {
			return true
		}
	}
	return false
}

func addrBytes(addrs []ma.Multiaddr) [][]byte {
	var out [][]byte
	seen := map[string]bool{}
	for _, a := range addrs {
		if a == nil || seen[string(a.Bytes())] || len(out) == maxAddrs {
			continue
		}
		seen[string(a.Bytes())] = true
		out = append(out, a.Bytes())
	}
	return out
}

// Seat waits until the table is full (or Start is called), then runs the
// roster agreement: it sends every joiner the roster and all addresses,
// collects every seat's signature and sends them all to everyone.
func (t *Table) Seat(ctx context.Context) (*Seating, error) {
	select {
	case <-t.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil, errors.New("p2p: table closed")
	}
	t.started = true
	js := append([]*joiner(nil), t.joiners...)
	t.mu.Unlock()
	defer t.Close()
	var err error

	ctx, cancel := context.WithTimeout(ctx, rosterTimeout)
	defer cancel()
	// Every joiner's JoinOK goes out before anything else on its stream.
	for _, j := range js {
		select {
		case <-j.welcomed:
		case <-ctx.Done():
			return nil, fmt.Errorf("p2p: welcoming %s: %w", j.peer, ctx.Err())
		}
	}
	id := t.node.id
	options := t.cfg.Options
	if t.cfg.OptionsFor != nil {
		names := []string{t.cfg.Name}
		for _, j := range js {
			names = append(names, j.req.Name)
		}
		if options, err = t.cfg.OptionsFor(names); err != nil {
			no := encodeJoinNo(t.cfg.ID, 0, *refuse(RefusedOther, "options: %v", err))
			for _, j := range js {
				WriteFrame(j.s, no)
				j.s.CloseWrite()
			}
			// Let the joiners read the refusal before Close resets
			// the streams (a reset loses what they have not read).
			wctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			for _, j := range js {
				select {
				case <-j.gone:
				case <-wctx.Done():
				}
			}
			cancel()
			return nil, fmt.Errorf("p2p: table options: %w", err)
		}
	}
	roster := &ledger.Roster{TableID: t.cfg.ID, Game: t.cfg.Game, Options: options,
		Seats: []ledger.SeatInfo{{Name: t.cfg.Name, PeerID: []byte(id.PeerID()), SignKey: id.PublicKey(), Keys: t.cfg.CardKey}}}
	addrs := [][][]byte{addrBytes(t.node.announce())}
	for _, j := range js {
		roster.Seats = append(roster.Seats, ledger.SeatInfo{Name: j.req.Name, PeerID: []byte(j.peer), SignKey: j.req.SignKey, Keys: j.req.CardKey})
		as := parseAddrs(j.req.Addrs)
		addrs = append(addrs, addrBytes(append(as, j.observed)))
	}
	game, err := roster.GameID()
	if err != nil {
		return nil, fmt.Errorf("p2p: roster: %w", err)
	}
	enc, _ := roster.MarshalBinary()
	offer := encodeRosterOffer(enc, addrs)
	for _, j := range js {
		if err := WriteFrame(j.s, offer); err != nil {
			return nil, fmt.Errorf("p2p: roster to %s: %w", j.peer, err)
		}
	}
	sigs := make([][ed25519.SignatureSize]byte, len(roster.Seats))
	copy(sigs[0][:], ed25519.Sign(id.SigningKey(), ledger.RosterSigningBytes(game)))
	for i, j := range js {
		seat := i + 1
		var f joinFrame
		select {
		case f = <-j.frames:
		case <-ctx.Done():
			return nil, fmt.Errorf("p2p: waiting for %s's roster signature: %w", j.peer, ctx.Err())
		}
		if f.err != nil {
			return nil, fmt.Errorf("p2p: seat %d left during the roster agreement: %w", seat, f.err)
		}
		if f.m.Type != msgRosterSig || int(f.m.Seat) != seat {
			return nil, fmt.Errorf("p2p: peer %s: expected the roster signature of seat %d", j.peer, seat)
		}
		if !ed25519.Verify(j.req.SignKey, ledger.RosterSigningBytes(game), f.m.Sig[:]) {
			return nil, fmt.Errorf("p2p: peer %s: bad roster signature", j.peer)
		}
		sigs[seat] = f.m.Sig
	}
	all := encodeRosterAll(sigs)
	for _, j := range js {
		if err := WriteFrame(j.s, all); err != nil {
			return nil, fmt.Errorf("p2p: signatures to %s: %w", j.peer, err)
		}
		j.s.CloseWrite()
	}
	// Wait for joiners to close their side, so the last frame is read
	// before the stream is torn down.
	for _, j := range js {
		select {
		case <-j.gone:
		case <-time.After(2 * time.Second):
		}
	}
	return &Seating{Roster: roster, GameID: game, Seat: 0,
		Table: store.Table{Roster: roster, Sigs: sigs, Addrs: addrs}}, nil
}

// JoinConfig says which table to join and as whom.
type JoinConfig struct {
	// Creator is the table creator's peer id and addresses (from the
	// lobby, a join code lookup, or a /p2p multiaddr).
	Creator peer.AddrInfo
	// TableID selects one of the creator's tables; zero means its only one.
	TableID [16]byte
	// Name and CardKey are the joiner's seat.
	Name    string
	CardKey []byte
	// Seat, if not 0, is the seat asked for (1..15), e.g. because CardKey's
	// proof is bound to it. The creator refuses the join if it is not the
	// next free seat (the [JoinRefusedError] says which one is), and the
	// roster must give us exactly that seat. 0 takes the next free seat.
	Seat int
	// Validate, if set, checks every other seat of the offered roster
	// (their card keys' proofs); an error abandons the join.
	Validate func(seat int, info ledger.SeatInfo) error
	// CheckRoster, if set, checks the offered roster as a whole (its game
	// and options, e.g. that the creator did not fix the deal) before the
	// joiner signs it; an error abandons the join unsigned.
	CheckRoster func(r *ledger.Roster) error
	// OnAccepted, if set, is called once the creator has given a seat,
	// with the seats taken (ours included) and the total.
	OnAccepted func(taken, total int)
	// OnSeated, if set, is called when OnAccepted is, with the seat given
	// too. Unless Seat was set (or the creator validates seats), the seat
	// may still move down if an earlier joiner leaves before the table
	// starts; [Seating.Seat] is final.
	OnSeated func(seat, taken, total int)
}

// JoinRefusedError is the error [Node.Join] returns when the table's
// creator refuses the seat.
type JoinRefusedError struct {
	Creator peer.ID
	// Code says why, for programs (e.g. [RefusedNameTaken]: ask again
	// with another name).
	Code RefusalCode
	// Reason is the creator's text, for people.
	Reason string
	// TableID is the table that refused (zero: the creator has no such
	// table).
	TableID [16]byte
	// Seat is the next free seat, the one a new join request would get
	// (card key proofs are bound to it); 0 when there is none (the table
	// is full or has started, or there is no such table).
	Seat int
}

func (e *JoinRefusedError) Error() string {
	reason := e.Reason
	if reason == "" {
		reason = e.Code.String()
	}
	return fmt.Sprintf("p2p: join %s: refused: %s", e.Creator, reason)
}

func refused(who peer.ID, m *message) *JoinRefusedError {
	return &JoinRefusedError{Creator: who, Code: m.Code, Reason: m.Reason, TableID: m.TableID, Seat: int(m.Seat)}
}

// ErrUnreachable is wrapped by the error [Node.Join] returns when it could
// not reach the table's creator: no connection to it could be made (every
// address failed, the dial timed out or libp2p's dial backoff held it
// back), or the connection was lost before the join stream opened. The
// cause is wrapped as well, e.g. a [*swarm.DialError] or
// [swarm.ErrDialBackoff]. The creator may be starting: asking again later
// can succeed. A join abandoned because its context is done is not
// ErrUnreachable.
var ErrUnreachable = errors.New("creator unreachable")

// ErrSameIdentity is returned by [Node.Join] when the table's creator is
// this node's own identity: two players on one machine share a
// configuration directory, hence one peer identity, and cannot sit at one
// table that way.
var ErrSameIdentity = errors.New("the table was opened with this same identity")

// joinDialTimeout bounds connecting to a creator and opening the join
// stream.
const joinDialTimeout = 15 * time.Second

// openJoin connects to the creator and opens the join stream.
func (n *Node) openJoin(ctx context.Context, creator peer.AddrInfo) (network.Stream, error) {
	who := creator.ID
	cctx, cancel := context.WithTimeout(allowLimited(ctx), joinDialTimeout)
	defer cancel()
	err := n.host.Connect(cctx, creator)
	if err == nil {
		var s network.Stream
		if s, err = n.host.NewStream(cctx, who, ProtocolJoin); err == nil {
			return s, nil
		}
	}
	if ctx.Err() == nil && n.unreachable(who, err) {
		return nil, fmt.Errorf("p2p: join %s: %w: %w", who, ErrUnreachable, err)
	}
	return nil, fmt.Errorf("p2p: join %s: %w", who, err)
}

// unreachable reports whether err, from connecting to peer p or opening a
// stream to it, means that p could not be reached: a dial failed (the
// swarm's *DialError, which also carries its backoff), or there is no
// connection to p after all. A peer that answered but failed later (its
// identify timed out, it does not speak the protocol) is reachable, and so
// is this node itself (dialling oneself is a mistake, not a peer still
// starting).
func (n *Node) unreachable(p peer.ID, err error) bool {
	if p == n.ID() || errors.Is(err, swarm.ErrDialToSelf) {
		return false
	}
	var de *swarm.DialError
	c := n.host.Network().Connectedness(p)
	return errors.As(err, &de) || errors.Is(err, swarm.ErrDialBackoff) ||
		c != network.Connected && c != network.Limited
}

// Join asks a table's creator for a seat and takes part in the roster
// agreement. It blocks until the roster is signed by every seat, the
// creator refuses (a [*JoinRefusedError]; its Code says why), the creator
// cannot be reached (an error wrapping [ErrUnreachable]), or ctx is done.
func (n *Node) Join(ctx context.Context, cfg JoinConfig) (*Seating, error) {
	who := cfg.Creator.ID
	if cfg.Seat < 0 || cfg.Seat >= ledger.MaxSeats {
		return nil, fmt.Errorf("p2p: join: seat %d, want 0 (any) or 1..%d", cfg.Seat, ledger.MaxSeats-1)
	}
	if who == n.ID() {
		return nil, fmt.Errorf("p2p: join %s: %w", who, ErrSameIdentity)
	}
	s, err := n.openJoin(ctx, cfg.Creator)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { s.Reset() })
	defer stop()
	defer s.Close()
	id := n.id
	req := &joinRequest{TableID: cfg.TableID, Seat: uint8(cfg.Seat), Name: cfg.Name, SignKey: id.PublicKey(),
		CardKey: cfg.CardKey, Addrs: addrBytes(n.announce())}
	if len(cfg.Name) == 0 || len(cfg.Name) > ledger.MaxNameBytes || len(cfg.CardKey) > ledger.MaxKeyBytes {
		return nil, errors.New("p2p: join: bad name or card key length")
	}
	if err := WriteFrame(s, encodeJoinRequest(req)); err != nil {
		return nil, fmt.Errorf("p2p: join %s: %w", who, err)
	}
	r := bufio.NewReader(s)
	read := func() (*message, error) {
		m, err := n.readMsg(r, s)
		if err != nil && ctx.Err() != nil {
			err = ctx.Err()
		}
		return m, err
	}
	m, err := read()
	if err != nil {
		return nil, fmt.Errorf("p2p: join %s: %w", who, err)
	}
	switch m.Type {
	case msgJoinNo:
		return nil, refused(who, m)
	case msgJoinOK:
		if cfg.Seat != 0 && int(m.Seat) != cfg.Seat {
			return nil, fmt.Errorf("p2p: join %s: given seat %d, asked for %d", who, m.Seat, cfg.Seat)
		}
		if cfg.OnAccepted != nil {
			cfg.OnAccepted(int(m.Taken), int(m.Total))
		}
		if cfg.OnSeated != nil {
			cfg.OnSeated(int(m.Seat), int(m.Taken), int(m.Total))
		}
	default:
		return nil, fmt.Errorf("p2p: join %s: unexpected message type %d", who, m.Type)
	}
	given := int(m.Seat)
	if m, err = read(); err != nil {
		return nil, fmt.Errorf("p2p: join %s: waiting for the roster: %w", who, err)
	}
	switch m.Type {
	case msgRoster:
	case msgJoinNo: // the creator could not close seating (its options)
		return nil, refused(who, m)
	default:
		return nil, fmt.Errorf("p2p: join %s: unexpected message type %d", who, m.Type)
	}
	seating, err := n.checkOffer(m, cfg, who)
	if err != nil {
		return nil, err
	}
	// A seat only moves down, when an earlier joiner leaves.
	if int(seating.Seat) > given {
		return nil, fmt.Errorf("p2p: join %s: given seat %d, the roster has us at %d", who, given, seating.Seat)
	}
	sig := ed25519.Sign(id.SigningKey(), ledger.RosterSigningBytes(seating.GameID))
	if err := WriteFrame(s, encodeRosterSig(seating.Seat, sig)); err != nil {
		return nil, fmt.Errorf("p2p: join %s: %w", who, err)
	}
	if m, err = read(); err != nil {
		return nil, fmt.Errorf("p2p: join %s: waiting for signatures: %w", who, err)
	}
	if m.Type != msgRosterAll || len(m.Sigs) != len(seating.Roster.Seats) {
		return nil, fmt.Errorf("p2p: join %s: expected %d roster signatures", who, len(seating.Roster.Seats))
	}
	for i, sg := range m.Sigs {
		if !ed25519.Verify(seating.Roster.Seats[i].SignKey, ledger.RosterSigningBytes(seating.GameID), sg[:]) {
			return nil, fmt.Errorf("p2p: join %s: seat %d's roster signature is bad", who, i)
		}
	}
	seating.Table.Sigs = m.Sigs
	return seating, nil
}

// checkOffer verifies a roster offer: we hold exactly the seat we asked for
// (our name and card key, at cfg.Seat if set), every seat's peer id is its
// signing key, and the caller accepts each seat and the roster.
func (n *Node) checkOffer(m *message, cfg JoinConfig, who peer.ID) (*Seating, error) {
	roster, err := ledger.UnmarshalRoster(m.Roster)
	if err != nil {
		return nil, fmt.Errorf("p2p: join %s: %w", who, err)
	}
	if len(m.Addrs) != len(roster.Seats) {
		return nil, fmt.Errorf("p2p: join %s: %d address lists for %d seats", who, len(m.Addrs), len(roster.Seats))
	}
	if cfg.TableID != ([16]byte{}) && roster.TableID != cfg.TableID {
		return nil, fmt.Errorf("p2p: join %s: roster is for another table", who)
	}
	seat := -1
	for i, si := range roster.Seats {
		id, err := seatPeerID(si)
		if err != nil {
			return nil, fmt.Errorf("p2p: join %s: seat %d: %w", who, i, err)
		}
		if i == 0 && id != who {
			return nil, fmt.Errorf("p2p: join %s: seat 0 is not the creator", who)
		}
		if id == n.ID() {
			if seat >= 0 || si.Name != cfg.Name || !bytes.Equal(si.Keys, cfg.CardKey) {
				return nil, fmt.Errorf("p2p: join %s: the roster changed our seat", who)
			}
			seat = i
			continue
		}
		for j := range i {
			if string(roster.Seats[j].PeerID) == string(si.PeerID) {
				return nil, fmt.Errorf("p2p: join %s: peer %s holds two seats", who, id)
			}
		}
		if cfg.Validate != nil {
			if err := cfg.Validate(i, si); err != nil {
				return nil, fmt.Errorf("p2p: join %s: seat %d (%s): %w", who, i, si.Name, err)
			}
		}
	}
	if seat < 0 {
		return nil, fmt.Errorf("p2p: join %s: the roster has no seat for us", who)
	}
	if cfg.Seat != 0 && seat != cfg.Seat {
		return nil, fmt.Errorf("p2p: join %s: the roster has us at seat %d, we asked for %d", who, seat, cfg.Seat)
	}
	if cfg.CheckRoster != nil {
		if err := cfg.CheckRoster(roster); err != nil {
			return nil, fmt.Errorf("p2p: join %s: the roster offered: %w", who, err)
		}
	}
	game, err := roster.GameID()
	if err != nil {
		return nil, fmt.Errorf("p2p: join %s: %w", who, err)
	}
	return &Seating{Roster: roster, GameID: game, Seat: uint8(seat),
		Table: store.Table{Roster: roster, Addrs: m.Addrs}}, nil
}
