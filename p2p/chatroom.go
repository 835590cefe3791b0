package p2p

import (
	"github.com/libp2p/go-libp2p/core/network"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/chat"
	"github.com/masque-games/masque/p2p/chatproto"
	"github.com/masque-games/masque/p2p/roomcore"
)

// ProtocolChat is the table chat's protocol ([chatproto.Protocol]).
const ProtocolChat = chatproto.Protocol

// ErrChatBarred is wrapped by [Room.Chat]'s error when the seat may not
// write (RoomConfig.MayChat).
var ErrChatBarred = chatproto.ErrBarred

// ErrChatRate is wrapped by [Room.Chat]'s error when the seat wrote too
// much too fast.
var ErrChatRate = chatproto.ErrRate

// initChat opens the room's chat.
func (r *Room) initChat(restored []*chat.Message) {
	r.chat = chatproto.New(chatproto.Config{
		Host: r.node.host, Game: r.game, Self: r.self, SignKey: r.node.id.SigningKey(),
		Peers: r.peers, Keys: r.keys, Addrs: r.addrs, Via: r.forwarding().rt.via, Restored: restored,
		OnChat: r.onChat, MayChat: r.cfg.MayChat, Idle: r.chatDelivered,
		Dial: allowLimited, Log: r.node.log,
	})
}

// onChat is the room's chat's OnChat: RoomConfig.OnChat, and the
// forwarded seats this node carries (phones), each given the table's
// messages but its own.
func (r *Room) onChat(m *chat.Message) {
	if r.cfg.OnChat != nil {
		r.cfg.OnChat(m)
	}
	r.node.chatToForwarded(r.game, m)
}

// Chat cleans text (package chat's Clean), signs it as the local seat's
// next message, hands it to RoomConfig.OnChat and sends it to every other
// seat (in the background; a seat that cannot be reached misses it). It
// refuses a seat barred by RoomConfig.MayChat (ErrChatBarred), a seat
// over its rate (ErrChatRate) and an empty text (chat.ErrEmpty).
func (r *Room) Chat(text string) (*chat.Message, error) { return r.chat.Write(text) }

// chatDelivered wakes the room's Run, which may be waiting to say done,
// once every message this seat wrote has been delivered or given up.
func (r *Room) chatDelivered() {
	select {
	case r.inbox <- inbound{msg: &message{Msg: roomcore.Msg{Type: msgWake}}}:
	default:
	}
}

// chatIdle says whether every message this seat wrote has been delivered
// or given up.
func (r *Room) chatIdle() bool { return r.chat.Idle() }

// handleChat hands a chat stream to the chat of its game.
func (n *Node) handleChat(s network.Stream) {
	chatproto.Handle(s, func(game ledger.Hash) *chatproto.Table {
		if r := n.room(game); r != nil {
			return r.chat
		}
		return nil
	}, n.peerError)
}
