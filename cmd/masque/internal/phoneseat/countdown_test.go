package phoneseat

import (
	"crypto/ed25519"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
)

// startedPhone is a phone seated at seat 1 of a two-seat Mascarade table
// hosted by "alice" and started at now, with every record it stored.
func startedPhone(t *testing.T, now time.Time, opts Options) (*Phone, map[string][]byte) {
	p, kv, _ := startedPhoneHost(t, now, opts)
	return p, kv
}

// startedPhoneHost is startedPhone, with the host's signing key.
func startedPhoneHost(t *testing.T, now time.Time, opts Options) (*Phone, map[string][]byte, ed25519.PrivateKey) {
	t.Helper()
	kv := map[string][]byte{}
	keep := func(e Effects) {
		for _, p := range e.Puts {
			kv[p.Key] = p.Value
		}
	}
	tableID := [16]byte{7}
	pub, priv, _ := ed25519.GenerateKey(nil)
	host := table.GenerateSeatSecrets()
	p, eff, err := New("mila", opts)
	if err != nil {
		t.Fatal(err)
	}
	keep(eff)
	p.SetCode(tableCode(tableID, PeerID(pub)))
	if _, err := p.OnControl(now, Control{T: "table", ID: tableID[:], Seat: 1}); err != nil {
		t.Fatal(err)
	}
	r := twoSeatRoster(t, p, tableID, pub, host)
	enc, _ := r.MarshalBinary()
	eff, err = p.OnControl(now, Control{T: "offer", Roster: enc, Addrs: [][][]byte{nil, nil}})
	if err != nil {
		t.Fatal(err)
	}
	gid, _ := r.GameID()
	sigs := [][]byte{ed25519.Sign(priv, ledger.RosterSigningBytes(gid)), eff.Control[0].Sig}
	eff, err = p.OnControl(now, Control{T: "start", Roster: enc, Addrs: [][][]byte{nil, nil}, Sigs: sigs,
		TimeoutMS: opts.Timeout.Milliseconds()})
	if err != nil {
		t.Fatal(err)
	}
	keep(eff)
	return p, kv, priv
}

// TestReloadCountdown: a phone whose page reloads while the table waits
// shows the time left as it was before the reload (the table's
// deadline, kept with the position it began waiting at), not a full
// move time again; and its countdown runs down between steps, its
// deadline standing still (the first version published the time left
// at the wait's start at every step, so that the page, restarting its
// countdown whenever the two differed by 2 s, went back up every 2 s).
func TestReloadCountdown(t *testing.T) {
	t0 := time.Now()
	opts := Options{Timeout: time.Minute}
	p, kv := startedPhone(t, t0, opts)
	pg := p.View()
	if pg.LeftMS <= 0 || pg.Waiting == "" && !pg.MyTurn {
		t.Fatalf("after the start the page shows no wait: %+v", pg)
	}
	t.Logf("waiting for %q (my turn %v), %d ms left", pg.Waiting, pg.MyTurn, pg.LeftMS)
	until := pg.UntilMS
	p.Tick(t0.Add(5 * time.Second))
	if pg := p.View(); pg.LeftMS < 54_000 || pg.LeftMS > 56_000 || pg.UntilMS != until {
		t.Errorf("5 s into a 1 min wait the page shows %d ms left until %d, want 55 s until %d", pg.LeftMS, pg.UntilMS, until)
	}

	// The page reloads 10 s into the wait.
	back, err := Restore(kv, opts)
	if err != nil {
		t.Fatal(err)
	}
	t1 := t0.Add(10 * time.Second)
	if _, err := back.OnControl(t1, Control{T: "start"}); err != nil {
		t.Fatal(err)
	}
	pg = back.View()
	if pg.LeftMS < 49_000 || pg.LeftMS > 51_000 {
		t.Errorf("10 s into a 1 min wait the reloaded page shows %d ms left, want 50 s (±1 s) as before the reload", pg.LeftMS)
	}
	if pg.UntilMS < until-1000 || pg.UntilMS > until+1000 {
		t.Errorf("the reloaded page counts down to %d, before the reload to %d", pg.UntilMS, until)
	}
}

// TestWaitSaysWhat: while the table waits for another seat's share of
// its work (here the host's share of the deal's coin toss, before any
// move), the page says what it waits for, not only whom ("waiting for
// alice" read as a contradiction under "bob's turn").
func TestWaitSaysWhat(t *testing.T) {
	p, _ := startedPhone(t, time.Now(), Options{Timeout: time.Minute})
	if got := p.View().Waiting; got != "alice's share of a coin toss" {
		t.Errorf("waiting for the host's coin share, the page says waiting for %q, want alice's share of a coin toss", got)
	}
}
