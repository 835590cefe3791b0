package netsession

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/masque-games/masque/engine"
)

// ChecksFile, in a seat's state directory, keeps whom the seat checked at
// night (a power that checks a seat's card, table.EffectCheck): the log carries a proven check, not its
// target, so without it a restarted seat could not tell whom the answer
// it opens is about. One line per check, written and synced before the
// actions entry leaves the seat:
//
//	<entry position> <seat checked>
//
// A later line for a position replaces an earlier one (an entry made
// again after a stale one was dropped). The file is as secret as the
// seat's keys (mode 0600).
const ChecksFile = "checks"

// loadChecks reads dir's check targets; a missing file is an empty
// record, and a torn last line (a crash while writing) is ignored.
func loadChecks(dir string) (map[uint64]engine.Seat, error) {
	return loadRecords(filepath.Join(dir, ChecksFile), parseCheck)
}

func parseCheck(line string) (uint64, engine.Seat, error) {
	f := strings.Fields(line)
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("want a position and a seat, got %q", line)
	}
	pos, err := strconv.ParseUint(f[0], 10, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("position %q: %w", f[0], err)
	}
	seat, err := strconv.ParseUint(f[1], 10, 8)
	if err != nil {
		return 0, 0, fmt.Errorf("seat %q: %w", f[1], err)
	}
	return pos, engine.Seat(seat), nil
}

// appendCheck records in dir, synced, that the seat's actions entry at
// pos checks target.
func appendCheck(dir string, pos uint64, target engine.Seat) error {
	if target < 0 {
		return fmt.Errorf("check of seat %d", target)
	}
	return appendSynced(filepath.Join(dir, ChecksFile), fmt.Sprintf("%d %d\n", pos, target))
}
