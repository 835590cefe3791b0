package games_test

import (
	"encoding/json"
	"testing"

	"github.com/masque-games/masque/engine/games"
)

// A summary's JSON is "over" and "winners" (never null) then the game's
// fields in order; it reads back.
func TestSummaryJSON(t *testing.T) {
	tests := []struct {
		name string
		sum  games.Summary
		want string
	}{
		{"empty", games.Summary{}, `{"over":false,"winners":[]}`},
		{"mascarade", games.Summary{Over: true, Winners: []string{"Anna"}, Head: "turn 3, court 1",
			Fields: []games.Field{{Key: "coins", Value: map[string]int{"Boris": 5, "Anna": 13}}, {Key: "court", Value: 1}, {Key: "turn", Value: 3}}},
			`{"over":true,"winners":["Anna"],"coins":{"Anna":13,"Boris":5},"court":1,"turn":3}`},
		{"other-order", games.Summary{Winners: []string{"A", "B"},
			Fields: []games.Field{{Key: "round", Value: 2}, {Key: "roses", Value: map[string]int{"A": 4}}}},
			`{"over":false,"winners":["A","B"],"round":2,"roses":{"A":4}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.sum)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
			var back games.Summary
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			again, err := json.Marshal(back)
			if err != nil {
				t.Fatal(err)
			}
			if string(again) != tt.want {
				t.Fatalf("round trip: %s, want %s", again, tt.want)
			}
			if back.Over != tt.sum.Over || len(back.Fields) != len(tt.sum.Fields) {
				t.Fatalf("read back %+v", back)
			}
		})
	}
}

func TestSummaryJSONRejects(t *testing.T) {
	for _, in := range []string{`[]`, `{"over":1}`, `{"winners":"x"}`, `{"over":true`} {
		var s games.Summary
		if err := json.Unmarshal([]byte(in), &s); err == nil {
			t.Errorf("%s: accepted", in)
		}
	}
}
