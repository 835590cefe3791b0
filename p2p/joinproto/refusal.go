package joinproto

import "fmt"

// RefusalCode says why a table's creator refused a join, for programs: a
// refusal's Reason is for people. It is one byte of the join refused
// message; 0 is no code, and a code the decoder does not know makes the
// message malformed.
type RefusalCode uint8

// Refusal codes. Their values are on the wire: never renumber them.
const (
	// RefusedOther: none of the codes below, e.g. the creator could not
	// compute the table's options when seating closed.
	RefusedOther RefusalCode = 1
	// RefusedNoSuchTable: the creator has no table of the id asked for
	// (or, asked for none, not exactly one table).
	RefusedNoSuchTable RefusalCode = 2
	// RefusedStarted: seating is closed.
	RefusedStarted RefusalCode = 3
	// RefusedFull: every seat is taken.
	RefusedFull RefusalCode = 4
	// RefusedSignKey: the signing key in the request is not the key of the
	// connecting peer.
	RefusedSignKey RefusalCode = 5
	// RefusedAlreadySeated: the peer holds a seat at the table already.
	RefusedAlreadySeated RefusalCode = 6
	// RefusedNameTaken: another seat has the name (compared without
	// case); asking again with another name may succeed.
	RefusedNameTaken RefusalCode = 7
	// RefusedSeatNotFree: the seat asked for is not the next free one,
	// which the refusal names.
	RefusedSeatNotFree RefusalCode = 8
	// RefusedCardKey: the table's check of the name and card key refused
	// them ([Table].Validate).
	RefusedCardKey RefusalCode = 9
	// RefusedSeat: the table's check of the joiner for the next free
	// seat refused it ([Table].ValidateSeat).
	RefusedSeat RefusalCode = 10

	refusedFirst, refusedLast = RefusedOther, RefusedSeat
)

var refusalNames = [...]string{
	RefusedOther:         "other",
	RefusedNoSuchTable:   "no such table",
	RefusedStarted:       "table started",
	RefusedFull:          "table full",
	RefusedSignKey:       "signing key not the peer's",
	RefusedAlreadySeated: "already seated",
	RefusedNameTaken:     "name taken",
	RefusedSeatNotFree:   "seat not free",
	RefusedCardKey:       "card key refused",
	RefusedSeat:          "seat refused",
}

// String names the code, e.g. "name taken"; an unknown one is
// "RefusalCode(n)".
func (c RefusalCode) String() string {
	if c.Known() {
		return refusalNames[c]
	}
	return fmt.Sprintf("RefusalCode(%d)", uint8(c))
}

// Known reports whether the decoder accepts c (RefusedOther to
// RefusedSeat).
func (c RefusalCode) Known() bool { return c >= refusedFirst && c <= refusedLast }

// SeatFree reports whether a refusal with code c may name a next free
// seat: not when seating is over or there is no table.
func (c RefusalCode) SeatFree() bool {
	return c != RefusedStarted && c != RefusedFull && c != RefusedNoSuchTable
}

// Refusal is the creator's refusal of a join: the code and the reason are
// made together, so that they agree.
type Refusal struct {
	Code   RefusalCode
	Reason string
}

// Refuse makes a refusal with its reason formatted as by fmt.Sprintf.
func Refuse(code RefusalCode, format string, args ...any) *Refusal {
	return &Refusal{Code: code, Reason: fmt.Sprintf(format, args...)}
}

// NoSuchTable is the refusal of a join request for a table the creator
// does not have; it goes with a zero table id and no seat.
func NoSuchTable() Refusal { return Refusal{RefusedNoSuchTable, "no such table"} }
