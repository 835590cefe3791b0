package mascaradetest_test

import (
	"fmt"

	"github.com/masque-games/masque/engine/mascarade/mascaradetest"
)

func ExampleRunScript() {
	src := []byte(`game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Thief,King,Bishop,Judge,Cheat
Anna swap Boris no
Boris swap Sasha no
Sasha swap centre1 no
Dima swap Anna no
Anna peek
Boris claim King
Sasha challenge   # Dima and Anna, not listed, pass
`)
	s, err := mascaradetest.RunScript(src)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s)
	_, err = mascaradetest.RunScript(append(src, "Sasha claim King\n"...))
	fmt.Println(err)
	// Output:
	// turn 7 (Sasha) Anna=6 Boris=5 Sasha=9 Dima=6 court=1 bank=167
	// line 9: seat 2: revealed-must-swap: your card was revealed during the previous turn: swap or pretend to
}
