package table_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/table"
)

func TestOptionsRoundTrip(t *testing.T) {
	tests := []table.Options{
		{Game: []byte{1, 2}},
		{Game: []byte{1}, PublishKeys: true},
		{Game: []byte{}, HideMemory: true},
		{Game: []byte{9}, Deal: []engine.Card{3, 1, 2}, PublishKeys: true, HideMemory: true},
		{Game: []byte{1}, MoveTime: 5 * time.Minute},
		{Game: []byte{1}, Deal: []engine.Card{0}, MoveTime: table.MaxMoveTime},
	}
	for _, o := range tests {
		enc, err := o.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		got, err := table.UnmarshalOptions(enc)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		if !reflect.DeepEqual(*got, o) {
			t.Errorf("round trip: got %+v, want %+v", *got, o)
		}
	}
	bad := map[string][]byte{
		"unknown flag":   {0, 0, 0x80},
		"trailing byte":  {0, 0, 0, 0},
		"truncated":      {0, 1},
		"empty deal":     {0, 0, 2, 0},
		"truncated deal": {0, 0, 2, 3, 1},
		"move time 0":    {0, 0, 8, 0, 0},
		"move time cut":  {0, 0, 8, 1},
	}
	for name, b := range bad {
		if _, err := table.UnmarshalOptions(b); err == nil {
			t.Errorf("%s: %x accepted", name, b)
		}
	}
}

// A move time must be whole seconds from 1 s to MaxMoveTime.
func TestOptionsMoveTimeRange(t *testing.T) {
	for _, d := range []time.Duration{time.Millisecond, 1500 * time.Millisecond, table.MaxMoveTime + time.Second, -time.Second} {
		if _, err := (&table.Options{MoveTime: d}).MarshalBinary(); err == nil {
			t.Errorf("move time %v encoded", d)
		}
	}
}
