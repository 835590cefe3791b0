package p2p

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/masque-games/masque/engine/ledger"
)

// DefaultMaxFrame is the default limit on one frame's payload: room for the
// largest entry (ledger.MaxBodyBytes) with its envelope.
const DefaultMaxFrame = ledger.MaxBodyBytes + 64<<10

// ErrFrameTooLarge is wrapped by the error a reader returns when a peer
// announces a frame longer than the limit.
var ErrFrameTooLarge = errors.New("frame too large")

// WriteFrame writes one frame: a 4-byte big-endian payload length, then the
// payload.
func WriteFrame(w io.Writer, payload []byte) error {
	buf := make([]byte, 4+len(payload))
	binary.BigEndian.PutUint32(buf, uint32(len(payload)))
	copy(buf[4:], payload)
	_, err := w.Write(buf)
	return err
}

// Limits on the first frame of each stream protocol, which a peer sends
// before it has shown who it is: each is far above the largest honest
// first message (a hello or a sync request is under 64 bytes; a join
// request, with a 64-byte name, 192 bytes of keys and 16 addresses, under
// 5 KiB) and far below DefaultMaxFrame.
const (
	MaxHelloFrame   = 256
	MaxSyncReqFrame = 256
	MaxJoinReqFrame = 8 << 10
)

// frameChunk is how much of a frame's payload is allocated before any of
// it has arrived; the buffer then grows with what arrives (doubling), so a
// peer that announces a large frame and sends nothing makes the reader
// allocate frameChunk bytes, not what it announced.
const frameChunk = 16 << 10

// ReadFrame reads one frame whose payload is at most max bytes. An oversize
// frame is refused before its payload is read, with an error wrapping
// [ErrFrameTooLarge]; the stream cannot be resynchronised after it and
// should be reset. The payload's buffer grows as it arrives.
func ReadFrame(r io.Reader, max int) ([]byte, error) {
	return readFrame(r, max, nil)
}

// readFrame is ReadFrame; reserve, if set, is asked for every growth of
// the buffer beyond frameChunk (the stream's resource scope), and may
// refuse it.
func readFrame(r io.Reader, max int, reserve func(grow int) error) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := int(binary.BigEndian.Uint32(hdr[:]))
	if uint64(n) > uint64(max) {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrFrameTooLarge, n, max)
	}
	buf := make([]byte, 0, min(n, frameChunk))
	for len(buf) < n {
		if len(buf) == cap(buf) {
			size := min(2*cap(buf), n)
			if reserve != nil {
				if err := reserve(size - cap(buf)); err != nil {
					return nil, fmt.Errorf("frame of %d bytes: %w", n, err)
				}
			}
			buf = append(make([]byte, 0, size), buf...)
		}
		k, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if err != nil && len(buf) < n {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
	return buf, nil
}
