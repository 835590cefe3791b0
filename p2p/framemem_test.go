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
