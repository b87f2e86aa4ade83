// The /settings toggle for web push (zeus/push.py, docs/push.md): subscribes this browser through the service
// worker with the site's VAPID key and tells the server (POST /api/v1/push/subscriptions), or unsubscribes and
// tells it (DELETE). The messages come translated in the panel's data attributes.
(function () {
  const box = document.getElementById("push-toggle");
  if (!box) return;
  const status = box.querySelector("[data-status]");
  const on = box.querySelector("[data-action=on]");
  const off = box.querySelector("[data-action=off]");
  const csrf = (box.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";

  function show(subscribed, text) {
    status.textContent = text || (subscribed ? box.dataset.on : box.dataset.off);
    on.hidden = subscribed;
    off.hidden = !subscribed;
  }

  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }

  function tell(method, body) {
    return fetch(box.dataset.endpoint, {
      method: method,
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
      body: JSON.stringify(body),
    }).then((response) => {
      if (!response.ok && response.status !== 404) throw new Error(String(response.status));
    });
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    on.disabled = true;
    show(false, box.dataset.unsupported);
    return;
  }
  const ready = navigator.serviceWorker.register("/sw.js", {scope: "/"}).then(() => navigator.serviceWorker.ready);
  ready.then((registration) => registration.pushManager.getSubscription()).then((s) => show(Boolean(s)));

  on.addEventListener("click", () => {
    on.disabled = true;
    Notification.requestPermission()
      .then((permission) => {
        if (permission !== "granted") {
          show(false, box.dataset.blocked);
          return null;
        }
        return ready
          .then((registration) =>
            registration.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key)}),
          )
          .then((subscription) => tell("POST", subscription.toJSON()).then(() => show(true)));
      })
      .catch(() => show(false, box.dataset.failed))
      .finally(() => { on.disabled = false; });
  });

  off.addEventListener("click", () => {
    off.disabled = true;
    ready
      .then((registration) => registration.pushManager.getSubscription())
      .then((subscription) => {
        if (!subscription) return show(false);
        const endpoint = subscription.endpoint;
        return subscription.unsubscribe().then(() => tell("DELETE", {endpoint: endpoint})).then(() => show(false));
      })
      .catch(() => show(true, box.dataset.failed))
      .finally(() => { off.disabled = false; });
  });
})();
