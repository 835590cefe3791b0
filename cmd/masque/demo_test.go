package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemo plays a 4-bot game over libp2p on loopback, then audits the
// transcript it wrote with 'masque verify'.
func TestDemo(t *testing.T) {
	tr := filepath.Join(t.TempDir(), "demo.masque")
	var out, errOut bytes.Buffer
	if code := run([]string{"demo", "--players", "4", "--seed", "1", "--transcript", tr}, nil, &out, &errOut); code != 0 {
		t.Fatalf("demo exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	got := out.String()
	for _, want := range []string{"seated: table", "dealt face up", "turn 1  Anna swap", "game over after", " won\n",
		"all 4 peers hold the same log", "valid: "} {
		if !strings.Contains(got, want) {
			t.Errorf("demo output lacks %q:\n%s", want, got)
		}
	}
	// Public information only: the swap bits are never told.
	for _, leak := range []string{" yes\n", " no\n", "swap=yes", "swap=no"} {
		if strings.Contains(got, leak) {
			t.Errorf("demo output tells a secret swap bit (%q):\n%s", leak, got)
		}
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"verify", tr}, nil, &out, &errOut); code != 0 {
		t.Fatalf("verify exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
}

// TestDemoJSON checks the --json result of a 2-bot game.
func TestDemoJSON(t *testing.T) {
	tr := filepath.Join(t.TempDir(), "demo.masque")
	var out, errOut bytes.Buffer
	if code := run([]string{"demo", "--players", "2", "--seed", "3", "--json", "--transcript", tr}, nil, &out, &errOut); code != 0 {
		t.Fatalf("demo exit %d\nstderr:\n%s", code, errOut.String())
	}
	var res demoResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("demo --json output %q: %v", out.String(), err)
	}
	if res.Players != 2 || res.Seed != 3 || res.Transcript != tr || !res.Verify.Valid || !res.Verify.Done ||
		res.Verify.Final == nil || !res.Verify.Final.Over || len(res.Verify.Final.Winners) == 0 {
		t.Errorf("demo --json: %+v", res)
	}
}

func TestDemoPlayersRange(t *testing.T) {
	for _, n := range []string{"1", "14"} {
		var out, errOut bytes.Buffer
		if code := run([]string{"demo", "--players", n}, nil, &out, &errOut); code != 2 {
			t.Errorf("--players %s: exit %d, want 2 (stderr %q)", n, code, errOut.String())
		}
	}
}

// TestDemoSecondEdition: 6 bots of the 2nd edition play over libp2p on
// loopback; every peer holds the byte-identical log, and the transcript
// passes 'masque verify'.
func TestDemoSecondEdition(t *testing.T) {
	tr := filepath.Join(t.TempDir(), "demo2.masque")
	var out, errOut bytes.Buffer
	if code := run([]string{"demo", "--game", "mascarade2", "--players", "6", "--seed", "2", "--transcript", tr}, nil, &out, &errOut); code != 0 {
		t.Fatalf("demo exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	got := out.String()
	for _, want := range []string{"Mascarade (2nd edition), 6 bots", "dealt face up", "game over after", "all 6 peers hold the same log",
		"valid: ", "of mascarade2"} {
		if !strings.Contains(got, want) {
			t.Errorf("demo output lacks %q:\n%s", want, got)
		}
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"verify", tr}, nil, &out, &errOut); code != 0 {
		t.Fatalf("verify exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	// A scenario, and the player range of the 2nd edition.
	out.Reset()
	if code := run([]string{"demo", "--game", "mascarade2", "--players", "4", "--scenario", "default-4", "--seed", "5", "--json"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("demo --scenario: exit %d\n%s", code, errOut.String())
	}
	var res demoResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Game != "mascarade2" || !res.Verify.Valid || !res.Verify.Done {
		t.Errorf("demo --scenario --json: %+v (%v)", res, err)
	}
	for _, args := range [][]string{{"--players", "3"}, {"--players", "13"}, {"--players", "5", "--scenario", "default-4"}} {
		errOut.Reset()
		if code := run(append([]string{"demo", "--game", "mascarade2"}, args...), nil, &out, &errOut); code != 2 {
			t.Errorf("demo --game mascarade2 %v: exit %d, want 2 (%s)", args, code, errOut.String())
		}
	}
}
