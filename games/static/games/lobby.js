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

// A row is built once and then updated in place: a live update never replaces the link a
// keyboard or screen-reader user is on (replacing it would drop their focus to the page).
function item(row) {
  const li = document.createElement("li");
  li.className = "table-card";
  li.dataset.id = row.id;
  const link = document.createElement("a");
  link.className = "table-link";
  const name = document.createElement("span");
  name.className = "table-name";
  const state = document.createElement("span");
  link.append(name, state);
  const facts = document.createElement("dl");
  for (const field of ["stake", "players", "rules", "host"]) {
    const div = document.createElement("div");
    div.dataset.fact = field;
    div.append(document.createElement("dt"), document.createElement("dd"));
    facts.append(div);
  }
  // The host's name links to their profile (profiles app), as the page itself renders it.
  const hostLink = document.createElement("a");
  hostLink.className = "host-link";
  facts.querySelector("[data-fact=host] dd").append(hostLink);
  const note = document.createElement("p");
  note.className = "muted small";
  li.append(link, facts, note);
  return li;
}

function update(li, row) {
  const affordable = row.min_balance <= balance;
  li.classList.toggle("unaffordable", !affordable);
  const link = li.querySelector(".table-link");
  link.href = `/tables/${row.id}/`;
  const name = link.querySelector(".table-name");
  name.textContent = row.name;
  if (row.duplicate) {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.dataset.testid = "duplicate-badge";
    badge.textContent = gettext("Duplicate");
    name.append(" ", badge);
  }
  const state = name.nextElementSibling;
  state.className = `state state-${row.state}`;
  state.textContent = (STATES[row.state] || STATES.waiting)();
  const fact = (field, label, value) => {
    const div = li.querySelector(`[data-fact=${field}]`);
    div.querySelector("dt").textContent = label;
    if (value !== null) div.querySelector("dd").textContent = value;
  };
  fact("stake", gettext("Stake"), `${number.format(row.stake)} xu`);
  fact("players", gettext("Players"), `${row.taken}/${row.seats}`);
  fact("rules", gettext("Rules"), (PRESETS[row.preset] || PRESETS.portal)());
  fact("host", gettext("Host"), null);
  const hostLink = li.querySelector(".host-link");
  hostLink.href = `/players/${row.host_id}/`;
  hostLink.textContent = row.host;
  const note = li.querySelector("p");
  note.hidden = affordable;
  note.textContent = affordable ? "" : window.interpolate(gettext("You need %(x)s xu to sit here."), { x: number.format(row.min_balance) }, true);
}

// The rows the server rendered are adopted, and brought up to date by the first message.
const rendered = new Map([...list.children].map((li) => [Number(li.dataset.id), [li, null]])); // id -> [li, its row]

function render() {
  const rows = [...tables.values()].filter(matches).sort((a, b) => a.stake - b.stake || a.id - b.id);
  const shown = new Set(rows.map((row) => row.id));
  for (const [id, [li]] of rendered) {
    if (!shown.has(id)) {
      li.remove();
      rendered.delete(id);
    }
  }
  // Only a row out of place is moved, so an unchanged list keeps every element (and focus).
  rows.forEach((row, index) => {
    let [li, was] = rendered.get(row.id) || [];
    if (!li) li = item(row);
    if (was !== row) update(li, row);
    rendered.set(row.id, [li, row]);
    if (list.children[index] !== li) list.insertBefore(li, list.children[index] || null);
  });
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
