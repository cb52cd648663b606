// arena serve: what the three pages share. Plain JavaScript, no library: every value from the
// server goes into the page as text (textContent), never as markup.
"use strict";

const arena = (() => {
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k === "style") Object.assign(node.style, v);  // CSSOM: allowed by the CSP
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  function param(name) {
    return new URLSearchParams(location.search).get(name);
  }

  function url(path, params) {
    return path + "?" + new URLSearchParams(params).toString();
  }

  // GET JSON; the browser revalidates with the ETag (an unchanged answer is a 304).
  async function getJSON(path, params) {
    const r = await fetch(url(path, params || {}), {cache: "no-cache"});
    const body = await r.json().catch(() => ({error: r.statusText}));
    if (!r.ok) throw new Error(body.error || r.statusText);
    return body;
  }

  // Call fn now and every `ms` milliseconds; a failure shows in #status and polling goes on.
  function poll(fn, ms) {
    const status = document.getElementById("status");
    async function tick() {
      try {
        await fn();
        if (status) status.textContent = "updated " + new Date().toLocaleTimeString();
      } catch (e) {
        if (status) status.textContent = "server: " + e.message;
      }
      setTimeout(tick, ms);
    }
    tick();
  }

  const pct = (x, d = 1) => (x === null || x === undefined) ? "—" : (100 * x).toFixed(d);
  const num = (x, d = 0) => (x === null || x === undefined) ? "—" : Number(x).toFixed(d);

  function duration(s) {
    if (s === null || s === undefined) return "—";
    if (s < 90) return Math.round(s) + " s";
    if (s < 5400) return Math.round(s / 60) + " min";
    if (s < 172800) return (s / 3600).toFixed(1) + " h";
    return (s / 86400).toFixed(1) + " d";
  }

  function ago(epoch) {
    return epoch ? duration(Date.now() / 1000 - epoch) + " ago" : "—";
  }

  function badge(state) {
    return el("span", {class: "badge " + state, text: state});
  }

  function builds(list) {
    if (!list || !list.length) return "—";
    return list.map(b => (b.build ? b.build.slice(0, 12) : "v" + (b.version || "?") +
                          " (no per-game build)") + " ×" + b.games).join(", ");
  }

  function replace(id, node) {
    const old = document.getElementById(id);
    node.id = id;
    old.replaceWith(node);
    return node;
  }

  return {el, param, url, getJSON, poll, pct, num, duration, ago, badge, builds, replace};
})();
