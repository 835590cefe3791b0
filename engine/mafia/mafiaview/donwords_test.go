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
	if !strings.Contains(q.Text, "the most votes decide, a tie is broken by lot") || strings.Contains(q.Text, "count") {
		t.Errorf("a mafioso's night question without the Don: %q", q.Text)
	}
	for _, r := range []engine.Card{mafia.Don, mafia.Mafioso} {
		if w := roleWords(r); strings.Contains(w, "decides a tie") || strings.Contains(w, "choose together") {
			t.Errorf("%s: %q", mafia.CardWords(r), w)
		}
	}
}

// The Night Butterfly's date answers the attack on her (she attacks
// nobody): whom the table waits for says so.
func TestMafiaDateAnswerWaiting(t *testing.T) {
	names := []string{"P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P10", "P11", "P12"}
	src := "game mafia players=" + strings.Join(names, ",") + " roles=Don,Madman,Mafioso,Mafioso,Commissar,Nurse,Butterfly,Civilian,Civilian,Civilian,Civilian,Civilian" +
		" deck=Alibi,Alibi,Alibi,Alibi,EvidenceLeft,EvidenceLeft,EvidenceLeft,EvidenceRight,EvidenceRight,Misfire,EvidenceRight,Misfire\n"
	for _, n := range names {
		src += n + " hold no\n"
	}
	// The Don attacks the Butterfly (P7), who spent the night with P10;
	// the Madman attacks P8; neither holds a night card.
	src += "P1 kill P7\nP2 kill P8\nP6 save P9\nP7 date P10\nP5 check P1\nP7 pass\nP8 pass\n"
	_, tab := scripted(t, src)
	if tab.State.Phase() != mafia.PhaseDateAnswer {
		t.Fatalf("phase %v, want the date's answer", tab.State.Phase())
	}
	w := mafiaWaiting(tab.State, 9)
	if strings.Contains(w, "Butterfly's attack") || !strings.Contains(w, "the attack on the Night Butterfly") {
		t.Errorf("waiting for the date: %q", w)
	}
}
