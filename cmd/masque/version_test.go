package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/lobby"
)

// TestVersionNamesTheTableProtocol: 'masque version' is what the join
// error tells players to compare, so it must show the protocol a table
// advertises and the stream protocols behind it.
func TestVersionNamesTheTableProtocol(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"version", "--json"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var v map[string]string
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("v%d", lobby.Version); v["protocol"] != want {
		t.Errorf("protocol = %q, want %q", v["protocol"], want)
	}
	if !strings.Contains(v["streams"], string(p2p.ProtocolJoin)) {
		t.Errorf("streams = %q, want it to name %s", v["streams"], p2p.ProtocolJoin)
	}
	out.Reset()
	if code := run([]string{"version"}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), "table protocol "+v["protocol"]) {
		t.Errorf("exit %d, output %q", code, out.String())
	}
}
