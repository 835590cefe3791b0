// Package directory is the relay's small directory of open tables, for
// joining by code across the internet: a table's creator publishes its
// table (code, name, game, seats, its peer id and circuit addresses) on
// the relays it uses, 'masque lobby --relay' lists them and
// 'masque join CODE --relay' finds a table there.
//
// The directory is untrusted. The relay takes a creator's peer id from
// the libp2p connection (authenticated by the Noise handshake), so a
// creator can publish and withdraw only its own entries; everything else
// in an entry is the creator's claim, and the relay could lie about all
// of it. A joiner therefore recomputes the join code from the entry's
// table id and creator peer id ([lobby.Code]), dials that peer id (which
// libp2p authenticates) and checks the signed roster as on a LAN; when
// several creators answer to a code or name, the joiner is told, never
// left to a silent choice.
//
// The wire format (stream protocol [Protocol]) is in docs/protocol.md,
// "The relay's table directory". One request and one response per
// stream; decoding is strict: lengths are bounded, counts are capped,
// trailing bytes are an error.
package directory

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"
	"unicode/utf8"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/masque-games/masque/p2p/lobby"
)

// Protocol is the directory's stream protocol.
const Protocol protocol.ID = "/masque/directory/1"

// Operations of a request.
const (
	OpPublish  = 1 // publish or refresh one of the caller's tables
	OpWithdraw = 2 // withdraw one of the caller's tables
	OpList     = 3 // list the open tables (all, or those with one code)
	// OpPublishPlaying publishes or refreshes one of the caller's tables
	// whose game is under way, for spectators (the body is OpPublish's);
	// it replaces the caller's open entry of that table id, if any.
	OpPublishPlaying = 4
	// OpListPlaying lists the tables in play (all, or those with one
	// code; the body and the response are OpList's). OpList never lists
	// them: a client older than these operations sees no table it could
	// mistake for an open one.
	OpListPlaying = 5
)

// Status is a response's status byte.
type Status uint8

// Response statuses.
const (
	StatusOK          Status = 0
	StatusBadRequest  Status = 1 // the request does not decode
	StatusRateLimited Status = 2 // too many requests from this peer or IP address
	StatusFull        Status = 3 // the directory, or the caller's share of it, is full
	StatusNotFound    Status = 4 // withdraw: the caller has no such table
)

func (s Status) String() string {
	switch s {
	case StatusOK:
		return "ok"
	case StatusBadRequest:
		return "bad request"
	case StatusRateLimited:
		return "rate limited"
	case StatusFull:
		return "directory full"
	case StatusNotFound:
		return "not found"
	}
	return fmt.Sprintf("status %d", uint8(s))
}

// Limits of the wire format: a decoder refuses anything beyond them.
const (
	MaxRequest  = 4096    // bytes of a request body
	MaxResponse = 1 << 20 // bytes of a response body
	MaxName     = 64      // bytes of a table name
	MaxGame     = 32      // bytes of a game name
	MaxOptions  = 160     // bytes of the options summary
	MaxPlayers  = 16      // names of seated players
	MaxPlayer   = 32      // bytes of a player name
	MaxAddrs    = 8       // addresses of a table
	MaxAddr     = 255     // bytes of one binary multiaddr
	MaxPeerID   = 64      // bytes of a binary peer id
	MaxMessage  = 200     // bytes of a response's message
	MaxList     = 128     // tables in one list response
	MaxTTL      = 600     // seconds an entry may ask to live
)

// Request is a decoded request.
type Request struct {
	Op int
	// TTL (publish) is how long the entry lives unless refreshed.
	TTL time.Duration
	// Table (publish) is the entry; its Peer is not on the wire (the
	// relay takes it from the connection).
	Table lobby.Table
	// ID (withdraw) is the table id.
	ID [16]byte
	// Code (list), if not empty, selects the tables with this join code
	// (canonical form, as lobby.ParseCode returns it).
	Code string
}

// Entry is one table of a list response.
type Entry struct {
	Table lobby.Table // with Peer, the creator as the relay authenticated it
	TTL   time.Duration
}

// Response is a decoded response.
type Response struct {
	Status  Status
	Message string
	Entries []Entry // list only
}

// ErrDecode is wrapped by every decoding error.
var ErrDecode = errors.New("directory: malformed message")

// writer appends fields.
type writer struct{ b []byte }

func (w *writer) u8(v int)     { w.b = append(w.b, byte(v)) }
func (w *writer) u16(v int)    { w.b = binary.BigEndian.AppendUint16(w.b, uint16(v)) }
func (w *writer) raw(b []byte) { w.b = append(w.b, b...) }
func (w *writer) str8(s string, max int) {
	s = truncate(s, max)
	w.u8(len(s))
	w.raw([]byte(s))
}

// truncate cuts s to at most n bytes on a UTF-8 boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// reader consumes fields; the first error sticks.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: "+format, append([]any{ErrDecode}, args...)...)
	}
}

