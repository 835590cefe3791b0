package joinproto

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
)

// TestGoldenBytes: every message encodes to the bytes it had when the join
// protocol lived in package p2p (recorded from that encoder before the
// move), and decodes back to them: the wire did not change.
func TestGoldenBytes(t *testing.T) {
	var sig [64]byte
	for i := range sig {
		sig[i] = byte(i)
	}
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(100 + i)
	}
	long := "0c01" + "01" + strings.Repeat("00", 15) + "00" + "0400" + strings.Repeat("00", MaxReason)
	cases := []struct {
		name  string
		frame []byte
		want  string
	}{
		{"join request any seat", EncodeRequest(&Request{Name: "ann", SignKey: key, CardKey: []byte{1, 2, 3},
			Addrs: [][]byte{{4, 127, 0, 0, 1, 6, 0x10, 0x00}, {4, 10, 0, 0, 2}}}),
			"0a000000000000000000000000000000000003616e6e6465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182830003010203020008047f0000010610000005040a000002"},
		{"join request seat 3", EncodeRequest(&Request{TableID: [16]byte{7, 8, 9}, Seat: 3, Name: "bob", SignKey: key}),
			"0a070809000000000000000000000000000303626f626465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f80818283000000"},
		// A forwarded join request: a join request's bytes after type 17.
		{"forwarded join request seat 3", EncodeForwarded(&Request{TableID: [16]byte{7, 8, 9}, Seat: 3, Name: "bob", SignKey: key}),
			"11070809000000000000000000000000000303626f626465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f80818283000000"},
		{"join OK", EncodeOK(2, 3, 5), "0b020305"},
		{"join refused seat not free", EncodeRefused([16]byte{7}, 4, Refusal{RefusedSeatNotFree, "seat 2 is not free; the next seat is 4"}),
			"0c0807000000000000000000000000000000040026736561742032206973206e6f7420667265653b20746865206e65787420736561742069732034"},
		{"join refused full", EncodeRefused([16]byte{7}, 0, Refusal{RefusedFull, "table is full"}),
			"0c040700000000000000000000000000000000000d7461626c652069732066756c6c"},
		{"join refused no such table", EncodeRefused([16]byte{}, 0, NoSuchTable()),
			"0c020000000000000000000000000000000000000d6e6f2073756368207461626c65"},
		{"join refused long reason (cut)", EncodeRefused([16]byte{1}, 0, Refusal{RefusedOther, string(make([]byte, 1030))}), long},
		{"roster offer", EncodeRosterOffer([]byte("roster bytes"), [][][]byte{{{4, 127, 0, 0, 1}}, nil, {{1}, {2}}}),
			"0d0000000c726f7374657220627974657303010005047f0000010002000101000102"},
		{"roster sig", EncodeRosterSig(2, sig[:]),
			"0e02000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"},
		{"roster all", EncodeRosterAll([][64]byte{sig, {1}}),
			"0f02000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f01" + strings.Repeat("00", 63)},
	}
	for _, c := range cases {
		if got := hex.EncodeToString(c.frame); got != c.want {
			t.Errorf("%s: encoded as %s, want %s", c.name, got, c.want)
		}
		m, err := Decode(c.frame)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if re := reencode(t, m); !bytes.Equal(re, c.frame) {
			t.Errorf("%s: re-encoded as %x", c.name, re)
		}
	}
}

// seedMessages: one of each message.
func seedMessages() [][]byte {
	var sig [64]byte
	sig[0] = 9
	return [][]byte{
		EncodeRequest(&Request{Name: "ann", SignKey: make([]byte, 32), CardKey: []byte{1}, Addrs: [][]byte{{4, 127, 0, 0, 1}}}),
		EncodeRequest(&Request{TableID: [16]byte{7}, Seat: 3, Name: "bob", SignKey: make([]byte, 32)}),
		EncodeForwarded(&Request{Name: "mila", SignKey: make([]byte, 32), CardKey: []byte{2}, Addrs: [][]byte{{4, 127, 0, 0, 1}}}),
		EncodeOK(2, 3, 5),
		EncodeRefused([16]byte{7}, 4, Refusal{RefusedSeatNotFree, "seat 2 is not free; the next seat is 4"}),
		EncodeRefused([16]byte{7}, 0, Refusal{RefusedFull, "table is full"}),
		EncodeRefused([16]byte{}, 0, NoSuchTable()),
		EncodeRosterOffer([]byte("roster"), [][][]byte{{{4, 127, 0, 0, 1}}, nil}),
		EncodeRosterSig(2, sig[:]),
		EncodeRosterAll([][64]byte{sig, sig}),
	}
}

