const stats = data.stats;

(function identity() {
  const box = $("identity");
  const id = data.identity;
  if (!id) { box.appendChild(el("p", "unknown", data.unknown)); return; }
  const dl = el("dl");
  const item = (k, v) => { dl.appendChild(el("dt", "", k)); dl.appendChild(el("dd", "", String(v))); };
  item("variant", id.variant);
  item("seats at a table", id.seats);
  item("format", id.format);
  item("deals a table", id.deals + ", each played in every " + (id.seatings === "permutations" ? "permutation" : "rotation") + " of the seats");
  item("seed", id.seed);
  if (id.event) item("event", [id.event.name, id.event.site, id.event.date].filter((x) => x).join(", "));
  if (id.book_sha256) item("deals", "from a deal book of SHA-256 " + id.book_sha256);
  if (id.house_sha256) item("house rules", "a script of SHA-256 " + id.house_sha256);
  if (id.shards.length) item("shards", id.shards.join(", "));
  item("results of", "take5 " + id.take5);
  box.appendChild(dl);
  const t = el("table", "cards");
  t.id = "pool";
  row(t, ["bot", "player (command)", "time a decision", "folder"], true, ["name", "name"]);
  for (const b of id.bots) {
    const tr = row(t, [b.name, b.player, b.timeout_ms + " ms", b.dir === null ? "-" : b.dir], false, ["name", "command", "", "text"]);
    tr.dataset.poolBot = b.name;
  }
  const wrap = el("div", "scroll");
  wrap.appendChild(t);
  box.appendChild(wrap);
})();

$("summary").textContent = stats.games + " game" + (stats.games === 1 ? "" : "s") + " counted, " + stats.bots.length + " bots; total: " + data.total_meaning + ".";

(function dropouts() {
  if (!data.dropouts.length) return;
  $("dropouts").hidden = false;
  for (const d of data.dropouts) {
    const li = $("dropout-list").appendChild(el("li", "", d.sentence));
    li.dataset.dropout = d.bot;
    li.dataset.firstGame = d.first_game;
    li.dataset.games = d.games;
  }
})();

(function pairs() {
  const t = $("pairs");
  t.className = "cards";
  row(t, ["bot", "other", "deals", "games", "difference", "score", "Elo [95%]", "LOS", "deals by score (0 \u2192 1)"], true, ["name", "name"]);
  if (!stats.pairs.length) { $("paired").appendChild(el("p", "note", "No two bots played a deal together.")); return; }
  stats.pairs.forEach((p, i) => {
    const shown = data.pairs[i];
    const counts = shown.deal_counts === null ? "-" : shown.deal_counts.join(" ");
    const tr = row(t, [p.bot, p.other, p.deals, p.games, shown.difference, percent(p.score), shown.elo, percent(p.los), counts], false, ["name", "name", "", "", "", "", "elo", "", "counts"]);
    tr.dataset.pair = p.bot + "," + p.other;
  });
})();

(function sprt() {
  const box = $("sprt");
  const s = stats.sprt;
  if (!s) { box.appendChild(el("p", "note", "No sequential test in this report: `take5 stats RESULTS --html --sprt elo0=E,elo1=E` runs one.")); return; }
  const verdict = s.decision === "continue" ? "No decision after " + s.pair.deals + " deals" : s.decision + " accepted after " + s.pair.deals + " deals";
  box.appendChild(el("p", "verdict", verdict + " (H0: " + s.pair.bot + " is " + s.elo0 + " Elo stronger than " + s.pair.other + "; H1: " + s.elo1 + " Elo stronger; alpha " + s.alpha + ", beta " + s.beta + ")"));
  box.appendChild(el("p", "note sprt-line", data.sprt.line));
  if (data.sprt.after_decision) box.appendChild(el("p", "note", data.sprt.after_decision + " game(s) finished after the decision (under way on other jobs): not counted in any figure of this report."));
  const course = [{ deals: 0, games: 0, llr: 0 }].concat(data.sprt.course);
  const wrap = el("div", "chart-wide");
  box.appendChild(wrap);
  const W = chartWidth(wrap, 760), H = Math.round(Math.max(240, W * 0.4)), box_ = { l: 60, r: W - 20, t: 15, b: H - 45 };
  const last = Math.max(1, course[course.length - 1].games);
  const lo = Math.min(s.lower, ...course.map((p) => p.llr)) * 1.1, hi = Math.max(s.upper, ...course.map((p) => p.llr)) * 1.1;
  const x = (g) => box_.l + (box_.r - box_.l) * g / last;
  const y = (v) => box_.b - (box_.b - box_.t) * (v - lo) / (hi - lo);
  const c = svg(W, H);
  c.id = "llr";
  axes(c, box_, ticks(0, last, Math.max(3, Math.round(W / 120))), ticks(lo, hi, 6), x, y, "games of " + s.pair.bot + " and " + s.pair.other, "LLR");
  for (const [v, name] of [[s.upper, "accept H1"], [s.lower, "accept H0"]]) {
    add(c, "line", { x1: box_.l, y1: y(v), x2: box_.r, y2: y(v), stroke: "#b22", "stroke-dasharray": "6 4", class: "bound" });
    add(c, "text", { x: box_.r - 4, y: y(v) - 5, "font-size": 12, "text-anchor": "end", fill: "#b22" }, name + " (" + v.toFixed(2) + ")");
  }
  add(c, "polyline", { points: course.map((p) => x(p.games) + "," + y(p.llr)).join(" "), fill: "none", stroke: "#1f77b4", "stroke-width": 2, "data-llr": course.length });
  const end = course[course.length - 1];
  add(c, "circle", { cx: x(end.games), cy: y(end.llr), r: 4, fill: "#1f77b4" });
  add(c, "text", { x: Math.min(x(end.games), box_.r - 60), y: y(end.llr) + (end.llr >= 0 ? 18 : -8), "font-size": 12, class: "decision" }, s.decision === "continue" ? "no decision" : s.decision);
  wrap.appendChild(c);
})();

