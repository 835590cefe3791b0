package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/cmd/masque/internal/phone"
	"github.com/masque-games/masque/cmd/masque/internal/qrterm"

	"github.com/masque-games/masque/cmd/masque/internal/termsafe"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/lobby"
	"github.com/masque-games/masque/p2p/store"
)

// phoneOptions are 'masque host --phones' flags: phones on the LAN take
// seats of their own (docs/phones.md).
type phoneOptions struct {
	on   bool
	addr string
}

func (o *phoneOptions) addFlags(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.on, "phones", false, "let phones on this network take seats: serve them their page on the LAN address and show its QR code (their keys stay on the phones; this machine forwards their frames)")
	cmd.Flags().StringVar(&o.addr, "phones-addr", "", "with --phones: the `HOST:PORT` to serve phones on (default: this machine's LAN address, a free port)")
}

// lanAddr is this machine's first private IPv4 address on an interface
// that is up, or the first non-loopback one.
func lanAddr() (string, error) {
	ifs, err := net.Interfaces()
	if err != nil {
		return "", err
	}
	var other string
	for _, ifc := range ifs {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			ipn, ok := a.(*net.IPNet)
			if !ok || ipn.IP.To4() == nil {
				continue
			}
			if ipn.IP.IsPrivate() {
				return ipn.IP.String(), nil
			}
			if other == "" {
				other = ipn.IP.String()
			}
		}
	}
	if other != "" {
		return other, nil
	}
	return "", errors.New("no LAN address (no network interface up); give one with --phones-addr")
}

// samePortZero says whether addr is HOST:0 and remembered HOST:PORT, the
// same host.
func samePortZero(addr, remembered string) bool {
	h, p, err := net.SplitHostPort(addr)
	rh, _, rerr := net.SplitHostPort(remembered)
	return err == nil && rerr == nil && p == "0" && h == rh
}

// phoneServer is the phones' server of a hosted table.
type phoneServer struct {
	r       *netRun
	hub     *phone.Hub
	srv     *phone.Server
	creator peer.ID
}

// phonesFile keeps, in a table's state directory, the phones' server's
// address and token: the same command again (a restart) serves the
// phones at the same URL, where their pages' storage is.
const phonesFile = "phones"

// startPhones binds the phones' server and prints its URL and QR code;
// nil when --phones is not given. state, if set, is a restarted table's
// state directory: its phones' address and token are used again.
func (r *netRun) startPhones(o phoneOptions, p *netsession.Peer, game string, timeout time.Duration, state string) (*phoneServer, error) {
	role := phone.RoleHost
	if game == "" {
		role = phone.RoleJoiner // a host names its game; a joiner learns it
	}
	return r.startPhonesWith(o, p, game, timeout, state, role, nil)
}

// startPhonesWith is startPhones telling onTable the signed table when a
// phone's seating at another peer's table ends (phone.Config.OnTable);
// role is the machine the page's foot names.
func (r *netRun) startPhonesWith(o phoneOptions, p *netsession.Peer, game string, timeout time.Duration, state string, role phone.Role, onTable func(*p2p.Seating)) (*phoneServer, error) {
	if !o.on {
		return nil, nil
	}
	var token string
	addr := o.addr
	remembered := false
	if state != "" {
		if b, err := os.ReadFile(filepath.Join(state, phonesFile)); err == nil {
			if f := strings.Fields(string(b)); len(f) == 2 {
				if addr == "" || samePortZero(addr, f[0]) {
					// --phones-addr HOST:0 restarted: the port it was
					// given then, where the phones' storage is.
					addr, remembered = f[0], true
				}
				token = f[1]
			}
		}
	}
	if addr == "" {
		ip, err := lanAddr()
		if err != nil {
			return nil, &exitError{code: exitUsage, err: fmt.Errorf("--phones: %w", err)}
		}
		addr = net.JoinHostPort(ip, "0")
	}
	if _, port, err := net.SplitHostPort(addr); err != nil {
		return nil, &exitError{code: exitUsage, err: fmt.Errorf("--phones-addr %q: %w", addr, err)}
	} else if _, err := strconv.Atoi(port); err != nil {
		return nil, &exitError{code: exitUsage, err: fmt.Errorf("--phones-addr %q: port %q", addr, port)}
	}
	hub := phone.NewHub(phone.Config{Node: p.Node, Game: game, Timeout: timeout, Window: r.o.window,
		OnSeated: func(name string, seat int) { r.printf("%s joined (phone), seat %d", name, seat) },
		Log:      func(format string, args ...any) { r.printf("phones: "+format, args...) }, OnTable: onTable})
	seat := &phone.Seat{Log: func(s string) { r.printf("%s", s) }}
	srv, err := phone.Listen(addr, hub, seat, "", token)
	if err != nil && token != "" && remembered {
		// The old address is gone (another network): the phones must
		// scan the new code, and their seats are lost.
		r.printf("phones: cannot serve them at %s again (%v): a new address, phones must take new seats", addr, err)
		srv, err = phone.Listen(net.JoinHostPort(strings.Split(addr, ":")[0], "0"), hub, seat, "", "")
	}
	if err != nil {
		return nil, &exitError{code: 1, err: fmt.Errorf("--phones: %w", err)}
	}
	srv.SetRole(role)
	go srv.Serve()
	go func() {
		if err := seat.Prepare(); err != nil {
			r.printf("phones: %v", err)
		}
	}()
	r.printf("phones: serving on %s (the URL once the table is open)", srv.Addr())
	return &phoneServer{r: r, hub: hub, srv: srv, creator: p.ID.PeerID()}, nil
}

