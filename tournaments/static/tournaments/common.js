// What a tournament's live scripts share (live.js: a sit-and-go; arena.js: an arena): the
// page's formatting, the state names, and the socket. Every message on a tournament socket
// is the tournament's whole public state with a version; the highest version wins.
import { Live } from "../games/live.js";

const { gettext, ngettext, interpolate } = window;

export const number = new Intl.NumberFormat(document.documentElement.lang || "vi");
export const fmt = (text, values) => interpolate(text, values, true);

export const STATE_LABELS = {
  registering: gettext("registering"),
  running: gettext("running"),
  finished: gettext("finished"),
  cancelled: gettext("cancelled"),
  voided: gettext("voided"),
};

/** Why it ended as it did (the page renders the same: tournaments.selectors.outcome_notes). */
export function endNote(s) {
  const minutes = { minutes: s.stall_minutes };
  if (s.state === "cancelled") {
    return {
      creator: gettext("Its creator cancelled the tournament: every buy-in was refunded."),
      too_few: gettext("Fewer than two players had joined at the start: the arena was cancelled and every buy-in refunded."),
      stalled: fmt(gettext("Nobody joined for %(minutes)s minutes: the server cancelled the tournament and refunded every buy-in."), minutes),
    }[s.end_reason] || gettext("The tournament was cancelled: every buy-in was refunded.");
  }
  if (s.state === "voided") {
    return s.end_reason === "no_end"
      ? gettext("The tournament was running with no end time (a fault now fixed): the server voided it and refunded every buy-in.")
      : fmt(gettext("Nothing moved at its tables for %(minutes)s minutes: the server voided the tournament, cancelled any round in play and refunded every buy-in. The fault was ours: nobody loses their buy-in."), minutes);
  }
  if (s.state === "finished" && s.end_reason === "stuck_rounds") {
    return gettext("Boards stuck at its tables after the end were cancelled so that the arena could finish; the points won before them decide the ranking.");
  }
  return "";
}

/** The prizes held for a moderator: under review, then released or the buy-ins returned. */
export function reviewNote(s) {
  const status = s.review && s.review.status;
  return {
    pending: gettext("The prizes are under review: the server noticed signs of collusion among the entrants. A moderator will pay the prizes or return every buy-in; nothing is paid until then."),
    released: gettext("A moderator reviewed the prizes and released them: they are paid."),
    returned: gettext("A moderator reviewed the tournament and returned every buy-in instead of paying the prizes."),
  }[status] || "";
}

/** The result line of a finished tournament, as its prizes stand. */
export function resultLine(s, winner) {
  if (!winner || s.state !== "finished") return "";
  const status = s.review && s.review.status;
  if (status === "pending") return fmt(gettext("%(name)s came first; the prize is under review."), { name: winner.name });
  if (status === "returned") return fmt(gettext("%(name)s came first; the buy-ins were returned."), { name: winner.name });
  return fmt(gettext("%(name)s wins %(prize)s xu."), { name: winner.name, prize: number.format(winner.prize) });
}

/** Show (or hide) the end and review notes of `root` for the state `s`. */
export function showOutcome(root, s) {
  for (const [testid, text] of [["end-note", endNote(s)], ["prize-review", reviewNote(s)]]) {
    for (const node of root.querySelectorAll(`[data-testid="${testid}"]`)) {
      node.textContent = text;
      node.hidden = !text;
    }
  }
}

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

// --- My table: its first deal counted down, a move announced -----------------------------
// The server deals a player's first round at a tournament table only once they have the
// table open, or after TOURNAMENT_JOIN_SECONDS at most (docs/tournaments.md, "Your table
// starts"): this page says which table, counts its deal down and beeps (sound on). With
// `go` (an arena's next board, a move from the table page) it opens the table after a
// moment; else the player goes by the link. `here`: a table page's table, else null.
const GO_AFTER_MS = 2500;
let announced = null; // the table announced: { table, go (when, or null), last }
let beeper = null;

function soundOn(user) {
  return localStorage.getItem(`maubinh:sound:${user}`) !== "off";
}

function beep(user, high) {
  document.body.dataset.tournamentBeeps = String(Number(document.body.dataset.tournamentBeeps || 0) + 1);
  if (!soundOn(user)) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    beeper = beeper || new Context();
    const osc = beeper.createOscillator();
    const gain = beeper.createGain();
    osc.frequency.value = high ? 880 : 660;
    gain.gain.setValueAtTime(0.08, beeper.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, beeper.currentTime + 0.18);
    osc.connect(gain).connect(beeper.destination);
    osc.start();
    osc.stop(beeper.currentTime + 0.2);
  } catch (_error) {
    // A browser that plays nothing before a touch: the countdown is on the screen anyway.
  }
}

function banner(root) {
  let node = root.querySelector('[data-testid="my-table-start"]');
  if (!node) {
    node = document.createElement("p");
    node.className = "table-start";
    node.dataset.testid = "my-table-start";
    node.setAttribute("role", "alert");
    const text = document.createElement("span");
    text.dataset.testid = "my-table-start-text";
    const link = document.createElement("a");
    link.className = "button";
    link.dataset.testid = "my-table-go";
    link.textContent = gettext("Go to the table now");
    node.append(text, " ", link);
    root.prepend(node);
  }
  return node;
}

/** Announce my table (its first deal counted down, or a move to another table). */
export function announceMyTable(root, s, mine, here, { moved = false, go = false } = {}) {
  const table = mine && mine.table;
  const node = root.querySelector('[data-testid="my-table-start"]');
  if (!table || table === here || s.state !== "running") {
    if (node) node.hidden = true;
    announced = null;
    return;
  }
  const info = (s.tables || []).find((t) => t.table === table) || { number: "", start_at: null };
  const offset = s.now ? Date.parse(s.now) - Date.now() : 0;
  const shown = banner(root);
  shown.hidden = false;
  shown.querySelector('[data-testid="my-table-go"]').href = `/tables/${table}/`;
  const fresh = !announced || announced.table !== table;
  if (fresh) beep(root.dataset.me, true);
  announced = { table, go: go ? (fresh ? Date.now() + GO_AFTER_MS : announced.go) : null, last: fresh ? null : announced.last, info };
  const text = shown.querySelector('[data-testid="my-table-start-text"]');
  const tick = () => {
    if (!announced || announced.table !== table) return;
    const at = announced.info.start_at;
    const left = at ? Math.max(0, Math.ceil((Date.parse(at) - Date.now() - offset) / 1000)) : null;
    const where = moved
      ? fmt(gettext("You move to table %(n)s."), { n: announced.info.number })
      : fmt(gettext("Your table is table %(n)s."), { n: announced.info.number });
    const when = !left ? gettext("Its cards are dealt as soon as you are there.")
      : fmt(ngettext("Its first deal waits for you: %(s)s second at most.", "Its first deal waits for you: %(s)s seconds at most.", left), { s: left });
    text.textContent = `${where} ${when}`;
    shown.dataset.secondsLeft = left === null ? "" : String(left);
    if (left !== null && left <= 5 && left > 0 && announced.last !== left) beep(root.dataset.me, false);
    announced.last = left;
    if (announced.go !== null && Date.now() >= announced.go) {
      location.assign(`/tables/${table}/`);
      return;
    }
    if (left || announced.go !== null) setTimeout(tick, 250);
  };
  if (fresh) tick();
}
