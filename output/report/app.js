// Draws the report's charts over time from the JSON data block
// (#report-data), with uPlot. Text from the run (bucket names)
// only ever reaches the page through textContent and uPlot's legend, which
// sets textContent too: never as HTML.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var palette = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
    "#b07aa1", "#ff9da7", "#9c755f", "#79706e", "#1f77b4", "#8c564b", "#7f7f7f"];
  var charts = [];

  // trim drops the trailing zeros of a fixed-point number: "2.50" → "2.5".
  function trim(s) { return s.indexOf(".") < 0 ? s : s.replace(/\.?0+$/, ""); }
  // fmtMs formats milliseconds: "0", "850µs", "412ms", "1.25s", "2m05s".
  function fmtMs(v) {
    if (v == null || isNaN(v)) { return "-"; }
    if (v === 0) { return "0"; }
    if (v < 1) { return Math.round(v * 1000) + "µs"; }
    if (v < 1000) { return trim(v.toFixed(v < 10 ? 2 : v < 100 ? 1 : 0)) + "ms"; }
    if (v < 60000) { return trim((v / 1000).toFixed(2)) + "s"; }
    var s = Math.round(v / 1000);
    return Math.floor(s / 60) + "m" + String(s % 60).padStart(2, "0") + "s";
  }
  // fmtSec formats seconds since the start: "45s", "2m05s".
  function fmtSec(v) {
    if (v == null) { return "-"; }
    if (v < 60) { return trim(v.toFixed(2)) + "s"; }
    var s = Math.round(v);
    return Math.floor(s / 60) + "m" + String(s % 60).padStart(2, "0") + "s";
  }
  function fmtRate(v) { return v == null ? "-" : (Math.round(v * 100) / 100) + "/s"; }
  function fmtCount(v) { return v == null ? "-" : String(v); }

  function widthOf(el) { return Math.max(360, Math.floor(el.getBoundingClientRect().width)); }
  function noData(el, text) {
    var p = document.createElement("p");
    p.className = "no-data";
    p.textContent = text;
    el.appendChild(p);
  }
  function xSeries() {
    return { label: "time since start", value: function (u, v) { return fmtSec(v); } };
  }
  // xRange spans the windows (zooming narrows it); a run of one window
  // gets that window's width rather than uPlot's padding around one point.
  function xRange(u, lo, hi) {
    if (data.t.length === 1) { return [data.t[0], data.t[0] + (data.window_s || 1)]; }
    return [lo, hi];
  }
  function xAxis() {
    return { label: "time since the run started", space: 60, values: function (u, ticks) { return ticks.map(fmtSec); } };
  }

  function latencyChart(metric, pct) {
    var el = document.getElementById("chart-" + metric);
    el.textContent = "";
    var byBucket = (data.latency || {})[metric] || {};
    if (!data.buckets || !data.buckets.length) {
      noData(el, "No streaming request was measured.");
      return;
    }
    var series = [xSeries()], columns = [data.t];
    data.buckets.forEach(function (b, i) {
      series.push({
        label: b, stroke: palette[i % palette.length], width: 2, spanGaps: true,
        points: { show: data.t.length <= 90, size: 5 },
        value: function (u, v) { return fmtMs(v); },
      });
      columns.push(byBucket[b][pct]);
    });
    charts.push(new uPlot({
      width: widthOf(el), height: 240,
      scales: { x: { time: false, range: xRange }, y: { range: function (u, lo, hi) { return [0, hi > 0 ? hi * 1.1 : 1]; } } },
      series: series,
      axes: [xAxis(), { label: pct, size: 70, values: function (u, ticks) { return ticks.map(fmtMs); } }],
    }, columns, el));
  }

  function loadChart() {
    var el = document.getElementById("chart-load");
    el.textContent = "";
    if (!data.t || !data.t.length) {
      noData(el, "No iteration ran.");
      return;
    }
    var l = data.load;
    var rate = { scale: "rate", width: 2, value: function (u, v) { return fmtRate(v); } };
    function s(label, stroke, extra) {
      var o = { label: label, stroke: stroke };
      Object.keys(rate).forEach(function (k) { o[k] = rate[k]; });
      Object.keys(extra || {}).forEach(function (k) { o[k] = extra[k]; });
      return o;
    }
    charts.push(new uPlot({
      width: widthOf(el), height: 260,
      scales: {
        x: { time: false, range: xRange },
        rate: { range: function (u, lo, hi) { return [0, hi > 0 ? hi * 1.1 : 1]; } },
        vus: { range: function (u, lo, hi) { return [0, hi > 0 ? hi * 1.1 : 1]; } },
      },
      series: [
        xSeries(),
        s("iterations started", "#4e79a7", { fill: "rgba(78,121,167,0.08)" }),
        s("dropped iterations", "#e15759", { dash: [6, 4] }),
        s("failed streams", "#f28e2b"),
        s("failed HTTP requests", "#b07aa1", { dash: [2, 3] }),
        { label: "active VUs", scale: "vus", stroke: "#9aa3b2", width: 1.5, value: function (u, v) { return fmtCount(v); } },
      ],
      axes: [
        xAxis(),
        { scale: "rate", label: "per second", size: 60, values: function (u, ticks) { return ticks.map(function (t) { return t + "/s"; }); } },
        { scale: "vus", label: "VUs", side: 1, size: 50, grid: { show: false }, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000] },
      ],
    }, [data.t, l.started, l.dropped, l.failed, l.http_failed, l.vus], el));
  }

  function selectedPercentile() {
    var checked = document.querySelector('#pct-select input[name="pct"]:checked');
    return checked ? checked.value : "p95";
  }
  function draw() {
    charts.forEach(function (c) { c.destroy(); });
    charts = [];
    var pct = selectedPercentile();
    // One chart per series of the data; the page has a chart-<key> element
    // for each (both come from the report's overTime list).
    Object.keys(data.latency || {}).forEach(function (key) { latencyChart(key, pct); });
    loadChart();
  }

  document.querySelectorAll('#pct-select input[name="pct"]').forEach(function (input) {
    input.addEventListener("change", draw);
  });
  var resizing = 0;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(draw, 150);
  });
  draw();
  document.body.setAttribute("data-rendered", "true");
})();
