package directory

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	ma "github.com/multiformats/go-multiaddr"
)

// ObservedProtocol asks a relay which address it sees the asking
// connection come from: the relay answers a u8 length and the binary
// multiaddr of the connection's remote end, and closes. 'masque doctor'
// compares it with its own addresses to tell whether (and how) a NAT
// rewrites them.
const ObservedProtocol protocol.ID = "/masque/observed/1"

// ServeObserved answers ObservedProtocol on h.
func ServeObserved(h host.Host) {
	h.SetStreamHandler(ObservedProtocol, func(s network.Stream) {
		defer s.Close()
		s.SetDeadline(time.Now().Add(5 * time.Second))
		b := s.Conn().RemoteMultiaddr().Bytes()
		if len(b) > 255 {
			s.Reset()
			return
		}
		s.Write(append([]byte{byte(len(b))}, b...))
	})
}

// Observed asks relay (connected through h, over whichever connection h
// has to it) which address it sees h's connection come from.
func Observed(ctx context.Context, h host.Host, relay peer.AddrInfo) (ma.Multiaddr, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	if err := h.Connect(ctx, relay); err != nil {
		return nil, fmt.Errorf("connect to relay %s: %w", relay.ID, err)
	}
	s, err := h.NewStream(network.WithAllowLimitedConn(ctx, "masque doctor"), relay.ID, ObservedProtocol)
	if err != nil {
		return nil, fmt.Errorf("relay %s: open stream (an older masque relay?): %w", relay.ID, err)
	}
	defer s.Close()
	if d, ok := ctx.Deadline(); ok {
		s.SetDeadline(d)
	}
	var n [1]byte
	if _, err := io.ReadFull(s, n[:]); err != nil {
		return nil, fmt.Errorf("relay %s: %w", relay.ID, err)
	}
	b := make([]byte, n[0])
	if _, err := io.ReadFull(s, b); err != nil {
		return nil, fmt.Errorf("relay %s: %w", relay.ID, err)
	}
	a, err := ma.NewMultiaddrBytes(b)
	if err != nil {
		return nil, fmt.Errorf("relay %s: %w: observed address: %w", relay.ID, ErrDecode, err)
	}
	return a, nil
}
