package p2p

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/protocol"

	"github.com/masque-games/masque/engine/ledger"
)

// headerOnly announces n bytes of payload and then ends.
func headerOnly(n int) io.Reader {
	var h [4]byte
	binary.BigEndian.PutUint32(h[:], uint32(n))
	return bytes.NewReader(h[:])
}

// The attack (review hole 5): many streams announce a large frame and send
// only its 4-byte header. The reader used to allocate the announced length
// at once (2,304 such streams took a victim's heap to 2.4 GiB); now it
// allocates a first chunk and grows only with what arrives.
func TestReadFrameAllocatesAsDataArrives(t *testing.T) {
	const streams = 200
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range streams {
		if _, err := ReadFrame(headerOnly(DefaultMaxFrame), DefaultMaxFrame); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("header only: %v", err)
		}
	}
	runtime.ReadMemStats(&after)
	perStream := (after.TotalAlloc - before.TotalAlloc) / streams
	if perStream > 4*frameChunk {
		t.Fatalf("a header announcing %d bytes made the reader allocate %d bytes", DefaultMaxFrame, perStream)
	}
	// Honest frames of every size still read whole, growing as they go.
	for _, n := range []int{0, 1, frameChunk - 1, frameChunk, frameChunk + 1, 3*frameChunk + 7, DefaultMaxFrame} {
		payload := bytes.Repeat([]byte{0xa5}, n)
		var b bytes.Buffer
		WriteFrame(&b, payload)
		got, err := ReadFrame(&iotestHalfReader{&b}, DefaultMaxFrame)
		if err != nil || !bytes.Equal(got, payload) {
			t.Fatalf("frame of %d bytes: %d bytes back, %v", n, len(got), err)
		}
	}
	// A refused reservation stops the read with its error.
	var b bytes.Buffer
	WriteFrame(&b, make([]byte, 4*frameChunk))
	refuse := errors.New("resource limit exceeded")
	if _, err := readFrame(&b, DefaultMaxFrame, func(int) error { return refuse }); !errors.Is(err, refuse) {
		t.Fatalf("refused reservation: %v", err)
	}
}

// iotestHalfReader returns at most half of what is asked each time, so
// that frames arrive in pieces.
type iotestHalfReader struct{ r io.Reader }

func (h *iotestHalfReader) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:len(p)/2]
	}
	return h.r.Read(p)
}

// The first frame of each stream protocol, sent before the peer is known,
// has a small limit of its own: a hello, a sync request or a join request
// announcing more is refused before anything is allocated for it.
func TestFirstFrameLimits(t *testing.T) {
	_, ps := mockPeers(t, 2)
	for _, c := range []struct {
		proto protocol.ID
		limit int
	}{{ProtocolLog, MaxHelloFrame}, {ProtocolSync, MaxSyncReqFrame}, {ProtocolJoin, MaxJoinReqFrame}} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		s, err := ps[1].node.Host().NewStream(ctx, ps[0].node.Host().ID(), c.proto)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		var h [4]byte
		binary.BigEndian.PutUint32(h[:], uint32(c.limit+1))
		s.Write(h[:])
		select {
		case err := <-ps[0].errs:
			if !errors.Is(err, ErrFrameTooLarge) || !strings.Contains(err.Error(), "limit "+strconv.Itoa(c.limit)) {
				t.Errorf("%s: %v", c.proto, err)
			}
		case <-ctx.Done():
			t.Errorf("%s: a first frame over %d bytes was not refused", c.proto, c.limit)
		}
		s.Reset()
		cancel()
	}
}

// The attack (review hole 5's neighbour, hole 4): a seated peer signs
// entries for many future positions with large bodies; every peer used to
// buffer up to 1024 positions of up to 1 MiB each. Now what one author
// has waiting ahead is bounded by maxPendingBytes, and the rest is
// dropped (it would be fetched again by sync when due).
func TestBufferedAheadIsBounded(t *testing.T) {
	_, ps := mockPeers(t, 2)
	tb := signedTable(t, ps)
	game, _ := tb.Roster.GameID()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan result, 1)
	go func() {
		done <- play(ctx, t, ps[0], tb, &counter{limit: 1000, order: func(uint64) uint8 { return 1 }}, RoomConfig{})
	}()
	const n, size = 200, 64 << 10
	var frames [][]byte
	for pos := uint64(1); pos <= n; pos++ { // position 0 is withheld: nothing applies
		e := &ledger.Entry{Pos: pos, Seat: 1, Body: bytes.Repeat([]byte{byte(pos)}, size)}
		e.Sign(game, ps[1].id.SigningKey())
		f, err := encodeEntryMsg(e, ledger.Hash{})
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, f)
	}
	dropped := 0
	counted := make(chan struct{})
	go func() {
		defer close(counted)
		for {
			select {
			case err := <-ps[0].errs:
				if strings.Contains(err.Error(), "dropped") {
					dropped++
				}
			case <-time.After(2 * time.Second):
				return
			}
		}
	}()
	s := inject(t, ps[1], ps[0], game, 1, frames...)
	defer s.Reset()
	<-counted
	kept := n - dropped
	if max := maxPendingBytes/(size+256) + 1; kept > max || kept == 0 {
		t.Fatalf("%d of %d entries of %d bytes buffered ahead, want 1..%d", kept, n, size, max)
	}
	cancel()
	<-done
}