// reencode encodes a decoded message again with the encoder its senders
// use.
func reencode(t testing.TB, m *Msg) []byte {
	t.Helper()
	switch m.Type {
	case MsgRequest:
		return EncodeRequest(m.Request)
	case MsgForwarded:
		return EncodeForwarded(m.Request)
	case MsgOK:
		return EncodeOK(m.Seat, m.Taken, m.Total)
	case MsgRefused:
		return EncodeRefused(m.TableID, m.Seat, Refusal{m.Code, m.Reason})
	case MsgRoster:
		return EncodeRosterOffer(m.Roster, m.Addrs)
	case MsgRosterSig:
		return EncodeRosterSig(m.Seat, m.Sig[:])
	case MsgRosterAll:
		return EncodeRosterAll(m.Sigs)
	}
	t.Fatalf("decoded an unknown type %d", m.Type)
	return nil
}

// TestDecodeRoundTrip: each message decodes, re-encodes to its bytes, and
// is refused with a byte more or a byte less.
func TestDecodeRoundTrip(t *testing.T) {
	for _, m := range seedMessages() {
		got, err := Decode(m)
		if err != nil {
			t.Fatalf("type %d: %v", m[0], err)
		}
		if re := reencode(t, got); !bytes.Equal(re, m) {
			t.Fatalf("type %d: re-encoded as %x, was %x", m[0], re, m)
		}
		if _, err := Decode(append(bytes.Clone(m), 0)); err == nil {
			t.Fatalf("type %d: trailing byte accepted", m[0])
		}
		if _, err := Decode(m[:len(m)-1]); err == nil {
			t.Fatalf("type %d: truncation accepted", m[0])
		}
	}
}

