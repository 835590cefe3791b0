package games

// About describes a game for people: 'masque help games' prints it, and
// every command's help lists the games from it and from [Rules] (name,
// title, player counts), so that no command's text names a game.
type About struct {
	// Summary is the game in one sentence: what the players do and how
	// one wins.
	Summary string
	// Hides is what the game keeps secret, from whom, and how a seat
	// learns it.
	Hides string
	// Setup says more about the game's setup (--scenario) than
	// [SetupHelp].Usage: a file format, an example; "" for nothing more.
	// Lines that start with two spaces are kept as they are.
	Setup string
	// Script is the game's part of the script format ('masque script'):
	// its header and its lines; "" when it has none of its own. Lines
	// that start with two spaces (examples) are kept as they are.
	Script string
}

// Describer is implemented by a game that describes itself ([About]):
// by its table binding ([Rules.Table]), as the other optional parts of
// the contract are, or by a game made with [WithAbout].
type Describer interface {
	About() About
}

// AboutOf returns g's description: its own if g is a [Describer] (a game
// made with [WithAbout]), else its table binding's; the zero About if it
// has none.
func AboutOf(g Game) About {
	if d, ok := g.(Describer); ok {
		return d.About()
	}
	if d, ok := g.Table().(Describer); ok {
		return d.About()
	}
	return About{}
}

// WithAbout returns g described by a: for a game whose package does not
// describe itself (the registry gives its words).
func WithAbout(g Game, a About) Game { return withAbout{g, a} }

type withAbout struct {
	Game
	about About
}

func (g withAbout) About() About { return g.about }
