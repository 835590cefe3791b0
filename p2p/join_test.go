package p2p

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/identity"
)

// TestJoinSeatField: the seat is a field of the join messages. A joiner
// asking for a seat that is not the next one is refused with the next
// seat and the table id; asking again for that seat (or for none) is
// accepted with the seat given, which is the seat the roster holds. A full
// table refuses with no seat.
func TestJoinSeatField(t *testing.T) {
	_, ps := mockPeers(t, 5)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var mu sync.Mutex
	var validated []int
	tbl, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Seats: 4, Name: "p0",
		ValidateSeat: func(seat int, si ledger.SeatInfo) error {
			mu.Lock()
			defer mu.Unlock()
			if si.Name == "x" {
				return errors.New("names x are not welcome")
			}
			validated = append(validated, seat)
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	creator := peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: ps[0].node.Host().Addrs()}

	// Seat 2 is not the next seat: refused, told seat 1 of this table.
	_, err = ps[1].node.Join(ctx, JoinConfig{Creator: creator, Name: "p1", Seat: 2})
	var no *JoinRefusedError
	if !errors.As(err, &no) || no.Code != RefusedSeatNotFree || no.Seat != 1 || no.TableID != tbl.ID() || no.Creator != creator.ID ||
		!strings.Contains(no.Reason, "next seat is 1") || !strings.Contains(err.Error(), ": refused: ") {
		t.Fatalf("asking for seat 2: %v (%+v)", err, no)
	}
	// A refusal by the creator's seat check also names the next seat.
	_, err = ps[1].node.Join(ctx, JoinConfig{Creator: creator, Name: "x", Seat: 1})
	if !errors.As(err, &no) || no.Code != RefusedSeat || no.Seat != 1 || !strings.Contains(no.Reason, "not welcome") {
		t.Fatalf("refused by ValidateSeat: %v", err)
	}
	// No such table: no table id, no seat.
	_, err = ps[1].node.Join(ctx, JoinConfig{Creator: creator, TableID: [16]byte{9}, Name: "p1"})
	if !errors.As(err, &no) || no.Code != RefusedNoSuchTable || no.Seat != 0 || no.TableID != ([16]byte{}) {
		t.Fatalf("no such table: %v", err)
	}

	type joined struct {
		seating                 *Seating
		err                     error
		seat, taken, total, ups int
	}
	res := make([]joined, 4)
	var wg sync.WaitGroup
	join := func(i, asked int) {
		accepted := make(chan struct{})
		wg.Go(func() {
			j := &res[i]
			j.seating, j.err = ps[i].node.Join(ctx, JoinConfig{Creator: creator, TableID: tbl.ID(), Name: fmt.Sprint("p", i), Seat: asked,
				OnAccepted: func(taken, total int) { j.ups++ },
				OnSeated: func(seat, taken, total int) {
					j.seat, j.taken, j.total = seat, taken, total
					close(accepted)
				}})
			if j.err != nil {
				close(accepted)
			}
		})
		<-accepted // seats are given in the order joiners are accepted
	}
	join(1, 1) // asked for the next seat
	join(2, 0) // any seat
	join(3, 3)
	var seating *Seating
	seating, err = tbl.Seat(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i := 1; i < 4; i++ {
		j := res[i]
		if j.err != nil {
			t.Fatalf("p%d: %v", i, j.err)
		}
		if j.seat != i || j.taken != i+1 || j.total != 4 || j.ups != 1 {
			t.Errorf("p%d: accepted at seat %d, %d/%d taken (OnAccepted %d times)", i, j.seat, j.taken, j.total, j.ups)
		}
		if int(j.seating.Seat) != i || j.seating.GameID != seating.GameID || j.seating.Roster.Seats[i].Name != fmt.Sprint("p", i) {
			t.Errorf("p%d: roster seat %d", i, j.seating.Seat)
		}
	}
	mu.Lock()
	if fmt.Sprint(validated) != "[1 2 3]" {
		t.Errorf("ValidateSeat saw seats %v", validated)
	}
	mu.Unlock()
	// The table started, and is gone from the creator's open tables once
	// seated: refused, with no seat to offer.
	_, err = ps[4].node.Join(ctx, JoinConfig{Creator: creator, Name: "p4"})
	if !errors.As(err, &no) || no.Code != RefusedNoSuchTable || no.Seat != 0 {
		t.Fatalf("late joiner: %v", err)
	}
}

// TestJoinConcurrentSeats: joiners admitted at once are each told their
// own seat (not a count of seats taken read after another joiner came in),
// and it is the seat the roster gives them.
func TestJoinConcurrentSeats(t *testing.T) {
	const n = 8
	_, ps := mockPeers(t, n)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	tbl, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Seats: n, Name: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	creator := peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: ps[0].node.Host().Addrs()}
	given := make([]int, n)
	taken := make([]int, n)
	seatings := make([]*Seating, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	wg.Go(func() { seatings[0], errs[0] = tbl.Seat(ctx) })
	for i := 1; i < n; i++ {
		wg.Go(func() {
			seatings[i], errs[i] = ps[i].node.Join(ctx, JoinConfig{Creator: creator, Name: fmt.Sprint("p", i),
				OnSeated: func(seat, tk, _ int) { given[i], taken[i] = seat, tk }})
		})
	}
	wg.Wait()
	seen := map[int]bool{}
	for i := 1; i < n; i++ {
		if errs[i] != nil {
			t.Fatalf("p%d: %v", i, errs[i])
		}
		if seen[given[i]] || given[i] < 1 || given[i] >= n || taken[i] != given[i]+1 {
			t.Errorf("p%d: given seat %d with %d taken", i, given[i], taken[i])
		}
		seen[given[i]] = true
		if int(seatings[i].Seat) != given[i] {
			t.Errorf("p%d: given seat %d, roster seat %d", i, given[i], seatings[i].Seat)
		}
	}
}

// TestJoinChecksGivenSeat: a creator that gives another seat than the one
// asked for is refused by the joiner.
func TestJoinChecksGivenSeat(t *testing.T) {
	_, ps := mockPeers(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ps[0].node.Host().SetStreamHandler(ProtocolJoin, func(s network.Stream) {
		defer s.Close()
		if _, err := ps[0].node.readMsg(bufio.NewReader(s), s); err != nil {
			s.Reset()
			return
		}
		WriteFrame(s, encodeJoinOK(2, 3, 4))
	})
	creator := peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: ps[0].node.Host().Addrs()}
	_, err := ps[1].node.Join(ctx, JoinConfig{Creator: creator, Name: "p1", Seat: 1,
		OnSeated: func(int, int, int) { t.Error("OnSeated called for a seat not asked for") }})
	if err == nil || !strings.Contains(err.Error(), "given seat 2, asked for 1") {
		t.Fatalf("err %v", err)
	}
	if _, err := ps[1].node.Join(ctx, JoinConfig{Creator: creator, Name: "p1", Seat: 16}); err == nil {
		t.Fatal("seat 16 asked for")
	}
}

// TestJoinRefusalCodes: every refusal the creator has comes with its code,
// the reason that goes with it, the table id and the next free seat.
func TestJoinRefusalCodes(t *testing.T) {
	type env struct {
		ctx     context.Context
		ps      []*tpeer
		tbl     *Table
		creator peer.AddrInfo
		wg      *sync.WaitGroup
	}
	// pending has ps[i] take a seat as name and wait (for the roster),
	// once the creator has given it.
	pending := func(t *testing.T, e *env, i int, name string, cfg JoinConfig) {
		t.Helper()
		seated := make(chan error, 1)
		cfg.Creator, cfg.TableID, cfg.Name = e.creator, e.tbl.ID(), name
		cfg.OnSeated = func(int, int, int) { seated <- nil }
		e.wg.Go(func() {
			if _, err := e.ps[i].node.Join(e.ctx, cfg); err != nil {
				seated <- err
			}
		})
		if err := <-seated; err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	join := func(e *env, i int, cfg JoinConfig) error {
		cfg.Creator = e.creator
		if cfg.TableID == ([16]byte{}) {
			cfg.TableID = e.tbl.ID()
		}
		_, err := e.ps[i].node.Join(e.ctx, cfg)
		return err
	}
	// raw sends a join request as ps[i], for what Node.Join would not
	// send.
	raw := func(e *env, i int, req *joinRequest) error {
		s, err := e.ps[i].node.Host().NewStream(e.ctx, e.creator.ID, ProtocolJoin)
		if err != nil {
			return err
		}
		defer s.Close()
		if err := WriteFrame(s, encodeJoinRequest(req)); err != nil {
			return err
		}
		m, err := e.ps[i].node.readMsg(bufio.NewReader(s), s)
		if err != nil {
			return err
		}
		if m.Type != msgJoinNo {
			return fmt.Errorf("answered with message type %d", m.Type)
		}
		return refused(e.creator.ID, m)
	}
	refuseX := errors.New("x is refused")
	cases := []struct {
		name    string
		cfg     func(*TableConfig)
		refuse  func(t *testing.T, e *env) error
		code    RefusalCode
		seat    int  // the next free seat the refusal names
		noTable bool // the refusal names no table
		reason  string
	}{
		{name: "no such table", code: RefusedNoSuchTable, noTable: true, reason: "no such table",
			refuse: func(t *testing.T, e *env) error { return join(e, 1, JoinConfig{TableID: [16]byte{9}, Name: "p1"}) }},
		{name: "no table asked for, two open", code: RefusedNoSuchTable, noTable: true, reason: "no such table",
			refuse: func(t *testing.T, e *env) error {
				if _, err := e.ps[0].node.CreateTable(TableConfig{Game: "counter", Seats: 2, Name: "p0"}); err != nil {
					t.Fatal(err)
				}
				_, err := e.ps[1].node.Join(e.ctx, JoinConfig{Creator: e.creator, Name: "p1"})
				return err
			}},
		{name: "table started", code: RefusedStarted, seat: 0, reason: "table has started",
			refuse: func(t *testing.T, e *env) error {
				offered, release := make(chan struct{}), make(chan struct{})
				pending(t, e, 1, "p1", JoinConfig{Validate: func(int, ledger.SeatInfo) error {
					close(offered) // the roster is out: seating is closed
					<-release
					return nil
				}})
				e.tbl.Start()
				e.wg.Go(func() { e.tbl.Seat(e.ctx) })
				<-offered
				defer close(release)
				return join(e, 2, JoinConfig{Name: "p2"})
			}},
		{name: "table full", cfg: func(c *TableConfig) { c.Seats = 2 }, code: RefusedFull, seat: 0, reason: "table is full",
			refuse: func(t *testing.T, e *env) error {
				pending(t, e, 1, "p1", JoinConfig{})
				return join(e, 2, JoinConfig{Name: "p2"})
			}},
		{name: "signing key not the peer's", code: RefusedSignKey, seat: 1, reason: "not the key of the connecting peer",
			refuse: func(t *testing.T, e *env) error {
				return raw(e, 1, &joinRequest{TableID: e.tbl.ID(), Name: "p1", SignKey: e.ps[2].id.PublicKey()})
			}},
		{name: "already seated", code: RefusedAlreadySeated, seat: 2, reason: "already seated",
			refuse: func(t *testing.T, e *env) error {
				pending(t, e, 1, "p1", JoinConfig{})
				return join(e, 1, JoinConfig{Name: "q1"})
			}},
		{name: "the creator itself", code: RefusedAlreadySeated, seat: 1, reason: "already seated",
			// Not over the network: a node does not dial itself.
			refuse: func(t *testing.T, e *env) error {
				_, _, seat, _, no := e.tbl.admit(&joiner{peer: e.creator.ID, req: &joinRequest{Name: "q0", SignKey: e.ps[0].id.PublicKey()}})
				if no == nil {
					t.Fatal("the creator was given a second seat")
				}
				return &JoinRefusedError{Creator: e.creator.ID, Code: no.Code, Reason: no.Reason, TableID: e.tbl.ID(), Seat: seat}
			}},
		{name: "the creator's name", code: RefusedNameTaken, seat: 1, reason: `name "P0" is taken`,
			refuse: func(t *testing.T, e *env) error { return join(e, 1, JoinConfig{Name: "P0"}) }},
		{name: "a joiner's name", code: RefusedNameTaken, seat: 2, reason: `name "P1" is taken`,
			refuse: func(t *testing.T, e *env) error {
				pending(t, e, 1, "p1", JoinConfig{})
				return join(e, 2, JoinConfig{Name: "P1"})
			}},
		{name: "seat not free", code: RefusedSeatNotFree, seat: 1, reason: "seat 3 is not free; the next seat is 1",
			refuse: func(t *testing.T, e *env) error { return join(e, 1, JoinConfig{Name: "p1", Seat: 3}) }},
		{name: "card key refused", code: RefusedCardKey, seat: 1, reason: "card key refused: x is refused",
			cfg: func(c *TableConfig) {
				c.Validate = func(name string, _ []byte) error {
					if name == "x" {
						return refuseX
					}
					return nil
				}
			},
			refuse: func(t *testing.T, e *env) error { return join(e, 1, JoinConfig{Name: "x"}) }},
		{name: "seat refused", code: RefusedSeat, seat: 2, reason: "seat refused: x is refused",
			cfg: func(c *TableConfig) {
				c.ValidateSeat = func(_ int, si ledger.SeatInfo) error {
					if si.Name == "x" {
						return refuseX
					}
					return nil
				}
			},
			refuse: func(t *testing.T, e *env) error {
				pending(t, e, 1, "p1", JoinConfig{})
				return join(e, 2, JoinConfig{Name: "x"})
			}},
		{name: "options (other)", code: RefusedOther, seat: 0, reason: "options: x is refused",
			cfg: func(c *TableConfig) {
				c.Seats = 2
				c.OptionsFor = func([]string) ([]byte, error) { return nil, refuseX }
			},
			refuse: func(t *testing.T, e *env) error {
				e.wg.Go(func() {
					if _, err := e.tbl.Seat(e.ctx); !errors.Is(err, refuseX) {
						t.Errorf("Seat: %v", err)
					}
				})
				return join(e, 1, JoinConfig{Name: "p1"})
			}},
	}
	covered := map[RefusalCode]bool{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, ps := mockPeers(t, 3)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			var wg sync.WaitGroup
			defer wg.Wait()
			defer cancel()
			cfg := TableConfig{Game: "counter", Seats: 4, Name: "p0"}
			if c.cfg != nil {
				c.cfg(&cfg)
			}
			tbl, err := ps[0].node.CreateTable(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer tbl.Close()
			e := &env{ctx: ctx, ps: ps, tbl: tbl, creator: peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: ps[0].node.Host().Addrs()}, wg: &wg}
			err = c.refuse(t, e)
			var no *JoinRefusedError
			if !errors.As(err, &no) {
				t.Fatalf("not refused: %v", err)
			}
			table := tbl.ID()
			if c.noTable {
				table = [16]byte{}
			}
			if no.Code != c.code || no.Seat != c.seat || no.TableID != table || no.Creator != e.creator.ID {
				t.Errorf("refused with code %d (%s), seat %d, table %x by %s; want code %d (%s), seat %d, table %x",
					no.Code, no.Code, no.Seat, no.TableID, no.Creator, c.code, c.code, c.seat, table)
			}
			if !strings.Contains(no.Reason, c.reason) || !strings.Contains(err.Error(), ": refused: "+no.Reason) {
				t.Errorf("reason %q (error %q), want it to contain %q", no.Reason, err, c.reason)
			}
			covered[no.Code] = true
		})
	}
	for c := refusedFirst; c <= refusedLast; c++ {
		if !covered[c] {
			t.Errorf("no refusal with code %d (%s)", c, c)
		}
	}
}

