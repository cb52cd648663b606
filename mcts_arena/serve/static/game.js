// The game viewer: a stored game replayed move by move on the board its game draws (an SVG
// from /api/board), with each move's statistics; arrows, Home/End and space step through it.
"use strict";
(() => {
  const {el, param, url, getJSON, num, replace} = arena;
  const id = param("id"), gid = param("game");
  let game = null, ply = 0, timer = null;
  const board = document.getElementById("board");
  const slider = document.getElementById("slider");
  const STATS = ["sims", "nodes", "depth", "time", "wall", "value"];

  function boardUrl(n) {
    return url("/api/board", {id, game: gid, ply: n});
  }

  function show(n) {
    if (!game) return;
    ply = Math.max(0, Math.min(n, game.moves.length));
    slider.value = ply;
    if (game.boards) {
      board.src = boardUrl(ply);
      if (ply < game.moves.length) new Image().src = boardUrl(ply + 1);   // ready for the next step
    }
    const m = game.moves[ply - 1];
    const where = document.getElementById("where");
    where.textContent = ply === 0 ? `opening position (ply 0 of ${game.moves.length})` :
      m.chance ? `ply ${ply} of ${game.moves.length}: the dice rolled ${m.move}` :
      `ply ${ply} of ${game.moves.length}: seat ${m.seat} (${game.names[m.seat]}) played ${m.move}`;
    where.dataset.ply = ply;
    for (const tr of document.querySelectorAll("#moves tbody tr")) {
      tr.classList.toggle("sel", Number(tr.dataset.ply) === ply);
    }
    const sel = document.querySelector("#moves tr.sel");
    if (sel) sel.scrollIntoView({block: "nearest"});
  }

  function fmt(k, v) {
    if (v === undefined || v === null) return "";
    if (k === "time" || k === "wall") return num(v, 3);
    if (k === "value") return num(v, 3);
    return String(v);
  }

  function table(moves) {
    const keys = STATS.filter(k => moves.some(m => m[k] !== undefined));
    const extra = [...new Set(moves.flatMap(m => Object.keys(m)))]
      .filter(k => !["ply", "seat", "move", "chance", ...STATS].includes(k));
    const head = ["ply", "seat", "move", ...keys.map(k => k === "time" ? "time (s, player)" :
                                                          k === "wall" ? "wall (s)" :
                                                          k === "value" ? "value (mover's view)" : k), ...extra];
    return el("table", {}, el("thead", {}, el("tr", {}, head.map((h, i) =>
        el("th", {class: i === 2 ? "l" : "", text: h})))),
      el("tbody", {}, el("tr", {"data-ply": 0, onclick: () => show(0)},
                         el("td", {text: 0}), el("td"), el("td", {class: "l", text: "opening"})),
        moves.map(m => el("tr", {"data-ply": m.ply, onclick: () => show(m.ply)},
          el("td", {text: m.ply}), el("td", {text: m.chance ? "dice" : m.seat}),
          el("td", {class: "l", text: m.move}),
          keys.map(k => el("td", {text: fmt(k, m[k])})),
          extra.map(k => el("td", {text: JSON.stringify(m[k])}))))));
  }

  const playButton = document.getElementById("play");
  function stop() { clearInterval(timer); timer = null; playButton.textContent = "play"; }
  function play() {
    if (timer) { stop(); return; }
    playButton.textContent = "pause";
    if (ply >= game.moves.length) show(0);
    timer = setInterval(() => {
      if (ply >= game.moves.length) { stop(); return; }
      show(ply + 1);
    }, 700);
  }

  document.getElementById("first").onclick = () => show(0);
  document.getElementById("prev").onclick = () => show(ply - 1);
  document.getElementById("next").onclick = () => show(ply + 1);
  document.getElementById("last").onclick = () => show(game.moves.length);
  document.getElementById("play").onclick = play;
  slider.oninput = () => show(Number(slider.value));
  document.addEventListener("keydown", (ev) => {
    const keys = {ArrowLeft: () => show(ply - 1), ArrowRight: () => show(ply + 1),
                  Home: () => show(0), End: () => show(game.moves.length), " ": play};
    if (game && keys[ev.key] && ev.target.tagName !== "INPUT") { ev.preventDefault(); keys[ev.key](); }
  });

  (async () => {
    try {
      game = await getJSON("/api/game", {id, game: gid});
    } catch (e) {
      document.getElementById("facts").textContent = e.message;
      return;
    }
    const back = document.getElementById("back");
    back.textContent = id;
    back.href = url("/experiment", {id}) + "#pairing=" + game.pairing_id;
    document.getElementById("name").textContent = `game ${gid}`;
    document.getElementById("players").textContent =
      `${game.game}: seat 0 ${game.names[0]} (moves first) vs seat 1 ${game.names[1]}`;
    const budgets = game.budgets.map(b => Object.entries(b || {}).filter(([, v]) => v !== null)
                                          .map(([k, v]) => `${k} ${v}`).join(", ")).join(" / ");
    replace("facts", el("div", {class: "facts"},
      el("b", {text: "result "}), game.result, ` after ${game.plies} plies, ${num(game.duration, 1)} s   `,
      el("b", {text: "pair "}), String(game.pair_index), "   ",
      el("b", {text: "budgets "}), budgets, "   ",
      el("b", {text: "opening "}), game.opening || "start",
      game.no_board ? el("div", {class: "error", text: game.no_board}) : null));
    if (!game.boards) board.parentElement.hidden = true;
    slider.max = game.moves.length;
    replace("moves", table(game.moves));
    show(0);
  })();
})();
