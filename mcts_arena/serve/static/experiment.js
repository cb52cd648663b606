// One experiment: live standings per pairing (polled every 2 s), the report's pictures drawn
// from the same data (reloaded when it changes), and the games of the pairing chosen.
"use strict";
(() => {
  const {el, param, url, getJSON, poll, pct, num, duration, ago, badge, builds, replace} = arena;
  const id = param("id");
  let version = null;
  let picturesAt = 0;
  const PICTURES_EVERY = 10000;
  let pairing = new URLSearchParams(location.hash.slice(1)).get("pairing");
  let gamesStart = 0;       // the first pair of the shown page of the chosen pairing's games
  document.getElementById("name").textContent = id;

  function scoreCell(score, lo, hi) {
    return score === null || score === undefined ? "—" :
      `${pct(score, 2)} [${pct(lo)}, ${pct(hi)}]`;
  }

  // The verdict's interval is the report's `judged` one: the pair rule, the seat-swapped
  // pairs where complete ones exist, else the games; say which, as the report does.
  function paperCell(r) {
    if (!r.paper || !r.paper.length) return "";
    const basis = r.judged ? ` (on ${r.judged.basis})` : "";
    return r.paper.map(p => `${p.win_pct.toFixed(1)} (${p.table}${p.seconds ? ", " + p.seconds + " s" : ""}): ` +
                       (p.verdict ? p.verdict + basis : p.note || "—")).join("; ");
  }

  function sprtCell(s) {
    if (!s) return "";
    const d = s.decision ? s.decision + " accepted" : "running";
    return `${d}, LLR ${s.llr.toFixed(2)} in [${s.lower.toFixed(2)}, ${s.upper.toFixed(2)}]`;
  }

  // stats: the statistics with a column of their own (results/aggregates.py), their cells
  function standings(rows, stats) {
    const hasPairs = rows.some(r => r.pentanomial);
    const hasRule = rows.some(r => r.pairs);
    const hasSprt = rows.some(r => r.sprt);
    const hasPaper = rows.some(r => r.paper && r.paper.length);
    const head = ["pairing", "budget", "games", "W", "D", "L", "score % [95% CI]", "Elo"];
    if (hasPairs) head.push("pentanomial (LL LD WL+DD WD WW)", "pentanomial score % [95% CI]",
                            "pentanomial Elo");
    if (hasRule) head.push("pair rule W-D-L (disc.)", "pair-rule win % [95% CI]");
    if (hasSprt) head.push("SPRT");
    head.push("errors", "forfeits", ...stats.head);
    if (hasPaper) head.push("paper % (source): verdict");
    head.push("");
    const body = rows.map(r => {
      const cells = [
        el("td", {class: "l", text: `${r.player} vs ${r.opponent}`}),
        el("td", {class: "l", text: r.budget}),
        el("td", {class: "games", text: `${r.games} of ${r.planned}`}),
        el("td", {class: "w", text: r.wins}), el("td", {class: "d", text: r.draws}),
        el("td", {class: "lo", text: r.losses}),
        el("td", {class: "score", text: scoreCell(r.score, r.ci_low, r.ci_high)}),
        el("td", {class: "elo", text: r.games ? r.elo_text : "—"})];
      if (hasPairs) {
        cells.push(el("td", {text: r.pentanomial ? r.pentanomial.join(" ") : "—"}),
                   el("td", {text: scoreCell(r.pair_score, r.pair_ci_low, r.pair_ci_high)}),
                   el("td", {class: "elo", text: r.pair_elo_text || "—"}));
      }
      if (hasRule) {
        const p = r.pairs;
        cells.push(el("td", {text: p ? `${p.won}-${p.drawn}-${p.lost} (${p.discarded})` : "—"}),
                   el("td", {text: p && p.won + p.lost ? scoreCell(p.score, p.ci_low, p.ci_high) : "—"}));
      }
      if (hasSprt) cells.push(el("td", {class: "l sprt", text: sprtCell(r.sprt)}));
      cells.push(el("td", {text: r.errors}),
                 el("td", {text: r.time_forfeits + (r.illegal_moves || 0)}),
                 ...(stats.cells[r.pairing_id] || []).map(c => el("td", {text: c})));
      if (hasPaper) {
        const v = (r.paper || []).map(p => p.verdict || "").join(" ");
        cells.push(el("td", {class: "l verdict-" + (v.includes("opposite") ? "opposite" :
                                                     v.includes("inside") ? "inside" : "none"),
                             text: paperCell(r)}));
      }
      cells.push(el("td", {class: "l"}, el("a", {href: "#pairing=" + r.pairing_id,
        class: "games-link", onclick: (ev) => { ev.preventDefault(); choose(r.pairing_id); }},
        "games")));
      return el("tr", {"data-pairing": r.pairing_id, class: r.pairing_id === pairing ? "sel" : ""},
                cells);
    });
    return el("table", {}, el("thead", {}, el("tr", {}, head.map((h, i) =>
      el("th", {class: i < 2 ? "l" : "", text: h})))), el("tbody", {}, body));
  }

  function facts(d) {
    const s = d.summary, i = d.info || {};
    const parts = [badge(s.state), " "];
    const add = (label, value) => parts.push(el("b", {text: label + " "}), value, "   ");
    if (i.game) add("game", i.game);
    if (i.budget) add("budget", i.budget + "/move");
    if (i.openings) add("openings", i.openings);
    if (i.seed !== undefined && i.seed !== null) add("seed", String(i.seed));
    add("games", `${s.stored} stored of ${s.planned} planned, ${s.errors} error games`);
    add("games/h", num(s.games_per_hour));
    if (s.state === "running") add("ETA", duration(s.eta_seconds));
    add("last game", ago(s.updated));
    add("builds", builds(s.builds));
    if (i.sprt) add("SPRT", `elo0=${i.sprt.elo0} elo1=${i.sprt.elo1} alpha=${i.sprt.alpha} beta=${i.sprt.beta}`);
    const out = el("div", {class: "facts"}, parts);
    if (s.error) out.append(el("div", {class: "error", text: s.error}));
    return out;
  }

  function pictures(d) {
    const box = document.getElementById("pictures");
    document.getElementById("pictures-head").hidden = !d.pictures.length;
    const keep = new Set(d.pictures.map(p => p.name));
    for (const f of [...box.children]) if (!keep.has(f.dataset.name)) f.remove();
    for (const p of d.pictures) {
      const src = url("/api/picture", {id, name: p.name, v: d.version});
      let fig = [...box.children].find(f => f.dataset.name === p.name);
      if (!fig) {
        fig = el("figure", {"data-name": p.name}, el("img", {alt: p.title, src}),
                 el("figcaption", {text: p.title}));
        box.append(fig);
      } else {
        const img = fig.querySelector("img");
        if (img.getAttribute("src") !== src) {       // swap once the new one has loaded
          const next = new Image();
          next.onload = () => { img.src = src; };
          next.src = src;
        }
      }
    }
  }

  // A tune: method, games of its budget, where the search stands (SPSA's θ, BO's trials and
  // best so far), the value found with its range, the confirmation; its path is a picture.
  function tunePanel(t) {
    const vals = (v) => Object.entries(v).map(([k, x]) => `${k} ${x}`).join(", ");
    const ranged = (e) => Object.keys(e.values).map(k =>
      `${k} ${e.values[k]} [${e.low[k]}, ${e.high[k]}]`).join(", ");
    const parts = [el("h2", {text: `Tune (${t.method})`})];
    const line = (label, ...value) => parts.push(el("div", {class: "tune-line"},
                                                     el("b", {text: label + " "}), ...value));
    if (t.method === "bracket") {
      line("bracket", `${t.template} over ${t.param} (${(t.grid || []).join(", ")}): ` +
           `${t.decided} of ${t.matches} matches decided` + (t.winner ? `, winner ${t.winner}` : ""));
      return el("div", {class: "tune"}, parts);
    }
    line("template", `${t.template}, seed ${t.seed}`);
    line("search", `${t.search_games} of ${t.games} games` + (t.method === "spsa" ?
      ` (step ${Math.max(0, t.path.length ? t.path[t.path.length - 1].games / 2 : 0)} of ${t.steps})` :
      ` (${t.trials.filter(x => x.score !== null).length} of ${t.steps} trials against ${t.opponent})`) +
      (t.search_done ? ", done" : ""));
    const dom = t.params.map(p => p.kind === "choice" ? `${p.name} in {${p.choices.join(", ")}}` :
      `${p.name} in [${p.low}, ${p.high}]${p.log ? " log" : ""}, start ${p.start}`);
    line("parameters", dom.join("; "));
    if (!t.search_done) {
      line(t.method === "spsa" ? "θ now" : "best trial so far", vals(t.now));
      if (t.method === "bo") {
        const best = t.trials.filter(x => x.score !== null).sort((a, b) => b.score - a.score)[0];
        if (best) line("its score", `${pct(best.score)}% over ${best.games} games (trial ${best.trial})`);
      }
    }
    line(t.estimate.final ? "value found" : "estimate so far", ranged(t.estimate));
    parts.push(el("div", {class: "muted", text: t.estimate.how}));
    const c = t.confirmation;
    if (c) {
      line("confirmation", `${c.tuned} vs ${c.reference}: ${c.played} of ${c.games} games` +
           (c.played ? `, +${c.wins} =${c.draws} -${c.losses}, score ${pct(c.score)}% ` +
                       `[${pct(c.low)}, ${pct(c.high)}] (95%)` : ""), " ",
           c.played ? el("a", {href: "#pairing=confirm", class: "games-link",
                               onclick: (ev) => { ev.preventDefault(); choose("confirm"); }},
                         "games") : "");
      // an SPRT confirmation: its outcome (H1 / H0 accepted, or none yet / at the cap) in the
      // report's words, the test and the LLR's bounds
      if (c.sprt) {
        line("SPRT", c.sprt.text);
        parts.push(el("div", {class: "muted", text: `${c.sprt.test}: LLR bounds ` +
          `${c.sprt.lower.toFixed(2)}, ${c.sprt.upper.toFixed(2)}; at most ${c.games} games`}));
      }
    }
    return el("div", {class: "tune"}, parts);
  }

  async function choose(pid) {
    if (pid !== pairing) gamesStart = 0;
    pairing = pid;
    history.replaceState(null, "", "#pairing=" + pid);
    for (const tr of document.querySelectorAll("tr[data-pairing]")) {
      tr.classList.toggle("sel", tr.dataset.pairing === pid);
    }
    await showGames();
  }

  async function showGames() {
    if (!pairing) return;
    const d = await getJSON("/api/games", {id, pairing, start: gamesStart});
    document.getElementById("games-head").hidden = false;
    const shown = d.games.length ? ` (pairs ${d.start} to ${d.start + d.pairs - 1})` : "";
    document.getElementById("games-head").textContent =
      `Games of ${d.player} vs ${d.opponent} (${d.stored} stored of ${d.planned})${shown}`;
    const go = (label, start) => el("button", {type: "button", text: label,
      disabled: start === null || start === d.start,
      onclick: () => { gamesStart = start; showGames(); }});
    const pager = d.previous === null && d.next === null ? [] :
      [el("div", {class: "pager"}, go("first", 0), go("earlier", d.previous),
          go("later", d.next), go("last", d.last))];
    const rows = d.games.map(g => el("tr", {class: g.result === "error" ? "bad" : ""},
      el("td", {text: g.pair_index}), el("td", {text: g.swap === 0 ? "first" : "second"}),
      el("td", {class: "l", text: g.result}), el("td", {class: "l", text: g.reason}),
      el("td", {text: g.plies}), el("td", {text: num(g.duration, 1)}),
      el("td", {text: ago(g.finished)}),
      el("td", {class: "l"}, el("a", {class: "view", href: url("/game", {id, game: g.game_id})},
                                g.game_id))));
    replace("games", el("div", {}, ...pager, el("table", {}, el("thead", {}, el("tr", {},
      ["pair", "player moved", "player's result", "how", "plies", "seconds", "finished", "game"]
        .map((h, i) => el("th", {class: [2, 3, 7].includes(i) ? "l" : "", text: h})))),
      el("tbody", {}, rows))));
  }

  poll(async () => {
    const d = await getJSON("/api/experiment", {id});
    document.getElementById("where").textContent = d.info ? d.info.directory : "";
    replace("facts", facts(d));
    const tune = d.tune || (d.summary.tune && d.summary.tune.method === "bracket" ? d.summary.tune : null);
    replace("tune", tune ? tunePanel(tune) : el("div"));
    document.getElementById("standings-head").hidden = !!d.tune;
    replace("standings", d.tune ? el("div") : d.rows.length ? standings(d.rows, d.statistics || {head: [], cells: {}}) :
            el("p", {class: "muted", text: "no pairings stored yet"}));
    const notes = d.rows.filter(r => r.sprt).map(r => el("div", {text: `${r.player} vs ${r.opponent}: ${r.sprt.text}`}));
    replace("notes", el("div", {class: "facts"}, notes));
    replace("tournament", d.tournament ? el("div", {}, el("h2", {text: "Tournament"}),
                                                      el("pre", {text: d.tournament})) : el("div"));
    if (d.version !== version) {
      version = d.version;
      // the server redraws pictures at most every 10 s: asking more often fetches the same
      if (Date.now() - picturesAt >= PICTURES_EVERY || d.pictures.length !==
          document.getElementById("pictures").children.length) {
        picturesAt = Date.now();
        pictures(d);
      }
      await showGames();
    }
  }, 2000);
})();
