package web

// CardsJS is the page's card pictures (static/cards.js, window.MasqueCards):
// the phones' page draws the same cards (cmd/masque/internal/phone).
func CardsJS() []byte {
	b, _ := static.ReadFile("static/cards.js")
	return b
}
