package main

// The plurality kill of mental SPEC §9.9 (count lookup, vote cards, kill
// table), written from the SPEC, and a check of mental's frozen vector
// testdata/vectors_killlookup.txt (no table entry carries them yet).

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"filippo.io/edwards25519"
)

func smallScalar(v int) *Scalar {
	b := make([]byte, 32)
	b[0], b[1], b[2] = byte(v), byte(v>>8), byte(v>>16)
	s, _ := new(Scalar).SetCanonicalBytes(b)
	return s
}

// VerifyCountLookup checks a count lookup body (W_A ‖ W_B ‖ R×(2n+2) ‖
// s×(2n+1)) of seat ctx.Seat over its own ballot entries and the tally;
// it returns W, or nil.
func VerifyCountLookup(ctx Ctx, H *Point, entries, tally []CT, body []byte) *CT {
	n := len(entries)
	if n < 1 || n > 64 || len(tally) != n || len(body) != 64+32*(4*n+3) {
		return nil
	}
	WA, err1 := rDecode(body[:32])
	WB, err2 := rDecode(body[32:64])
	if err1 != nil || err2 != nil {
		return nil
	}
	tr := NewTr("masque/mafia-count-lookup/v1")
	tr.Ctx(ctx)
	tr.Pt("H", H)
	tr.Int("entries/n", uint64(n))
	for _, e := range entries {
		tr.Item("entry", append(rEncode(e.A), rEncode(e.B)...))
	}
	tr.Int("tally/n", uint64(n))
	for _, e := range tally {
		tr.Item("tally", append(rEncode(e.A), rEncode(e.B)...))
	}
	tr.Item("W", append([]byte{1}, body[:64]...))
	var eqs []Eqn
	for i, e := range entries {
		eqs = append(eqs, E([]int{n + i}, []*Point{G()}, T(e.A)), E([]int{i, n + i}, []*Point{G(), H}, T(e.B)))
	}
	var wa, wb []int
	var ba, bb []*Point
	for i, e := range tally {
		wa, ba = append(wa, i), append(ba, e.A)
		wb, bb = append(wb, i), append(bb, e.B)
	}
	wa, ba = append(wa, 2*n), append(ba, G())
	wb, bb = append(wb, 2*n), append(bb, H)
	eqs = append(eqs, E(wa, ba, T(WA)), E(wb, bb, T(WB)))
	if !VerifySigma(tr, Leaf(2*n+1, eqs...), body[64:], false) {
		return nil
	}
	return &CT{WA, WB}
}

// codeSum is Σ 3^i·e_i by Horner's rule (SPEC §9.6).
func codeSum(es []CT) CT {
	a, b := edwards25519.NewIdentityPoint(), edwards25519.NewIdentityPoint()
	for i := len(es) - 1; i >= 0; i-- {
		a = add(add(add(a, a), a), es[i].A)
		b = add(add(add(b, b), b), es[i].B)
	}
	return CT{a, b}
}

// killCountVectors lists the block-size vectors of the partitions of k
// votes, each once, in ascending lexicographic order (SPEC §9.9).
func killCountVectors(k int) [][]int {
	var out [][]int
	var walk func(blocks []int)
	walk = func(blocks []int) {
		if len(blocks) == k {
			c := make([]int, k)
			for i, b := range blocks {
				for _, o := range blocks {
					if o == b {
						c[i]++
					}
				}
			}
			if !slices.ContainsFunc(out, func(x []int) bool { return slices.Equal(x, c) }) {
				out = append(out, c)
			}
			return
		}
		top := -1
		for _, b := range blocks {
			top = max(top, b)
		}
		for b := 0; b <= top+1; b++ {
			walk(append(slices.Clone(blocks), b))
		}
	}
	walk(nil)
	slices.SortFunc(out, slices.Compare)
	return out
}