// TestJoinMessageEncoding: the join protocol's messages carry the seat as
// a field, round-trip, and malformed ones are refused with an error naming
// the message and the field.
func TestJoinMessageEncoding(t *testing.T) {
	id := [16]byte{0xab, 1, 2, 3}
	key := bytes.Repeat([]byte{5}, 32)
	req := func(seat uint8, name string, card []byte, addrs [][]byte) []byte {
		return EncodeRequest(&Request{TableID: id, Seat: seat, Name: name, SignKey: key, CardKey: card, Addrs: addrs})
	}
	// raw builds a frame byte by byte.
	raw := func(parts ...[]byte) []byte { return bytes.Join(append([][]byte{}, parts...), nil) }
	b := func(v ...byte) []byte { return v }
	u16 := func(n int) []byte { return []byte{byte(n >> 8), byte(n)} }
	reqHead := raw(b(MsgRequest), id[:])                          // up to the seat
	reqTail := raw(b(1, 'x'), key)                                // name, signing key
	noHead := raw(b(MsgRefused, byte(RefusedSeatNotFree)), id[:]) // up to the seat
	no := func(code RefusalCode, table [16]byte, seat uint8, reason string) []byte {
		return EncodeRefused(table, seat, Refusal{code, reason})
	}
	longName := strings.Repeat("n", ledger.MaxNameBytes+1)
	longReason := strings.Repeat("r", MaxReason+1)

	valid := []struct {
		name  string
		frame []byte
		check func(*Msg) bool
	}{
		{"request, any seat", req(0, "ann", []byte{1, 2}, [][]byte{{4, 127, 0, 0, 1}}), func(m *Msg) bool {
			return m.Request.Seat == 0 && m.Request.TableID == id && m.Request.Name == "ann" && bytes.Equal(m.Request.SignKey, key) &&
				bytes.Equal(m.Request.CardKey, []byte{1, 2}) && len(m.Request.Addrs) == 1
		}},
		{"request, seat 3", req(3, "bob", nil, nil), func(m *Msg) bool { return m.Request.Seat == 3 && len(m.Request.CardKey) == 0 }},
		{"request, seat 15", req(15, strings.Repeat("n", ledger.MaxNameBytes), make([]byte, ledger.MaxKeyBytes), nil),
			func(m *Msg) bool { return m.Request.Seat == 15 }},
		{"OK, seat 1 of 2", EncodeOK(1, 2, 2), func(m *Msg) bool { return m.Seat == 1 && m.Taken == 2 && m.Total == 2 }},
		{"OK, seat 2 of 5, 4 taken", EncodeOK(2, 4, 5), func(m *Msg) bool { return m.Seat == 2 && m.Taken == 4 && m.Total == 5 }},
		{"OK, seat 15 of 16", EncodeOK(15, 16, 16), func(m *Msg) bool { return m.Seat == 15 }},
		{"refused, seat not free, next seat 4", no(RefusedSeatNotFree, id, 4, "seat 2 is not free"), func(m *Msg) bool {
			return m.Code == RefusedSeatNotFree && m.TableID == id && m.Seat == 4 && m.Reason == "seat 2 is not free"
		}},
		{"refused, full, no seat", no(RefusedFull, id, 0, "table is full"), func(m *Msg) bool {
			return m.Code == RefusedFull && m.Seat == 0 && m.Reason == "table is full"
		}},
		{"refused, started", no(RefusedStarted, id, 0, "table has started"), func(m *Msg) bool { return m.Code == RefusedStarted }},
		{"refused, name taken", no(RefusedNameTaken, id, 2, `name "ann" is taken`), func(m *Msg) bool {
			return m.Code == RefusedNameTaken && m.Seat == 2
		}},
		{"refused, other, no seat", no(RefusedOther, id, 0, "options: x"), func(m *Msg) bool { return m.Code == RefusedOther && m.Seat == 0 }},
		{"refused, other, seat 15", no(RefusedOther, id, 15, ""), func(m *Msg) bool { return m.Code == RefusedOther && m.Seat == 15 }},
		{"refused, seat refused, seat 15", no(RefusedSeat, id, 15, "x"), func(m *Msg) bool { return m.Code == RefusedSeat && m.Seat == 15 }},
		{"refused, no table, empty reason", no(RefusedNoSuchTable, [16]byte{}, 0, ""), func(m *Msg) bool {
			return m.Code == RefusedNoSuchTable && m.TableID == [16]byte{} && m.Seat == 0 && m.Reason == ""
		}},
		{"refused, reason at the limit", no(RefusedCardKey, id, 1, longReason), func(m *Msg) bool { return len(m.Reason) == MaxReason }},
	}
	for _, c := range valid {
		m, err := Decode(c.frame)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !c.check(m) {
			t.Errorf("%s: decoded %+v", c.name, m)
		}
		if re := reencode(t, m); !bytes.Equal(re, c.frame) {
			t.Errorf("%s: re-encoded as %x, was %x", c.name, re, c.frame)
		}
	}

	malformed := []struct {
		name  string
		frame []byte
		want  string // in the error, after the message's name
	}{
		{"request: short table id", raw(b(MsgRequest), id[:15]), "join request): table id: truncated"},
		{"request: no seat", reqHead, "join request): seat: truncated"},
		{"request: seat 18", raw(reqHead, b(ledger.MaxSeats), reqTail, u16(0), b(0)), "join request): seat: 18"},
		{"request: seat 255", raw(reqHead, b(255), reqTail, u16(0), b(0)), "join request): seat: 255"},
		{"request: no name", raw(reqHead, b(1)), "join request): name: truncated"},
		{"request: name longer than its bytes", raw(reqHead, b(1, 5, 'x')), "join request): name: truncated"},
		{"request: empty name", raw(reqHead, b(1, 0), key, u16(0), b(0)), "join request): name: 0 bytes"},
		{"request: name too long", raw(reqHead, b(1, byte(len(longName))), []byte(longName), key, u16(0), b(0)), "join request): name: 65 bytes"},
		{"request: short signing key", raw(reqHead, b(1, 1, 'x'), key[:31]), "join request): signing key: truncated"},
		{"request: no card key", raw(reqHead, b(1), reqTail), "join request): card key: truncated"},
		{"request: card key too long", raw(reqHead, b(1), reqTail, u16(ledger.MaxKeyBytes+1), make([]byte, ledger.MaxKeyBytes+1), b(0)),
			"join request): card key: 1025 bytes"},
		{"request: no address count", raw(reqHead, b(1), reqTail, u16(0)), "join request): addresses: address count: truncated"},
		{"request: 17 addresses", raw(reqHead, b(1), reqTail, u16(0), b(17)), "join request): addresses: address count: 17"},
		{"request: short address", raw(reqHead, b(1), reqTail, u16(0), b(1), u16(3), b(4)), "join request): addresses: address 0: truncated"},
		{"request: address too long", raw(reqHead, b(1), reqTail, u16(0), b(1), u16(MaxAddrBytes+1), make([]byte, MaxAddrBytes+1)),
			"join request): addresses: address 0: 513 bytes"},
		{"request: trailing byte", append(req(2, "ann", nil, nil), 0), "join request): 1 trailing bytes"},

		{"OK: empty", b(MsgOK), "join OK): seat: truncated"},
		{"OK: no seats taken", b(MsgOK, 1), "join OK): seats taken: truncated"},
		{"OK: no total", b(MsgOK, 1, 2), "join OK): seats total: truncated"},
		{"OK: seat 0 (the creator's)", b(MsgOK, 0, 1, 4), "join OK): seat: 0"},
		{"OK: seat 18", b(MsgOK, ledger.MaxSeats, ledger.MaxSeats, ledger.MaxSeats), "join OK): seat: 18"},
		{"OK: total not above the seat", b(MsgOK, 3, 3, 3), "join OK): seats total: 3"},
		{"OK: total over the limit", b(MsgOK, 3, 4, ledger.MaxSeats+1), "join OK): seats total: 19"},
		{"OK: taken not above the seat", b(MsgOK, 3, 3, 5), "join OK): seats taken: 3"},
		{"OK: taken over the total", b(MsgOK, 3, 6, 5), "join OK): seats taken: 6"},
		{"OK: trailing byte", b(MsgOK, 1, 2, 4, 0), "join OK): 1 trailing bytes"},
		{"OK: the old two-byte form", b(MsgOK, 2, 4), "join OK): seats total: truncated"},

		{"refused: empty", b(MsgRefused), "join refused): code: truncated"},
		{"refused: code 0", raw(b(MsgRefused, 0), id[:], b(2), u16(0)), "join refused): code: 0, unknown"},
		{"refused: unknown code 11", raw(b(MsgRefused, 11), id[:], b(2), u16(0)), "join refused): code: 11, unknown"},
		{"refused: unknown code 255", raw(b(MsgRefused, 255), id[:], b(2), u16(0)), "join refused): code: 255, unknown"},
		{"refused: short table id", raw(b(MsgRefused, byte(RefusedFull)), id[:3]), "join refused): table id: truncated"},
		{"refused: no such table, with a table id", raw(b(MsgRefused, byte(RefusedNoSuchTable)), id[:], b(0), u16(0)),
			"join refused): table id: ab010203000000000000000000000000 with code 2 (no such table), want zero"},
		{"refused: zero table id, another code", raw(b(MsgRefused, byte(RefusedFull)), make([]byte, 16), b(0), u16(0)),
			"join refused): table id: zero with code 4 (table full)"},
		{"refused: no seat", noHead, "join refused): seat: truncated"},
		{"refused: seat 18", raw(noHead, b(ledger.MaxSeats), u16(0)), "join refused): seat: 18"},
		{"refused: full, with a seat", raw(b(MsgRefused, byte(RefusedFull)), id[:], b(3), u16(0)), "join refused): seat: 3 with code 4 (table full), want 0"},
		{"refused: started, with a seat", raw(b(MsgRefused, byte(RefusedStarted)), id[:], b(1), u16(0)), "join refused): seat: 1 with code 3"},
		{"refused: no such table, with a seat", raw(b(MsgRefused, byte(RefusedNoSuchTable)), make([]byte, 16), b(1), u16(0)),
			"join refused): seat: 1 with code 2"},
		{"refused: no reason", raw(noHead, b(2)), "join refused): reason: truncated"},
		{"refused: reason longer than its bytes", raw(noHead, b(2), u16(5), []byte("full")), "join refused): reason: truncated"},
		{"refused: reason too long", raw(noHead, b(2), u16(MaxReason+1), []byte(longReason)), "join refused): reason: 1025 bytes"},
		{"refused: trailing byte", append(no(RefusedSeatNotFree, id, 2, "x"), 0), "join refused): 1 trailing bytes"},
		{"refused: the previous form, without a code", raw(b(MsgRefused), id[:], b(2), u16(1), []byte("x")), "join refused): code: 171, unknown"},
		{"refused: the old reason-only form", raw(b(MsgRefused), u16(4), []byte("full")), "join refused): code: 0, unknown"},

		{"roster: no length", b(MsgRoster, 0, 0), "roster): roster length: truncated"},
		{"roster: over the limit", b(MsgRoster, 0, 0x10, 0, 1), "roster): roster: 1048577 bytes, limit 1048576"},
		{"roster: shorter than its length", raw(b(MsgRoster, 0, 0, 0, 5), []byte("ros")), "roster): roster: truncated"},
		{"roster: no seat count", raw(b(MsgRoster, 0, 0, 0, 1), []byte("r")), "roster): seat count: truncated"},
		{"roster: 19 seats", raw(b(MsgRoster, 0, 0, 0, 1), []byte("r"), b(ledger.MaxSeats+1)), "roster): seat count: 19, limit 18"},
		{"roster: a seat's addresses missing", raw(b(MsgRoster, 0, 0, 0, 1), []byte("r"), b(2, 0)), "roster): seat 1's addresses: address count: truncated"},
		{"roster: a seat's address too long", raw(b(MsgRoster, 0, 0, 0, 1), []byte("r"), b(1, 1), u16(MaxAddrBytes+1), make([]byte, MaxAddrBytes+1)),
			"roster): seat 0's addresses: address 0: 513 bytes"},

		{"roster signature: empty", b(MsgRosterSig), "roster signature): seat: truncated"},
		{"roster signature: short", raw(b(MsgRosterSig, 1), make([]byte, 63)), "roster signature): signature: truncated"},
		{"roster signature: trailing byte", raw(b(MsgRosterSig, 1), make([]byte, 65)), "roster signature): 1 trailing bytes"},

		{"all signatures: empty", b(MsgRosterAll), "all signatures): signature count: truncated"},
		{"all signatures: 19", b(MsgRosterAll, ledger.MaxSeats+1), "all signatures): signature count: 19, limit 18"},
		{"all signatures: the second short", raw(b(MsgRosterAll, 2), make([]byte, 64+10)), "all signatures): signature 1: truncated"},

		{"empty frame", nil, "empty frame"},
		{"a log protocol type", b(2, 0), "unknown message type 2"},
		{"a watch protocol type", b(8, 0), "unknown message type 8"},
		{"type 16", b(16), "unknown message type 16"},
	}
	for _, c := range malformed {
		_, err := Decode(c.frame)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q, want it to contain %q", c.name, err, c.want)
		}
	}
}

