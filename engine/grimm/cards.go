package grimm

import (
	"bufio"
	"bytes"
	_ "embed" // the default charms table
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
)

// Card kinds. The table layer sees one card space: the characters are
// 1..8, the items 9..16 and (advanced mode) the bet cards 17..24, a bet
// on character c being c+16. Kind 0 is never dealt.
const (
	EvilQueen       engine.Card = 1
	Beast           engine.Card = 2
	Cinderella      engine.Card = 3
	SleepingBeauty  engine.Card = 4
	Rumpelstiltskin engine.Card = 5
	RedRidingHood   engine.Card = 6
	BigBadWolf      engine.Card = 7
	Hansel          engine.Card = 8

	Treats       engine.Card = 9
	Cauldron     engine.Card = 10
	Disguise     engine.Card = 11
	GlassSlipper engine.Card = 12
	Clock        engine.Card = 13
	Mirror       engine.Card = 14
	Crown        engine.Card = 15
	Spindle      engine.Card = 16

	// BetBase + c is the bet card on character c.
	BetBase engine.Card = 16
)

// Counts of the box.
const (
	NumCharacters = 8  // character cards, one of each
	NumItemKinds  = 8  // item kinds
	ItemCopies    = 6  // copies of each item
	NumItems      = 48 // item cards
	NumKinds      = 25 // card kinds 0..24 (see the constants above)
	HintTokens    = 7  // hint tokens per player per round
	RoseTarget    = 10 // roses that end the game at a round's end
	Rounds        = 3  // rounds in a game
)

var names = map[engine.Card]string{
	EvilQueen: "EvilQueen", Beast: "Beast", Cinderella: "Cinderella", SleepingBeauty: "SleepingBeauty",
	Rumpelstiltskin: "Rumpelstiltskin", RedRidingHood: "RedRidingHood", BigBadWolf: "BigBadWolf", Hansel: "Hansel",
	Treats: "Treats", Cauldron: "Cauldron", Disguise: "Disguise", GlassSlipper: "GlassSlipper",
	Clock: "Clock", Mirror: "Mirror", Crown: "Crown", Spindle: "Spindle",
}

// IsCharacter reports whether c is a character card.
func IsCharacter(c engine.Card) bool { return c >= EvilQueen && c <= Hansel }

// IsItem reports whether c is an item card.
func IsItem(c engine.Card) bool { return c >= Treats && c <= Spindle }

// IsBet reports whether c is a bet card.
func IsBet(c engine.Card) bool { return c > BetBase && c <= BetBase+Hansel }

// Characters returns the eight characters in card order.
func Characters() []engine.Card {
	out := make([]engine.Card, 0, NumCharacters)
	for c := EvilQueen; c <= Hansel; c++ {
		out = append(out, c)
	}
	return out
}

// Items returns the eight item kinds in card order.
func Items() []engine.Card {
	out := make([]engine.Card, 0, NumItemKinds)
	for c := Treats; c <= Spindle; c++ {
		out = append(out, c)
	}
	return out
}

// CardName returns the script name of a card ("EvilQueen", "Crown",
// "bet:Beast"), or "card(N)" for an unknown kind.
func CardName(c engine.Card) string {
	if IsBet(c) {
		return "bet:" + names[c-BetBase]
	}
	if n, ok := names[c]; ok {
		return n
	}
	return fmt.Sprintf("card(%d)", int(c))
}

// ParseCard reads a card name (case-insensitive, '-' and '_' ignored).
func ParseCard(s string) (engine.Card, error) {
	key := normName(s)
	if b, ok := strings.CutPrefix(key, "bet:"); ok {
		c, err := ParseCard(b)
		if err != nil || !IsCharacter(c) {
			return 0, fmt.Errorf("unknown bet %q", s)
		}
		return BetBase + c, nil
	}
	for c, n := range names {
		if normName(n) == key {
			return c, nil
		}
	}
	return 0, fmt.Errorf("unknown card %q", s)
}

// ParseCharacter reads a character name.
func ParseCharacter(s string) (engine.Card, error) {
	c, err := ParseCard(s)
	if err == nil && !IsCharacter(c) {
		err = fmt.Errorf("%s is not a character", CardName(c))
	}
	return c, err
}

// ParseItem reads an item name.
func ParseItem(s string) (engine.Card, error) {
	c, err := ParseCard(s)
	if err == nil && !IsItem(c) {
		err = fmt.Errorf("%s is not an item", CardName(c))
	}
	return c, err
}

