package mafiaview

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mafia"
)

// While the Don is in the game his choice alone is the mafia's kill (the
// mafiosi hold no kill ballot: mafia.State.KillRoles), so neither his
// night question nor the roles say that he "decides a tie"; and what
// opens of the kill is the attacked, never a count at each player (the
// one-vote kill and the mixed tally open no such counts:
// docs/mafia.md §11.3).
func TestMafiaDonWordsTrue(t *testing.T) {
	kill := []engine.Effect{{Kind: engine.EffectBallot, Power: mafia.PowerKill, Targets: []engine.Seat{1, 2, 3}}}
	// 9 players: the Don and two mafiosi.
	_, don := scripted(t, "game mafia players=Anna,Boris,Clara,Dima,Egor,Fima,Gleb,Hana,Ivan roles=Don,Mafioso,Mafioso,Commissar,Civilian,Civilian,Civilian,Civilian,Civilian deck=Misfire,Alibi,Misfire,RicochetLeft,EvidenceLeft,Alibi,Alibi,Misfire,Misfire\n")
	q := nightQuestion(don.State, 0, &mafia.Knowledge{Role: mafia.Don}, kill)
	if strings.Contains(q.Text, "tie") || !strings.Contains(q.Text, "your choice alone decides") {
		t.Errorf("the Don's night question: %q", q.Text)
	}
	// 6 players, no Don: two mafiosi, a one-vote kill.
	_, two := scripted(t, "game mafia players=Anna,Boris,Clara,Dima,Egor,Fima roles=Mafioso,Mafioso,Commissar,Civilian,Civilian,Civilian deck=Misfire,Alibi,Misfire,RicochetLeft,EvidenceLeft,Alibi\n")
	q = nightQuestion(two.State, 0, &mafia.Knowledge{Role: mafia.Mafioso}, kill)
	if !strings.Contains(q.Text, "the most votes decide, a tie by a joint coin") || strings.Contains(q.Text, "count") {
		t.Errorf("a mafioso's night question without the Don: %q", q.Text)
	}
	for _, r := range []engine.Card{mafia.Don, mafia.Mafioso} {
		if w := roleWords(r); strings.Contains(w, "decides a tie") || strings.Contains(w, "choose together") {
			t.Errorf("%s: %q", mafia.CardWords(r), w)
		}
	}
}
