// Registers Zeus's service worker (zeus/pwa.py), which makes the site installable on a phone's home screen and
// shows an offline page when the network is gone.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  });
}
