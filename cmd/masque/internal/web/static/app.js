// The play screen in a browser: draws the seat's view, sent by the
// player's own masque over server-sent events, and posts the seat's
// actions back. Everything from the table is put in as text.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
  let st = null;        // the last state
  let got = 0;          // when it came (performance.now())
  let asking = null;    // {i, choice}: a choice waiting for its confirmation
  let swapSeen = null;  // the entry of the last swap shown
  let leftTable = false;
  let focusedAt = null; // the decision the focus was put on
  let page = 0;         // the menu page shown (st.menu: the question's choices as pages, from masque)

  // menuPage is the menu page shown, or null.
  function menuPage() {
    const ms = (st && st.menu) || [];
    if (page >= ms.length) page = 0;
    return ms[page] || null;
  }

  // pick plays a line of the menu page: a choice, or a step to the page
  // of its choices.
  function pick(j) {
    if (!st || !st.question || st.busy || leftTable) return;
    const pg = menuPage();
    const it = pg && pg.lines[j];
    if (!it) return;
    if (it.choice >= 0) { choose(it.choice); return; }
    page = it.next;
    renderQuestion();
    const b = document.querySelector("#question button.choice:not([disabled])");
    if (b) b.focus();
  }

  // menuBack goes back to the page the shown one was opened from.
  function menuBack() {
    const pg = menuPage();
    if (!pg || pg.back < 0) return;
    const from = page;
    page = pg.back;
    renderQuestion();
    const b = document.querySelector('#question button.choice[data-next="' + from + '"]');
    if (b) b.focus();
  }

  function h(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function clock(ms) {
    const s = Math.max(0, Math.round(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  function cardEl(c) {
    const f = h("figure", "card card-" + c.face);
    if (c.slot) f.dataset.slot = String(c.slot);
    if (c.track) f.dataset.track = String(c.track);
    let label;
    if (c.face === "down" || !c.name) label = "face-down " + (c.note ? c.note + " " : "") + "card" + (c.place ? " " + c.place : "");
    else label = c.name + (c.face === "known" ? " (only you know)" : "") + (c.note ? ", " + c.note : "");
    f.setAttribute("aria-label", label);
    f.title = label;
    f.appendChild(window.MasqueCards.card(c));
    return f;
  }

  // cardsEl draws a row of cards; equal face-up cards (items) lie in one
  // pile with their count, as the terminal counts them ("Crown ×2").
  function cardsEl(cs) {
    const row = h("div", "cards");
    const piles = new Map();
    for (const c of cs) {
      const key = c.face === "up" && !c.slot && c.name ? c.name + "\u0000" + (c.note || "") : null;
      if (key && piles.has(key)) {
        const p = piles.get(key);
        p.n++;
        p.count.textContent = "×" + p.n;
        p.fig.classList.add("stack");
        if (c.track) p.fig.dataset.track = (p.fig.dataset.track ? p.fig.dataset.track + " " : "") + c.track;
        const label = c.name + " ×" + p.n + (c.note ? ", " + c.note : "");
        p.fig.setAttribute("aria-label", label);
        p.fig.title = label;
        continue;
      }
      const fig = cardEl(c);
      if (key) {
        const count = h("span", "count");
        fig.appendChild(count);
        piles.set(key, { fig: fig, count: count, n: 1 });
      }
      row.appendChild(fig);
    }
    return row;
  }

  function attrEl(a) {
    const li = h("li", "attr attr-" + a.name.replace(/[^a-z]/gi, ""));
    const icon = { coin: window.MasqueCards.coin, rose: window.MasqueCards.rose }[a.icon];
    if (icon) li.appendChild(icon(a.value));
    li.appendChild(h("span", "", a.words || a.name + " " + a.value));
    return li;
  }

  function renderHeader() {
    let title = "masque";
    if (st.game) title += " · " + st.game;
    if (st.me) title += " · you are " + st.me;
    else if (st.watching) title += " · watching";
    $("title").textContent = title;
    // What kind of table it is goes in the title's tooltip and the help,
    // not after the status: the header stays one line wide.
    $("title").title = st.title || "";
    $("status").textContent = st.status || "";
    $("status").title = st.status || "";
    // Day or night (Mafia): a sun or a moon beside the status, and the
    // page's colours.
    const ph = $("phase");
    if (document.body.dataset.phase !== (st.phase || "")) {
      if (st.phase) document.body.dataset.phase = st.phase; else delete document.body.dataset.phase;
      ph.replaceChildren();
      if (st.phase) { ph.appendChild(window.MasqueCards.phase(st.phase)); ph.appendChild(h("span", "", st.phase)); }
      ph.hidden = !st.phase;
    }
    const cs = $("counters");
    cs.replaceChildren();
    for (const a of st.counters || []) cs.appendChild(attrEl(a));
    const mark = st.question && !st.over ? "● " : "";
    document.title = mark + "masque · " + st.line;
    const live = $("live");
    if (live.textContent !== st.line) live.textContent = st.line; // said once per change, by screen readers
  }

  function renderSeats() {
    const ol = $("seats");
    ol.replaceChildren();
    for (const s of st.seats || []) {
      const li = h("li", "seat" + (s.you ? " you" : "") + (s.turn ? " turn" : "") + (s.answers ? " answers" : "") + (s.out ? " out" : ""));
      li.dataset.place = "seat " + s.name;
      const head = h("div", "seat-head");
      head.appendChild(h("span", "seat-name", s.name + (s.you ? " (you)" : "")));
      if (s.turn) head.appendChild(h("span", "badge", s.you ? "your turn" : "their turn"));
      if (s.answers) head.appendChild(h("span", "badge answer", "to answer"));
      if (s.out) head.appendChild(h("span", "badge out", "out"));
      li.appendChild(head);
      if (s.attrs && s.attrs.length) {
        const ul = h("ul", "attrs");
        for (const a of s.attrs) ul.appendChild(attrEl(a));
        li.appendChild(ul);
      }
      if (s.parts && s.parts.length) {
        // A status of several parts ("alive; your mate in the mafia")
        // shows each apart.
        // "out" is the badge's already.
        const parts = s.parts.filter((p) => !(s.out && p.text === "out"));
        if (!parts.length) { /* nothing beyond the badge */ } else if (parts.length > 1) {
          const ul = h("ul", "seat-status chips");
          // What only the seat knows stands out: its own role, its mates,
          // its checks (the view marks them; the frame only shows it).
          const marks = { own: " chip-own", warn: " chip-mafia" };
          for (const p of parts) ul.appendChild(h("li", "chip" + (marks[p.mark] || ""), p.text));
          li.appendChild(ul);
        } else li.appendChild(h("p", "seat-status", parts[0].text));
      }
      if (s.moved) li.appendChild(h("p", "seat-moved", "(" + s.moved + ")"));
      if (s.tokens && s.tokens.length) {
        const ul = h("ul", "tokens");
        for (const t of s.tokens) {
          const li2 = h("li", "token");
          li2.appendChild(window.MasqueCards.token(t));
          li2.appendChild(h("span", "", t));
          ul.appendChild(li2);
        }
        li.appendChild(ul);
      }
      li.appendChild(cardsEl(s.cards || []));
      ol.appendChild(li);
    }
    const notes = $("notes");
    notes.replaceChildren();
    for (const n of st.notes || []) notes.appendChild(h("li", "", n));
  }

  function renderAreas() {
    const box = $("areas");
    box.replaceChildren();
    for (const a of st.areas || []) {
      const sec = h("section", "area" + (a.pile ? " pile" : "") + (a.marked ? " marked" : ""));
      sec.dataset.place = "area " + a.name;
      let head = a.name;
      if (a.count >= 0 && (a.pile || !(a.cards || []).length)) head += " · " + a.count;
      sec.appendChild(h("h3", "", head));
      if (a.note) sec.appendChild(h("p", "area-note", a.note));
      // The words without the area's name the heading says already
      // ("last reveal: Egor's card was the King").
      if (a.words) {
        let w = a.words;
        if (w.toLowerCase().startsWith(a.name.toLowerCase() + ": ")) w = w.slice(a.name.length + 2);
        sec.appendChild(h("p", "area-words", w));
      }
      const cards = h("div", "cards");
      let shown = a.cards || [];
      if (a.pile && shown.length) shown = [shown[shown.length - 1]];
      for (const c of shown) {
        const e = cardEl(c);
        if (a.marked && !c.note) e.classList.add("plain");
        cards.appendChild(e);
      }
      // A deck whose cards nobody sees (a pile, the Grimm character deck)
      // is drawn as its back, the count in the heading.
      if (!shown.length && a.count > 0) cards.appendChild(cardEl({ face: "down" }));
      if (cards.childNodes.length) sec.appendChild(cards);
      box.appendChild(sec);
    }
  }

  function left(ms) { return ms ? ms - (performance.now() - got) : 0; }

  function renderNotices() {
    const box = $("notices");
    box.replaceChildren();
    for (const n of st.notices || []) {
      const sec = h("section", "panel notice" + (n.yours ? " yours" : ""));
      sec.appendChild(h("h2", "", n.title));
      sec.appendChild(h("p", "", n.text));
      if (n.window) {
        const p = h("p", n.yours ? "warn" : "", n.window);
        if (n.yours && st.window) { const sp = h("span", "window-left"); p.appendChild(sp); }
        sec.appendChild(p);
      }
      box.appendChild(sec);
    }
  }

  function post(body) {
    return fetch("act", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), credentials: "omit", cache: "no-store" })
      .then((r) => r.ok ? null : r.text().then((t) => { showNote(t || "refused"); }))
      .catch(() => showNote("masque does not answer: is it still running?"));
  }

  function showNote(text) {
    const n = document.querySelector("#question .note");
    if (n) n.textContent = text;
  }

  function choose(i) {
    if (!st || !st.question || st.busy || leftTable) return;
    const c = st.question.choices[i];
    if (!c) return;
    if (c.secret || c.confirm) { asking = { i: i, choice: c }; renderQuestion(); const y = $("ask-yes"); if (y) y.focus(); return; }
    post({ op: "play", at: st.at, ask: st.ask, choice: i });
  }

  function answer(yes) {
    if (!asking) return;
    const a = asking;
    asking = null;
    if (!a.choice.secret && !yes) { renderQuestion(); return; }
    post({ op: "play", at: st.at, ask: st.ask, choice: a.i, answer: yes ? "yes" : "no" });
    renderQuestion();
  }

  function pass() {
    if (!st || !st.question || st.busy) return;
    if (st.question.choices.some((c) => c.pass)) post({ op: "pass", at: st.at, ask: st.ask });
  }

  function renderQuestion() {
    const q = $("question");
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.choice : undefined;
    q.replaceChildren();
    if (st.over) {
      q.appendChild(h("h2", "", "Result"));
      const ul = h("ul", "result");
      for (const r of st.result || []) ul.appendChild(h("li", "", r));
      q.appendChild(ul);
      if (st.outcome) q.appendChild(h("p", st.won ? "won" : "warn", st.outcome));
      if (st.verdict) q.appendChild(h("p", "warn", "the table stopped: " + st.verdict));
      if (st.endNotes && st.endNotes.length) {
        const ul2 = h("ul", "end-notes");
        for (const l of st.endNotes) { const li = h("li"); li.appendChild(h("code", "", l)); ul2.appendChild(li); }
        q.appendChild(ul2);
      }
      const b = h("button", "primary", st.watching ? "Stop watching" : "Leave the table");
      b.type = "button"; b.id = "leave-end";
      b.addEventListener("click", () => leave(true));
      q.appendChild(b);
      q.appendChild(h("p", "note", st.note || ""));
      return;
    }
    if (st.question) {
      const qq = st.question;
      const head = h("h2", "", qq.forced ? "Only you can answer" : "Your move");
      if (st.moveLeft) head.appendChild(h("span", "move-left"));
      q.appendChild(head);
      q.appendChild(h("p", "hurry warn"));
      if (qq.text) q.appendChild(h("p", "question-text", qq.text));
      if (asking) {
        const box = h("div", "ask");
        box.setAttribute("role", "group");
        box.appendChild(h("p", "warn", asking.choice.words + ": " + (asking.choice.confirm || "are you sure?")));
        const yes = h("button", "primary", asking.choice.yes || "Yes");
        yes.type = "button"; yes.id = "ask-yes";
        yes.appendChild(h("kbd", "", "y"));
        yes.addEventListener("click", () => answer(true));
        const no = h("button", "", asking.choice.no || "No");
        no.type = "button"; no.id = "ask-no";
        no.appendChild(h("kbd", "", "n"));
        no.addEventListener("click", () => answer(false));
        const back = h("button", "", "Back");
        back.type = "button"; back.id = "ask-back";
        back.appendChild(h("kbd", "", "Esc"));
        back.addEventListener("click", () => { asking = null; renderQuestion(); });
        box.append(yes, " ", no, " ", back);
        q.appendChild(box);
      } else {
        const pg = menuPage() || { path: [], back: -1, lines: [] };
        if (pg.path && pg.path.length) {
          const path = h("p", "menu-path");
          path.appendChild(h("span", "", pg.path.join(" › ") + " ›"));
          if (pg.back >= 0) {
            const back = h("button", "menu-back", "Back");
            back.type = "button"; back.id = "menu-back";
            back.appendChild(h("kbd", "", "Esc"));
            back.addEventListener("click", menuBack);
            path.append(" ", back);
          }
          q.appendChild(path);
        }
        const ol = h("ol", "choices");
        pg.lines.forEach((it, j) => {
          const li = h("li");
          const b = h("button", "choice" + (it.pass ? " pass" : "") + (it.choice >= 0 ? "" : " step"));
          b.type = "button";
          if (it.choice >= 0) b.dataset.choice = String(it.choice); else b.dataset.next = String(it.next);
          if (it.key) b.appendChild(h("kbd", "", it.key));
          b.appendChild(h("span", "", it.label));
          if (it.pass) b.appendChild(h("kbd", "", "p"));
          b.disabled = !!st.busy;
          b.addEventListener("click", () => pick(j));
          li.appendChild(b);
          ol.appendChild(li);
        });
        q.appendChild(ol);
      }
      if (st.busy) q.appendChild(h("p", "busy", "playing…"));
    } else if (st.dealt) {
      const p = h("p", "waiting", st.waiting ? "waiting for " + st.waiting : "waiting…");
      if (st.waitLeft || st.waitWindowLeft) p.appendChild(h("span", "wait-left"));
      q.appendChild(p);
      if (st.offline) q.appendChild(h("p", "warn", st.offline + " is not connected: their masque may have stopped (they rejoin by running the same command again)"));
    } else {
      q.appendChild(h("p", "", st.verdict ? "the table stopped: " + st.verdict : "shuffling and dealing…"));
    }
    q.appendChild(h("p", "note", st.note || ""));
    if (focused !== undefined) {
      const b = q.querySelector('[data-choice="' + focused + '"]');
      if (b && !b.disabled) b.focus();
    }
    // A new decision takes the keyboard's focus, on the safe choice (the
    // pass, or the first), unless the player is elsewhere (the chat).
    if (st.question && !asking && focusedAt !== st.at) {
      const a = document.activeElement;
      if (!a || a === document.body || q.contains(a)) {
        const b = q.querySelector("button.choice.pass:not([disabled])") || q.querySelector("button.choice:not([disabled])");
        if (b) { b.focus({ preventScroll: true }); focusedAt = st.at; }
      }
    }
    tick();
  }

  function renderMemory() {
    const box = $("memory");
    const ul = $("memory-lines");
    ul.replaceChildren();
    const lines = st.memory || [];
    box.hidden = st.noMemory || !lines.length;
    for (const l of lines) ul.appendChild(h("li", /^\s/.test(l) ? "cont" : "", l.trim()));
  }

  function renderLog() {
    const ol = $("log");
    const atEnd = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 4;
    ol.replaceChildren();
    for (const l of st.log || []) {
      if (l.who) {
        const li = h("li", "chat-line");
        li.appendChild(h("b", "", "» " + l.who + ": "));
        li.appendChild(document.createTextNode(l.text));
        ol.appendChild(li);
      } else ol.appendChild(h("li", "", l.text));
    }
    if (atEnd) ol.scrollTop = ol.scrollHeight;
    $("chat").hidden = !st.chat;
    // The dead may read the chat but not write in it (Mafia).
    const barred = !!st.chatBarred;
    $("chat-text").disabled = barred;
    $("chat-send").disabled = barred;
    $("chat-text").placeholder = barred ? st.chatBarred : "a message to everyone at the table";
  }

  function renderHelp() {
    const box = $("help-body");
    box.replaceChildren();
    if (st.title) box.appendChild(h("p", "", "This table: " + st.title + "."));
    for (const s of st.help || []) {
      box.appendChild(h("h3", "", s.title));
      const ul = h("ul");
      for (const l of s.lines || []) {
        // A line about a card ("Nurse: each night…") shows its picture.
        const name = l.split(": ")[0];
        const li = h("li", "", l);
        if (name !== l && window.MasqueCards.has(name)) {
          li.className = "help-card";
          li.replaceChildren();
          const f = h("figure", "card card-up");
          f.setAttribute("aria-hidden", "true");
          f.appendChild(window.MasqueCards.card({ name: name, face: "up" }));
          li.append(f, h("span", "", l));
        }
        ul.appendChild(li);
      }
      box.appendChild(ul);
    }
  }

  // showSwap moves both cards of each swap of the latest move from the
  // other's place to their own: a swap looks the same whether it was
  // real or pretended. A redraw while they move carries the movement on
  // with the new elements.
  let moving = null; // {pairs, start}
  const SWAP_MS = 700;
  function showSwap(first) {
    const sw = st.swap;
    if (sw && sw.at !== swapSeen) {
      swapSeen = sw.at;
      if (!first) moving = { pairs: sw.pairs, start: performance.now() };
    }
    if (!moving) return;
    const elapsed = performance.now() - moving.start;
    if (elapsed >= SWAP_MS) { moving = null; return; }
    for (const [a, b] of moving.pairs) {
      const ea = document.querySelector('[data-slot="' + a + '"]');
      const eb = document.querySelector('[data-slot="' + b + '"]');
      if (!ea || !eb) continue;
      if (reduced.matches || !ea.animate) {
        ea.classList.add("swapped"); eb.classList.add("swapped");
        continue;
      }
      const ra = ea.getBoundingClientRect(), rb = eb.getBoundingClientRect();
      const dx = rb.left - ra.left, dy = rb.top - ra.top;
      const opts = { duration: SWAP_MS, easing: "ease-in-out" };
      const an = ea.animate([{ transform: "translate(" + dx + "px," + dy + "px)" }, { transform: "none" }], opts);
      const bn = eb.animate([{ transform: "translate(" + (-dx) + "px," + (-dy) + "px)" }, { transform: "none" }], opts);
      an.currentTime = elapsed; bn.currentTime = elapsed;
    }
  }

  // Cards that change hands in the open (The Grimm Masquerade's items:
  // an exchange, a dance, a toast, a draft) fly from their last place to
  // their new one; for a player who asks for reduced motion they are
  // only marked. trackPlaces is where each tracked card lies now.
  function trackPlaces() {
    const m = new Map();
    for (const f of document.querySelectorAll("#main [data-track]")) {
      const at = f.closest("[data-place]");
      const where = at ? at.dataset.place : "";
      const r = f.getBoundingClientRect();
      for (const id of f.dataset.track.split(" ")) m.set(id, { rect: r, where: where });
    }
    return m;
  }

  function flyMoved(before) {
    if (!before.size) return;
    for (const f of document.querySelectorAll("#main [data-track]")) {
      const at = f.closest("[data-place]");
      const where = at ? at.dataset.place : "";
      let from = null;
      for (const id of f.dataset.track.split(" ")) {
        const b = before.get(id);
        if (b && b.where !== where) { from = b.rect; break; }
      }
      if (!from) continue;
      if (reduced.matches || !f.animate) { f.classList.add("swapped"); continue; }
      const to = f.getBoundingClientRect();
      const ghost = f.cloneNode(true);
      ghost.removeAttribute("data-track");
      ghost.setAttribute("aria-hidden", "true");
      ghost.classList.add("ghost");
      const c = ghost.querySelector(".count");
      if (c) c.remove();
      ghost.style.left = to.left + "px"; // CSSOM, allowed by the style-src policy (no style attribute in the markup)
      ghost.style.top = to.top + "px";
      ghost.style.width = to.width + "px";
      document.body.appendChild(ghost);
      f.classList.add("arriving");
      const an = ghost.animate([{ transform: "translate(" + (from.left - to.left) + "px," + (from.top - to.top) + "px)" }, { transform: "none" }],
        { duration: SWAP_MS, easing: "ease-in-out" });
      an.onfinish = an.oncancel = () => { ghost.remove(); f.classList.remove("arriving"); };
    }
  }

  function render() {
    const before = document.body.dataset.rendered ? trackPlaces() : new Map();
    renderHeader();
    renderSeats();
    renderAreas();
    renderNotices();
    renderQuestion();
    renderMemory();
    renderLog();
    renderHelp();
    const first = !document.body.dataset.rendered;
    showSwap(first);
    flyMoved(before);
    document.body.dataset.rendered = "1";
    if (first && performance.mark) performance.mark("masque-drawn"); // the first load's end (the benchmark reads it)
    document.body.dataset.rev = String(st.rev);
    document.body.dataset.at = String(st.at);
  }

  // tick redraws the clocks from the state's times left.
  function tick() {
    if (!st) return;
    const m = document.querySelector(".move-left");
    if (m) m.textContent = " · " + clock(left(st.moveLeft)) + " left";
    const hurry = document.querySelector(".hurry");
    if (hurry) hurry.textContent = st.moveLeft && left(st.moveLeft) <= 30000 ? "hurry: " + clock(left(st.moveLeft)) + " left, then the others stop the table and name you" : "";
    const w = document.querySelector(".window-left");
    if (w) w.textContent = " (" + Math.ceil(Math.max(0, left(st.windowLeft)) / 1000) + "s left, then you pass)";
    const wl = document.querySelector(".wait-left");
    // A claim's answerer: its screen passes for it when its answer
    // window runs out; then (its program stopped) the table's timeout.
    if (wl && st.waitWindowLeft && left(st.waitWindowLeft) > 0) wl.textContent = " (" + clock(left(st.waitWindowLeft)) + " left to answer, then " + st.waitWho + " passes)";
    else if (wl) wl.textContent = st.waitLeft ? " (" + clock(left(st.waitLeft)) + " before the timeout)" : "";
  }
  setInterval(tick, 250);

  // leaveGame asks to leave the game for good (Mafia): the page stays
  // until the seat is out, then the screen stops as for leave.
  function leaveGame() {
    if (!st || !st.canLeave) return;
    post({ op: "leave-game" });
  }

  function leave(sure) {
    if (leftTable) return;
    if (!sure && st && !st.over) {
      $("leave-text").textContent = st.watching ? "The game goes on; you stop following it, and the transcript so far is written." :
        st.canLeave ? "Leave the game for good: you are out at your next move, your role is shown, and the others play on without you. Or only close this page (Leave): the others wait for you until their timeout; run the same command again to come back." :
        "The game goes on without you: the others wait for you until their timeout. Run the same command again to come back.";
      $("leave-game").hidden = !st.canLeave;
      $("leave-ask").showModal();
      $("leave-no").focus();
      return;
    }
    leftTable = true;
    if (src) src.close();
    post({ op: "leave" });
    const m = $("main");
    m.replaceChildren(h("p", "left", (st && st.watching ? "You stopped watching." : "You left the table.") + " You may close this tab; the terminal says what happens next."));
  }

  $("leave").addEventListener("click", () => leave(false));
  $("leave-yes").addEventListener("click", () => { $("leave-ask").close(); leave(true); });
  $("leave-no").addEventListener("click", () => $("leave-ask").close());
  $("leave-game").addEventListener("click", () => { $("leave-ask").close(); leaveGame(); });
  $("help-open").addEventListener("click", () => $("help").showModal());
  $("chat").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const inp = $("chat-text");
    const text = inp.value.trim();
    inp.value = "";
    if (text) post({ op: "chat", text: text });
  });

  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA")) {
      if (ev.key === "Escape") t.blur();
      return;
    }
    if ($("leave-ask").open) {
      if (ev.key === "y") { ev.preventDefault(); $("leave-ask").close(); leave(true); }
      if (ev.key === "n") { ev.preventDefault(); $("leave-ask").close(); }
      if (ev.key === "l" && st && st.canLeave) { ev.preventDefault(); $("leave-ask").close(); leaveGame(); }
      return;
    }
    if ($("help").open) return; // Esc closes it
    if (asking) {
      if (ev.key === "y") { ev.preventDefault(); answer(true); }
      else if (ev.key === "n") { ev.preventDefault(); answer(false); }
      else if (ev.key === "Escape") { ev.preventDefault(); asking = null; renderQuestion(); }
      return;
    }
    if (ev.key === "?") { ev.preventDefault(); $("help").showModal(); }
    else if (ev.key === "q") { ev.preventDefault(); leave(st && st.over); }
    else if (ev.key === "p") { ev.preventDefault(); pass(); }
    else if (ev.key === "c" && st && st.chat && !st.chatBarred) { ev.preventDefault(); $("chat-text").focus(); }
    else if (ev.key === "Escape" && menuPage() && menuPage().back >= 0) { ev.preventDefault(); menuBack(); }
    else if (ev.key.length === 1 && menuPage()) {
      const j = menuPage().lines.findIndex((it) => it.key === ev.key);
      if (j >= 0) { ev.preventDefault(); pick(j); }
    }
  });

  // take draws a new state.
  function take(next) {
    if (st && (next.at !== st.at || next.ask !== st.ask)) { asking = null; page = 0; }
    st = next;
    got = performance.now();
    $("connection").hidden = true;
    if (st.out && !leftTable) {
      // Out of the game after leaving it: masque stops this page.
      leftTable = true;
      if (src) src.close();
      $("main").replaceChildren(h("p", "left", "You left the game; the others play on without you. You may close this tab; the terminal says how to follow the rest."));
      return;
    }
    render();
  }

  // The stream sends the whole state first (on every connection), then
  // patches: the fields that changed, and for a list (the seats, the log)
  // its length and the elements that changed.
  let src = null;
  function connect() {
    src = new EventSource("events?patch=1");
    src.onmessage = (ev) => {
      let next;
      try { next = JSON.parse(ev.data); } catch (e) { return; }
      take(next);
    };
    src.addEventListener("patch", (ev) => {
      let p;
      try { p = JSON.parse(ev.data); } catch (e) { return; }
      if (!st) return;
      const next = Object.assign({}, st, p.set || {});
      for (const k of p.del || []) delete next[k];
      for (const k in p.arr || {}) {
        const a = p.arr[k];
        const list = (st[k] || []).slice(0, a.n);
        for (const i in a.at || {}) list[Number(i)] = a.at[i];
        next[k] = list;
      }
      take(next);
    });
    src.onerror = () => {
      if (leftTable) return;
      const c = $("connection");
      c.textContent = "lost touch with masque: retrying (is it still running?)";
      c.hidden = false;
    };
  }
  connect();
})();
