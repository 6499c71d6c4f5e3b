// Live state from the server. The snapshot is the truth: every (re)connect and every
// version gap replaces the local state with it. A public event must carry version
// last + 1; the private ones ("cards", "submission") and the scheduled ones (a showdown's
// later chi, "scheduled": true) carry the version they follow.
import { DRAFT_REF, autoArrangedNote } from "../draft.js";
import {
  $, config, emit, gettext, live, myRound, now, on, requestSnapshot, setHeaderBalance, showError, state,
  syncClock, toast, endToast,
} from "./core.js";
import { board, clearSuggestions, resetBoard, setupBoard, showPlayed } from "./arranging.js";
import { renderSummary } from "./showdown.js";
import { tick } from "./clock.js";

const PRIVATE_EVENTS = new Set(["cards", "submission"]);
let pingSentAt = null;

on("message", (message) => {
  switch (message.type) {
    case "snapshot":
      applySnapshot(message);
      return;
    case "ok":
      if (message.server_now) syncClock(message.server_now, pingSentAt);
      if (typeof message.table_version === "number") behind(message.table_version);
      return;
    case "error":
      if (message.ref === DRAFT_REF) return; // a draft refused changes nothing the player sees
      if (message.code !== "rate_limited" || message.ref) showError(message.message);
      return;
    default:
      if (typeof message.version === "number") applyEvent(message);
  }
});

on("status", (status, detail) => {
  const banner = $("reconnect-banner");
  if (status === "open") {
    banner.hidden = true;
  } else if (status === "gone") {
    banner.hidden = false;
    $("reconnect-text").textContent =
      detail === 4401 ? gettext("You are logged out. Log in again to play.")
      : detail === 4403 ? gettext("This table is private: you need an invitation from its host.")
      : gettext("This table no longer exists.");
  } else {
    banner.hidden = false;
    $("reconnect-text").textContent = gettext("Connection lost. Reconnecting…");
  }
});

function applyEvent(event) {
  const isPrivate = PRIVATE_EVENTS.has(event.type) || event.scheduled === true;
  const expected = isPrivate ? state.version : state.version + 1;
  if (event.version < expected) return; // already in the last snapshot
  if (event.version > expected) {
    requestSnapshot(); // a gap: something was missed
    return;
  }
  if (!isPrivate) state.version = event.version;
  const apply = EVENTS[event.type];
  if (apply) apply(event);
  emit("event", event);
  emit("change");
}

/** A ping's reply says the table's version now. Events still on their way may overtake it
 * (a socket holds an early one up to 1.5 s), so look again a little later: still behind,
 * an event was lost (its server died between the commit and the publish), and a snapshot
 * catches up, without waiting for the table's next event to show the gap. */
const LOST_AFTER_MS = 3000;
let lostCheck = null;
function behind(version) {
  if (version <= state.version || lostCheck !== null) return;
  lostCheck = setTimeout(() => {
    lostCheck = null;
    if (state.version < version) requestSnapshot();
  }, LOST_AFTER_MS);
}

/** A seat changed at a table that lets bots in: they come `bot_wait_seconds` later (the
 * snapshot says when for a page that saw no change: `info.bots_at`). */
function botsComeLater() {
  const info = state.info;
  state.botsAt = info && info.allow_bots && info.bot_wait_seconds && !state.startAt
    ? new Date(now() + info.bot_wait_seconds * 1000).toISOString()
    : null;
}

