package netsession

import (
	"encoding/hex"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// BallotsFile, in a seat's state directory, keeps the secrets of the
// ballots the seat cast at night (table.Player.BallotSecrets: every
// entry's bit and randomness): a plurality kill asks each seat, after
// every kill ballot is in, for a count lookup proven from its own kill
// ballot's secret (mental SPEC §9.9), which the log cannot give back. One
// line per ballot, written and synced before the actions entry leaves the
// seat:
//
//	<entry position> <ballot index> <secret, hex>
//
// A later line for a position and index replaces an earlier one (an entry
// made again). The file is as secret as the seat's keys (mode 0600).
const BallotsFile = "ballots"

// loadBallots reads dir's ballot secrets, in the order of their entries;
// a missing file is an empty record, and a torn last line (a crash while
// writing) is ignored.
func loadBallots(dir string) ([][]byte, error) {
	recs, err := loadRecords(filepath.Join(dir, BallotsFile), parseBallot)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, k := range slices.Sorted(maps.Keys(recs)) {
		out = append(out, recs[k])
	}
	return out, nil
}

func parseBallot(line string) (uint64, []byte, error) {
	f := strings.Fields(line)
	if len(f) != 3 {
		return 0, nil, fmt.Errorf("want a position, an index and a secret, got %d fields", len(f))
	}
	pos, err := strconv.ParseUint(f[0], 10, 56)
	if err != nil {
		return 0, nil, fmt.Errorf("position %q: %w", f[0], err)
	}
	j, err := strconv.ParseUint(f[1], 10, 8)
	if err != nil {
		return 0, nil, fmt.Errorf("index %q: %w", f[1], err)
	}
	b, err := hex.DecodeString(f[2])
	if err != nil || len(b) == 0 {
		return 0, nil, fmt.Errorf("secret: not hex")
	}
	return pos<<8 | j, b, nil
}

// appendBallots records in dir, synced, the secrets of the ballots of the
// seat's actions entry at pos, in order.
func appendBallots(dir string, pos uint64, secrets [][]byte) error {
	var b strings.Builder
	for j, s := range secrets {
		fmt.Fprintf(&b, "%d %d %s\n", pos, j, hex.EncodeToString(s))
	}
	if b.Len() == 0 {
		return nil
	}
	return appendSynced(filepath.Join(dir, BallotsFile), b.String())
}
