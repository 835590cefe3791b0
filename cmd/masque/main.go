// Command masque plays hidden-role card games peer to peer, with cards
// hidden by mental poker and every move proven, and audits the transcripts
// they leave.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