func (r *reader) take(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b) {
		r.fail("%s: want %d bytes, %d left", what, n, len(r.b))
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u8(what string) int {
	b := r.take(1, what)
	if b == nil {
		return 0
	}
	return int(b[0])
}

func (r *reader) u16(what string) int {
	b := r.take(2, what)
	if b == nil {
		return 0
	}
	return int(binary.BigEndian.Uint16(b))
}

func (r *reader) str8(what string, max int) string {
	n := r.u8(what + " length")
	if r.err == nil && n > max {
		r.fail("%s: %d bytes, at most %d", what, n, max)
		return ""
	}
	b := r.take(n, what)
	if r.err == nil && !utf8.Valid(b) {
		r.fail("%s: not UTF-8", what)
		return ""
	}
	return string(b)
}

func (r *reader) end(what string) {
	if r.err == nil && len(r.b) != 0 {
		r.fail("%s: %d trailing bytes", what, len(r.b))
	}
}

// appendTable writes a table record (without its creator).
func appendTable(w *writer, t lobby.Table) {
	w.raw(t.ID[:])
	w.u8(clampByte(t.Version))
	w.u8(clampByte(t.Taken))
	w.u8(clampByte(t.Total))
	w.str8(t.Name, MaxName)
	w.str8(t.Game, MaxGame)
	w.str8(t.Options, MaxOptions)
	players := t.Players[:min(len(t.Players), MaxPlayers)]
	w.u8(len(players))
	for _, p := range players {
		w.str8(p, MaxPlayer)
	}
	var addrs [][]byte
	for _, a := range t.Addrs {
		if b := a.Bytes(); len(b) <= MaxAddr && len(addrs) < MaxAddrs {
			addrs = append(addrs, b)
		}
	}
	w.u8(len(addrs))
	for _, b := range addrs {
		w.u8(len(b))
		w.raw(b)
	}
}

func clampByte(v int) int { return max(0, min(v, 255)) }

// readTable reads a table record.
func readTable(r *reader) lobby.Table {
	var t lobby.Table
	copy(t.ID[:], r.take(16, "table id"))
	t.Version = r.u8("version")
	t.Taken = r.u8("seats taken")
	t.Total = r.u8("seats")
	if r.err == nil && (t.Total < 1 || t.Taken > t.Total) {
		r.fail("seats %d/%d", t.Taken, t.Total)
	}
	t.Name = r.str8("name", MaxName)
	t.Game = r.str8("game", MaxGame)
	t.Options = r.str8("options", MaxOptions)
	n := r.u8("players")
	if r.err == nil && n > MaxPlayers {
		r.fail("%d players, at most %d", n, MaxPlayers)
	}
	for i := 0; i < n && r.err == nil; i++ {
		t.Players = append(t.Players, r.str8(fmt.Sprintf("player %d", i), MaxPlayer))
	}
	n = r.u8("addresses")
	if r.err == nil && n > MaxAddrs {
		r.fail("%d addresses, at most %d", n, MaxAddrs)
	}
	for i := 0; i < n && r.err == nil; i++ {
		b := r.take(r.u8("address length"), "address")
		if r.err != nil {
			break
		}
		a, err := ma.NewMultiaddrBytes(b)
		if err != nil {
			r.fail("address %d: %v", i, err)
			break
		}
		t.Addrs = append(t.Addrs, a)
	}
	return t
}

// MarshalRequest encodes a request body (without its length prefix).
func MarshalRequest(q Request) ([]byte, error) {
	w := &writer{}
	w.u8(q.Op)
	switch q.Op {
	case OpPublish, OpPublishPlaying:
		ttl := int(q.TTL / time.Second)
		if ttl < 1 || ttl > MaxTTL {
			return nil, fmt.Errorf("directory: publish: ttl %v: want 1s..%ds", q.TTL, MaxTTL)
		}
		w.u16(ttl)
		appendTable(w, q.Table)
	case OpWithdraw:
		w.raw(q.ID[:])
	case OpList, OpListPlaying:
		code, err := wireCode(q.Code)
		if err != nil {
			return nil, err
		}
		w.u8(len(code))
		w.raw([]byte(code))
	default:
		return nil, fmt.Errorf("directory: unknown operation %d", q.Op)
	}
	if len(w.b) > MaxRequest {
		return nil, fmt.Errorf("directory: request of %d bytes, at most %d", len(w.b), MaxRequest)
	}
	return w.b, nil
}

// wireCode is a code's 12 characters without dashes ("" stays "").
func wireCode(code string) (string, error) {
	if code == "" {
		return "", nil
	}
	c, err := lobby.ParseCode(code)
	if err != nil {
		return "", fmt.Errorf("directory: list: %w", err)
	}
	out := make([]byte, 0, lobby.CodeChars)
	for i := 0; i < len(c); i++ {
		if c[i] != '-' {
			out = append(out, c[i])
		}
	}
	return string(out), nil
}

// UnmarshalRequest decodes a request body strictly.
func UnmarshalRequest(b []byte) (Request, error) {
	if len(b) > MaxRequest {
		return Request{}, fmt.Errorf("%w: request of %d bytes, at most %d", ErrDecode, len(b), MaxRequest)
	}
	r := &reader{b: b}
	q := Request{Op: r.u8("operation")}
	switch {
	case r.err != nil:
	case q.Op == OpPublish || q.Op == OpPublishPlaying:
		ttl := r.u16("ttl")
		if r.err == nil && (ttl < 1 || ttl > MaxTTL) {
			r.fail("ttl %d s: want 1..%d", ttl, MaxTTL)
		}
		q.TTL = time.Duration(ttl) * time.Second
		q.Table = readTable(r)
		q.Table.Playing = q.Op == OpPublishPlaying
	case q.Op == OpWithdraw:
		copy(q.ID[:], r.take(16, "table id"))
	case q.Op == OpList || q.Op == OpListPlaying:
		n := r.u8("code length")
		if r.err == nil && n != 0 && n != lobby.CodeChars {
			r.fail("code of %d characters: want 0 or %d", n, lobby.CodeChars)
		}
		if c := r.take(n, "code"); r.err == nil && n > 0 {
			code, err := lobby.ParseCode(string(c))
			if err != nil || !isCanonical(c) {
				r.fail("code %q", c)
			}
			q.Code = code
		}
	default:
		r.fail("unknown operation %d", q.Op)
	}
	r.end("request")
	if r.err != nil {
		return Request{}, r.err
	}
	return q, nil
}

// isCanonical: only the alphabet's upper-case characters.
func isCanonical(c []byte) bool {
	for _, x := range c {
		if !(x >= '0' && x <= '9' || x >= 'A' && x <= 'Z') || x == 'I' || x == 'L' || x == 'O' || x == 'U' {
			return false
		}
	}
	return true
}

// MarshalResponse encodes a response body (without its length prefix).
func MarshalResponse(p Response) ([]byte, error) {
	if len(p.Entries) > MaxList {
		return nil, fmt.Errorf("directory: %d entries, at most %d", len(p.Entries), MaxList)
	}
	w := &writer{}
	w.u8(int(p.Status))
	w.str8(p.Message, MaxMessage)
	if p.Status == StatusOK {
		w.u16(len(p.Entries))
		for i, e := range p.Entries {
			id := []byte(e.Table.Peer)
			if len(id) == 0 || len(id) > MaxPeerID {
				return nil, fmt.Errorf("directory: entry %d: peer id of %d bytes", i, len(id))
			}
			w.u8(len(id))
			w.raw(id)
			w.u16(max(0, min(int(e.TTL/time.Second), MaxTTL)))
			appendTable(w, e.Table)
		}
	}
	if len(w.b) > MaxResponse {
		return nil, fmt.Errorf("directory: response of %d bytes, at most %d", len(w.b), MaxResponse)
	}
	return w.b, nil
}

// UnmarshalResponse decodes a response body strictly.
func UnmarshalResponse(b []byte) (Response, error) {
	if len(b) > MaxResponse {
		return Response{}, fmt.Errorf("%w: response of %d bytes, at most %d", ErrDecode, len(b), MaxResponse)
	}
	r := &reader{b: b}
	p := Response{Status: Status(r.u8("status"))}
	p.Message = r.str8("message", MaxMessage)
	if r.err == nil && p.Status == StatusOK {
		n := r.u16("entries")
		if r.err == nil && n > MaxList {
			r.fail("%d entries, at most %d", n, MaxList)
		}
		for i := 0; i < n && r.err == nil; i++ {
			l := r.u8("peer id length")
			if r.err == nil && (l < 1 || l > MaxPeerID) {
				r.fail("entry %d: peer id of %d bytes", i, l)
				break
			}
			id, err := peer.IDFromBytes(r.take(l, "peer id"))
			if r.err == nil && err != nil {
				r.fail("entry %d: peer id: %v", i, err)
				break
			}
			ttl := time.Duration(r.u16("ttl")) * time.Second
			t := readTable(r)
			t.Peer = id
			p.Entries = append(p.Entries, Entry{Table: t, TTL: ttl})
		}
	}
	r.end("response")
	if r.err != nil {
		return Response{}, r.err
	}
	return p, nil
}

// writeFrame writes a length-prefixed body: a 2-byte length for a
// request, 4 bytes for a response.
func writeFrame(w io.Writer, body []byte, lenBytes int) error {
	hdr := make([]byte, lenBytes)
	if lenBytes == 2 {
		binary.BigEndian.PutUint16(hdr, uint16(len(body)))
	} else {
		binary.BigEndian.PutUint32(hdr, uint32(len(body)))
	}
	_, err := w.Write(append(hdr, body...))
	return err
}

// readFrame reads a length-prefixed body of at most limit bytes, refusing
// a longer one before reading it.
func readFrame(r io.Reader, lenBytes, limit int) ([]byte, error) {
	hdr := make([]byte, lenBytes)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return nil, fmt.Errorf("directory: read length: %w", err)
	}
	var n int
	if lenBytes == 2 {
		n = int(binary.BigEndian.Uint16(hdr))
	} else {
		n = int(binary.BigEndian.Uint32(hdr))
	}
	if n > limit {
		return nil, fmt.Errorf("%w: %d bytes announced, at most %d", ErrDecode, n, limit)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("directory: read %d bytes: %w", n, err)
	}
	return body, nil
}
