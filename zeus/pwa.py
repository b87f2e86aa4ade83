"""Zeus on the phone's home screen (docs/contract §11): the web app manifest, the service worker and the page it
shows offline. The worker is served from the root so its scope is the whole site; it caches the static shell
and the offline page only, never a page or an API answer with the user's data."""

import json

from django.http import HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import path
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

# Bumped when the shell changes, so the worker drops the old cache.
SHELL_VERSION = "1"
THEME = "#3351cf"


def shell_files() -> list[str]:
    """What the worker caches when it installs: the offline page and what it needs to look like Zeus."""
    return ["/offline", static("zeus/base.css"), static("zeus/favicon.svg"), static("zeus/icons/zeus-192.png")]


@require_GET
@cache_control(max_age=3600)
def manifest(request):
    body = {
        "name": "Zeus",
        "short_name": "Zeus",
        "description": _("Your money, in your language."),
        "lang": translation.get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": "#ffffff",
        "icons": [
            {"src": static("zeus/icons/zeus-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("zeus/icons/zeus-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": static("zeus/icons/zeus-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
            {"src": static("zeus/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
        # A bank's notification shared from another app becomes a bank-text draft, a receipt, a screenshot or a
        # statement file a capture (assets/share_pages.py, assets/captures).
        "share_target": {
            "action": "/share",
            "method": "POST",
            "enctype": "multipart/form-data",
            "params": {
                "title": "title",
                "text": "text",
                "url": "url",
                "files": [{"name": "file", "accept": list(SHARED_FILE_TYPES)}],
            },
        },
    }
    return HttpResponse(json.dumps(body, ensure_ascii=False), content_type="application/manifest+json")


# What the share sheet may hand over as a file: what assets/captures reads (by its bytes, whatever it is called).
SHARED_FILE_TYPES = (
    "image/jpeg",
    "image/png",
    "image/webp",
    "image/gif",
    "application/pdf",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "text/csv",
    "application/x-ofx",
    ".jpg",
    ".jpeg",
    ".png",
    ".webp",
    ".gif",
    ".pdf",
    ".xlsx",
    ".csv",
    ".ofx",
    ".qfx",
    ".qif",
    ".xml",
    ".sta",
)

WORKER = """// Zeus's service worker (zeus/pwa.py). Caches the static shell and the offline page, never the user's data:
// a page or an API answer always comes from the network, and only when the network fails does a page
// navigation get the offline page.
const CACHE = "zeus-shell-%(version)s";
const SHELL = %(shell)s;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match("/offline")));
    return;
  }
  if (SHELL.includes(url.pathname)) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
  }
});

// Web push for the inbox (zeus/push.py): the server sends {id, kind, title, body, url}, already in the
// user's language; a tap opens the notification's page, in a Zeus window when one is open.
self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch (error) { message = {}; }
  if (!message.title) return;
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body || "",
      tag: message.id ? "zeus-" + message.id : undefined,
      icon: %(icon)s,
      badge: %(icon)s,
      data: {url: message.url || "/inbox"},
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data || {}).url || "/inbox", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({type: "window", includeUncontrolled: true}).then((windows) => {
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      return open ? open.navigate(target).then((w) => (w || open).focus()) : self.clients.openWindow(target);
    }),
  );
});
"""


@require_GET
def service_worker(request):
    body = WORKER % {
        "version": SHELL_VERSION,
        "shell": json.dumps(shell_files()),
        "icon": json.dumps(static("zeus/icons/zeus-192.png")),
    }
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # Always asked for again, so a new shell reaches people; allowed to control the whole site.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request):
    return render(request, "zeus/offline.html")


urlpatterns = [
    path("manifest.webmanifest", manifest, name="manifest"),
    path("sw.js", service_worker, name="service-worker"),
    path("offline", offline, name="offline"),
]
