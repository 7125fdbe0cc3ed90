// @ts-check
// The pages' service worker (/sw.js: the offline shell and the notices of Web Push), registered
// once a page: every page's entry module calls keepOffline() as it starts, and Web Push
// (game/push.js) subscribes through the same registration (registerWorker).

/** @type {Promise<ServiceWorkerRegistration> | null} */
let registering = null;

/** Whether this browser has service workers (not in an old one, nor on a page not served over https). */
export function workerSupported() {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
}

/** The page's service worker, registered once (a failure is tried again at the next call). */
export function registerWorker() {
  if (!registering) {
    registering = navigator.serviceWorker.register('/sw.js').catch((err) => {
      registering = null;
      throw err;
    });
  }
  return registering;
}

/** The worker registered once the page has loaded (the page's own downloads go first), where the browser can. */
export function keepOffline() {
  if (!workerSupported()) return;
  const register = () => { registerWorker().catch((err) => console.warn('the service worker did not register:', err)); };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
