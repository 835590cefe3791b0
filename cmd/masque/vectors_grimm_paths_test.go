package main

// A Grimm vector for the paths the other Grimm games do not reach (issue
// 24, item 18): the Beast's ability, Master of the game (an extra draw at
// the end of a masked turn in which the turn player placed a hint token),
// and a seat with no hint token left (all seven on the board). Every
// round is fixed by the options (characters, items, actions, first
// player: docs/protocol.md §2.2.2), so no 48-card shuffle makes the file
// big, and the Beast is seat 0's character in every round; bots (seed 27,
// found by trying seeds) play the rest.

import (
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/table"
)

// grimmPathsFile is the vector's file; grimmPathsSeed the bots' seed.
const (
	grimmPathsFile = "honest-grimm-3-fixed-abilities.masque"
	grimmPathsSeed = 27
)

// grimmPathsOptions are the vector's options: 3 players, abilities, every
// round fixed. Each round's items are a fixed pseudo-random order (a
// Fisher-Yates shuffle driven by a linear congruential generator seeded
// with the round number), so that pairs come neither at once nor never.
func grimmPathsOptions() grimm.Options {
	items := func(seed uint32) []engine.Card {
		out := make([]engine.Card, 0, 48)
		for k := range 48 {
			out = append(out, grimm.Treats+engine.Card(k/6))
		}
		x := seed
		for i := len(out) - 1; i > 0; i-- {
			x = x*1664525 + 1013904223
			j := int(x>>8) % (i + 1)
			out[i], out[j] = out[j], out[i]
		}
		return out
	}
	o := grimm.Options{Players: []string{"Anna", "Boris", "Sasha"}, Abilities: true}
	o.Fixed[0] = &grimm.FixedRound{Chars: []engine.Card{2, 1, 3, 4, 5, 6, 7, 8}, Items: items(1),
		Actions: []grimm.Action{grimm.GuestList, grimm.Search}, First: 0}
	o.Fixed[1] = &grimm.FixedRound{Chars: []engine.Card{2, 3, 1, 5, 4, 7, 6, 8}, Items: items(2),
		Actions: []grimm.Action{grimm.Exchange, grimm.Eavesdrop}, First: 0}
	o.Fixed[2] = &grimm.FixedRound{Chars: []engine.Card{2, 4, 3, 1, 6, 5, 8, 7}, Items: items(3),
		Actions: []grimm.Action{grimm.Dance, grimm.Toast}, First: 0}
	return o
}

func grimmPathsGame(t *testing.T) *local.Table {
	return grimmBotGame(t, grimmPathsFile, grimmPathsOptions(), grimmPathsSeed)
}

// grimmPathEvents replays lt's transcript and lists "master-of-the-game"
// when the Beast's extra draw happens and "no-token-left" when a seat has
// placed all its hint tokens. The extra draw is recognised as the third
// item revealed during one masked turn of round 2 by the holder of the
// Beast's ability: a masked turn reveals at most two items of its own
// (the first and the second card), round 2's actions (Exchange gifts,
// Eavesdrop) reveal none, and the Beast's holder has no other ability
// that draws.
func grimmPathEvents(t *testing.T, lt *local.Table) []string {
	t.Helper()
	tr := lt.Transcript()
	rt, err := table.New(tr.Roster, grimm.Game{})
	if err != nil {
		t.Fatal(err)
	}
	var ev []string
	turn, round, reveals := engine.Seat(-1), 0, 0
	for k, e := range tr.Entries {
		before := rt.Rules().(*grimm.State)
		if err := rt.Apply(e); err != nil {
			t.Fatalf("entry %d: %v", k, err)
		}
		after := rt.Rules().(*grimm.State)
		if after.Turn() != turn || after.Round() != round {
			turn, round, reveals = after.Turn(), after.Round(), 0
		}
		if before.Step() != "reveal" && after.Step() == "reveal" && after.Turn() == before.Turn() &&
			after.Round() == 2 && after.Ability(turn) == grimm.Beast && !after.Unmasked(turn) {
			if reveals++; reveals == 3 && !slices.Contains(ev, "master-of-the-game") {
				ev = append(ev, "master-of-the-game")
			}
		}
		for p := range engine.Seat(after.Players()) {
			if after.TokensLeft(p) == 0 && !slices.Contains(ev, "no-token-left") {
				ev = append(ev, "no-token-left")
			}
		}
	}
	return ev
}

// TestGrimmPathVectorReachesItsPaths checks that the vector's game does
// what its description says, and (the control) that the basic 3-player
// vector game does neither.
func TestGrimmPathVectorReachesItsPaths(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two games through the real stack")
	}
	ev := grimmPathEvents(t, grimmPathsGame(t))
	for _, want := range []string{"master-of-the-game", "no-token-left"} {
		if !slices.Contains(ev, want) {
			t.Errorf("%s: no %s: %v", grimmPathsFile, want, ev)
		}
	}
	if ev := grimmPathEvents(t, grimmVectorGame(t)); slices.Contains(ev, "master-of-the-game") {
		t.Errorf("the basic game (no abilities) shows the Beast's extra draw: %v", ev)
	}
}

// grimmPathVectorSpecs is the vector.
func grimmPathVectorSpecs() []vectorSpec {
	return []vectorSpec{{
		want: vectorCase{File: grimmPathsFile, Game: grimm.GameName, Valid: true, Complete: true, DealSource: dealFixed, KeysPublished: true,
			Description: "The Grimm Masquerade, 3 bots (seed 27) with abilities, every round fixed by the options (characters, items, " +
				"actions and first player face up in the given order: docs/protocol.md §2.2.2; Anna plays the Beast each round): " +
				"in round 1 Sasha places her seventh hint token (no token left), in round 2 Anna holds Master of the game and, " +
				"having answered a hint on her own turn, draws an extra card at its end (§9.6); three rounds, keys published."},
		build: func(t *testing.T) ([]byte, int) { return encodeTranscript(t, grimmPathsGame(t).Transcript()) },
	}}
}
