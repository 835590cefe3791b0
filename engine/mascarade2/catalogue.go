package mascarade2

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// This file is data, not rules: the mask catalogue of the 2nd-edition box
// and the numbers of the rule book. Fix a transcription error here without
// touching the rules code (docs/rules-mascarade2.md lists the sources). The
// default scenarios are data files in scenarios/. The tables are never
// written to after initialisation.

// The masks of Mascarade (2nd edition). The values are the card kinds the
// table layer maps to group elements; they are part of the canonical
// encodings and must never be renumbered.
const (
	Empress   engine.Card = 1  // Імператорка
	Widow     engine.Card = 2  // Вдова
	Guru      engine.Card = 3  // Гуру
	Beggar    engine.Card = 4  // Жебрак
	King      engine.Card = 5  // Король
	Thief     engine.Card = 6  // Злодій
	Fool      engine.Card = 7  // Блазень
	Judge     engine.Card = 8  // Суддя
	Spy       engine.Card = 9  // Шпигун
	Puppeteer engine.Card = 10 // Ляльковик
	Princess  engine.Card = 11 // Принцеса
	Sorceress engine.Card = 12 // Чарівниця
	Patron    engine.Card = 13 // Меценат
	Cheater   engine.Card = 14 // Пройдисвіт
	Peasant   engine.Card = 15 // Селянин (x2)
	Swindler  engine.Card = 16 // Спритник
)

// CardInfo describes one mask of the catalogue.
type CardInfo = masquerade.CardInfo

// cardTable lists the 17 cards of the box (16 kinds), in card-value order.
// Bank: the masks whose power takes coins from the bank (Empress, Widow,
// King, Fool, Princess, Patron, Peasant); the scan lost the symbol itself,
// see docs/rules-mascarade2.md. MinPlayers: the shared rules README,
// decision 3.
var cardTable = [...]CardInfo{
	{Card: Empress, Name: "Empress", Copies: 1, Bank: true},
	{Card: Widow, Name: "Widow", Copies: 1, Bank: true},
	{Card: Guru, Name: "Guru", Copies: 1, MinPlayers: 8},
	{Card: Beggar, Name: "Beggar", Copies: 1},
	{Card: King, Name: "King", Copies: 1, Bank: true},
	{Card: Thief, Name: "Thief", Copies: 1},
	{Card: Fool, Name: "Fool", Copies: 1, Bank: true},
	{Card: Judge, Name: "Judge", Copies: 1},
	{Card: Spy, Name: "Spy", Copies: 1},
	{Card: Puppeteer, Name: "Puppeteer", Copies: 1, MinPlayers: 6},
	{Card: Princess, Name: "Princess", Copies: 1, Bank: true, MinPlayers: 6},
	{Card: Sorceress, Name: "Sorceress", Copies: 1},
	{Card: Patron, Name: "Patron", Copies: 1, Bank: true},
	{Card: Cheater, Name: "Cheater", Copies: 1},
	{Card: Peasant, Name: "Peasant", Copies: 2, Bank: true, MinPlayers: 8},
	{Card: Swindler, Name: "Swindler", Copies: 1},
}

// Numbers of the box and of the book.
const (
	// BoxCoins is the total value of the coins in the box (80 coins of 1
	// and 24 of 5): the bank starts with BoxCoins minus the players'
	// coins, so bank + players + court is always BoxCoins.
	BoxCoins = 80*1 + 24*5
	// DefaultCoins is each player's starting purse.
	DefaultCoins = 6
	// WinCoins ends the game at once with a win.
	WinCoins = masquerade.WinCoins
	// CheaterCoins is what the Cheater needs to win.
	CheaterCoins = 10
	// WidowCoins is what the Widow tops up to.
	WidowCoins = 10
	// GuruFine is what a wrong answer pays to the Guru.
	GuruFine = masquerade.GuessFine
	// EmpressCoins, KingCoins, PrincessCoins, PatronCoins, FoolCoins are
	// what those masks take from the bank; PatronGift is what each of the
	// Patron's neighbours takes; SwindlerTake what the Swindler takes from
	// the richest other player; PuppeteerTake what the Puppeteer takes from
	// each of the two players it moves.
	EmpressCoins  = 3
	KingCoins     = 2
	PrincessCoins = 2
	PatronCoins   = 3
	PatronGift    = 1
	FoolCoins     = 1
	SwindlerTake  = 2
	PuppeteerTake = 1
	// PeasantCoins and PeasantPairCoins: one Peasant alone, or each of two
	// Peasants revealed in the same turn.
	PeasantCoins     = masquerade.ShareCoins
	PeasantPairCoins = masquerade.SharePairCoins
	// Fine is what each impostor pays to the courthouse.
	Fine = masquerade.Fine
	// PreparatoryTurns is the number of opening turns that may only swap.
	PreparatoryTurns = masquerade.PreparatoryTurns
	// MinPlayers and MaxPlayers bound the player count.
	MinPlayers = 4
	MaxPlayers = 12
	// SmallTableCenter is the number of masks in the middle with 4 or 5
	// players; MaxCenter the most a larger table may add.
	SmallTableCenter = 2
	MaxCenter        = 2
)
