// Command cutlog cuts a masque state directory's log (a seat's --state
// DIR, its program stopped) before the last entry that seat SEAT signed:
// a write the disk lost, as after a crash of a disk that loses flushed
// writes, a virtual machine rolled back or a directory restored from a
// backup. .ci/comeback-test.sh uses it.
//
//	go run ./.ci/cutlog DIR SEAT
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/masque-games/masque/p2p/store"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: cutlog STATEDIR SEAT")
		os.Exit(2)
	}
	seat, err := strconv.Atoi(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "cutlog: seat:", err)
		os.Exit(2)
	}
	if err := cut(os.Args[1], seat); err != nil {
		fmt.Fprintln(os.Stderr, "cutlog:", err)
		os.Exit(1)
	}
}

func cut(dir string, seat int) error {
	st, err := store.Open(dir)
	if err != nil {
		return err
	}
	entries, err := st.Entries()
	if err != nil {
		return fmt.Errorf("entries: %w", err)
	}
	st.Close()
	last := -1
	for i, e := range entries {
		if int(e.Seat) == seat {
			last = i
		}
	}
	if last < 0 {
		return fmt.Errorf("%s: no entry by seat %d in %d", dir, seat, len(entries))
	}
	size := 0
	for _, e := range entries[:last] {
		b, err := e.MarshalBinary()
		if err != nil {
			return err
		}
		size += 8 + len(b) // a record: length u32, CRC-32C u32, the entry
	}
	if err := os.Truncate(filepath.Join(dir, store.LogFile), int64(size)); err != nil {
		return err
	}
	fmt.Printf("%s: log cut before entry %d (seat %d's own); %d of %d entries kept\n", dir, last, seat, last, len(entries))
	return nil
}
