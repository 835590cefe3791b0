package bot

import (
	"errors"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/table"
)

// Player adapts a [Bot] to [games.Bot]: it keeps its seat's
// [mafia.Knowledge] from what the seat saw privately (its role and its
// incident cards, from [games.Observation].Seen). Tags and the
// Commissar's results reach it through [Player.Learn] until the table
// reports them in observations (the table integration).
type Player struct {
	*Bot
	Know *mafia.Knowledge
}

var _ games.Bot = (*Player)(nil)

// NewBot is the game's [games.BotMaker]: seat's player at a table whose
// initial state is s.
func NewBot(s engine.State, seat engine.Seat, seed uint64) (games.Bot, error) {
	st, ok := s.(*mafia.State)
	if !ok || st == nil {
		return nil, errors.New("mafia bot: not a Mafia state")
	}
	if seat < 0 || int(seat) >= st.Players() {
		return nil, errors.New("mafia bot: no such seat")
	}
	return &Player{Bot: New(seat, seed), Know: mafia.NewKnowledge(seat)}, nil
}

// Choose returns the seat's move in s (never any secret bits).
func (p *Player) Choose(s engine.State) (engine.Move, []bool, bool) {
	st, ok := s.(*mafia.State)
	if !ok || st == nil {
		return engine.Move{}, nil, false
	}
	m, ok := p.Move(st, p.Know)
	return m, nil, ok
}

// Observe records the cards the seat saw: its role (slot of its seat)
// and its incident cards.
func (p *Player) Observe(o games.Observation) {
	for _, f := range o.Seen {
		switch {
		case f.Slot == engine.Slot(p.Seat) && mafia.IsRole(f.Card):
			p.Know.Role = f.Card
			p.Know.Mafia = p.Know.Mafia || (mafia.IsMafia(f.Card) && f.Card != mafia.Madman)
		case mafia.IsIncident(f.Card):
			p.Know.Hand[f.Slot] = f.Card
		}
	}
}

// Learn replaces the seat's knowledge (a table that knows more than the
// observations say: mates, check results).
func (p *Player) Learn(k *mafia.Knowledge) { p.Know = k.Clone() }

// NightChoice returns the seat's secret choice for power among targets.
func (p *Player) NightChoice(s *mafia.State, power uint8, targets []engine.Seat) engine.Seat {
	return p.Night(s, p.Know, power, targets)
}

var _ games.NightBot = (*Player)(nil)

// See implements [games.NightBot]: the seat's knowledge from its own
// player and replica ([mafia.KnowledgeOf]).
func (p *Player) See(pl *table.Player, t *table.Table) {
	if st, ok := t.Rules().(*mafia.State); ok && st != nil {
		p.Learn(mafia.KnowledgeOf(st, pl, t))
	}
}

// Decide implements [games.NightBot] with [Player.NightChoice].
func (p *Player) Decide(s engine.State, d engine.Effect) engine.Seat {
	st, ok := s.(*mafia.State)
	if !ok || st == nil || len(d.Targets) == 0 {
		return -1
	}
	return p.NightChoice(st, d.Power, d.Targets)
}
