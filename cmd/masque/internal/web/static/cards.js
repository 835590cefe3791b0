// Cards and tokens drawn as SVG by masque: a symbol and the name for
// every character, item and role the games have, a generic card for any
// other name (a new game's cards show before they get a picture), the
// back of a face-down card, and coins. Every string goes in as text,
// never as markup.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";

  function el(tag, attrs, text) {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // Symbols on a 100×100 grid: [tag, attributes] with "f" (filled with
  // the card's ink) or "s" (stroked) as a shorthand.
  const P = (d, mode) => ["path", { d: d, m: mode || "f" }];
  const C = (cx, cy, r, mode) => ["circle", { cx: cx, cy: cy, r: r, m: mode || "f" }];
  const L = (x1, y1, x2, y2) => ["line", { x1: x1, y1: y1, x2: x2, y2: y2, m: "s" }];
  const R = (x, y, w, h, mode) => ["rect", { x: x, y: y, width: w, height: h, rx: 4, m: mode || "f" }];
  const crown = P("M14 76 L18 34 L36 54 L50 22 L64 54 L82 34 L86 76 Z");
  const S = {
    king: [crown, R(14, 80, 72, 8), L(50, 6, 50, 20), L(44, 12, 56, 12)],
    crown: [crown, R(14, 80, 72, 8), C(50, 64, 5, "w")],
    queen: [P("M18 76 L24 40 L40 58 L50 34 L60 58 L76 40 L82 76 Z"), C(24, 36, 5), C(50, 30, 5), C(76, 36, 5), R(18, 80, 64, 7)],
    empress: [C(50, 62, 24), R(26, 58, 48, 6, "w"), L(50, 14, 50, 38), L(41, 24, 59, 24)],
    princess: [P("M16 72 Q50 24 84 72 Q50 56 16 72 Z"), C(50, 44, 7, "w"), C(30, 58, 4, "w"), C(70, 58, 4, "w")],
    judge: [L(50, 18, 50, 84), L(16, 30, 84, 30), L(30, 84, 70, 84), L(18, 30, 8, 58), L(18, 30, 28, 58), L(82, 30, 72, 58), L(82, 30, 92, 58),
      P("M6 58 Q18 74 30 58 Z"), P("M70 58 Q82 74 94 58 Z")],
    bishop: [P("M30 86 L30 46 Q50 6 70 46 L70 86 Z"), R(46, 30, 8, 40, "w"), R(36, 44, 28, 8, "w")],
    fool: [P("M50 80 C40 50 24 36 10 24 C34 28 46 40 50 54 C54 40 66 28 90 24 C76 36 60 50 50 80 Z"), C(10, 22, 7), C(90, 22, 7), C(50, 84, 6)],
    thief: [P("M36 24 L64 24 L58 36 Q86 52 80 80 Q50 96 20 80 Q14 52 42 36 Z"), R(38, 30, 24, 6, "w")],
    witch: [P("M10 82 L90 82 Q80 74 64 72 L46 12 Q40 40 36 72 Q20 74 10 82 Z"), R(34, 64, 32, 6, "w")],
    sorceress: [P("M58 12 A38 38 0 1 0 88 62 A30 30 0 1 1 58 12 Z"), P("M30 24 L34 34 L44 36 L34 40 L30 50 L26 40 L16 36 L26 34 Z")],
    spy: [P("M8 50 Q50 8 92 50 Q50 92 8 50 Z", "s"), C(50, 50, 14), C(54, 46, 4, "w")],
    peasant: [L(50, 30, 50, 92), L(30, 30, 70, 30), L(30, 30, 30, 8), L(50, 30, 50, 8), L(70, 30, 70, 8)],
    cheat: [R(18, 18, 64, 64, "s"), C(34, 34, 6), C(66, 34, 6), C(50, 50, 6), C(34, 66, 6), C(66, 66, 6)],
    cheater: [R(18, 18, 64, 64, "s"), C(34, 34, 6), C(66, 66, 6), C(50, 50, 6)],
    inquisitor: [P("M50 8 Q80 44 68 72 Q62 90 50 92 Q32 90 30 72 Q26 50 50 8 Z"), P("M50 50 Q60 66 56 78 Q50 86 44 78 Q40 66 50 50 Z", "w")],
    widow: [C(50, 62, 24, "s"), P("M50 14 L62 28 L50 40 L38 28 Z")],
    beggar: [P("M14 54 L86 54 Q84 86 50 88 Q16 86 14 54 Z"), C(50, 32, 10, "s")],
    guru: [P("M50 16 Q64 44 50 76 Q36 44 50 16 Z"), P("M14 44 Q44 48 50 76 Q22 70 14 44 Z"), P("M86 44 Q56 48 50 76 Q78 70 86 44 Z"), L(20, 84, 80, 84)],
    puppeteer: [L(20, 16, 80, 16), L(50, 6, 50, 30), L(26, 16, 30, 60), L(74, 16, 70, 60), L(50, 30, 50, 52), C(50, 60, 9), R(40, 70, 20, 18)],
    patron: [["ellipse", { cx: 50, cy: 76, rx: 30, ry: 10, m: "f" }], ["ellipse", { cx: 50, cy: 60, rx: 30, ry: 10, m: "f" }],
      ["ellipse", { cx: 50, cy: 44, rx: 30, ry: 10, m: "f" }], ["ellipse", { cx: 50, cy: 44, rx: 18, ry: 5, m: "w" }]],
    swindler: [P("M12 80 L20 46 L36 46 L44 80 Z"), P("M56 80 L64 46 L80 46 L88 80 Z"), C(50, 84, 6), L(8, 90, 92, 90)],
    evilqueen: [P("M50 30 Q80 18 84 52 Q84 86 50 88 Q16 86 16 52 Q20 18 50 30 Z"), P("M50 30 Q52 14 64 8", "s"), P("M54 22 Q70 12 76 24 Q62 30 54 22 Z")],
    beast: [C(50, 36, 22), P("M50 24 Q62 30 56 42 Q46 46 44 36", "w"), L(50, 58, 50, 94), P("M50 76 Q30 66 28 78 Q40 84 50 76 Z")],
    cinderella: [P("M50 26 Q86 24 86 58 Q84 90 50 88 Q16 90 14 58 Q14 24 50 26 Z"), L(36, 30, 36, 86), L(64, 30, 64, 86), R(46, 12, 8, 16)],
    sleepingbeauty: [P("M12 46 Q50 84 88 46", "s"), L(24, 60, 16, 72), L(38, 68, 34, 82), L(62, 68, 66, 82), L(76, 60, 84, 72), P("M62 10 L80 10 L62 28 L80 28", "s")],
    rumpelstiltskin: [C(50, 50, 34, "s"), C(50, 50, 6), L(50, 16, 50, 84), L(16, 50, 84, 50), L(26, 26, 74, 74), L(74, 26, 26, 74)],
    redridinghood: [P("M50 8 Q90 20 88 90 L12 90 Q10 20 50 8 Z"), C(50, 54, 18, "w")],
    bigbadwolf: [P("M14 14 L38 36 L62 36 L86 14 L80 54 L50 92 L20 54 Z"), C(38, 52, 5, "w"), C(62, 52, 5, "w")],
    hansel: [P("M12 50 L50 14 L88 50 Z"), R(20, 50, 60, 40), R(42, 62, 16, 28, "w"), C(30, 40, 4, "w"), C(70, 40, 4, "w")],
    treats: [["ellipse", { cx: 50, cy: 50, rx: 22, ry: 16, m: "f" }], P("M28 50 L8 34 L8 66 Z"), P("M72 50 L92 34 L92 66 Z")],
    cauldron: [P("M14 38 L86 38 Q88 86 50 88 Q12 86 14 38 Z"), R(8, 32, 84, 8), C(36, 20, 6, "s"), C(58, 14, 4, "s")],
    disguise: [P("M6 40 Q50 28 94 40 Q92 72 64 70 Q50 60 36 70 Q8 72 6 40 Z"), ["ellipse", { cx: 30, cy: 50, rx: 11, ry: 7, m: "w" }],
      ["ellipse", { cx: 70, cy: 50, rx: 11, ry: 7, m: "w" }]],
    glassslipper: [P("M8 72 Q10 56 34 58 Q58 60 70 40 Q82 30 90 42 L92 78 L84 78 L84 62 Q70 78 50 78 L8 78 Z")],
    clock: [C(50, 50, 38, "s"), L(50, 50, 50, 24), L(50, 50, 70, 58), C(50, 50, 4)],
    mirror: [["ellipse", { cx: 50, cy: 38, rx: 26, ry: 32, m: "s" }], R(44, 70, 12, 24), P("M38 26 Q44 18 52 16", "s")],
    spindle: [P("M50 6 L62 50 L50 94 L38 50 Z"), L(28, 40, 72, 40), L(26, 50, 74, 50), L(28, 60, 72, 60)],
    // Mafia: the seven roles and the six incident cards.
    civilian: [C(50, 30, 16), P("M18 92 Q18 54 50 54 Q82 54 82 92 Z"), R(44, 60, 12, 24, "w")],
    commissar: [C(42, 42, 26, "s"), C(42, 42, 14, "w"), ["line", { x1: 62, y1: 62, x2: 88, y2: 88, m: "s" }], R(70, 66, 10, 28), P("M30 36 Q36 28 44 28", "s")],
    nurse: [R(38, 12, 24, 76), R(12, 38, 76, 24), R(44, 44, 12, 12, "w")],
    nightbutterfly: [P("M48 46 Q30 8 8 20 Q6 44 46 52 Z"), P("M52 46 Q70 8 92 20 Q94 44 54 52 Z"), P("M46 54 Q20 60 22 84 Q40 86 48 58 Z"),
      P("M54 54 Q80 60 78 84 Q60 86 52 58 Z"), R(46, 34, 8, 52), P("M48 36 Q40 20 34 14", "s"), P("M52 36 Q60 20 66 14", "s")],
    mafioso: [P("M30 62 L34 26 Q50 18 66 26 L70 62 Z"), R(32, 50, 36, 8, "w"), ["ellipse", { cx: 50, cy: 66, rx: 44, ry: 10, m: "f" }], P("M42 26 Q50 36 58 26", "w")],
    don: [P("M30 70 L34 40 Q50 32 66 40 L70 70 Z"), R(32, 58, 36, 7, "w"), ["ellipse", { cx: 50, cy: 74, rx: 44, ry: 10, m: "f" }],
      P("M30 28 L32 8 L42 18 L50 4 L58 18 L68 8 L70 28 Z")],
    madman: [P("M50 50 a6 6 0 1 1 12 0 a12 12 0 1 1 -24 0 a18 18 0 1 1 36 0 a24 24 0 1 1 -48 0 a30 30 0 1 1 60 0", "s")],
    misfire: [C(50, 50, 32, "s"), L(50, 10, 50, 30), L(50, 70, 50, 90), L(10, 50, 30, 50), L(70, 50, 90, 50), C(50, 50, 5), L(18, 86, 86, 14)],
    ricochetleft: [P("M88 18 L54 74 L22 36", "s"), P("M8 22 L34 28 L16 46 Z"), R(46, 80, 18, 8)],
    ricochetright: [P("M12 18 L46 74 L78 36", "s"), P("M92 22 L66 28 L84 46 Z"), R(36, 80, 18, 8)],
    alibi: [P("M50 8 L86 20 Q86 68 50 92 Q14 68 14 20 Z", "s"), P("M32 50 L46 64 L70 36", "s")],
    evidenceleft: [R(30, 8, 48, 60, "s"), L(40, 24, 68, 24), L(40, 36, 68, 36), L(40, 48, 58, 48), L(30, 84, 88, 84), P("M8 84 L28 72 L28 96 Z")],
    evidenceright: [R(22, 8, 48, 60, "s"), L(32, 24, 60, 24), L(32, 36, 60, 36), L(32, 48, 50, 48), L(12, 84, 70, 84), P("M92 84 L72 72 L72 96 Z")],
    mask: [P("M6 40 Q50 28 94 40 Q92 72 64 70 Q50 60 36 70 Q8 72 6 40 Z"), ["ellipse", { cx: 30, cy: 50, rx: 11, ry: 7, m: "w" }],
      ["ellipse", { cx: 70, cy: 50, rx: 11, ry: 7, m: "w" }]],
  };
  // Card families: an ink for each, dark enough on the card's light face.
  const INK = {
    king: "#7a4b00", crown: "#7a4b00", queen: "#8a1c4a", empress: "#5b2a86", princess: "#a0306a", judge: "#24415f",
    bishop: "#5a2a2a", fool: "#2f6b1f", thief: "#3c3c3c", witch: "#3f1f5f", sorceress: "#3b2a7a", spy: "#1f4f5f",
    peasant: "#6b4a1f", cheat: "#7a1f1f", cheater: "#7a1f1f", inquisitor: "#8a2f00", widow: "#2a2a2a", beggar: "#5a4a3a",
    guru: "#7a3f00", puppeteer: "#4a2f5f", patron: "#6b5a00", swindler: "#5f3a1f",
    evilqueen: "#7a0f1f", beast: "#8a1f2f", cinderella: "#9a5a00", sleepingbeauty: "#2f3f7a", rumpelstiltskin: "#6b5a10",
    redridinghood: "#9a1010", bigbadwolf: "#3a3f4a", hansel: "#6a3f1a", treats: "#8a2f6a", cauldron: "#2f4f2f",
    disguise: "#4a2a6a", glassslipper: "#1f5a7a", clock: "#3f3f3f", mirror: "#2f5a6a", spindle: "#6a4a2a",
    civilian: "#3a4658", commissar: "#1f3f6f", nurse: "#a01818", nightbutterfly: "#6a2a7a", mafioso: "#2a2a2a", don: "#5a1a1a",
    madman: "#7a3a00", misfire: "#6b2a00", ricochetleft: "#1f5a4a", ricochetright: "#1f5a4a", alibi: "#2f5a1f",
    evidenceleft: "#4a3a7a", evidenceright: "#4a3a7a",
  };
  const KEYS = Object.keys(S).filter((k) => k !== "mask").sort((a, b) => b.length - a.length);

  function keyOf(name) {
    const n = String(name || "").toLowerCase().replace(/[^a-z]/g, "");
    if (S[n]) return n;
    for (const k of KEYS) if (n.includes(k)) return k;
    return "";
  }

  function hue(name) {
    let h = 0;
    for (const ch of String(name)) h = (h * 31 + ch.codePointAt(0)) % 360;
    return h;
  }

  function drawSymbol(g, shapes, ink) {
    for (const [tag, a] of shapes) {
      const attrs = {};
      for (const k in a) if (k !== "m") attrs[k] = a[k];
      if (a.m === "s") Object.assign(attrs, { fill: "none", stroke: ink, "stroke-width": 6, "stroke-linecap": "round", "stroke-linejoin": "round" });
      else if (a.m === "w") attrs.fill = "#fdf8ec";
      else attrs.fill = ink;
      g.appendChild(el(tag, attrs));
    }
  }

  // initials is the generic symbol: the name's initials in a ring.
  function initials(g, name, ink) {
    const words = String(name).replace(/^(the|a|an)\s+/i, "").split(/\s+/).filter(Boolean);
    const ini = words.slice(0, 2).map((w) => Array.from(w)[0] || "").join("").toUpperCase() || "?";
    g.appendChild(el("circle", { cx: 50, cy: 50, r: 40, fill: "none", stroke: ink, "stroke-width": 6 }));
    g.appendChild(el("text", { x: 50, y: 64, "text-anchor": "middle", "font-size": 40, "font-weight": 700, fill: ink }, ini));
  }

  // card draws a card as an <svg>: c is {name, face: "up"|"known"|"down",
  // note, place}. A face-down card is only its back: it has no name.
  function card(c) {
    const svg = el("svg", { viewBox: "0 0 100 140", class: "card-svg", role: "img", focusable: "false" });
    if (c.face === "down" || !c.name) {
      svg.appendChild(el("rect", { x: 2, y: 2, width: 96, height: 136, rx: 10, fill: "#1d2a4a", stroke: "#c9a227", "stroke-width": 3 }));
      svg.appendChild(el("rect", { x: 10, y: 10, width: 80, height: 120, rx: 6, fill: "none", stroke: "#c9a227", "stroke-width": 1.5, "stroke-dasharray": "4 3" }));
      const g = el("g", { transform: "translate(20 40) scale(0.6)" });
      drawSymbol(g, S.mask, "#c9a227");
      g.querySelectorAll('[fill="#fdf8ec"]').forEach((x) => x.setAttribute("fill", "#1d2a4a"));
      svg.appendChild(g);
      if (c.place) svg.appendChild(el("text", { x: 50, y: 118, "text-anchor": "middle", "font-size": 16, fill: "#f4e2a1" }, c.place));
      return svg;
    }
    const k = keyOf(c.name);
    const ink = INK[k] || "hsl(" + hue(c.name) + " 55% 28%)";
    svg.appendChild(el("rect", { x: 2, y: 2, width: 96, height: 136, rx: 10, fill: "#fdf8ec", stroke: ink, "stroke-width": 4,
      "stroke-dasharray": c.face === "known" ? "8 4" : "none" }));
    const g = el("g", { transform: "translate(14 14) scale(0.72)" });
    if (k) drawSymbol(g, S[k], ink); else initials(g, c.name, ink);
    svg.appendChild(g);
    const name = String(c.name);
    const t = el("text", { x: 50, y: 112, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: "#1a1a1a" }, name);
    if (name.length > 12) { t.setAttribute("textLength", 88); t.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
    svg.appendChild(t);
    if (c.note === "broken") {
      // A broken mirror: the portrait is cracked.
      svg.appendChild(el("path", { d: "M8 20 L40 52 L30 66 L60 90 L52 104 L92 132", fill: "none", stroke: "#1a1a1a", "stroke-width": 3 }));
      svg.appendChild(el("path", { d: "M40 52 L70 40 L90 46", fill: "none", stroke: "#1a1a1a", "stroke-width": 2 }));
    }
    if (c.face === "known") svg.appendChild(el("text", { x: 50, y: 130, "text-anchor": "middle", "font-size": 10, fill: "#1a1a1a" }, "only you know"));
    else if (c.note) {
      const n = el("text", { x: 50, y: 130, "text-anchor": "middle", "font-size": 10, fill: "#1a1a1a" }, String(c.note));
      if (String(c.note).length > 16) { n.setAttribute("textLength", 88); n.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
      svg.appendChild(n);
    }
    return svg;
  }

  // token draws a hint token ("not the Beast"): a round token with the
  // character's symbol, crossed out.
  function token(text) {
    const svg = el("svg", { viewBox: "0 0 40 40", class: "token-svg", role: "img", focusable: "false" });
    const k = keyOf(String(text).replace(/^not\s+/i, ""));
    const ink = INK[k] || "hsl(" + hue(text) + " 55% 28%)";
    svg.appendChild(el("circle", { cx: 20, cy: 20, r: 18, fill: "#fdf8ec", stroke: ink, "stroke-width": 3 }));
    const g = el("g", { transform: "translate(8 8) scale(0.24)" });
    if (k) drawSymbol(g, S[k], ink); else initials(g, String(text).replace(/^not\s+/i, ""), ink);
    svg.appendChild(g);
    svg.appendChild(el("line", { x1: 8, y1: 32, x2: 32, y2: 8, stroke: "#b00020", "stroke-width": 3, "stroke-linecap": "round" }));
    return svg;
  }

  // rose draws a rose with a count.
  function rose(value) {
    const svg = el("svg", { viewBox: "0 0 40 40", class: "coin-svg", role: "img", focusable: "false" });
    svg.appendChild(el("circle", { cx: 20, cy: 20, r: 18, fill: "#8a1f2f", stroke: "#4a0f18", "stroke-width": 2 }));
    svg.appendChild(el("path", { d: "M20 9 Q29 12 26 20 Q20 25 14 20 Q11 12 20 9 Z", fill: "none", stroke: "#f6c1c9", "stroke-width": 2 }));
    svg.appendChild(el("text", { x: 20, y: 33, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#ffffff" }, String(value)));
    return svg;
  }

  // coin draws a coin with a value.
  function coin(value) {
    const svg = el("svg", { viewBox: "0 0 40 40", class: "coin-svg", role: "img", focusable: "false" });
    svg.appendChild(el("circle", { cx: 20, cy: 20, r: 18, fill: "#e7c04a", stroke: "#7a5a00", "stroke-width": 3 }));
    svg.appendChild(el("circle", { cx: 20, cy: 20, r: 12, fill: "none", stroke: "#7a5a00", "stroke-width": 1.5 }));
    const v = String(value);
    svg.appendChild(el("text", { x: 20, y: v.length > 2 ? 24 : 25, "text-anchor": "middle", "font-size": v.length > 2 ? 11 : 14, "font-weight": 700, fill: "#1a1a1a" }, v));
    return svg;
  }

  // phase draws the time of day (Mafia): a sun by day, a moon at night.
  function phase(p) {
    const svg = el("svg", { viewBox: "0 0 40 40", class: "phase-svg", role: "img", focusable: "false" });
    if (p === "night") {
      svg.appendChild(el("path", { d: "M26 6 A15 15 0 1 0 34 28 A12 12 0 1 1 26 6 Z", fill: "#f4e2a1" }));
      svg.appendChild(el("circle", { cx: 32, cy: 10, r: 1.6, fill: "#f4e2a1" }));
      svg.appendChild(el("circle", { cx: 36, cy: 18, r: 1.2, fill: "#f4e2a1" }));
    } else {
      svg.appendChild(el("circle", { cx: 20, cy: 20, r: 8, fill: "#f2c94c" }));
      for (let i = 0; i < 8; i++) {
        const a = i * Math.PI / 4, c = Math.cos(a), s = Math.sin(a);
        svg.appendChild(el("line", { x1: 20 + 12 * c, y1: 20 + 12 * s, x2: 20 + 17 * c, y2: 20 + 17 * s, stroke: "#f2c94c", "stroke-width": 3, "stroke-linecap": "round" }));
      }
    }
    return svg;
  }

  // has reports whether name has a picture of its own.
  function has(name) { return !!S[String(name || "").toLowerCase().replace(/[^a-z]/g, "")] && String(name).toLowerCase() !== "mask"; }

  window.MasqueCards = { card: card, coin: coin, rose: rose, token: token, keyOf: keyOf, phase: phase, has: has };
})();
