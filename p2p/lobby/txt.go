package lobby

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// Service is the DNS-SD service type of a masque table.
const Service = "_masque._tcp"

// Domain is the mDNS domain.
const Domain = "local."

// Version is the lobby protocol version advertised as v=. It changes
// whenever a table's peers could not play with each other: 2 since the
// join protocol carries seats as fields (/masque/join/2); 3 since a seat's
// keys are a card key and a viewing key (private views are encrypted to
// the viewing key).
const Version = 3

// TXT size limits.
const (
	MaxTXTString = 255  // bytes per TXT string (DNS character-string limit)
	MaxTXTTotal  = 1300 // bytes for all strings, to stay within one packet
)

// Table is an advertised table as creators describe it and browsers see it.
type Table struct {
	ID      [16]byte
	Name    string
	Game    string
	Options string // human-readable options summary
	Taken   int
	Total   int
	Version int
	Peer    peer.ID
	Addrs   []ma.Multiaddr
	// Players are the names seated so far (TXT w=, comma-separated,
	// truncated); informative only.
	Players []string
	// Playing: the table's game is under way. It is listed for
	// spectators ('masque watch CODE'), not for joining: its seats are
	// the roster's (Taken == Total), and its creator refuses joins. TXT
	// st=play; in a relay's directory, the in-play operations
	// (docs/protocol.md §10). A browser older than this field sees a full
	// table.
	Playing bool

	// Set by Browse.
	Instance string    // the mDNS instance name
	Seen     time.Time // when the table last answered
}

// Code is the table's join code (it names the table id and the creator).
func (t Table) Code() string { return Code(t.ID, t.Peer) }

// Fingerprint is the creator's [Fingerprint].
func (t Table) Fingerprint() string { return Fingerprint(t.Peer) }

// AddrInfo is what p2p.JoinConfig.Creator needs.
func (t Table) AddrInfo() peer.AddrInfo { return peer.AddrInfo{ID: t.Peer, Addrs: t.Addrs} }

// truncate cuts s to at most n bytes on a UTF-8 boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// EncodeTXT returns the TXT strings for t, each at most MaxTXTString bytes
// and all together at most MaxTXTTotal.
func EncodeTXT(t Table) []string {
	kv := func(k, v string) string { return truncate(k+"="+v, MaxTXTString) }
	out := []string{
		kv("v", strconv.Itoa(Version)),
		kv("id", hex.EncodeToString(t.ID[:])),
		kv("s", fmt.Sprintf("%d/%d", t.Taken, t.Total)),
		kv("p", t.Peer.String()),
		kv("n", t.Name),
		kv("g", t.Game),
		kv("o", t.Options),
	}
	if len(t.Players) > 0 {
		out = append(out, kv("w", strings.Join(t.Players, ",")))
	}
	if t.Playing {
		out = append(out, kv("st", "play"))
	}
	total := 0
	for _, s := range out {
		total += 1 + len(s)
	}
	for _, a := range t.Addrs {
		s := "a=" + a.String()
		if len(s) > MaxTXTString || total+1+len(s) > MaxTXTTotal {
			continue
		}
		total += 1 + len(s)
		out = append(out, s)
	}
	return out
}

// DecodeTXT parses TXT strings written by EncodeTXT. Unknown keys are
// ignored, so later versions can add some; id, s and p are required.
func DecodeTXT(txt []string) (Table, error) {
	var t Table
	var have = map[string]bool{}
	for _, s := range txt {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			continue
		}
		have[k] = true
		switch k {
		case "v":
			t.Version, _ = strconv.Atoi(v)
		case "id":
			b, err := hex.DecodeString(v)
			if err != nil || len(b) != len(t.ID) {
				return Table{}, errors.New("lobby: bad table id")
			}
			copy(t.ID[:], b)
		case "s":
			a, b, ok := strings.Cut(v, "/")
			taken, err1 := strconv.Atoi(a)
			total, err2 := strconv.Atoi(b)
			if !ok || err1 != nil || err2 != nil || taken < 0 || total < taken || total > 255 {
				return Table{}, fmt.Errorf("lobby: bad seats %q", v)
			}
			t.Taken, t.Total = taken, total
		case "p":
			id, err := peer.Decode(v)
			if err != nil {
				return Table{}, fmt.Errorf("lobby: bad peer id: %w", err)
			}
			t.Peer = id
		case "n":
			t.Name = v
		case "g":
			t.Game = v
		case "o":
			t.Options = v
		case "w":
			if v != "" {
				t.Players = strings.Split(v, ",")
			}
		case "st":
			t.Playing = v == "play"
		case "a":
			if a, err := ma.NewMultiaddr(v); err == nil {
				t.Addrs = append(t.Addrs, a)
			}
		}
	}
	for _, k := range []string{"id", "s", "p"} {
		if !have[k] {
			return Table{}, fmt.Errorf("lobby: TXT record lacks %s=", k)
		}
	}
	return t, nil
}
