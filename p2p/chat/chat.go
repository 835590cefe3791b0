// Package chat is a networked table's chat: short public messages, each
// signed by its author's seat signing key (the Ed25519 key of the roster
// seat, the one that signs the seat's entries), kept out of the game's log
// and its rules, and saved beside the transcript in a file of their own.
//
// A message names its game (the roster's game id), its seat and a
// sequence number that increases with each message of that seat, so a
// message cannot be moved to another table or replayed. Text is cleaned
// by [Clean] before it is signed (control and bidirectional-override
// characters removed, at most [MaxText] bytes) and [Verify] refuses any
// that was not. [Limiter] is the per-author rate limit both the author
// and every receiver apply.
//
// The byte formats (a message, its stream frame, the chat file) are in
// docs/protocol.md §11.
package chat

import (
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Limits.
const (
	// MaxText is the most bytes of text in one message.
	MaxText = 280
	// MaxMessage is the most bytes of an encoded message.
	MaxMessage = 32 + 1 + 4 + 8 + 2 + MaxText + ed25519.SignatureSize
	// MaxPerAuthor is the most messages of one seat a peer keeps for a
	// game (it stops accepting the seat's messages beyond).
	MaxPerAuthor = 1000
)

// signLabel separates a chat signature from every other signature of a
// seat's key (entries, rosters).
const signLabel = "masque/chat/v1\x00"

// Message is one chat message.
type Message struct {
	Game [32]byte  // the roster's game id
	Seat uint8     // the author's seat
	Seq  uint32    // 1 for the seat's first message, then one more each
	Time time.Time // when the author wrote it (its clock; to the millisecond)
	Text string
	Sig  [ed25519.SignatureSize]byte
}

// ErrDecode is wrapped by every decoding error.
var ErrDecode = errors.New("chat: malformed message")

// ErrEmpty is [Clean]'s error for a message with nothing left to say.
var ErrEmpty = errors.New("chat: empty message")

// Clean makes text fit for a message: control characters become spaces
// (tabs, newlines) or go, bidirectional overrides and isolates go (they
// can make a line read as something else), runs of spaces become one,
// leading and trailing spaces go, and the text is cut to MaxText bytes on
// a character boundary. Invalid UTF-8 becomes U+FFFD. Nothing left is
// ErrEmpty.
func Clean(text string) (string, error) {
	var b strings.Builder
	space := false
	for _, r := range strings.ToValidUTF8(text, "\uFFFD") {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == ' ' || unicode.IsSpace(r):
			space = true
			continue
		case !allowed(r):
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		if b.Len()+utf8.RuneLen(r) > MaxText {
			break
		}
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return "", ErrEmpty
	}
	return b.String(), nil
}

// allowed reports whether r may appear in a message's text.
func allowed(r rune) bool {
	if unicode.IsControl(r) {
		return false
	}
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return false // bidirectional embeddings, overrides, isolates, marks
	case r == 0x2028 || r == 0x2029:
		return false // line and paragraph separators
	}
	return true
}

// validText reports whether text is as Clean leaves it.
func validText(text string) bool {
	c, err := Clean(text)
	return err == nil && c == text
}

// body is the signed part of m.
func (m *Message) body() []byte {
	b := make([]byte, 0, MaxMessage)
	b = append(b, m.Game[:]...)
	b = append(b, m.Seat)
	b = binary.BigEndian.AppendUint32(b, m.Seq)
	b = binary.BigEndian.AppendUint64(b, uint64(m.Time.UnixMilli()))
	b = binary.BigEndian.AppendUint16(b, uint16(len(m.Text)))
	return append(b, m.Text...)
}

// Sign cleans nothing: it signs m (whose text must be as Clean left it)
// with the seat's key.
func (m *Message) Sign(key ed25519.PrivateKey) error {
	if !validText(m.Text) {
		return fmt.Errorf("chat: sign: the text is not clean (use chat.Clean)")
	}
	if m.Seq == 0 {
		return errors.New("chat: sign: sequence numbers start at 1")
	}
	m.Time = time.UnixMilli(m.Time.UnixMilli())
	copy(m.Sig[:], ed25519.Sign(key, append([]byte(signLabel), m.body()...)))
	return nil
}

