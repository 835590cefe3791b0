package main

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

func uniqueLower(names [][]byte) bool {
	seen := map[string]bool{}
	for _, n := range names {
		l := strings.ToLower(string(n))
		if seen[l] {
			return false
		}
		seen[l] = true
	}
	return true
}

func mascName(b []byte) bool {
	if len(b) < 1 || len(b) > 32 || !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		if r < 128 {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
				return false
			}
		} else if !unicode.IsLetter(r) {
			return false
		}
	}
	switch strings.ToLower(string(b)) {
	case "centre1", "centre2", "center1", "center2", "none":
		return false
	}
	return true
}

func otherName(b []byte, extra string) bool {
	if len(b) < 1 || len(b) > 32 || !utf8.Valid(b) {
		return false
	}
	return !strings.ContainsAny(string(b), " \t\r\n,=#"+extra)
}

func validMascOpts(ed, n, coins, c int, set []int, names [][]byte) bool {
	for _, nm := range names {
		if !mascName(nm) {
			return false
		}
	}
	if !uniqueLower(names) {
		return false
	}
	m := len(set)
	cnt := map[int]int{}
	for i, k := range set {
		if i > 0 && set[i-1] > k {
			return false
		}
		cnt[k]++
	}
	if ed == 1 {
		if n < 2 || n > 13 || coins < 1 || coins > 12 || n*coins > 194 || m > 13 {
			return false
		}
		switch {
		case n <= 3:
			if c != 0 || m != 6 {
				return false
			}
		case n <= 5:
			if c != 6-n || m != n+c {
				return false
			}
		default:
			if c > 2 || m != n+c {
				return false
			}
		}
		for k, v := range cnt {
			if k < 1 || k > 12 || (k != 9 && v > 1) || (k == 9 && v != 2) {
				return false
			}
		}
		if cnt[1] == 0 {
			return false
		}
		if 3*(cnt[3]+cnt[4]+cnt[5]+cnt[9]+cnt[12]) < m {
			return false
		}
		if n < 8 && (cnt[9] > 0 || cnt[11] > 0) {
			return false
		}
	} else {
		if n < 4 || n > 12 || coins < 1 || coins > 12 || n*coins > 200 || m > 14 {
			return false
		}
		if n <= 5 && m != n+2 || n > 5 && (m < n || m > n+2) {
			return false
		}
		for k, v := range cnt {
			if k < 1 || k > 16 || (k != 15 && v > 1) || (k == 15 && v != 2) {
				return false
			}
		}
		if cnt[8] == 0 {
			return false
		}
		if 3*(cnt[1]+cnt[2]+cnt[5]+cnt[7]+cnt[11]+cnt[13]+cnt[15]) < m {
			return false
		}
		if n < 8 && (cnt[15] > 0 || cnt[3] > 0) {
			return false
		}
		if n < 6 && (cnt[10] > 0 || cnt[11] > 0) {
			return false
		}
	}
	return true
}

func validGrimm(gg *GrimmG, names [][]byte, flags int, charms [][2]int) bool {
	n := len(names)
	if n < 2 || n > 5 || !uniqueLower(names) {
		return false
	}
	for _, nm := range names {
		if !otherName(nm, "") {
			return false
		}
	}
	boon, bane := map[int]int{}, map[int]int{}
	for _, c := range charms {
		if c[0] < 9 || c[0] > 16 || c[1] < 9 || c[1] > 16 || c[0] == c[1] {
			return false
		}
		boon[c[0]]++
		bane[c[1]]++
	}
	for it := 9; it <= 16; it++ {
		if boon[it] != 1 || bane[it] != 1 {
			return false
		}
	}
	if gg.bets && n < 3 {
		return false
	}
	any := false
	deckA := []int{2, 3, 4, 5, 6, 7}
	if n == 2 {
		deckA = []int{2, 5, 6, 7}
	} else if gg.bets {
		deckA = append(deckA, 8)
	}
	for _, fr := range gg.fixed {
		if fr == nil {
			continue
		}
		any = true
		if fr.mask&16 == 0 || fr.mask&^31 != 0 {
			return false
		}
		if fr.chars != nil && !isPerm(fr.chars, rng(1, 9)) {
			return false
		}
		if fr.items != nil {
			it := []int{}
			for k := 9; k <= 16; k++ {
				for j := 0; j < 6; j++ {
					it = append(it, k)
				}
			}
			if !isPerm(fr.items, it) {
				return false
			}
		}
		if fr.actions != nil && (fr.actions[0] == fr.actions[1] || !contains(deckA, fr.actions[0]) || !contains(deckA, fr.actions[1])) {
			return false
		}
		if fr.mask&8 != 0 && fr.first >= n {
			return false
		}
	}
	if flags&8 != 0 && !any {
		return false
	}
	return true
}

func validMafia(names [][]byte, specials []int, deck, roles, incs, canonInc []int) bool {
	n := len(names)
	if n < 4 || n > 18 || !uniqueLower(names) {
		return false
	}
	for _, nm := range names {
		if !otherName(nm, ":") {
			return false
		}
	}
	var C, D, M, V int
	switch {
	case n <= 5:
		C, D, M, V = 0, 0, 1, 4
	case n <= 8:
		C, D, M, V = 1, 0, 2, 5
	case n <= 11:
		C, D, M, V = 2, 1, 2, 6
	case n <= 14:
		C, D, M, V = 3, 2, 2, 7
	default:
		C, D, M, V = 3, 2, 3, 10
	}
	c, d := 0, 0
	for i, s := range specials {
		if i > 0 && specials[i-1] >= s {
			return false
		}
		switch s {
		case 1, 2, 3:
			c++
		case 5, 6:
			d++
		default:
			return false
		}
	}
	if c > C || d > D || n-len(specials)-M > V {
		return false
	}
	if roles != nil && !isPerm(roles, deck) {
		return false
	}
	if incs != nil && !isPerm(incs, canonInc) {
		return false
	}
	return true
}
