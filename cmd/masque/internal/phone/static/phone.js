// The phone's page: it draws what the seat (seat.wasm, Go) publishes and
// hands it the player's taps. Nothing game-specific is decided here.
"use strict";

// IndexedDB, one database per table, one record per key.
window.masqueIDB = {
  db(name) {
    return new Promise((ok, fail) => {
      const r = indexedDB.open(name, 1);
      r.onupgradeneeded = () => r.result.createObjectStore("kv");
      r.onsuccess = () => ok(r.result);
      r.onerror = () => fail(r.error);
    });
  },
  async getAll(name) {
    const db = await this.db(name);
    return new Promise((ok, fail) => {
      const tx = db.transaction("kv", "readonly"), st = tx.objectStore("kv");
      const keys = st.getAllKeys(), vals = st.getAll();
      tx.oncomplete = () => { db.close(); ok([keys.result, vals.result.map((v) => new Uint8Array(v))]); };
      tx.onerror = () => fail(tx.error);
    });
  },
  async put(name, keys, vals) {
    const db = await this.db(name);
    return new Promise((ok, fail) => {
      const tx = db.transaction("kv", "readwrite", { durability: "strict" }), st = tx.objectStore("kv");
      keys.forEach((k, i) => st.put(vals[i], k));
      tx.oncomplete = () => { db.close(); ok(); };
      tx.onerror = () => fail(tx.error);
      tx.onabort = () => fail(tx.error);
    });
  },
};

const $ = (id) => document.getElementById(id);
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

window.masqueReady = () => masqueSeat.open(location.hash.slice(1));

// HOW_TO_LINK says where the right link comes from.
const HOW_TO_LINK = "Scan the QR code the table's machine shows, or open the whole link it printed " +
  "(by 'masque host --phones', 'masque join --phones' or 'masque phones').";

// linkProblem says what the page's address lacks, or "": the part after
// # is the table's code and this machine's key (CODE-KEY, the key 32
// hex digits); a hand-typed address often lacks it, and with it the
// page can neither find its seat nor be let in.
// The code (12 letters and digits, dashes aside) is what the seat signs
// by: without it the phone could not tell its table from any other the
// serving machine names, and takes no seat.
function linkProblem() {
  const frag = location.hash.slice(1);
  if (!frag) return "This address lacks the table's code and key, the part after # in the link masque printed (…/#CODE-KEY). " + HOW_TO_LINK;
  const i = frag.lastIndexOf("-");
  if (!/^[0-9a-f]{32}$/.test(frag.slice(i + 1))) return "This address's key (the last part after #, 32 characters) is cut or mistyped. " + HOW_TO_LINK;
  const code = i < 0 ? "" : frag.slice(0, i).replace(/-/g, "");
  if (!code) return "This address lacks the table's code (…/#CODE-KEY: the link has only the key): without it this phone cannot tell its table from another and takes no seat. " + HOW_TO_LINK;
  if (!/^[0-9A-Za-z]{12}$/.test(code)) return "This address's table code (before the key, 12 letters and digits) is cut or mistyped. " + HOW_TO_LINK;
  return "";
}

// tableInfo is what the table's machine says of the table (its game,
// its players so far, whether it started), {forbidden: true} when it
// refuses this page's key, or null.
async function tableInfo() {
  const frag = location.hash.slice(1);
  try {
    const r = await fetch("table", { headers: { "X-Masque-Token": frag.slice(frag.lastIndexOf("-") + 1) } });
    if (r.status === 403) return { forbidden: true };
    return r.ok ? await r.json() : null;
  } catch (e) {
    return null;
  }
}

