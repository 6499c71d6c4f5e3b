// The live lobby: the table list over ws/lobby/, filtered in place.
import { Live } from "./live.js";

const { gettext } = window;
const LANG = document.documentElement.lang || "vi";
const number = new Intl.NumberFormat(LANG === "en" ? "en-US" : "vi-VN");
const list = document.getElementById("table-list");
const empty = document.getElementById("table-empty");
const status = document.getElementById("lobby-status");
const balance = Number(list.dataset.balance || 0);
const filters = {
  stake: document.getElementById("filter-stake"),
  preset: document.getElementById("filter-preset"),
  free: document.getElementById("filter-free"),
};
const tables = new Map();
const STATES = { playing: () => gettext("Playing"), starting: () => gettext("Starting"), waiting: () => gettext("Waiting") };
const PRESETS = { portal: () => gettext("Portal"), classic: () => gettext("Classic") };

function matches(row) {
  const [low, high] = (filters.stake.value || "0-").split("-").map((x) => (x === "" ? Infinity : Number(x)));
  if (row.stake < low || row.stake > high) return false;
  if (filters.preset.value && row.preset !== filters.preset.value) return false;
  if (filters.free.checked && row.free <= 0) return false;
  return true;
}

function item(row) {
  const li = document.createElement("li");
  li.className = "table-card";
  li.dataset.id = row.id;
  if (row.min_balance > balance) li.classList.add("unaffordable");
  const link = document.createElement("a");
  link.href = `/tables/${row.id}/`;
  link.className = "table-link";
  const name = document.createElement("span");
  name.className = "table-name";
  name.textContent = row.name;
  if (row.duplicate) {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.dataset.testid = "duplicate-badge";
    badge.textContent = gettext("Duplicate");
    name.append(" ", badge);
  }
  const state = document.createElement("span");
  state.className = `state state-${row.state}`;
  state.textContent = (STATES[row.state] || STATES.waiting)();
  link.append(name, state);
  const facts = document.createElement("dl");
  const fact = (label, value) => {
    const div = document.createElement("div");
    const dt = document.createElement("dt");
    dt.textContent = label;
    const dd = document.createElement("dd");
    dd.textContent = value;
    div.append(dt, dd);
    facts.append(div);
  };
  fact(gettext("Stake"), `${number.format(row.stake)} xu`);
  fact(gettext("Players"), `${row.taken}/${row.seats}`);
  fact(gettext("Rules"), (PRESETS[row.preset] || PRESETS.portal)());
  fact(gettext("Host"), row.host);
  // The host's name links to their profile (profiles app), as the page itself renders it.
  const host = facts.lastElementChild.querySelector("dd");
  const hostLink = document.createElement("a");
  hostLink.href = `/players/${row.host_id}/`;
  hostLink.className = "host-link";
  hostLink.textContent = row.host;
  host.replaceChildren(hostLink);
  li.append(link, facts);
  if (row.min_balance > balance) {
    const note = document.createElement("p");
    note.className = "muted small";
    note.textContent = window.interpolate(gettext("You need %(x)s xu to sit here."), { x: number.format(row.min_balance) }, true);
    li.append(note);
  }
  return li;
}

function render() {
  const rows = [...tables.values()].filter(matches).sort((a, b) => a.stake - b.stake || a.id - b.id);
  list.replaceChildren(...rows.map(item));
  empty.hidden = rows.length > 0;
}

for (const input of Object.values(filters)) input.addEventListener("change", render);

// The server sends one page of tables; this page's tables are kept live, a new table is
// added while the page has room, and a closed one leaves.
const page = new URLSearchParams(location.search).get("page") || "1";
let pageSize = Infinity;
const live = new Live(`/ws/lobby/?page=${encodeURIComponent(page)}`, {
  onMessage(message) {
    if (message.type === "lobby") {
      tables.clear();
      for (const row of message.tables) tables.set(row.id, row);
      pageSize = message.pages > 1 ? message.tables.length : Infinity;
      render();
    } else if (message.type === "table") {
      const row = message.table;
      const known = tables.get(row.id);
      if (known && known.version > row.version) return;
      if (row.open === false) tables.delete(row.id);
      else if (known || tables.size < pageSize) tables.set(row.id, row);
      render();
    } else if (message.type === "table_closed") {
      tables.delete(message.table);
      render();
    }
  },
  onStatus(state) {
    status.textContent = state === "open" ? gettext("Table list is live.") : gettext("Connection lost. Reconnecting…");
  },
});
live.connect();
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") live.nudge();
});
