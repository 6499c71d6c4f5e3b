// The middle of the table: what is happening now and what comes next, and Start for
// the host.
import { deadlineNote, timeoutNote } from "../draft.js";
import {
  $, config, deadline, el, emit, fmt, gettext, myRound, ngettext, now, on, playedIn, send, state,
} from "./core.js";
import { board, isDirty, outcomeAtDeadline, othersArranging } from "./arranging.js";
import { botsDue, tick } from "./clock.js";

/** From this long before the deadline the table says what the deadline will do. */
export const WARN_MS = 10_000;

/** The deadline warning now: {seconds, outcome}, or null (not in the last 10 s, or sent). */
function warning() {
  const round = state.round;
  if (!round || round.state !== "arranging") return null;
  const left = deadline() - now();
  if (left > WARN_MS || left <= 0) return null;
  const outcome = outcomeAtDeadline();
  return outcome ? { seconds: Math.ceil(left / 1000), outcome } : null;
}

export function renderCenter() {
  const round = state.round;
  const title = $("phase-title");
  const next = $("phase-next");
  const actions = $("center-actions");
  actions.replaceChildren();
  const seated = state.seats.length;
  // The creator, or whoever hosts now that the creator left (as of the last snapshot). A
  // tournament's table has no host (acting_host_id null): its own clock deals.
  const hosted = state.info && state.info.acting_host_id !== null && state.info.acting_host_id !== undefined;
  const isHost = hosted && (state.info.host_id === config.user || state.info.acting_host_id === config.user);
  const warn = warning();
  $("center").classList.toggle("urgent", !!warn);
  $("center").dataset.outcome = warn ? warn.outcome : "";
  if (warn) {
    // The last 10 s: what happens to my hand at the deadline, in words (and a sound, feel.js).
    title.textContent = fmt(ngettext("%(n)s second left!", "%(n)s seconds left!", warn.seconds), { n: warn.seconds });
    next.textContent = deadlineNote(warn.outcome);
  } else if (round && round.state === "arranging") {
    const mine = myRound();
    const waiting = othersArranging();
    title.textContent = fmt(gettext("Round %(n)s: arrange your cards"), { n: round.number });
    if (!mine) {
      title.textContent = fmt(gettext("Round %(n)s: players are arranging"), { n: round.number });
      next.textContent = gettext("The showdown starts when everyone is done or the time is up.");
    } else if (mine.status === "left") {
      next.textContent = gettext("You left this round; its result will show when it ends.");
    } else if (!board.arrangement || !board.arrangement.complete) {
      const left = board.arrangement ? board.arrangement.places.tray.length : 13;
      next.textContent = fmt(ngettext(
        "Place %(n)s more card: chi 1 strongest, chi 3 weakest. Then press Done.",
        "Place %(n)s more cards: chi 1 strongest, chi 3 weakest. Then press Done.", left), { n: left },
      );
    } else if (!mine.arrangement || isDirty()) {
      next.textContent = timeoutNote(state.info && state.info.rules);
    } else if (waiting === 0) {
      next.textContent = gettext("Sent. Everyone is done: the showdown is starting.");
    } else {
      next.textContent = fmt(ngettext(
        "Sent. Waiting for %(n)s player; you can still change your cards.",
        "Sent. Waiting for %(n)s players; you can still change your cards.", waiting), { n: waiting },
      );
    }
  } else if (round && round.state === "showdown") {
    const r = round.revealed;
    title.textContent = r === 0 ? gettext("Mậu binh!") : fmt(gettext("Showdown: chi %(n)s"), { n: r });
    next.textContent = r < 3 ? fmt(gettext("Chi %(n)s next."), { n: r + 1 }) : gettext("The results come next.");
  } else if (round && round.state === "cancelled") {
    title.textContent = fmt(gettext("Round %(n)s was voided"), { n: round.number });
    next.textContent = state.startAt ? gettext("The next round starts soon.") : gettext("Every stake was returned: nobody won or lost.");
  } else if (round && round.state === "settled") {
    title.textContent = playedIn(round)
      ? fmt(gettext("Round %(n)s is over"), { n: round.number })
      : fmt(gettext("The previous round (%(n)s) is over"), { n: round.number });
    next.textContent = state.startAt ? gettext("The next round starts soon.") : seated < 2 ? gettext("Waiting for players for the next round.") : "";
  } else if (state.startAt) {
    title.textContent = gettext("The round is about to start");
    next.textContent = gettext("Cards are dealt when the clock runs out.");
  } else if (botsDue() && state.you.seated) {
    // A wait that remains: the bots' arrival, counted down (the clock shows it too).
    const seconds = Math.max(1, Math.ceil((botsDue() - now()) / 1000));
    title.textContent = seated < 2 ? gettext("Waiting for another player") : gettext("Ready");
    next.textContent = fmt(ngettext("Bots take the free seats in %(n)s second.", "Bots take the free seats in %(n)s seconds.", seconds), { n: seconds });
  } else if (!state.you.seated) {
    title.textContent = gettext("Take a seat to play");
    next.textContent = gettext("Pick a free seat; the round starts when two players are seated.");
  } else if (seated < 2) {
    title.textContent = gettext("Waiting for another player");
    next.textContent = gettext("The round starts a few seconds after a second player sits down.");
  } else {
    title.textContent = gettext("Ready");
    next.textContent = isHost ? gettext("Press Start to deal now.") : gettext("Waiting for the host to start.");
  }
  const canStart = isHost && seated >= 2 && (!round || round.state === "settled" || round.state === "cancelled");
  if (canStart) {
    const start = el("button", "button gold", gettext("Start"));
    start.type = "button";
    start.id = "start-button";
    start.addEventListener("click", () => send({ type: "start" }));
    actions.append(start);
  }
  tick();
  reserveRoom(); // with the clock and the actions in place, as the round shows them
}

