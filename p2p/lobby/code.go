package lobby

import (
	"errors"
	"fmt"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"
)

// crockford is Crockford's base32 alphabet: no I, L, O or U.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// CodeBytes is how many leading bytes of the table id a code names.
const CodeBytes = 5

// Code returns the join code of a table id: its first 40 bits as 8 Crockford
// base32 characters, split 4-4 by a dash.
func Code(id [16]byte) string {
	var v uint64
	for _, b := range id[:CodeBytes] {
		v = v<<8 | uint64(b)
	}
	var out [9]byte
	j := 8
	for i := 7; i >= 0; i-- {
		if i == 3 {
			out[j] = '-'
			j--
		}
		out[j] = crockford[v&31]
		v >>= 5
		j--
	}
	return string(out[:])
}

// ParseCode reads a join code leniently: case, dashes and spaces do not
// matter, and I/L read as 1, O as 0.
func ParseCode(s string) ([CodeBytes]byte, error) {
	var out [CodeBytes]byte
	var v uint64
	n := 0
	for _, c := range strings.ToUpper(s) {
		switch c {
		case '-', ' ':
			continue
		case 'I', 'L':
			c = '1'
		case 'O':
			c = '0'
		}
		i := strings.IndexRune(crockford, c)
		if i < 0 {
			return out, fmt.Errorf("lobby: %q is not a join code (bad character %q)", s, c)
		}
		v = v<<5 | uint64(i)
		n++
	}
	if n != 8 {
		return out, fmt.Errorf("lobby: %q is not a join code (want 8 characters)", s)
	}
	for i := CodeBytes - 1; i >= 0; i-- {
		out[i] = byte(v)
		v >>= 8
	}
	return out, nil
}

// Find returns the table whose id the code names.
func Find(tables []Table, code string) (Table, error) {
	want, err := ParseCode(code)
	if err != nil {
		return Table{}, err
	}
	for _, t := range tables {
		if [CodeBytes]byte(t.ID[:CodeBytes]) == want {
			return t, nil
		}
	}
	return Table{}, fmt.Errorf("lobby: no table with code %s on this network", Code([16]byte(append(want[:], make([]byte, 11)...))))
}

// ParseInvite reads an invite for play beyond the LAN: the creator's
// multiaddr ending in /p2p/<peer id>.
func ParseInvite(s string) (peer.AddrInfo, error) {
	info, err := peer.AddrInfoFromString(strings.TrimSpace(s))
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("lobby: invite: %w", err)
	}
	if len(info.Addrs) == 0 {
		return peer.AddrInfo{}, errors.New("lobby: invite has no address")
	}
	return *info, nil
}
