package netsession

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/grimm/grimmview"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

// The seal salt is drawn once per state directory, kept with mode 0600,
// and read back unchanged by a restarted seat.
func TestSealSaltKept(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	a, err := sealSalt(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sealSalt(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := sealSalt(other)
	if err != nil {
		t.Fatal(err)
	}
	if a != b || a == c || a == [32]byte{} {
		t.Fatalf("salts: first %x, again %x, another directory %x", a, b, c)
	}
	fi, err := os.Stat(filepath.Join(dir, SealSaltFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the salt file: %v, mode %v", err, fi.Mode())
	}
	os.WriteFile(filepath.Join(other, SealSaltFile), []byte("short"), 0o600)
	if _, err := sealSalt(other); err == nil {
		t.Fatal("a damaged salt file was accepted")
	}
}

// eavesdropBeforeCommits is the rule book's Eavesdrop example up to the
// commitments: Kristina and Maria must each seal a portrait.
const eavesdropBeforeCommits = `game grimm players=Kristina,Alexander,Maria
round 1 chars=RedRidingHood,EvilQueen,Hansel items=GlassSlipper,Crown,Clock,Treats,Treats,GlassSlipper,Clock,Crown,Disguise,Disguise,Spindle,Spindle,Cauldron,Spindle,Mirror actions=eavesdrop,toast first=Kristina
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Clock
Kristina keep
Kristina hint Beast
Kristina give Maria
Maria hint Cinderella
Kristina end
Alexander keep
Alexander hint Rumpelstiltskin
Alexander give Maria
Alexander end
Maria keep
Maria hint RedRidingHood
Maria give Kristina
Maria end
Kristina give Maria
Kristina end
Alexander give Maria
Maria hint SleepingBeauty
Alexander act eavesdrop Crown Kristina Maria
`

// A sealed Eavesdrop choice made on the screen survives a restart: the
// screen seals with the salt of the seat's state directory, and the
// screen of the restarted seat (the same directory) offers the opening;
// a screen with a salt of its own could not open it.
func TestSealedChoiceSurvivesRestart(t *testing.T) {
	lt, err := localplay.Run(grimm.Game{}, []byte(eavesdropBeforeCommits), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	salt, err := sealSalt(dir)
	if err != nil {
		t.Fatal(err)
	}
	build := func(salt [32]byte) seatview.Table {
		t.Helper()
		k := lt.Seats[0]
		tv, ok := seatview.Build(grimmview.Viewer{}, seatview.Input{Rules: k.Replica.Rules(), Seat: 0, Names: []string{"Kristina", "Alexander", "Maria"},
			Known: k.Player.Known(k.Replica), MyTurn: true, Salt: salt})
		if !ok || tv.Question == nil {
			t.Fatalf("no question for Kristina: %+v", tv)
		}
		return tv
	}
	// Kristina seals the Evil Queen on the screen; Maria commits too.
	var sealed *seatview.Choice
	for _, c := range build(salt).Question.Choices {
		if strings.Contains(c.Words, "Evil Queen") && c.Move.Kind == grimm.KindCommit {
			sealed = &c
		}
	}
	if sealed == nil {
		t.Fatalf("no sealed choice of the Evil Queen: %+v", build(salt).Question.Choices)
	}
	if err := lt.Move(0, sealed.Move, nil); err != nil {
		t.Fatal(err)
	}
	if err := lt.Move(2, engine.Move{Kind: grimm.KindCommit, Args: grimm.CommitArgs(grimm.CommitHash(2, grimm.EvilQueen, grimm.NonceArgs(grimm.ScriptNonce(2, 1))))}, nil); err != nil {
		t.Fatal(err)
	}
	s := lt.View().Rules().(*grimm.State)
	if seat, _, ok := s.Pending(); !ok || seat != 0 {
		t.Fatalf("pending %v %v, want Kristina to open", seat, ok)
	}
	opens := func(salt [32]byte) bool {
		for _, c := range build(salt).Question.Choices {
			if _, _, err := s.Play(c.Move); err == nil && c.Move.Kind == grimm.KindHint {
				return true
			}
		}
		return false
	}
	// The restart: the salt read again from the state directory.
	again, err := sealSalt(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !opens(again) {
		t.Fatalf("the restarted seat's screen cannot open its sealed choice: %+v", build(again).Question)
	}
	if opens([32]byte{1}) {
		t.Fatal("a screen with another salt opens the commitment (the seal is not the salt's)")
	}
}

// Lone shuffles are written and read back; a later line for a position
// replaces an earlier one, and a torn last line is ignored.
func TestShufflesFile(t *testing.T) {
	dir := t.TempDir()
	a := table.LoneShuffle{Pos: 7, Slots: []engine.Slot{40, 41}, Cards: []engine.Card{3, -1}, Digest: [32]byte{1}}
	b := table.LoneShuffle{Pos: 7, Slots: []engine.Slot{40, 41}, Cards: []engine.Card{-1, 3}, Digest: [32]byte{2}}
	c := table.LoneShuffle{Pos: 9, Slots: []engine.Slot{40}, Cards: []engine.Card{5}, Digest: [32]byte{3}}
	for _, ls := range []table.LoneShuffle{a, b, c} {
		if err := appendShuffle(dir, ls); err != nil {
			t.Fatal(err)
		}
	}
	f, _ := os.OpenFile(filepath.Join(dir, ShufflesFile), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("11 ab")
	f.Close()
	got, err := loadShuffles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Digest != b.Digest || got[0].Cards[1] != 3 || got[1].Pos != 9 || got[1].Cards[0] != 5 {
		t.Fatalf("read back %+v", got)
	}
	if fi, err := os.Stat(filepath.Join(dir, ShufflesFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the shuffles file: %v, mode %v", err, fi.Mode())
	}
}

// A bot's sealed Eavesdrop choice survives a restart too: sealed with the
// seat's kept salt (games.SealingBot), the bot of the restarted seat
// opens it; a bot without the salt could not.
func TestBotSealedChoiceSurvivesRestart(t *testing.T) {
	lt, err := localplay.Run(grimm.Game{}, []byte(eavesdropBeforeCommits), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	g, err := registry.Lookup("grimm")
	if err != nil {
		t.Fatal(err)
	}
	salt, err := sealSalt(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	k := lt.Seats[0]
	bot := func(sealed bool) games.KnowingBot {
		t.Helper()
		b, err := g.NewBot(k.Replica.Rules(), 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		sb, ok := b.(games.SealingBot)
		if !ok {
			t.Fatalf("the Grimm bot %T does not seal with a kept salt", b)
		}
		if sealed {
			sb.SealWith(salt)
		}
		return b.(games.KnowingBot)
	}
	m, _, ok := bot(true).ChooseKnowing(k.Replica.Rules(), k.Player.Known(k.Replica))
	if !ok || m.Kind != grimm.KindCommit {
		t.Fatalf("the bot chose %+v (%v), want a commitment", m, ok)
	}
	if err := lt.Move(0, m, nil); err != nil {
		t.Fatal(err)
	}
	if err := lt.Move(2, engine.Move{Kind: grimm.KindCommit, Args: grimm.CommitArgs(grimm.CommitHash(2, grimm.EvilQueen, grimm.NonceArgs(grimm.ScriptNonce(2, 1))))}, nil); err != nil {
		t.Fatal(err)
	}
	s := lt.View().Rules().(*grimm.State)
	// The control: a fresh bot without the salt cannot open.
	if m, _, ok := bot(false).ChooseKnowing(s, k.Player.Known(k.Replica)); ok {
		if _, _, err := s.Play(m); err == nil {
			t.Fatalf("a bot without the salt opened the commitment with %+v", m)
		}
	}
	m, _, ok = bot(true).ChooseKnowing(s, k.Player.Known(k.Replica))
	if !ok || m.Kind != grimm.KindHint {
		t.Fatalf("the restarted bot chose %+v (%v), want the opening", m, ok)
	}
	if err := lt.Move(0, m, nil); err != nil {
		t.Fatalf("the restarted bot's opening: %v", err)
	}
}
