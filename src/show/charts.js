// What the pages' scripts share (take5 stats --html, take5 tune's page): elements, SVG charts
// with axes and ticks, tables that turn into cards on a phone. Put into each page in place of
// its CHARTS comment (report_script.html, show::html::page).
const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
const ns = "http://www.w3.org/2000/svg";
const colours = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
const colour = (i) => colours[i % colours.length];
function svg(w, h) { const s = document.createElementNS(ns, "svg"); s.setAttribute("viewBox", "0 0 " + w + " " + h); s.setAttribute("preserveAspectRatio", "xMidYMid meet"); return s; }
function add(s, tag, attrs, text) { const e = document.createElementNS(ns, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); if (text !== undefined) e.textContent = text; s.appendChild(e); return e; }
// A row of table t; a header row names the columns, and each later cell carries its column's
// name (the phone layout shows it beside the figure).
function row(t, cells, head, classes) {
  const tr = el("tr");
  if (head) t.heads = cells;
  cells.forEach((c, i) => { const cell = tr.appendChild(el(head ? "th" : "td", (classes && classes[i]) || "", String(c))); if (!head && t.heads) cell.dataset.label = t.heads[i]; });
  t.appendChild(tr);
  return tr;
}
// The width a chart is drawn at: its box's, within [320, most], so that its text stays legible
// on a phone and its lines fine on a wide screen.
const chartWidth = (box, most) => Math.max(320, Math.min(most, Math.round(box.clientWidth || most)));
const fixed = (x, d) => x === null || x === undefined ? "-" : x.toFixed(d);
const percent = (x) => (100 * x).toFixed(1) + "%";

// Round tick values between lo and hi, about `n` of them.
function ticks(lo, hi, n) {
  const span = hi - lo || 1;
  const raw = span / n, mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toFixed(10)));
  return out;
}
// Axes with ticks and labels in the box (l, t)-(r, b) of s; x and y map values to the box.
function axes(s, box, xs, ys, x, y, xLabel, yLabel) {
  add(s, "line", { x1: box.l, y1: box.b, x2: box.r, y2: box.b, stroke: "#666" });
  add(s, "line", { x1: box.l, y1: box.t, x2: box.l, y2: box.b, stroke: "#666" });
  for (const v of xs) {
    add(s, "line", { x1: x(v), y1: box.b, x2: x(v), y2: box.b + 4, stroke: "#666" });
    add(s, "text", { x: x(v), y: box.b + 16, "font-size": 11, "text-anchor": "middle", class: "tick-x" }, String(v));
  }
  for (const v of ys) {
    add(s, "line", { x1: box.l, y1: y(v), x2: box.r, y2: y(v), stroke: "#eee" });
    add(s, "text", { x: box.l - 5, y: y(v) + 4, "font-size": 11, "text-anchor": "end", class: "tick-y" }, String(v));
  }
  add(s, "text", { x: (box.l + box.r) / 2, y: box.b + 32, "font-size": 12, "text-anchor": "middle", class: "axis-label" }, xLabel);
  add(s, "text", { x: 12, y: (box.t + box.b) / 2, "font-size": 12, "text-anchor": "middle", transform: "rotate(-90 12 " + (box.t + box.b) / 2 + ")", class: "axis-label" }, yLabel);
}
