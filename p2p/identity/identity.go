package identity

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// FileName is the name of the key file inside the directory given to [Load].
const FileName = "identity.key"

// Identity is a player's Ed25519 key pair and the libp2p peer id derived
// from it.
type Identity struct {
	priv crypto.PrivKey
	sign ed25519.PrivateKey
	id   peer.ID
}

// Generate returns a fresh identity that is not stored anywhere (tests,
// throw-away players).
func Generate() (*Identity, error) {
	priv, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		return nil, fmt.Errorf("identity: generate: %w", err)
	}
	return FromPrivKey(priv)
}

// FromPrivKey wraps an existing libp2p Ed25519 private key.
func FromPrivKey(priv crypto.PrivKey) (*Identity, error) {
	if priv.Type() != crypto.Ed25519 {
		return nil, fmt.Errorf("identity: key type %v, want Ed25519", priv.Type())
	}
	raw, err := priv.Raw()
	if err != nil {
		return nil, fmt.Errorf("identity: %w", err)
	}
	if len(raw) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("identity: raw Ed25519 key is %d bytes, want %d", len(raw), ed25519.PrivateKeySize)
	}
	id, err := peer.IDFromPrivateKey(priv)
	if err != nil {
		return nil, fmt.Errorf("identity: peer id: %w", err)
	}
	return &Identity{priv: priv, sign: ed25519.PrivateKey(raw), id: id}, nil
}

// Load reads the identity kept in dir, creating dir (mode 0700) and a new
// key file (mode 0600) if there is none yet. A key file readable by group
// or others is refused, as ssh does, rather than silently used.
func Load(dir string) (*Identity, error) {
	path := filepath.Join(dir, FileName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return create(dir, path)
	}
	if err != nil {
		return nil, fmt.Errorf("identity: %w", err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("identity: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("identity: %s has mode %v; it must be readable only by its owner (chmod 600)", path, st.Mode().Perm())
	}
	priv, err := crypto.UnmarshalPrivateKey(data)
	if err != nil {
		return nil, fmt.Errorf("identity: %s: %w", path, err)
	}
	id, err := FromPrivKey(priv)
	if err != nil {
		return nil, fmt.Errorf("identity: %s: %w", path, err)
	}
	return id, nil
}

func create(dir, path string) (*Identity, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("identity: %w", err)
	}
	id, err := Generate()
	if err != nil {
		return nil, err
	}
	data, err := crypto.MarshalPrivateKey(id.priv)
	if err != nil {
		return nil, fmt.Errorf("identity: marshal: %w", err)
	}
	// O_EXCL: if another process created the key meanwhile, use theirs.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return Load(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("identity: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("identity: write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("identity: sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("identity: close %s: %w", path, err)
	}
	return id, nil
}

// PrivKey is the libp2p form of the key, for libp2p.Identity.
func (i *Identity) PrivKey() crypto.PrivKey { return i.priv }

// SigningKey is the raw Ed25519 private key that signs entries and rosters
// (ledger.Entry.Sign).
func (i *Identity) SigningKey() ed25519.PrivateKey { return i.sign }

// PublicKey is the Ed25519 public key: a seat's ledger.SeatInfo.SignKey.
func (i *Identity) PublicKey() ed25519.PublicKey {
	return i.sign.Public().(ed25519.PublicKey)
}

// PeerID is the libp2p peer id; []byte(PeerID()) is a seat's
// ledger.SeatInfo.PeerID.
func (i *Identity) PeerID() peer.ID { return i.id }
