/*
 * The start of a page the server drew (gateway/src/web-client.ts): the page is already on screen,
 * so its scripts are fetched once it has painted, leaving the network to the styles and the first
 * picture until then. The scripts to load are on this element: data-entry (the app) and
 * data-preload (the modules it imports, fetched alongside).
 */
(function () {
  // The theme the server drew the page in, from the cookie it was sent: what hydration starts from.
  window.storefrontDrawnTheme = /(?:^|;\s*)theme=light(?:;|$)/.test(document.cookie) ? 'light' : 'dark';
  // The theme chosen in this browser (web/src/common/theme.ts; without a choice stored, the cookie's),
  // told to the server for the next pages.
  try {
    var stored = localStorage.getItem('theme');
    var theme = stored === null ? window.storefrontDrawnTheme : stored === 'light' ? 'light' : 'dark';
    document.body.classList.toggle('bp6-dark', theme === 'dark');
    document.cookie = 'theme=' + theme + '; path=/; max-age=31536000; samesite=lax';
  } catch (error) {
    // Storage may be unavailable (privacy settings): the page keeps the theme it came in.
  }
  var script = document.currentScript;
  var entry = script && script.getAttribute('data-entry');
  if (!entry) return;
  var preload = (script.getAttribute('data-preload') || '').split(' ').filter(Boolean);
  var started = false;

  // Until the app has taken the page over (web/src/main.tsx), its controls are marked as not yet
  // usable, and a press on a button or a link of the shop is held and made again once the app can answer it.
  var root = document.getElementById('root');
  var held = [];
  var ready = false;
  function hold(event) {
    var target = event.target instanceof Element ? event.target.closest('button, [role="button"], a[href]') : null;
    if (!target || !root || !root.contains(target)) return;
    if (target.tagName === 'A') {
      // A link of the shop followed by a plain click: the app opens it (no second page load);
      // a click with a modifier, to another site or a new tab is the browser's as always.
      var link = target;
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      if (link.origin !== location.origin || (link.target && link.target !== '_self') || link.hasAttribute('download')) return;
      // Should the app not come (its scripts failed), the browser follows the link after all.
      setTimeout(function () {
        if (!ready) location.assign(link.href);
      }, 5000);
    }
    event.preventDefault();
    event.stopPropagation();
    if (held.indexOf(target) < 0) held.push(target);
  }
  if (root) {
    root.setAttribute('aria-disabled', 'true');
    document.addEventListener('click', hold, true);
  }
  window.storefrontReady = function () {
    ready = true;
    document.removeEventListener('click', hold, true);
    if (root) root.removeAttribute('aria-disabled');
    var presses = held.splice(0);
    // After the app's own work of this moment (it calls this from a React effect).
    setTimeout(function () {
      presses.forEach(function (button) {
        if (button.isConnected) button.click();
      });
    }, 0);
  };

  function start() {
    if (started) return;
    started = true;
    preload.forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    });
    var app = document.createElement('script');
    app.type = 'module';
    app.crossOrigin = '';
    app.src = entry;
    document.head.appendChild(app);
  }
  var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes;
  if (document.visibilityState !== 'visible' || !types || types.indexOf('paint') < 0) return start();
  new PerformanceObserver(function (list, observer) {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    setTimeout(start, 0);
  }).observe({ type: 'paint', buffered: true });
  // Never later than this, painted or not (a page in a background tab paints only when shown).
  setTimeout(start, 2500);
  document.addEventListener('visibilitychange', start, { once: true });
})();
