package roomcore

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
)

// counter is a fake game: seats take turns (or follow order) and each body
// must start with the next counter value as 8 big-endian bytes; anything
// may follow, so an author can sign two different valid entries.
type counter struct {
	seats int
	limit uint64
	order func(pos uint64) uint8
	count uint64
	state ledger.Hash
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
	return nil
}

func (c *counter) StateHash() ledger.Hash { return c.state }

func body(pos uint64, tail ...byte) []byte {
	return append(binary.BigEndian.AppendUint64(nil, pos+1), tail...)
}

// seatKeys are n deterministic signing keys (seat i's from seed i).
func seatKeys(n int) []ed25519.PrivateKey {
	var out []ed25519.PrivateKey
	for i := range n {
		seed := make([]byte, ed25519.SeedSize)
		seed[0], seed[1] = byte(i), 0x5e
		out = append(out, ed25519.NewKeyFromSeed(seed))
	}
	return out
}

// testRoster is a counter game's roster for keys.
func testRoster(keys []ed25519.PrivateKey) *ledger.Roster {
	r := &ledger.Roster{TableID: [16]byte{1}, Game: "counter"}
	for i, k := range keys {
		r.Seats = append(r.Seats, ledger.SeatInfo{Name: fmt.Sprint("p", i), PeerID: []byte{byte(i)},
			SignKey: k.Public().(ed25519.PublicKey)})
	}
	return r
}

// honestLog is the log of a counter game of limit entries authored in
// order, as honest seats sign it (Ed25519 is deterministic).
func honestLog(keys []ed25519.PrivateKey, game ledger.Hash, limit uint64, order func(uint64) uint8) []*ledger.Entry {
	var out []*ledger.Entry
	prev := game
	for p := range limit {
		e := &ledger.Entry{Pos: p, Seat: order(p), Prev: prev, Body: body(p)}
		e.Sign(game, keys[e.Seat])
		out = append(out, e)
		prev = e.Hash()
	}
	return out
}

// bench is the core of seat self of an n-seat counter game (seats take
// turns) of limit entries, made with its first stored entries, with
// nothing running: the tests call the core's decisions directly, as its
// steps would.
type bench struct {
	keys   []ed25519.PrivateKey
	roster *ledger.Roster
	game   ledger.Hash
	log    []*ledger.Entry // the whole game's entries, as honest seats sign them
	stored uint64
	limit  uint64
	self   int
	core   *Core
}

func newBench(t testing.TB, n, self int, stored, limit uint64) *bench {
	t.Helper()
	b := &bench{keys: seatKeys(n), stored: stored, limit: limit, self: self}
	b.roster = testRoster(b.keys)
	b.game, _ = b.roster.GameID()
	b.log = honestLog(b.keys, b.game, limit, func(p uint64) uint8 { return uint8(p % uint64(n)) })
	b.core = b.open(t, Config{})
	return b
}

// open makes a new core of the bench's seat on its stored entries, with
// cfg's timing.
func (b *bench) open(t testing.TB, cfg Config) *Core {
	t.Helper()
	cfg.Roster, cfg.Self, cfg.SignKey = b.roster, uint8(b.self), b.keys[b.self]
	cfg.Replica = &counter{seats: len(b.keys), limit: b.limit}
	c, err := New(cfg, b.log[:b.stored])
	if err != nil {
		t.Fatal(err)
	}
	c.now = time.Now()
	return c
}

// verdict is v signed by its declarer.
func (b *bench) verdict(t *testing.T, v Verdict) *Verdict {
	t.Helper()
	v.Game = b.game
	if v.Reason == "" {
		v.Reason = "forged"
	}
	if err := v.Sign(b.keys[v.Declarer]); err != nil {
		t.Fatal(err)
	}
	return &v
}
