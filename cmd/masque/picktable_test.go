package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/lobby"
)

func TestPickTable(t *testing.T) {
	tab := func(name string, id byte, taken, total, version int) lobby.Table {
		return lobby.Table{ID: [16]byte{id}, Name: name, Taken: taken, Total: total, Version: version}
	}
	cases := []struct {
		name    string
		tables  []lobby.Table
		table   string
		wantOK  bool
		wantErr string // substring; "" for no error
	}{
		{"open table by name", []lobby.Table{tab("Kitchen", 1, 1, 4, lobby.Version)}, "Kitchen", true, ""},
		{"name ignoring case", []lobby.Table{tab("Kitchen", 1, 1, 4, lobby.Version)}, "kitchen", true, ""},
		{"exact name first", []lobby.Table{tab("kitchen", 2, 4, 4, lobby.Version), tab("Kitchen", 1, 1, 4, lobby.Version)}, "Kitchen", true, ""},
		{"by table id", []lobby.Table{tab("Kitchen", 1, 1, 4, lobby.Version)}, hex.EncodeToString([]byte{1, 15: 0}), true, ""},
		{"by code", []lobby.Table{tab("Kitchen", 1, 1, 4, lobby.Version)}, lobby.Code([16]byte{1}, ""), true, ""},
		{"full table", []lobby.Table{tab("Kitchen", 1, 4, 4, lobby.Version)}, "Kitchen", true, "is full"},
		{"older protocol", []lobby.Table{tab("Kitchen", 1, 1, 4, lobby.Version-1)}, "Kitchen", true, fmt.Sprintf("table protocol v%d", lobby.Version-1)},
		{"two open tables with one name", []lobby.Table{tab("Kitchen", 1, 1, 4, lobby.Version), tab("Kitchen", 2, 0, 4, lobby.Version)}, "Kitchen", false, "2 open tables"},
		{"no such table", []lobby.Table{tab("Kitchen", 1, 1, 4, lobby.Version)}, "Garden", false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, ok, err := pickTable(c.tables, joinOptions{table: c.table})
			if ok != c.wantOK {
				t.Errorf("found = %v, want %v", ok, c.wantOK)
			}
			switch {
			case c.wantErr == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("error = %v, want one containing %q", err, c.wantErr)
			}
		})
	}
}

func newPeerID(t *testing.T) peer.ID {
	t.Helper()
	id, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	return id.PeerID()
}

// hijackScenario is a victim's table and an attacker's sybil table
// advertised next to it, with the attacker's copy of the victim's name
// and table id, its name in another case, or its name set to the
// victim's join code.
func hijackScenario(t *testing.T) (victim lobby.Table, attackers map[string]lobby.Table) {
	victim = lobby.Table{ID: [16]byte{0xde, 0xad, 0xbe, 0xef}, Name: "friday", Taken: 1, Total: 4, Version: lobby.Version, Peer: newPeerID(t)}
	evil := newPeerID(t)
	copyAll := victim
	copyAll.Peer, copyAll.Taken = evil, 3 // three sybils "already seated"
	otherCase := copyAll
	otherCase.ID, otherCase.Name = [16]byte{1}, "Friday"
	codeName := copyAll
	codeName.ID, codeName.Name = [16]byte{2}, victim.Code()
	return victim, map[string]lobby.Table{"same name and id": copyAll, "name in another case": otherCase, "named after the code": codeName}
}

