package p2p

import (
	"context"
	"encoding/binary"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// maxQueue bounds the frames waiting for one peer. When it is exceeded the
// oldest are dropped: sync repairs whatever a peer missed.
const maxQueue = 4096

// sender owns the outgoing log stream to one peer: it dials, writes the
// hello, then writes queued frames in order, reconnecting with backoff.
type sender struct {
	room  *Room
	peer  peer.ID
	addrs []ma.Multiaddr

	mu       sync.Mutex
	queue    [][]byte
	draining bool
	wake     chan struct{}
	done     chan struct{}

	// moves counts the streams moved from a relayed connection onto a
	// direct one, cutMoves those of them whose receiver did not finish
	// the old stream in time (frames in flight on it may be lost).
	moves, cutMoves atomic.Int32
	// yieldUntil: until then, the sender waits for the peer (a lower
	// seat, which dials the higher ones when the run starts) to connect
	// rather than dial it too (see Room.Run).
	yieldUntil time.Time
}

// dialYield is how long, from the start of a run, a seat leaves dialing a
// lower seat to that seat. Two seats that dial each other at once make
// two connections (a handshake and an identify exchange each way), and
// the streams of each direction may take a different one, so that no
// acknowledgement rides on the other direction's frames: at a table of
// 13 about a third of a short game's packets (issue 28).
const dialYield = time.Second

func newSender(r *Room, p peer.ID, addrs []ma.Multiaddr) *sender {
	return &sender{room: r, peer: p, addrs: addrs, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// send queues a frame. An echo replaces an echo at the tail of the queue
// (not yet written): the newer one says as much about the log (entry
// hashes chain) and reports a later state, and an echo queued before an
// entry or verdict is never dropped, so a seat's echo of position p always
// reaches a peer before the seat's own entry p+1.
func (s *sender) send(frame []byte) {
	s.mu.Lock()
	if n := len(s.queue); n > 0 && frame[0] == msgEcho && s.queue[n-1][0] == msgEcho {
		s.queue[n-1] = frame
		s.mu.Unlock()
		s.signal()
		return
	}
	if len(s.queue) >= maxQueue {
		s.queue = s.queue[1:]
	}
	s.queue = append(s.queue, frame)
	s.mu.Unlock()
	s.signal()
}

func (s *sender) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// drain asks the sender to write what is queued, trying each frame once,
// and then stop.
func (s *sender) drain() {
	s.mu.Lock()
	s.draining = true
	s.mu.Unlock()
	s.signal()
}

func (s *sender) run(ctx context.Context) {
	defer close(s.done)
	var st network.Stream
	defer func() {
		if st != nil {
			st.Close()
		}
	}()
	backoff := 50 * time.Millisecond
	for {
		s.mu.Lock()
		draining := s.draining
		s.mu.Unlock()
		if st != nil && !draining && s.shouldMove(st) {
			// Hole punching made a direct connection: the next frame
			// goes on a new stream, which libp2p opens on it.
			from := st.Conn().RemoteMultiaddr()
			clean := finishStream(ctx, st)
			st = nil
			s.moves.Add(1)
			if !clean {
				s.cutMoves.Add(1)
			}
			if ctx.Err() != nil {
				return
			}
			s.room.node.log.Info("log stream moving to a direct connection", "peer", s.peer, "from", from, "clean", clean)
		}
		s.mu.Lock()
		q, draining := s.queue, s.draining
		s.queue = nil
		s.mu.Unlock()
		if len(q) == 0 {
			if draining {
				if st != nil {
					// The table is over here and the process may exit at
					// once: a stream closed, or a connection torn down,
					// right after the last write can lose frames still in
					// flight (QUIC discards unacknowledged stream data),
					// and a peer then waits its whole EndWait for our
					// done. Wait (bounded by drainSenders) until the
					// receiver has read to the end.
					if !finishStream(ctx, st) {
						s.room.node.log.Info("log stream to a peer not finished cleanly at the end: its last frames may be lost", "peer", s.peer)
					}
					st = nil
				}
				return
			}
			select {
			case <-s.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		if st == nil {
			var err error
			began := time.Now()
			st, err = s.open(ctx)
			if took := time.Since(began); took > slowOpen {
				// Frames queued meanwhile reach the peer that much late
				// (see lateApply): say so, with the cause if it failed.
				seat, _ := s.room.seatOf(s.peer)
				s.room.node.log.Info("log stream to a peer slow to open", "peer", s.peer, "seat", seat, "took", took.Round(time.Millisecond),
					"frames", len(q), "err", err)
			}
			if err != nil {
				if draining || ctx.Err() != nil {
					return
				}
				s.requeue(q)
				select {
				case <-time.After(backoff):
				case <-ctx.Done():
					return
				}
				backoff = min(2*backoff, 2*time.Second)
				continue
			}
			backoff = 50 * time.Millisecond
		}
		// A stuck peer must not hold the sender (and Room.Close) for long,
		// least of all when the table is over.
		wait := 10 * time.Second
		if draining {
			wait = time.Second
		}
		st.SetWriteDeadline(time.Now().Add(wait))
		// The queued frames in few writes (fewer packets), at most
		// writeChunk bytes each: after a failure the frames not known to
		// have left are queued again; the receiver ignores what it has.
		var buf []byte
		first := 0
		for i, f := range q {
			buf = binary.BigEndian.AppendUint32(buf, uint32(len(f)))
			buf = append(buf, f...)
			if i < len(q)-1 && len(buf) < writeChunk {
				continue
			}
			if _, err := st.Write(buf); err != nil {
				s.room.node.log.Debug("log stream write failed", "peer", s.peer, "frames", len(q)-first, "err", err)
				st.Reset()
				st = nil
				if !draining {
					s.requeue(q[first:])
				}
				break
			}
			buf, first = buf[:0], i+1
		}
	}
}

// slowOpen is how long opening a log stream (dialing the peer if need be)
// may take before it is logged.
const slowOpen = 500 * time.Millisecond

// writeChunk is the size of one write of queued frames (larger frames are
// written alone).
const writeChunk = 64 << 10

func (s *sender) requeue(q [][]byte) {
	s.mu.Lock()
	s.queue = append(q, s.queue...)
	if len(s.queue) > maxQueue {
		s.queue = s.queue[len(s.queue)-maxQueue:]
	}
	s.mu.Unlock()
}

// awaitDial waits, until yieldUntil, for the peer to connect to us (see
// dialYield): the log stream and sync requests to a lower seat wait for
// its dial at the start of a run rather than make a second connection.
func (s *sender) awaitDial(ctx context.Context) error {
	nw := s.room.node.host.Network()
	for time.Now().Before(s.yieldUntil) {
		if c := nw.Connectedness(s.peer); c == network.Connected || c == network.Limited {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	return nil
}

// connect dials the peer, unless a connection to it is open; a failure
// is left to the sender's next attempt.
func (s *sender) connect(ctx context.Context) {
	ctx, cancel := context.WithTimeout(allowLimited(ctx), 5*time.Second)
	defer cancel()
	h := s.room.node.host
	if c := h.Network().Connectedness(s.peer); c == network.Connected || c == network.Limited {
		return
	}
	s.room.node.clearBackoff(s.peer)
	if err := h.Connect(ctx, peer.AddrInfo{ID: s.peer, Addrs: s.addrs}); err != nil {
		s.room.node.log.Debug("dial at the start of the run failed", "peer", s.peer, "err", err)
	}
}

func (s *sender) open(ctx context.Context) (network.Stream, error) {
	ctx, cancel := context.WithTimeout(allowLimited(ctx), 5*time.Second)
	defer cancel()
	h := s.room.node.host
	// Where an open's time goes, at debug level (.ci/lanstats): the wait
	// for the lower seat's dial, our own dial, the stream's negotiation.
	began := time.Now()
	var yielded, dialed time.Time
	defer func() {
		if log := s.room.node.log; log.Enabled(ctx, slog.LevelDebug) && !dialed.IsZero() {
			seat, _ := s.room.seatOf(s.peer)
			log.Debug("log stream opened", "seat", seat, "yield", yielded.Sub(began), "dial", dialed.Sub(yielded),
				"stream", time.Since(dialed))
		}
	}()
	if err := s.awaitDial(ctx); err != nil {
		return nil, err
	}
	yielded = time.Now()
	if c := h.Network().Connectedness(s.peer); c != network.Connected && c != network.Limited {
		// Our own backoff paces these attempts: the swarm's (seconds,
		// growing) would outlast a relay restart.
		s.room.node.clearBackoff(s.peer)
		if err := h.Connect(ctx, peer.AddrInfo{ID: s.peer, Addrs: s.addrs}); err != nil {
			return nil, err
		}
	}
	dialed = time.Now()
	st, err := newStreamNow(ctx, h, s.peer, ProtocolLog)
	if err != nil {
		return nil, err
	}
	if err := WriteFrame(st, encodeHello(s.room.game, s.room.self)); err != nil {
		st.Reset()
		return nil, err
	}
	return st, nil
}
