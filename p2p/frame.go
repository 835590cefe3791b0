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

// ReadFrame reads one frame whose payload is at most max bytes. An oversize
// frame is refused before its payload is read, with an error wrapping
// [ErrFrameTooLarge]; the stream cannot be resynchronised after it and
// should be reset.
func ReadFrame(r io.Reader, max int) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if uint64(n) > uint64(max) {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrFrameTooLarge, n, max)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return buf, nil
}
