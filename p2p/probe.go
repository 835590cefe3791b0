package p2p

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/p2p/protocol/ping"
	msmux "github.com/multiformats/go-multistream"
)

// staleProbeTimeout bounds the ping that tells whether an old connection
// still reaches a live program (see [Node.connAlive]). A live peer
// answers within a round trip, and within a few retransmissions on a
// lossy network; a dead one never does.
var staleProbeTimeout = 4 * time.Second

// connAlive returns nil if the program at the other end of c answers a
// ping (libp2p's /ipfs/ping/1.0.0, which every libp2p host serves) on that
// very connection, within staleProbeTimeout.
//
// A program killed without closing its connections (kill -9, a crash, a
// machine gone to sleep) leaves them open on our side: over TCP the
// kernel resets them at once, but a QUIC connection waits out its idle
// timeout (30 s). A seat held on such a connection would refuse the
// restarted program ("already seated") all that time.
func (n *Node) connAlive(ctx context.Context, c network.Conn) error {
	ctx, cancel := context.WithTimeout(allowLimited(ctx), staleProbeTimeout)
	defer cancel()
	s, err := c.NewStream(ctx)
	if err != nil {
		return fmt.Errorf("open a ping stream on connection %s: %w", c.ID(), err)
	}
	defer s.Reset()
	if err := s.SetProtocol(ping.ID); err != nil {
		return fmt.Errorf("ping stream: %w", err)
	}
	if d, ok := ctx.Deadline(); ok {
		s.SetDeadline(d)
	}
	stop := context.AfterFunc(ctx, func() { s.Reset() })
	defer stop()
	rw := msmux.NewMSSelect(s, ping.ID)
	out := make([]byte, ping.PingSize)
	rand.Read(out)
	if _, err := rw.Write(out); err != nil {
		return fmt.Errorf("ping on connection %s: %w", c.ID(), err)
	}
	in := make([]byte, ping.PingSize)
	if _, err := io.ReadFull(rw, in); err != nil {
		return fmt.Errorf("ping on connection %s: no answer: %w", c.ID(), err)
	}
	if !bytes.Equal(in, out) {
		return fmt.Errorf("ping on connection %s: wrong answer", c.ID())
	}
	return nil
}
