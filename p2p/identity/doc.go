// Package identity keeps a player's long-term key: one Ed25519 key that is
// both the player's libp2p identity (its peer id) and the key that signs the
// player's log entries and roster signatures.
//
// # Storage
//
// [Load] reads the key from a file named [FileName] in a directory the
// caller chooses (the CLI passes os.UserConfigDir()/masque), creating it
// with mode 0600 on first use. Nothing is global: two identities in one
// process are two values.
//
// The file holds the libp2p protobuf encoding of the private key
// (crypto.MarshalPrivateKey), so other libp2p tools can read it.
package identity
