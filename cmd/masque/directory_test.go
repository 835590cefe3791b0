package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/directory"
	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/lobby"
	"github.com/masque-games/masque/p2p/store"
)

// startTestRelay runs 'masque relay' in this process on loopback and
// returns its TCP address (with /p2p/); it stops at the test's end.
func startTestRelay(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	a := newApp(nil, nil, nil)
	out, errOut := &syncWriter{w: new(strings.Builder)}, &syncWriter{w: new(strings.Builder)}
	a.stdout, a.stderr = out, errOut
	done := make(chan error, 1)
	go func() {
		done <- runRelay(ctx, a, relayOpts{config: t.TempDir(), listen: []string{"/ip4/127.0.0.1/tcp/0"},
			asJSON: true, duration: time.Hour, dataMiB: 64, maxResv: 16, maxPerIP: 16, maxPerNet: 32, maxCircuits: 16, dirTables: 16})
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "\n") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	var st relayStatus
	if err := json.Unmarshal([]byte(strings.SplitN(out.String(), "\n", 2)[0]), &st); err != nil || len(st.Addrs) == 0 {
		t.Fatalf("relay status %q: %v\n%s", out.String(), err, errOut.String())
	}
	return st.Addrs[0]
}

var listedRE = regexp.MustCompile(`listed in the directory of relay \S+: others run 'masque join ([0-9A-Z-]+) --relay`)

// hostOnRelay starts 'masque host --bot --relay R' for players seats named
// name, waits until it says the table is listed, and returns the join
// code and a wait for its exit status and outputs.
func hostOnRelay(t *testing.T, relay, name, players, wait, dir string) (string, func() (int, string)) {
	t.Helper()
	errOut := &syncBuffer{}
	var out bytes.Buffer
	var code int
	var wg sync.WaitGroup
	wg.Go(func() {
		code = run([]string{"host", "--bot", "--players", players, "--name", name, "--no-mdns", "--wait", wait, "--seed", "1",
			"--relay", relay, "--relay-wait", "1s", "--config", filepath.Join(dir, "cfg"), "--state", filepath.Join(dir, "state"),
			"--transcript", filepath.Join(dir, "t.masque"), "--listen", "/ip4/127.0.0.1/tcp/0", "--json"}, nil, &out, errOut)
	})
	var joinCode string
	for deadline := time.Now().Add(20 * time.Second); joinCode == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := listedRE.FindStringSubmatch(errOut.String()); m != nil {
			joinCode = m[1]
		}
	}
	if joinCode == "" {
		t.Fatalf("the host never said its table is listed:\n%s", errOut.String())
	}
	return joinCode, func() (int, string) { wg.Wait(); return code, errOut.String() }
}

// TestJoinByCodeThroughRelay: a host with --relay lists its table in the
// relay's directory; 'masque lobby --relay' shows it; 'masque join CODE
// --relay' finds it there and the game is played to the end with
// identical transcripts; once full, the table is gone from the directory.
func TestJoinByCodeThroughRelay(t *testing.T) {
	relay := startTestRelay(t)
	dir := t.TempDir()
	hdir, jdir := filepath.Join(dir, "h"), filepath.Join(dir, "j")
	code, hostDone := hostOnRelay(t, relay, "online", "2", "60s", hdir)

	c, out, errOut := runOut("lobby", "--relay", relay, "--json")
	var listed []lobbyEntry
	if c != 0 || json.Unmarshal([]byte(out), &listed) != nil || len(listed) != 1 || listed[0].Code != code ||
		listed[0].Name != "online" || listed[0].Taken != 1 || listed[0].Total != 2 || len(listed[0].Addrs) == 0 ||
		!strings.Contains(listed[0].Addrs[0], "/p2p-circuit") {
		t.Fatalf("lobby --relay: exit %d\n%s\n%s", c, out, errOut)
	}

	// The joiner names the relay in its config file, not with --relay.
	os.MkdirAll(filepath.Join(jdir, "cfg"), 0o700)
	os.WriteFile(filepath.Join(jdir, "cfg", "config"), []byte("# the relay\nrelay "+relay+"\n"), 0o600)
	c, out, errOut = runOut("join", code, "--bot", "--relay-wait", "1s", "--config", filepath.Join(jdir, "cfg"),
		"--state", filepath.Join(jdir, "state"), "--transcript", filepath.Join(jdir, "t.masque"), "--listen", "/ip4/127.0.0.1/tcp/0")
	hc, hostErr := hostDone()
	if c != 0 || hc != 0 {
		t.Fatalf("join exit %d:\n%s%s\nhost exit %d:\n%s", c, out, errOut, hc, hostErr)
	}
	if !strings.Contains(out, "using the relays of "+filepath.Join(jdir, "cfg", "config")) ||
		!strings.Contains(out, "in the directory of relay") || !strings.Contains(out, "found \"online\" ("+code) {
		t.Errorf("the join does not say where it found the table:\n%s", out)
	}
	a, _ := os.ReadFile(filepath.Join(hdir, "t.masque"))
	b, _ := os.ReadFile(filepath.Join(jdir, "t.masque"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatal("the transcripts differ")
	}
	// Full, then finished: withdrawn.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		_, out, _ = runOut("lobby", "--relay", relay, "--json")
		if strings.TrimSpace(out) == "[]" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the table is still listed after the game:\n%s", out)
		}
	}
}

