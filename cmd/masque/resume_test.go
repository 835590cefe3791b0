package main

import (
	"crypto/ed25519"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/lobby"
	"github.com/masque-games/masque/p2p/store"
)

// unfinishedTable writes, under cfg/tables, the state directory of an
// unfinished table named name whose creator (seat 0) is creator.
func unfinishedTable(t *testing.T, cfg string, id byte, name string, creator []byte) string {
	t.Helper()
	r := &ledger.Roster{TableID: [16]byte{id}, Game: "mascarade", Options: []byte{1}}
	for i, peer := range [][]byte{creator, []byte("someone else")} {
		pub, _, err := ed25519.GenerateKey(nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Seats = append(r.Seats, ledger.SeatInfo{Name: []string{"ann", "bob"}[i], PeerID: peer, SignKey: pub, Keys: []byte("keys")})
	}
	dir := filepath.Join(cfg, "tables", hex.EncodeToString(r.TableID[:]))
	st, err := store.Create(dir, store.Table{Roster: r, Sigs: make([][64]byte, 2), Addrs: make([][][]byte, 2)}, []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if err := os.WriteFile(filepath.Join(dir, nameFile), []byte(name), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The same 'masque host' command after a crash resumes the unfinished
// table this identity hosts; with several it names each one's --state.
func TestHostFindsItsUnfinishedTables(t *testing.T) {
	cfg := t.TempDir()
	id, err := identity.Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	me := []byte(id.PeerID())
	friday := unfinishedTable(t, cfg, 1, "friday", me)
	saturday := unfinishedTable(t, cfg, 2, "saturday", me)
	unfinishedTable(t, cfg, 3, "friday", []byte("another creator")) // joined, not hosted
	finished := unfinishedTable(t, cfg, 4, "friday", me)
	os.WriteFile(filepath.Join(finished, "transcript.masque"), []byte("done"), 0o600)
	// Out of the game (left it, or eliminated, and closed the screen):
	// the game goes on without this seat; nothing to resume.
	out := unfinishedTable(t, cfg, 5, "friday", me)
	os.WriteFile(filepath.Join(out, outFile), []byte("out"), 0o600)

	r := &netRun{config: cfg}
	for _, c := range []struct {
		name string
		want []string
	}{
		{"friday", []string{friday}},
		{"saturday", []string{saturday}},
		{"", []string{friday, saturday}},
		{"sunday", nil},
	} {
		got, err := r.hostedUnfinished(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("hostedUnfinished(%q) = %v, want %v", c.name, got, c.want)
		}
	}
	// Two unfinished tables and no name: the command names both --state
	// and --new, and opens nothing.
	code, _, errOut := runOut("host", "--bot", "--players", "2", "--config", cfg, "--no-mdns")
	if code != 2 || !strings.Contains(errOut, "you host 2 unfinished tables") ||
		!strings.Contains(errOut, "--state "+friday) || !strings.Contains(errOut, "--state "+saturday) || !strings.Contains(errOut, "--new") {
		t.Fatalf("host with two unfinished tables: exit %d\n%s", code, errOut)
	}
}

// New games' state goes to the XDG state directory, per identity; the
// tables earlier versions kept under the config directory are still found.
func TestStateDirectories(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_STATE_HOME", xdg)
	cfg := t.TempDir()
	id, err := identity.Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := &netRun{config: cfg}
	dir, err := r.defaultStateDir(id.PeerID(), [16]byte{7})
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(xdg, "masque", "tables", lobby.Fingerprint(id.PeerID()), hex.EncodeToString([]byte{7, 15: 0}))
	if dir != want {
		t.Fatalf("state directory %s, want %s", dir, want)
	}
	if st, err := os.Stat(filepath.Dir(dir)); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("the identity's tables directory: %v %v", st, err)
	}
	me := []byte(id.PeerID())
	old := unfinishedTable(t, cfg, 1, "old", me)
	if got := r.unfinishedDirs(); len(got) != 1 || got[0] != old {
		t.Fatalf("unfinished %v, want the old table %s", got, old)
	}
	// Another identity on the same machine has its own directory.
	other, _ := identity.Load(t.TempDir())
	if d, _ := r.defaultStateDir(other.PeerID(), [16]byte{7}); d == dir {
		t.Fatal("two identities share a state directory")
	}
	// The play screen's logs and transcripts go there too, not to /tmp.
	f, err := createStateFile("logs", "play-*.log")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if filepath.Dir(f.Name()) != filepath.Join(xdg, "masque", "logs") {
		t.Fatalf("log file %s", f.Name())
	}
}

// A game this player is out of (it left, or was eliminated, and closed the
// screen) is not resumed by the same 'masque join': the command says so
// and looks for a new table by that name.
func TestJoinDoesNotResumeAGameYouAreOutOf(t *testing.T) {
	cfg := t.TempDir()
	out := unfinishedTable(t, cfg, 6, "docks", []byte("the creator"))
	os.WriteFile(filepath.Join(out, outFile), []byte("out"), 0o600)
	r := &netRun{config: cfg}
	if got := r.unfinished("docks", ""); len(got) != 0 {
		t.Fatalf("unfinished: %v", got)
	}
	if got := r.outOf("docks", ""); len(got) != 1 || got[0] != out {
		t.Fatalf("outOf: %v", got)
	}
	code, stdout, errOut := runOut("join", "--bot", "docks", "--config", cfg, "--wait", "300ms")
	if code != 1 || !strings.Contains(stdout+errOut, "you are out of the game you played at docks") || strings.Contains(stdout+errOut, "resuming") {
		t.Fatalf("join of a game you are out of: exit %d\n%s\n%s", code, stdout, errOut)
	}
}

// 'masque join CODE' run again after a crash resumes the game seated by
// that code (the argument is the join code, not the table's name).
func TestJoinByCodeResumes(t *testing.T) {
	cfg := t.TempDir()
	dir := unfinishedTable(t, cfg, 7, "harbor", []byte("the creator"))
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	code := rosterCode(st.Table().Roster)
	st.Close()
	_, stdout, errOut := runOut("join", "--bot", code, "--config", cfg, "--wait", "300ms")
	if !strings.Contains(stdout+errOut, "resuming your unfinished game from "+dir) {
		t.Fatalf("join %s did not resume %s:\n%s\n%s", code, dir, stdout, errOut)
	}
}
