package main

import (
	"fmt"
	"strings"
	"testing"

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
