// Draws the comparison page's ECDF charts from its JSON data block
// (#compare-data) with uPlot: per compared time, the base and the new
// side's empirical cumulative distribution, with the gates' lines. Text from
// the result files only reaches the page through the template (as text) and
// uPlot's legend, which sets textContent: never as HTML. Gate labels are
// drawn on the canvas.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("compare-data").textContent);
  (data.ecdf || []).forEach(function (c) {
    c.gates = c.gates || [];
    if (c.x.length) { extend(c); }
  });
  var BASE = "#4e79a7", NEW = "#f28e2b", GATE = "#c62828";
  var charts = [];

  // trim drops the trailing zeros of a fixed-point number: "2.50" → "2.5".
  function trim(s) { return s.indexOf(".") < 0 ? s : s.replace(/\.?0+$/, ""); }
  // fmtMs formats milliseconds: "0", "850µs", "412ms", "1.25s", "2m05s".
  function fmtMs(v) {
    if (v == null || isNaN(v)) { return "-"; }
    if (v === 0) { return "0"; }
    if (v < 0) { return "-" + fmtMs(-v); }
    if (v < 1) { return Math.round(v * 1000) + "µs"; }
    if (v < 1000) { return trim(v.toFixed(v < 10 ? 2 : v < 100 ? 1 : 0)) + "ms"; }
    if (v < 60000) { return trim((v / 1000).toFixed(2)) + "s"; }
    var s = Math.round(v / 1000);
    return Math.floor(s / 60) + "m" + String(s % 60).padStart(2, "0") + "s";
  }
  function fmtValue(unit, v) {
    if (v == null || isNaN(v)) { return "-"; }
    return unit === "ms" ? fmtMs(v) : String(Number(v.toPrecision(6)));
  }
  function fmtShare(v) { return v == null ? "-" : trim((v * 100).toFixed(1)) + "%"; }

  function widthOf(el) { return Math.max(360, Math.floor(el.getBoundingClientRect().width)); }
  function noData(el, text) {
    var p = document.createElement("p");
    p.className = "no-data";
    p.textContent = text;
    el.appendChild(p);
  }

  // extend pads the x range to show both curves and every gate's limit
  // (by 3%; times start at 0 at the lowest) and adds a point at each end,
  // so that each curve starts at 0 on the left edge and holds its last
  // share to the right edge, even a curve of one value.
  function extend(c) {
    var lo = c.x[0], hi = c.x[c.x.length - 1];
    c.gates.forEach(function (g) { lo = Math.min(lo, g.x); hi = Math.max(hi, g.x); });
    var pad = (hi - lo) * 0.03 || Math.abs(hi) * 0.05 || 1;
    lo = c.unit === "ms" && c.x[0] >= 0 ? Math.max(0, lo - pad) : lo - pad;
    hi += pad;
    if (lo < c.x[0]) { c.x.unshift(lo); c.base.unshift(0); c.new.unshift(0); }
    if (hi > c.x[c.x.length - 1]) {
      c.x.push(hi);
      c.base.push(c.base[c.base.length - 1]);
      c.new.push(c.new[c.new.length - 1]);
    }
  }

  // gates draws each gate of a chart over its curves: a vertical line at
  // its limit and, when it names a level, a dotted horizontal line there.
  function gates(c) {
    return {
      hooks: {
        draw: function (u) {
          if (!c.gates.length) { return; }
          var ctx = u.ctx, b = u.bbox, r = window.devicePixelRatio || 1;
          ctx.save();
          ctx.beginPath();
          ctx.rect(b.left, b.top, b.width, b.height);
          ctx.clip();
          ctx.strokeStyle = GATE;
          ctx.fillStyle = GATE;
          ctx.lineWidth = 1.5 * r;
          ctx.font = (11 * r) + "px system-ui, sans-serif";
          c.gates.forEach(function (g, i) {
            var x = u.valToPos(g.x, "x", true);
            ctx.setLineDash([6 * r, 4 * r]);
            ctx.beginPath();
            ctx.moveTo(x, b.top);
            ctx.lineTo(x, b.top + b.height);
            ctx.stroke();
            if (g.y != null) {
              var y = u.valToPos(g.y, "y", true);
              ctx.setLineDash([2 * r, 3 * r]);
              ctx.beginPath();
              ctx.moveTo(b.left, y);
              ctx.lineTo(b.left + b.width, y);
              ctx.stroke();
            }
            ctx.setLineDash([]);
            var label = g.source, w = ctx.measureText(label).width;
            var lx = x + 4 * r + w > b.left + b.width ? x - 4 * r - w : x + 4 * r;
            ctx.fillText(label, lx, b.top + (14 + 14 * i) * r);
          });
          ctx.restore();
        },
      },
    };
  }

  function ecdfChart(c) {
    var el = document.getElementById(c.id);
    if (!el) { return; }
    el.textContent = "";
    if (!c.x.length) {
      noData(el, "No value on either side.");
      return;
    }
    var full = [c.x[0], c.x[c.x.length - 1]], step = uPlot.paths.stepped({ align: 1 });
    function side(label, stroke) {
      return {
        label: label, stroke: stroke, width: 2, paths: step, points: { show: false },
        value: function (u, v) { return fmtShare(v); },
      };
    }
    charts.push(new uPlot({
      width: widthOf(el), height: 230,
      scales: {
        x: {
          time: false,
          // The first draw and a reset show everything; a zoom its selection.
          range: function (u, lo, hi) { return lo <= full[0] && hi >= full[1] ? full : [lo, hi]; },
        },
        y: { range: [0, 1] },
      },
      series: [
        { label: c.unit === "ms" ? "time" : "value", value: function (u, v) { return fmtValue(c.unit, v); } },
        side("base", BASE),
        side("new", NEW),
      ],
      axes: [
        { space: 70, values: function (u, ticks) { return ticks.map(function (t) { return fmtValue(c.unit, t); }); } },
        { label: "share of requests ≤ x", size: 56, values: function (u, ticks) { return ticks.map(fmtShare); } },
      ],
      plugins: [gates(c)],
    }, [c.x, c.base, c.new], el));
  }

  function draw() {
    charts.forEach(function (c) { c.destroy(); });
    charts = [];
    (data.ecdf || []).forEach(ecdfChart);
  }

  var resizing = 0;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(draw, 150);
  });
  draw();
  document.body.setAttribute("data-rendered", "true");
})();
