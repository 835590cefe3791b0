package p2p

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/remoteseat"
	"github.com/masque-games/masque/p2p/roomcore"
	"github.com/masque-games/masque/p2p/store"
)

// Forwarded seats (forward.go): a seat with no libp2p node of its own (a
// phone) plays through another seat's node, its frames sealed; the
// forwarder is hostile in some of these tests.

// forwardedTable is the table of the native peers ps plus one forwarded
// seat (the last) with key phone, reached through ps[via].
func forwardedTable(t *testing.T, ps []*tpeer, phone *identity.Identity, via int) store.Table {
	t.Helper()
	r := &ledger.Roster{TableID: [16]byte{2}, Game: "counter"}
	var addrs [][][]byte
	for i, p := range ps {
		r.Seats = append(r.Seats, ledger.SeatInfo{Name: "p" + string(rune('0'+i)), PeerID: []byte(p.id.PeerID()), SignKey: p.id.PublicKey()})
		addrs = append(addrs, addrBytes(p.node.Host().Addrs()))
	}
	r.Seats = append(r.Seats, ledger.SeatInfo{Name: "phone", PeerID: []byte(phone.PeerID()), SignKey: phone.PublicKey()})
	addrs = append(addrs, [][]byte{ForwardAddr(ps[via].node.ID()).Bytes()})
	gid, err := r.GameID()
	if err != nil {
		t.Fatal(err)
	}
	tb := store.Table{Roster: r, Addrs: addrs}
	for _, key := range append(keysOf(ps), phone.SigningKey()) {
		var sig [64]byte
		copy(sig[:], ed25519.Sign(key, ledger.RosterSigningBytes(gid)))
		tb.Sigs = append(tb.Sigs, sig)
	}
	return tb
}

func keysOf(ps []*tpeer) []ed25519.PrivateKey {
	var out []ed25519.PrivateKey
	for _, p := range ps {
		out = append(out, p.id.SigningKey())
	}
	return out
}

// phoneResult is how the forwarded seat's run ended.
type phoneResult struct {
	out    *roomcore.Outcome
	err    error
	log    []*ledger.Entry
	faults []error
}

// runPhone plays the forwarded seat: its packets go through send (the
// forwarder, perhaps hostile), and what the forwarder carries to it
// arrives on in. It persists nothing (a test), but takes each Out's
// entries before sending its packets, as a page must.
func runPhone(ctx context.Context, tb store.Table, phone *identity.Identity, seat uint8, limit uint64,
	in <-chan []byte, send func([]byte), timeout time.Duration) phoneResult {
	s, err := remoteseat.New(roomcore.Config{Roster: tb.Roster, Self: seat, SignKey: phone.SigningKey(),
		Replica: &counter{seats: len(tb.Roster.Seats), limit: limit}, Timeout: timeout, Tick: 50 * time.Millisecond}, nil)
	if err != nil {
		return phoneResult{err: err}
	}
	timers := make(chan roomcore.Timer, 64)
	authored := make(chan uint64, 1)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	o := s.Start(time.Now())
	for {
		for _, p := range o.Packets {
			send(p.Bytes())
		}
		for _, tm := range o.Timers {
			time.AfterFunc(tm.After, func() { timers <- tm })
		}
		if o.Author {
			authored <- o.AuthorPos
		}
		if o.Err != nil || o.Outcome != nil {
			log, _ := s.Core().Log()
			return phoneResult{out: o.Outcome, err: o.Err, log: log, faults: s.Faults}
		}
		select {
		case <-ctx.Done():
			return phoneResult{err: ctx.Err(), faults: s.Faults}
		case raw := <-in:
			o, _ = s.Receive(time.Now(), raw)
		case tm := <-timers:
			o = s.Timer(time.Now(), tm)
		case pos := <-authored:
			o = s.Authored(time.Now(), pos, body(pos), nil)
		case now := <-tick.C:
			o = s.Tick(now)
		}
	}
}

