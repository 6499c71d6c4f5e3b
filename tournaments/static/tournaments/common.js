// What a tournament's live scripts share (live.js: a sit-and-go; arena.js: an arena): the
// page's formatting, the state names, and the socket. Every message on a tournament socket
// is the tournament's whole public state with a version; the highest version wins.
import { Live } from "../games/live.js";

const { gettext, interpolate } = window;

export const number = new Intl.NumberFormat(document.documentElement.lang || "vi");
export const fmt = (text, values) => interpolate(text, values, true);

export const STATE_LABELS = {
  registering: gettext("registering"),
  running: gettext("running"),
  finished: gettext("finished"),
  cancelled: gettext("cancelled"),
};

/** Set the text of every element of `root` marked with this test id. */
export function set(root, testid, text) {
  for (const node of root.querySelectorAll(`[data-testid="${testid}"]`)) node.textContent = text;
}

export function cell(text, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  td.textContent = text;
  return td;
}

/** Follow the tournament socket at `root.dataset.ws`, rendering each newer state. */
export function follow(root, render) {
  let version = Number(root.dataset.version || 0);
  const live = new Live(root.dataset.ws, {
    onMessage(data) {
      if (data.type !== "tournament" || data.version < version) return;
      version = data.version;
      render(data);
    },
    onStatus() {},
  });
  live.connect();
  return live;
}
