package netsession

import (
	"bytes"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/safefile"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/table"
)

// ShufflesFile, in a seat's state directory, keeps where the seat's lone
// shuffles (a player's shuffle of its own hidden hand) put the
// cards it knew: the shuffle's proof hides its permutation and the log
// does not carry it, so without it a restarted seat would no longer know
// its hidden hand. One line per shuffle, written and synced before the
// shuffle leaves the seat:
//
//	<entry position> <digest of the shuffled ciphertexts, hex> <slot>=<card> ...
//
// (card -1: not known). A later line for a position replaces an earlier
// one. The file is as secret as the seat's keys (mode 0600).
const ShufflesFile = "shuffles"

// SealSaltFile, in a seat's state directory, holds the screen's salt for
// sealed choices (seatview.Input.Salt: a commitment the seat opens
// later), 32
// random bytes, so that a restarted seat can still open what it sealed.
// As secret as the seat's keys (mode 0600).
const SealSaltFile = "sealsalt"

// TurnFile, in a seat's state directory, keeps when the table started
// waiting for the seat's current move, so that a restarted seat's
// countdown goes on instead of starting over: one line,
//
//	<entry position> <Unix time in nanoseconds>
//
// replaced whole (written to a temporary file, synced, renamed).
const TurnFile = "turn"

// WaitFile, in a seat's state directory, keeps when this peer started
// waiting for another seat's move at an entry, in TurnFile's format, so
// that a restarted peer counts down to the deadline it showed before
// (the one the seats that did not restart keep) rather than a new one.
// A wait is written there only once it has lasted to the room's next
// tick (Game.waitSince), not at every entry.
const WaitFile = "wait"

// maxShuffleSlots bounds one line's slots (a hidden hand holds a few).
const maxShuffleSlots = 64

// loadShuffles reads dir's lone shuffles; a missing file is an empty
// record, and a torn last line (a crash while writing) is ignored.
func loadShuffles(dir string) ([]table.LoneShuffle, error) {
	data, err := os.ReadFile(filepath.Join(dir, ShufflesFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	byPos := map[uint64]int{}
	var out []table.LoneShuffle
	lines := strings.Split(string(data), "\n")
	for i, line := range lines {
		if line == "" {
			continue
		}
		last := i == len(lines)-1 // no newline after it: torn
		ls, err := parseShuffle(line)
		if err != nil {
			if last {
				break
			}
			return nil, fmt.Errorf("%s line %d: %w", filepath.Join(dir, ShufflesFile), i+1, err)
		}
		if last {
			break
		}
		if k, ok := byPos[ls.Pos]; ok {
			out[k] = ls
			continue
		}
		byPos[ls.Pos] = len(out)
		out = append(out, ls)
	}
	return out, nil
}

func parseShuffle(line string) (table.LoneShuffle, error) {
	f := strings.Fields(line)
	if len(f) < 3 || len(f) > 2+maxShuffleSlots {
		return table.LoneShuffle{}, fmt.Errorf("want a position, a digest and 1..%d slots, got %q", maxShuffleSlots, line)
	}
	var ls table.LoneShuffle
	var err error
	if ls.Pos, err = strconv.ParseUint(f[0], 10, 64); err != nil {
		return ls, fmt.Errorf("position %q: %w", f[0], err)
	}
	d, err := hex.DecodeString(f[1])
	if err != nil || len(d) != len(ls.Digest) {
		return ls, fmt.Errorf("digest %q: want %d hex bytes", f[1], len(ls.Digest))
	}
	copy(ls.Digest[:], d)
	for _, pair := range f[2:] {
		sl, c, ok := strings.Cut(pair, "=")
		if !ok {
			return ls, fmt.Errorf("%q: want slot=card", pair)
		}
		s, err := strconv.ParseUint(sl, 10, 16)
		if err != nil {
			return ls, fmt.Errorf("slot %q: %w", sl, err)
		}
		card, err := strconv.ParseInt(c, 10, 16)
		if err != nil || card < -1 {
			return ls, fmt.Errorf("card %q: want -1 or more", c)
		}
		ls.Slots = append(ls.Slots, engine.Slot(s))
		ls.Cards = append(ls.Cards, engine.Card(card))
	}
	return ls, nil
}

// appendShuffle records a lone shuffle in dir, synced.
func appendShuffle(dir string, ls table.LoneShuffle) error {
	if len(ls.Slots) == 0 || len(ls.Slots) > maxShuffleSlots || len(ls.Slots) != len(ls.Cards) {
		return fmt.Errorf("a shuffle of %d slots (%d cards), want 1..%d", len(ls.Slots), len(ls.Cards), maxShuffleSlots)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %x", ls.Pos, ls.Digest)
	for i, sl := range ls.Slots {
		fmt.Fprintf(&b, " %d=%d", sl, ls.Cards[i])
	}
	b.WriteByte('\n')
	return appendSynced(filepath.Join(dir, ShufflesFile), b.String())
}

// appendSynced appends s to the file at path (created with mode 0600)
// and syncs it.
func appendSynced(path, s string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if err := cutTornTail(f); err != nil {
		f.Close()
		return err
	}
	if _, err := f.WriteString(s); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// cutTornTail removes from f a last line without its newline (a write
// cut short by a crash or a full disk, which loadRecords ignores), so
// that the record appended next starts a line of its own instead of
// merging with it into a line no load parses, or parses as another
// record.
func cutTornTail(f *os.File) error {
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return err
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], fi.Size()-1); err != nil {
		return err
	}
	if last[0] == '\n' {
		return nil
	}
	data := make([]byte, fi.Size())
	if _, err := f.ReadAt(data, 0); err != nil {
		return err
	}
	return f.Truncate(int64(bytes.LastIndexByte(data, '\n') + 1))
}

// loadTurn reads dir's turn mark; a missing file is no mark.
func loadTurn(dir string) (TurnMark, error) { return loadMark(filepath.Join(dir, TurnFile)) }

// loadWait reads dir's wait mark (WaitFile); a missing file is no mark.
func loadWait(dir string) (TurnMark, error) { return loadMark(filepath.Join(dir, WaitFile)) }

// keepWait replaces dir's wait mark with m, crash-safely.
func keepWait(dir string, m TurnMark) error {
	return safefile.Write(filepath.Join(dir, WaitFile), []byte(fmt.Sprintf("%d %d\n", m.Pos, m.Since.UnixNano())), 0o600)
}

// loadMark reads a turn or wait mark from path; a missing file is no
// mark.
func loadMark(path string) (TurnMark, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return TurnMark{}, nil
	}
	if err != nil {
		return TurnMark{}, err
	}
	f := strings.Fields(string(data))
	if len(f) != 2 {
		return TurnMark{}, fmt.Errorf("%s: want a position and a time, got %q", path, data)
	}
	pos, err := strconv.ParseUint(f[0], 10, 64)
	if err != nil {
		return TurnMark{}, fmt.Errorf("%s: position: %w", path, err)
	}
	ns, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return TurnMark{}, fmt.Errorf("%s: time: %w", path, err)
	}
	return TurnMark{Pos: pos, Since: time.Unix(0, ns)}, nil
}