// innerType is the type of the frame a forward packet seals (0 if it is
// not one).
func innerType(packet []byte) byte {
	const at = 1 + 1 + 32 + 1 + 8 + 4 // to, type, game, seat, nonce, length
	if len(packet) <= at || packet[1] != roomcore.MsgSealed {
		return 0
	}
	return packet[at]
}

// forwardGame plays a counter game of limit entries among the native
// peers and a forwarded seat through peer via, whose forwarder passes the
// phone's packets through up (and the table's to the phone through
// down); nil passes them unchanged. It returns the native results and
// the phone's.
func forwardGame(t *testing.T, natives int, via int, limit uint64, timeout time.Duration,
	up, down func(packet []byte, pass func([]byte))) ([]result, phoneResult, []*tpeer) {
	t.Helper()
	_, ps := mockPeers(t, natives)
	phone, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	tb := forwardedTable(t, ps, phone, via)
	res, pr := playForwarded(t, ps, tb, phone, uint8(natives), via, limit, timeout, up, down)
	return res, pr, ps
}

// playForwarded plays table tb: a room on each native peer (seats in
// ps's order, skipping the phone's), the phone's seat through ps[via].
func playForwarded(t *testing.T, ps []*tpeer, tb store.Table, phone *identity.Identity, seat uint8, via int, limit uint64,
	timeout time.Duration, up, down func(packet []byte, pass func([]byte))) ([]result, phoneResult) {
	t.Helper()
	return playThrough(t, ps, ps[via].node, tb, phone, seat, limit, timeout, up, down)
}

