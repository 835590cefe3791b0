package p2p

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
)

func TestReadFrameLimit(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteFrame(&buf, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFrame(bytes.NewReader(buf.Bytes()), 4); !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("oversize frame: %v", err)
	}
	got, err := ReadFrame(bytes.NewReader(buf.Bytes()), 5)
	if err != nil || string(got) != "hello" {
		t.Fatalf("%q %v", got, err)
	}
	if _, err := ReadFrame(bytes.NewReader(buf.Bytes()[:7]), 5); err == nil {
		t.Fatal("truncated frame accepted")
	}
}

func seedMessages(t testing.TB) [][]byte {
	e := &ledger.Entry{Pos: 3, Seat: 1, Body: []byte("body")}
	em, err := encodeEntryMsg(e, ledger.Hash{1})
	if err != nil {
		t.Fatal(err)
	}
	v := &Verdict{Kind: VerdictEquivocation, Pos: 3, Seat: 1, Reason: "r", Evidence: []*ledger.Entry{e, e}}
	vm, err := encodeVerdictMsg(v)
	if err != nil {
		t.Fatal(err)
	}
	return append([][]byte{
		encodeHello(ledger.Hash{2}, 3), em, vm, encodeSyncReq(ledger.Hash{}, 5, 10), encodeSyncEnd(9),
		encodeEcho(7, ledger.Hash{3}, ledger.Hash{4}), encodeDone(12, ledger.Hash{5}),
		encodeWatchReq([16]byte{6}, 3), encodeWatchTable([]byte("roster"), [][64]byte{{1}, {2}}),
	}, seedJoinMessages()...)
}

