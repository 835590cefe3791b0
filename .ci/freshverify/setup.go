package main

import (
	"crypto/sha512"
	"sort"
)

type gameSetup struct {
	dealSource string
	w          int
	coins      bool
	deck       []int
	initial    []int
	rules      Rules
	err        bool
	level      string
	onDeal     func([]int)
}

func namesMatch(ro *Roster, names [][]byte) bool {
	if len(names) != len(ro.Seats) {
		return false
	}
	for i := range names {
		if string(names[i]) != string(ro.Seats[i].Name) {
			return false
		}
	}
	return true
}

func readNames(r *rd) [][]byte {
	n := r.u8()
	out := [][]byte{}
	for i := 0; i < n && r.err == nil; i++ {
		out = append(out, r.n(r.u8()))
	}
	return out
}

func setupGame(ro *Roster, to *TableOpts) *gameSetup {
	gs := &gameSetup{}
	r := &rd{b: to.GameOpts}
	switch ro.Game {
	case "mascarade", "mascarade2":
		ed := 1
		if ro.Game == "mascarade2" {
			ed = 2
		}
		gs.w = 1
		gs.level = "rules"
		if r.u8() != 1 {
			gs.err = true
		}
		names := readNames(r)
		coins := r.u8()
		c := 0
		if ed == 1 {
			c = r.u8()
		}
		m := r.u8()
		set := []int{}
		for i := 0; i < m; i++ {
			set = append(set, r.u8())
		}
		if !r.done() || !namesMatch(ro, names) || coins == 0 || m == 0 || !sort.IntsAreSorted(set) {
			gs.err = true
		}
		n := len(names)
		if ed == 2 {
			c = m - n
		}
		if !validMascOpts(ed, n, coins, c, set, names) {
			gs.err = true
		}
		gs.deck = set
		if to.HasFixed {
			gs.dealSource = "fixed"
			if !isPerm(to.Fixed, set) {
				gs.err = true
			}
			gs.initial = to.Fixed
		} else {
			gs.dealSource = "coins"
			gs.coins = true
		}
		gs.rules = newMasc(ed, n, coins, c, set)
	case "grimm":
		gs.w = 1
		gs.level = "rules"
		if r.u8() != 1 {
			gs.err = true
		}
		names := readNames(r)
		flags := r.u8()
		gg := &GrimmG{n: len(names), bets: flags&1 != 0, jewels: flags&2 != 0, abil: flags&4 != 0}
		charms := [][2]int{}
		for c := 1; c <= 8; c++ {
			b := r.u8()
			bn := r.u8()
			charms = append(charms, [2]int{b, bn})
			if b >= 9 && b <= 16 && bn >= 9 && bn <= 16 {
				gg.boonOf[b] = c
				gg.baneOf[bn] = c
			} else {
				gs.err = true
			}
		}
		anyFixed := false
		if flags&8 != 0 {
			for k := 0; k < 3; k++ {
				mask := r.u8()
				if mask == 0 {
					continue
				}
				anyFixed = true
				fr := &fixedRound{mask: mask, first: -1}
				if mask&1 != 0 {
					for _, x := range r.n(8) {
						fr.chars = append(fr.chars, int(x))
					}
				}
				if mask&2 != 0 {
					for _, x := range r.n(48) {
						fr.items = append(fr.items, int(x))
					}
				}
				if mask&4 != 0 {
					for _, x := range r.n(2) {
						fr.actions = append(fr.actions, int(x))
					}
				}
				if mask&8 != 0 {
					fr.first = r.u8()
				}
				gg.fixed[k] = fr
			}
		}
		// The options fix a round only when they are valid by their own
		// rules (§6: refused game options fix nothing, names aside).
		optsOK := r.done() && flags&^0xf == 0 && validGrimm(gg, names, flags, charms)
		if !optsOK || !namesMatch(ro, names) {
			gs.err = true
		}
		gs.dealSource = "shuffle"
		if anyFixed && optsOK {
			gs.dealSource = "fixed"
		}
		init := []int{}
		for k := 1; k <= 8; k++ {
			init = append(init, k)
		}
		for k := 9; k <= 16; k++ {
			for j := 0; j < 6; j++ {
				init = append(init, k)
			}
		}
		if gg.bets {
			for k := 17; k <= 24; k++ {
				init = append(init, k)
			}
		}
		gs.initial = init
		if to.HasFixed {
			gs.dealSource = "fixed"
			if !reflectEq(to.Fixed, init) {
				gs.err = true
			}
		}
		gs.rules = newCoro(gg.run)
	case "mafia":
		gs.w = 5
		gs.level = "crypto (opening only)"
		if r.u8() != 1 {
			gs.err = true
		}
		names := readNames(r)
		flags := r.u8()
		ms := r.u8()
		specials := []int{}
		for i := 0; i < ms; i++ {
			specials = append(specials, r.u8())
		}
		n := len(names)
		M := 1
		switch {
		case n >= 15:
			M = 3
		case n >= 6:
			M = 2
		}
		deck := append([]int{}, specials...)
		for i := 0; i < M; i++ {
			deck = append(deck, 4)
		}
		for len(deck) < n {
			deck = append(deck, 0)
		}
		sort.Ints(deck)
		incidents := []int{7, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10, 10, 10, 11, 11, 11, 12, 12, 12}
		noInc := flags&1 != 0
		var roles, incs []int
		if flags&4 != 0 {
			for i := 0; i < n; i++ {
				roles = append(roles, r.u8())
			}
			if !noInc {
				for i := 0; i < 20; i++ {
					incs = append(incs, r.u8())
				}
			}
		}
		optsOK := r.done() && flags&^7 == 0 && validMafia(names, specials, deck, roles, incs, incidents)
		if !optsOK || !namesMatch(ro, names) {
			gs.err = true
		}
		gs.dealSource = "shuffle"
		if flags&4 != 0 && optsOK {
			gs.dealSource = "fixed"
		}
		if to.HasFixed {
			gs.dealSource = "fixed"
		}
		init := append([]int{}, deck...)
		if !noInc {
			init = append(init, incidents...)
		}
		gs.initial = init
		if to.HasFixed && !reflectEq(to.Fixed, init) {
			gs.err = true
		}
		gs.rules = newMafia(n, deck, noInc, flags&2 != 0, roles, incs)
		gs.level = "rules"
	default:
		gs.err = true
	}
	return gs
}

func rng(a, b int) []int {
	r := []int{}
	for i := a; i < b; i++ {
		r = append(r, i)
	}
	return r
}
func mafiaTuple(gid []byte, k int) Card {
	h := sha512.Sum512(append([]byte("masque/mafia-group-secret/v1"), gid...))
	Q := rFromUniform(h[:])
	Gs := CT{neg(Q), Id()}
	fu := func(x int) CT { return CT{Id(), M(x)} }
	switch {
	case k == 4 || k == 5:
		return Card{fu(k), fu(14), fu(14), Gs, Gs}
	case k == 6:
		return Card{fu(6), fu(13), fu(14), fu(15), Gs}
	case k <= 3:
		return Card{fu(k), fu(13), fu(13), fu(15), fu(15)}
	}
	return Card{fu(k), fu(k), fu(k), fu(k), fu(k)}
}

func reflectEq(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
