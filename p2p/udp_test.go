package p2p

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/p2p/identity"
)

// TestQUICSurvivesRefusedSends: with a fifth of the sends refused by the
// kernel (EPERM, as a local firewall dropping packets at random makes
// them), a QUIC connection between two nodes carries 150 round trips
// without breaking. quic-go alone closes the connection at the first
// refused send after its first packet.
func TestQUICSurvivesRefusedSends(t *testing.T) {
	var refused atomic.Int64
	testRefuse = func() error {
		if rand.IntN(5) == 0 {
			refused.Add(1)
			return refusedSend()
		}
		return nil
	}
	t.Cleanup(func() { testRefuse = nil })
	nodes := make([]*Node, 2)
	for i := range nodes {
		id, err := identity.Generate()
		if err != nil {
			t.Fatal(err)
		}
		n, err := NewNode(Config{Identity: id, ListenAddrs: []string{"/ip4/127.0.0.1/udp/0/quic-v1"}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close() })
		nodes[i] = n
	}
	const echo = "/masque-test/echo/1"
	nodes[1].Host().SetStreamHandler(echo, func(s network.Stream) {
		defer s.Close()
		io.Copy(s, s)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b := nodes[1]
	var err error
	for range 20 { // the handshake itself may lose every packet for a while
		if err = nodes[0].Host().Connect(ctx, peer.AddrInfo{ID: b.ID(), Addrs: b.Host().Addrs()}); err == nil {
			break
		}
		nodes[0].clearBackoff(b.ID())
	}
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	s, err := nodes[0].Host().NewStream(ctx, b.ID(), echo)
	if err != nil {
		t.Fatalf("open stream: %v", err)
	}
	defer s.Reset()
	conn := s.Conn()
	s.SetDeadline(time.Now().Add(50 * time.Second))
	for i := range 150 {
		msg := []byte(fmt.Sprintf("round trip %03d over a lossy QUIC connection", i))
		if _, err := s.Write(msg); err != nil {
			t.Fatalf("round trip %d: write: %v (refused sends so far: %d)", i, err, refused.Load())
		}
		got := make([]byte, len(msg))
		if _, err := io.ReadFull(s, got); err != nil {
			t.Fatalf("round trip %d: read: %v (refused sends so far: %d)", i, err, refused.Load())
		}
		if !bytes.Equal(got, msg) {
			t.Fatalf("round trip %d: got %q", i, got)
		}
	}
	if conn.IsClosed() {
		t.Fatal("the connection closed")
	}
	if refused.Load() < 20 {
		t.Fatalf("only %d sends refused: the test did not test", refused.Load())
	}
	t.Logf("%d sends refused, the connection lived", refused.Load())
}

// TestQuietUDPConn: a refused send is reported as sent; other errors pass.
func TestQuietUDPConn(t *testing.T) {
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	other := errors.New("some other error")
	fail := refusedSend()
	q := &quietUDPConn{UDPConn: c, refuse: func() error { return fail }}
	to := c.LocalAddr().(*net.UDPAddr)
	if n, oobn, err := q.WriteMsgUDP([]byte("abc"), []byte{1}, to); err != nil || n != 3 || oobn != 1 {
		t.Errorf("WriteMsgUDP refused: %d, %d, %v; want 3, 1, nil", n, oobn, err)
	}
	if n, err := q.WriteTo([]byte("abcd"), to); err != nil || n != 4 {
		t.Errorf("WriteTo refused: %d, %v; want 4, nil", n, err)
	}
	fail = other
	if _, _, err := q.WriteMsgUDP([]byte("abc"), nil, to); !errors.Is(err, other) {
		t.Errorf("WriteMsgUDP: %v, want %v", err, other)
	}
	if _, err := q.WriteTo([]byte("abc"), to); !errors.Is(err, other) {
		t.Errorf("WriteTo: %v, want %v", err, other)
	}
	q.refuse = nil
	if n, err := q.WriteTo([]byte("abcde"), to); err != nil || n != 5 {
		t.Errorf("WriteTo: %d, %v; want 5, nil", n, err)
	}
}
