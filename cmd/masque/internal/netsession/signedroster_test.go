package netsession

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p"
)

// TestJoinRefusesSecondRoster: a host seats a joiner and gets the roster
// of table X signed; run again, it opens table X once more (the same
// table id, its own identity) with other options (card keys published
// instead of kept secret) or other seats (its own seat renamed) and
// offers that roster to the same joiner. The
// joiner, whose record (SignedDir) says it signed another roster for X,
// refuses to sign, naming the host, and the host never gets the second
// roster signed. Without the record the joiner signed both: the host
// held two rosters under one table id, each signed by that player.
func TestJoinRefusesSecondRoster(t *testing.T) {
	for _, change := range []string{"options", "seats"} {
		t.Run(change, func(t *testing.T) { testSecondRoster(t, change) })
	}
}

func testSecondRoster(t *testing.T, change string) {
	host := testPeer(t)
	joiner := testPeer(t)
	signed := t.TempDir()
	var tableID [16]byte
	tableID[0] = 31
	names := []string{"Anna", "Bob"}
	hostKeys := table.GenerateSeatSecrets()
	joinKeys := table.GenerateSeatSecrets()
	open := func(second bool) *p2p.Table {
		publish, creator := false, names[0]
		if second && change == "options" {
			publish = true
		}
		if second && change == "seats" {
			creator = "Anne"
		}
		tbl, err := host.Node.CreateTable(p2p.TableConfig{ID: tableID, Game: mascarade.GameName, Seats: 2, Name: creator,
			CardKey: proveKeys(hostKeys, tableID, 0, host.ID.PeerID()), Patience: 5 * time.Second,
			OptionsFor: func(names []string) ([]byte, error) {
				return TableOptions(mascarade.GameName, names, nil, publish, false, 0)
			}})
		if err != nil {
			t.Fatal(err)
		}
		return tbl
	}
	seat := func(second bool) (hostErr, joinErr error) {
		tbl := open(second)
		defer tbl.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		hostDone := make(chan error, 1)
		go func() {
			_, err := tbl.Seat(ctx)
			hostDone <- err
		}()
		_, joinErr = joiner.Join(ctx, JoinConfig{Creator: peerInfo(host), TableID: tableID, Player: names[1],
			Keys: joinKeys, Seat: 1, SignedDir: signed})
		if joinErr != nil {
			// The refusal closes the joiner's stream: the host is left
			// without its signature.
			tbl.Close()
		}
		return <-hostDone, joinErr
	}
	if herr, jerr := seat(false); herr != nil || jerr != nil {
		t.Fatalf("first roster: host %v, joiner %v", herr, jerr)
	}
	herr, jerr := seat(true)
	if jerr == nil || herr == nil {
		t.Fatalf("the joiner signed a second roster for table %x (host %v, joiner %v)", tableID, herr, jerr)
	}
	if !errors.Is(jerr, ErrSecondRoster) || !errors.Is(jerr, ErrRosterRefused) {
		t.Errorf("joiner: %v, want a refusal wrapping ErrSecondRoster and ErrRosterRefused", jerr)
	}
	if !strings.Contains(jerr.Error(), host.ID.PeerID().String()) {
		t.Errorf("the refusal does not name the host %s: %v", host.ID.PeerID(), jerr)
	}
	if _, err := os.Stat(signedRecord(signed, tableID)); err != nil {
		t.Errorf("no record of the roster signed: %v", err)
	}
}
