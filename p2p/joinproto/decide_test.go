package joinproto

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
)

// pid is a test peer id: "peer-" and the hex of its signing key.
type pid string

func (p pid) String() string { return string(p) }

// key is the deterministic signing key number i.
func key(i byte) ed25519.PrivateKey {
	seed := make([]byte, ed25519.SeedSize)
	seed[0] = i + 1
	return ed25519.NewKeyFromSeed(seed)
}

func pub(i byte) ed25519.PublicKey { return key(i).Public().(ed25519.PublicKey) }

func peerOf(k ed25519.PublicKey) pid { return pid("peer-" + hex.EncodeToString(k)) }

// seatPeer is the test's SeatPeer: a seat's peer id must be its key's.
func seatPeer(s ledger.SeatInfo) (pid, error) {
	if want := peerOf(s.SignKey); pid(s.PeerID) != want {
		return "", fmt.Errorf("peer id %s is not the identity of the signing key", s.PeerID)
	}
	return pid(s.PeerID), nil
}

// TestAdmit: the creator's decision on a join request, for every branch:
// the seat it gives (new, the same one again, one taken back by a
// restarted program) and every refusal with its code and next free seat.
func TestAdmit(t *testing.T) {
	req := func(i byte, name string, seat uint8, card string) *Request {
		return &Request{Name: name, Seat: seat, SignKey: pub(i), CardKey: []byte(card)}
	}
	seated := func(i byte, name string, connected bool) Joiner[pid] {
		return Joiner[pid]{Peer: peerOf(pub(i)), Request: req(i, name, 0, "card"), Connected: connected}
	}
	refuseAll := errors.New("no")
	cases := []struct {
		name   string
		table  Table[pid]
		peer   pid
		req    *Request
		kind   AdmitKind
		index  int
		seat   int
		taken  int
		code   RefusalCode
		reason string
	}{
		{name: "first joiner", table: Table[pid]{Seats: 3}, req: req(1, "ann", 0, "card"), kind: New, seat: 1, taken: 2},
		{name: "second joiner asks for its seat", table: Table[pid]{Seats: 3, Joiners: []Joiner[pid]{seated(1, "ann", true)}},
			req: req(2, "bob", 2, "card"), kind: New, seat: 2, taken: 3},
		{name: "started", table: Table[pid]{Seats: 3, Started: true}, req: req(1, "ann", 0, ""),
			kind: Refused, code: RefusedStarted, reason: "table has started"},
		{name: "closed", table: Table[pid]{Seats: 3, Closed: true}, req: req(1, "ann", 0, ""),
			kind: Refused, code: RefusedStarted, reason: "table has started"},
		{name: "full", table: Table[pid]{Seats: 2, Joiners: []Joiner[pid]{seated(1, "ann", true)}}, req: req(2, "bob", 0, ""),
			kind: Refused, code: RefusedFull, reason: "table is full"},
		{name: "weak signing key", table: Table[pid]{Seats: 3}, peer: peerOf(make([]byte, 32)),
			req: &Request{Name: "ann", SignKey: make([]byte, 32)}, kind: Refused, seat: 1, code: RefusedSignKey, reason: "signing key refused"},
		{name: "another peer's key", table: Table[pid]{Seats: 3}, peer: peerOf(pub(2)), req: req(1, "ann", 0, ""),
			kind: Refused, seat: 1, code: RefusedSignKey, reason: "not the key of the connecting peer"},
		{name: "the creator itself", table: Table[pid]{Seats: 3, Creator: peerOf(pub(0)), Name: "zed"}, req: req(0, "ann", 0, ""),
			kind: Refused, seat: 1, code: RefusedAlreadySeated, reason: "already seated"},
		{name: "the creator's name, another case", table: Table[pid]{Seats: 3, Name: "Zed"}, req: req(1, "zED", 0, ""),
			kind: Refused, seat: 1, code: RefusedNameTaken, reason: `name "zED" is taken`},
		{name: "seated, connected, other keys", table: Table[pid]{Seats: 4, Joiners: []Joiner[pid]{seated(1, "ann", true)}},
			req: req(1, "ann", 0, "other card"), kind: Refused, seat: 2, code: RefusedAlreadySeated, reason: "already seated"},
		{name: "another joiner's name", table: Table[pid]{Seats: 4, Joiners: []Joiner[pid]{seated(1, "ann", true)}},
			req: req(2, "ANN", 0, ""), kind: Refused, seat: 2, code: RefusedNameTaken, reason: `name "ANN" is taken`},
		{name: "a seat not the next", table: Table[pid]{Seats: 4, Joiners: []Joiner[pid]{seated(1, "ann", true)}},
			req: req(2, "bob", 3, ""), kind: Refused, seat: 2, code: RefusedSeatNotFree, reason: "seat 3 is not free; the next seat is 2"},
		{name: "card key refused", table: Table[pid]{Seats: 3, Validate: func(string, []byte) error { return refuseAll }},
			req: req(1, "ann", 0, ""), kind: Refused, seat: 1, code: RefusedCardKey, reason: "card key refused: no"},
		{name: "seat refused", table: Table[pid]{Seats: 3, ValidateSeat: func(int, ledger.SeatInfo) error { return refuseAll }},
			req: req(1, "ann", 0, ""), kind: Refused, seat: 1, code: RefusedSeat, reason: "seat refused: no"},
		{name: "the same joiner back", table: Table[pid]{Seats: 4, Joiners: []Joiner[pid]{seated(1, "ann", false), seated(2, "bob", true)}},
			req: req(1, "ann", 0, "card"), kind: Back, index: 0, seat: 1, taken: 3},
		{name: "the same joiner back, its seat named, connected", table: Table[pid]{Seats: 4, Started: true,
			Joiners: []Joiner[pid]{seated(1, "ann", true), seated(2, "bob", true)}},
			req: req(2, "bob", 2, "card"), kind: Back, index: 1, seat: 2, taken: 3},
		{name: "restarted with a new card key", table: Table[pid]{Seats: 4, Joiners: []Joiner[pid]{seated(1, "ann", false), seated(2, "bob", true)}},
			req: req(1, "ann", 1, "new card"), kind: Retake, index: 0, seat: 1, taken: 3},
		{name: "restarted, asks for another seat", table: Table[pid]{Seats: 4, Joiners: []Joiner[pid]{seated(1, "ann", false)}},
			req: req(1, "ann", 2, "new card"), kind: Refused, seat: 1, code: RefusedSeatNotFree, reason: "you hold seat 1; ask for it"},
		{name: "restarted, takes another joiner's name", table: Table[pid]{Seats: 4, Joiners: []Joiner[pid]{seated(1, "ann", false), seated(2, "bob", true)}},
			req: req(1, "Bob", 0, "new card"), kind: Refused, seat: 1, code: RefusedNameTaken, reason: `name "Bob" is taken`},
		{name: "restarted, card key refused", table: Table[pid]{Seats: 4, Joiners: []Joiner[pid]{seated(1, "ann", false)},
			Validate: func(_ string, card []byte) error {
				if string(card) == "new card" {
					return refuseAll
				}
				return nil
			}},
			req: req(1, "ann", 0, "new card"), kind: Refused, seat: 1, code: RefusedCardKey, reason: "card key refused: no"},
		{name: "left after the offer", table: Table[pid]{Seats: 4, Started: true,
			Joiners: []Joiner[pid]{{Peer: peerOf(pub(1)), Request: req(1, "ann", 0, "card"), Left: true}}},
			req: req(1, "ann", 0, "card"), kind: Refused, code: RefusedStarted, reason: "table has started"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.peer
			if p == "" {
				p = peerOf(c.req.SignKey)
			}
			c.table.SeatPeer = seatPeer
			d := Admit(&c.table, p, c.req)
			if d.Kind != c.kind || d.Seat != c.seat || d.Taken != c.taken || (c.kind == Back || c.kind == Retake) && d.Index != c.index {
				t.Fatalf("admission %+v, want kind %d index %d seat %d taken %d", d, c.kind, c.index, c.seat, c.taken)
			}
			if c.kind != Refused {
				if d.Refusal != nil {
					t.Fatalf("admitted with a refusal %+v", d.Refusal)
				}
				return
			}
			if d.Refusal == nil || d.Refusal.Code != c.code || !strings.Contains(d.Refusal.Reason, c.reason) {
				t.Fatalf("refusal %+v, want code %s and a reason containing %q", d.Refusal, c.code, c.reason)
			}
		})
	}
}

