package netsession

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// SwapBitsFile, in a seat's state directory, keeps the secret bits of the
// seat's own hidden swaps: the log carries proofs, not bits, so without it
// a restarted seat would no longer know what it did. One line per move,
// written and synced before the move leaves the seat:
//
//	<entry position> <bits: 1 exchanged, 0 pretended, in the move's swap order>
//
// A later line for a position replaces an earlier one (a move made again
// after a stale one was dropped). The file is as secret as the seat's keys
// (mode 0600).
const SwapBitsFile = "swapbits"

// maxSwapBits bounds one line's bits (a move causes at most a few swaps).
const maxSwapBits = 8

// loadSwapBits reads dir's swap bits; a missing file is an empty record,
// and a torn last line (a crash while writing) is ignored.
func loadSwapBits(dir string) (map[uint64][]bool, error) {
	return loadRecords(filepath.Join(dir, SwapBitsFile), parseSwapBits)
}

func parseSwapBits(line string) (uint64, []bool, error) {
	f := strings.Fields(line)
	if len(f) != 2 || len(f[1]) == 0 || len(f[1]) > maxSwapBits {
		return 0, nil, fmt.Errorf("want a position and 1..%d bits, got %q", maxSwapBits, line)
	}
	pos, err := strconv.ParseUint(f[0], 10, 64)
	if err != nil {
		return 0, nil, fmt.Errorf("position %q: %w", f[0], err)
	}
	var bits []bool
	for _, c := range f[1] {
		switch c {
		case '0', '1':
			bits = append(bits, c == '1')
		default:
			return 0, nil, fmt.Errorf("bit %q: want 0 or 1", c)
		}
	}
	return pos, bits, nil
}

// appendSwapBits records the bits of the move at pos in dir, synced.
func appendSwapBits(dir string, pos uint64, bits []bool) error {
	if len(bits) == 0 || len(bits) > maxSwapBits {
		return fmt.Errorf("%d swap bits, want 1..%d", len(bits), maxSwapBits)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d ", pos)
	for _, bit := range bits {
		b.WriteByte("01"[btoi(bit)])
	}
	b.WriteByte('\n')
	return appendSynced(filepath.Join(dir, SwapBitsFile), b.String())
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