// While I arrange, the centre keeps the height of the longest thing it may say this round
// (the deadline warning's words included), so nothing below it moves when the last 10 s
// start or the words change: measured once a round and again when the width changes.
const OUTCOMES = ["resend", "keep", "foul", "draft", "last_draft", "engine"];
let reserved = "";

function reserveRoom() {
  const round = state.round;
  const center = $("center");
  if (!round || round.state !== "arranging" || !myRound()) return;
  const key = `${round.id}:${center.clientWidth}`;
  if (key === reserved || !center.clientWidth) return;
  const title = $("phase-title");
  const next = $("phase-next");
  const saved = { title: title.textContent, next: next.textContent, urgent: center.classList.contains("urgent") };
  const warnTitle = fmt(ngettext("%(n)s second left!", "%(n)s seconds left!", 10), { n: 10 });
  const arrangeNote = fmt(ngettext(
    "Place %(n)s more card: chi 1 strongest, chi 3 weakest. Then press Done.",
    "Place %(n)s more cards: chi 1 strongest, chi 3 weakest. Then press Done.", 13), { n: 13 },
  );
  const says = [
    ...OUTCOMES.map((outcome) => [warnTitle, deadlineNote(outcome), true]),
    [saved.title, arrangeNote, false],
    [saved.title, timeoutNote(state.info && state.info.rules), false],
    [saved.title, saved.next, saved.urgent],
  ];
  center.style.minHeight = "";
  let tallest = 0;
  for (const [head, note, urgent] of says) {
    title.textContent = head;
    next.textContent = note;
    center.classList.toggle("urgent", urgent);
    tallest = Math.max(tallest, center.offsetHeight);
  }
  title.textContent = saved.title;
  next.textContent = saved.next;
  center.classList.toggle("urgent", saved.urgent);
  center.style.minHeight = `${tallest}px`;
  reserved = key;
}

function measureAgain() {
  reserved = "";
  reserveRoom();
}
window.addEventListener("resize", measureAgain);
if (document.fonts) document.fonts.ready.then(measureAgain); // measured in the site's font

// The warning counts down and follows the board: redraw when what it says changes.
let shown = "";
on("tick", () => {
  const warn = warning();
  const bots = botsDue();
  const key = warn ? `${warn.seconds}:${warn.outcome}` : bots ? `bots:${Math.ceil((bots - now()) / 1000)}` : "";
  if (key === shown) return;
  const wasWarning = shown !== "" && !shown.startsWith("bots:");
  const starting = !!warn && !wasWarning;
  shown = key;
  renderCenter();
  if (starting) emit("warning", warn);
});