// Verify checks m's signature with its seat's public key, and that its
// text is clean and within MaxText.
func (m *Message) Verify(key ed25519.PublicKey) error {
	if len(key) != ed25519.PublicKeySize {
		return fmt.Errorf("chat: seat %d: no signing key", m.Seat)
	}
	if !validText(m.Text) {
		return fmt.Errorf("chat: seat %d message %d: the text has control characters, is empty or too long", m.Seat, m.Seq)
	}
	if m.Seq == 0 {
		return fmt.Errorf("chat: seat %d: sequence number 0", m.Seat)
	}
	if !ed25519.Verify(key, append([]byte(signLabel), m.body()...), m.Sig[:]) {
		return fmt.Errorf("chat: seat %d message %d: bad signature", m.Seat, m.Seq)
	}
	return nil
}

// Marshal encodes m: its body, then its signature.
func (m *Message) Marshal() []byte {
	return append(m.body(), m.Sig[:]...)
}

// Unmarshal decodes a message strictly: exact lengths, text of at most
// MaxText bytes of UTF-8, nothing after the signature. It does not check
// the signature ([Message.Verify] does).
func Unmarshal(b []byte) (*Message, error) {
	const fixed = 32 + 1 + 4 + 8 + 2
	if len(b) < fixed+ed25519.SignatureSize {
		return nil, fmt.Errorf("%w: %d bytes, at least %d", ErrDecode, len(b), fixed+ed25519.SignatureSize)
	}
	if len(b) > MaxMessage {
		return nil, fmt.Errorf("%w: %d bytes, at most %d", ErrDecode, len(b), MaxMessage)
	}
	m := &Message{}
	copy(m.Game[:], b[:32])
	m.Seat = b[32]
	m.Seq = binary.BigEndian.Uint32(b[33:])
	ms := binary.BigEndian.Uint64(b[37:])
	if ms > 1<<62 {
		return nil, fmt.Errorf("%w: time %d ms", ErrDecode, ms)
	}
	m.Time = time.UnixMilli(int64(ms))
	n := int(binary.BigEndian.Uint16(b[45:]))
	if n > MaxText {
		return nil, fmt.Errorf("%w: %d bytes of text, at most %d", ErrDecode, n, MaxText)
	}
	if len(b) != fixed+n+ed25519.SignatureSize {
		return nil, fmt.Errorf("%w: %d bytes for %d of text", ErrDecode, len(b), n)
	}
	text := b[fixed : fixed+n]
	if !utf8.Valid(text) {
		return nil, fmt.Errorf("%w: text is not UTF-8", ErrDecode)
	}
	m.Text = string(text)
	copy(m.Sig[:], b[fixed+n:])
	return m, nil
}

// Limiter is the per-author rate limit: a burst of Burst messages, then
// one every Every. The author's own screen and every receiver apply it;
// a receiver's is a little more lenient (ReceiveLimiter), so that
// messages bunched by the network are not lost. Not safe for concurrent
// use.
type Limiter struct {
	Burst int
	Every time.Duration
	state map[uint8]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

// SendLimiter is the author's limit: 5 messages, then one every 3 s.
func SendLimiter() *Limiter { return &Limiter{Burst: 5, Every: 3 * time.Second} }

// ReceiveLimiter is a receiver's limit: 8 messages, then one every 3 s.
func ReceiveLimiter() *Limiter { return &Limiter{Burst: 8, Every: 3 * time.Second} }

// Allow takes one message of seat at now from its budget, reporting
// whether there was one; Wait says how long until there is.
func (l *Limiter) Allow(seat uint8, now time.Time) bool {
	b := l.get(seat, now)
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Wait is how long after now seat may send again.
func (l *Limiter) Wait(seat uint8, now time.Time) time.Duration {
	b := l.get(seat, now)
	if b.tokens >= 1 {
		return 0
	}
	return time.Duration((1 - b.tokens) * float64(l.Every))
}

func (l *Limiter) get(seat uint8, now time.Time) *bucket {
	if l.state == nil {
		l.state = map[uint8]*bucket{}
	}
	b := l.state[seat]
	if b == nil {
		b = &bucket{tokens: float64(l.Burst), last: now}
		l.state[seat] = b
	}
	if d := now.Sub(b.last); d > 0 && l.Every > 0 {
		b.tokens = min(float64(l.Burst), b.tokens+float64(d)/float64(l.Every))
		b.last = now
	}
	return b
}