// killRows lays the kill table of the votes (V, W) (SPEC §9.9).
func killRows(votes [][2]CT) []Card {
	k := len(votes)
	KA, KB := edwards25519.NewIdentityPoint(), edwards25519.NewIdentityPoint()
	for j := k - 1; j >= 0; j-- {
		KA = add(new(Point).ScalarMult(smallScalar(k+1), KA), votes[j][1].A)
		KB = add(new(Point).ScalarMult(smallScalar(k+1), KB), votes[j][1].B)
	}
	var rows []Card
	for _, c := range killCountVectors(k) {
		val, w, p := 0, 0, 1
		for j, cj := range c {
			val += cj * p
			p *= k + 1
			if cj > c[w] {
				w = j
			}
		}
		key := CT{KA, sub(KB, new(Point).ScalarMult(smallScalar(val), G()))}
		rows = append(rows, Card{key, votes[w][0]})
	}
	return rows
}

// checkKillLookupVector checks the vector file: every lookup verifies (and
// not as another seat's nor over another ballot), the vote cards, count
// vectors and rows match byte for byte. It returns the mismatches.
func checkKillLookupVector(path string) (bad int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	v := map[string][]byte{}
	txt := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		k, val, _ := strings.Cut(line, " = ")
		if strings.HasPrefix(val, `"`) {
			txt[k], _ = strconv.Unquote(val)
			continue
		}
		if v[k], err = hex.DecodeString(val); err != nil {
			return 0, fmt.Errorf("%s: %w", k, err)
		}
	}
	dec := func(b []byte) *Point { p, err := rDecode(b); must(err); return p }
	cts := func(b []byte, n int) []CT {
		out := make([]CT, n)
		for i := range out {
			out[i] = CT{dec(b[64*i : 64*i+32]), dec(b[64*i+32 : 64*i+64])}
		}
		return out
	}
	H := dec(v["joint_key"])
	n := int(v["ballot[0]"][0])
	var ballots [][]CT
	for s := 0; ; s++ {
		b, ok := v[fmt.Sprintf("ballot[%d]", s)]
		if !ok {
			break
		}
		ballots = append(ballots, cts(b[1:], n))
	}
	var tally []CT
	for i := range n {
		tally = append(tally, cts(v[fmt.Sprintf("tally[%d]", i)], 1)[0])
	}
	var votes [][2]CT
	for s := range ballots {
		pos, _ := strconv.ParseUint(txt[fmt.Sprintf("lookup[%d].ctx.pos", s)], 10, 64)
		ctx := Ctx{Table: v[fmt.Sprintf("lookup[%d].ctx.table", s)], Pos: pos, Seat: uint64(s)}
		body := v[fmt.Sprintf("lookup[%d]", s)]
		W := VerifyCountLookup(ctx, H, ballots[s], tally, body)
		if W == nil {
			fmt.Printf("killlookup: lookup %d does not verify\n", s)
			bad++
			continue
		}
		other := ctx
		other.Seat = uint64((s + 1) % len(ballots))
		if VerifyCountLookup(other, H, ballots[s], tally, body) != nil || VerifyCountLookup(ctx, H, ballots[(s+1)%len(ballots)], tally, body) != nil {
			fmt.Printf("killlookup: lookup %d verifies as another seat's or over another ballot\n", s)
			bad++
		}
		V := codeSum(ballots[s])
		if string(Card{V, *W}.Enc()) != string(v[fmt.Sprintf("vote_card[%d]", s)]) {
			fmt.Printf("killlookup: vote card %d differs\n", s)
			bad++
		}
		if s < 3 {
			votes = append(votes, [2]CT{V, *W})
		}
	}
	for k := 2; k <= 5; k++ {
		if got := fmt.Sprint(killCountVectors(k)); got != txt[fmt.Sprintf("count_vectors(k=%d)", k)] {
			fmt.Printf("killlookup: count vectors k=%d differ\n", k)
			bad++
		}
	}
	if len(votes) != 3 {
		return bad + 1, nil
	}
	for r, row := range killRows(votes) {
		if string(row.Enc()) != string(v[fmt.Sprintf("row[%d]", r)]) {
			fmt.Printf("killlookup: row %d differs\n", r)
			bad++
		}
	}
	want := slices.IndexFunc(killCountVectors(3), func(c []int) bool { return slices.Equal(c, []int{2, 2, 1}) })
	if txt["true_row"] != strconv.Itoa(want) {
		fmt.Println("killlookup: the true row differs")
		bad++
	}
	return bad, nil
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
