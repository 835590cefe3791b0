package main

import (
	"bytes"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkMafiaDemo12 is issue 14's speed figure: a 12-player Mafia bot
// game to its end on loopback libp2p, each bot a peer of its own ('masque
// demo --game mafia --players 12': seating, the deal, every night's
// proven actions, the transcript written and verified). Target: at most
// 60 s wall. Run with -benchtime 1x (docs/performance.md).
func BenchmarkMafiaDemo12(b *testing.B) {
	dir := b.TempDir()
	for i := range b.N {
		path := filepath.Join(dir, "m12-"+strconv.Itoa(i)+".masque")
		var out, errOut bytes.Buffer
		if code := run([]string{"demo", "--game", "mafia", "--players", "12", "--seed", strconv.Itoa(4 + i), "--transcript", path, "--json"}, nil, &out, &errOut); code != 0 {
			b.Fatalf("demo: exit %d\n%s", code, errOut.String())
		}
	}
}

// BenchmarkMafiaVerify12 is 'masque verify' of a 12-player Mafia bot
// game's transcript (target: at most 3 s); the game is played once,
// outside the timing.
func BenchmarkMafiaVerify12(b *testing.B) {
	path := filepath.Join(b.TempDir(), "m12.masque")
	var out, errOut bytes.Buffer
	if code := run([]string{"demo", "--game", "mafia", "--players", "12", "--seed", "4", "--transcript", path, "--json"}, nil, &out, &errOut); code != 0 {
		b.Fatalf("demo: exit %d\n%s", code, errOut.String())
	}
	b.ResetTimer()
	for range b.N {
		out.Reset()
		if code := run([]string{"verify", path}, nil, &out, &errOut); code != 0 {
			b.Fatalf("verify: exit %d\n%s", code, out.String())
		}
	}
}
