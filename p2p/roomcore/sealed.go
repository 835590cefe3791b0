package roomcore

import (
	"crypto/ed25519"
	"errors"
	"fmt"

	"github.com/masque-games/masque/engine/ledger"
	"golang.org/x/crypto/cryptobyte"
)

// A sealed frame is a frame of the log or sync protocol signed by the
// seat it comes from, so that it may travel through another peer (a
// forwarder: the machine that serves a phone its page carries the
// phone's frames, docs/phones.md) and still be taken as that seat's.
// On a seat's own libp2p connection the connection says who sent a
// frame; through a forwarder only the seal does. The forwarder can drop,
// delay and replay sealed frames, and change none: every fact a frame
// states stays true once stated (a log only grows), and the one answer
// that is about a moment, a sync answer's end, names the request it
// answers (its nonce). docs/protocol.md, "Sealed frames".

// MsgSealed is the type of a sealed frame.
const MsgSealed = 16

// sealContext is the signature's domain separation.
const sealContext = "masque sealed frame v1\x00"

// maxSealedInner bounds a sealed frame's inner frame: the largest entry
// frame with its envelope.
const maxSealedInner = ledger.MaxBodyBytes + 4096

// Sealed is a decoded sealed frame.
type Sealed struct {
	Game ledger.Hash
	// Seat is the seat that sealed it (its signing key in the roster).
	Seat uint8
	// Nonce ties a sync answer to its request: a sync request carries a
	// fresh one, and every frame of its answer the same; 0 elsewhere.
	Nonce uint64
	// Frame is the inner frame (log or sync protocol, not itself sealed).
	Frame []byte
	Sig   [ed25519.SignatureSize]byte
}

// sealedBody is everything a seal signs after the context: the frame's
// bytes before the signature.
func sealedBody(game ledger.Hash, seat uint8, nonce uint64, frame []byte) []byte {
	var b cryptobyte.Builder
	b.AddUint8(MsgSealed)
	b.AddBytes(game[:])
	b.AddUint8(seat)
	b.AddUint64(nonce)
	b.AddUint32(uint32(len(frame)))
	b.AddBytes(frame)
	out, _ := b.Bytes()
	return out
}

// Seal signs frame as seat's: type 16, game id [32], seat u8, nonce u64,
// the frame (u32 length, bytes), then the Ed25519 signature over
// "masque sealed frame v1\x00" followed by every byte before it.
func Seal(key ed25519.PrivateKey, game ledger.Hash, seat uint8, nonce uint64, frame []byte) ([]byte, error) {
	if len(frame) == 0 || len(frame) > maxSealedInner {
		return nil, fmt.Errorf("roomcore: seal a frame of %d bytes (1 to %d)", len(frame), maxSealedInner)
	}
	if frame[0] == MsgSealed {
		return nil, errors.New("roomcore: seal a sealed frame")
	}
	body := sealedBody(game, seat, nonce, frame)
	sig := ed25519.Sign(key, append([]byte(sealContext), body...))
	return append(body, sig...), nil
}

// OpenSealed parses a sealed frame strictly and checks it: its game is
// game, its seat one of the roster's (keys), its signature that seat's,
// and its inner frame one of the log or sync protocol's (decoded, as
// msg). Errors say which check failed.
func OpenSealed(raw []byte, game ledger.Hash, keys []ed25519.PublicKey) (*Sealed, *Msg, error) {
	s := cryptobyte.String(raw)
	var typ uint8
	var n uint32
	sd := new(Sealed)
	var frame []byte
	if !s.ReadUint8(&typ) || typ != MsgSealed {
		return nil, nil, fmt.Errorf("sealed frame: type %d, want %d", typ, MsgSealed)
	}
	if !s.CopyBytes(sd.Game[:]) || !s.ReadUint8(&sd.Seat) || !s.ReadUint64(&sd.Nonce) ||
		!s.ReadUint32(&n) || n == 0 || n > maxSealedInner || !s.ReadBytes(&frame, int(n)) || !s.CopyBytes(sd.Sig[:]) {
		return nil, nil, errors.New("sealed frame: truncated or over a limit")
	}
	if !s.Empty() {
		return nil, nil, fmt.Errorf("sealed frame: %d trailing bytes after the signature", len(s))
	}
	if sd.Game != game {
		return nil, nil, fmt.Errorf("sealed frame for game %x, this table is %x", sd.Game[:4], game[:4])
	}
	if int(sd.Seat) >= len(keys) {
		return nil, nil, fmt.Errorf("sealed frame from seat %d; the table has %d", sd.Seat, len(keys))
	}
	signed := append([]byte(sealContext), raw[:len(raw)-ed25519.SignatureSize]...)
	if !ed25519.Verify(keys[sd.Seat], signed, sd.Sig[:]) {
		return nil, nil, fmt.Errorf("sealed frame from seat %d: bad signature (altered on the way, or not sealed by that seat)", sd.Seat)
	}
	sd.Frame = frame
	m, err := Decode(frame)
	if err != nil {
		return nil, nil, fmt.Errorf("sealed frame from seat %d: %w", sd.Seat, err)
	}
	if m.Type == MsgHello {
		return nil, nil, fmt.Errorf("sealed frame from seat %d: a hello is never sealed", sd.Seat)
	}
	if m.Type == MsgSyncReq && m.Game != game {
		return nil, nil, fmt.Errorf("sealed frame from seat %d: sync request for game %x", sd.Seat, m.Game[:4])
	}
	return sd, m, nil
}
