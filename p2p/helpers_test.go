package p2p

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	mocknet "github.com/libp2p/go-libp2p/p2p/net/mock"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/store"
)

// counter is a fake game: seats take turns (or follow order) and each body
// must start with the next counter value as 8 big-endian bytes; anything
// may follow, so an author can sign two different valid entries.
type counter struct {
	seats   int
	limit   uint64
	order   func(pos uint64) uint8
	count   uint64
	state   ledger.Hash
	onApply func(pos uint64) // called after a successful Apply
}

func (c *counter) Next() (uint64, uint8, bool) {
	if c.count >= c.limit {
		return 0, 0, false
	}
	if c.order != nil {
		return c.count, c.order(c.count), true
	}
	return c.count, uint8(c.count % uint64(c.seats)), true
}

func (c *counter) Apply(e *ledger.Entry) error {
	if len(e.Body) < 8 {
		return fmt.Errorf("counter: body of %d bytes", len(e.Body))
	}
	if v := binary.BigEndian.Uint64(e.Body); v != c.count+1 {
		return fmt.Errorf("counter: got %d, want %d", v, c.count+1)
	}
	h := sha256.New()
	h.Write(c.state[:])
	h.Write(e.Body)
	copy(c.state[:], h.Sum(nil))
	c.count++
	if c.onApply != nil {
		c.onApply(e.Pos)
	}
	return nil
}

func (c *counter) StateHash() ledger.Hash { return c.state }

func body(pos uint64, tail ...byte) []byte {
	return append(binary.BigEndian.AppendUint64(nil, pos+1), tail...)
}

func countAuthor(ctx context.Context, pos uint64) ([]byte, error) { return body(pos), nil }

type tpeer struct {
	id   *identity.Identity
	node *Node
	dir  string
	errs chan error
}

// mockPeers makes n nodes on a fully linked (not connected) mocknet.
func mockPeers(t *testing.T, n int) (mocknet.Mocknet, []*tpeer) {
	t.Helper()
	mn := mocknet.New()
	t.Cleanup(func() { mn.Close() })
	var ps []*tpeer
	for i := range n {
		id, err := identity.Generate()
		if err != nil {
			t.Fatal(err)
		}
		h, err := mn.AddPeer(id.PrivKey(), ma.StringCast(fmt.Sprintf("/ip4/10.0.0.%d/tcp/4001", i+1)))
		if err != nil {
			t.Fatal(err)
		}
		p := &tpeer{id: id, dir: filepath.Join(t.TempDir(), fmt.Sprint(i)), errs: make(chan error, 1024)}
		p.node, err = NewNodeWithHost(h, Config{Identity: id, OnPeerError: func(_ peer.ID, err error) {
			select {
			case p.errs <- err:
			default:
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	if err := mn.LinkAll(); err != nil {
		t.Fatal(err)
	}
	return mn, ps
}

// signedTable builds and signs a roster of the given peers directly
// (the join protocol has its own test).
func signedTable(t *testing.T, ps []*tpeer) store.Table {
	t.Helper()
	r := &ledger.Roster{TableID: [16]byte{1}, Game: "counter"}
	var addrs [][][]byte
	for i, p := range ps {
		r.Seats = append(r.Seats, ledger.SeatInfo{Name: fmt.Sprint("p", i), PeerID: []byte(p.id.PeerID()), SignKey: p.id.PublicKey()})
		addrs = append(addrs, addrBytes(p.node.Host().Addrs()))
	}
	gid, err := r.GameID()
	if err != nil {
		t.Fatal(err)
	}
	tb := store.Table{Roster: r, Addrs: addrs}
	for _, p := range ps {
		var sig [64]byte
		copy(sig[:], ed25519.Sign(p.id.SigningKey(), ledger.RosterSigningBytes(gid)))
		tb.Sigs = append(tb.Sigs, sig)
		// As the join protocol does once a seat signed: a log stream
		// for the game waits for its room (Node.awaitLogRoom).
		p.node.mu.Lock()
		p.node.expectLocked(gid)
		p.node.mu.Unlock()
	}
	return tb
}

type result struct {
	out *Outcome
	err error
	log []*ledger.Entry
}

// play opens a room for p (creating its store on first use) and runs it.
func play(ctx context.Context, t *testing.T, p *tpeer, tb store.Table, rep Replica, cfg RoomConfig) result {
	st, err := store.Open(p.dir)
	if err != nil {
		st, err = store.Create(p.dir, tb, []byte("secret"))
	}
	if err != nil {
		return result{err: err}
	}
	defer st.Close()
	cfg.Store, cfg.Replica = st, rep
	if cfg.Author == nil {
		cfg.Author = countAuthor
	}
	if cfg.Tick == 0 {
		cfg.Tick = 50 * time.Millisecond
	}
	room, err := p.node.OpenRoom(cfg)
	if err != nil {
		return result{err: err}
	}
	out, err := room.Run(ctx)
	// Keep answering sync requests briefly, as a CLI would before exiting.
	time.Sleep(100 * time.Millisecond)
	log, err := roomLog(room, err)
	room.Close()
	return result{out, err, log}
}

// playAll runs a room on each peer concurrently and returns the results.
func playAll(t *testing.T, ps []*tpeer, tb store.Table, limit uint64, cfg func(i int) RoomConfig) []result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res := make([]result, len(ps))
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Go(func() {
			var c RoomConfig
			if cfg != nil {
				c = cfg(i)
			}
			res[i] = play(ctx, t, p, tb, &counter{seats: len(ps), limit: limit}, c)
		})
	}
	wg.Wait()
	return res
}

func marshalLog(t *testing.T, log []*ledger.Entry) [][]byte {
	t.Helper()
	var out [][]byte
	for _, e := range log {
		b, err := e.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// sameLogs checks that every result finished normally with the same log of
// want entries.
func sameLogs(t *testing.T, res []result, want int) {
	t.Helper()
	var first [][]byte
	for i, r := range res {
		if r.err != nil {
			t.Fatalf("peer %d: %v", i, r.err)
		}
		if r.out.Verdict != nil {
			t.Fatalf("peer %d: verdict %v", i, r.out.Verdict)
		}
		if len(r.log) != want {
			t.Fatalf("peer %d: %d entries, want %d", i, len(r.log), want)
		}
		got := marshalLog(t, r.log)
		if i == 0 {
			first = got
		} else if !slices.EqualFunc(first, got, func(a, b []byte) bool { return string(a) == string(b) }) {
			t.Fatalf("peer %d: log differs from peer 0", i)
		}
		if r.out.StateHash != res[0].out.StateHash {
			t.Fatalf("peer %d: state hash differs", i)
		}
	}
}

// roomLog is room.Log() with its error added to err (a log that cannot be
// read back from the state directory fails the run).
func roomLog(room *Room, err error) ([]*ledger.Entry, error) {
	log, lerr := room.Log()
	if lerr != nil {
		return nil, errors.Join(err, lerr)
	}
	return log, err
}
