package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/p2p"
)

// configFileName is the config file in the configuration directory
// (CONFIG/config, beside the identity key). Its lines are "KEY VALUE";
// blank lines and lines starting with # are ignored. Keys:
//
//	relay MULTIADDR   a relay used when no --relay is given (repeatable)
//
// An unknown key is an error, so that a typo is never silently ignored.
const configFileName = "config"

// maxConfigFile bounds the config file: it is small, and a huge one is a
// mistake (a wrong path), not a configuration.
const maxConfigFile = 64 << 10

// fileConfig is what the config file says.
type fileConfig struct {
	// Path is the file read ("" when there was none).
	Path string
	// Relays are the relay lines' addresses, in order, and RelayLines
	// their line numbers.
	Relays     []string
	RelayLines []int
}

// configHelp is the config file's description for --help texts.
const configHelp = `The config file CONFIG/config (CONFIG being --config DIR, by default the
user config dir + /masque, where the identity key is) may name relays,
one per line, used whenever no --relay is given:

  # masque configuration
  relay /ip4/198.51.100.4/tcp/4001/p2p/12D3KooW...
  relay /ip4/198.51.100.4/udp/4001/quic-v1/p2p/12D3KooW...

Blank lines and lines starting with # are ignored; any other key is an
error. A --relay on the command line replaces the file's relays.`

// loadConfigFile reads dir/config. A missing file is an empty
// configuration; a malformed one is an error naming the file and line.
func loadConfigFile(dir string) (fileConfig, error) {
	path := filepath.Join(dir, configFileName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fileConfig{}, nil
	}
	if err != nil {
		return fileConfig{}, fmt.Errorf("config file: %w", err)
	}
	return parseConfigFile(path, data)
}

// parseConfigFile parses a config file's contents; path names it in
// errors.
func parseConfigFile(path string, data []byte) (fileConfig, error) {
	if len(data) > maxConfigFile {
		return fileConfig{}, fmt.Errorf("%s: %d bytes, at most %d (is it the config file?)", path, len(data), maxConfigFile)
	}
	c := fileConfig{Path: path}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), maxConfigFile)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, _ := strings.Cut(line, " ")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch key {
		case "relay":
			if value == "" {
				return fileConfig{}, fmt.Errorf("%s:%d: relay: give the relay's multiaddr, as 'masque relay' prints it", path, n)
			}
			if _, err := p2p.ParseRelays([]string{value}); err != nil {
				return fileConfig{}, fmt.Errorf("%s:%d: relay: %w", path, n, err)
			}
			c.Relays = append(c.Relays, value)
			c.RelayLines = append(c.RelayLines, n)
		default:
			return fileConfig{}, fmt.Errorf("%s:%d: unknown setting %q (known: relay)", path, n, key)
		}
	}
	if err := sc.Err(); err != nil {
		return fileConfig{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// defaultConfigDir is --config's default: the user config dir + /masque.
func defaultConfigDir() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", &exitError{code: exitFault, err: fmt.Errorf("no configuration directory: %w", err), hint: "give one with --config DIR"}
	}
	return filepath.Join(dir, "masque"), nil
}

// resolveRelays are the relays to use: --relay's when given, else the
// config file's in configDir. from names where they came from ("" when
// there are none).
func resolveRelays(flag []string, configDir string) (relays []peer.AddrInfo, from string, err error) {
	if len(flag) > 0 {
		relays, err = parseRelayFlag(flag)
		return relays, "--relay", err
	}
	c, err := loadConfigFile(configDir)
	if err != nil {
		return nil, "", &exitError{code: exitUsage, err: err, hint: "fix or remove the config file; 'masque help join' describes it"}
	}
	if len(c.Relays) == 0 {
		return nil, "", nil
	}
	relays, err = p2p.ParseRelays(c.Relays)
	if err != nil {
		return nil, "", &exitError{code: exitUsage, err: fmt.Errorf("%s: %w", c.Path, err)}
	}
	return relays, c.Path, nil
}