// TestJoinOnlineDuplicatesAndMisses: two creators list tables with one
// name; a headless join by that name refuses to pick and lists both
// creators; a code nobody listed is reported as such after --wait.
func TestJoinOnlineDuplicatesAndMisses(t *testing.T) {
	relay := startTestRelay(t)
	dir := t.TempDir()
	_, done1 := hostOnRelay(t, relay, "same", "2", "8s", filepath.Join(dir, "h1"))
	_, done2 := hostOnRelay(t, relay, "same", "2", "8s", filepath.Join(dir, "h2"))
	jcfg := filepath.Join(dir, "j")
	c, _, errOut := runOut("join", "same", "--bot", "--relay", relay, "--relay-wait", "1s", "--config", jcfg, "--wait", "3s")
	if c != 1 || !strings.Contains(errOut, "2 different creators advertise table \"same\" in the relays' directories") ||
		!strings.Contains(errOut, "--creator") {
		t.Errorf("join by a shared name: exit %d\n%s", c, errOut)
	}
	c, _, errOut = runOut("join", "0000-0000-0000", "--bot", "--relay", relay, "--config", jcfg, "--wait", "2s")
	if c != 1 || !strings.Contains(errOut, "no table \"0000-0000-0000\" in the directory of relay") {
		t.Errorf("join by an unlisted code: exit %d\n%s", c, errOut)
	}
	// The hosts give up after their --wait and withdraw their tables.
	for _, done := range []func() (int, string){done1, done2} {
		if c, errOut := done(); c != 1 || !strings.Contains(errOut, "not full") {
			t.Errorf("host: exit %d\n%s", c, errOut)
		}
	}
	if _, out, _ := runOut("lobby", "--relay", relay, "--json"); strings.TrimSpace(out) != "[]" {
		t.Errorf("tables still listed after their hosts gave up:\n%s", out)
	}
}

