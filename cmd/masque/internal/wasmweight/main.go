// Command wasmweight stands in for the browser seat of issue 26 to weigh
// it: it links what a phone's seat will run (every game's rules and
// bots through a local session, the cryptography, the ledger, the table
// layer, the view model and its words, the seat's controller) and the
// JavaScript bridge, so that .ci/wasm-weight.sh can build it for GOOS=js
// GOARCH=wasm and report the page's weight against its 4 MB budget. Run natively it seats one
// player at a local table of bots and prints the table's first view, or
// replays a transcript read from standard input.
//
//	go run ./cmd/masque/internal/wasmweight play mascarade 6
//	go run ./cmd/masque/internal/wasmweight replay < game.transcript
package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "wasmweight:", err)
		os.Exit(1)
	}
}

func run(args []string, in io.Reader, out io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: wasmweight play GAME PLAYERS | replay < TRANSCRIPT")
	}
	switch args[0] {
	case "play":
		if len(args) != 3 {
			return fmt.Errorf("usage: wasmweight play GAME PLAYERS")
		}
		n, err := strconv.Atoi(args[2])
		if err != nil {
			return fmt.Errorf("players %q: %w", args[2], err)
		}
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("P%d", i+1)
		}
		s, err := localsession.New(names, 1, localsession.Options{Game: args[1]})
		if err != nil {
			return err
		}
		defer s.Close()
		snap := s.Snapshot()
		v, ok := seatview.Build(snap.Viewer, snap.Input())
		if !ok {
			return fmt.Errorf("no view of %s", args[1])
		}
		// The seat's controller, as the phone's page will drive it: its
		// choices on offer and their menu.
		c := seatview.NewController()
		var q *seatview.Question
		if snap.MyTurn {
			q = v.Question
		}
		c.Offer(q, snap.Entries, time.Now(), 0)
		_, err = fmt.Fprintf(out, "%+v\nmenu: %d pages\n", v, len(c.Tree("123456789")))
		return err
	case "replay":
		b, err := io.ReadAll(in)
		if err != nil {
			return err
		}
		tr, err := ledger.UnmarshalTranscript(b)
		if err != nil {
			return err
		}
		for _, g := range registry.All() {
			if t, err := table.Replay(tr, g.Table()); err == nil {
				_, err = fmt.Fprintf(out, "%s: %d entries, verified (%T)\n", g.Name(), len(tr.Entries), t)
				return err
			}
		}
		return fmt.Errorf("no game replays this transcript")
	}
	return fmt.Errorf("unknown command %q", args[0])
}
