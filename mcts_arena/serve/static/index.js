// The index: every experiment under the results root, polled every 3 s.
"use strict";
(() => {
  const {el, getJSON, poll, num, duration, ago, badge, builds, replace, url} = arena;
  const HEAD = ["experiment", "game", "budget", "state", "games (stored of planned)", "errors",
                "games/h", "ETA", "builds", "last game", "description"];

  // A tune's line: where its search stands (the tune's own progress line), or its bracket's.
  function tuneLine(t) {
    if (t.method !== "bracket") return `${t.template}: ${t.line}`;
    return `${t.template} over ${t.param}: ${t.decided} of ${t.matches} matches decided` +
      (t.winner ? `, winner ${t.winner}` : "");
  }

  function row(x) {
    const name = el("a", {href: url("/experiment", {id: x.id}), text: x.id});
    if (x.state === "unreadable") {
      return el("tr", {class: "bad", "data-id": x.id},
                el("td", {class: "l"}, name), el("td", {class: "l"}, "—"), el("td", {class: "l"}, "—"),
                el("td", {class: "l"}, badge("unreadable")),
                el("td", {class: "l", colspan: HEAD.length - 4, text: x.error}));
    }
    const frac = x.planned ? Math.min(1, x.stored / x.planned) : 0;
    const bar = el("span", {class: "bar"}, el("span", {style: {width: `${(100 * frac).toFixed(1)}%`}}));
    return el("tr", {"data-id": x.id},
              el("td", {class: "l"}, name, x.kind === "tournament" ? " (tournament)" :
                 x.kind === "tune" ? ` (tune: ${x.tune.method})` : ""),
              el("td", {class: "l", text: x.game || "—"}),
              el("td", {class: "l budget", text: x.budget || "—"}),
              el("td", {class: "l"}, badge(x.state)),
              el("td", {class: "stored"}, `${x.stored} of ${x.planned}`, bar),
              el("td", {text: x.errors}),
              el("td", {text: num(x.games_per_hour)}),
              el("td", {text: x.state === "running" ? duration(x.eta_seconds) : "—"}),
              el("td", {class: "l", text: builds(x.builds)}),
              el("td", {text: ago(x.updated)}),
              el("td", {class: "l description", text: x.tune ? tuneLine(x.tune) :
                                                          x.description || ""}));
  }

  poll(async () => {
    const data = await getJSON("/api/index");
    document.getElementById("root").textContent = "results root " + data.root;
    replace("experiments", el("table", {},
      el("thead", {}, el("tr", {}, HEAD.map((h, i) => el("th", {class: i < 4 || i === HEAD.length - 1 ? "l" : "", text: h})))),
      el("tbody", {}, data.experiments.map(row))));
  }, 3000);
})();