// seedJoinMessages: one of each join-protocol message.
func seedJoinMessages() [][]byte {
	var sig [64]byte
	sig[0] = 9
	return [][]byte{
		encodeJoinRequest(&joinRequest{Name: "ann", SignKey: make([]byte, 32), CardKey: []byte{1}, Addrs: [][]byte{{4, 127, 0, 0, 1}}}),
		encodeJoinRequest(&joinRequest{TableID: [16]byte{7}, Seat: 3, Name: "bob", SignKey: make([]byte, 32)}),
		encodeJoinOK(2, 3, 5),
		encodeJoinNo([16]byte{7}, 4, refusal{RefusedSeatNotFree, "seat 2 is not free; the next seat is 4"}),
		encodeJoinNo([16]byte{7}, 0, refusal{RefusedFull, "table is full"}),
		encodeJoinNo([16]byte{}, 0, noSuchTable),
		encodeRosterOffer([]byte("roster"), [][][]byte{{{4, 127, 0, 0, 1}}, nil}),
		encodeRosterSig(2, sig[:]),
		encodeRosterAll([][64]byte{sig, sig}),
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	for _, m := range seedMessages(t) {
		got, err := decode(m)
		if err != nil {
			t.Fatalf("type %d: %v", m[0], err)
		}
		if re := reencode(t, got); !bytes.Equal(re, m) {
			t.Fatalf("type %d: re-encoded as %x, was %x", m[0], re, m)
		}
		if _, err := decode(append(bytes.Clone(m), 0)); err == nil {
			t.Fatalf("type %d: trailing byte accepted", m[0])
		}
		if _, err := decode(m[:len(m)-1]); err == nil {
			t.Fatalf("type %d: truncation accepted", m[0])
		}
	}
}

// reencode encodes a decoded message again with the encoder its senders
// use.
func reencode(t testing.TB, m *message) []byte {
	t.Helper()
	var out []byte
	var err error
	switch m.Type {
	case msgHello:
		out = encodeHello(m.Game, m.Seat)
	case msgEntry:
		out, err = encodeEntryMsg(m.Entry, m.State)
	case msgVerdict:
		out, err = encodeVerdictMsg(m.Verdict)
	case msgSyncReq:
		out = encodeSyncReq(m.Game, m.From, m.Max)
	case msgSyncEnd:
		out = encodeSyncEnd(m.From)
	case msgEcho:
		out = encodeEcho(m.Pos, m.Hash, m.State)
	case msgDone:
		out = encodeDone(m.Pos, m.State)
	case msgWatchReq:
		out = encodeWatchReq(m.TableID, m.From)
	case msgWatchTab:
		out = encodeWatchTable(m.Roster, m.Sigs)
	case msgJoinReq:
		out = encodeJoinRequest(m.Join)
	case msgJoinOK:
		out = encodeJoinOK(m.Seat, m.Taken, m.Total)
	case msgJoinNo:
		out = encodeJoinNo(m.TableID, m.Seat, refusal{m.Code, m.Reason})
	case msgRoster:
		out = encodeRosterOffer(m.Roster, m.Addrs)
	case msgRosterSig:
		out = encodeRosterSig(m.Seat, m.Sig[:])
	case msgRosterAll:
		out = encodeRosterAll(m.Sigs)
	default:
		t.Fatalf("decoded an unknown type %d", m.Type)
	}
	if err != nil {
		t.Fatalf("type %d: re-encoding: %v", m.Type, err)
	}
	return out
}

// TestJoinMessageEncoding: the join protocol's messages carry the seat as
// a field, round-trip, and malformed ones are refused with an error naming
// the message and the field.
func TestJoinMessageEncoding(t *testing.T) {
	id := [16]byte{0xab, 1, 2, 3}
	key := bytes.Repeat([]byte{5}, 32)
	req := func(seat uint8, name string, card []byte, addrs [][]byte) []byte {
		return encodeJoinRequest(&joinRequest{TableID: id, Seat: seat, Name: name, SignKey: key, CardKey: card, Addrs: addrs})
	}
	// raw builds a frame byte by byte.
	raw := func(parts ...[]byte) []byte { return bytes.Join(append([][]byte{}, parts...), nil) }
	b := func(v ...byte) []byte { return v }
	u16 := func(n int) []byte { return []byte{byte(n >> 8), byte(n)} }
	reqHead := raw(b(msgJoinReq), id[:])                         // up to the seat
	reqTail := raw(b(1, 'x'), key)                               // name, signing key
	noHead := raw(b(msgJoinNo, byte(RefusedSeatNotFree)), id[:]) // up to the seat
	no := func(code RefusalCode, table [16]byte, seat uint8, reason string) []byte {
		return encodeJoinNo(table, seat, refusal{code, reason})
	}
	longName := strings.Repeat("n", ledger.MaxNameBytes+1)
	longReason := strings.Repeat("r", maxReason+1)

	valid := []struct {
		name  string
		frame []byte
		check func(*message) bool
	}{
		{"request, any seat", req(0, "ann", []byte{1, 2}, [][]byte{{4, 127, 0, 0, 1}}), func(m *message) bool {
			return m.Join.Seat == 0 && m.Join.TableID == id && m.Join.Name == "ann" && bytes.Equal(m.Join.SignKey, key) &&
				bytes.Equal(m.Join.CardKey, []byte{1, 2}) && len(m.Join.Addrs) == 1
		}},
		{"request, seat 3", req(3, "bob", nil, nil), func(m *message) bool { return m.Join.Seat == 3 && len(m.Join.CardKey) == 0 }},
		{"request, seat 15", req(15, strings.Repeat("n", ledger.MaxNameBytes), make([]byte, ledger.MaxKeyBytes), nil),
			func(m *message) bool { return m.Join.Seat == 15 }},
		{"OK, seat 1 of 2", encodeJoinOK(1, 2, 2), func(m *message) bool { return m.Seat == 1 && m.Taken == 2 && m.Total == 2 }},
		{"OK, seat 2 of 5, 4 taken", encodeJoinOK(2, 4, 5), func(m *message) bool { return m.Seat == 2 && m.Taken == 4 && m.Total == 5 }},
		{"OK, seat 15 of 16", encodeJoinOK(15, 16, 16), func(m *message) bool { return m.Seat == 15 }},
		{"refused, seat not free, next seat 4", no(RefusedSeatNotFree, id, 4, "seat 2 is not free"), func(m *message) bool {
			return m.Code == RefusedSeatNotFree && m.TableID == id && m.Seat == 4 && m.Reason == "seat 2 is not free"
		}},
		{"refused, full, no seat", no(RefusedFull, id, 0, "table is full"), func(m *message) bool {
			return m.Code == RefusedFull && m.Seat == 0 && m.Reason == "table is full"
		}},
		{"refused, started", no(RefusedStarted, id, 0, "table has started"), func(m *message) bool { return m.Code == RefusedStarted }},
		{"refused, name taken", no(RefusedNameTaken, id, 2, `name "ann" is taken`), func(m *message) bool {
			return m.Code == RefusedNameTaken && m.Seat == 2
		}},
		{"refused, other, no seat", no(RefusedOther, id, 0, "options: x"), func(m *message) bool { return m.Code == RefusedOther && m.Seat == 0 }},
		{"refused, other, seat 15", no(RefusedOther, id, 15, ""), func(m *message) bool { return m.Code == RefusedOther && m.Seat == 15 }},
		{"refused, seat refused, seat 15", no(RefusedSeat, id, 15, "x"), func(m *message) bool { return m.Code == RefusedSeat && m.Seat == 15 }},
		{"refused, no table, empty reason", no(RefusedNoSuchTable, [16]byte{}, 0, ""), func(m *message) bool {
			return m.Code == RefusedNoSuchTable && m.TableID == [16]byte{} && m.Seat == 0 && m.Reason == ""
		}},
		{"refused, reason at the limit", no(RefusedCardKey, id, 1, longReason), func(m *message) bool { return len(m.Reason) == maxReason }},
	}
	for _, c := range valid {
		m, err := decode(c.frame)
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
		{"request: short table id", raw(b(msgJoinReq), id[:15]), "join request): table id: truncated"},
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
		{"request: address too long", raw(reqHead, b(1), reqTail, u16(0), b(1), u16(maxAddrBytes+1), make([]byte, maxAddrBytes+1)),
			"join request): addresses: address 0: 513 bytes"},
		{"request: trailing byte", append(req(2, "ann", nil, nil), 0), "join request): 1 trailing bytes"},

		{"OK: empty", b(msgJoinOK), "join OK): seat: truncated"},
		{"OK: no seats taken", b(msgJoinOK, 1), "join OK): seats taken: truncated"},
		{"OK: no total", b(msgJoinOK, 1, 2), "join OK): seats total: truncated"},
		{"OK: seat 0 (the creator's)", b(msgJoinOK, 0, 1, 4), "join OK): seat: 0"},
		{"OK: seat 18", b(msgJoinOK, ledger.MaxSeats, ledger.MaxSeats, ledger.MaxSeats), "join OK): seat: 18"},
		{"OK: total not above the seat", b(msgJoinOK, 3, 3, 3), "join OK): seats total: 3"},
		{"OK: total over the limit", b(msgJoinOK, 3, 4, ledger.MaxSeats+1), "join OK): seats total: 19"},
		{"OK: taken not above the seat", b(msgJoinOK, 3, 3, 5), "join OK): seats taken: 3"},
		{"OK: taken over the total", b(msgJoinOK, 3, 6, 5), "join OK): seats taken: 6"},
		{"OK: trailing byte", b(msgJoinOK, 1, 2, 4, 0), "join OK): 1 trailing bytes"},
		{"OK: the old two-byte form", b(msgJoinOK, 2, 4), "join OK): seats total: truncated"},

		{"refused: empty", b(msgJoinNo), "join refused): code: truncated"},
		{"refused: code 0", raw(b(msgJoinNo, 0), id[:], b(2), u16(0)), "join refused): code: 0, unknown"},
		{"refused: unknown code 11", raw(b(msgJoinNo, 11), id[:], b(2), u16(0)), "join refused): code: 11, unknown"},
		{"refused: unknown code 255", raw(b(msgJoinNo, 255), id[:], b(2), u16(0)), "join refused): code: 255, unknown"},
		{"refused: short table id", raw(b(msgJoinNo, byte(RefusedFull)), id[:3]), "join refused): table id: truncated"},
		{"refused: no such table, with a table id", raw(b(msgJoinNo, byte(RefusedNoSuchTable)), id[:], b(0), u16(0)),
			"join refused): table id: ab010203000000000000000000000000 with code 2 (no such table), want zero"},
		{"refused: zero table id, another code", raw(b(msgJoinNo, byte(RefusedFull)), make([]byte, 16), b(0), u16(0)),
			"join refused): table id: zero with code 4 (table full)"},
		{"refused: no seat", noHead, "join refused): seat: truncated"},
		{"refused: seat 18", raw(noHead, b(ledger.MaxSeats), u16(0)), "join refused): seat: 18"},
		{"refused: full, with a seat", raw(b(msgJoinNo, byte(RefusedFull)), id[:], b(3), u16(0)), "join refused): seat: 3 with code 4 (table full), want 0"},
		{"refused: started, with a seat", raw(b(msgJoinNo, byte(RefusedStarted)), id[:], b(1), u16(0)), "join refused): seat: 1 with code 3"},
		{"refused: no such table, with a seat", raw(b(msgJoinNo, byte(RefusedNoSuchTable)), make([]byte, 16), b(1), u16(0)),
			"join refused): seat: 1 with code 2"},
		{"refused: no reason", raw(noHead, b(2)), "join refused): reason: truncated"},
		{"refused: reason longer than its bytes", raw(noHead, b(2), u16(5), []byte("full")), "join refused): reason: truncated"},
		{"refused: reason too long", raw(noHead, b(2), u16(maxReason+1), []byte(longReason)), "join refused): reason: 1025 bytes"},
		{"refused: trailing byte", append(no(RefusedSeatNotFree, id, 2, "x"), 0), "join refused): 1 trailing bytes"},
		{"refused: the previous form, without a code", raw(b(msgJoinNo), id[:], b(2), u16(1), []byte("x")), "join refused): code: 171, unknown"},
		{"refused: the old reason-only form", raw(b(msgJoinNo), u16(4), []byte("full")), "join refused): code: 0, unknown"},
	}
	for _, c := range malformed {
		_, err := decode(c.frame)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q, want it to contain %q", c.name, err, c.want)
		}
	}
}

