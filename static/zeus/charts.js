// Draws every <canvas data-chart="ID"> with Chart.js (static/vendor/chart.js) from the JSON its page put in
// <script id="ID" type="application/json"> (Django's json_script): {type, labels, datasets, currency, locale}.
// The figure's table stays as the text equivalent for screen readers, and is what shows without JavaScript.
(function () {
  "use strict";

  const PALETTE = ["--chart-1", "--chart-2", "--chart-3", "--chart-4", "--chart-5"];
  const charts = [];

  function cssVar(name) {
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  }

  function moneyFormat(spec) {
    try {
      return new Intl.NumberFormat(spec.locale || document.documentElement.lang, {
        style: "currency",
        currency: spec.currency,
      });
    } catch (error) {
      return new Intl.NumberFormat();
    }
  }

  function colours(spec) {
    const palette = PALETTE.map(cssVar);
    return spec.datasets.map((dataset, index) => {
      if (spec.type === "doughnut") {
        return { backgroundColor: spec.labels.map((_, i) => palette[i % palette.length]), borderColor: cssVar("--card") };
      }
      const colour = palette[index % palette.length];
      return { backgroundColor: colour, borderColor: colour };
    });
  }

  function config(spec) {
    const fmt = moneyFormat(spec);
    const paint = colours(spec);
    const grid = cssVar("--chart-grid");
    const text = cssVar("--muted");
    const axes = spec.type === "doughnut" ? {} : {
      x: { grid: { color: grid }, ticks: { color: text } },
      y: { grid: { color: grid }, ticks: { color: text, callback: (value) => fmt.format(value) } },
    };
    return {
      type: spec.type,
      data: {
        labels: spec.labels,
        datasets: spec.datasets.map((dataset, index) => ({
          label: dataset.label,
          data: dataset.data.map(Number),
          tension: 0.25,
          pointRadius: 2,
          borderWidth: spec.type === "line" ? 2 : 1,
          ...paint[index],
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: window.matchMedia("(prefers-reduced-motion: reduce)").matches ? false : undefined,
        scales: axes,
        plugins: {
          legend: { display: spec.datasets.length > 1 || spec.type === "doughnut", labels: { color: text } },
          tooltip: {
            callbacks: {
              label: (item) => `${item.dataset.label}: ${fmt.format(item.raw)}`,
            },
          },
        },
      },
    };
  }

  function draw(canvas) {
    const source = document.getElementById(canvas.dataset.chart);
    if (!source || typeof window.Chart !== "function") return;
    let spec;
    try {
      spec = JSON.parse(source.textContent);
    } catch (error) {
      return;
    }
    charts.push({ canvas, spec, chart: new window.Chart(canvas, config(spec)) });
    const figure = canvas.closest("[data-chart-figure]");
    if (figure) figure.classList.add("drawn");
  }

  function redraw() {
    for (const entry of charts) {
      entry.chart.destroy();
      entry.chart = new window.Chart(entry.canvas, config(entry.spec));
    }
  }

  function start() {
    document.querySelectorAll("canvas[data-chart]").forEach(draw);
    // The theme follows the system: repaint with the other palette when it changes.
    window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", redraw);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