// TestWatchFindsGameInPlay: 'masque watch CODE --relay' finds a table
// whose game is under way in the relay's in-play list (before, the
// directory dropped a table once seated: a started game was found by
// invite only); 'masque join CODE' refuses it, saying to watch it.
func TestWatchFindsGameInPlay(t *testing.T) {
	relayAddr := startTestRelay(t)
	relays, err := parseRelayFlag([]string{relayAddr})
	if err != nil {
		t.Fatal(err)
	}
	creator, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay(), libp2p.DisableMetrics())
	if err != nil {
		t.Fatal(err)
	}
	defer creator.Close()
	tb := lobby.Table{ID: [16]byte{1, 2, 3}, Name: "started", Game: "mascarade", Taken: 3, Total: 3, Version: lobby.Version,
		Peer: creator.ID(), Players: []string{"a", "b", "c"}, Playing: true,
		Addrs: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/9")}}
	listed := make(chan error, 4)
	pub, err := directory.NewPublisher(creator, relays, tb, 0, func(_ peer.ID, err error) { listed <- err })
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	if err := <-listed; err != nil {
		t.Fatalf("publish in play: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	info, id, err := watchTarget(ctx, watchOptions{invite: tb.Code()}, relays)
	if err != nil || info.ID != creator.ID() || id != tb.ID {
		t.Fatalf("watch %s: %v, %x, %v; want the creator %s and table %x", tb.Code(), info.ID, id, err, creator.ID(), tb.ID)
	}
	c, out, errOut := runOut("join", tb.Code(), "--bot", "--relay", relayAddr, "--relay-wait", "1s", "--wait", "3s",
		"--config", filepath.Join(t.TempDir(), "cfg"), "--state", filepath.Join(t.TempDir(), "state"), "--listen", "/ip4/127.0.0.1/tcp/0")
	if c == 0 || !strings.Contains(out+errOut, "has started") || !strings.Contains(out+errOut, "masque watch "+tb.Code()) {
		t.Errorf("join of a table in play: exit %d\n%s%s", c, out, errOut)
	}
}

// TestDoctorReportsHolePunches: seats playing through a relay keep a
// hole punch report in their state directory while they play; 'masque
// doctor --state DIR' shows it seat by seat. (On loopback nobody needs to
// punch: the seats reach each other's addresses directly, and the report
// says so; TestPunchReport covers the outcomes.)
func TestDoctorReportsHolePunches(t *testing.T) {
	relay := startTestRelay(t)
	dir := t.TempDir()
	hdir, jdir := filepath.Join(dir, "h"), filepath.Join(dir, "j")
	code, hostDone := hostOnRelay(t, relay, "punched", "2", "60s", hdir)
	c, out, errOut := runOut("join", code, "--bot", "--relay", relay, "--relay-wait", "1s", "--config", filepath.Join(jdir, "cfg"),
		"--state", filepath.Join(jdir, "state"), "--transcript", filepath.Join(jdir, "t.masque"), "--listen", "/ip4/127.0.0.1/tcp/0")
	if hc, hostErr := hostDone(); c != 0 || hc != 0 {
		t.Fatalf("join exit %d:\n%s%s\nhost exit %d:\n%s", c, out, errOut, hc, hostErr)
	}
	var rep punchReport
	b, err := os.ReadFile(filepath.Join(jdir, "state", punchFileName))
	if err != nil || json.Unmarshal(b, &rep) != nil {
		t.Fatalf("the joiner's hole punch report: %v\n%s", err, b)
	}
	if len(rep.Seats) != 2 || !rep.Seats[1].Self || rep.Seats[0].Self || rep.Game != "mascarade" {
		t.Fatalf("report: %s", b)
	}
	c, out, errOut = runOut("doctor", "--state", filepath.Join(jdir, "state"), "--wait", "10ms", "--interface", "lo", "--config", t.TempDir())
	if !strings.Contains(out, "hole punching at the last game") || !regexp.MustCompile(`seat 1 \S+ +you`).MatchString(out) ||
		!regexp.MustCompile(`seat 0 \S+ +no hole punch`).MatchString(out) {
		t.Errorf("doctor: exit %d\n%s%s", c, out, errOut)
	}
	if c, _, errOut = runOut("doctor", "--state", t.TempDir(), "--wait", "10ms", "--interface", "lo"); c != 2 || !strings.Contains(errOut, "no hole punch report") {
		t.Errorf("doctor --state of a directory without a report: exit %d\n%s", c, errOut)
	}
}

// TestPunchReport: the outcomes of the last hole punch to each seat, as
// the report keeps them and doctor shows them.
func TestPunchReport(t *testing.T) {
	ids := make([]peer.ID, 4)
	seats := make([]ledger.SeatInfo, 4)
	for i := range ids {
		id, err := identity.Generate()
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = id.PeerID()
		seats[i] = ledger.SeatInfo{Name: fmt.Sprint("p", i), PeerID: []byte(ids[i])}
	}
	at := time.Date(2026, 11, 25, 14, 0, 0, 0, time.UTC)
	punches := []p2p.HolePunch{
		{Peer: ids[1], At: at, Success: true, Elapsed: 140 * time.Millisecond},
		{Peer: ids[2], At: at, Err: "all retries failed: NAT"},
		{Peer: ids[3], At: at, Success: true, Dialled: true, Elapsed: 3 * time.Millisecond},
	}
	rep := makePunchReport(ids[0], punches, store.Table{Roster: &ledger.Roster{Game: "mascarade", Seats: seats}})
	if !rep.Seats[0].Self || rep.Seats[0].Tried || !rep.Seats[1].Success || rep.Seats[2].Success || rep.Seats[2].Error == "" || !rep.Seats[3].Dialled {
		t.Fatalf("report: %+v", rep)
	}
	var buf bytes.Buffer
	printPunches(&buf, &rep)
	for _, want := range []string{"seat 0 p0", "you", "seat 1 p1", "direct: the last hole punch succeeded", "(140 ms)",
		"seat 2 p2", "relayed: the last hole punch failed", "all retries failed: NAT", "seat 3 p3", "no hole punch needed"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("doctor's lines lack %q:\n%s", want, buf.String())
		}
	}
}

// TestLobbyShowsTablesInPlay: a table in play is listed at "play" (not a
// seat count), with a line saying to watch it; --json says playing.
func TestLobbyShowsTablesInPlay(t *testing.T) {
	id, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	tables := []lobby.Table{
		{ID: [16]byte{1}, Name: "open", Game: "mascarade", Taken: 2, Total: 4, Version: lobby.Version, Peer: id.PeerID()},
		{ID: [16]byte{2}, Name: "started", Game: "mascarade", Taken: 4, Total: 4, Version: lobby.Version, Peer: id.PeerID(), Playing: true},
	}
	var out bytes.Buffer
	if err := printLobby(&out, tables, lobbyOptions{}); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`open\tmascarade\t2/4\t`).MatchString(out.String()) || !regexp.MustCompile(`started\tmascarade\tplay\t`).MatchString(out.String()) ||
		!strings.Contains(out.String(), "'masque watch CODE'") {
		t.Errorf("lobby:\n%s", out.String())
	}
	out.Reset()
	if err := printLobby(&out, tables, lobbyOptions{asJSON: true}); err != nil {
		t.Fatal(err)
	}
	var got []lobbyEntry
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got) != 2 || got[0].Playing || !got[1].Playing {
		t.Errorf("lobby --json: %v\n%s", err, out.String())
	}
}