// offerOf builds a roster offer of the seats keys (seat 0 the creator),
// named by names, each with one address.
func offerOf(t *testing.T, table [16]byte, keys []byte, names []string) *Msg {
	t.Helper()
	r := &ledger.Roster{TableID: table, Game: "counter"}
	m := &Msg{Type: MsgRoster}
	for i, k := range keys {
		r.Seats = append(r.Seats, ledger.SeatInfo{Name: names[i], PeerID: []byte(peerOf(pub(k))), SignKey: pub(k), Keys: []byte("card")})
		m.Addrs = append(m.Addrs, [][]byte{{4, 127, 0, 0, byte(i)}})
	}
	enc, err := r.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m.Roster = enc
	return m
}

// TestCheckOffer: a joiner accepts the roster offer that seats it as it
// asked, and refuses, naming what is wrong, every other.
func TestCheckOffer(t *testing.T) {
	table := [16]byte{1, 2, 3}
	check := func() OfferCheck[pid] {
		return OfferCheck[pid]{Creator: peerOf(pub(0)), Self: peerOf(pub(2)), TableID: table, Name: "bob", CardKey: []byte("card"), SeatPeer: seatPeer}
	}
	good := offerOf(t, table, []byte{0, 1, 2}, []string{"zed", "ann", "bob"})
	o, err := CheckOffer(good, check())
	if err != nil {
		t.Fatal(err)
	}
	if game, _ := o.Roster.GameID(); o.Seat != 2 || o.GameID != game || len(o.Addrs) != 3 {
		t.Fatalf("offer %+v", o)
	}
	anyTable := check()
	anyTable.TableID = [16]byte{}
	if _, err := CheckOffer(good, anyTable); err != nil {
		t.Fatalf("table not asked for: %v", err)
	}

	refuseAll := errors.New("no")
	fewerAddrs := offerOf(t, table, []byte{0, 1, 2}, []string{"zed", "ann", "bob"})
	fewerAddrs.Addrs = fewerAddrs.Addrs[:2]
	badPeer := offerOf(t, table, []byte{0, 1, 2}, []string{"zed", "ann", "bob"})
	r, _ := ledger.UnmarshalRoster(badPeer.Roster)
	r.Seats[1].PeerID = []byte(peerOf(pub(5)))
	badPeer.Roster, _ = r.MarshalBinary()
	cases := []struct {
		name  string
		offer *Msg
		edit  func(*OfferCheck[pid])
		want  string
	}{
		{"not a roster", &Msg{Roster: []byte("x")}, nil, "roster"},
		{"an address list short", fewerAddrs, nil, "2 address lists for 3 seats"},
		{"another table", good, func(c *OfferCheck[pid]) { c.TableID = [16]byte{9} }, "roster is for another table"},
		{"a seat's peer not its key's", badPeer, nil, "seat 1: peer id"},
		{"seat 0 not the creator", offerOf(t, table, []byte{1, 0, 2}, []string{"ann", "zed", "bob"}), nil, "seat 0 is not the creator"},
		{"our name changed", offerOf(t, table, []byte{0, 1, 2}, []string{"zed", "ann", "bobby"}), nil, "the roster changed our seat"},
		{"no seat for us", offerOf(t, table, []byte{0, 1}, []string{"zed", "ann"}), nil, "the roster has no seat for us"},
		{"another seat than asked", good, func(c *OfferCheck[pid]) { c.Seat = 1 }, "the roster has us at seat 2, we asked for 1"},
		{"a seat refused", good, func(c *OfferCheck[pid]) { c.Validate = func(int, ledger.SeatInfo) error { return refuseAll } },
			"seat 0 (zed): no"},
		{"the roster refused", good, func(c *OfferCheck[pid]) { c.CheckRoster = func(*ledger.Roster) error { return refuseAll } },
			"the roster offered: no"},
	}
	for _, c := range cases {
		oc := check()
		if c.edit != nil {
			c.edit(&oc)
		}
		_, err := CheckOffer(c.offer, oc)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

// TestCheckSigs: the signatures that seal a roster are one per seat, each
// the seat's; the error names the seat whose is bad.
func TestCheckSigs(t *testing.T) {
	m := offerOf(t, [16]byte{1}, []byte{0, 1, 2}, []string{"zed", "ann", "bob"})
	r, err := ledger.UnmarshalRoster(m.Roster)
	if err != nil {
		t.Fatal(err)
	}
	game, _ := r.GameID()
	var sigs [][ed25519.SignatureSize]byte
	for i := range 3 {
		sigs = append(sigs, [ed25519.SignatureSize]byte(ed25519.Sign(key(byte(i)), ledger.RosterSigningBytes(game))))
	}
	if err := CheckSigs(r, game, sigs); err != nil {
		t.Fatal(err)
	}
	if err := CheckSigs(r, game, sigs[:2]); err == nil || !strings.Contains(err.Error(), "expected 3 roster signatures") {
		t.Errorf("two signatures: %v", err)
	}
	swapped := [][ed25519.SignatureSize]byte{sigs[0], sigs[2], sigs[1]}
	if err := CheckSigs(r, game, swapped); err == nil || !strings.Contains(err.Error(), "seat 1's roster signature is bad") {
		t.Errorf("swapped signatures: %v", err)
	}
	if err := CheckSigs(r, ledger.Hash{1}, sigs); err == nil || !strings.Contains(err.Error(), "seat 0's roster signature is bad") {
		t.Errorf("signatures of another game: %v", err)
	}
}
