// Browser notifications (docs/ui.md "Notifications"): off by default, per user and browser.
// Only the player's own click on a switch turns them on, and the browser's permission is
// asked then, never on page load. A notification is shown only while the tab is in the
// background: the page itself says everything to a player who is looking at it.
const user = document.body.dataset.user || "";
const KEY = `maubinh:notify:${user}`;

export const supported = () => "Notification" in window && !!user;

/** On: the player turned them on here and the browser allows them. */
export function enabled() {
  return supported() && Notification.permission === "granted" && localStorage.getItem(KEY) === "on";
}

async function turn(on) {
  if (on && Notification.permission !== "granted") {
    const answer = await Notification.requestPermission();
    if (answer !== "granted") on = false;
  }
  localStorage.setItem(KEY, on ? "on" : "off");
  return on;
}

/** Tell the player whose tab is in the background; a click brings them to `url`. */
export function notifyAway(title, body, { url = "", tag = "" } = {}) {
  if (!enabled() || document.visibilityState === "visible") return false;
  try {
    const note = new Notification(title, { body, tag: tag || undefined, icon: document.querySelector("link[rel=apple-touch-icon]")?.href });
    note.addEventListener("click", () => {
      window.focus();
      if (url) location.assign(url);
      note.close();
    });
  } catch {
    return false; // some mobile browsers allow them only from a service worker
  }
  return true;
}

/** Every `[data-notify-switch]` button on the page: shown where notifications exist. */
export function bindSwitches() {
  for (const button of document.querySelectorAll("[data-notify-switch]")) {
    // Shown from the first paint (nothing moves); where the browser has no notifications or
    // blocks them, the switch stays in place, off, saying why.
    if (!supported() || Notification.permission === "denied") {
      button.disabled = true;
      button.title = (supported() ? button.dataset.blocked : button.dataset.unsupported) || "";
      continue;
    }
    button.hidden = false;
    const render = () => button.setAttribute("aria-pressed", enabled() ? "true" : "false");
    render();
    button.addEventListener("click", async () => {
      await turn(!enabled());
      for (const other of document.querySelectorAll("[data-notify-switch]")) other.setAttribute("aria-pressed", enabled() ? "true" : "false");
      render();
    });
  }
}
