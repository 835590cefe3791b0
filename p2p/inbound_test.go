package p2p

import (
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	ma "github.com/multiformats/go-multiaddr"
)

// connAddrs is a connection's two addresses, as the gater is shown them.
type connAddrs struct{ local, remote ma.Multiaddr }

func (c connAddrs) LocalMultiaddr() ma.Multiaddr  { return c.local }
func (c connAddrs) RemoteMultiaddr() ma.Multiaddr { return c.remote }

// TestSlowInboundDroppedDial: a dialler tries its peer's addresses side
// by side and drops the others once one connection is up, and two peers
// dialling each other at once keep one connection: the accepted
// connection whose handshake never completes because its dialler dropped
// it is not "still connecting" (a host restarted on loopback said "the
// network is losing packets" of the players coming back). A connection
// accepted after another from the same address completed is still told
// of when it drags (TestSlowInbound), as is one from another address.
func TestSlowInboundDroppedDial(t *testing.T) {
	local := ma.StringCast("/ip4/127.0.0.1/tcp/4001")
	var told []string
	w := newInboundWatch()
	w.notify = func(remote ma.Multiaddr) { told = append(told, remote.String()) }

	// The joiner's TCP dial is accepted; its QUIC dial wins (or the
	// host's own dial to it completes) and the TCP one is dropped.
	w.InterceptAccept(connAddrs{local, ma.StringCast("/ip4/127.0.0.1/tcp/50001")})
	w.InterceptSecured(network.DirOutbound, "", connAddrs{local, ma.StringCast("/ip4/127.0.0.1/udp/50002/quic-v1")})
	// Another player's connection drags, with nothing else from it.
	w.InterceptAccept(connAddrs{local, ma.StringCast("/ip4/10.0.0.9/tcp/50003")})
	w.check(time.Now().Add(slowInbound + time.Second))
	if len(told) != 1 || told[0] != "/ip4/10.0.0.9/tcp/50003" {
		t.Fatalf("told of %q, want only the connection from 10.0.0.9", told)
	}

	// A connection accepted after the peer's completed one, and silent.
	told = nil
	w.InterceptAccept(connAddrs{local, ma.StringCast("/ip4/127.0.0.1/tcp/50004")})
	w.check(time.Now().Add(slowInbound + time.Second))
	if len(told) != 1 || told[0] != "/ip4/127.0.0.1/tcp/50004" {
		t.Fatalf("told of %q, want the silent connection accepted after the completed one", told)
	}
}
