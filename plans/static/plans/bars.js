// Each bar's fill from its data-pct. Set through the DOM, not a style attribute: the Content-Security-Policy
// allows no inline style (docs/security.md).
for (const fill of document.querySelectorAll(".bar > span[data-pct]")) {
  const pct = Math.max(0, Math.min(100, Number(fill.dataset.pct) || 0));
  fill.style.width = `${pct}%`;
}
