/* handfoot's offline shell: the page's own files (style, script, icons) are kept, so the page
   still opens while the table's machine is out of reach; the table itself (pages, API) always
   comes from the network. */
"use strict";
var SHELL = "handfoot-shell-1";
var FILES = ["/static/handfoot.css", "/static/handfoot.js", "/static/icon.svg",
             "/static/icon-192.png", "/static/icon-512.png"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) { return cache.addAll(FILES); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== SHELL; })
      .map(function (name) { return caches.delete(name); }));
  }));
});

self.addEventListener("fetch", function (event) {
  var url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin
      || url.pathname.indexOf("/static/") !== 0) { return; }
  /* the network first (a new version is used at once), the kept copy when it is out of reach */
  event.respondWith(fetch(event.request).then(function (response) {
    var copy = response.clone();
    caches.open(SHELL).then(function (cache) { cache.put(event.request, copy); });
    return response;
  }, function () { return caches.match(event.request); }));
});
