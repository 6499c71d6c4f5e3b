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