// playThrough is playForwarded with the phone's forwarder fwd, which
// may hold no seat.
func playThrough(t *testing.T, ps []*tpeer, fwd *Node, tb store.Table, phone *identity.Identity, seat uint8, limit uint64,
	timeout time.Duration, up, down func(packet []byte, pass func([]byte))) ([]result, phoneResult) {
	t.Helper()
	seats := len(tb.Roster.Seats)
	toPhone := make(chan []byte, 4096)
	fw, err := fwd.Forward(tb, seat, func(sealed []byte) {
		pass := func(b []byte) {
			select {
			case toPhone <- b:
			default:
			}
		}
		if down != nil {
			down(sealed, pass)
		} else {
			pass(sealed)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer fw.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res := make([]result, len(ps))
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Go(func() {
			res[i] = play(ctx, t, p, tb, &counter{seats: seats, limit: limit}, RoomConfig{Timeout: timeout})
		})
	}
	send := func(packet []byte) {
		if up != nil {
			up(packet, func(b []byte) { fw.Send(b) })
		} else {
			fw.Send(packet)
		}
	}
	pr := runPhone(ctx, tb, phone, seat, limit, toPhone, send, timeout)
	wg.Wait()
	return res, pr
}

func TestForwardedSeatPlays(t *testing.T) {
	const limit = 30
	res, pr, _ := forwardGame(t, 2, 1, limit, 0, nil, nil)
	if pr.err != nil || pr.out == nil || pr.out.Verdict != nil {
		t.Fatalf("forwarded seat: %v %+v (faults %v)", pr.err, pr.out, pr.faults)
	}
	res = append(res, result{out: pr.out, log: pr.log})
	sameLogs(t, res, limit)
	if len(pr.faults) > 0 {
		t.Errorf("honest forwarder, faults at the phone: %v", pr.faults)
	}
}

// TestForwarderReplays: a forwarder that sends every packet twice, both
// ways, and every so often all the phone's packets again from the first,
// changes nothing: a replayed sealed frame states what is still true,
// and an old sync answer's end is refused by its nonce.
func TestForwarderReplays(t *testing.T) {
	const limit = 30
	var mu sync.Mutex
	var past [][]byte
	up := func(p []byte, pass func([]byte)) {
		mu.Lock()
		past = append(past, p)
		again := len(past)%10 == 0
		old := append([][]byte(nil), past...)
		mu.Unlock()
		pass(p)
		pass(p)
		if again {
			for _, o := range old {
				pass(o)
			}
		}
	}
	down := func(p []byte, pass func([]byte)) { pass(p); pass(p) }
	res, pr, _ := forwardGame(t, 2, 1, limit, 0, up, down)
	if pr.err != nil || pr.out == nil || pr.out.Verdict != nil {
		t.Fatalf("forwarded seat: %v %+v (faults %v)", pr.err, pr.out, pr.faults)
	}
	res = append(res, result{out: pr.out, log: pr.log})
	sameLogs(t, res, limit)
}

// reorderer holds the packets of one direction and lets them go in
// reverse order, batch at a time, and whatever it holds
// every 30 ms.
type reorderer struct {
	batch    int
	mu       sync.Mutex
	held     [][]byte
	pass     func([]byte)
	reversed int // batches of two or more let go reversed
}

func (r *reorderer) take(p []byte, pass func([]byte)) {
	r.mu.Lock()
	r.held, r.pass = append(r.held, p), pass
	var out [][]byte
	if len(r.held) >= r.batch {
		out, r.held = r.held, nil
		r.reversed++
	}
	r.mu.Unlock()
	for i := len(out) - 1; i >= 0; i-- {
		pass(out[i])
	}
}

func (r *reorderer) flush() {
	r.mu.Lock()
	out, pass := r.held, r.pass
	r.held = nil
	if len(out) >= 2 {
		r.reversed++
	}
	r.mu.Unlock()
	for i := len(out) - 1; i >= 0; i-- {
		pass(out[i])
	}
}

// TestForwarderReorders: a forwarder that reorders the phone's packets
// and the table's to it (each direction let go in reverse order, four at
// a time from the table and two at a time from the phone, which sends
// little but its own entries, and what each holds every 30 ms from the
// table, every 150 ms from the phone) changes
// nothing: every seat orders entries by their position
// and chain, and syncs what comes early.
func TestForwarderReorders(t *testing.T) {
	const limit = 30
	upR, downR := reorderer{batch: 2}, reorderer{batch: 4}
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		// The phone's frames are held longer: it sends little but its
		// own entries, one at a time (the table waits for each), so
		// that 30 ms held two of its frames only at the end (its echo
		// of the last entry and its done, which went together until
		// that echo went out at once: issue 28). Held 150 ms, the
		// echoes it sends while the table waits are reversed too.
		tk, up := time.NewTicker(30*time.Millisecond), time.NewTicker(150*time.Millisecond)
		defer tk.Stop()
		defer up.Stop()
		for {
			select {
			case <-tk.C:
				downR.flush()
			case <-up.C:
				upR.flush()
			case <-stop:
				return
			}
		}
	}()
	res, pr, _ := forwardGame(t, 2, 1, limit, 0, upR.take, downR.take)
	if pr.err != nil || pr.out == nil || pr.out.Verdict != nil {
		t.Fatalf("forwarded seat: %v %+v (faults %v)", pr.err, pr.out, pr.faults)
	}
	res = append(res, result{out: pr.out, log: pr.log})
	sameLogs(t, res, limit)
	if len(pr.faults) > 0 {
		t.Errorf("reordered packets, faults at the phone: %v", pr.faults)
	}
	upR.mu.Lock()
	downR.mu.Lock()
	defer upR.mu.Unlock()
	defer downR.mu.Unlock()
	if upR.reversed == 0 || downR.reversed == 0 {
		t.Errorf("batches reversed: %d from the phone, %d to it; want some each way", upR.reversed, downR.reversed)
	}
	t.Logf("batches reversed: %d from the phone, %d to it", upR.reversed, downR.reversed)
}

// TestForwarderRewrites: a forwarder that rewrites the phone's frames
// (here: re-seals its entries with the forwarder's own key, and
// corrupts its other packets) gets none of them accepted: the natives
// refuse every one (a bad seal) and time the phone out, as they would a
// seat whose relay ate its frames; no entry in their logs is the phone's.
func TestForwarderRewrites(t *testing.T) {
	const limit = 30
	// The forger's key: anyone's but the phone's.
	_, forger, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	up := func(p []byte, pass func([]byte)) {
		q := append([]byte(nil), p...)
		if innerType(q) == roomcore.MsgEntry {
			// Unseal, change the state hash it reports, seal again
			// under the phone's seat number with the forwarder's key.
			at := 1 + 1 + 32 + 1 + 8 + 4
			inner := append([]byte(nil), q[at:len(q)-64]...)
			inner[1] ^= 1
			var game ledger.Hash
			copy(game[:], q[2:34])
			sealed, err := roomcore.Seal(forger, game, q[34], 0, inner)
			if err == nil {
				pass(append([]byte{q[0]}, sealed...))
			}
			return
		}
		q[len(q)-1] ^= 0x80
		pass(q)
	}
	res, pr, natives := forwardGame(t, 2, 1, limit, 2*time.Second, up, nil)
	for i, r := range res {
		if r.err != nil || r.out == nil || r.out.Verdict == nil || r.out.Verdict.Kind != VerdictTimeout || r.out.Verdict.Seat != 2 {
			t.Fatalf("native %d: want a timeout verdict naming the phone (seat 2), got %v %+v", i, r.err, r.out)
		}
		for _, e := range r.log {
			if e.Seat == 2 {
				t.Fatalf("native %d accepted entry %d of the phone through a rewriting forwarder", i, e.Pos)
			}
		}
	}
	sawSeal := false
	for _, p := range natives {
		for len(p.errs) > 0 {
			if err := <-p.errs; strings.Contains(err.Error(), "bad signature") {
				sawSeal = true
			}
		}
	}
	if !sawSeal {
		t.Error("no native reported a bad seal")
	}
	if pr.err == nil && (pr.out == nil || pr.out.Verdict == nil) {
		t.Errorf("phone: the table ended normally without its entries? %+v", pr.out)
	}
}

// TestForwarderDrops: a forwarder that drops the phone's entries (its
// own frames and its sync answers) gets the phone timed out, blaming
// the phone's seat as a relay's silence would; the natives' logs stop at
// the phone's first turn.
func TestForwarderDrops(t *testing.T) {
	const limit = 30
	up := func(p []byte, pass func([]byte)) {
		if innerType(p) != roomcore.MsgEntry {
			pass(p)
		}
	}
	res, pr, _ := forwardGame(t, 2, 0, limit, 2*time.Second, up, nil)
	for i, r := range res {
		if r.err != nil || r.out == nil || r.out.Verdict == nil || r.out.Verdict.Kind != VerdictTimeout || r.out.Verdict.Seat != 2 || r.out.Verdict.Pos != 2 {
			t.Fatalf("native %d: want a timeout verdict naming the phone (seat 2) at position 2, got %v %+v", i, r.err, r.out)
		}
	}
	if pr.err == nil && pr.out != nil && pr.out.Verdict == nil {
		t.Errorf("phone: the table ended normally without its entries")
	}
}

// TestForwardedJoin: a player with no node of its own is seated by the
// table's creator (SeatForwarded), signs the roster itself, and plays
// through the creator beside a joiner that joined over the network; a
// second request with the same keys gets the same seat back, and a
// roster signature that is not the player's is refused.
func TestForwardedJoin(t *testing.T) {
	const limit = 30
	_, ps := mockPeers(t, 2)
	phone, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Seats: 3, Name: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	req := ForwardedJoin{Name: "phone", SignKey: phone.PublicKey(), CardKey: []byte("card")}
	seat, err := tbl.SeatForwarded(req)
	if err != nil || seat != 1 {
		t.Fatalf("SeatForwarded: seat %d, %v", seat, err)
	}
	if again, err := tbl.SeatForwarded(req); err != nil || again != 1 {
		t.Fatalf("SeatForwarded again (a reload): seat %d, %v", again, err)
	}
	other := req
	other.Name = "p0"
	_, otherKey, _ := ed25519.GenerateKey(nil)
	other.SignKey = otherKey.Public().(ed25519.PublicKey)
	var no *JoinRefusedError
	if _, err := tbl.SeatForwarded(other); !errors.As(err, &no) || no.Code != RefusedNameTaken {
		t.Fatalf("a second phone named as the creator: %v, want refused (name taken)", err)
	}
	// A seat number past a byte's (258 is seat 2 as a byte: the next
	// free one) is refused naming it, not taken as another seat.
	other.Name, other.Seat = "third", 258
	if seat, err := tbl.SeatForwarded(other); !errors.As(err, &no) || !strings.Contains(no.Reason, "seat 258") {
		t.Fatalf("a join for seat 258: seat %d, %v, want refused naming seat 258", seat, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	phoneDone := make(chan error, 1)
	go func() {
		r, addrs, err := tbl.ForwardedOffer(ctx)
		if err != nil {
			phoneDone <- err
			return
		}
		s := r.Seats[1]
		if s.Name != "phone" || string(s.SignKey) != string(phone.PublicKey()) || len(addrs[1]) != 1 {
			phoneDone <- fmt.Errorf("offered seat 1: %+v, addresses %d", s, len(addrs[1]))
			return
		}
		gid, err := r.GameID()
		if err != nil {
			phoneDone <- err
			return
		}
		if err := tbl.SignForwarded(phone.PublicKey(), ed25519.Sign(otherKey, ledger.RosterSigningBytes(gid))); err == nil {
			phoneDone <- errors.New("a roster signature by another key was taken")
			return
		}
		phoneDone <- tbl.SignForwarded(phone.PublicKey(), ed25519.Sign(phone.SigningKey(), ledger.RosterSigningBytes(gid)))
	}()
	creator := peer.AddrInfo{ID: ps[0].node.ID(), Addrs: ps[0].node.Host().Addrs()}
	joined := make(chan error, 1)
	go func() {
		_, err := ps[1].node.Join(ctx, JoinConfig{Creator: creator, Name: "p2"})
		joined <- err
	}()
	seating, err := tbl.Seat(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-phoneDone; err != nil {
		t.Fatal(err)
	}
	if err := <-joined; err != nil {
		t.Fatal(err)
	}
	// The natives' rooms, in roster order: the creator (0) and the joiner (2).
	res, pr := playForwarded(t, ps, seating.Table, phone, 1, 0, limit, 0, nil, nil)
	if pr.err != nil || pr.out == nil || pr.out.Verdict != nil {
		t.Fatalf("forwarded seat: %v %+v (faults %v)", pr.err, pr.out, pr.faults)
	}
	sameLogs(t, append(res, result{out: pr.out, log: pr.log}), limit)
}

// TestForwardedJoinThrough: a peer that holds no seat (a 'masque
// phones' process) seats a forwarded player at another peer's table with
// a forwarded join request, and carries its frames: the player is
// admitted for the next free seat with its own key, the roster gives it
// the forwarder's path (its bare /p2p address first, then its addresses
// ending in /p2p/<forwarder>), and the phone plays to the end through the forwarder. (Without the
// forwarded join request, only a table's creator could seat a forwarded
// player, SeatForwarded, always as its own path.)
func TestForwardedJoinThrough(t *testing.T) {
	const limit = 20
	_, ps := mockPeers(t, 3)
	fwd := ps[2].node
	phone, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Seats: 3, Name: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	creator := peer.AddrInfo{ID: ps[0].node.ID(), Addrs: ps[0].node.Host().Addrs()}
	// Seat 2 is not the next free one: refused, naming seat 1 and the table.
	req := ForwardedJoin{Seat: 2, Name: "phone", SignKey: phone.PublicKey(), CardKey: []byte("card")}
	var no *JoinRefusedError
	if _, err := fwd.JoinForwarded(ctx, creator, [16]byte{}, req); !errors.As(err, &no) || no.Seat != 1 || no.TableID != tbl.ID() {
		t.Fatalf("a forwarded join for seat 2: %v, want refused naming seat 1 of table %x", err, tbl.ID())
	}
	req.Seat = 1
	rj, err := fwd.JoinForwarded(ctx, creator, tbl.ID(), req)
	if err != nil || rj.Seat() != 1 {
		t.Fatalf("forwarded join: %v", err)
	}
	joined := make(chan error, 1)
	go func() {
		_, err := ps[1].node.Join(ctx, JoinConfig{Creator: creator, Name: "p2"})
		joined <- err
	}()
	seated := make(chan *Seating, 1)
	go func() {
		s, err := tbl.Seat(ctx)
		if err != nil {
			t.Error(err)
		}
		seated <- s
	}()
	r, addrs, err := rj.Offer(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s := r.Seats[1]; s.Name != "phone" || string(s.SignKey) != string(phone.PublicKey()) || string(s.PeerID) != string(phone.PeerID()) {
		t.Fatalf("offered seat 1: %+v", s)
	}
	if len(addrs[1]) < 2 || string(addrs[1][0]) != string(ForwardAddr(fwd.ID()).Bytes()) {
		t.Fatalf("seat 1's addresses: %d, want the forwarder's bare /p2p address first and its dialable ones", len(addrs[1]))
	}
	for _, a := range parseAddrs(addrs[1][1:]) {
		if info, err := peer.AddrInfoFromP2pAddr(a); err != nil || info.ID != fwd.ID() {
			t.Errorf("seat 1's address %s is not the forwarder's", a)
		}
	}
	gid, _ := r.GameID()
	s, err := rj.Sign(ctx, ed25519.Sign(phone.SigningKey(), ledger.RosterSigningBytes(gid)))
	if err != nil {
		t.Fatal(err)
	}
	if err := <-joined; err != nil {
		t.Fatal(err)
	}
	if cs := <-seated; cs == nil || cs.GameID != s.GameID {
		t.Fatal("the creator's table is not the one the forwarder was given")
	}
	res, pr := playThrough(t, ps[:2], fwd, s.Table, phone, 1, limit, 0, nil, nil)
	if pr.err != nil || pr.out == nil || pr.out.Verdict != nil {
		t.Fatalf("forwarded seat: %v %+v (faults %v)", pr.err, pr.out, pr.faults)
	}
	sameLogs(t, append(res, result{out: pr.out, log: pr.log}), limit)
}

// TestForwardOutsider: a peer that is neither seated at a table nor the
// path of one of its seats gets its forward packets dropped before any
// seal is checked (a node does not verify signatures for anyone who
// dials it), with an error naming it.
func TestForwardOutsider(t *testing.T) {
	_, ps := mockPeers(t, 3)
	phone, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	tb := forwardedTable(t, ps[:2], phone, 1)
	st, err := store.Create(ps[0].dir, tb, []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	room, err := ps[0].node.OpenRoom(RoomConfig{Store: st, Replica: &counter{seats: 3, limit: 3}, Author: countAuthor})
	if err != nil {
		t.Fatal(err)
	}
	defer room.Close()
	sealed, err := roomcore.Seal(ps[2].id.SigningKey(), room.GameID(), 2, 0, roomcore.EncodeEcho(0, ledger.Hash{}, ledger.Hash{}))
	if err != nil {
		t.Fatal(err)
	}
	outsider := ps[2].node
	outsider.Host().Peerstore().AddAddrs(ps[0].node.ID(), ps[0].node.Host().Addrs(), time.Minute)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := outsider.Host().NewStream(ctx, ps[0].node.ID(), ProtocolForward)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := WriteFrame(s, append([]byte{0}, sealed...)); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-ps[0].errs:
		if !strings.Contains(err.Error(), "not seated there") || !strings.Contains(err.Error(), ps[2].node.ID().String()) {
			t.Fatalf("outsider's packet: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("the outsider's packet was not refused")
	}
}

// TestSealedSyncEndNeedsItsNonce: a room takes a forwarded seat's sync
// end (its log length as of the request) only with the nonce of the
// request in flight to it: an old one replayed by the forwarder, or one
// sealed for another request, is not taken.
func TestSealedSyncEndNeedsItsNonce(t *testing.T) {
	_, ps := mockPeers(t, 2)
	phone, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	tb := forwardedTable(t, ps, phone, 1)
	st, err := store.Create(ps[0].dir, tb, []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	room, err := ps[0].node.OpenRoom(RoomConfig{Store: st, Replica: &counter{seats: 3, limit: 3}, Author: countAuthor})
	if err != nil {
		t.Fatal(err)
	}
	defer room.Close()
	if !room.forwardSync(2, 0) {
		t.Fatal("seat 2 is not forwarded")
	}
	nonce := room.forwarding().syncs[2].nonce
	end := func(n uint64) []byte {
		b, err := roomcore.Seal(phone.SigningKey(), room.GameID(), 2, n, roomcore.EncodeSyncEnd(0))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	synced := func() bool {
		for {
			select {
			case m := <-room.inbox:
				if m.msg != nil && m.msg.Type == msgSynced {
					return true
				}
			default:
				return false
			}
		}
	}
	for _, n := range []uint64{0, nonce ^ 2} {
		if err := room.onSealed(end(n)); err != nil {
			t.Fatal(err)
		}
		if synced() {
			t.Fatalf("a sync end with nonce %x (the request's is %x) was taken", n, nonce)
		}
	}
	if err := room.onSealed(end(nonce)); err != nil || !synced() {
		t.Fatalf("the request's own sync end was not taken: %v", err)
	}
	if err := room.onSealed(end(nonce)); err != nil || synced() {
		t.Fatalf("the same sync end taken twice: %v", err)
	}
}

// TestForwardedConnected: the countdown's "connected" for a forwarded
// seat says whether its path is open: on its forwarder, whether the seat
// is being forwarded now (its phone's page is connected); elsewhere,
// whether this node reaches the forwarder.
func TestForwardedConnected(t *testing.T) {
	_, ps := mockPeers(t, 2)
	phone, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	tb := forwardedTable(t, ps, phone, 1)
	st, err := store.Create(ps[1].dir, tb, []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	room, err := ps[1].node.OpenRoom(RoomConfig{Store: st, Replica: &counter{seats: 3, limit: 3}, Author: countAuthor})
	if err != nil {
		t.Fatal(err)
	}
	defer room.Close()
	if room.connected(2) {
		t.Fatal("the phone counts as connected before its page connected")
	}
	fw, err := ps[1].node.Forward(tb, 2, func([]byte) {})
	if err != nil {
		t.Fatal(err)
	}
	if !room.connected(2) {
		t.Fatal("the phone does not count as connected while forwarded")
	}
	fw.Close()
	if room.connected(2) {
		t.Fatal("the phone counts as connected after its page left")
	}
}

// TestForwardedAddrs: a forwarded join request's addresses become the
// seat's path: the forwarder's bare /p2p address first, then only those
// of its addresses that end in its own /p2p; an address of another peer
// or one with no peer id is dropped (a forwarder cannot route a seat's
// frames to a third peer by naming it).
func TestForwardedAddrs(t *testing.T) {
	_, ps := mockPeers(t, 2)
	via, other := ps[0].node.ID(), ps[1].node.ID()
	tcp := ma.StringCast("/ip4/10.0.0.1/tcp/4001")
	own := tcp.Encapsulate(ForwardAddr(via))
	got := parseAddrs(forwardedAddrs(via, [][]byte{tcp.Bytes(), tcp.Encapsulate(ForwardAddr(other)).Bytes(), own.Bytes(), ForwardAddr(other).Bytes()}))
	if len(got) != 2 || !got[0].Equal(ForwardAddr(via)) || !got[1].Equal(own) {
		t.Fatalf("forwarded addresses: %v, want [%s %s]", got, ForwardAddr(via), own)
	}
	if f, ok := forwarderOf(peer.ID("x"), got); !ok || f != via {
		t.Fatalf("the seat's forwarder: %s %v, want %s", f, ok, via)
	}
	rt := routesOf([]peer.ID{other}, [][]ma.Multiaddr{got})
	if a := rt.viaAddrs(via); len(a) != 1 || !a[0].Equal(tcp) {
		t.Fatalf("the forwarder's dialable addresses: %v, want [%s]", a, tcp)
	}
}

// TestForwardedJoinOtherPath: a join request repeating a seated player's
// request (name, keys: public to the table once offered) from another
// path than the one the seat has is refused: a forwarder cannot take a
// native joiner's seat (its stream, its roster agreement), nor a seat
// another forwarder serves, nor one the creator serves itself; nor ask
// for a seat for its own key as forwarded. (Before this check, the
// repeated request got the seat "back" on the forwarder's stream.)
func TestForwardedJoinOtherPath(t *testing.T) {
	_, ps := mockPeers(t, 4)
	phone, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Seats: 5, Name: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	creator := peer.AddrInfo{ID: ps[0].node.ID(), Addrs: ps[0].node.Host().Addrs()}
	go ps[1].node.Join(ctx, JoinConfig{Creator: creator, Name: "p1", CardKey: []byte("c1")})
	for taken, _ := tbl.Taken(); taken < 2; taken, _ = tbl.Taken() {
		if ctx.Err() != nil {
			t.Fatal("the native joiner was not seated")
		}
		time.Sleep(10 * time.Millisecond)
	}
	mine := ForwardedJoin{Name: "phone", SignKey: phone.PublicKey(), CardKey: []byte("card")}
	rj, err := ps[2].node.JoinForwarded(ctx, creator, tbl.ID(), mine)
	if err != nil || rj.Seat() != 2 {
		t.Fatalf("forwarded join: %v", err)
	}
	defer rj.Close()
	local, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	theirs := ForwardedJoin{Name: "local", SignKey: local.PublicKey(), CardKey: []byte("c3")}
	if seat, err := tbl.SeatForwarded(theirs); err != nil || seat != 3 {
		t.Fatalf("the creator's own forwarded seat: %d %v", seat, err)
	}
	for _, c := range []struct {
		what string
		via  *Node
		req  ForwardedJoin
	}{
		{"the native joiner's request, forwarded", ps[2].node, ForwardedJoin{Name: "p1", SignKey: ps[1].id.PublicKey(), CardKey: []byte("c1")}},
		{"the phone's request, through another forwarder", ps[3].node, mine},
		{"the creator's phone's request, through a forwarder", ps[3].node, theirs},
		{"a forwarded join for the forwarder's own key", ps[3].node, ForwardedJoin{Name: "p3", SignKey: ps[3].id.PublicKey(), CardKey: []byte("c")}},
	} {
		var no *JoinRefusedError
		if _, err := c.via.JoinForwarded(ctx, creator, tbl.ID(), c.req); !errors.As(err, &no) {
			t.Errorf("%s: %v, want refused", c.what, err)
		}
	}
	var no *JoinRefusedError
	if _, err := tbl.SeatForwarded(mine); !errors.As(err, &no) || no.Code != RefusedAlreadySeated {
		t.Errorf("the creator seating the remote forwarder's phone as its own: %v, want refused", err)
	}
	// The paths kept their seats: the phone's forwarder asks again (its
	// page reconnected) and gets seat 2 back.
	rj.Close()
	if again, err := ps[2].node.JoinForwarded(ctx, creator, tbl.ID(), mine); err != nil || again.Seat() != 2 {
		t.Fatalf("the phone's own forwarder again: %v", err)
	} else {
		again.Close()
	}
}
