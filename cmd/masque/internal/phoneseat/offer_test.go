package phoneseat

import (
	"bytes"
	"crypto/ed25519"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
)

// TestOfferChecks: a phone signs the roster offered only when its own
// seat in it is its own (name, signing key, peer id, card keys) and
// every seat's card key proofs hold for that table and seat; what it
// refuses, it refuses saying why, and signs nothing.
func TestOfferChecks(t *testing.T) {
	now := time.Now()
	tableID := [16]byte{1, 2, 3}
	pub, _, _ := ed25519.GenerateKey(nil)
	host := table.GenerateSeatSecrets()
	other := table.GenerateSeatSecrets()
	offer := func(p *Phone, mod func(r *ledger.Roster)) Control {
		r := &ledger.Roster{TableID: tableID, Game: mascarade.GameName, Seats: []ledger.SeatInfo{
			{Name: "alice", PeerID: PeerID(pub), SignKey: pub, Keys: host.PublicKeys(tableID, 0, PeerID(pub))},
			{Name: "mila", PeerID: PeerID(p.Key()), SignKey: p.Key(), Keys: p.secrets.PublicKeys(tableID, 1, PeerID(p.Key()))},
		}}
		if mod != nil {
			mod(r)
		}
		enc, err := r.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return Control{T: "offer", Roster: enc, Addrs: [][][]byte{nil, nil}}
	}
	_, otherKey, _ := ed25519.GenerateKey(nil)
	otherPub := otherKey.Public().(ed25519.PublicKey)
	for _, c := range []struct {
		name string
		mod  func(r *ledger.Roster)
		want string
	}{
		{"honest", nil, ""},
		{"its name changed", func(r *ledger.Roster) { r.Seats[1].Name = "mallory" }, "not this phone's"},
		{"another signing key in its seat", func(r *ledger.Roster) {
			r.Seats[1].SignKey, r.Seats[1].PeerID = otherPub, PeerID(otherPub)
		}, "not this phone's"},
		{"another's card keys in its seat", func(r *ledger.Roster) {
			r.Seats[1].Keys = other.PublicKeys(tableID, 1, PeerID(r.Seats[1].SignKey))
		}, "card keys are not this phone's"},
		{"the host's card keys proven for another seat", func(r *ledger.Roster) {
			r.Seats[0].Keys = host.PublicKeys(tableID, 1, PeerID(pub))
		}, "seat 0"},
		{"another table", func(r *ledger.Roster) { r.TableID = [16]byte{9} }, "another table"},
		{"its seat moved", func(r *ledger.Roster) { r.Seats[0], r.Seats[1] = r.Seats[1], r.Seats[0] }, "not of the table"},
	} {
		p, _, err := New("mila", Options{})
		if err != nil {
			t.Fatal(err)
		}
		p.SetCode(tableCode(tableID, PeerID(pub)))
		if _, err := p.OnControl(now, Control{T: "table", ID: tableID[:], Seat: 1}); err != nil {
			t.Fatal(err)
		}
		eff, err := p.OnControl(now, offer(p, c.mod))
		switch {
		case c.want == "" && (err != nil || len(eff.Control) != 1 || eff.Control[0].T != "sign"):
			t.Errorf("%s: %v %+v, want a signature", c.name, err, eff)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || len(eff.Control) != 0):
			t.Errorf("%s: %v (%d messages), want a refusal about %q and nothing signed", c.name, err, len(eff.Control), c.want)
		}
	}
}