(function times() {
  const box = $("times");
  if (!data.times.length) { box.appendChild(el("p", "note", "No times: no command bot in these games (or results written before times were kept).")); return; }
  const t = el("table", "cards");
  t.id = "times-table";
  // A bot on a game clock has the least time it had left at an ask; the column is there when one has.
  const clocked = data.times.some((b) => b.least_left_ms !== undefined);
  const left = (b) => (clocked ? [b.least_left_ms ?? "-"] : []);
  row(t, ["bot", "decisions", "mean (ms)", "95th percentile (ms)", "max (ms)"].concat(clocked ? ["least time left (ms)"] : []), true, ["name"]);
  for (const b of data.times) row(t, [b.name, b.decisions, fixed(b.mean_ms, 3), fixed(b.p95_ms, 3), fixed(b.max_ms, 3)].concat(left(b)), false, ["name"]).dataset.timed = b.name;
  const wrap = el("div", "scroll");
  wrap.appendChild(t);
  box.appendChild(wrap);
})();

(function bots() {
  $("bots-note").textContent = "By rating, best first (the legend and the charts below keep this order). Total: " + data.total_meaning + ".";
  const t = $("bots");
  t.className = "cards";
  row(t, ["", "bot", "games", "mean total", "95% CI", "win rate", "mean rank", "rating", "uncertainty", "faults"], true, ["", "name"]);
  stats.bots.forEach((b, i) => {
    const faults = Object.entries(b.faults).map(([k, v]) => k + " " + v).join(", ") || "-";
    const tr = row(t, ["", b.name, b.games, fixed(b.mean_total, 2), b.ci95 === null ? "-" : "\u00b1" + fixed(b.ci95, 2), percent(b.win_rate), fixed(b.mean_rank, 2), fixed(b.rating, 2), fixed(b.uncertainty, 2), faults], false, ["", "name", "", "", "", "", "", "rating", "", "text"]);
    tr.firstChild.appendChild(el("span", "swatch")).style.background = colour(i);
    tr.dataset.bot = b.name;
  });
})();

(function ratings() {
  const W = chartWidth($("ratings"), 900), H = Math.round(Math.max(260, W * 0.4)), box = { l: 60, r: W - 20, t: 15, b: H - 45 };
  const marks = data.checkpoints;
  if (!marks.length) { $("ratings").textContent = "no games"; return; }
  let lo = Infinity, hi = -Infinity;
  for (const s of data.ratings) for (const p of s.points) if (p) { lo = Math.min(lo, p[0] - p[1]); hi = Math.max(hi, p[0] + p[1]); }
  if (hi - lo < 1) { lo -= 0.5; hi += 0.5; }
  const last = marks[marks.length - 1];
  const x = (g) => box.l + (box.r - box.l) * g / last;
  const y = (v) => box.b - (box.b - box.t) * (v - lo) / (hi - lo);
  const s = svg(W, H);
  s.id = "ratings-chart";
  axes(s, box, ticks(0, last, Math.max(3, Math.round(W / 110))), ticks(lo, hi, 6), x, y, "games counted", "rating (mu \u00b1 sigma)");
  data.ratings.forEach((series, i) => {
    const pts = [];
    series.points.forEach((p, k) => { if (p) pts.push([marks[k], p[0], p[1]]); });
    const upper = pts.map((p) => x(p[0]) + "," + y(p[1] + p[2]));
    const lower = pts.slice().reverse().map((p) => x(p[0]) + "," + y(p[1] - p[2]));
    add(s, "polygon", { points: upper.concat(lower).join(" "), fill: colour(i), "fill-opacity": 0.15, stroke: "none", class: "band", "data-band": series.name });
  });
  data.ratings.forEach((series, i) => {
    const pts = [];
    series.points.forEach((p, k) => { if (p) pts.push(x(marks[k]) + "," + y(p[0])); });
    add(s, "polyline", { points: pts.join(" "), fill: "none", stroke: colour(i), "stroke-width": 2, "data-bot": series.name });
  });
  $("ratings").appendChild(s);
  data.ratings.forEach((series, i) => {
    const li = el("li");
    li.appendChild(el("span", "swatch")).style.background = colour(i);
    li.appendChild(document.createTextNode(series.name));
    li.dataset.legend = series.name;
    $("legend").appendChild(li);
  });
})();

