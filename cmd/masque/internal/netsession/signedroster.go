package netsession

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/cmd/masque/internal/safefile"
	"github.com/masque-games/masque/engine/ledger"
)

// ErrSecondRoster is wrapped by [Peer.Join]'s error when the creator
// offers a roster for a table id under which this identity already
// signed (or was about to sign) another roster: a host run again that
// changed the table's options or seats. Signing both would give the host
// two rosters, each signed by this player, for one table.
var ErrSecondRoster = errors.New("refused to sign a second roster for the same table")

// signedRecord is the file under dir recording the roster this identity
// signs for table id.
func signedRecord(dir string, id [16]byte) string {
	return filepath.Join(dir, hex.EncodeToString(id[:])+".signed")
}

// recordSigned is called before this seat signs roster r offered by
// host: if dir holds the record of another roster signed for r's table
// id, it returns an error wrapping ErrSecondRoster, naming the host and
// both game ids; otherwise it writes the record (durably: it must
// survive a crash right after the signature is sent). The record is the
// roster's game id, then the host's peer id, one a line.
func recordSigned(dir string, r *ledger.Roster, host peer.ID) error {
	gid, err := r.GameID()
	if err != nil {
		return fmt.Errorf("the roster's game id: %w", err)
	}
	path := signedRecord(dir, r.TableID)
	old, err := os.ReadFile(path)
	switch {
	case err == nil:
		first, _, _ := bytes.Cut(old, []byte("\n"))
		was := strings.TrimSpace(string(first))
		if was == hex.EncodeToString(gid[:]) {
			return nil // the same roster, offered again
		}
		return fmt.Errorf("%w: host %s offered roster %x for table %x, but you signed roster %.16s for that table before (%s): a host run again must offer the same roster (same options and seats), or open a new table",
			ErrSecondRoster, host, gid[:8], r.TableID, was, path)
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("reading the rosters you signed: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("recording the roster you sign: %w", err)
	}
	data := fmt.Sprintf("%x\n%s\n", gid[:], host)
	if err := safefile.Write(path, []byte(data), 0o600); err != nil {
		return fmt.Errorf("recording the roster you sign: %w", err)
	}
	return nil
}
