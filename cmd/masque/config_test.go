package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testRelay = "/ip4/198.51.100.4/tcp/4001/p2p/12D3KooWK9UNDPkgNWa1kW5wspQT15tsnQS6WrdoNKSaY4BSQT8u"

func TestParseConfigFile(t *testing.T) {
	for _, c := range []struct {
		name, text string
		relays     int
		err        string
	}{
		{"empty", "", 0, ""},
		{"comments", "# nothing\n\n   # indented\n", 0, ""},
		{"two relays", "relay " + testRelay + "\n  relay   /ip4/198.51.100.4/udp/4001/quic-v1/p2p/12D3KooWK9UNDPkgNWa1kW5wspQT15tsnQS6WrdoNKSaY4BSQT8u  \n", 2, ""},
		{"no newline at the end", "relay " + testRelay, 1, ""},
		{"unknown key", "# x\nrelays " + testRelay + "\n", 0, "cfg/config:2: unknown setting \"relays\""},
		{"no value", "relay\n", 0, "cfg/config:1: relay: give the relay's multiaddr"},
		{"bad address", "\n\nrelay 198.51.100.4:4001\n", 0, "cfg/config:3: relay: \"198.51.100.4:4001\": not a relay address"},
		{"a circuit", "relay " + testRelay + "/p2p-circuit\n", 0, "cfg/config:1: relay:"},
		{"too big", strings.Repeat("#", maxConfigFile+1), 0, "at most"},
	} {
		got, err := parseConfigFile("cfg/config", []byte(c.text))
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err == "" && len(got.Relays) != c.relays:
			t.Errorf("%s: %d relays, want %d", c.name, len(got.Relays), c.relays)
		}
	}
}

// The config file's relays are used when no --relay is given; a
// malformed file is a usage error naming its path and line, on every
// command reading it; --relay replaces the file's relays.
func TestConfigFileRelays(t *testing.T) {
	cfg := t.TempDir()
	if rs, from, err := resolveRelays(nil, cfg); err != nil || rs != nil || from != "" {
		t.Fatalf("no file: %v %q %v", rs, from, err)
	}
	path := filepath.Join(cfg, "config")
	os.WriteFile(path, []byte("relay "+testRelay+"\n"), 0o600)
	rs, from, err := resolveRelays(nil, cfg)
	if err != nil || len(rs) != 1 || from != path {
		t.Fatalf("file: %v %q %v", rs, from, err)
	}
	other := "/ip4/192.0.2.1/tcp/4001/p2p/12D3KooWPjceQrSwdWXPyLLeABRXmuqt69Rg3sBYbU1Nft9HyQ6X"
	if rs, from, err := resolveRelays([]string{other}, cfg); err != nil || len(rs) != 1 || rs[0].ID.String() != "12D3KooWPjceQrSwdWXPyLLeABRXmuqt69Rg3sBYbU1Nft9HyQ6X" || from != "--relay" {
		t.Fatalf("--relay: %v %q %v", rs, from, err)
	}
	os.WriteFile(path, []byte("relay "+testRelay+"\nmode fast\n"), 0o600)
	for _, args := range [][]string{
		{"host", "--bot", "--config", cfg},
		{"join", "--bot", "--config", cfg, "friday"},
		{"lobby", "--config", cfg},
	} {
		code, _, errOut := runOut(args...)
		if code != exitUsage || !strings.Contains(errOut, path+":2: unknown setting \"mode\"") {
			t.Errorf("masque %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
		}
	}
	// --help says where the relays come from.
	for _, cmd := range []string{"host", "join", "lobby"} {
		if _, out, _ := runOut(cmd, "--help"); !strings.Contains(out, "CONFIG/config") {
			t.Errorf("%s --help does not mention the config file", cmd)
		}
	}
}
