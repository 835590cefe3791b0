package netsession

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/table"
)

// TestAppendAfterTornTail: a seat's record files (ballots' secrets,
// checks, swap bits, lone shuffles) keep one record a line, appended and synced before
// what depends on them leaves the seat. A write cut short (a crash, a
// full disk: the actions entry is then not sent, and is made again) leaves
// a torn last line, which loading ignores; the next record appended after
// it must not merge with it into a line that no load can parse, which
// would keep the seat from ever restarting (an honest seat timed out) and
// lose the records after it (a plurality kill's count lookup needs the
// kill ballot's secret).
func TestAppendAfterTornTail(t *testing.T) {
	secret := []byte{1, 2, 3, 4}
	cases := []struct {
		name, file string
		// torn is a prefix of the record append writes (the same entry
		// made again after the cut write).
		torn   string
		append func(dir string) error
		check  func(dir string, whole bool) error
	}{
		{"ballots", BallotsFile, "94 0 0102", func(dir string) error { return appendBallots(dir, 94, [][]byte{secret}) },
			func(dir string, whole bool) error {
				got, err := loadBallots(dir)
				if whole && err == nil && (len(got) != 2 || !slices.Equal(got[1], secret)) {
					t.Errorf("ballots: %x, want the earlier night's and %x", got, secret)
				}
				return err
			}},
		{"checks", ChecksFile, "94 ", func(dir string) error { return appendCheck(dir, 94, 3) },
			func(dir string, whole bool) error {
				got, err := loadChecks(dir)
				if whole && err == nil && (len(got) != 2 || got[94] != engine.Seat(3)) {
					t.Errorf("checks: %v, want position 94 checking seat 3", got)
				}
				return err
			}},
		{"swap bits", SwapBitsFile, "94", func(dir string) error { return appendSwapBits(dir, 94, []bool{true, false}) },
			func(dir string, whole bool) error {
				got, err := loadSwapBits(dir)
				if whole && err == nil && (len(got) != 2 || !slices.Equal(got[94], []bool{true, false})) {
					t.Errorf("swap bits: %v, want position 94's", got)
				}
				return err
			}},
		{"shuffles", ShufflesFile, "94 ab", func(dir string) error {
			return appendShuffle(dir, table.LoneShuffle{Pos: 94, Slots: []engine.Slot{2, 5}, Cards: []engine.Card{1, 0}})
		}, func(dir string, whole bool) error {
			got, err := loadShuffles(dir)
			if whole && err == nil && (len(got) != 2 || got[1].Pos != 94 || !slices.Equal(got[1].Slots, []engine.Slot{2, 5})) {
				t.Errorf("shuffles: %+v, want position 94's", got)
			}
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			// An earlier record, whole, then the torn one.
			earlier := map[string]func() error{
				BallotsFile:  func() error { return appendBallots(dir, 40, [][]byte{{9, 9}}) },
				ChecksFile:   func() error { return appendCheck(dir, 40, 1) },
				SwapBitsFile: func() error { return appendSwapBits(dir, 40, []bool{false}) },
				ShufflesFile: func() error {
					return appendShuffle(dir, table.LoneShuffle{Pos: 40, Slots: []engine.Slot{1}, Cards: []engine.Card{3}})
				},
			}[tc.file]
			if err := earlier(); err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(filepath.Join(dir, tc.file), os.O_WRONLY|os.O_APPEND, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString(tc.torn); err != nil {
				t.Fatal(err)
			}
			f.Close()
			if err := tc.check(dir, false); err != nil {
				t.Fatalf("the torn tail alone: %v", err)
			}
			if err := tc.append(dir); err != nil {
				t.Fatal(err)
			}
			if err := tc.check(dir, true); err != nil {
				t.Fatalf("after a record appended to a torn tail, the seat cannot restart: %v", err)
			}
		})
	}
}
