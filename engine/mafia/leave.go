package mafia

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

var _ games.Leaver = Game{}

// LeaveMove implements [games.Leaver]: seat's [MoveLeave], while the game
// goes on and the seat is in it. The rules take it whenever a move is due
// (not only the seat's own); a table takes it from the seat due.
func (Game) LeaveMove(s engine.State, seat engine.Seat) (engine.Move, bool) {
	st, ok := s.(*State)
	if !ok || st == nil || st.Over() || !st.Alive(seat) {
		return engine.Move{}, false
	}
	return engine.Move{Seat: seat, Kind: MoveLeave}, true
}
