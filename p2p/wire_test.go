package p2p

import (
	"bytes"
	"errors"
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
	return [][]byte{
		encodeHello(ledger.Hash{2}, 3), em, vm, encodeSyncReq(ledger.Hash{}, 5, 10), encodeSyncEnd(9),
		encodeJoinRequest(&joinRequest{Name: "ann", SignKey: make([]byte, 32), CardKey: []byte{1}, Addrs: [][]byte{{4, 127, 0, 0, 1}}}),
		encodeJoinNo("full"),
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	for _, m := range seedMessages(t) {
		if _, err := decode(m); err != nil {
			t.Fatalf("type %d: %v", m[0], err)
		}
		if _, err := decode(append(bytes.Clone(m), 0)); err == nil {
			t.Fatalf("type %d: trailing byte accepted", m[0])
		}
		if _, err := decode(m[:len(m)-1]); err == nil {
			t.Fatalf("type %d: truncation accepted", m[0])
		}
	}
}

// FuzzDecode: no input from a peer may panic the decoder.
func FuzzDecode(f *testing.F) {
	for _, m := range seedMessages(f) {
		f.Add(m)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decode(b)
		if err == nil && m.Type == msgVerdict {
			m.Verdict.MarshalBinary()
		}
	})
}