// TestWatchOtherSeats: with relays, a spectator can ask every other seat
// of the roster through them; without, none.
func TestWatchOtherSeats(t *testing.T) {
	var seats []ledger.SeatInfo
	var ids []peer.ID
	for i := range 3 {
		id, err := identity.Generate()
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id.PeerID())
		seats = append(seats, ledger.SeatInfo{Name: fmt.Sprint("p", i), PeerID: []byte(id.PeerID())})
	}
	r := &ledger.Roster{Seats: seats}
	relays, err := parseRelayFlag([]string{"/ip4/11.0.0.10/tcp/4001/p2p/12D3KooWK9UNDPkgNWa1kW5wspQT15tsnQS6WrdoNKSaY4BSQT8u",
		"/ip4/11.0.0.10/udp/4001/quic-v1/p2p/12D3KooWK9UNDPkgNWa1kW5wspQT15tsnQS6WrdoNKSaY4BSQT8u"})
	if err != nil {
		t.Fatal(err)
	}
	got := otherSeats(r, ids[0], relays)
	if len(got) != 2 || got[0].ID != ids[1] || got[1].ID != ids[2] || len(got[0].Addrs) != 2 ||
		got[0].Addrs[0].String() != "/ip4/11.0.0.10/tcp/4001/p2p/12D3KooWK9UNDPkgNWa1kW5wspQT15tsnQS6WrdoNKSaY4BSQT8u/p2p-circuit" {
		t.Fatalf("other seats: %v", got)
	}
	if got := otherSeats(r, ids[0], nil); got != nil {
		t.Errorf("without relays: %v", got)
	}
}

var inviteLineRE = regexp.MustCompile(`invite: (\S+)`)