(function totals() {
  // One scale for every bot: the same bins over the lowest to the highest total of all, and
  // the same height for the same share of a bot's games.
  let lo = Infinity, hi = -Infinity;
  for (const t of data.totals) for (const k in t) { lo = Math.min(lo, Number(k)); hi = Math.max(hi, Number(k)); }
  if (lo > hi) return;
  const bins = Math.max(1, Math.min(20, hi - lo + 1));
  const width = (hi - lo + 1) / bins;
  const shares = data.totals.map((t) => {
    const counts = new Array(bins).fill(0);
    let games = 0;
    for (const k in t) { counts[Math.min(bins - 1, Math.floor((Number(k) - lo) / width))] += t[k]; games += t[k]; }
    return counts.map((c) => games ? c / games : 0);
  });
  const top = Math.max(...shares.flat(), 0.01);
  $("totals-note").textContent = "Each bot's games by total (" + data.total_meaning + "), on one scale: the same " + bins + " bins from " + lo + " to " + hi + ", and the same height for the same share of a bot's games.";
  const W = 320, H = 190, box = { l: 48, r: W - 10, t: 22, b: H - 42 };
  const x = (v) => box.l + (box.r - box.l) * (v - lo) / (hi + 1 - lo);
  // The scale's top: the highest share, up to its next tick, so that no bar leaves the box.
  const steps = ticks(0, top * 100, 4);
  const step = steps.length > 1 ? steps[1] - steps[0] : top * 100;
  const highest = Math.ceil(top * 100 / step - 1e-9) * step;
  const yTicks = ticks(0, highest, 4).filter((v) => v <= highest + 1e-9);
  const y = (share) => box.b - (box.b - box.t) * share / (highest / 100);
  stats.bots.forEach((b, i) => {
    const s = svg(W, H);
    s.dataset.bot = b.name;
    s.dataset.scale = lo + ".." + hi + "/" + bins;
    axes(s, box, ticks(lo, hi, 5), yTicks, x, (v) => y(v / 100), "total", "% of games");
    shares[i].forEach((c, k) => {
      const x0 = x(lo + k * width), x1 = x(lo + (k + 1) * width);
      add(s, "rect", { x: x0 + 0.5, y: y(c), width: Math.max(0.5, x1 - x0 - 1), height: box.b - y(c), fill: colour(i) });
    });
    add(s, "text", { x: box.l, y: 15, "font-size": 13, fill: colour(i) }, b.name);
    $("totals").appendChild(s);
  });
})();

(function ratingList() {
  const list = data.rating_list;
  if (list.Err !== undefined) { $("rating-method").textContent = "No rating list: " + list.Err; return; }
  $("rating-method").textContent = "Each bot's " + list.Ok.method + " (take5 stats --ratings prints the same).";
  const t = $("rating-list");
  t.className = "cards";
  row(t, ["bot", "games", "Elo", "95% interval"], true, ["name"]);
  for (const r of list.Ok.rows) row(t, r, false, ["name"]).dataset.rated = r[0];
})();

(function h2h() {
  const t = $("h2h");
  if (!data.head_to_head) { t.parentNode.appendChild(el("p", "note", "Not drawn for more than " + data.screenful + " bots (these are " + stats.bots.length + "): the grid grows as their square. The paired table above lists every two bots that met.")); return; }
  const head = el("tr");
  head.appendChild(el("th", "name", ""));
  for (const b of stats.bots) head.appendChild(el("th", "", b.name));
  t.appendChild(head);
  stats.bots.forEach((a, i) => {
    const tr = el("tr");
    tr.appendChild(el("th", "name", a.name));
    stats.bots.forEach((_, j) => {
      const cell = data.head_to_head[i][j];
      const td = el("td");
      if (cell) {
        const [share, games] = cell;
        td.textContent = (100 * share).toFixed(0) + "% (" + games + ")";
        td.style.background = "hsl(" + Math.round(120 * share) + ", 70%, 75%)";
        td.dataset.share = share.toFixed(3);
      } else td.textContent = "-";
      tr.appendChild(td);
    });
    t.appendChild(tr);
  });
})();