func TestRefusalCodeString(t *testing.T) {
	seen := map[string]bool{}
	for c := refusedFirst; c <= refusedLast; c++ {
		s := c.String()
		if s == "" || strings.HasPrefix(s, "RefusalCode(") || seen[s] {
			t.Errorf("code %d: %q", c, s)
		}
		seen[s] = true
	}
	for _, c := range []RefusalCode{0, refusedLast + 1, 255} {
		if s, want := c.String(), fmt.Sprintf("RefusalCode(%d)", uint8(c)); s != want {
			t.Errorf("code %d: %q, want %q", c, s, want)
		}
	}
	if s := RefusedNameTaken.String(); s != "name taken" {
		t.Errorf("RefusedNameTaken: %q", s)
	}
	// A refusal without a reason says its code.
	if s := (&JoinRefusedError{Code: RefusedFull}).Error(); !strings.HasSuffix(s, ": refused: table full") {
		t.Errorf("no reason: %q", s)
	}
}

// loopbackNode returns a new node listening on a loopback TCP port.
func loopbackNode(t *testing.T) *Node {
	t.Helper()
	id, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	node, err := NewNode(Config{Identity: id, ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	return node
}

// absentCreator returns a creator that is not listening (yet): a new
// peer ID at a loopback TCP port nobody listens on.
func absentCreator(t *testing.T) peer.AddrInfo {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	absent, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	return peer.AddrInfo{ID: absent.PeerID(), Addrs: []ma.Multiaddr{ma.StringCast(fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", port))}}
}

// TestJoinUnreachable: a creator that cannot be reached gives an error
// wrapping ErrUnreachable and the swarm's dial error (then its dial
// backoff); a creator that answers but does not speak the join protocol,
// or a join whose context is done, does not.
func TestJoinUnreachable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	node := loopbackNode(t)
	defer node.Close()
	// A creator that is not listening (yet): a port nobody listens on.
	creator := absentCreator(t)
	_, err := node.Join(ctx, JoinConfig{Creator: creator, Name: "p1"})
	var de *swarm.DialError
	if !errors.Is(err, ErrUnreachable) || !errors.As(err, &de) || de.Peer != creator.ID {
		t.Fatalf("first attempt: %v", err)
	}
	if !strings.Contains(err.Error(), "p2p: join "+creator.ID.String()+": creator unreachable: ") {
		t.Errorf("error %q", err)
	}
	var no *JoinRefusedError
	if errors.As(err, &no) {
		t.Errorf("unreachable is a refusal: %v", err)
	}
	// At once again: the swarm's backoff holds the dial back.
	_, err = node.Join(ctx, JoinConfig{Creator: creator, Name: "p1"})
	if !errors.Is(err, ErrUnreachable) || !errors.Is(err, swarm.ErrDialBackoff) {
		t.Fatalf("second attempt: %v", err)
	}
	// A join whose context is done is not "unreachable".
	done, stop := context.WithCancel(ctx)
	stop()
	if _, err = node.Join(done, JoinConfig{Creator: creator, Name: "p1"}); err == nil || errors.Is(err, ErrUnreachable) {
		t.Fatalf("cancelled: %v", err)
	}

	// Reachable, but not a creator: no join protocol. The join asks
	// again (as of a creator still starting) until its context ends,
	// and must never call the creator unreachable meanwhile: it gets a
	// context of its own, three seconds long (several attempts; the
	// patience, the only way to "unreachable" after a contact, is
	// minutes), instead of waiting out the test's 20 s.
	_, ps := mockPeers(t, 2)
	ps[0].node.Host().RemoveStreamHandler(ProtocolJoin)
	noProto, stopNoProto := context.WithTimeout(ctx, 3*time.Second)
	defer stopNoProto()
	_, err = ps[1].node.Join(noProto, JoinConfig{Creator: peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: ps[0].node.Host().Addrs()}, Name: "p1"})
	if err == nil || errors.Is(err, ErrUnreachable) {
		t.Fatalf("no join protocol: %v", err)
	}
}

// TestJoinSameIdentity: a table opened with this node's own identity (two
// players sharing a configuration directory) is refused at once with
// ErrSameIdentity, not by the swarm's "dial to self attempted".
func TestJoinSameIdentity(t *testing.T) {
	_, ps := mockPeers(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	self := peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: ps[0].node.Host().Addrs()}
	_, err := ps[0].node.Join(ctx, JoinConfig{Creator: self, Name: "p1"})
	if !errors.Is(err, ErrSameIdentity) {
		t.Fatalf("err %v, want ErrSameIdentity", err)
	}
	if errors.Is(err, ErrUnreachable) {
		t.Errorf("oneself reported unreachable: %v", err)
	}
}
