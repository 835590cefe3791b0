package masqview

import (
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

// Viewer is what a seat sees of one Mascarade edition: its view
// ([Viewer.View]) and its narration ([Viewer.Narrator]), a
// [seatview.Viewer].
type Viewer struct {
	of func(engine.State) (Rules, bool)
}

// First is the viewer of Mascarade's 1st edition (engine/mascarade).
func First() Viewer { return Viewer{of: firstOf} }

// Second is the viewer of Mascarade's 2nd edition (engine/mascarade2).
func Second() Viewer { return Viewer{of: secondOf} }

// Of wraps a rules state of the viewer's edition; ok is false for nil or
// another game's state.
func (v Viewer) Of(s engine.State) (Rules, bool) {
	if v.of == nil {
		return nil, false
	}
	return v.of(s)
}

// Follower returns a new follower of a table of the viewer's edition.
func (v Viewer) Follower() *Follower { return &Follower{of: v.Of} }

// Narrator implements [seatview.Viewer]: a [Follower], whose record
// ([seatview.Narrator.Record]) is the moves so far ([]Moved).
func (v Viewer) Narrator(you engine.Seat) seatview.Narrator {
	f := v.Follower()
	if you >= 0 {
		f.SpeakTo(you)
	}
	return narrator{f}
}

// narrator is a [Follower] as a [seatview.Narrator].
type narrator struct{ f *Follower }

func (n narrator) Start(t *table.Table) []string { return n.f.Start(t) }

func (n narrator) Follow(t *table.Table, e *ledger.Entry) (seatview.Told, error) {
	ev, err := n.f.Follow(t, e)
	if err != nil {
		return seatview.Told{}, err
	}
	told := seatview.Told{Lines: ev.Lines}
	if ev.Ended && ev.Step != nil {
		told.Step = &seatview.Step{Effects: ev.Step.Effects, Facts: ev.Step.Facts}
	}
	return told, nil
}

func (n narrator) Lines() []string { return n.f.Lines }

func (n narrator) Record() any { return slices.Clone(n.f.Moves) }

// movesOf returns the moves of a record a narrator of this package kept
// (nil: none).
func movesOf(record any) []Moved {
	m, _ := record.([]Moved)
	return m
}
