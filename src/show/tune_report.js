
// A value of a parameter for people: as many decimals as its range needs for four figures.
const shown = (p, v) => v.toFixed(Math.max(0, 3 - Math.floor(Math.log10(p.max - p.min))));
const took = (s) => percent((s.ahead + s.level / 2) / s.games);

(function identity() {
  const box = $("identity");
  const dl = el("dl");
  const item = (k, v) => { dl.appendChild(el("dt", "", k)); dl.appendChild(el("dd", "", String(v))); };
  item("player", data.player);
  item("table", data.variant + ", " + data.seats + " seats: plus, minus" + data.opponents.map((b) => ", " + b.name + " (" + b.player + ")").join(""));
  item("iterations", data.steps.length + " of " + data.iterations + ", " + data.deals + " deal(s) each, every deal in every seating");
  item("seed", data.seed);
  const g = data.gains;
  item("gains", "a " + g.a.toFixed(5) + ", c " + g.c + ", A " + g.A + ", alpha " + g.alpha + ", gamma " + g.gamma);
  item("tuned player", data.tuned_player);
  box.appendChild(dl);
  const t = el("table", "cards");
  t.id = "param-table";
  row(t, ["parameter", "min", "max", "start", "tuned"], true, ["name"]);
  data.params.forEach((p, i) => { row(t, [p.name + (p.integer ? " (whole)" : ""), p.min, p.max, p.start, shown(p, data.tuned[i])], false, ["name"]).dataset.param = p.name; });
  const wrap = el("div", "scroll");
  wrap.appendChild(t);
  box.appendChild(wrap);
})();

(function params() {
  const box = $("params");
  const last = Math.max(1, data.steps.length);
  data.params.forEach((p, i) => {
    const wrap = el("div");
    box.appendChild(wrap);
    const W = chartWidth(wrap, 560), H = Math.round(Math.max(220, W * 0.5)), b = { l: 60, r: W - 15, t: 22, b: H - 45 };
    const x = (k) => b.l + (b.r - b.l) * k / last;
    const y = (v) => b.b - (b.b - b.t) * (v - p.min) / (p.max - p.min);
    const s = svg(W, H);
    s.id = "param-" + i;
    s.dataset.param = p.name;
    add(s, "text", { x: b.l, y: 15, "font-size": 13, "font-weight": 600 }, p.name);
    axes(s, b, ticks(0, last, Math.max(3, Math.round(W / 110))), ticks(p.min, p.max, 5), x, y, "iteration", p.name);
    add(s, "line", { x1: b.l, y1: y(p.start), x2: b.r, y2: y(p.start), stroke: "#999", "stroke-dasharray": "5 4", class: "start" });
    data.steps.forEach((st, k) => {
      add(s, "text", { x: x(k + 0.5), y: y(st.plus[i]) + 4, "font-size": 9, "text-anchor": "middle", fill: colour(0), "fill-opacity": 0.45, class: "plus" }, "\u25b2");
      add(s, "text", { x: x(k + 0.5), y: y(st.minus[i]) + 4, "font-size": 9, "text-anchor": "middle", fill: colour(1), "fill-opacity": 0.45, class: "minus" }, "\u25bc");
    });
    const points = [[0, p.start]].concat(data.steps.map((st, k) => [k + 1, st.next[i]]));
    add(s, "polyline", { points: points.map(([k, v]) => x(k) + "," + y(v)).join(" "), fill: "none", stroke: "#222", "stroke-width": 2, class: "theta", "data-points": points.length });
    wrap.appendChild(s);
  });
})();

(function difference() {
  const steps = data.steps;
  $("difference-note").textContent = "Per iteration, plus's total minus minus's, per game, over the iteration's deals (each dot; the line is their running mean); below zero plus did better where lower totals are. The step follows what plus took from minus (a game ranked ahead 1, level 1/2), not this difference, which shows how far apart the two sides played.";
  if (!steps.length) { $("difference").textContent = "no iteration yet"; return; }
  const box = $("difference");
  const W = chartWidth(box, 900), H = Math.round(Math.max(240, W * 0.35)), b = { l: 60, r: W - 20, t: 15, b: H - 45 };
  const values = steps.map((s) => s.difference);
  let lo = Math.min(0, ...values), hi = Math.max(0, ...values);
  if (hi - lo < 1) { lo -= 0.5; hi += 0.5; }
  const last = steps.length;
  const x = (k) => b.l + (b.r - b.l) * k / last;
  const y = (v) => b.b - (b.b - b.t) * (v - lo) / (hi - lo);
  const s = svg(W, H);
  s.id = "difference-chart";
  axes(s, b, ticks(0, last, Math.max(3, Math.round(W / 110))), ticks(lo, hi, 6), x, y, "iteration", "plus - minus, a game");
  add(s, "line", { x1: b.l, y1: y(0), x2: b.r, y2: y(0), stroke: "#666" });
  let sum = 0;
  const mean = [];
  steps.forEach((st, k) => {
    add(s, "circle", { cx: x(k + 1), cy: y(st.difference), r: 2.5, fill: colour(0), "fill-opacity": 0.6, class: "iteration-difference" });
    sum += st.difference;
    mean.push(x(k + 1) + "," + y(sum / (k + 1)));
  });
  add(s, "polyline", { points: mean.join(" "), fill: "none", stroke: colour(1), "stroke-width": 2, class: "running-mean" });
  box.appendChild(s);
})();

(function verification() {
  const box = $("verdict");
  const v = data.verification;
  if (!v) { box.appendChild(el("p", "note", "No verification in this run: `take5 tune CONFIG --resume --verify N` plays the tuned values against the start over N deals.")); return; }
  box.appendChild(el("p", "verdict", v.line));
  const p = v.pair;
  const t = el("table", "cards");
  t.id = "verification-table";
  row(t, ["bot", "other", "deals", "games", "difference", "score", "elo", "los"], true, ["name", "name"]);
  const ci = p.mean_difference_ci95 === null ? "" : " \u00b1" + fixed(p.mean_difference_ci95, 2);
  row(t, [p.bot, p.other, p.deals, p.games, (p.mean_difference >= 0 ? "+" : "") + fixed(p.mean_difference, 2) + ci, percent(p.score), v.elo, percent(p.los)], false, ["name", "name"]);
  const wrap = el("div", "scroll");
  wrap.appendChild(t);
  box.appendChild(wrap);
})();

(function iterations() {
  const t = $("iterations");
  t.className = "cards";
  row(t, ["iteration", "plus", "minus", "games", "plus took", "difference"].concat(data.params.map((p) => p.name + " after")), true);
  const values = (vs) => data.params.map((p, i) => p.name + " " + shown(p, vs[i])).join(", ");
  for (const st of data.steps) {
    row(t, [st.iteration, values(st.plus), values(st.minus), st.games, took(st), (st.difference >= 0 ? "+" : "") + fixed(st.difference, 2)].concat(data.params.map((p, i) => shown(p, st.next[i]))), false, ["", "text", "text"]).dataset.iteration = st.iteration;
  }
})();
