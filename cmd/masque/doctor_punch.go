package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/cmd/masque/internal/safefile"
	"github.com/masque-games/masque/cmd/masque/internal/termsafe"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/store"
)

// punchFileName is the file in a game's state directory where a peer
// with relays keeps the outcome of its last hole punch to each seat, for
// 'masque doctor' (written while the game runs, and at its end).
const punchFileName = "holepunch.json"

// punchReport is the content of punchFileName, and the hole_punch field
// of 'masque doctor --json'.
type punchReport struct {
	Updated time.Time   `json:"updated"`
	TableID string      `json:"table_id"`
	Game    string      `json:"game"`
	Dir     string      `json:"dir,omitempty"` // the state directory (doctor only)
	Seats   []punchSeat `json:"seats"`
}

// punchSeat is one seat of a punchReport.
type punchSeat struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
	Peer string `json:"peer"`
	// Self: this seat is the peer that wrote the report.
	Self bool `json:"self,omitempty"`
	// Tried: a hole punch (or direct dial) to it ended; the fields below
	// say how.
	Tried     bool       `json:"tried"`
	Success   bool       `json:"success,omitempty"`
	Dialled   bool       `json:"dialled,omitempty"` // direct dial, no punch needed
	At        *time.Time `json:"at,omitempty"`
	ElapsedMS int64      `json:"elapsed_ms,omitempty"`
	Error     string     `json:"error,omitempty"`
}

// makePunchReport is what peer self knows of its hole punches (punches)
// to the seats of tbl.
func makePunchReport(self peer.ID, punches []p2p.HolePunch, tbl store.Table) punchReport {
	rep := punchReport{Updated: time.Now().UTC().Round(time.Millisecond), TableID: hex.EncodeToString(tbl.Roster.TableID[:]),
		Game: tbl.Roster.Game, Seats: []punchSeat{}}
	last := map[peer.ID]p2p.HolePunch{}
	for _, hp := range punches {
		last[hp.Peer] = hp
	}
	for i, s := range tbl.Roster.Seats {
		ps := punchSeat{Seat: i, Name: s.Name}
		id, err := peer.IDFromBytes(s.PeerID)
		if err == nil {
			ps.Peer = id.String()
			ps.Self = id == self
			if hp, ok := last[id]; ok {
				at := hp.At.UTC().Round(time.Millisecond)
				ps.Tried, ps.Success, ps.Dialled, ps.At, ps.ElapsedMS, ps.Error = true, hp.Success, hp.Dialled, &at, hp.Elapsed.Milliseconds(), hp.Err
			}
		}
		rep.Seats = append(rep.Seats, ps)
	}
	return rep
}

// recordHolePunches keeps dir/holepunch.json up to date with the node's
// hole punches to the seats of tbl while ctx lasts, and writes it a last
// time when the returned stop is called. A node without relays punches
// no holes: nothing is written.
func recordHolePunches(ctx context.Context, node *p2p.Node, dir string, tbl store.Table) (stop func()) {
	if len(node.Relays()) == 0 || tbl.Roster == nil {
		return func() {}
	}
	write := func() {
		b, err := json.MarshalIndent(makePunchReport(node.ID(), node.HolePunches(), tbl), "", "  ")
		if err == nil {
			_ = safefile.Write(filepath.Join(dir, punchFileName), append(b, '\n'), 0o600) // best effort: a diagnostic
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			changed := node.HolePunchChanged()
			write()
			select {
			case <-ctx.Done():
				write()
				return
			case <-changed:
			}
			// Punches come in bursts (one per seat): write once for them.
			select {
			case <-ctx.Done():
			case <-time.After(200 * time.Millisecond):
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// lastPunchReport reads the hole punch report of the game state directory
// dir, or, dir empty, of the most recently updated one under
// stateHome/tables (the last game, or the one running).
func lastPunchReport(dir string) (*punchReport, error) {
	path := ""
	if dir != "" {
		path = filepath.Join(dir, punchFileName)
	} else {
		home, err := stateHome()
		if err != nil {
			return nil, err
		}
		var newest time.Time
		files, _ := filepath.Glob(filepath.Join(home, "tables", "*", "*", punchFileName))
		for _, f := range files {
			if fi, err := os.Stat(f); err == nil && fi.ModTime().After(newest) {
				newest, path = fi.ModTime(), f
			}
		}
		if path == "" {
			return nil, nil
		}
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && dir != "" {
		return nil, fmt.Errorf("%s: no hole punch report (the game there was not played with --relay, or by an older masque)", dir)
	}
	if err != nil {
		return nil, fmt.Errorf("hole punch report: %w", err)
	}
	var rep punchReport
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("hole punch report %s: %w", path, err)
	}
	rep.Dir = filepath.Dir(path)
	return &rep, nil
}

// printPunches shows a punchReport, seat by seat.
func printPunches(w io.Writer, rep *punchReport) {
	fmt.Fprintf(w, "\nhole punching at the last game with relays (%s, table %.8s, %s; updated %s):\n",
		termsafe.String(rep.Game), rep.TableID, rep.Dir, rep.Updated.Local().Format(time.DateTime))
	for _, s := range rep.Seats {
		who := fmt.Sprintf("seat %d %s", s.Seat, termsafe.String(s.Name))
		at := ""
		if s.At != nil {
			at = " at " + s.At.Local().Format(time.TimeOnly)
		}
		switch {
		case s.Self:
			fmt.Fprintf(w, "  %-24s you\n", who)
		case !s.Tried:
			fmt.Fprintf(w, "  %-24s no hole punch: reached directly from the start (a LAN, a public address), or still relayed without an attempt\n", who)
		case s.Success && s.Dialled:
			fmt.Fprintf(w, "  %-24s direct: dialled its address%s (%d ms), no hole punch needed\n", who, at, s.ElapsedMS)
		case s.Success:
			fmt.Fprintf(w, "  %-24s direct: the last hole punch succeeded%s (%d ms)\n", who, at, s.ElapsedMS)
		default:
			fmt.Fprintf(w, "  %-24s relayed: the last hole punch failed%s: %s\n", who, at, termsafe.String(s.Error))
		}
	}
}
