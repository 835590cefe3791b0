package mafia_test

import (
	"testing"

	"github.com/masque-games/masque/engine/mafia"
)

const noVote5 = `Anna hold no
Boris hold no
Clara hold no
Dima hold no
Egor hold no
`

const vote5 = `Anna hold yes
Boris hold yes
Clara hold yes
Dima hold no
Egor hold no
`

func TestRicochet(t *testing.T) {
	// Dima moves the attack to his left (Egor), who holds only a day card
	// and cannot answer a night attack with it.
	ok(t, five+noVote5+`
Anna kill Dima
Dima play RicochetLeft
expect turn=Egor phase=night-answer attacked=Egor:open
Egor pass
expect role=Egor:Civilian alive=Anna,Boris,Clara,Dima deck=17 hand=Dima:0 phase=vote
`)
	wantErr(t, five+noVote5+`
Anna kill Dima
Dima play RicochetLeft
Egor play EvidenceLeft
`, 10, "Egor", mafia.RuleWrongCard)
	// A chain may send the attack back: Clara moves it left to Dima, who
	// moves it right back to Clara, who has nothing left.
	ok(t, "game mafia players=Anna,Boris,Clara,Dima,Egor roles=Mafioso,Civilian,Civilian,Civilian,Civilian deck=Misfire,Alibi,RicochetLeft,RicochetRight,Alibi\n"+noVote5+`
Anna kill Clara
Clara play RicochetLeft
Dima play RicochetRight
expect role=Clara:Civilian alive=Anna,Boris,Dima,Egor
`)
	// Or onto the attacker: Boris moves it right, to Anna, who misfires.
	ok(t, "game mafia players=Anna,Boris,Clara,Dima,Egor roles=Mafioso,Civilian,Civilian,Civilian,Civilian deck=Misfire,RicochetRight,Alibi,Alibi,Alibi\n"+noVote5+`
Anna kill Boris
Boris play RicochetRight
expect turn=Anna attacked=Anna:open
Anna play Misfire
expect alive=Anna,Boris,Clara,Dima,Egor day=2 phase=vote
`)
	// Moves skip eliminated players: Egor has left, so Dima's left is
	// Anna.
	ok(t, five+`Egor leave
Anna hold no
Boris hold no
Clara hold no
Dima hold no
Anna kill Dima
Dima play RicochetLeft
expect turn=Anna
Anna play Misfire
expect alive=Anna,Boris,Clara,Dima
`)
}

func TestMisfireOnlyAtNight(t *testing.T) {
	wantErr(t, five+noVote5+"Anna kill Clara\nClara play Alibi\n", 8, "Clara", "holds no Alibi")
	wantErr(t, five+vote5+`
Anna vote Clara
Boris vote Clara
Clara vote Anna
Dima vote Clara
Egor vote Clara
Clara play Misfire
`, 13, "Clara", mafia.RuleWrongCard)
}

func TestAlibiAndEvidence(t *testing.T) {
	ok(t, five+vote5+`
Anna vote Boris
Boris vote Anna
Clara vote Boris
Dima vote Boris
Egor vote Boris
expect phase=day-answer turn=Boris
Boris play Alibi
expect alive=Anna,Boris,Clara,Dima,Egor day=2 waiting=yes deck=16
`)
	// Evidence moves the elimination to the left neighbour, round the
	// table: Egor's left is Anna, who holds only a night card.
	ok(t, five+vote5+`
Anna vote Egor
Boris vote Egor
Clara vote Egor
Dima vote Egor
Egor vote Anna
Egor play EvidenceLeft
expect turn=Anna phase=day-answer
Anna pass
expect over=yes side=civilians role=Anna:Mafioso
`)
}

// f12c is f12 with incident cards: seat hands in seat order Misfire,
// Misfire, Alibi, Alibi, Ricochet left, Ricochet right, Misfire, Evidence
// left, Evidence right, Misfire, Alibi, Alibi.
const f12c = "game mafia players=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya,Lena,Misha,Nina " +
	"roles=Don,Madman,Mafioso,Mafioso,Commissar,Nurse,Butterfly,Civilian,Civilian,Civilian,Civilian,Civilian " +
	"deck=Misfire,Misfire,Alibi,Alibi,RicochetLeft,RicochetRight,Misfire,EvidenceLeft,EvidenceRight,Misfire,Alibi,Alibi\n"

const butterflyNight = noVote12 + `Anna kill Galya
Boris kill Igor
Fedor save Katya
Galya date Lena
Egor check Anna
`

