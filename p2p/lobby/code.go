package lobby

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"
)

// crockford is Crockford's base32 alphabet: no I, L, O or U.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// CodeChars is how many Crockford base32 characters a join code has: 12
// (60 bits), written in three groups of four ("4F7Q-ZK2M-8XPA").
//
// A code is not a prefix of the table id: it is a hash of the table id
// AND the creator's peer id ([Code]). The table id travels in clear in
// every advertisement, so a code that named only the table id (as the
// 8-character codes of older versions did) was matched by any peer that
// copied the id into its own advertisement. A peer id cannot be copied
// usefully: libp2p's handshake proves it, so a join to a copied peer id at
// the attacker's address fails. To get a table of its own to answer to a
// victim's code, an attacker must therefore grind (table id, peer id)
// pairs until the hash matches: a second preimage of 60 bits, about 2^60
// (1.2·10^18) SHA-256 evaluations, since it may vary its table id freely
// (no key generation per try). At 10^10 hashes a second (a fast GPU) that
// is about 3.6 years; even 100 such GPUs need about 13 days (aiming at
// any of k tables open at once divides that by k: a LAN has a few). A code is
// only worth attacking while its table is open in the lobby (minutes to
// hours: the time to read it out and for the players to join), and a new
// table has a new id and so a new code: precomputation does not help. 60
// bits keeps the code short enough to read out and type. And when two
// creators do match a code, a name or a table id, a join lists them with
// their [Fingerprint]s and makes the player choose.
const CodeChars = 12

// codeDomain separates join-code hashes from any other use of SHA-256.
const codeDomain = "masque/lobby/join-code/v1\x00"

// oldCodeChars is the length of the codes of masque before the codes named
// the creator; they are refused (see [ParseCode]).
const oldCodeChars = 8

// Code returns the join code of the table id advertised by creator: the
// first 60 bits of SHA-256(domain ‖ id ‖ creator peer id bytes) as 12
// Crockford base32 characters, grouped 4-4-4 by dashes.
func Code(id [16]byte, creator peer.ID) string {
	h := sha256.New()
	h.Write([]byte(codeDomain))
	h.Write(id[:])
	h.Write([]byte(creator))
	return groups(base32(binary.BigEndian.Uint64(h.Sum(nil)[:8])>>(64-5*CodeChars), CodeChars))
}

// FingerprintChars is how many characters a creator's [Fingerprint] has.
const FingerprintChars = 16

// fingerprintDomain separates fingerprints from join codes.
const fingerprintDomain = "masque/lobby/fingerprint/v1\x00"

// Fingerprint is a short digest of a peer id for people to compare and
// type: the first 80 bits of SHA-256(domain ‖ peer id bytes) as 16
// Crockford base32 characters grouped by four ("7KQ3-M0ZB-TX2D-9RWA").
// 'masque host' prints its own; a join that finds several creators for
// one name, code or table id lists theirs.
func Fingerprint(p peer.ID) string {
	h := sha256.New()
	h.Write([]byte(fingerprintDomain))
	h.Write([]byte(p))
	sum := h.Sum(nil)
	hi := binary.BigEndian.Uint64(sum[:8]) >> (64 - 40)
	lo := binary.BigEndian.Uint64(sum[5:13]) >> (64 - 40)
	return groups(base32(hi, 8) + base32(lo, 8))
}

// base32 writes the low 5n bits of v as n Crockford characters.
func base32(v uint64, n int) string {
	out := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		out[i] = crockford[v&31]
		v >>= 5
	}
	return string(out)
}

// groups puts a dash between groups of four characters.
func groups(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i += 4 {
		if i > 0 {
			b.WriteByte('-')
		}
		b.WriteString(s[i:min(i+4, len(s))])
	}
	return b.String()
}

// normalize reads Crockford characters leniently: case, dashes and spaces
// do not matter, and I/L read as 1, O as 0. It returns the characters in
// canonical form and the first bad character, if any.
func normalize(s string) (string, rune, bool) {
	var b strings.Builder
	for _, c := range strings.ToUpper(s) {
		switch c {
		case '-', ' ':
			continue
		case 'I', 'L':
			c = '1'
		case 'O':
			c = '0'
		}
		if !strings.ContainsRune(crockford, c) {
			return "", c, false
		}
		b.WriteRune(c)
	}
	return b.String(), 0, true
}

// ErrOldCode is wrapped by [ParseCode]'s error for an 8-character code.
var ErrOldCode = errors.New("an 8-character join code of an older masque")

// ParseCode reads a join code leniently (case, dashes and spaces do not
// matter, and I/L read as 1, O as 0) and returns it in canonical form.
// The 8-character codes of older versions are refused (the error wraps
// [ErrOldCode]): they named only the table id, which anyone can copy.
func ParseCode(s string) (string, error) {
	c, bad, ok := normalize(s)
	switch {
	case !ok:
		return "", fmt.Errorf("lobby: %q is not a join code (bad character %q)", s, bad)
	case len(c) == oldCodeChars:
		return "", fmt.Errorf("lobby: %q is %w, which names only the table id (anyone can copy it); the host's masque prints the %d-character code", s, ErrOldCode, CodeChars)
	case len(c) != CodeChars:
		return "", fmt.Errorf("lobby: %q is not a join code (want %d characters, like 4F7Q-ZK2M-8XPA)", s, CodeChars)
	}
	return groups(c), nil
}

// Find returns every table whose join code is code (more than one only if
// someone ground a collision: the caller must then let the player choose).
func Find(tables []Table, code string) ([]Table, error) {
	want, err := ParseCode(code)
	if err != nil {
		return nil, err
	}
	var out []Table
	for _, t := range tables {
		if t.Code() == want {
			out = append(out, t)
		}
	}
	return out, nil
}

// MatchCreator reports whether sel names the creator p: its full peer id,
// or a prefix of at least 4 characters of its [Fingerprint] (case, dashes
// and spaces ignored, I/L read as 1, O as 0).
func MatchCreator(p peer.ID, sel string) bool {
	sel = strings.TrimSpace(sel)
	if sel == "" {
		return false
	}
	if sel == p.String() {
		return true
	}
	c, _, ok := normalize(sel)
	if !ok || len(c) < 4 {
		return false
	}
	fp, _, _ := normalize(Fingerprint(p))
	return strings.HasPrefix(fp, c)
}

// Creators returns how many different creators advertise tables.
func Creators(tables []Table) int {
	seen := map[peer.ID]bool{}
	for _, t := range tables {
		seen[t.Peer] = true
	}
	return len(seen)
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
