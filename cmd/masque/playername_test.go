package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/games/registry"
)

// Without a name from the environment the player is still a name: the
// others and the transcript speak of them in the third person, and "You
// votes to eliminate Anna" or "You gets a rose" is no sentence.
func TestDefaultPlayerNameIsAName(t *testing.T) {
	for _, env := range []map[string]string{
		{},
		{"USER": "you"},
		{"MASQUE_NAME": "You"},
	} {
		for _, v := range []string{"MASQUE_NAME", "USER", "LOGNAME"} {
			t.Setenv(v, env[v])
		}
		n := defaultPlayerName(registry.All())
		if strings.EqualFold(n, "you") || !nameForAll(registry.All(), n) || slices.Contains(demoNames, n) {
			t.Errorf("env %v: default name %q", env, n)
		}
	}
	t.Setenv("MASQUE_NAME", "")
	t.Setenv("USER", "kim")
	if n := defaultPlayerName(registry.All()); n != "kim" {
		t.Errorf("USER=kim: default name %q", n)
	}
}

// A player's name is the chosen game's to judge (games.CheckName), not
// Mascarade's for every game: "none" is Mascarade's absent target and no
// player's name there, but a name like any other at The Grimm Masquerade
// or Mafia. The default name, set before the game is chosen, is one that
// every game takes.
func TestPlayerNameIsTheGames(t *testing.T) {
	for _, tc := range []struct {
		game, name string
		ok         bool
	}{
		{"mascarade", "none", false},
		{"mascarade2", "Centre1", false},
		{"grimm", "none", true},
		{"mafia", "Centre1", true},
		{"grimm", "no spaces", false},
		{"mafia", "Anna", true},
	} {
		code, _, errOut := runCmd(t, "play", "--game", tc.game, "--players", "4", "--player", tc.name)
		refused := strings.Contains(errOut, "not a valid player name")
		if code != 2 || refused == tc.ok {
			t.Errorf("play --game %s --player %q: exit %d, refused %v, want %v\n%s", tc.game, tc.name, code, refused, !tc.ok, errOut)
		}
		if !tc.ok && tc.name != "no spaces" && !strings.Contains(errOut, "Mascarade") {
			t.Errorf("play --game %s --player %q: the refusal should name the game's rule:\n%s", tc.game, tc.name, errOut)
		}
	}
	t.Setenv("MASQUE_NAME", "none")
	if n := defaultPlayerName(registry.All()); n == "none" {
		t.Errorf("MASQUE_NAME=none: default name %q, which Mascarade refuses", n)
	}
}
