package phone

import (
	"context"
	"crypto/ed25519"
	"encoding/binary"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/cmd/masque/internal/phoneseat"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/roomcore"
	"github.com/masque-games/masque/p2p/store"
)

// stuckConn is a phone that reads nothing: every write of a packet
// waits; started is closed at the start message (its path is open).
type stuckConn struct {
	started chan struct{}
	once    sync.Once
}

func (*stuckConn) Read(ctx context.Context) ([]byte, bool, error) {
	<-ctx.Done()
	return nil, false, ctx.Err()
}

func (c *stuckConn) Write(ctx context.Context, b []byte, bin bool) error {
	if !bin {
		c.once.Do(func() { close(c.started) })
		return nil
	}
	<-ctx.Done()
	return ctx.Err()
}

func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// forwardSetup is a started three-seat table: alice (host, this
// hub's node), bob (other) and mila, a phone whose path is host.
type forwardSetup struct {
	host, other *netsession.Peer
	hostInfo    peer.AddrInfo
	phonePub    ed25519.PublicKey
	gid         ledger.Hash
	seating     *p2p.Seating
}

func newForwardSetup(t *testing.T) forwardSetup {
	host, other := testPeer(t), testPeer(t)
	_, phoneKey, _ := ed25519.GenerateKey(nil)
	phonePub := phoneKey.Public().(ed25519.PublicKey)
	seat := func(name string, pub ed25519.PublicKey) ledger.SeatInfo {
		return ledger.SeatInfo{Name: name, PeerID: phoneseat.PeerID(pub), SignKey: pub}
	}
	r := &ledger.Roster{TableID: [16]byte{3}, Game: "mascarade", Seats: []ledger.SeatInfo{
		seat("alice", host.ID.PublicKey()), seat("bob", other.ID.PublicKey()), seat("mila", phonePub)}}
	gid, err := r.GameID()
	if err != nil {
		t.Fatal(err)
	}
	addrs := func(p peer.AddrInfo) [][]byte {
		var out [][]byte
		for _, a := range p.Addrs {
			out = append(out, a.Bytes())
		}
		return out
	}
	hostInfo := peer.AddrInfo{ID: host.ID.PeerID(), Addrs: host.Node.Host().Addrs()}
	tb := store.Table{Roster: r, Addrs: [][][]byte{addrs(hostInfo),
		addrs(peer.AddrInfo{Addrs: other.Node.Host().Addrs()}), {p2p.ForwardAddr(host.ID.PeerID()).Bytes()}}}
	return forwardSetup{host: host, other: other, hostInfo: hostInfo, phonePub: phonePub, gid: gid,
		seating: &p2p.Seating{Roster: r, GameID: gid, Table: tb}}
}

// TestForwardQueueBound: a seat of the table (or a seat's forwarder)
// that sends a phone's forwarder a flood of large packets, which it
// hands on unchecked (the phone checks the seals), while the phone reads
// slowly, makes the host hold at most MaxQueued bytes for that phone
// (fails on the first version, which queued 4096 packets of up to a
// megabyte each: 4 GiB).
func TestForwardQueueBound(t *testing.T) {
	fs := newForwardSetup(t)
	host, other, hostInfo, phonePub, gid := fs.host, fs.other, fs.hostInfo, fs.phonePub, fs.gid
	h := NewHub(Config{Node: host.Node})
	h.SetSeating(fs.seating)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	served := make(chan error, 1)
	conn := &stuckConn{started: make(chan struct{})}
	go func() { served <- h.forward(ctx, conn, hello{name: "mila", key: phonePub}, 2) }()
	select {
	case <-conn.started:
	case err := <-served:
		t.Fatalf("forward: %v", err)
	}

	before := heap()
	// Bob's node floods the phone's path: 96 packets of a megabyte.
	if err := other.Node.Host().Connect(ctx, hostInfo); err != nil {
		t.Fatal(err)
	}
	st, err := other.Node.Host().NewStream(ctx, host.ID.PeerID(), p2p.ProtocolForward)
	if err != nil {
		t.Fatal(err)
	}
	const n, size = 96, 1 << 20
	packet := make([]byte, 4+1+1+32+size)
	binary.BigEndian.PutUint32(packet, uint32(len(packet)-4))
	packet[4], packet[5] = 2, roomcore.MsgSealed
	copy(packet[6:], gid[:])
	for range n {
		if _, err := st.Write(packet); err != nil {
			t.Fatal(err)
		}
	}
	// The host read every packet once it closes the stream after our end.
	st.CloseWrite()
	st.Read(make([]byte, 1))
	held := int64(heap()) - int64(before)
	t.Logf("held after %d MiB sent: %d MiB", n*size>>20, held>>20)
	if held > MaxQueued+16<<20 {
		t.Fatalf("the host holds %d MiB for a phone that reads nothing, want at most %d MiB", held>>20, MaxQueued>>20)
	}
	cancel()
	<-served
}

// oneBadPacket is a phone that sends one packet that is not a sealed
// frame of its table, then waits.
type oneBadPacket struct{ sent bool }

func (c *oneBadPacket) Read(ctx context.Context) ([]byte, bool, error) {
	if !c.sent {
		c.sent = true
		return []byte{0, 1, 2}, true, nil
	}
	<-ctx.Done()
	return nil, false, ctx.Err()
}

func (*oneBadPacket) Write(ctx context.Context, b []byte, bin bool) error { return nil }

// TestForwardLogsRosterName: what a phone's path logs about it names the
// seat by its roster name, not by the name its hello claims (a reloaded
// phone's hello name is checked by nothing: a phone saying hello as
// "alice" had its bad packets logged as alice's on the first version).
func TestForwardLogsRosterName(t *testing.T) {
	fs := newForwardSetup(t)
	logged := make(chan string, 4)
	h := NewHub(Config{Node: fs.host.Node, Log: func(format string, args ...any) { logged <- fmt.Sprintf(format, args...) }})
	h.SetSeating(fs.seating)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	go h.forward(ctx, &oneBadPacket{}, hello{name: "alice", key: fs.phonePub}, 2)
	select {
	case l := <-logged:
		if !strings.Contains(l, "mila") || strings.Contains(l, "alice") {
			t.Fatalf("logged %q, want the phone named mila (its roster name)", l)
		}
	case <-ctx.Done():
		t.Fatal("nothing logged of the phone's bad packet")
	}
}
