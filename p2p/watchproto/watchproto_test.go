package watchproto

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/roomcore"
)

// TestGoldenBytes: both messages encode to the bytes they had when the
// watch protocol lived in package p2p (recorded from that encoder before
// the move), and decode back to them: the wire did not change.
func TestGoldenBytes(t *testing.T) {
	var sig [64]byte
	for i := range sig {
		sig[i] = byte(i)
	}
	cases := []struct {
		name  string
		frame []byte
		want  string
	}{
		{"watch request", EncodeRequest([16]byte{6, 5}, 0x0102030405060708), "08060500000000000000000000000000000102030405060708"},
		{"watch table", EncodeTable([]byte("roster"), [][64]byte{sig, {2}}),
			"0900000006726f7374657202000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f02" +
				strings.Repeat("00", 63)},
	}
	for _, c := range cases {
		if got := hex.EncodeToString(c.frame); got != c.want {
			t.Errorf("%s: encoded as %s, want %s", c.name, got, c.want)
		}
		m, err := Decode(c.frame)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if re := reencode(t, m); !bytes.Equal(re, c.frame) {
			t.Errorf("%s: re-encoded as %x", c.name, re)
		}
		if _, err := Decode(append(bytes.Clone(c.frame), 0)); err == nil {
			t.Errorf("%s: trailing byte accepted", c.name)
		}
		if _, err := Decode(c.frame[:len(c.frame)-1]); err == nil {
			t.Errorf("%s: truncation accepted", c.name)
		}
	}
	if n := len(EncodeRequest([16]byte{}, 0)); n > MaxRequestFrame {
		t.Errorf("a watch request is %d bytes, over MaxRequestFrame", n)
	}
}

func reencode(t testing.TB, m *Msg) []byte {
	t.Helper()
	switch m.Type {
	case MsgRequest:
		return EncodeRequest(m.TableID, m.From)
	case MsgTable:
		return EncodeTable(m.Roster, m.Sigs)
	}
	t.Fatalf("decoded an unknown type %d", m.Type)
	return nil
}

