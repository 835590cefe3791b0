package p2p

import (
	"context"
	"io"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	msmux "github.com/multiformats/go-multistream"
)

// newStreamNow opens a stream for proto to p on a connection already open
// (it does not dial), selecting the protocol lazily: the multistream
// header goes out with the first write and the peer's answer is read with
// the first read. libp2p's Host.NewStream first waits for the identify
// exchange of the connection to finish, and on a busy machine that
// exchange sometimes hung until identify's 5 s timeout on a connection
// made at the start of a game: the seat's log stream to that peer opened
// 4.5 s late, its entries reached the peer only by fetches, and a short
// game's last done not at all before the peer's EndWait (issue 28). Every
// seat's node serves the room protocols, so nothing is learnt from
// identify here; a peer that does not serve proto fails the stream's
// first read (a log stream's end, a sync answer).
func newStreamNow(ctx context.Context, h host.Host, p peer.ID, proto protocol.ID) (network.Stream, error) {
	s, err := h.Network().NewStream(network.WithNoDial(ctx, "dialed by the room"), p)
	if err != nil {
		return nil, err
	}
	if err := s.SetProtocol(proto); err != nil {
		s.Reset()
		return nil, err
	}
	return &lazyStream{Stream: s, rw: msmux.NewMSSelect(s, proto)}, nil
}

// lazyStream is a stream whose protocol selection is lazy (go-libp2p's
// basic host wraps such streams the same way).
type lazyStream struct {
	network.Stream
	rw io.ReadWriteCloser
}

func (s *lazyStream) Read(b []byte) (int, error)  { return s.rw.Read(b) }
func (s *lazyStream) Write(b []byte) (int, error) { return s.rw.Write(b) }
func (s *lazyStream) Close() error                { return s.rw.Close() }

// CloseWrite flushes the protocol header if nothing was written yet (the
// peer may have closed its side: a failure shows on the next read).
func (s *lazyStream) CloseWrite() error {
	if f, ok := s.rw.(interface{ Flush() error }); ok {
		_ = f.Flush()
	}
	return s.Stream.CloseWrite()
}