// masqueAskName: this phone holds no seat for this table (nothing
// stored). Before the game starts, the page names the table and asks
// the player's name; once it started, a seat cannot be taken: the page
// says so, and that a seat this phone held is gone with its storage.
window.masqueAskName = async () => {
  const info = await tableInfo();
  if (info && info.forbidden) {
    // A link of another table, or of this machine's earlier game.
    $("status").textContent = "This machine does not know this address's key: the link is of another table or an earlier game. " + HOW_TO_LINK;
    return;
  }
  if (info) {
    // A machine that is not the table's host (join --phones, masque
    // phones) may know neither the game nor who sits before the game
    // starts: it says nothing rather than "0 seated".
    if (info.game) $("game").textContent = info.game;
    const who = info.players || [];
    const seats = info.seats ? who.length + " of " + info.seats + " seats taken" : who.length ? who.length + " seated" : info.total ? info.total + " seats" : "";
    const parts = [info.code ? "Table " + info.code : "", seats + (who.length ? ": " + who.join(", ") : "")].filter((x) => x);
    // A table announced nowhere (joined by its invite): this machine
    // learns its game and players from the roster, once every seat is
    // taken; it says so rather than nothing.
    if (info.unnamed) parts.push("not announced: its game and players are shown when every seat is taken and the game starts");
    $("tableinfo").textContent = parts.join(" · ");
  }
  if (info && info.started) {
    $("status").textContent = "This table's game has started: this phone holds no seat at it, and cannot take one now.";
    $("gone").classList.remove("hidden");
    return;
  }
  $("status").textContent = "Choose your name to take a seat.";
  $("name").classList.remove("hidden");
  $("who").focus();
};

$("name").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const name = $("who").value.trim();
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(name)) return;
  $("name").classList.add("hidden");
  $("tableinfo").textContent = "";
  $("status").textContent = "asking for a seat…";
  masqueSeat.join(name);
});

$("say").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const text = $("line").value.trim();
  if (!text) return;
  masqueSeat.chat(text);
  $("line").value = "";
});

$("download").addEventListener("click", () => {
  const b = masqueSeat.transcript();
  if (!b) return;
  const a = el("a");
  a.href = URL.createObjectURL(new Blob([b], { type: "application/octet-stream" }));
  // The table's code names the file (the fragment is CODE-TOKEN; a
  // URL printed by join before the roster has no code); .masque as
  // masque writes its own.
  const frag = location.hash.slice(1), code = frag.slice(0, Math.max(0, frag.lastIndexOf("-")));
  a.download = (/^[0-9A-Z-]{1,40}$/.test(code) ? "masque-" + code : "transcript") + ".masque";
  document.body.append(a);
  a.click();
  a.remove();
});

let countdown = null;
// What was last drawn: the seat publishes its page several times a
// second; a part of the page is built again only when it changed, so
// that a button a finger is on is not replaced under it (the tap would
// be lost) and the countdown does not jump.
let drawn = { table: "", menu: "", wait: "", chat: "" };

// card draws a card with the --web page's pictures (cards.js), its name
// under it for a screen reader.
function card(c) {
  const f = el("figure", "card " + (c.face || "down"));
  if (window.MasqueCards) f.append(window.MasqueCards.card(c));
  f.append(el("figcaption", "", c.name ? c.name + (c.face === "known" ? " (only you know)" : "") : "face down"));
  if (c.note) f.title = c.note;
  return f;
}