func TestButterflySurvivesByCard(t *testing.T) {
	// She survives by her Misfire; her date still dies unless the date
	// plays a Misfire. Nothing she posts says she is the Butterfly: after
	// the night's deaths the date ballots of the seats that answered with
	// a card (hers alone) open at the living seats.
	ok(t, f12c+butterflyNight+`
expect turn=Galya
Galya play Misfire
expect turn=Igor
Igor pass
expect phase=date-answer turn=Lena role=Igor:Civilian
Lena play Misfire
expect role=Galya:hidden role=Lena:hidden alive=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Katya,Lena,Misha,Nina phase=vote
`)
	ok(t, f12c+butterflyNight+`
Galya play Misfire
Igor pass
Lena pass
expect role=Lena:Civilian alive=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Katya,Misha,Nina
`)
	// Another seat's card answer kills nobody: its date ballot is empty.
	ok(t, f12c+noVote12+`Anna kill Lena
Boris kill Nina
Fedor save Katya
Galya date Misha
Egor check Anna
Lena play Misfire
Nina pass
expect role=Nina:Civilian alive=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya,Lena,Misha phase=vote
`)
	// The old claim is gone: refused as a move and as a script word.
	wantErr(t, f12c+butterflyNight+"Galya play Misfire butterfly\n", 19, "Galya", "no Butterfly claim")
	// The date answers only with a Misfire.
	wantErr(t, f12c+butterflyNight+`
Galya play Misfire
Igor pass
Lena play Alibi
`, 22, "Lena", "holds no Alibi")
}

func TestDrawWhenCommissarOut(t *testing.T) {
	// Every living player draws one, in seat order; the Commissar's own
	// card goes to the bottom of the (fixed) deck.
	ok(t, "game mafia players=Anna,Boris,Clara,Dima,Egor,Fedor roles=Mafioso,Mafioso,Commissar,Civilian,Civilian,Civilian deck=Misfire,Alibi,Alibi,Alibi,Misfire,Misfire\n"+`
Anna hold yes
Boris hold yes
Clara hold yes
Dima hold yes
Egor hold no
Fedor hold no
Anna vote Clara
Boris vote Clara
Clara vote Anna
Dima vote Clara
Egor vote Clara
Fedor vote Clara
Clara pass
expect role=Clara:Commissar hand=Anna:2,Fedor:2,Clara:0 deck=10
expect holds=Anna:Misfire,Misfire holds=Boris:Alibi,RicochetLeft holds=Fedor:Misfire,RicochetRight
`)
}

func TestEmptyDeckGivesNothing(t *testing.T) {
	// 18 players: 2 cards left after the deal, 3 once the leaving
	// Commissar's card is back; the first three living seats draw.
	var names, roles string
	for i, r := range []string{"Commissar", "Nurse", "Butterfly", "Don", "Madman", "Mafioso", "Mafioso", "Mafioso"} {
		names += "P" + string(rune('A'+i)) + ","
		roles += r + ","
	}
	for i := range 10 {
		names += "Q" + string(rune('A'+i)) + ","
		roles += "Civilian,"
	}
	ok(t, "game mafia players="+names[:len(names)-1]+" roles="+roles[:len(roles)-1]+"\n"+`
expect deck=2
PA leave
expect hand=PB:2,PC:2,PD:2,PE:1,QJ:1 deck=0
`)
}

func TestButterflyRicochetDateStillDies(t *testing.T) {
	// She moves the attack right, to Fedor (the Nurse): only the player who plays the card survives, so her date
	// Lena dies too.
	src := "game mafia players=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya,Lena,Misha,Nina " +
		"roles=Don,Madman,Mafioso,Mafioso,Commissar,Nurse,Butterfly,Civilian,Civilian,Civilian,Civilian,Civilian " +
		"deck=Misfire,Misfire,Alibi,Alibi,RicochetLeft,RicochetRight,RicochetRight,EvidenceLeft,EvidenceRight,Misfire,Alibi,Alibi\n"
	ok(t, src+butterflyNight+`
Galya play RicochetRight
expect turn=Fedor attacked=Fedor:open
Fedor pass
Igor pass
expect phase=date-answer turn=Lena
Lena pass
expect role=Fedor:Nurse role=Igor:Civilian role=Lena:Civilian role=Galya:hidden
expect alive=Anna,Boris,Clara,Dima,Egor,Galya,Katya,Misha,Nina phase=vote day=2
`)
}