// FuzzDecode: no input from a peer may panic the decoder, and whatever it
// accepts re-encodes to the same bytes.
func FuzzDecode(f *testing.F) {
	for _, m := range seedMessages(f) {
		f.Add(m)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decode(b)
		if err != nil {
			return
		}
		if re := reencode(t, m); !bytes.Equal(re, b) {
			t.Fatalf("type %d: re-encoded as %x, was %x", m.Type, re, b)
		}
	})
}

// FuzzJoinMessage: the join protocol's messages (types 10 to 15, the
// first byte choosing one): no panic; whatever decodes re-encodes to the
// same bytes and holds a seat in range.
func FuzzJoinMessage(f *testing.F) {
	for _, m := range seedJoinMessages() {
		f.Add(m[0]-msgJoinReq, m[1:])
	}
	f.Add(byte(1), []byte{0, 1, 4})
	// Join refused with code 0, an unknown code, and a full table naming
	// a seat.
	f.Add(byte(2), make([]byte, 20))
	f.Add(byte(2), append([]byte{byte(refusedLast) + 1, 7}, make([]byte, 18)...))
	f.Add(byte(2), append(append([]byte{byte(RefusedFull), 7}, make([]byte, 15)...), 3, 0, 0))
	f.Fuzz(func(t *testing.T, typ byte, rest []byte) {
		frame := append([]byte{msgJoinReq + typ%6}, rest...)
		m, err := decode(frame)
		if err != nil {
			return
		}
		switch m.Type {
		case msgJoinReq:
			if m.Join.Seat >= ledger.MaxSeats {
				t.Fatalf("join request for seat %d", m.Join.Seat)
			}
		case msgJoinOK:
			if m.Seat == 0 || m.Seat >= m.Taken || m.Taken > m.Total || m.Total > ledger.MaxSeats {
				t.Fatalf("join OK: seat %d, taken %d, total %d", m.Seat, m.Taken, m.Total)
			}
		case msgJoinNo:
			if m.Seat >= ledger.MaxSeats || !m.Code.known() || (m.Seat != 0 && !m.Code.seatFree()) ||
				(m.TableID == [16]byte{}) != (m.Code == RefusedNoSuchTable) {
				t.Fatalf("join refused: code %d, table %x, seat %d", m.Code, m.TableID, m.Seat)
			}
		}
		if re := reencode(t, m); !bytes.Equal(re, frame) {
			t.Fatalf("type %d: re-encoded as %x, was %x", m.Type, re, frame)
		}
	})
}

