package main

import (
	"crypto/ed25519"
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"unicode/utf8"

	"filippo.io/edwards25519"
)

var errTrunc = errors.New("truncated")

type rd struct {
	b   []byte
	off int
	err error
}

func (r *rd) n(k int) []byte {
	if r.err != nil {
		return nil
	}
	if k < 0 || r.off+k > len(r.b) {
		r.err = errTrunc
		return nil
	}
	x := r.b[r.off : r.off+k]
	r.off += k
	return x
}
func (r *rd) u8() int {
	x := r.n(1)
	if x == nil {
		return 0
	}
	return int(x[0])
}
func (r *rd) u16() int {
	x := r.n(2)
	if x == nil {
		return 0
	}
	return int(binary.BigEndian.Uint16(x))
}
func (r *rd) u32() int {
	x := r.n(4)
	if x == nil {
		return 0
	}
	return int(binary.BigEndian.Uint32(x))
}
func (r *rd) u64() uint64 {
	x := r.n(8)
	if x == nil {
		return 0
	}
	return binary.BigEndian.Uint64(x)
}
func (r *rd) done() bool { return r.err == nil && r.off == len(r.b) }

func H256(parts ...[]byte) []byte {
	h := sha512.New512_256()
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}

type Seat struct {
	Name, Peer []byte
	SignKey    []byte
	Keys       []byte
}
type Roster struct {
	TableID []byte
	Game    string
	Options []byte
	Seats   []Seat
	Raw     []byte
}

type Entry struct {
	Pos  uint64
	Seat int
	Prev []byte
	Body []byte
	Sig  []byte
	Enc  []byte
}

type File struct {
	R       *Roster
	GameID  []byte
	Entries []*Entry
}

func okName(b []byte) bool {
	if len(b) < 1 || len(b) > 64 || !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		if r <= 0x1f || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return false
		}
	}
	return true
}

func okSignKey(k []byte) bool {
	p, err := new(edwards25519.Point).SetBytes(k)
	if err != nil {
		return false
	}
	if string(p.Bytes()) != string(k) {
		return false
	}
	q := new(edwards25519.Point).MultByCofactor(p)
	return q.Equal(edwards25519.NewIdentityPoint()) != 1
}

func verifySig(pub, msg, sig []byte) bool {
	if len(sig) != 64 || sig[63]&0xe0 != 0 {
		return false
	}
	return ed25519.Verify(ed25519.PublicKey(pub), msg, sig)
}

func parseRoster(b []byte) (*Roster, error) {
	r := &rd{b: b}
	ro := &Roster{Raw: b}
	ro.TableID = r.n(16)
	gl := r.u8()
	g := r.n(gl)
	ro.Game = string(g)
	if r.err == nil && !okName(g) {
		return nil, errors.New("bad game name")
	}
	ol := r.u16()
	if ol > 4096 {
		return nil, errors.New("options too long")
	}
	ro.Options = r.n(ol)
	ns := r.u8()
	if r.err == nil && (ns < 1 || ns > 18) {
		return nil, errors.New("seat count")
	}
	names := map[string]bool{}
	keys := map[string]bool{}
	for i := 0; i < ns && r.err == nil; i++ {
		s := Seat{}
		s.Name = r.n(r.u8())
		s.Peer = r.n(r.u8())
		s.SignKey = r.n(32)
		s.Keys = r.n(r.u16())
		if r.err != nil {
			break
		}
		if !okName(s.Name) || names[string(s.Name)] {
			return nil, errors.New("bad name")
		}
		names[string(s.Name)] = true
		if !okSignKey(s.SignKey) || keys[string(s.SignKey)] {
			return nil, errors.New("bad sign key")
		}
		keys[string(s.SignKey)] = true
		ro.Seats = append(ro.Seats, s)
	}
	if !r.done() {
		return nil, errors.New("roster framing")
	}
	return ro, nil
}

// parseFile returns damaged error (exit 3 no fault)
func parseFile(b []byte) (*File, error) {
	r := &rd{b: b}
	if string(r.n(21)) != "masque transcript v1\n" {
		return nil, errors.New("magic")
	}
	rl := r.u32()
	if rl > 65536 {
		return nil, errors.New("roster too long")
	}
	rb := r.n(rl)
	if r.err != nil {
		return nil, r.err
	}
	ro, err := parseRoster(rb)
	if err != nil {
		return nil, err
	}
	sc := r.u8()
	if r.err == nil && sc != len(ro.Seats) {
		return nil, errors.New("sig count")
	}
	sigs := [][]byte{}
	for i := 0; i < sc; i++ {
		sigs = append(sigs, r.n(64))
	}
	ec := r.u32()
	if ec > 1<<20 {
		return nil, errors.New("entry count")
	}
	f := &File{R: ro}
	for i := 0; i < ec && r.err == nil; i++ {
		l := r.u32()
		if l > (1<<20)+256 {
			return nil, errors.New("entry too long")
		}
		eb := r.n(l)
		if r.err != nil {
			break
		}
		er := &rd{b: eb}
		e := &Entry{Enc: eb}
		e.Pos = er.u64()
		e.Seat = er.u8()
		e.Prev = er.n(32)
		bl := er.u32()
		if bl > 1<<20 {
			return nil, errors.New("body too long")
		}
		e.Body = er.n(bl)
		e.Sig = er.n(64)
		if !er.done() {
			return nil, errors.New("entry framing")
		}
		f.Entries = append(f.Entries, e)
	}
	if r.err != nil || !r.done() {
		return nil, errors.New("file framing")
	}
	f.GameID = H256([]byte("masque/v1/roster"), rb)
	for i, s := range ro.Seats {
		if !verifySig(s.SignKey, append([]byte("masque/v1/roster-sig"), f.GameID...), sigs[i]) {
			return nil, errors.New("roster signature")
		}
	}
	return f, nil
}

func entrySigMsg(gid []byte, e *Entry) []byte {
	m := append([]byte("masque/v1/entry-sig"), gid...)
	m = append(m, u64b(e.Pos)...)
	m = append(m, byte(e.Seat))
	m = append(m, e.Prev...)
	m = append(m, u32b(uint32(len(e.Body)))...)
	m = append(m, e.Body...)
	return m
}