window.masqueDraw = (json) => {
  const pg = JSON.parse(json);
  $("status").textContent = pg.status || "";
  $("faults").textContent = (pg.faults || []).join("\n");
  const t = pg.table;
  if (!t && !pg.entries) return;
  $("play").classList.remove("hidden");
  const tableKey = JSON.stringify(t || null);
  if (t && tableKey !== drawn.table) {
    drawn.table = tableKey;
    // The table's counters (the court, the living) and what the whole
    // table is in the middle of (a claim and its challenges, the vote,
    // the morning's news), as the --web page shows them.
    const nb = $("notices");
    nb.replaceChildren();
    const counters = (t.Counters || []).map((a) => a.words || a.value + " " + a.name).join(" · ");
    if (counters) nb.append(el("p", "counters", counters));
    for (const n of t.Notices || []) {
      const box = el("div", "notice" + (n.yours ? " yours" : ""));
      box.append(el("p", "title", n.title), el("p", "", n.text));
      if (n.window) box.append(el("p", "window", n.window));
      nb.append(box);
    }
    const seats = $("seats");
    seats.replaceChildren();
    for (const s of t.Seats || []) {
      const row = el("div", "seat" + (s.you ? " you" : "") + (s.turn ? " turn" : ""));
      row.append(el("div", "who", s.name + (s.you ? " (you)" : "")));
      const attrs = (s.attrs || []).map((a) => a.words || a.value + " " + a.name).join(" · ");
      if (attrs) row.append(el("div", "attrs", attrs));
      if (s.status) row.append(el("div", "brief", s.status));
      const cards = el("div", "cards");
      for (const c of s.cards || []) cards.append(card(c));
      row.append(cards);
      seats.append(row);
    }
    const areas = $("areas");
    areas.replaceChildren();
    for (const a of t.Areas || []) {
      const box = el("div", "area");
      let cs = a.cards || [];
      if (a.marked) cs = cs.filter((c) => c.note);
      // The area in words when the view has them ("centre: 2 cards,
      // face down"); a marked area with nothing marked says so rather
      // than standing alone as a bare name.
      box.append(el("p", "", a.words || a.name + (a.count >= 0 ? ": " + a.count : a.marked && !cs.length ? ": none marked yet" : "")));
      if (cs.length && !a.pile) {
        const row = el("div", "cards small");
        for (const c of cs) row.append(card(c));
        box.append(row);
      }
      areas.append(box);
    }
    const mem = $("memory");
    mem.replaceChildren();
    for (const m of t.Memory || []) mem.append(el("p", "area", m));
    const log = $("log");
    log.replaceChildren();
    for (const l of (t.Log || []).slice(-40)) log.append(el("li", "", l));
    if (t.Over) {
      $("over").classList.remove("hidden");
      $("outcome").textContent = t.Outcome || t.Ending || "game over";
      const res = $("result");
      res.replaceChildren();
      for (const r of t.Result || []) res.append(el("li", "", r));
    }
  }
  if (t) {
    const h = heading(pg, t);
    if ($("game").textContent !== h) $("game").textContent = h;
  }
  drawChat(pg);
  drawLeave(pg);
  const menuKey = JSON.stringify([pg.myTurn, pg.asking, pg.yes, pg.no, pg.path, pg.menu, t && t.Question && t.Question.text, t && t.Over]);
  if (menuKey !== drawn.menu) {
    drawn.menu = menuKey;
    drawMenu(pg, t);
  }
  // An open answer window (a claim) runs out first: the seat passes
  // then, whatever time its move has left.
  const win = pg.myTurn && pg.windowUntilMs ? pg.windowUntilMs : 0;
  const waitKey = JSON.stringify([pg.myTurn, pg.waiting, !!win]);
  // The seat's deadline (the table's: it outlives a reload), else the
  // time left from now.
  const until = win || pg.untilMs || Date.now() + (pg.leftMs || 0);
  const timed = !!(win || pg.leftMs);
  // A new wait, or one whose time the seat corrects by more than 2 s,
  // restarts the countdown; otherwise it runs on from where it is.
  if (waitKey !== drawn.wait || timed !== !!drawn.until || Math.abs(until - (drawn.until || 0)) > 2000) {
    drawn.wait = waitKey;
    drawn.until = timed ? until : 0;
    startCountdown(pg, !!win);
  }
};

// answering is the question the seat must answer on another's turn (a
// forced response, an answer window: a claim), or null; not a move all
// make in turn on one player's turn (Grimm's draft).
function answering(pg, t) {
  if (!pg.myTurn || !t || t.Over || !t.Question) return null;
  const q = t.Question;
  if (!q.forced && !q.window && !(t.Notices || []).some((n) => n.yours)) return null;
  const seats = t.Seats || [];
  const me = seats.find((s) => s.you), turn = seats.find((s) => s.turn && !s.you);
  return me && !me.turn && turn ? { q, turn: turn.name } : null;
}

// heading is the game and where the table is; when the seat must answer
// on another's turn, that it must, and what (the question), rather than
// "Boris's turn".
function heading(pg, t) {
  const a = answering(pg, t);
  if (!a) return t.Game + (t.Status ? " · " + t.Status : "");
  // What: the question, else the notice the seat must answer (a claim).
  const n = (t.Notices || []).find((x) => x.yours);
  const what = a.q.text || (n && n.text) || "";
  return t.Game + " · " + (a.q.forced ? "you must answer" : "your answer") + " (" + a.turn + "'s turn)" + (what ? ": " + what : "");
}

// drawChat draws the table chat (the seat checked every line's
// signature) and whether the player may write now.
function drawChat(pg) {
  const key = JSON.stringify([pg.chat, pg.mayChat, pg.chatErr]);
  if (key === drawn.chat) return;
  drawn.chat = key;
  $("chat").classList.remove("hidden");
  const log = $("chatlog");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.replaceChildren();
  for (const l of pg.chat || []) {
    const li = el("li", l.you ? "you" : "");
    li.append(el("span", "who", l.name), document.createTextNode(l.text));
    log.append(li);
  }
  if (atEnd) log.scrollTop = log.scrollHeight;
  $("line").disabled = $("send").disabled = !pg.mayChat;
  $("line").placeholder = pg.mayChat ? "Message the table" : "Chat closed for you now";
  $("chaterr").textContent = pg.chatErr || "";
}