// show prints the phones' URL, the table's join code and the token in
// its fragment, and its QR code.
func (ps *phoneServer) show(code string) {
	ps.srv.SetCode(code)
	ps.printURL()
}

// printURL prints the phones' URL and its QR code. A new table prints
// them last, after the table's lines, so that on a 24-line terminal the
// whole code is on the screen (it is 19 lines high).
func (ps *phoneServer) printURL() {
	if ps == nil {
		return
	}
	url := ps.srv.URL()
	ps.r.printf("phones: open %s (same Wi-Fi), or scan:", url)
	if qr, err := qrterm.Render(url, qrterm.LightOnDark); err == nil && ps.r.a.isTerminal() {
		fmt.Fprint(ps.r.out, qr)
	}
}

// keep writes the phones' address and token into a new table's state
// directory.
func (ps *phoneServer) keep(dir string) {
	if ps != nil {
		os.WriteFile(filepath.Join(dir, phonesFile), []byte(ps.srv.Addr()+" "+ps.srv.Token()+"\n"), 0o600)
	}
}

// drain waits, at most d, until no phone is connected (at the end of a
// game the pages close their sockets once they hold the end).
func (ps *phoneServer) drain(ctx context.Context, d time.Duration) {
	if ps == nil {
		return
	}
	end := time.Now().Add(d)
	for ps.hub.Connected() > 0 && time.Now().Before(end) && ctx.Err() == nil {
		time.Sleep(200 * time.Millisecond)
	}
}

func (ps *phoneServer) close() {
	if ps != nil {
		ps.srv.Close()
	}
}

func (ps *phoneServer) onTable(t *p2p.Table) {
	if ps != nil {
		ps.hub.SetTable(t)
		// The URL is printed at the end of the table's lines (printURL).
		ps.srv.SetCode(lobby.Code(t.ID(), ps.creator))
	}
}

// remote makes the phones' server seat phones at t's table, asking its
// creator through this machine (join --phones, masque phones); next is
// the next free seat if known (0: not). It then prints the phones' URL
// with the table's code, which the phones check the roster against
// (phoneseat.Phone.SetCode): by invite the table id is not known yet,
// and the creator is asked for it first (tableIDOf), as long as ctx
// lasts; no URL without the code is printed.
func (ps *phoneServer) remote(ctx context.Context, p *netsession.Peer, t target, next int) error {
	if ps == nil {
		return nil
	}
	if t.id == ([16]byte{}) {
		id, err := ps.r.tableIDOf(ctx, p, t)
		if err != nil {
			return err
		}
		t.id = id
	}
	if t.game != "" {
		ps.hub.SetGame(t.game) // the name page names it
	}
	if t.total > 0 {
		ps.hub.SetTotal(t.total)
	}
	ps.hub.SetCreator(t.creator, t.id, next)
	ps.srv.SetCode(lobby.Code(t.id, t.creator.ID))
	ps.printURL()
	return nil
}

// tableIDOf asks t's creator (by invite: its peer id is the invite's)
// which table it opened, retrying while it does not answer: a
// forwarded join request under this node's own key, which the creator
// refuses, seating nobody, in a refusal that names its table
// (p2p.JoinRefusedError.TableID; a forwarder cannot ask for a seat
// under its own key). The answer comes over a connection authenticated
// as the creator's peer id, so its code is the one the host shows.
func (r *netRun) tableIDOf(ctx context.Context, p *netsession.Peer, t target) ([16]byte, error) {
	var told time.Time
	for {
		ask, cancel := context.WithTimeout(ctx, 15*time.Second)
		rj, err := p.Node.JoinForwarded(ask, t.creator, [16]byte{}, p2p.ForwardedJoin{Name: "phones", SignKey: p.ID.PublicKey()})
		cancel()
		if rj != nil {
			rj.Close() // never: the creator does not seat a forwarder's own key
		}
		var no *p2p.JoinRefusedError
		if errors.As(err, &no) && no.TableID != ([16]byte{}) {
			return no.TableID, nil
		}
		if err == nil {
			err = errors.New("it gave a seat to this machine's own key")
		}
		if time.Since(told) > 15*time.Second {
			told = time.Now()
			r.printf("phones: the URL once %s names its table (asking again): %v", termsafe.String(t.name), err)
		}
		select {
		case <-ctx.Done():
			return [16]byte{}, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// accepted tells the name page the table's seats, as its creator gave
// them when it seated this machine.
func (ps *phoneServer) accepted(total int) {
	if ps != nil && total > 0 {
		ps.hub.SetTotal(total)
	}
}

func (ps *phoneServer) seated(s *p2p.Seating) {
	if ps != nil {
		ps.hub.SetSeating(s)
	}
}

// resumed gives the hub a restarted table: its phones reconnect to their
// seats.
func (ps *phoneServer) resumed(st *store.Store) {
	if ps == nil {
		return
	}
	t := st.Table()
	gid, err := t.Roster.GameID()
	if err != nil {
		return
	}
	ps.hub.SetSeating(&p2p.Seating{Roster: t.Roster, GameID: gid, Table: t})
	ps.show(rosterCode(t.Roster))
}