func normName(s string) string {
	s = strings.ToLower(s)
	return strings.NewReplacer("-", "", "_", "", "'", "").Replace(s)
}

// Charms is the table of boons (talismans) and banes (curses): for each
// character, the item of which 3 win the round and the item of which 2
// unmask. Index by character (1..8); index 0 is unused.
type Charms struct {
	Boon [NumCharacters + 1]engine.Card
	Bane [NumCharacters + 1]engine.Card
}

//go:embed charms.txt
var defaultCharmsText []byte

// DefaultCharms returns the table shipped with masque (charms.txt: the
// reconstruction of the rules README, item 4).
func DefaultCharms() Charms {
	c, err := ParseCharms(defaultCharmsText)
	if err != nil {
		panic("grimm: the embedded charms.txt is invalid: " + err.Error())
	}
	return c
}

// ParseCharms reads a charms table: '#' comments, and one line per
// character "CHARACTER BOON BANE". The table must be complete and valid
// (see [Charms.Validate]).
func ParseCharms(src []byte) (Charms, error) {
	var c Charms
	sc := bufio.NewScanner(bytes.NewReader(src))
	line := 0
	for sc.Scan() {
		line++
		t := sc.Text()
		if i := strings.IndexByte(t, '#'); i >= 0 {
			t = t[:i]
		}
		f := strings.Fields(t)
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			return Charms{}, fmt.Errorf("charms: line %d: want CHARACTER BOON BANE, got %q", line, t)
		}
		ch, err := ParseCharacter(f[0])
		if err != nil {
			return Charms{}, fmt.Errorf("charms: line %d: %w", line, err)
		}
		if c.Boon[ch] != 0 {
			return Charms{}, fmt.Errorf("charms: line %d: %s given twice", line, CardName(ch))
		}
		if c.Boon[ch], err = ParseItem(f[1]); err != nil {
			return Charms{}, fmt.Errorf("charms: line %d: %w", line, err)
		}
		if c.Bane[ch], err = ParseItem(f[2]); err != nil {
			return Charms{}, fmt.Errorf("charms: line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return Charms{}, fmt.Errorf("charms: %w", err)
	}
	if err := c.Validate(); err != nil {
		return Charms{}, err
	}
	return c, nil
}

// Validate checks that every character has a boon and a bane, different
// items, and that every item is exactly one character's boon and exactly
// one character's bane.
func (c Charms) Validate() error {
	var boonOf, baneOf [NumKinds]int
	for ch := EvilQueen; ch <= Hansel; ch++ {
		b, k := c.Boon[ch], c.Bane[ch]
		if !IsItem(b) || !IsItem(k) {
			return fmt.Errorf("charms: %s lacks a boon or a bane", CardName(ch))
		}
		if b == k {
			return fmt.Errorf("charms: %s has %s as both boon and bane", CardName(ch), CardName(b))
		}
		boonOf[b]++
		baneOf[k]++
	}
	if c.Boon[0] != 0 || c.Bane[0] != 0 {
		return fmt.Errorf("charms: entry 0 is not a character")
	}
	for it := Treats; it <= Spindle; it++ {
		if boonOf[it] != 1 || baneOf[it] != 1 {
			return fmt.Errorf("charms: %s is the boon of %d and the bane of %d characters (want 1 and 1)", CardName(it), boonOf[it], baneOf[it])
		}
	}
	return nil
}

// BoonOwner returns the character whose boon is item it.
func (c Charms) BoonOwner(it engine.Card) engine.Card {
	for ch := EvilQueen; ch <= Hansel; ch++ {
		if c.Boon[ch] == it {
			return ch
		}
	}
	return 0
}

// BaneOwner returns the character whose bane is item it.
func (c Charms) BaneOwner(it engine.Card) engine.Card {
	for ch := EvilQueen; ch <= Hansel; ch++ {
		if c.Bane[ch] == it {
			return ch
		}
	}
	return 0
}

// String returns the table in the charms.txt format.
func (c Charms) String() string {
	var b strings.Builder
	for ch := EvilQueen; ch <= Hansel; ch++ {
		fmt.Fprintf(&b, "%s %s %s\n", CardName(ch), CardName(c.Boon[ch]), CardName(c.Bane[ch]))
	}
	return b.String()
}
