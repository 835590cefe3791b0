package mental_test

import (
	"testing"

	"github.com/masque-games/masque/mental/mentalbench"
)

// BenchmarkMental runs every benchmark of mentalbench (the same ones that
// `masque bench` runs): go test -bench Mental -run '^$' ./mental/
func BenchmarkMental(b *testing.B) {
	for _, c := range mentalbench.Cases() {
		b.Run(c.Name, c.Run)
	}
}
