package phoneseat

// The phone's WebSocket to the machine that served its page carries two
// kinds of message: text messages are [Control] messages (JSON), binary
// ones forward packets (p2p.ProtocolForward's: from the phone, the seat
// it is for then a sealed frame; to the phone, a sealed frame).
//
// The seating, in order:
//
//	server → phone  challenge {nonce}
//	phone → server  hello {token, name, key, sig} (sig: the challenge, HelloContext)
//	server → phone  table {id, seat, game}      (the next free seat)
//	phone → server  join {seat, card}           (card keys proven for that seat)
//	server → phone  refused {seat, reason}      (join again for seat), or
//	server → phone  seated {seat}
//	server → phone  offer {roster, addrs}       (seating closed)
//	phone → server  sign {sig}                  (after checking its own seat)
//	server → phone  start {roster, addrs, sigs, timeoutMs, windowMs} (every seat signed: play)
//
// A phone that holds a seat says hello with its game id (resume) and gets
// start at once.
//
// Once the table started, either side may send chat {chat}: the server
// the table chat's messages (those kept so far, then each new one), the
// phone a message it wrote and signed with its seat's key.

// HelloContext prefixes the challenge a phone signs in its hello: the
// server forwards for the seat of that key only.
const HelloContext = "masque phone hello v1\x00"

// Control is a control message; T says which, and which fields it uses.
type Control struct {
	T      string     `json:"t"`
	Nonce  []byte     `json:"nonce,omitempty"`
	Token  string     `json:"token,omitempty"` // hello: the URL fragment's secret
	Name   string     `json:"name,omitempty"`
	Key    []byte     `json:"key,omitempty"`
	Sig    []byte     `json:"sig,omitempty"`
	Game   []byte     `json:"game,omitempty"` // hello: the game id of the seat held (resume)
	ID     []byte     `json:"id,omitempty"`   // table: the table id
	Seat   int        `json:"seat,omitempty"`
	Kind   string     `json:"kind,omitempty"` // table: the game's name
	Card   []byte     `json:"card,omitempty"`
	Reason string     `json:"reason,omitempty"`
	Roster []byte     `json:"roster,omitempty"`
	Addrs  [][][]byte `json:"addrs,omitempty"`
	Sigs   [][]byte   `json:"sigs,omitempty"`
	// start: the table's patience with a silent seat and its answer
	// window, in milliseconds (0: none), which the phone plays by.
	TimeoutMS int64 `json:"timeoutMs,omitempty"`
	WindowMS  int64 `json:"windowMs,omitempty"`
	// Chat is a table chat message (package chat's encoding, signed by
	// its author's seat key), either way once the table started.
	Chat []byte `json:"chat,omitempty"`
}
