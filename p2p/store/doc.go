// Package store keeps everything a peer needs to resume one table after a
// crash: the roster and every seat's signature on it, the seats' network
// addresses, the caller's secret (the mental secret key), every accepted log
// entry, and the table's verdict if it ended in one.
//
// # Layout
//
// A table's state directory holds:
//
//	table    roster, roster signatures and seat addresses, one record
//	         (written once: temp file, fsync, rename, fsync of the directory)
//	secret   the caller's opaque secret, mode 0600, written once and fsynced
//	log      accepted entries, one record each, appended and fsynced
//	verdict  the verdict that ended the table, if any (one record)
//
// # Records
//
// Every file is a sequence of records:
//
//	length   uint32, big-endian, the payload length
//	crc      uint32, big-endian, CRC-32C (Castagnoli) of the payload
//	payload  length bytes
//
// A crash in the middle of an append leaves a short or mismatching last
// record in log; [Open] detects it, truncates the file back to the last good
// record and reports how many bytes it dropped ([Store.Dropped]). The peer
// fetches the lost entry again from its peers.
package store
