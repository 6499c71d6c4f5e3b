// Every page: the phone menu, forms that must not be sent twice, the inbox's live count, the
// notifications switch and the service worker. No inline handlers (CSP).
import { bindSwitches, notifyAway } from "./notify.js";

const header = document.querySelector("[data-menu]");
const toggle = header && header.querySelector(".menu-toggle");
const nav = header && header.querySelector(".site-nav");

if (header && toggle && nav) {
  // The nav is folded behind the button on narrow screens from the first paint (base.html,
  // CSS decides when); this script opens and closes it.
  const setOpen = (open) => {
    toggle.setAttribute("aria-expanded", String(open));
    header.classList.toggle("menu-open", open);
  };
  toggle.addEventListener("click", () => setOpen(toggle.getAttribute("aria-expanded") !== "true"));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && header.classList.contains("menu-open")) {
      setOpen(false);
      toggle.focus();
    }
  });
}

for (const form of document.querySelectorAll("form[data-submit-once]")) {
  form.addEventListener("submit", () => {
    for (const button of form.querySelectorAll("button[type=submit]")) button.disabled = true;
  });
}

for (const select of document.querySelectorAll("select[data-submit-on-change]")) {
  select.addEventListener("change", () => select.form.requestSubmit());
}

// The installable web app: a service worker that keeps only the offline page and the
// hashed static files (maubinh_site/pwa.py). Nothing depends on it.
// Registered once the page has loaded: its install fetches the shell, which must not
// compete with the page's own font and styles (they would arrive late and move the page).
const worker = document.body.dataset.sw;
if (worker && "serviceWorker" in navigator) {
  const register = () => navigator.serviceWorker.register(worker).catch(() => { /* private mode, or refused: the site works without */ });
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

// --- The inbox's unread count, live (maubinh_site/inbox.py `unread`) --------------------------
// Polled while a player is logged in; a notice newer than the last one seen is also told
// to a player whose tab is in the background (when they turned notifications on).
const unreadUrl = document.body.dataset.inboxUnread;
const SEEN = `maubinh:inbox-seen:${document.body.dataset.user || ""}`;
const POLL_MS = 20_000;

async function refreshInbox() {
  let data;
  try {
    const response = await fetch(unreadUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (!response.ok) return;
    data = await response.json();
  } catch {
    return; // offline for a moment: the count stays as it was
  }
  for (const badge of document.querySelectorAll("[data-inbox-count]")) {
    badge.textContent = String(data.unread);
    badge.hidden = !data.unread;
  }
  // What is older than the first answer this browser had is not news (server times).
  const seen = localStorage.getItem(SEEN);
  if (!seen) localStorage.setItem(SEEN, data.now);
  const latest = data.latest;
  if (!latest || !seen || latest.at <= seen) return;
  localStorage.setItem(SEEN, latest.at);
  notifyAway("Mậu Binh Online", latest.message, { url: latest.url, tag: latest.key });
}

if (unreadUrl) {
  refreshInbox();
  setInterval(refreshInbox, POLL_MS);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") refreshInbox(); });
}
bindSwitches();
