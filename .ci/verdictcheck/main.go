// Command verdictcheck reads masque state directories (a seat's --state
// DIR) after a game and prints, for each, the verdict that stopped its
// table, checked against the roster (signature and evidence), and a hash
// of its log up to the verdict. .ci/blackout-test.sh uses it; it exits 1
// when a verdict does not verify or a directory cannot be read.
//
//	go run ./.ci/verdictcheck DIR...
package main

import (
	"crypto/sha256"
	"fmt"
	"os"

	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/store"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: verdictcheck STATEDIR...")
		os.Exit(2)
	}
	rc := 0
	for _, dir := range os.Args[1:] {
		if err := check(dir); err != nil {
			fmt.Printf("%s: %v\n", dir, err)
			rc = 1
		}
	}
	os.Exit(rc)
}

func check(dir string) error {
	st, err := store.Open(dir)
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	defer st.Close()
	entries, err := st.Entries()
	if err != nil {
		return fmt.Errorf("entries: %w", err)
	}
	raw, err := st.Verdict()
	if err != nil {
		return fmt.Errorf("verdict: %w", err)
	}
	var v *p2p.Verdict
	end := uint64(len(entries))
	if raw != nil {
		if v, _, err = p2p.UnmarshalStoredVerdict(raw); err != nil {
			return fmt.Errorf("verdict: %w", err)
		}
		if err := v.Verify(st.Table().Roster); err != nil {
			return fmt.Errorf("verdict %v: does not verify: %w", v, err)
		}
		if v.Kind == p2p.VerdictTimeout && v.Pos < end {
			end = v.Pos // a timeout closes the log before its position
		}
	}
	h := sha256.New()
	for _, e := range entries[:end] {
		b, err := e.MarshalBinary()
		if err != nil {
			return fmt.Errorf("entry %d: %w", e.Pos, err)
		}
		h.Write(b)
	}
	log := fmt.Sprintf("log %d entries %x", end, h.Sum(nil)[:8])
	if v == nil {
		fmt.Printf("%s: no verdict; %s\n", dir, log)
		return nil
	}
	fmt.Printf("%s: verdict %s seat %d pos %d declarer %d, signature and evidence verified; %s\n", dir, v.Kind, v.Seat, v.Pos, v.Declarer, log)
	return nil
}