// TestJoinRefusesLobbyHijack performs the lobby hijack of the review: an
// attacker advertises a table with the victim's name (or table id, or
// named after its code) under its own peer id. The lobby used to keep the
// last advertisement per table id and a lookup took the first match, so a
// headless join went to the attacker's table of sybils. Now the lookup is
// ambiguous and a headless join refuses, listing both creators.
func TestJoinRefusesLobbyHijack(t *testing.T) {
	victim, attackers := hijackScenario(t)
	queries := map[string]joinOptions{"name": {table: victim.Name}, "code as name": {table: victim.Code()},
		"--code": {code: victim.Code()}, "table id": {table: hex.EncodeToString(victim.ID[:])}}
	// Which lookups collide with which attacker; the others must find the
	// victim's table as if the attacker were not there.
	ambiguous := map[string]map[string]bool{
		"same name and id":     {"name": true, "table id": true},
		"name in another case": {"name": true},
		"named after the code": {"code as name": true},
	}
	for aname, attacker := range attackers {
		for qname, q := range queries {
			for _, order := range [][]lobby.Table{{victim, attacker}, {attacker, victim}} {
				got, ok, err := pickTable(order, q)
				if ok && got.Peer == attacker.Peer {
					t.Fatalf("attacker %s, join by %s: went to the attacker's table", aname, qname)
				}
				if !ambiguous[aname][qname] {
					if !ok || err != nil || got.Peer != victim.Peer {
						t.Errorf("attacker %s, join by %s: %v %v; want the victim's table", aname, qname, ok, err)
					}
					continue
				}
				if ok || err == nil || !strings.Contains(err.Error(), "2 different creators") ||
					!strings.Contains(err.Error(), victim.Fingerprint()) || !strings.Contains(err.Error(), attacker.Fingerprint()) {
					t.Errorf("attacker %s, join by %s: pickTable = %v, %v; want an ambiguity naming both fingerprints", aname, qname, ok, err)
				}
			}
		}
	}
}

// TestJoinCreatorPicks: --creator (a fingerprint prefix or a peer id)
// resolves an ambiguity; the refusal's hint says how to pick.
func TestJoinCreatorPicks(t *testing.T) {
	victim, attackers := hijackScenario(t)
	attacker := attackers["same name and id"]
	tables := []lobby.Table{attacker, victim}
	_, _, err := pickTable(tables, joinOptions{table: "friday"})
	var ee *exitError
	if !errors.As(err, &ee) || !strings.Contains(ee.hint, "--creator") || !strings.Contains(ee.hint, "invite") {
		t.Fatalf("ambiguity hint: %v", err)
	}
	for _, sel := range []string{victim.Fingerprint(), strings.ToLower(victim.Fingerprint()[:9]), victim.Peer.String()} {
		got, ok, err := pickTable(tables, joinOptions{table: "friday", creator: sel})
		if !ok || err != nil || got.Peer != victim.Peer {
			t.Errorf("--creator %s: %v %v", sel, ok, err)
		}
	}
	if _, ok, _ := pickTable(tables, joinOptions{table: "friday", creator: "ZZZZ-ZZZZ-ZZZZ"}); ok {
		t.Error("--creator matching nobody found a table")
	}
}

// TestJoinChooseTable: in a terminal the player is shown both creators
// with their fingerprints and picks one by number; no answer joins none.
func TestJoinChooseTable(t *testing.T) {
	victim, attackers := hijackScenario(t)
	attacker := attackers["same name and id"]
	attacker.Name = "friday\x1b[2J\u202e" // and a name with a terminal trick
	tables := []lobby.Table{attacker, victim}
	_, _, err := pickTable(tables, joinOptions{table: hex.EncodeToString(victim.ID[:])})
	var amb *ambiguousError
	if !errors.As(err, &amb) {
		t.Fatalf("not ambiguous: %v", err)
	}
	for _, c := range []struct {
		input   string
		want    peer.ID
		wantErr string
	}{
		{"2\n", amb.tables[1].Peer, ""},
		{"x\n0\n1\n", amb.tables[0].Peer, ""},
		{"\n", "", "none was chosen"},
		{"", "", "none was chosen"},
	} {
		var out bytes.Buffer
		r := &netRun{a: &app{stdin: strings.NewReader(c.input), stdout: &out}, out: &out}
		got, err := r.chooseTable(amb)
		switch {
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("input %q: %v, want %q", c.input, err, c.wantErr)
		case c.wantErr == "" && (err != nil || got.Peer != c.want):
			t.Errorf("input %q: %v %v", c.input, got.Peer, err)
		}
		screen := out.String()
		if !strings.Contains(screen, victim.Fingerprint()) || !strings.Contains(screen, attacker.Fingerprint()) {
			t.Errorf("the choice does not show both fingerprints:\n%s", screen)
		}
		if strings.ContainsAny(screen, "\x1b\u202e") {
			t.Errorf("a control character reached the terminal:\n%q", screen)
		}
	}
}
