package p2p

import (
	"context"
	"errors"
	"net"
	"os"
	"syscall"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/p2p/transport/quicreuse"
	quicgo "github.com/quic-go/quic-go"
	"go.uber.org/fx"
)

// QUIC and refused sends.
//
// A firewall on this machine that drops an outgoing packet (a netfilter
// DROP in the OUTPUT chain, a full conntrack table) makes sendmsg fail
// with EPERM. TCP takes that as a lost segment and retransmits; quic-go
// closes the whole connection on any send error but the first (which it
// retries once). With a few percent of sends refused, every QUIC
// connection of a table died within seconds, and the reconnections ran
// into the resource manager's per-IP rate limit: QUIC tables did not seat
// at all at 20% loss, TCP ones did. The UDP sockets of a node therefore
// report a refused send as sent: the packet is lost, and QUIC's loss
// recovery resends it as it resends any packet lost on the way.

// quietUDPConn is a UDP socket whose sends refused by the local firewall
// (EPERM) count as lost packets rather than errors. It keeps every method
// of *net.UDPConn (quic-go reads in batches and writes with GSO and ECN
// through them).
type quietUDPConn struct {
	*net.UDPConn
	// refuse, set by tests only, makes a send fail as the kernel's
	// refusal would, before it reaches the socket.
	refuse func() error
}

// isRefusedSend reports whether err is the kernel refusing a send
// (EPERM: a local firewall dropped the packet).
func isRefusedSend(err error) bool {
	return errors.Is(err, syscall.EPERM)
}

// WriteMsgUDP is quic-go's send path (with control messages for GSO and
// ECN); a refused send is reported as sent.
func (c *quietUDPConn) WriteMsgUDP(b, oob []byte, addr *net.UDPAddr) (n, oobn int, err error) {
	if c.refuse != nil {
		err = c.refuse()
	}
	if err == nil {
		n, oobn, err = c.UDPConn.WriteMsgUDP(b, oob, addr)
	}
	if err != nil && isRefusedSend(err) {
		return len(b), len(oob), nil
	}
	return n, oobn, err
}

// WriteTo is the plain send path (hole punching's packets, and quic-go
// without control messages); a refused send is reported as sent.
func (c *quietUDPConn) WriteTo(b []byte, addr net.Addr) (n int, err error) {
	if c.refuse != nil {
		err = c.refuse()
	}
	if err == nil {
		n, err = c.UDPConn.WriteTo(b, addr)
	}
	if err != nil && isRefusedSend(err) {
		return len(b), nil
	}
	return n, err
}

// listenQuietUDP opens the UDP sockets of a node's QUIC transport.
// testRefuse, if set (tests only), is given to every socket.
func listenQuietUDP(network string, laddr *net.UDPAddr) (net.PacketConn, error) {
	c, err := net.ListenUDP(network, laddr)
	if err != nil {
		return nil, err
	}
	return &quietUDPConn{UDPConn: c, refuse: testRefuse}, nil
}

// testRefuse is set by tests to make sends fail as refused ones do.
var testRefuse func() error

// refusedSend is the error the kernel gives for a send its firewall
// dropped, as quic-go sees it.
func refusedSend() error { return os.NewSyscallError("sendmsg", syscall.EPERM) }

// quicReuseOption is libp2p's own QUIC connection manager (the one it
// builds without this option: connections accounted in the resource
// manager from their first packet, source addresses verified under load)
// with sockets that take a refused send as a lost packet
// (quietUDPConn).
func quicReuseOption() libp2p.Option {
	return libp2p.QUICReuse(func(key quicgo.StatelessResetKey, tokens quicgo.TokenGeneratorKey,
		rcmgr network.ResourceManager, lc fx.Lifecycle) (*quicreuse.ConnManager, error) {
		cm, err := quicreuse.NewConnManager(key, tokens,
			quicreuse.OverrideListenUDP(listenQuietUDP),
			quicreuse.ConnContext(func(ctx context.Context, ci *quicgo.ClientInfo) (context.Context, error) {
				// As libp2p's: even an address that does not convert
				// goes to the resource manager, which decides.
				addr, err := quicreuse.ToQuicMultiaddr(ci.RemoteAddr, quicgo.Version1)
				if err != nil {
					addr = nil
				}
				scope, err := rcmgr.OpenConnection(network.DirInbound, false, addr)
				if err != nil {
					return ctx, err
				}
				ctx = network.WithConnManagementScope(ctx, scope)
				context.AfterFunc(ctx, scope.Done)
				return ctx, nil
			}),
			quicreuse.VerifySourceAddress(rcmgr.VerifySourceAddress))
		if err != nil {
			return nil, err
		}
		lc.Append(fx.StopHook(cm.Close))
		return cm, nil
	})
}
