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
	return verifySeatKeys(tableID, seat, si, true)
}

// verifySeatKeys is VerifySeatKeys, but with cardProof false it leaves
// the card key's proof to the caller (mental.NewJointKey checks it under
// the same context).
func verifySeatKeys(tableID [16]byte, seat int, si ledger.SeatInfo, cardProof bool) (SeatKeys, error) {
	keys, err := DecodeSeatKeys(si.Keys)
	if err != nil {
		return SeatKeys{}, err
	}
	card, view := keys.Card, keys.View
	kc := KeyContext(tableID, seat, si.PeerID)
	if cardProof {
		if err := card.Verify(kc); err != nil {
			return SeatKeys{}, err
		}
	}
	if err := view.VerifyViewing(kc); err != nil {
		return SeatKeys{}, err
	}
	if card.X.Equal(view.X) == 1 {
		return SeatKeys{}, fmt.Errorf("the viewing key equals the card key")
	}
	return SeatKeys{Card: card, View: view}, nil
}

// rosterKeys verifies every roster seat's keys (VerifySeatKeys), checks
// that no viewing key is a card key or another seat's viewing key, and
// builds the joint key. Each card key's proof is checked once, by
// mental.NewJointKey (under the context VerifySeatKeys uses), not also
// seat by seat (issue 28: twice was 1.6 % of a LAN process's CPU). If
// any check fails, they all run again seat by seat in their first order
// (every check of seat 0, then of seat 1, …), so the Fault names the
// seat and reason the seat-by-seat checks find first.
func rosterKeys(roster *ledger.Roster) (*mental.JointKey, []*mental.Element, error) {
	keys, kcs, views, err := rosterSeatKeys(roster, false)
	if err == nil {
		jk, err := mental.NewJointKey(keys, kcs)
		if err == nil {
			return jk, views, nil
		}
	}
	if keys, kcs, views, err = rosterSeatKeys(roster, true); err != nil {
		return nil, nil, err
	}
	jk, err := mental.NewJointKey(keys, kcs)
	if err != nil {
		return nil, nil, fmt.Errorf("table: %w", err)
	}
	return jk, views, nil
}

// rosterSeatKeys checks the roster's seats' keys one seat after another
// (the card keys' proofs only if cardProof), then the viewing keys
// against the others, and returns the card keys, their contexts and the
// viewing keys.
func rosterSeatKeys(roster *ledger.Roster, cardProof bool) ([]*mental.PublicKey, []mental.KeyContext, []*mental.Element, error) {
	var keys []*mental.PublicKey
	var kcs []mental.KeyContext
	var views []*mental.Element
	for i, s := range roster.Seats {
		sk, err := verifySeatKeys(roster.TableID, i, s, cardProof)
		if err != nil {
			return nil, nil, nil, &Fault{Seat: i, Roster: true, Reason: ReasonBadSeatKeys, Err: fmt.Errorf("seat %d (%s): %w", i, s.Name, err)}
		}
		keys = append(keys, sk.Card)
		kcs = append(kcs, KeyContext(roster.TableID, i, s.PeerID))
		views = append(views, sk.View.X)
	}
	// A viewing key equal to any seat's card key or another seat's viewing
	// key would let a published card key, or another seat's key, open views.
	for i, v := range views {
		for j := range keys {
			if v.Equal(keys[j].X) == 1 {
				return nil, nil, nil, &Fault{Seat: i, Roster: true, Reason: ReasonBadSeatKeys, Err: fmt.Errorf("seat %d's viewing key is seat %d's card key", i, j)}
			}
		}
		for j := range i {
			if v.Equal(views[j]) == 1 {
				return nil, nil, nil, &Fault{Seat: i, Roster: true, Reason: ReasonBadSeatKeys, Err: fmt.Errorf("seats %d and %d have the same viewing key", j, i)}
			}
		}
	}
	return keys, kcs, views, nil
}