// TestStartChecks: the table a phone plays is the roster it signed, with
// every seat's signature on it.
func TestStartChecks(t *testing.T) {
	now := time.Now()
	tableID := [16]byte{4}
	pub, priv, _ := ed25519.GenerateKey(nil)
	host := table.GenerateSeatSecrets()
	p, _, err := New("mila", Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.SetCode(tableCode(tableID, PeerID(pub)))
	p.OnControl(now, Control{T: "table", ID: tableID[:], Seat: 1})
	r := twoSeatRoster(t, p, tableID, pub, host)
	enc, _ := r.MarshalBinary()
	eff, err := p.OnControl(now, Control{T: "offer", Roster: enc, Addrs: [][][]byte{nil, nil}})
	if err != nil {
		t.Fatal(err)
	}
	gid, _ := r.GameID()
	sigs := [][]byte{ed25519.Sign(priv, ledger.RosterSigningBytes(gid)), eff.Control[0].Sig}
	other := *r
	other.Seats = append([]ledger.SeatInfo(nil), r.Seats...)
	other.Seats[0].Name = "alicia"
	otherEnc, _ := other.MarshalBinary()
	bad := [][]byte{sigs[1], sigs[1]}
	for _, c := range []struct {
		name   string
		roster []byte
		sigs   [][]byte
		want   string
	}{
		{"another roster", otherEnc, sigs, "another roster"},
		{"a seat's signature missing", enc, bad, "bad roster signature"},
	} {
		if _, err := p.OnControl(now, Control{T: "start", Roster: c.roster, Addrs: [][][]byte{nil, nil}, Sigs: c.sigs}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error about %q", c.name, err, c.want)
		}
		if p.Seated() {
			t.Fatalf("%s: the phone took the table", c.name)
		}
	}
	if _, err := p.OnControl(now, Control{T: "start", Roster: enc, Addrs: [][][]byte{nil, nil}, Sigs: sigs}); err != nil || !p.Seated() {
		t.Fatalf("the signed table: %v", err)
	}
}

// TestSeatingOverAfterStart: once its table started, a phone takes no
// seating message: a host that says mid-game "seated at seat 0", offers
// a table again or a roster, is refused and the phone's seat (what its
// page draws as the player's) stays its own (fails on the first
// version, which took the seat number of any "seated" or "table"); a
// seat number out of range before the start is refused naming it.
func TestSeatingOverAfterStart(t *testing.T) {
	now := time.Now()
	tableID := [16]byte{4}
	pub, priv, _ := ed25519.GenerateKey(nil)
	host := table.GenerateSeatSecrets()
	p, _, err := New("mila", Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.SetCode(tableCode(tableID, PeerID(pub)))
	for _, seat := range []int{-1, 0, ledger.MaxSeats, 1 << 40} {
		if _, err := p.OnControl(now, Control{T: "table", ID: tableID[:], Seat: seat}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("seat %d", seat)) {
			t.Errorf("a table message for seat %d: %v, want refused naming the seat", seat, err)
		}
	}
	if _, err := p.OnControl(now, Control{T: "table", ID: tableID[:], Seat: 1}); err != nil {
		t.Fatal(err)
	}
	r := twoSeatRoster(t, p, tableID, pub, host)
	enc, _ := r.MarshalBinary()
	eff, err := p.OnControl(now, Control{T: "offer", Roster: enc, Addrs: [][][]byte{nil, nil}})
	if err != nil {
		t.Fatal(err)
	}
	gid, _ := r.GameID()
	sigs := [][]byte{ed25519.Sign(priv, ledger.RosterSigningBytes(gid)), eff.Control[0].Sig}
	if _, err := p.OnControl(now, Control{T: "start", Roster: enc, Addrs: [][][]byte{nil, nil}, Sigs: sigs}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []Control{
		{T: "seated", Seat: 0},
		{T: "table", ID: []byte("another table id"), Seat: 0},
		{T: "refused", Seat: 0, Reason: "gone"},
		{T: "offer", Roster: enc, Addrs: [][][]byte{nil, nil}},
	} {
		eff, err := p.OnControl(now, c)
		if err == nil || !strings.Contains(err.Error(), "started") || len(eff.Control) != 0 {
			t.Errorf("%q after the start: %v, %d messages, want refused and nothing sent", c.T, err, len(eff.Control))
		}
		if p.seat != 1 || p.tableID != tableID {
			t.Fatalf("%q after the start: the phone's seat is now %d of table %x", c.T, p.seat, p.tableID)
		}
	}
}

// TestOfferSecondCopy: a roster that seats a second copy of the phone's
// signing key (at the host's seat, with card keys the host knows) is
// refused before the phone signs: the roster's decoder refuses two
// seats sharing a key.
func TestOfferSecondCopy(t *testing.T) {
	now := time.Now()
	tableID := [16]byte{6}
	pub, _, _ := ed25519.GenerateKey(nil)
	host := table.GenerateSeatSecrets()
	p, _, err := New("mila", Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.SetCode(tableCode(tableID, PeerID(p.Key())))
	if _, err := p.OnControl(now, Control{T: "table", ID: tableID[:], Seat: 1}); err != nil {
		t.Fatal(err)
	}
	r := &ledger.Roster{TableID: tableID, Game: mascarade.GameName, Seats: []ledger.SeatInfo{
		{Name: "alice", PeerID: PeerID(pub), SignKey: pub, Keys: host.PublicKeys(tableID, 0, PeerID(p.Key()))},
		{Name: "mila", PeerID: PeerID(p.Key()), SignKey: p.Key(), Keys: p.secrets.PublicKeys(tableID, 1, PeerID(p.Key()))},
	}}
	enc, err := r.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// The host's seat made a copy of the phone's: its key and peer id.
	forged := bytes.Replace(bytes.Replace(enc, PeerID(pub), PeerID(p.Key()), 1), pub, p.Key(), 1)
	if bytes.Count(forged, p.Key()) < 4 {
		t.Fatal("the forged roster does not hold two copies of the phone's key")
	}
	eff, err := p.OnControl(now, Control{T: "offer", Roster: forged, Addrs: [][][]byte{nil, nil}})
	if err == nil || !strings.Contains(err.Error(), "share a signing key") || len(eff.Control) != 0 {
		t.Fatalf("a roster with the phone's key twice: %v, %d messages, want refused and nothing signed", err, len(eff.Control))
	}
}

// twoSeatRoster is the roster an honest host offers for a two-seat
// Mascarade table: the host "alice" at seat 0 (its signing key hostPub,
// its card keys from host), the phone p as "mila" at seat 1.
func twoSeatRoster(tb testing.TB, p *Phone, tableID [16]byte, hostPub ed25519.PublicKey, host table.SeatSecrets) *ledger.Roster {
	tb.Helper()
	g, err := registry.Lookup(mascarade.GameName)
	if err != nil {
		tb.Fatal(err)
	}
	setup, err := g.Configure(2, "", nil)
	if err != nil {
		tb.Fatal(err)
	}
	genc, err := setup.Options([]string{"alice", "mila"})
	if err != nil {
		tb.Fatal(err)
	}
	opts, err := (&table.Options{Game: genc, PublishKeys: true}).MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	return &ledger.Roster{TableID: tableID, Game: mascarade.GameName, Options: opts, Seats: []ledger.SeatInfo{
		{Name: "alice", PeerID: PeerID(hostPub), SignKey: hostPub, Keys: host.PublicKeys(tableID, 0, PeerID(hostPub))},
		{Name: "mila", PeerID: PeerID(p.Key()), SignKey: p.Key(), Keys: p.secrets.PublicKeys(tableID, 1, PeerID(p.Key()))},
	}}
}

// TestStartCodeAfterReload: a page reloaded between its signature and
// the table's start has no offer left to compare the start with; one
// reopened by another table's link under the same serving machine's
// key (its storage, and so its signing key, are the key's) is then
// offered, at "start", a roster it signed earlier under the first
// table's link: the phone refuses to take a table its address does not
// name, as it refuses to sign one. The first version started any fully
// signed roster after a reload, whatever code the address named.
func TestStartCodeAfterReload(t *testing.T) {
	now := time.Now()
	tableA, tableB := [16]byte{5}, [16]byte{6}
	pub, priv, _ := ed25519.GenerateKey(nil)
	host := table.GenerateSeatSecrets()
	p, eff0, err := New("mila", Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.SetCode(tableCode(tableA, PeerID(pub)))
	if _, err := p.OnControl(now, Control{T: "table", ID: tableA[:], Seat: 1}); err != nil {
		t.Fatal(err)
	}
	r := twoSeatRoster(t, p, tableA, pub, host)
	enc, _ := r.MarshalBinary()
	eff, err := p.OnControl(now, Control{T: "offer", Roster: enc, Addrs: [][][]byte{nil, nil}})
	if err != nil {
		t.Fatal(err)
	}
	gid, _ := r.GameID()
	sigs := [][]byte{ed25519.Sign(priv, ledger.RosterSigningBytes(gid)), eff.Control[0].Sig}
	kv := map[string][]byte{}
	for _, put := range eff0.Puts {
		kv[put.Key] = put.Value
	}
	for _, c := range []struct {
		name string
		code string
		want string
	}{
		{"reopened by another table's link", tableCode(tableB, PeerID(pub)), "not of the table"},
		{"reopened by its own table's link", tableCode(tableA, PeerID(pub)), ""},
	} {
		q, err := Restore(kv, Options{})
		if err != nil {
			t.Fatal(err)
		}
		q.SetCode(c.code)
		if _, err := q.OnControl(now, Control{T: "seated", Seat: 1}); err != nil {
			t.Fatal(err)
		}
		_, err = q.OnControl(now, Control{T: "start", Roster: enc, Addrs: [][][]byte{nil, nil}, Sigs: sigs})
		switch {
		case c.want == "" && (err != nil || !q.Seated()):
			t.Errorf("%s: %v, want the table", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || q.Seated()):
			t.Errorf("%s: %v (seated %v), want a refusal about %q", c.name, err, q.Seated(), c.want)
		}
	}
}
