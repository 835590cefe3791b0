package mafia

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/mental"
)

// KnowledgeOf returns what seat p knows privately at a real table: its
// role and team from its private views of its role tuple, the mates it
// recognised by their tags, the answers to its checks and its incident
// cards (pl is the seat's player, t its replica, s the rules state).
func KnowledgeOf(s *State, pl *table.Player, t *table.Table) *Knowledge {
	p := engine.Seat(pl.Seat)
	k := NewKnowledge(p)
	slot := s.RoleSlot(p)
	if m, ok := pl.Opened(t, slot, CompRole); ok {
		if kind, ok := t.Catalogue().Kind(m); ok {
			k.Role = engine.Card(kind)
		}
	}
	if m, ok := pl.Opened(t, slot, CompTeamBefore); ok && m.Equal(mental.CardPoint(int(MafiaTeam))) == 1 {
		k.Mafia = true
	}
	if m, ok := pl.Opened(t, slot, CompSecretAfter); ok && m.Equal(mental.CardPoint(int(Neutral))) != 1 {
		k.Mafia = true // the Madman once he joined, or a mafioso
	}
	k.Mates = pl.Mates(t)
	for _, c := range pl.Checks {
		k.Checks[c.Target] = c.Team == MafiaTeam
	}
	known := pl.Known(t)
	for _, sl := range s.Hand(p) {
		if c, ok := known[sl]; ok {
			k.Hand[sl] = c
		}
	}
	return k
}
