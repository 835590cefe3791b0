package mascarade

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// This file is data, not rules: the card catalogue and the recommended sets
// of the 1st-edition rule book (and of /work/shared/rules/README.md). Fix a
// transcription error here without touching the rules code. The tables are
// never written to after initialisation.

// The characters of Mascarade (1st edition). The values are the card kinds
// the table layer maps to group elements; they are part of the canonical
// encodings and must never be renumbered.
const (
	Judge      engine.Card = 1
	Bishop     engine.Card = 2
	King       engine.Card = 3
	Fool       engine.Card = 4
	Queen      engine.Card = 5
	Thief      engine.Card = 6
	Witch      engine.Card = 7
	Spy        engine.Card = 8
	Peasant    engine.Card = 9
	Cheat      engine.Card = 10
	Inquisitor engine.Card = 11
	Widow      engine.Card = 12
)

// CardInfo describes one character of the catalogue.
type CardInfo = masquerade.CardInfo

// cardTable lists the 13 cards of the box (12 kinds), in card-value order.
var cardTable = [...]CardInfo{
	{Card: Judge, Name: "Judge", Copies: 1},
	{Card: Bishop, Name: "Bishop", Copies: 1},
	{Card: King, Name: "King", Copies: 1, Bank: true},
	{Card: Fool, Name: "Fool", Copies: 1, Bank: true},
	{Card: Queen, Name: "Queen", Copies: 1, Bank: true},
	{Card: Thief, Name: "Thief", Copies: 1},
	{Card: Witch, Name: "Witch", Copies: 1},
	{Card: Spy, Name: "Spy", Copies: 1},
	{Card: Peasant, Name: "Peasant", Copies: 2, Bank: true, MinPlayers: 8},
	{Card: Cheat, Name: "Cheat", Copies: 1},
	{Card: Inquisitor, Name: "Inquisitor", Copies: 1, MinPlayers: 8},
	{Card: Widow, Name: "Widow", Copies: 1, Bank: true},
}

// recommendedTable holds the book's recommended sets, indexed by player
// count (4..13) and, at index 2 and 3, the set of the 2- and 3-player
// variants.
var recommendedTable = [...][]engine.Card{
	2:  {Bishop, Fool, Judge, Queen, King, Witch},
	3:  {Bishop, Fool, Judge, Queen, King, Witch},
	4:  {Judge, Bishop, King, Queen, Thief, Cheat},
	5:  {Judge, Bishop, King, Queen, Witch, Cheat},
	6:  {Judge, Bishop, King, Queen, Witch, Cheat},
	7:  {Judge, Bishop, King, Fool, Queen, Thief, Witch},
	8:  {Judge, Bishop, King, Fool, Queen, Witch, Peasant, Peasant},
	9:  {Judge, Bishop, King, Fool, Queen, Witch, Peasant, Peasant, Cheat},
	10: {Judge, Bishop, King, Fool, Queen, Witch, Peasant, Peasant, Cheat, Spy},
	11: {Judge, Bishop, King, Fool, Queen, Witch, Peasant, Peasant, Cheat, Spy, Inquisitor},
	12: {Judge, Bishop, King, Fool, Queen, Witch, Peasant, Peasant, Cheat, Spy, Inquisitor, Widow},
	13: {Judge, Bishop, King, Fool, Queen, Witch, Peasant, Peasant, Cheat, Spy, Inquisitor, Widow, Thief},
}

// Numbers of the box and of the book's setup.
const (
	// BoxCoins is the total value of the coins in the box ("общее значение
	// 194"): the bank starts with BoxCoins minus the players' coins, so
	// bank + players + court is always BoxCoins.
	BoxCoins = 194
	// DefaultCoins is each player's starting purse.
	DefaultCoins = 6
	// WinCoins ends the game at once with a win.
	WinCoins = masquerade.WinCoins
	// CheatCoins is what the Cheat needs to win.
	CheatCoins = 10
	// WidowCoins is what the Widow tops up to.
	WidowCoins = 10
	// InquisitorFine is what a wrong guess pays to the Inquisitor.
	InquisitorFine = masquerade.GuessFine
	// PreparatoryTurns is the number of opening turns that may only swap.
	PreparatoryTurns = masquerade.PreparatoryTurns
	// MinPlayers and MaxPlayers bound the player count.
	MinPlayers = 2
	MaxPlayers = 13
)