// FuzzDecode: the join protocol's messages (types 10 to 15, the
// first byte choosing one): no panic; whatever decodes re-encodes to the
// same bytes and holds a seat in range.
func FuzzDecode(f *testing.F) {
	for _, m := range seedMessages() {
		f.Add(m[0]-MsgRequest, m[1:])
	}
	f.Add(byte(1), []byte{0, 1, 4})
	// Join refused with code 0, an unknown code, and a full table naming
	// a seat.
	f.Add(byte(2), make([]byte, 20))
	f.Add(byte(2), append([]byte{byte(RefusedSeat) + 1, 7}, make([]byte, 18)...))
	f.Add(byte(2), append(append([]byte{byte(RefusedFull), 7}, make([]byte, 15)...), 3, 0, 0))
	f.Fuzz(func(t *testing.T, typ byte, rest []byte) {
		frame := append([]byte{MsgRequest + typ%6}, rest...)
		m, err := Decode(frame)
		if err != nil {
			return
		}
		switch m.Type {
		case MsgRequest:
			if m.Request.Seat >= ledger.MaxSeats {
				t.Fatalf("join request for seat %d", m.Request.Seat)
			}
		case MsgOK:
			if m.Seat == 0 || m.Seat >= m.Taken || m.Taken > m.Total || m.Total > ledger.MaxSeats {
				t.Fatalf("join OK: seat %d, taken %d, total %d", m.Seat, m.Taken, m.Total)
			}
		case MsgRefused:
			if m.Seat >= ledger.MaxSeats || !m.Code.Known() || (m.Seat != 0 && !m.Code.SeatFree()) ||
				(m.TableID == [16]byte{}) != (m.Code == RefusedNoSuchTable) {
				t.Fatalf("join refused: code %d, table %x, seat %d", m.Code, m.TableID, m.Seat)
			}
		}
		if re := reencode(t, m); !bytes.Equal(re, frame) {
			t.Fatalf("type %d: re-encoded as %x, was %x", m.Type, re, frame)
		}
	})
}
