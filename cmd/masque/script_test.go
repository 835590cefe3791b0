package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScriptAndVerify(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, script string
		code         int
		wantErr      string // in stderr
		coins        map[string]int
	}{
		{
			name: "first edition, challenged King",
			script: `game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Thief,King,Judge,Bishop,Cheat
Anna swap Boris yes
Boris swap centre1 no
Sasha swap Dima no
Dima swap Anna no
Anna peek
Boris claim King
Sasha challenge
`,
			coins: map[string]int{"Anna": 6, "Boris": 5, "Sasha": 9, "Dima": 6},
		},
		{
			name: "illegal line",
			script: `game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Thief,King,Judge,Bishop,Cheat
Anna swap Boris yes
Boris peek
`,
			code: 2, wantErr: ":3: Boris may not peek",
		},
		{
			name: "second edition",
			script: `game mascarade2 players=Anna,Boris,Sasha,Dima,Egor,Fedya deal=King,Judge,Princess,Empress,Thief,Fool,Spy,Widow
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Anna no
Egor claim King
`,
		},
		{
			name: "unknown game", script: "game chess players=A,B\n", code: 2, wantErr: `unknown game "chess"`,
		},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := filepath.Join(dir, "s.txt")
			tr := filepath.Join(dir, "t"+string(rune('0'+i))+".masque")
			if err := os.WriteFile(src, []byte(tc.script), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errs := runCmd(t, "script", src, "--json", "--transcript", tr)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tc.code, errs)
			}
			if tc.wantErr != "" {
				if !strings.Contains(errs, tc.wantErr) || !strings.HasPrefix(errs, "masque: error: ") {
					t.Fatalf("stderr %q, want it to contain %q", errs, tc.wantErr)
				}
				return
			}
			var ps struct {
				Coins map[string]int `json:"coins"`
			}
			if err := json.Unmarshal([]byte(out), &ps); err != nil {
				t.Fatalf("output %q: %v", out, err)
			}
			for name, want := range tc.coins {
				if ps.Coins[name] != want {
					t.Errorf("%s has %d coins, want %d", name, ps.Coins[name], want)
				}
			}
			if code, out, errs := runCmd(t, "verify", tr); code != 0 || !strings.Contains(out, "valid:") {
				t.Fatalf("verify: exit %d, out %q, err %q", code, out, errs)
			}
			// One flipped byte in the last entry's signature: rejected as
			// damage or forgery (exit 3), the seat it names not blamed.
			data, _ := os.ReadFile(tr)
			data[len(data)-5] ^= 1
			bad := filepath.Join(dir, "bad.masque")
			os.WriteFile(bad, data, 0o644)
			if code, _, errs := runCmd(t, "verify", bad); code != exitDamaged || !strings.Contains(errs, "bad-signature") || !strings.Contains(errs, "is not to blame") {
				t.Fatalf("tampered verify: exit %d, err %q", code, errs)
			}
		})
	}
}
