package p2p

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/joinproto"
	"github.com/masque-games/masque/p2p/watchproto"
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
		watchproto.EncodeRequest([16]byte{6}, 3), watchproto.EncodeTable([]byte("roster"), [][64]byte{{1}, {2}}),
	}, seedJoinMessages()...)
}

// seedJoinMessages: one of each join-protocol message.
func seedJoinMessages() [][]byte {
	var sig [64]byte
	sig[0] = 9
	return [][]byte{
		joinproto.EncodeRequest(&joinproto.Request{Name: "ann", SignKey: make([]byte, 32), CardKey: []byte{1}, Addrs: [][]byte{{4, 127, 0, 0, 1}}}),
		joinproto.EncodeRequest(&joinproto.Request{TableID: [16]byte{7}, Seat: 3, Name: "bob", SignKey: make([]byte, 32)}),
		joinproto.EncodeForwarded(&joinproto.Request{TableID: [16]byte{7}, Seat: 2, Name: "mila", SignKey: make([]byte, 32), CardKey: []byte{1}}),
		joinproto.EncodeOK(2, 3, 5),
		joinproto.EncodeRefused([16]byte{7}, 4, joinproto.Refusal{Code: RefusedSeatNotFree, Reason: "seat 2 is not free; the next seat is 4"}),
		joinproto.EncodeRefused([16]byte{7}, 0, joinproto.Refusal{Code: RefusedFull, Reason: "table is full"}),
		joinproto.EncodeRefused([16]byte{}, 0, joinproto.NoSuchTable()),
		joinproto.EncodeRosterOffer([]byte("roster"), [][][]byte{{{4, 127, 0, 0, 1}}, nil}),
		joinproto.EncodeRosterSig(2, sig[:]),
		joinproto.EncodeRosterAll([][64]byte{sig, sig}),
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
		out = watchproto.EncodeRequest(m.Watch.TableID, m.Watch.From)
	case msgWatchTab:
		out = watchproto.EncodeTable(m.Watch.Roster, m.Watch.Sigs)
	case msgJoinReq:
		out = joinproto.EncodeRequest(m.Join.Request)
	case msgJoinFwd:
		out = joinproto.EncodeForwarded(m.Join.Request)
	case msgJoinOK:
		out = joinproto.EncodeOK(m.Join.Seat, m.Join.Taken, m.Join.Total)
	case msgJoinNo:
		out = joinproto.EncodeRefused(m.Join.TableID, m.Join.Seat, joinproto.Refusal{Code: m.Join.Code, Reason: m.Join.Reason})
	case msgRoster:
		out = joinproto.EncodeRosterOffer(m.Join.Roster, m.Join.Addrs)
	case msgRosterSig:
		out = joinproto.EncodeRosterSig(m.Join.Seat, m.Join.Sig[:])
	case msgRosterAll:
		out = joinproto.EncodeRosterAll(m.Join.Sigs)
	default:
		t.Fatalf("decoded an unknown type %d", m.Type)
	}
	if err != nil {
		t.Fatalf("type %d: re-encoding: %v", m.Type, err)
	}
	return out
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
