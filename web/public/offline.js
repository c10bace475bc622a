/* global document, fetch, location, setInterval */
// The offline page's one behaviour (web/public/offline.html; our pages run no inline script):
// back to the page that was asked for as soon as the server answers its health check.
const status = document.getElementById('status');
const retry = () =>
  fetch('/healthz', { cache: 'no-store' })
    .then((r) => {
      if (!r.ok) throw new Error('not ready');
      location.reload();
    })
    .catch(() => {
      status.textContent = `Still unreachable at ${new Date().toLocaleTimeString()}. Trying again every 10 seconds…`;
    });
document.getElementById('retry').addEventListener('click', retry);
setInterval(retry, 10_000);
