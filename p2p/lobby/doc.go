// Package lobby finds masque tables on the local network by mDNS (DNS-SD
// over multicast, grandcat/zeroconf) and names them with short join codes.
//
// # Advertisement
//
// A table is the service instance "<name> <code>" of type [Service]
// ("_masque._tcp") in "local.", on the creator's libp2p TCP port, with TXT
// strings of the form key=value:
//
//	v=2                protocol version ([Version])
//	id=<32 hex>        table id
//	n=<name>           table name (truncated)
//	g=<game>           game name (truncated)
//	o=<options>        human summary of the options (truncated)
//	s=<taken>/<total>  seats
//	p=<peer id>        the creator's libp2p peer id
//	a=<multiaddr>      one of the creator's listen addresses (repeated)
//
// Every string stays within [MaxTXTString] bytes (the DNS limit is 255 per
// string) and the whole record within [MaxTXTTotal], so it fits one packet:
// long values are cut on a UTF-8 boundary and addresses that do not fit are
// left out (a browser also derives addresses from the answer's A records and
// port).
//
// # Browsing
//
// grandcat/zeroconf reports each instance once per browse and ignores
// goodbye packets, and a browser that stops reading its channel blocks it.
// [Browse] therefore runs short browse rounds, always draining the channel,
// and keeps a [Catalog] that forgets a table not seen for a TTL (three
// rounds by default). The catalog keeps one advertisement per table id
// and creator peer id: anyone can advertise any table id or name, so two
// creators advertising the same one are both kept and shown, never merged.
//
// # Join codes
//
// [Code] turns a table id and its creator's peer id into 12 Crockford
// base32 characters ("4F7Q-ZK2M-8XPA", 60 bits of a hash) that a player
// can read out; [Find] picks the browsed tables with a code. A copied
// table id does not give a copied code, and grinding one costs about 2^60
// hashes (see [CodeChars]). [Fingerprint] names a creator for people: a
// join that finds several creators for one name, code or table id must
// let the player choose by fingerprint ([MatchCreator]). For play beyond
// the LAN, an invite is the creator's /p2p multiaddr ([ParseInvite]).
package lobby
