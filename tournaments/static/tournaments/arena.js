// An arena's live state: its page and the panel on its tables. Every message on the arena
// socket is the tournament's whole public state with a version (the highest wins); the
// socket also marks this player present while it is open (docs/tournaments.md, Arena).
// When this player is seated at a board, the board's page opens; when the arena is over,
// its page opens from a table (the final ranking and prizes).
import { STATE_LABELS, announceMyTable, cell, fmt, follow, number, resultLine, set as setIn, showOutcome } from "./common.js";

const root = document.getElementById("arena") || document.getElementById("arena-info");
const { gettext } = window;
const set = (testid, text) => setIn(root, testid, text);
const here = root.dataset.table ? Number(root.dataset.table) : null; // the table page's table
const me = Number(root.dataset.me);
let latest = null;
let offset = 0; // server clock minus this clock, from the last state

const STATUS_LABELS = {
  registered: gettext("joined"),
  playing: gettext("at a board"),
  waiting: gettext("waiting"),
  away: gettext("away (not seated)"),
  paused: gettext("paused"),
  finished: gettext("finished"),
};

function clock(seconds) {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tick() {
  const s = latest;
  if (!s) return;
  const now = Date.now() + offset;
  if (s.state === "registering" && s.starts_at) {
    set("clock-label", gettext("Starts in"));
    set("clock", clock((Date.parse(s.starts_at) - now) / 1000));
  } else if (s.state === "running" && s.ends_at) {
    const left = (Date.parse(s.ends_at) - now) / 1000;
    set("clock-label", left > 0 ? gettext("Time left") : gettext("Time is up: the last boards finish"));
    set("clock", left > 0 ? clock(left) : "");
  } else {
    set("clock-label", STATE_LABELS[s.state] || s.state);
    set("clock", "");
  }
}

function standingRow(r) {
  const tr = document.createElement("tr");
  tr.dataset.user = r.user;
  tr.dataset.points = r.points;
  tr.dataset.boards = r.boards;
  if (r.user === me) tr.className = "me";
  const name = cell(r.name + (r.is_bot ? " (bot)" : ""));
  if (r.fire) {
    const fire = document.createElement("span");
    fire.className = "fire";
    fire.dataset.testid = "fire";
    fire.title = gettext("On fire: points count double");
    fire.setAttribute("aria-label", fire.title);
    fire.textContent = " 🔥";
    name.append(fire);
  }
  const boards = cell(String(r.boards));
  const recent = document.createElement("span");
  recent.className = "recent";
  recent.textContent = r.results.map((x) => String(x.points) + (x.fire ? "🔥" : "")).join(" ");
  if (r.results.length) boards.append(" · ", recent);
  tr.append(
    cell(String(r.rank), "num"),
    name,
    cell(String(r.points), "num points"),
    boards,
    cell(STATUS_LABELS[r.status] || r.status),
    cell(r.prize ? `${number.format(r.prize)} xu` : "", "num prize"),
  );
  return tr;
}

function render(s) {
  latest = s;
  offset = Date.parse(s.now) - Date.now();
  set("tournament-state", STATE_LABELS[s.state] || s.state);
  const mine = s.standings.find((r) => r.user === me);
  const body = document.getElementById("standings-body");
  if (body) body.replaceChildren(...s.standings.map(standingRow));
  set("counts", fmt(gettext("%(n)s players · %(playing)s at a board · %(waiting)s waiting"), {
    n: s.entrants, playing: s.playing, waiting: s.waiting,
  }));
  set("pool", fmt(gettext("Prize pool: %(pool)s xu"), { pool: number.format(s.pool) }));
  const prizes = root.querySelector('[data-testid="prize-table"]');
  if (prizes) {
    prizes.replaceChildren(...s.prizes.map((amount) => {
      const li = document.createElement("li");
      li.textContent = `${number.format(amount)} xu`;
      return li;
    }));
  }
  if (mine) {
    set("my-points", fmt(gettext("your points: %(points)s, rank %(rank)s"), { points: mine.points, rank: mine.rank }) + (mine.fire ? " 🔥" : ""));
    const status = mine.status === "waiting" && s.state === "running"
      ? gettext("Waiting for the next board…")
      : mine.status === "away" ? gettext("You are away: open this page to be seated again.")
      : mine.status === "paused" ? gettext("Paused: press Resume to be seated again.")
      : "";
    set("my-status", here && mine.status === "playing" && mine.table === here ? "" : status);
  }
  const link = document.getElementById("my-table-link");
  if (link && mine) {
    const playing = mine.status === "playing" && mine.table;
    link.hidden = !playing;
    if (playing) link.href = `/tables/${mine.table}/`;
  }
  if (s.state === "finished") set("result", resultLine(s, s.standings.find((r) => r.place === 1)));
  showOutcome(root, s);
  tick();
  // Paired at a new board: open it. The arena over: open its page (from a table).
  // Paired at a new board: announce it (the table, its deal counted down, a sound), then
  // open it; the server's first deal there waits for the players (docs/tournaments.md).
  if (mine && mine.status === "playing" && mine.table && mine.table !== here) {
    announceMyTable(root, s, mine, here, { moved: Boolean(here) || mine.boards > 0, go: true });
  } else if (here && ["finished", "cancelled", "voided"].includes(s.state)) {
    location.assign(`/tournaments/${s.tournament}/`);
  }
}

setInterval(tick, 1000);
follow(root, render);
