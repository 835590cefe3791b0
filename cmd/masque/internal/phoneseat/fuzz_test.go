package phoneseat

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
)

// FuzzOnControl: a phone fed arbitrary WebSocket messages from the
// server (lines: a text line is a control message, as the driver
// decodes it; a line starting with 0x00 is a binary packet) errs and
// never panics, whatever their order: seating messages, rosters,
// signatures, a start, sealed frames.
func FuzzOnControl(f *testing.F) {
	// Fixed keys, so that a corpus entry means the same in every run.
	secrets := make([]byte, table.SeatSecretsSize)
	secrets[0], secrets[table.SeatSecretsSize/2] = 5, 7
	m := me{Name: "mila", Seed: bytes.Repeat([]byte{3}, ed25519.SeedSize), Secrets: secrets, Salt: make([]byte, 32)}
	p0, err := fromMe(m, Options{})
	if err != nil {
		f.Fatal(err)
	}
	// A seating as an honest host makes it, for seeds.
	tableID := [16]byte{4}
	hostKey := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{9}, ed25519.SeedSize))
	hostPub := hostKey.Public().(ed25519.PublicKey)
	hostSecrets := make([]byte, table.SeatSecretsSize)
	hostSecrets[0], hostSecrets[table.SeatSecretsSize/2] = 11, 13
	host, err := table.UnmarshalSeatSecrets(hostSecrets)
	if err != nil {
		f.Fatal(err)
	}
	r := twoSeatRoster(f, p0, tableID, hostPub, host)
	enc, _ := r.MarshalBinary()
	gid, _ := r.GameID()
	sigs := [][]byte{ed25519.Sign(hostKey, ledger.RosterSigningBytes(gid)), ed25519.Sign(p0.sign, ledger.RosterSigningBytes(gid))}
	line := func(c Control) []byte { b, _ := json.Marshal(c); return b }
	seating := [][]byte{
		line(Control{T: "challenge", Nonce: []byte{1, 2}}),
		line(Control{T: "table", ID: tableID[:], Seat: 1, Kind: mascarade.GameName}),
		line(Control{T: "seated", Seat: 1}),
		line(Control{T: "offer", Roster: enc, Addrs: [][][]byte{nil, nil}}),
		line(Control{T: "start", Seat: 1, Roster: enc, Addrs: [][][]byte{nil, nil}, Sigs: sigs, TimeoutMS: 1000}),
	}
	code := tableCode(tableID, PeerID(hostPub))
	if p, err := fromMe(m, Options{}); err == nil {
		p.SetCode(code)
		for _, l := range seating {
			var c Control
			json.Unmarshal(l, &c)
			if _, err := p.OnControl(time.Unix(1e9, 0), c); err != nil && c.T != "challenge" {
				f.Fatalf("the honest seed's %q: %v", c.T, err)
			}
		}
		if !p.Seated() {
			f.Fatal("the honest seed does not seat the phone")
		}
	}
	f.Add(bytes.Join(seating, []byte("\n")))
	f.Add(bytes.Join(append(seating, []byte{0, 16, 1, 2}, line(Control{T: "seated", Seat: 0}), line(Control{T: "start"})), []byte("\n")))
	f.Add([]byte(`{"t":"refused","seat":-3}` + "\n" + `{"t":"error","reason":"x"}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		p, err := fromMe(m, Options{})
		if err != nil {
			t.Fatal(err)
		}
		p.SetCode(code)
		now := time.Unix(1e9, 0)
		for i, l := range bytes.Split(in, []byte("\n")) {
			now = now.Add(time.Second)
			if len(l) > 0 && l[0] == 0 {
				p.OnPacket(now, l[1:])
				continue
			}
			var c Control
			if json.Unmarshal(l, &c) != nil {
				continue
			}
			p.OnControl(now, c)
			if i%4 == 3 {
				p.Tick(now)
			}
		}
		p.View()
	})
}