// TestDecodeMalformed: a malformed watch frame is refused with an error
// naming the message and the field.
func TestDecodeMalformed(t *testing.T) {
	b := func(v ...byte) []byte { return v }
	raw := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	cases := []struct {
		name  string
		frame []byte
		want  string
	}{
		{"empty frame", nil, "empty frame"},
		{"a join type", b(10), "unknown message type 10"},
		{"a log type", b(2), "unknown message type 2"},
		{"request: short table id", raw(b(MsgRequest), make([]byte, 15)), "message type 8 (watch request): table id: truncated"},
		{"request: short position", raw(b(MsgRequest), make([]byte, 16+7)), "message type 8 (watch request): first position: truncated"},
		{"request: trailing byte", raw(b(MsgRequest), make([]byte, 16+8+1)), "message type 8 (watch request): 1 trailing bytes"},
		{"table: no roster length", b(MsgTable, 0, 0), "message type 9 (watch table): roster length: truncated"},
		{"table: roster over the limit", b(MsgTable, 0, 0x10, 0, 1), "watch table): roster: 1048577 bytes, limit 1048576"},
		{"table: roster short", raw(b(MsgTable, 0, 0, 0, 9), []byte("r")), "watch table): roster: truncated"},
		{"table: no signature count", raw(b(MsgTable, 0, 0, 0, 1), []byte("r")), "watch table): signature count: truncated"},
		{"table: 19 signatures", raw(b(MsgTable, 0, 0, 0, 1), []byte("r"), b(ledger.MaxSeats+1)), "watch table): signature count: 19, limit 18"},
		{"table: a short signature", raw(b(MsgTable, 0, 0, 0, 1), []byte("r"), b(1), make([]byte, 63)), "watch table): signature 0: truncated"},
		{"table: trailing byte", raw(b(MsgTable, 0, 0, 0, 1), []byte("r"), b(1), make([]byte, 65)), "watch table): 1 trailing bytes"},
	}
	for _, c := range cases {
		_, err := Decode(c.frame)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

// FuzzDecode: no input may panic the decoder, and whatever it accepts
// re-encodes to the same bytes.
func FuzzDecode(f *testing.F) {
	f.Add(EncodeRequest([16]byte{1}, 7))
	f.Add(EncodeTable([]byte("roster"), [][64]byte{{1}, {2}}))
	f.Add([]byte{MsgTable, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(b)
		if err != nil {
			return
		}
		if len(m.Sigs) > ledger.MaxSeats || len(m.Roster) > MaxTableFrame {
			t.Fatalf("decoded %d signatures, a roster of %d bytes", len(m.Sigs), len(m.Roster))
		}
		if re := reencode(t, m); !bytes.Equal(re, b) {
			t.Fatalf("type %d: re-encoded as %x, was %x", m.Type, re, b)
		}
	})
}

// pid is a test peer id: "peer-" and the hex of its signing key.
type pid string

func key(i byte) ed25519.PrivateKey {
	seed := make([]byte, ed25519.SeedSize)
	seed[0] = i + 1
	return ed25519.NewKeyFromSeed(seed)
}

func peerOf(k ed25519.PublicKey) pid { return pid("peer-" + hex.EncodeToString(k)) }

func seatPeer(s ledger.SeatInfo) (pid, error) {
	if pid(s.PeerID) != peerOf(s.SignKey) {
		return "", fmt.Errorf("peer id %s is not the identity of the signing key", s.PeerID)
	}
	return pid(s.PeerID), nil
}

// table is a signed 3-seat table: its roster, game id and a watch table
// message.
func table(t *testing.T) (*ledger.Roster, ledger.Hash, *Msg) {
	t.Helper()
	r := &ledger.Roster{TableID: [16]byte{4}, Game: "counter"}
	for i := range byte(3) {
		k := key(i).Public().(ed25519.PublicKey)
		r.Seats = append(r.Seats, ledger.SeatInfo{Name: fmt.Sprint("p", i), PeerID: []byte(peerOf(k)), SignKey: k})
	}
	enc, err := r.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	game, _ := r.GameID()
	m := &Msg{Type: MsgTable, Roster: enc}
	for i := range byte(3) {
		m.Sigs = append(m.Sigs, [64]byte(ed25519.Sign(key(i), ledger.RosterSigningBytes(game))))
	}
	return r, game, m
}

// TestCheckTable: a spectator accepts the table of the seat it watches
// signed by every seat, and refuses, naming what is wrong, every other.
func TestCheckTable(t *testing.T) {
	r, game, m := table(t)
	seat1 := peerOf(r.Seats[1].SignKey)
	got, g, err := CheckTable(m, r.TableID, seat1, seatPeer)
	if err != nil || g != game || len(got.Seats) != 3 {
		t.Fatalf("good table: %v", err)
	}
	if _, _, err := CheckTable(m, [16]byte{}, seat1, seatPeer); err != nil {
		t.Fatalf("any table: %v", err)
	}
	swapped := *m
	swapped.Sigs = [][64]byte{m.Sigs[0], m.Sigs[2], m.Sigs[1]}
	cases := []struct {
		name  string
		m     *Msg
		want  [16]byte
		seat  pid
		error string
	}{
		{"not a roster", &Msg{Roster: []byte("x")}, [16]byte{}, seat1, "roster: "},
		{"another table", m, [16]byte{5}, seat1, "roster of table 04000000000000000000000000000000, want 05000000000000000000000000000000"},
		{"a signature short", &Msg{Roster: m.Roster, Sigs: m.Sigs[:2]}, r.TableID, seat1, "2 roster signatures for 3 seats"},
		{"signatures swapped", &swapped, r.TableID, seat1, "roster seat 1 (p1): bad roster signature"},
		{"the seat watched holds none", m, r.TableID, peerOf(key(7).Public().(ed25519.PublicKey)), "it holds no seat in the roster it sent"},
	}
	for _, c := range cases {
		if _, _, err := CheckTable(c.m, c.want, c.seat, seatPeer); err == nil || !strings.Contains(err.Error(), c.error) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.error)
		}
	}
	if _, _, err := CheckTable(m, r.TableID, seat1, func(ledger.SeatInfo) (pid, error) { return "", errors.New("bad id") }); err == nil ||
		!strings.Contains(err.Error(), "roster seat 0: bad id") {
		t.Errorf("a seat's peer id refused: %v", err)
	}
}

// entries is a log of n entries of r's seats in turn, signed.
func entries(r *ledger.Roster, game ledger.Hash, n int) []*ledger.Entry {
	var out []*ledger.Entry
	prev := game
	for i := range n {
		seat := uint8(i % len(r.Seats))
		e := &ledger.Entry{Pos: uint64(i), Seat: seat, Prev: prev, Body: []byte{byte(i)}}
		e.Sign(game, key(seat))
		out = append(out, e)
		prev = e.Hash()
	}
	return out
}

