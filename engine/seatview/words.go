package seatview

// Plural returns one when n is 1, else many: "1 coin", "3 coins".
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
