// The countdown ring: the server's deadline against the server's clock, redrawn four
// times a second from absolute times (right after a reconnect or a background tab).
import { $, emit, fmt, ngettext, now, rules, state } from "./core.js";
import { lockWhenLate, maybeAutoSubmit } from "./arranging.js";

const SUMMARY_SECONDS = 12;

/** When bots take the free seats, while that is still ahead (ms, the server's clock). */
export function botsDue() {
  if (!state.botsAt || state.startAt || (state.round && !["settled", "cancelled"].includes(state.round.state))) return null;
  if (state.seats.length >= (state.info ? state.info.seats : 4)) return null;
  const at = Date.parse(state.botsAt);
  return at > now() ? at : null;
}

function clockTarget() {
  const round = state.round;
  const r = rules();
  if (round && (round.state === "arranging" || round.state === "showdown") && round.deadline) {
    return { end: Date.parse(round.deadline), total: (round.state === "arranging" ? r.arrange_seconds : r.reveal_seconds) * 1000 };
  }
  if (state.startAt) {
    const end = Date.parse(state.startAt);
    return { end, total: Math.max(r.start_seconds, SUMMARY_SECONDS) * 1000 };
  }
  const bots = botsDue();
  if (bots) return { end: bots, total: ((state.info && state.info.bot_wait_seconds) || 5) * 1000 };
  return null;
}

export function tick() {
  const target = clockTarget();
  const clock = $("clock");
  if (!target) {
    clock.hidden = true;
  } else {
    const left = Math.max(0, target.end - now());
    clock.hidden = false;
    const fraction = Math.min(1, left / Math.max(1, target.total));
    const circumference = 2 * Math.PI * 19;
    const hand = $("clock-hand");
    hand.style.strokeDasharray = `${circumference}`;
    hand.style.strokeDashoffset = `${circumference * (1 - fraction)}`;
    clock.classList.toggle("urgent", left < 10000 && state.round && state.round.state === "arranging");
    const seconds = Math.ceil(left / 1000);
    $("clock-text").textContent = String(seconds);
    clock.setAttribute("aria-label", fmt(ngettext("%(n)s second left", "%(n)s seconds left", seconds), { n: seconds }));
  }
  maybeAutoSubmit();
  lockWhenLate();
  emit("tick");
}

setInterval(tick, 250);
