// The reference product-usage monitoring script (SPEC.md §7): plain JavaScript, served at
// /mfe/monitoring.js. It records page views: the first one, then one per change of path in the
// page's own navigation. Each goes to the server that serves this script as a beacon, which
// survives the page being closed. Only the path and title are sent, never the query string, where
// search text (names, e-mail addresses) would be.
(() => {
  const KEY = '__usersAdminMonitoring';
  if (window[KEY]) return;
  window[KEY] = true;

  const scriptUrl = document.currentScript instanceof HTMLScriptElement ? document.currentScript.src : location.href;
  const endpoint = new URL('/apis/monitoring/page-views', scriptUrl).href;
  let lastPath;

  const send = (body) => {
    // text/plain keeps the beacon a simple request, also when the script's server is another origin.
    const payload = new Blob([JSON.stringify(body)], { type: 'text/plain' });
    if (navigator.sendBeacon?.(endpoint, payload)) return;
    void fetch(endpoint, { method: 'POST', body: payload, credentials: 'include', keepalive: true }).catch(() => {});
  };

  const recordPageView = () => {
    const path = location.pathname;
    if (path === lastPath) return;
    lastPath = path;
    send({ path, title: document.title, viewedAt: new Date().toISOString() });
  };

  // The page navigates with the History API: a change of path there is a page view too.
  for (const method of ['pushState', 'replaceState']) {
    const original = history[method];
    history[method] = function (...args) {
      const result = original.apply(this, args);
      recordPageView();
      return result;
    };
  }
  window.addEventListener('popstate', recordPageView);
  recordPageView();
})();
