//go:build !(js && wasm)

// Command seatwasm is the phone's seat, compiled to WebAssembly
// (GOOS=js GOARCH=wasm) and run by the page package phone serves. Built
// for another platform it only says so.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "seatwasm is the phone's seat: build it with GOOS=js GOARCH=wasm and open it through 'masque host --phones'")
	os.Exit(2)
}