const EVENTS = {
  seat_taken(e) {
    botsComeLater();
    state.seats = state.seats.filter((s) => s.position !== e.seat.position).concat([e.seat]);
    if (e.seat.user === config.user) state.you.seated = true;
  },
  seat_left(e) {
    botsComeLater();
    state.seats = state.seats.filter((s) => s.position !== e.position);
    if (e.user === config.user) {
      state.you.seated = false;
      if (e.reason === "away") toast(gettext("You were away, so you were stood up. Sit down again to play."));
      if (e.reason === "balance_too_low") toast(gettext("Your balance is below this table's minimum, so you were stood up."));
      if (e.reason === "removed") toast(gettext("The host removed you from this table."));
    }
  },
  presence(e) {
    const seat = state.seats.find((s) => s.position === e.position);
    if (seat) seat.online = e.online;
  },
  countdown(e) {
    state.startAt = e.start_at;
    if (e.start_at) state.botsAt = null;
    if ("between" in e) state.between = e.between; // who is ready, who asked to wait
  },
  round_started(e) {
    const mine = e.players.find((p) => p.user === config.user);
    state.startAt = null;
    state.between = null;
    state.botsAt = null;
    for (const p of e.players) {
      // The deal moved each player's hold out of the wallet (a snapshot already shows it).
      const seat = state.seats.find((s) => s.user === p.user);
      // Chips are not moved at the deal (only the settlement moves them).
      if (seat && config.stakes_in === "xu" && seat.balance != null) seat.balance = Math.max(0, seat.balance - p.hold);
      if (seat && p.user === config.user) setHeaderBalance(seat.balance);
    }
    state.round = {
      id: e.round,
      number: e.number,
      state: "arranging",
      deadline: e.deadline,
      revealed: 0,
      commitment: e.commitment,
      client_seeds: e.client_seeds,
      players: e.players.map((p) => ({ ...p, submitted: false, status: "playing" })),
      you: mine ? { position: mine.position, cards: null, arrangement: null, foul: false, status: "playing" } : null,
    };
    resetBoard();
    $("summary").hidden = true;
  },
  cards(e) {
    if (state.round && state.round.id === e.round && state.round.you) {
      state.round.you.cards = e.cards;
      setupBoard(true);
    }
  },
  submitted(e) {
    const p = state.round && state.round.players.find((x) => x.position === e.position);
    if (p) p.submitted = true;
  },
  submission(e) {
    if (state.round && state.round.id === e.round && state.round.you) {
      state.round.you.arrangement = e.chi;
      state.round.you.foul = e.foul;
      if (e.auto_arranged) { // played for me at the deadline: show what was played
        state.round.you.auto_arranged = e.auto_arranged;
        showPlayed(e.chi);
      }
    }
  },
  player_left(e) {
    const p = state.round && state.round.players.find((x) => x.position === e.position);
    if (p) p.status = "left";
    if (state.round && state.round.you && state.round.you.position === e.position) state.round.you.status = "left";
  },
  reveal(e) {
    if (!state.round || state.round.id !== e.round) return requestSnapshot();
    if (e.scheduled && e.revealed <= (state.round.revealed || 0)) return; // shown already
    const first = state.round.state !== "showdown";
    state.round.state = "showdown";
    state.round.revealed = e.revealed;
    state.round.deadline = e.deadline;
    state.round.reveal = e;
    state.flip = { round: e.round, chi: e.revealed, until: Date.now() + 900 };
    board.setLocked(true);
    if (first) {
      clearSuggestions();
      // "Sent, you can still change it" is no longer true once the cards are shown.
      endToast();
      if (e.instants.length) toast(gettext("Mậu binh! Instant wins are settled first."));
      const mine = myRound();
      const by = mine && (e.auto_arranged || {})[mine.position];
      if (by) toast(autoArrangedNote(by));
    }
  },
  settled(e) {
    if (!state.round || state.round.id !== e.round) return requestSnapshot();
    state.round.state = "settled";
    state.round.deadline = null;
    state.between = null;
    state.round.summary = e;
    for (const row of e.players) {
      const seat = state.seats.find((s) => s.user === row.user);
      // A withheld summary carries no balance (it would tell the board's result).
      if (seat) seat.balance = row.balance ?? null;
      if (row.user === config.user && row.balance != null) setHeaderBalance(row.balance);
    }
    renderSummary(true);
  },
  voided(e) {
    if (!state.round || state.round.id !== e.round) return requestSnapshot();
    state.round.state = "cancelled";
    state.round.deadline = null;
    state.between = null;
    state.round.voided = e;
    for (const row of e.players) {
      const seat = state.seats.find((s) => s.user === row.user);
      if (seat) seat.balance = row.balance ?? null;
      if (row.user === config.user && row.balance != null) setHeaderBalance(row.balance);
    }
    board.setLocked(true);
    renderSummary(true);
  },
};

function applySnapshot(snap) {
  syncClock(snap.server_now);
  state.version = snap.version;
  state.info = snap.info;
  state.seats = snap.seats;
  state.you = snap.you;
  state.startAt = snap.start_at;
  state.between = snap.between || null;
  state.botsAt = snap.info.bots_at || null;
  const previous = state.round;
  state.round = snap.round;
  if (state.round && previous && previous.id !== state.round.id) board.roundId = null;
  const me = state.seats.find((s) => s.user === config.user);
  if (me) setHeaderBalance(me.balance);
  $("table-page").dataset.state = "live";
  setupBoard();
  emit("change");
  if (state.round && (state.round.state === "settled" || state.round.state === "cancelled")) renderSummary(false);
}

setInterval(() => {
  if (live.open) {
    pingSentAt = Date.now();
    live.send({ type: "ping" });
  }
}, 15000);

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") {
    live.nudge();
    requestSnapshot();
    tick();
  }
});
