package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/mafia"
)

// TestVerifyReplayReportFixedDeal performs the host-chooses-the-deal
// attack on the audit side: a transcript whose roster fixes the deal (as
// a host that wrote one could), in the table options (Mascarade) or in
// the game's own options (Mafia's roles, a Grimm round's cards), was
// reported "valid" with nothing said about the deal. verify and replay
// must now say plainly, in text and JSON, that the deal was fixed rather
// than drawn; and say nothing of the kind for a drawn deal, in every game.
func TestVerifyReplayReportFixedDeal(t *testing.T) {
	played := func(g games.Rules, src, file string) string {
		t.Helper()
		lt, err := localplay.Run(g, []byte(src), nil, true)
		if err != nil {
			t.Fatal(err)
		}
		return saveTranscript(t, lt.Transcript(), file)
	}
	mafiaFixed, err := os.ReadFile("../../engine/mafia/testdata/game-5.txt")
	if err != nil {
		t.Fatal(err)
	}
	fixed := scriptTranscript(t, replayScript, true)
	drawn := scriptTranscript(t, "game mascarade players=Anna,Boris,Sasha,Dima coins=1\nAnna swap Boris yes\n", true)
	for _, c := range []struct {
		name, path, source string
	}{
		{"fixed", fixed, "fixed"},
		{"coins", drawn, "coins"},
		{"mafia fixed", played(mafia.Game{}, string(mafiaFixed), "mafia.masque"), "fixed"},
		{"mafia shuffled", played(mafia.Game{}, "game mafia players=Anna,Boris,Clara,Dima\n", "mafia.masque"), "shuffle"},
		{"grimm fixed", played(grimm.Game{}, "game grimm players=Anna,Boris,Sasha\nround 1 chars=RedRidingHood,EvilQueen,Hansel\n", "grimm.masque"), "fixed"},
		{"grimm shuffled", played(grimm.Game{}, "game grimm players=Anna,Boris,Sasha\n", "grimm.masque"), "shuffle"},
	} {
		t.Run(c.name, func(t *testing.T) {
			isFixed := c.source == "fixed"
			code, out, errOut := runCmd(t, "verify", c.path)
			if code != 0 {
				t.Fatalf("verify: exit %d: %s", code, errOut)
			}
			if got := strings.Contains(out, "deal was FIXED"); got != isFixed {
				t.Errorf("verify text mentions a fixed deal: %v, want %v\n%s", got, isFixed, out)
			}
			code, out, errOut = runCmd(t, "verify", "--json", c.path)
			var vr struct {
				Source string `json:"deal_source"`
				Fixed  *bool  `json:"fixed_deal"`
			}
			if code != 0 || json.Unmarshal([]byte(out), &vr) != nil {
				t.Fatalf("verify --json: exit %d: %s%s", code, out, errOut)
			}
			if vr.Source != c.source || vr.Fixed == nil || *vr.Fixed != isFixed {
				t.Errorf("verify --json: deal_source %q fixed_deal %v, want %q %v", vr.Source, vr.Fixed, c.source, isFixed)
			}
			code, out, errOut = runCmd(t, "replay", c.path)
			if code != 0 {
				t.Fatalf("replay: exit %d: %s", code, errOut)
			}
			if got := strings.Contains(out, "deal was FIXED"); got != isFixed {
				t.Errorf("replay text mentions a fixed deal: %v, want %v\n%s", got, isFixed, out)
			}
			code, out, errOut = runCmd(t, "replay", "--json", c.path)
			vr.Source, vr.Fixed = "", nil
			if code != 0 || json.Unmarshal([]byte(out), &vr) != nil {
				t.Fatalf("replay --json: exit %d: %s%s", code, out, errOut)
			}
			if vr.Source != c.source || vr.Fixed == nil || *vr.Fixed != isFixed {
				t.Errorf("replay --json: deal_source %q fixed_deal %v, want %q %v", vr.Source, vr.Fixed, c.source, isFixed)
			}
		})
	}
}