// TestHostUnlisted: what a host can do about strangers at an open table
// (docs/security.md): 'masque host --relay R --unlisted' lists its table
// in no directory (a stranger asking the relay sees none) and announces
// it by no mDNS; a friend given the invite joins and plays as usual.
func TestHostUnlisted(t *testing.T) {
	relay := startTestRelay(t)
	dir := t.TempDir()
	hdir, jdir := filepath.Join(dir, "h"), filepath.Join(dir, "j")
	errOut := &syncBuffer{}
	var out bytes.Buffer
	var code int
	var wg sync.WaitGroup
	wg.Go(func() {
		code = run([]string{"host", "--bot", "--players", "2", "--name", "secret", "--unlisted", "--wait", "60s", "--seed", "1",
			"--relay", relay, "--relay-wait", "1s", "--config", filepath.Join(hdir, "cfg"), "--state", filepath.Join(hdir, "state"),
			"--transcript", filepath.Join(hdir, "t.masque"), "--listen", "/ip4/127.0.0.1/tcp/0", "--json"}, nil, &out, errOut)
	})
	var invite string
	for deadline := time.Now().Add(20 * time.Second); invite == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := inviteLineRE.FindStringSubmatch(errOut.String()); m != nil {
			invite = m[1]
		}
	}
	if invite == "" {
		t.Fatalf("no invite:\n%s", errOut.String())
	}
	// A listed table is published at once; give it two seconds anyway.
	time.Sleep(2 * time.Second)
	if c, lst, e := runOut("lobby", "--relay", relay, "--json"); c != 0 || strings.TrimSpace(lst) != "[]" {
		t.Fatalf("lobby --relay of an unlisted table: exit %d\n%s\n%s", c, lst, e)
	}
	if s := errOut.String(); strings.Contains(s, "listed in the directory") || strings.Contains(s, "join code") ||
		!strings.Contains(s, "--unlisted") {
		t.Fatalf("the host's screen:\n%s", s)
	}
	c, jout, jerr := runOut("join", invite, "--bot", "--relay-wait", "1s", "--config", filepath.Join(jdir, "cfg"),
		"--state", filepath.Join(jdir, "state"), "--transcript", filepath.Join(jdir, "t.masque"), "--listen", "/ip4/127.0.0.1/tcp/0")
	wg.Wait()
	if c != 0 || code != 0 {
		t.Fatalf("join exit %d:\n%s%s\nhost exit %d:\n%s", c, jout, jerr, code, errOut.String())
	}
}

// TestJoinStillOpen: a join by code that cannot reach the creator asks
// the relays' directories whether the table still has a seat open
// (netsession's StillOpen: `netsession` `TestJoinWhileSeatOpen`): open
// while it is listed with a free seat, closed once it has been missing
// from two answers in a row (one missing answer may be a relay that just
// restarted).
func TestJoinStillOpen(t *testing.T) {
	relayAddr := startTestRelay(t)
	relays, err := p2p.ParseRelays([]string{relayAddr})
	if err != nil {
		t.Fatal(err)
	}
	h, err := libp2p.New(libp2p.NoListenAddrs, libp2p.DisableMetrics())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tb := lobby.Table{ID: [16]byte{1, 2, 3}, Name: "friday", Game: "mascarade", Options: "2 players", Taken: 1, Total: 2,
		Version: lobby.Version, Peer: h.ID(), Players: []string{"ann"}, Addrs: p2p.CircuitAddrs(relays)}
	if _, err := directory.Do(ctx, h, relays[0], directory.Request{Op: directory.OpPublish, TTL: time.Minute, Table: tb}); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	r := &netRun{relays: relays, out: &out}
	if r.stillOpen(target{creator: peer.AddrInfo{ID: h.ID()}, id: tb.ID}) != nil {
		t.Fatal("a table found by invite (not in a directory) gets a StillOpen")
	}
	still := r.stillOpen(target{creator: peer.AddrInfo{ID: h.ID()}, id: tb.ID, name: "friday", online: true})
	if open, known := still(ctx); !open || !known {
		t.Fatalf("listed with a free seat: open %v known %v", open, known)
	}
	if _, err := directory.Do(ctx, h, relays[0], directory.Request{Op: directory.OpWithdraw, ID: tb.ID}); err != nil {
		t.Fatal(err)
	}
	if _, known := still(ctx); known {
		t.Fatal("missing from one answer: taken as closed")
	}
	if open, known := still(ctx); open || !known {
		t.Fatalf("missing from two answers: open %v known %v", open, known)
	}
	if !strings.Contains(out.String(), "no longer listed") {
		t.Errorf("the screen: %q", out.String())
	}
}