// TestEchoAndDoneWire: an echo is exactly 73 bytes after its type (position
// u64, entry hash, state hash), a done 40 (log length u64, state hash);
// a short or long one, or a done of an empty log, is refused.
func TestEchoAndDoneWire(t *testing.T) {
	echo := encodeEcho(0x0102030405060708, ledger.Hash{0xaa}, ledger.Hash{0xbb})
	if len(echo) != 1+8+32+32 || echo[0] != 6 || echo[1] != 1 || echo[8] != 8 || echo[9] != 0xaa || echo[41] != 0xbb {
		t.Fatalf("echo encoding %x", echo)
	}
	m, err := decode(echo)
	if err != nil || m.Pos != 0x0102030405060708 || m.Hash != (ledger.Hash{0xaa}) || m.State != (ledger.Hash{0xbb}) {
		t.Fatalf("echo decoded as %+v, %v", m, err)
	}
	done := encodeDone(9, ledger.Hash{0xcc})
	if len(done) != 1+8+32 || done[0] != 7 || done[8] != 9 || done[9] != 0xcc {
		t.Fatalf("done encoding %x", done)
	}
	if m, err := decode(done); err != nil || m.Pos != 9 || m.State != (ledger.Hash{0xcc}) {
		t.Fatalf("done decoded as %+v, %v", m, err)
	}
	for name, b := range map[string][]byte{
		"short echo":    echo[:len(echo)-1],
		"long echo":     append(append([]byte(nil), echo...), 0),
		"short done":    done[:len(done)-1],
		"long done":     append(append([]byte(nil), done...), 0),
		"done of empty": encodeDone(0, ledger.Hash{}),
	} {
		if _, err := decode(b); err == nil {
			t.Errorf("%s: decoded", name)
		} else if !strings.Contains(err.Error(), "echo") && !strings.Contains(err.Error(), "done") {
			t.Errorf("%s: error %q does not name the message", name, err)
		}
	}
}