// keepTurn replaces dir's turn mark with m, crash-safely.
func keepTurn(dir string, m TurnMark) error {
	return safefile.Write(filepath.Join(dir, TurnFile), []byte(fmt.Sprintf("%d %d\n", m.Pos, m.Since.UnixNano())), 0o600)
}

// sealSalt returns dir's salt for sealed choices, drawing it from
// crypto/rand and writing it (mode 0600, synced) the first time.
func sealSalt(dir string) ([32]byte, error) {
	var salt [32]byte
	path := filepath.Join(dir, SealSaltFile)
	data, err := os.ReadFile(path)
	switch {
	case err == nil && len(data) == len(salt):
		copy(salt[:], data)
		return salt, nil
	case err == nil:
		return salt, fmt.Errorf("%s: %d bytes, want %d", path, len(data), len(salt))
	case !errors.Is(err, fs.ErrNotExist):
		return salt, err
	}
	if _, err := crand.Read(salt[:]); err != nil {
		return salt, fmt.Errorf("drawing the seal salt: %w", err)
	}
	return salt, safefile.Write(path, salt[:], 0o600)
}

// loadRecords reads a seat file of one record a line, "position ...",
// parsed by parse: a missing file is an empty record, a later line for a
// position replaces an earlier one, and a torn last line (no newline
// after it: a crash while writing) is ignored.
func loadRecords[T any](path string, parse func(line string) (uint64, T, error)) (map[uint64]T, error) {
	out := map[uint64]T{}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(data), "\n")
	for i, line := range lines {
		if line == "" {
			continue
		}
		last := i == len(lines)-1
		pos, v, err := parse(line)
		if err != nil {
			if last {
				break
			}
			return nil, fmt.Errorf("%s line %d: %w", path, i+1, err)
		}
		if !last {
			out[pos] = v
		}
	}
	return out, nil
}