function drawMenu(pg, t) {
  const menu = $("menu");
  menu.replaceChildren();
  $("question").textContent = "";
  if (pg.myTurn && pg.asking) {
    $("question").textContent = pg.asking;
    const yes = el("button", "yes", pg.yes || "Yes"), no = el("button", "no", pg.no || "No");
    yes.addEventListener("click", () => masqueSeat.answer("yes"));
    no.addEventListener("click", () => masqueSeat.answer("no"));
    menu.append(yes, no);
  } else if (pg.myTurn) {
    // On another's turn the heading says the question already.
    $("question").textContent = answering(pg, t) ? "" : (t && t.Question && t.Question.text) || "Your move";
    if (pg.path && pg.path.length) {
      const back = el("button", "back", "‹ " + pg.path.join(" › "));
      back.addEventListener("click", () => masqueSeat.back());
      menu.append(back);
    }
    (pg.menu || []).forEach((m, i) => {
      const b = el("button", m.step ? "step" : "choice", m.label + (m.step && m.count ? " (" + m.count + ")" : ""));
      b.dataset.i = i;
      b.addEventListener("click", () => masqueSeat.pick(i));
      menu.append(b);
    });
  }
  // The end: the outcome stands once, in the section under the menu;
  // the empty question and menu take no room above it.
  if (t && t.Over) $("question").textContent = "";
  $("turn").classList.toggle("hidden", !!(t && t.Over));
}

// drawLeave draws the way out of a game with leaving (Mafia): a button
// that first asks, naming what happens, then the seat's leave; once
// asked, that the seat is leaving, then that it left (the page follows
// the table read-only; the transcript is offered at the end).
function drawLeave(pg) {
  const key = JSON.stringify([pg.canLeave, pg.leaving, pg.left, pg.over]);
  if (key === drawn.leave) return;
  drawn.leave = key;
  const show = pg.canLeave || pg.leaving || pg.left;
  $("leave").classList.toggle("hidden", !show);
  $("leave-game").classList.toggle("hidden", !pg.canLeave);
  if (!pg.canLeave) $("leave-ask").classList.add("hidden");
  $("left").textContent = pg.left ? "You left the game: the others play on without you. This page follows the table to its end, read-only; then you may download the transcript." :
    pg.leaving ? "You are leaving the game: you are out at your next move, and your role is shown." : "";
}

$("leave-game").addEventListener("click", () => {
  $("leave-ask").classList.remove("hidden");
  $("leave-no").focus();
});
$("leave-no").addEventListener("click", () => $("leave-ask").classList.add("hidden"));
$("leave-yes").addEventListener("click", () => {
  $("leave-ask").classList.add("hidden");
  masqueSeat.leave();
});

// startCountdown shows whom the table waits for, or the time left on
// the seat's own move (in an answer window: until it passes), counted
// down each second.
function startCountdown(pg, win) {
  clearInterval(countdown);
  const w = $("waiting");
  w.textContent = "";
  if (!pg.waiting && !(pg.myTurn && (pg.leftMs || win))) return;
  const until = drawn.until;
  const show = () => {
    const left = Math.max(0, Math.round((until - Date.now()) / 1000));
    const time = left >= 60 ? Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") : left + " s";
    if (pg.waiting) w.textContent = "waiting for " + pg.waiting + (until ? " · " + time : "");
    else if (win) w.textContent = time + " left to answer, then you pass";
    else w.textContent = time + " left to move";
  };
  show();
  if (until) countdown = setInterval(show, 1000);
}

fetch("build").then((r) => r.text()).then((h) => { $("build").textContent = h.trim().slice(0, 16); });
fetch("served-by").then((r) => r.text()).then((s) => { $("servedby").textContent = s.trim(); });
const problem = linkProblem();
if (problem) {
  // Nothing to open: no seat is loaded (nor its 9 MB). The address
  // corrected in place opens the seat.
  $("status").textContent = problem;
  window.addEventListener("hashchange", () => location.reload());
} else {
  const go = new Go();
  WebAssembly.instantiateStreaming(fetch("seat.wasm"), go.importObject)
    .then((r) => go.run(r.instance))
    .catch((e) => { $("status").textContent = "your seat could not start: " + e; });
}
