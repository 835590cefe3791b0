package phoneseat

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/table"
)

// TestPhoneReloadKeepsBallotSecret: a Mafia phone seat keeps the secrets
// of the ballots of its night actions in the page's storage ("ballots",
// put with the entry, before it leaves), and a reloaded page reads them
// back: its count lookup of the kill (mental SPEC §9.9, proven from its
// own kill ballot's secrets) is one the table accepts. Without the
// stored secrets a reloaded phone cannot make its lookup and the table
// would time it out (netsession's TestMafiaRestartKeepsBallotSecret is
// the terminal's seat).
func TestPhoneReloadKeepsBallotSecret(t *testing.T) {
	if testing.Short() {
		t.Skip("a 15-seat Mafia night through the real stack")
	}
	names := strings.Split("Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya,Lena,Misha,Nina,Oleg,Polina,Roma", ",")
	var src strings.Builder
	fmt.Fprintf(&src, "game mafia players=%s roles=Mafioso,Mafioso,Mafioso,Commissar,Nurse,%s incidents=off\n",
		strings.Join(names, ","), strings.TrimSuffix(strings.Repeat("Civilian,", 10), ","))
	for _, n := range names {
		fmt.Fprintf(&src, "%s hold no\n", n)
	}
	src.WriteString("Anna kill Egor\nBoris kill Egor\nClara kill Igor\nDima check Fedor\nEgor save Galya\n")
	sc, err := (mafia.Game{}).ParseScript([]byte(src.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := sc.Table()
	if err != nil {
		t.Fatal(err)
	}
	optBytes, err := opts.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}

	// The phone is Clara, seat 2, a Mafioso: a kill holder. The table is
	// a local one whose seat 2 holds the phone's keys.
	const seat = 2
	ph, eff, err := New("Clara", Options{})
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string][]byte{}
	for _, p := range eff.Puts {
		stored[p.Key] = p.Value
	}
	r := &ledger.Roster{TableID: [16]byte{9, 9}, Game: "mafia", Options: optBytes}
	signs := make([]ed25519.PrivateKey, len(names))
	secrets := make([]table.SeatSecrets, len(names))
	for i, n := range names {
		pub, priv, _ := ed25519.GenerateKey(rand.Reader)
		sk := table.GenerateSeatSecrets()
		if i == seat {
			pub, priv, sk = ph.Key(), ph.sign, ph.secrets
		}
		peer := PeerID(pub)
		r.Seats = append(r.Seats, ledger.SeatInfo{Name: n, PeerID: peer, SignKey: pub, Keys: sk.PublicKeys(r.TableID, i, peer)})
		signs[i], secrets[i] = priv, sk
	}
	gid, err := r.GameID()
	if err != nil {
		t.Fatal(err)
	}
	lt := &local.Table{}
	var entries []*ledger.Entry
	lt.OnEntry = func(e *ledger.Entry) { entries = append(entries, e) }
	sigs := make([][]byte, len(names))
	for i, n := range names {
		sigs[i] = ed25519.Sign(signs[i], ledger.RosterSigningBytes(gid))
		rep, err := table.New(r, mafia.Game{}.Table())
		if err != nil {
			t.Fatal(err)
		}
		lt.Seats = append(lt.Seats, &local.Seat{Name: n, Player: table.NewPlayer(i, signs[i], secrets[i]), Replica: rep})
	}
	if err := lt.Auto(); err != nil {
		t.Fatal(err)
	}
	if err := sc.Play(localplay.Table{Table: lt}); err != nil {
		t.Fatal(err)
	}
	// Clara's night-2 actions entry and her lookup entry.
	actions, lookup := -1, -1
	for i, e := range entries {
		bd, err := table.UnmarshalBody(e.Body, len(names))
		if err != nil {
			t.Fatal(err)
		}
		if int(e.Seat) == seat && bd.Kind == table.BodyActions && len(bd.Actions) > 1 {
			actions = i
		}
		if int(e.Seat) == seat && bd.Kind == table.BodyLookup {
			lookup = i
		}
	}
	if actions < 0 || lookup < actions {
		t.Fatalf("no actions entry (%d) before a lookup (%d)", actions, lookup)
	}
	seated, _ := json.Marshal(seated{Seat: seat, Roster: mustRoster(t, r), Addrs: make([][][]byte, len(names)), Sigs: sigs})
	stored["table"] = seated
	upTo := func(n int) map[string][]byte {
		kv := map[string][]byte{}
		for k, v := range stored {
			kv[k] = v
		}
		for _, e := range entries[:n] {
			raw, err := e.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			kv[fmt.Sprintf("e/%08d", e.Pos)] = raw
		}
		return kv
	}

	// Its page, reloaded before its night actions, chooses its kill: the
	// actions entry leaves with the ballots' secrets put in storage.
	now := time.Now()
	p, err := Restore(upTo(actions), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, kind, ok := p.tab.Expect(); !ok || kind != table.BodyActions {
		t.Fatalf("the restored phone is not at its night actions: %s", kind)
	}
	// The core asks the seat for its entry there (as after a reload).
	p.author, p.authorAt = true, p.tab.Pos()
	if _, ok := p.autoEntry(now); ok || !p.night {
		t.Fatal("the restored phone does not ask for its night choices")
	}
	s := &submitter{p: p, now: now}
	for _, d := range p.player.Decisions(p.tab) {
		if err := s.Decide(d.Power, d.Targets[len(d.Targets)-1]); err != nil {
			t.Fatal(err)
		}
	}
	var put []byte
	for _, pt := range s.eff.Puts {
		if pt.Key == "ballots" {
			put = pt.Value
		}
	}
	want, _ := json.Marshal(p.player.BallotSecrets())
	if len(p.player.BallotSecrets()) == 0 || string(put) != string(want) {
		t.Fatalf("the night actions put ballot secrets %q in storage, want the %d the entry was made with", put, len(p.player.BallotSecrets()))
	}

	// Reloaded before its lookup: with the stored secrets (those of the
	// actions entry the log holds) its lookup is one the table accepts;
	// without them it cannot make it.
	rt, err := table.New(r, mafia.Game{}.Table())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries[:lookup] {
		if err := rt.ApplyVerified(e); err != nil {
			t.Fatal(err)
		}
	}
	logged, _ := json.Marshal(lt.Seats[seat].Player.BallotSecrets())
	for _, withStore := range []bool{true, false} {
		kv := upTo(lookup)
		delete(kv, "ballots")
		if withStore {
			kv["ballots"] = logged
		}
		p, err := Restore(kv, Options{})
		if err != nil {
			t.Fatal(err)
		}
		body, auto, err := p.player.AutoBody(p.tab)
		if !withStore {
			if !errors.Is(err, table.ErrNoBallotSecret) {
				t.Fatalf("reloaded without the stored ballot secrets: %v, want %v", err, table.ErrNoBallotSecret)
			}
			continue
		}
		if err != nil || !auto || body.Kind != table.BodyLookup {
			t.Fatalf("reloaded with the stored ballot secrets: %v (auto %v)", err, auto)
		}
		e, err := p.player.Entry(p.tab, body)
		if err != nil {
			t.Fatal(err)
		}
		if err := rt.Apply(e); err != nil {
			t.Fatalf("the reloaded phone's lookup is refused: %v", err)
		}
	}
}

func mustRoster(t *testing.T, r *ledger.Roster) []byte {
	t.Helper()
	enc, err := r.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return enc
}
