package table

import (
	"fmt"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/mental"
)

// A seat holds two secret mental keys, each with its own job:
//
//   - the card key x_i, its share of the joint key every card is masked
//     under: it makes the seat's decryption shares, and the table may
//     publish it after the game (or, in later games, when the seat leaves);
//   - the viewing key y_i: every private view (a peek, a card shown to
//     everyone but its owner) sends its shares encrypted to the viewer's
//     viewing key, so what one seat saw is readable by that seat alone,
//     and publishing its card key opens none of it. It is never published.
//
// The roster's Keys field of a seat holds both public keys, each with its
// proof of knowledge bound to the table id, the seat and the peer id:
//
//	card public key (96 bytes: X ‖ R ‖ s, label masque/key-pok/v1)
//	viewing public key (96 bytes: Y ‖ R ‖ s, label masque/view-key-pok/v1)
const (
	// SeatKeysSize is the length of a roster seat's Keys field.
	SeatKeysSize = 2 * publicKeySize
	// SeatSecretsSize is the length of SeatSecrets' encoding.
	SeatSecretsSize = 2 * mental.ScalarSize

	publicKeySize = 96
)

// SeatSecrets are a seat's two secret keys: Card, its share of the joint
// card key, and View, the key private views are encrypted to.
type SeatSecrets struct {
	Card *mental.SecretKey
	View *mental.SecretKey
}

// GenerateSeatSecrets draws both keys from crypto/rand.
func GenerateSeatSecrets() SeatSecrets {
	return SeatSecrets{Card: mental.GenerateKey(), View: mental.GenerateKey()}
}

// MarshalBinary encodes the card key then the viewing key (64 bytes), for
// the seat's own state directory.
func (s SeatSecrets) MarshalBinary() ([]byte, error) {
	if s.Card == nil || s.View == nil {
		return nil, fmt.Errorf("table: seat secrets need both keys")
	}
	return append(s.Card.Bytes(), s.View.Bytes()...), nil
}

// UnmarshalSeatSecrets decodes SeatSecrets strictly: two canonical
// non-zero scalars, different from each other.
func UnmarshalSeatSecrets(b []byte) (SeatSecrets, error) {
	if len(b) != SeatSecretsSize {
		return SeatSecrets{}, fmt.Errorf("seat keys are %d bytes, want %d (a card key and a viewing key)", len(b), SeatSecretsSize)
	}
	card, err := mental.SecretKeyFromBytes(b[:mental.ScalarSize])
	if err != nil {
		return SeatSecrets{}, fmt.Errorf("card key: %w", err)
	}
	view, err := mental.SecretKeyFromBytes(b[mental.ScalarSize:])
	if err != nil {
		return SeatSecrets{}, fmt.Errorf("viewing key: %w", err)
	}
	if card.Equal(view) {
		return SeatSecrets{}, fmt.Errorf("the card key and the viewing key are equal")
	}
	return SeatSecrets{Card: card, View: view}, nil
}

// PublicKeys returns the roster Keys field of these secrets at seat of the
// table tableID, for the peer peerID: both public keys with their proofs.
func (s SeatSecrets) PublicKeys(tableID [16]byte, seat int, peerID []byte) []byte {
	kc := KeyContext(tableID, seat, peerID)
	card, _ := s.Card.ProvePublic(kc).MarshalBinary()
	view, _ := s.View.ProveViewing(kc).MarshalBinary()
	return append(card, view...)
}

// SeatKeys are a roster seat's public keys, decoded and verified.
type SeatKeys struct {
	Card *mental.PublicKey
	View *mental.PublicKey
}

// DecodeSeatKeys decodes a roster seat's Keys field strictly, without
// verifying the proofs (they are bound to a seat: see VerifySeatKeys).
func DecodeSeatKeys(b []byte) (SeatKeys, error) {
	if len(b) != SeatKeysSize {
		return SeatKeys{}, fmt.Errorf("keys are %d bytes, want %d (a card key and a viewing key with their proofs)", len(b), SeatKeysSize)
	}
	card, err := mental.UnmarshalPublicKey(b[:publicKeySize])
	if err != nil {
		return SeatKeys{}, fmt.Errorf("card key: %w", err)
	}
	view, err := mental.UnmarshalPublicKey(b[publicKeySize:])
	if err != nil {
		return SeatKeys{}, fmt.Errorf("viewing key: %w", err)
	}
	return SeatKeys{Card: card, View: view}, nil
}

// VerifySeatKeys decodes the Keys field of roster seat seat strictly and
// verifies both proofs of knowledge under the table id, the seat and its
// peer id. The two keys must differ.
func VerifySeatKeys(tableID [16]byte, seat int, si ledger.SeatInfo) (SeatKeys, error) {
	keys, err := DecodeSeatKeys(si.Keys)
	if err != nil {
		return SeatKeys{}, err
	}
	card, view := keys.Card, keys.View
	kc := KeyContext(tableID, seat, si.PeerID)
	if err := card.Verify(kc); err != nil {
		return SeatKeys{}, err
	}
	if err := view.VerifyViewing(kc); err != nil {
		return SeatKeys{}, err
	}
	if card.X.Equal(view.X) == 1 {
		return SeatKeys{}, fmt.Errorf("the viewing key equals the card key")
	}
	return SeatKeys{Card: card, View: view}, nil
}