// TestFollower: a spectator takes a seat's log entry by entry, from the
// start or from a position after a broken stream, and refuses an entry
// out of place, of no seat, off the chain or signed by another, a
// verdict it cannot check, and an end that is not its log's.
func TestFollower(t *testing.T) {
	r, game, _ := table(t)
	log := entries(r, game, 6)
	f := NewFollower(r, game, 0, ledger.Hash{9})
	for _, e := range log {
		if err := f.Check(e); err != nil {
			t.Fatalf("entry %d: %v", e.Pos, err)
		}
		f.Took(e)
	}
	if f.Next() != 6 || f.End(6) != nil {
		t.Fatalf("after the log: next %d, end %v", f.Next(), f.End(6))
	}
	if err := f.End(5); err == nil || !strings.Contains(err.Error(), "end after 5 entries, 6 received") {
		t.Errorf("end short: %v", err)
	}
	// From position 3, after the entry before.
	g := NewFollower(r, game, 3, log[2].Hash())
	if err := g.Check(log[3]); err != nil {
		t.Fatalf("from 3: %v", err)
	}

	forged := *log[1]
	forged.Sign(game, key(2)) // seat 1's entry signed by seat 2
	noSeat := *log[1]
	noSeat.Seat = 3
	cases := []struct {
		name string
		from uint64
		prev ledger.Hash
		e    *ledger.Entry
		want string
	}{
		{"a later entry", 0, game, log[1], "entry 1, want 0"},
		{"off the chain", 3, log[1].Hash(), log[3], "entry 3 does not chain onto entry 2"},
		{"from 0 ignores prev", 0, log[4].Hash(), log[1], "entry 1, want 0"},
		{"no such seat", 1, log[0].Hash(), &noSeat, "entry 1 names seat 3 of 3"},
		{"another seat's signature", 1, log[0].Hash(), &forged, "entry 1: "},
	}
	for _, c := range cases {
		if err := NewFollower(r, game, c.from, c.prev).Check(c.e); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}

	// Verdicts: an equivocation proves itself; a timeout is only the
	// seat's claim; an unsigned one is refused; an invalid-entry verdict
	// on an entry the rules take is the seat's lie.
	sign := func(v *roomcore.Verdict) *roomcore.Verdict {
		v.Game = game
		if err := v.Sign(key(v.Declarer)); err != nil {
			t.Fatal(err)
		}
		return v
	}
	other := *log[1]
	other.Body = []byte("other")
	other.Sign(game, key(1))
	ev := []*ledger.Entry{log[1], &other}
	if h0, h1 := ev[0].Hash(), ev[1].Hash(); bytes.Compare(h0[:], h1[:]) > 0 {
		ev[0], ev[1] = ev[1], ev[0]
	}
	take := func(*ledger.Entry) error { return nil }
	equiv := sign(&roomcore.Verdict{Kind: roomcore.VerdictEquivocation, Pos: 1, Seat: 1, Declarer: 0, Evidence: ev})
	if ok, err := NewFollower(r, game, 1, log[0].Hash()).Verdict(equiv, take); !ok || err != nil {
		t.Errorf("equivocation: adopted %v, %v", ok, err)
	}
	timeout := sign(&roomcore.Verdict{Kind: roomcore.VerdictTimeout, Pos: 1, Seat: 1, Declarer: 0})
	if ok, err := NewFollower(r, game, 1, log[0].Hash()).Verdict(timeout, take); ok || err != nil {
		t.Errorf("timeout: adopted %v, %v", ok, err)
	}
	unsigned := *timeout
	unsigned.Sig = [64]byte{}
	if _, err := NewFollower(r, game, 1, log[0].Hash()).Verdict(&unsigned, take); err == nil || !strings.Contains(err.Error(), "verdict: bad signature") {
		t.Errorf("unsigned verdict: %v", err)
	}
	lie := sign(&roomcore.Verdict{Kind: roomcore.VerdictInvalidEntry, Pos: 1, Seat: 1, Declarer: 0, Evidence: []*ledger.Entry{log[1]}})
	h := NewFollower(r, game, 1, log[0].Hash())
	if _, err := h.Verdict(lie, take); err == nil || h.Next() != 2 {
		t.Errorf("a false invalid-entry verdict: %v, next %d", err, h.Next())
	}
	refuse := func(*ledger.Entry) error { return errors.New("not a legal move") }
	if ok, err := NewFollower(r, game, 1, log[0].Hash()).Verdict(lie, refuse); !ok || err != nil {
		t.Errorf("an invalid-entry verdict the rules agree with: adopted %v, %v", ok, err)
	}
}
