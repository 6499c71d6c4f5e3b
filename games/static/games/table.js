// The table page: live state from the websocket, the arranging area, the showdown and
// the summary. The server's snapshot is the truth: every (re)connect and every version
// gap replaces the local state with it. Clocks are the server's (deadlines + offset).
import { cardElement } from "./cards.js";
import { eval3, eval5, findInstant, handName, instantName, isFoul } from "./hands.js";
import { Arrangement, ArrangeBoard } from "./arrange.js";
import { Live } from "./live.js";
import { untilAnswered } from "./resend.js";
import { DRAFT_REF, DraftSender, autoArrangedBadge, autoArrangedNote, layoutToRestore, shouldAutoSubmit, timeoutNote } from "./draft.js";
import { breakdownLine, scoopList } from "./results.js";

// Django's JavaScript catalog (/jsi18n/) defines gettext, ngettext and interpolate.
const { gettext, ngettext } = window;
const fmt = (text, values) => window.interpolate(text, values, true);
const LANG = document.documentElement.lang || "vi";
const number = new Intl.NumberFormat(LANG === "en" ? "en-US" : "vi-VN");
const xu = (n) => `${n < 0 ? "−" : ""}${number.format(Math.abs(n))}`;
const signed = (n) => `${n > 0 ? "+" : n < 0 ? "−" : "±"}${number.format(Math.abs(n))}`;
const $ = (id) => document.getElementById(id);
const el = (tag, className = "", text = null) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null) node.textContent = text;
  return node;
};

const config = JSON.parse($("table-config").textContent);
const tableRules = JSON.parse($("table-rules").textContent);
const PRIVATE_EVENTS = new Set(["cards", "submission"]);
const SUMMARY_SECONDS = 6;
const AUTO_SUBMIT_MS = 2500;
// Bonus names in the page's language, from games.rules (games.views.table puts them in config).
const BONUS_NAMES = config.bonus_names || {};

const state = {
  version: -1,
  offset: 0,
  info: null,
  seats: [],
  you: { user: config.user, seated: false },
  startAt: null,
  round: null,
  connected: false,
  submitting: false,
  autoSubmitted: null,
  suggestions: null,
};

// --- the arranging board ---------------------------------------------------------------

const board = new ArrangeBoard({
  rows: { 1: $("row-1-cards"), 2: $("row-2-cards"), 3: $("row-3-cards"), tray: $("tray") },
  labels: { 1: $("row-1-button"), 2: $("row-2-button"), 3: $("row-3-button"), tray: $("tray-button") },
  onChange: () => {
    saveDraft();
    drafts.changed(state.round, board.arrangement, state.version);
    renderArrangeInfo();
    renderActions();
    renderCenter();
  },
  say: (text) => toast(text),
});

const draftKey = (roundId) => `maubinh:draft:${config.table}:${roundId}`;

function saveDraft() {
  const round = state.round;
  if (!round || !board.arrangement) return;
  try {
    sessionStorage.setItem(draftKey(round.id), JSON.stringify(board.arrangement.chi));
  } catch { /* private mode: a draft is a convenience */ }
}

function loadDraft(roundId) {
  try {
    return JSON.parse(sessionStorage.getItem(draftKey(roundId)) || "null");
  } catch {
    return null;
  }
}

/** (Re)build the board for my cards in the current round. */
function setupBoard() {
  const mine = myRound();
  if (!mine || !mine.cards) {
    board.load(null);
    return;
  }
  const played = mine.auto_arranged && !sameChi(board.arrangement && board.arrangement.chi, mine.arrangement);
  if (board.roundId === state.round.id && board.arrangement && !played) {
    board.setLocked(!canArrange());
    return;
  }
  board.roundId = state.round.id;
  const chi = layoutToRestore(loadDraft(state.round.id), mine, state.round);
  drafts.known(state.round.id, mine.draft);
  board.load(Arrangement.restore(mine.cards, chi));
  board.locked = !canArrange();
  board.render();
  state.suggestions = null;
  renderSuggestions();
}

function myRound() {
  return state.round && state.round.you ? state.round.you : null;
}

function amPlaying() {
  const mine = myRound();
  return !!mine && mine.status === "playing";
}

function canArrange() {
  return state.round && state.round.state === "arranging" && amPlaying() && now() < deadline();
}

const sameChi = (a, b) => !!a && !!b && JSON.stringify(a) === JSON.stringify(b);

function isDirty() {
  const mine = myRound();
  return !!board.arrangement && !sameChi(board.arrangement.chi, mine && mine.arrangement);
}

// --- time --------------------------------------------------------------------------------

const now = () => Date.now() + state.offset;
const deadline = () => (state.round && state.round.deadline ? Date.parse(state.round.deadline) : 0);

function syncClock(serverNow, sentAt = null) {
  const received = Date.now();
  const middle = sentAt === null ? received : (sentAt + received) / 2;
  state.offset = Date.parse(serverNow) - middle;
}

// --- connection ----------------------------------------------------------------------------

const live = new Live(config.ws, {
  onMessage: handle,
  onStatus: (status, detail) => {
    state.connected = status === "open";
    const banner = $("reconnect-banner");
    if (status === "open") {
      banner.hidden = true;
    } else if (status === "gone") {
      banner.hidden = false;
      $("reconnect-text").textContent = detail === 4401 ? gettext("You are logged out. Log in again to play.") : gettext("This table no longer exists.");
    } else {
      banner.hidden = false;
      $("reconnect-text").textContent = gettext("Connection lost. Reconnecting…");
    }
    renderActions();
  },
});

const drafts = new DraftSender(live);

function requestSnapshot() {
  live.send({ type: "snapshot" });
}

function handle(message) {
  switch (message.type) {
    case "snapshot":
      applySnapshot(message);
      return;
    case "ok":
      if (message.server_now) syncClock(message.server_now, pingSentAt);
      return;
    case "error":
      if (message.ref === DRAFT_REF) return; // a draft refused changes nothing the player sees
      if (message.code !== "rate_limited" || message.ref) showError(message.message);
      return;
    default:
      if (typeof message.version === "number") applyEvent(message);
  }
}

function applyEvent(event) {
  const isPrivate = PRIVATE_EVENTS.has(event.type);
  const expected = isPrivate ? state.version : state.version + 1;
  if (event.version < expected) return; // already in the last snapshot
  if (event.version > expected) {
    requestSnapshot(); // a gap: something was missed
    return;
  }
  if (!isPrivate) state.version = event.version;
  const apply = EVENTS[event.type];
  if (apply) apply(event);
  render();
}

const EVENTS = {
  seat_taken(e) {
    state.seats = state.seats.filter((s) => s.position !== e.seat.position).concat([e.seat]);
    if (e.seat.user === config.user) state.you.seated = true;
  },
  seat_left(e) {
    state.seats = state.seats.filter((s) => s.position !== e.position);
    if (e.user === config.user) {
      state.you.seated = false;
      if (e.reason === "away") toast(gettext("You were away, so you were stood up. Sit down again to play."));
      if (e.reason === "balance_too_low") toast(gettext("Your balance is below this table's minimum, so you were stood up."));
    }
  },
  presence(e) {
    const seat = state.seats.find((s) => s.position === e.position);
    if (seat) seat.online = e.online;
  },
  countdown(e) {
    state.startAt = e.start_at;
  },
  round_started(e) {
    const mine = e.players.find((p) => p.user === config.user);
    state.startAt = null;
    for (const p of e.players) {
      // The deal moved each player's hold out of the wallet (a snapshot already shows it).
      const seat = state.seats.find((s) => s.user === p.user);
      if (seat) seat.balance = Math.max(0, seat.balance - p.hold);
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
    state.autoSubmitted = null;
    board.roundId = null;
    board.load(null); // the new cards follow in a private "cards" event
    $("summary").hidden = true;
  },
  cards(e) {
    if (state.round && state.round.id === e.round && state.round.you) {
      state.round.you.cards = e.cards;
      setupBoard();
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
        board.load(Arrangement.restore(state.round.you.cards, e.chi));
        board.setLocked(true);
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
    const first = state.round.state !== "showdown";
    state.round.state = "showdown";
    state.round.revealed = e.revealed;
    state.round.deadline = e.deadline;
    state.round.reveal = e;
    board.setLocked(true);
    if (first) announceShowdown(e);
  },
  settled(e) {
    if (!state.round || state.round.id !== e.round) return requestSnapshot();
    state.round.state = "settled";
    state.round.deadline = null;
    state.round.summary = e;
    for (const row of e.players) {
      const seat = state.seats.find((s) => s.user === row.user);
      if (seat) seat.balance = row.balance;
      if (row.user === config.user) setHeaderBalance(row.balance);
    }
    renderSummary(true);
  },
  voided(e) {
    if (!state.round || state.round.id !== e.round) return requestSnapshot();
    state.round.state = "cancelled";
    state.round.deadline = null;
    state.round.voided = e;
    for (const row of e.players) {
      const seat = state.seats.find((s) => s.user === row.user);
      if (seat) seat.balance = row.balance;
      if (row.user === config.user) setHeaderBalance(row.balance);
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
  const previous = state.round;
  state.round = snap.round;
  if (state.round && previous && previous.id !== state.round.id) board.roundId = null;
  const me = state.seats.find((s) => s.user === config.user);
  if (me) setHeaderBalance(me.balance);
  $("table-page").dataset.state = "live";
  setupBoard();
  render();
  if (state.round && (state.round.state === "settled" || state.round.state === "cancelled")) renderSummary(false);
}

function setHeaderInPlay(hold) {
  // The header says the held stake is in play, not lost (base.html's ledger wallet).
  const node = document.querySelector("[data-testid=header-in-play]");
  if (!node) return;
  node.hidden = !(hold > 0);
  if (hold > 0) node.textContent = fmt(gettext("+ %(x)s in play"), { x: xu(hold) });
}

function setHeaderBalance(balance) {
  const node = document.querySelector("[data-testid=header-balance]");
  if (node) node.textContent = fmt(gettext("%(balance)s xu"), { balance: xu(balance) });
}

// --- actions --------------------------------------------------------------------------------

async function send(message) {
  const reply = await live.request(message);
  if (reply.type === "error" && reply.code === "disconnected") showError(gettext("Not connected. Reconnecting…"));
  else if (reply.type === "error" && reply.code === "timeout") showError(gettext("The server did not answer. Please try again."));
  return reply;
}

// One `sit` per intent: clicks while a sit is on its way send nothing more.
let sitting = null;
function sitOnce(message) {
  if (!sitting) sitting = send(message).finally(() => { sitting = null; });
  return sitting;
}

async function submit({ auto = false } = {}) {
  if (!board.arrangement || !board.arrangement.complete || !state.round) return;
  state.submitting = true;
  renderActions();
  const chi = board.arrangement.chi;
  const round = state.round.id;
  const reply = await untilAnswered(live, { type: "submit", round, chi, version: state.version }, {
    stillWanted: () => state.round && state.round.id === round && state.round.state !== "settled",
  });
  state.submitting = false;
  if (reply.type === "error" && (reply.code === "timeout" || reply.code === "disconnected")) showError(gettext("The server did not answer. Please try again."));
  if (reply.type === "ok") {
    const mine = myRound();
    if (mine) mine.arrangement = chi;
    toast(auto ? gettext("Time is nearly up: your arrangement was sent.") : gettext("Sent. You can still change it until the time is up."));
  }
  render();
}

function showError(text) {
  const banner = $("error-banner");
  banner.textContent = text;
  banner.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { banner.hidden = true; }, 6000);
}

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => box.classList.remove("show"), 3500);
}

$("submit").addEventListener("click", () => submit());
$("sort-rank").addEventListener("click", () => { board.arrangement.sort("rank"); board.changed("sort"); });
$("sort-suit").addEventListener("click", () => { board.arrangement.sort("suit"); board.changed("sort"); });
$("clear").addEventListener("click", () => { board.arrangement.clear(); board.selected.clear(); board.changed("clear"); });
$("suggest").addEventListener("click", loadSuggestions);

async function loadSuggestions() {
  if (!state.round) return;
  const box = $("suggestions");
  box.hidden = false;
  box.replaceChildren(el("p", "muted", gettext("Looking for the best arrangements…")));
  $("suggest").disabled = true;
  try {
    const url = config.suggest.replace("/0/", `/${state.round.id}/`);
    const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    const data = await response.json();
    if (!response.ok) {
      box.replaceChildren(el("p", "error", data.message || gettext("No suggestions right now.")));
      return;
    }
    state.suggestions = data.suggestions;
    renderSuggestions();
  } catch {
    box.replaceChildren(el("p", "error", gettext("No suggestions right now.")));
  } finally {
    $("suggest").disabled = !canArrange();
  }
}

function renderSuggestions() {
  const box = $("suggestions");
  const list = state.suggestions;
  if (!list) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  const heading = el("h3", "", gettext("Suggestions"));
  const items = el("ol", "suggestion-list");
  list.forEach((s, index) => {
    const li = el("li");
    const button = el("button", "suggestion");
    button.type = "button";
    button.dataset.index = String(index);
    const title = el("span", "suggestion-title", fmt(gettext("Suggestion %(n)s"), { n: index + 1 }));
    button.append(title);
    if (s.instant) button.append(el("span", "badge gold", fmt(gettext("Mậu binh: %(name)s"), { name: instantName(s.instant) })));
    s.chi.forEach((part, i) => {
      const line = el("span", "suggestion-chi");
      line.append(el("b", "", fmt(gettext("Chi %(n)s"), { n: i + 1 })));
      const cards = el("span", "mini-cards");
      for (const code of part) cards.append(cardElement(code, { size: "xs" }));
      line.append(cards);
      const v = i < 2 ? eval5(part, tableRules.preset) : eval3(part);
      line.append(el("span", "suggestion-name", handName(v)));
      line.append(el("span", "suggestion-win", fmt(gettext("win %(p)s"), { p: `${Math.round(s.win[i] * 100)}%` })));
      button.append(line);
    });
    button.addEventListener("click", () => {
      board.arrangement.apply(s.chi);
      board.selected.clear();
      board.changed("suggestion");
      toast(gettext("Suggestion applied. Press Done to send it."));
      $("submit").focus();
    });
    li.append(button);
    items.append(li);
  });
  box.replaceChildren(heading, items);
}

// --- leaving ---------------------------------------------------------------------------------

$("leave-button").addEventListener("click", () => {
  $("leave-cost").textContent = leaveCost();
  $("leave-dialog").showModal();
});

$("leave-dialog").addEventListener("close", async () => {
  if ($("leave-dialog").returnValue !== "leave") return;
  if (!state.you.seated) {
    location.href = config.lobby;
    return;
  }
  const reply = await send({ type: "leave" });
  if (reply.type === "ok") location.href = config.lobby;
});

function leaveCost() {
  const round = state.round;
  const stake = state.info ? state.info.stake : 0;
  if (!state.you.seated) return gettext("You are watching; leaving costs nothing.");
  if (!round || !amPlaying() || round.state === "settled") return gettext("No round is being played: leaving now costs nothing.");
  const opponents = round.players.filter((p) => p.position !== round.you.position && p.status === "playing").length;
  const mine = round.players.find((p) => p.position === round.you.position);
  const hold = mine ? mine.hold : 0;
  if (round.state === "arranging") {
    return fmt(
      gettext("The round is being played. Leaving now forfeits all three chi to each of your %(n)s opponent(s): you lose at least %(min)s xu, and bonuses can make it more (never more than the %(hold)s xu held for this round)."),
      { n: opponents, min: xu(3 * stake * opponents), hold: xu(hold) },
    );
  }
  const left = 3 - (round.revealed || 0);
  if (left <= 0) return gettext("The showdown is almost over: leaving now changes nothing in this round's result.");
  return fmt(
    gettext("The showdown has started. Leaving now forfeits the %(left)s chi not yet revealed to each opponent (at most the %(hold)s xu held for this round)."),
    { left, hold: xu(hold) },
  );
}

// --- options -----------------------------------------------------------------------------------

const fourColor = $("four-color");
fourColor.checked = localStorage.getItem("maubinh:four-color") === "1";
document.body.classList.toggle("four-color", fourColor.checked);
fourColor.addEventListener("change", () => {
  document.body.classList.toggle("four-color", fourColor.checked);
  localStorage.setItem("maubinh:four-color", fourColor.checked ? "1" : "0");
});

$("seed-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const seed = $("client-seed").value.trim();
  if (!seed) return;
  const reply = await send({ type: "client_seed", seed });
  if (reply.type === "ok") toast(gettext("Your client seed will be used in the next deal."));
});

// --- rendering ------------------------------------------------------------------------------------

function render() {
  renderSeats();
  renderCenter();
  renderMe();
  renderArrangeInfo();
  renderActions();
  renderStage();
  $("commitment").textContent = state.round ? state.round.commitment : "—";
}

/** Seats placed around me: me at the bottom, the others clockwise from my left. */
function seatOrder() {
  const total = state.info ? state.info.seats : 4;
  const mine = state.seats.find((s) => s.user === config.user);
  const base = mine ? mine.position : 0;
  const order = [];
  for (let i = 1; i < total; i++) order.push((base + i) % total);
  return { me: mine ? base : null, others: mine ? order : [...Array(total).keys()] };
}

function roundPlayer(position) {
  return state.round ? state.round.players.find((p) => p.position === position) : null;
}

function seatStatus(seat, player) {
  const round = state.round;
  if (!seat.online) return ["away", gettext("Disconnected")];
  if (!player || !round || round.state === "settled" || round.state === "cancelled") return ["idle", gettext("Waiting")];
  if (player.status === "left") return ["left", gettext("Left")];
  if (round.state === "arranging") return player.submitted ? ["done", gettext("Done")] : ["busy", gettext("Arranging")];
  return ["show", gettext("Showdown")];
}

function renderSeats() {
  const box = $("opponents");
  box.replaceChildren();
  const { others } = seatOrder();
  const slots = ["left", "top", "right"];
  others.forEach((position, index) => {
    const seat = state.seats.find((s) => s.position === position);
    const node = el("section", `seat seat-${others.length === 1 ? "top" : slots[index] || "top"}`);
    node.dataset.position = String(position);
    if (!seat) {
      node.classList.add("seat-empty");
      node.setAttribute("aria-label", fmt(gettext("Seat %(n)s: free"), { n: position + 1 }));
      if (!state.you.seated) {
        const sit = el("button", "button gold sit", gettext("Sit here"));
        sit.type = "button";
        sit.addEventListener("click", () => sitOnce({ type: "sit", position }));
        node.append(sit);
      } else {
        node.append(el("span", "muted", gettext("Free seat")));
      }
      box.append(node);
      return;
    }
    node.setAttribute("aria-label", fmt(gettext("Seat %(n)s: %(name)s"), { n: position + 1, name: seat.name }));
    node.append(seatHead(seat, roundPlayer(position)));
    node.append(seatHand(position));
    box.append(node);
  });
}

function seatHead(seat, player) {
  const head = el("div", "seat-head");
  const avatar = el("span", "avatar", (seat.name || "?").trim().charAt(0).toUpperCase());
  avatar.setAttribute("aria-hidden", "true");
  const who = el("div", "who");
  const name = el("span", "name", seat.name);
  if (seat.is_bot) {
    // A bot says so on its seat, with its level (easy / normal) for the curious.
    const level = seat.difficulty === "easy" ? gettext("easy") : gettext("normal");
    const tag = el("span", "badge bot-badge", gettext("Bot"));
    tag.title = fmt(gettext("A bot (%(level)s level)"), { level });
    tag.setAttribute("aria-label", tag.title);
    name.append(" ", tag);
  }
  who.append(name);
  if (seat.user !== config.user) {
    const report = el("a", "report-link", gettext("Report"));
    report.href = `${config.report.replace("/0/", `/${seat.user}/`)}?table=${config.table}`;
    report.target = "_blank";
    report.rel = "noopener";
    who.append(report);
  }
  who.append(el("span", "balance", `${xu(seat.balance)} xu`));
  const live = state.round && (state.round.state === "arranging" || state.round.state === "showdown");
  if (seat.user === config.user) setHeaderInPlay(live && player ? player.hold : 0);
  if (live && player && player.hold > 0 && seat.user === config.user) {
    // The wallet shows what is left; say where the rest is until the round is paid.
    who.append(el("span", "held", fmt(gettext("%(x)s xu held for this round"), { x: xu(player.hold) })));
  }
  const [kind, label] = seatStatus(seat, player);
  const badge = el("span", `badge status-${kind}`, label);
  head.append(avatar, who, badge);
  const delta = playerDelta(seat.position);
  if (delta !== null) head.append(el("span", `delta ${delta > 0 ? "win" : delta < 0 ? "lose" : ""}`, `${signed(delta)} xu`));
  return head;
}

/** An opponent's three chi: face down while arranging, revealed chi by chi. */
function seatHand(position) {
  const wrap = el("div", "mini-rows");
  const round = state.round;
  const player = roundPlayer(position);
  if (!round || !player) return wrap;
  const reveal = round.reveal;
  const instant = reveal && reveal.instants.find((i) => i.position === position);
  if (instant) {
    const line = el("div", "mini-row instant");
    const cards = el("span", "mini-cards wrap");
    for (const code of instant.cards) cards.append(cardElement(code, { size: "xs" }));
    line.append(cards, el("span", "hand-name gold", instantName(instant.kind)));
    wrap.append(line);
    return wrap;
  }
  [5, 5, 3].forEach((count, i) => {
    const line = el("div", "mini-row");
    const cards = el("span", "mini-cards");
    const shown = reveal && reveal.chi[i] && reveal.chi[i].hands.find((h) => h.position === position);
    if (shown && shown.hand) {
      for (const code of shown.hand.cards) cards.append(cardElement(code, { size: "xs" }));
      line.append(cards, el("span", "hand-name", LANG === "en" ? shown.hand.name_en : shown.hand.name_vi));
      if (i === round.revealed - 1) line.classList.add("current");
    } else {
      for (let k = 0; k < count; k++) cards.append(cardElement("", { size: "xs", faceDown: true }));
      line.append(cards);
      if (shown && !shown.hand) line.append(el("span", "hand-name muted", player.status === "left" ? gettext("Left") : gettext("No arrangement")));
    }
    wrap.append(line);
  });
  if (reveal && reveal.fouls.includes(position)) wrap.append(el("span", "badge danger", gettext("Binh lủng")));
  if (reveal && (reveal.auto_arranged || {})[position]) wrap.append(autoArrangedBadge(reveal.auto_arranged[position]));
  return wrap;
}

/** Net xu of a player over the chi revealed so far (sập once every chi is shown; before limits). */
function playerDelta(position) {
  const round = state.round;
  if (!round) return null;
  if (round.summary) {
    const row = round.summary.players.find((p) => p.position === position);
    return row ? row.xu : null;
  }
  const reveal = round.reveal;
  if (!reveal || !roundPlayer(position)) return null;
  const stake = state.info.stake;
  let total = 0;
  for (const pair of reveal.instant_pairs) {
    if (pair.a === position) total += pair.units * stake;
    if (pair.b === position) total -= pair.units * stake;
  }
  for (const chi of reveal.chi) {
    for (const pair of chi.pairs) {
      if (pair.a === position) total += pair.xu;
      if (pair.b === position) total -= pair.xu;
    }
  }
  return total + ((reveal.scoop_xu || {})[position] || 0); // what the sập multipliers add
}

function nameOf(position) {
  const p = roundPlayer(position);
  const seat = state.seats.find((s) => (p ? s.user === p.user : s.position === position));
  if (p && p.user === config.user) return gettext("You");
  if (seat) return seat.name;
  const row = state.round && state.round.summary && state.round.summary.players.find((r) => r.position === position);
  return row ? row.name : fmt(gettext("Seat %(n)s"), { n: position + 1 });
}

function renderMe() {
  const head = $("me-head");
  head.replaceChildren();
  const mine = state.seats.find((s) => s.user === config.user);
  const section = $("me");
  section.classList.toggle("spectator", !mine);
  if (!mine) {
    head.append(el("p", "muted", state.seats.length >= (state.info ? state.info.seats : 4) ? gettext("The table is full; you are watching.") : gettext("You are watching. Choose a free seat to play.")));
    const sit = el("button", "button gold", gettext("Sit down"));
    sit.type = "button";
    sit.id = "sit-button";
    sit.disabled = state.info && state.seats.length >= state.info.seats;
    sit.addEventListener("click", () => sitOnce({ type: "sit" }));
    head.append(sit);
    return;
  }
  head.append(seatHead(mine, roundPlayer(mine.position)));
  const by = state.round && state.round.you && state.round.you.auto_arranged;
  if (by && state.round.state !== "arranging") head.append(autoArrangedBadge(by));
}

function rowValues(chi) {
  return [
    chi[0].length === 5 ? eval5(chi[0], tableRules.preset) : null,
    chi[1].length === 5 ? eval5(chi[1], tableRules.preset) : null,
    chi[2].length === 3 ? eval3(chi[2]) : null,
  ];
}

function renderArrangeInfo() {
  const a = board.arrangement;
  const me = $("me");
  me.classList.toggle("has-cards", !!a);
  const warning = $("foul-warning");
  const instantBox = $("instant-banner");
  if (!a) {
    warning.hidden = true;
    instantBox.hidden = true;
    for (const n of [1, 2, 3]) $(`row-${n}-hand`).textContent = "";
    return;
  }
  const chi = a.chi;
  const values = rowValues(chi);
  values.forEach((v, i) => {
    $(`row-${i + 1}-hand`).textContent = v === null ? fmt(gettext("%(n)s more"), { n: a.room(String(i + 1)) }) : handName(v);
  });
  const foul = (values[0] !== null && values[1] !== null && values[1] > values[0]) || (values[1] !== null && values[2] !== null && values[2] > values[1]);
  warning.hidden = !foul;
  me.classList.toggle("is-foul", foul);
  if (foul) {
    $("foul-text").textContent = values[1] !== null && values[0] !== null && values[1] > values[0]
      ? gettext("Chi 2 is stronger than chi 1: this arrangement loses every chi. Swap them or rearrange.")
      : gettext("Chi 3 is stronger than chi 2: this arrangement loses every chi. Rearrange before the time is up.");
  }
  const kind = findInstant(a.cards, state.info ? state.info.rules : tableRules, a.complete ? chi : null);
  instantBox.hidden = !kind;
  if (kind) {
    const payout = (state.info ? state.info.rules : tableRules).instant[kind];
    instantBox.replaceChildren(
      el("strong", "", fmt(gettext("Mậu binh: %(name)s!"), { name: instantName(kind) })),
      el("span", "", fmt(ngettext(
        "You win %(units)s chi from every opponent at the showdown, before any chi is compared.",
        "You win %(units)s chi from every opponent at the showdown, before any chi is compared.", payout), { units: payout },
      )),
    );
  }
}

function renderActions() {
  const a = board.arrangement;
  const arranging = canArrange();
  const mine = myRound();
  for (const id of ["sort-rank", "sort-suit", "clear", "suggest"]) $(id).disabled = !arranging || !a;
  $("suggest").hidden = !config.can_suggest;
  const submit = $("submit");
  submit.disabled = !arranging || !a || !a.complete || state.submitting || !state.connected;
  const sent = mine && mine.arrangement;
  submit.textContent = sent && isDirty() ? gettext("Done: send changes") : sent ? gettext("Sent ✓") : gettext("Done");
  if (sent && !isDirty()) submit.disabled = true;
  $("actions").hidden = !a || !(state.round && state.round.state === "arranging" && amPlaying());
  $("arrange-hint").hidden = !arranging;
  $("rows").parentElement.classList.toggle("locked", !arranging);
}

function renderCenter() {
  const round = state.round;
  const title = $("phase-title");
  const next = $("phase-next");
  const actions = $("center-actions");
  actions.replaceChildren();
  const seated = state.seats.length;
  const isHost = state.info && state.info.host_id === config.user;
  if (round && round.state === "arranging") {
    const mine = myRound();
    const waiting = round.players.filter((p) => p.status === "playing" && !p.submitted).length;
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
    title.textContent = fmt(gettext("Round %(n)s is over"), { n: round.number });
    next.textContent = state.startAt ? gettext("The next round starts soon.") : seated < 2 ? gettext("Waiting for players for the next round.") : "";
  } else if (state.startAt) {
    title.textContent = gettext("The round is about to start");
    next.textContent = gettext("Cards are dealt when the clock runs out.");
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
}

// The countdown ring: the server's deadline against the server's clock.
function clockTarget() {
  const round = state.round;
  const rules = state.info ? state.info.rules : tableRules;
  if (round && (round.state === "arranging" || round.state === "showdown") && round.deadline) {
    return { end: Date.parse(round.deadline), total: (round.state === "arranging" ? rules.arrange_seconds : rules.reveal_seconds) * 1000 };
  }
  if (state.startAt) {
    const end = Date.parse(state.startAt);
    return { end, total: Math.max(rules.start_seconds, SUMMARY_SECONDS) * 1000 };
  }
  return null;
}

let pingSentAt = null;

function tick() {
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
  if (state.round && state.round.state === "arranging" && !canArrange() && !board.locked && board.arrangement) {
    board.setLocked(true);
    renderActions();
  }
}

function maybeAutoSubmit() {
  const round = state.round;
  if (!round || round.state !== "arranging" || !amPlaying() || state.submitting) return;
  const a = board.arrangement;
  if (!a || !a.complete || !isDirty() || state.autoSubmitted === JSON.stringify(a.chi)) return;
  if (!shouldAutoSubmit(myRound(), a, tableRules.preset)) return; // the server plays the draft
  const left = deadline() - now();
  if (left > 0 && left < AUTO_SUBMIT_MS) {
    state.autoSubmitted = JSON.stringify(a.chi);
    submit({ auto: true });
  }
}

setInterval(tick, 250);
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

// --- showdown and summary -------------------------------------------------------------------

function announceShowdown(reveal) {
  state.suggestions = null;
  renderSuggestions();
  if (reveal.instants.length) toast(gettext("Mậu binh! Instant wins are settled first."));
  const mine = myRound();
  const by = mine && (reveal.auto_arranged || {})[mine.position];
  if (by) toast(autoArrangedNote(by));
}

function renderStage() {
  const round = state.round;
  const steps = $("steps");
  const stage = $("stage");
  if (!round || !round.reveal || round.state === "arranging") {
    steps.hidden = true;
    stage.replaceChildren();
    $("rows").classList.remove("revealing");
    for (const n of [1, 2, 3]) $(`row-${n}-result`).textContent = "";
    return;
  }
  const reveal = round.reveal;
  const settled = round.state === "settled";
  steps.hidden = false;
  steps.replaceChildren();
  const stepList = [];
  if (reveal.instants.length) stepList.push([0, gettext("Mậu binh")]);
  stepList.push([1, fmt(gettext("Chi %(n)s"), { n: 1 })], [2, fmt(gettext("Chi %(n)s"), { n: 2 })], [3, fmt(gettext("Chi %(n)s"), { n: 3 })], [4, gettext("Summary")]);
  const current = settled ? 4 : reveal.revealed;
  for (const [n, label] of stepList) {
    const li = el("li", n < current ? "done" : n === current ? "current" : "", label);
    if (n === current) li.setAttribute("aria-current", "step");
    steps.append(li);
  }
  stage.replaceChildren();
  if (settled) {
    $("rows").classList.add("revealing");
    markMyRows(reveal);
    return;
  }
  if (reveal.revealed === 0 || (reveal.instants.length && reveal.revealed <= 1)) stage.append(instantPanel(reveal));
  if (reveal.revealed >= 1) stage.append(chiPanel(reveal, reveal.revealed));
  $("rows").classList.add("revealing");
  markMyRows(reveal);
}

function instantPanel(reveal) {
  const panel = el("div", "stage-panel instant-panel");
  panel.append(el("h3", "", gettext("Mậu binh (instant win)")));
  if (!reveal.instants.length) return panel;
  for (const win of reveal.instants) {
    const line = el("div", "instant-line");
    line.append(el("strong", "", `${nameOf(win.position)}: ${instantName(win.kind)}`));
    const cards = el("span", "mini-cards wrap");
    for (const code of win.cards) cards.append(cardElement(code, { size: "xs" }));
    line.append(cards);
    panel.append(line);
  }
  const list = el("ul", "pair-list");
  const stake = state.info.stake;
  for (const pair of reveal.instant_pairs) {
    if (pair.units === 0) {
      list.append(el("li", "", fmt(gettext("%(a)s and %(b)s: tie"), { a: nameOf(pair.a), b: nameOf(pair.b) })));
      continue;
    }
    const [winner, loser] = pair.units > 0 ? [pair.a, pair.b] : [pair.b, pair.a];
    list.append(el("li", "", fmt(gettext("%(w)s wins %(x)s xu from %(l)s"), { w: nameOf(winner), l: nameOf(loser), x: xu(Math.abs(pair.units) * stake) })));
  }
  panel.append(list);
  return panel;
}

function reasonText(pair) {
  if (pair.bonus) return fmt(gettext("%(name)s ×%(units)s"), { name: BONUS_NAMES[pair.bonus] || pair.bonus, units: Math.abs(pair.units) });
  return { foul: gettext("binh lủng"), forfeit: gettext("left the table"), tie: gettext("tie"), both_out: gettext("both out") }[pair.reason] || "";
}

function chiPanel(reveal, n) {
  const chi = reveal.chi[n - 1];
  const panel = el("div", "stage-panel");
  panel.append(el("h3", "", fmt(gettext("Chi %(n)s"), { n })));
  const list = el("ul", "pair-list");
  for (const pair of chi.pairs) {
    const li = el("li");
    if (!pair.winner && pair.winner !== 0) {
      li.textContent = fmt(gettext("%(a)s – %(b)s: tie"), { a: nameOf(pair.a), b: nameOf(pair.b) });
    } else {
      const loser = pair.winner === pair.a ? pair.b : pair.a;
      li.append(el("span", "", fmt(gettext("%(w)s beats %(l)s"), { w: nameOf(pair.winner), l: nameOf(loser) })));
      li.append(el("b", "amount", ` ${xu(Math.abs(pair.xu))} xu`));
      const why = reasonText(pair);
      if (why) li.append(el("span", "why", ` (${why})`));
    }
    list.append(li);
  }
  panel.append(list);
  if (n === 3 && reveal.scoops && reveal.scoops.length) panel.append(scoopList(reveal.scoops, nameOf));
  return panel;
}

function markMyRows(reveal) {
  const mine = myRound();
  for (const n of [1, 2, 3]) {
    const out = $(`row-${n}-result`);
    out.textContent = "";
    out.className = "row-result";
    if (!mine || !reveal.chi[n - 1]) continue;
    let total = 0;
    for (const pair of reveal.chi[n - 1].pairs) {
      if (pair.a === mine.position) total += pair.xu;
      if (pair.b === mine.position) total -= pair.xu;
    }
    out.textContent = `${signed(total)} xu`;
    out.classList.add(total > 0 ? "win" : total < 0 ? "lose" : "even");
  }
}

function renderSummary(focus) {
  const round = state.round;
  const box = $("summary");
  if (round && round.state === "cancelled" && round.voided) return renderVoided(box, round.voided, focus);
  if (!round || !round.summary) {
    box.hidden = true;
    return;
  }
  const summary = round.summary;
  const me = summary.players.find((p) => p.user === config.user);
  box.replaceChildren();
  const heading = el("h2", "", fmt(gettext("Round %(n)s: results"), { n: summary.number }));
  heading.id = "summary-title";
  box.append(heading);
  if (me) {
    const big = el("p", `result-big ${me.xu > 0 ? "win" : me.xu < 0 ? "lose" : "even"}`);
    big.textContent = me.xu > 0 ? fmt(gettext("You won %(x)s xu"), { x: xu(me.xu) }) : me.xu < 0 ? fmt(gettext("You lost %(x)s xu"), { x: xu(-me.xu) }) : gettext("You broke even");
    box.append(big);
    const parts = breakdownLine(me, summary.scoops);
    if (parts) box.append(parts);
  }
  const table = el("table", "summary-table");
  const head = el("tr");
  for (const label of [gettext("Player"), gettext("Chi won"), gettext("Chi lost"), gettext("Result (xu)"), gettext("New balance")]) {
    const th = el("th", "", label);
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  for (const row of summary.players) {
    const tr = el("tr", row.user === config.user ? "is-you" : "");
    tr.dataset.user = String(row.user);
    tr.dataset.xu = String(row.xu || 0);
    tr.dataset.balance = String(row.balance);
    tr.dataset.status = row.status;
    const th = el("th", "", row.user === config.user ? fmt(gettext("%(name)s (you)"), { name: row.name }) : row.name);
    th.scope = "row";
    const notes = [];
    if (row.instant) notes.push(instantName(row.instant));
    if (row.foul && row.status !== "left") notes.push(gettext("binh lủng"));
    if (row.scooped === "one") notes.push(gettext("sập 3 chi"));
    if (row.scooped === "all") notes.push(gettext("sập làng"));
    if (row.status === "left") notes.push(gettext("left"));
    if (row.auto_arranged) notes.push(gettext("Auto-arranged"));
    if (notes.length) th.append(el("span", "notes", ` · ${notes.join(" · ")}`));
    tr.append(th);
    tr.append(el("td", "num", row.chi_won ?? "—"));
    tr.append(el("td", "num", row.chi_lost ?? "—"));
    tr.append(el("td", `num ${row.xu > 0 ? "win" : row.xu < 0 ? "lose" : ""}`, signed(row.xu || 0)));
    tr.append(el("td", "num", xu(row.balance)));
    body.append(tr);
  }
  table.append(thead, body);
  const scroll = el("div", "table-scroll");
  scroll.append(table);
  box.append(scroll);
  if (summary.scoops && summary.scoops.length) box.append(scoopList(summary.scoops, nameOf));
  const links = el("p", "summary-links");
  const detail = el("a", "", gettext("Round details"));
  detail.href = `${config.history}${summary.round}/`;
  const ledger = el("a", "", gettext("Statement"));
  ledger.href = config.statement;
  // A dispute is one click away (the form explains the window).
  const dispute = el("a", "dispute-link", gettext("File a dispute"));
  dispute.href = config.dispute.replace("/0/", `/${summary.round}/`);
  links.append(detail, document.createTextNode(" · "), ledger, document.createTextNode(" · "), dispute);
  box.append(links);
  box.hidden = false;
  if (focus && !box.contains(document.activeElement)) box.focus({ preventScroll: true });
}

live.connect();
render();

/** A voided round: no results, every stake back (docs/protocol.md, "voided"). */
function renderVoided(box, voided, focus) {
  box.replaceChildren();
  const heading = el("h2", "", fmt(gettext("Round %(n)s was voided"), { n: voided.number }));
  heading.id = "summary-title";
  box.append(heading);
  const why = voided.reason === "settlement_failed"
    ? gettext("The round could not be settled, so it was cancelled.")
    : gettext("A moderator cancelled the round.");
  box.append(el("p", "result-big even", gettext("Every stake was returned: nobody won or lost.")));
  box.append(el("p", "", why));
  const me = voided.players.find((p) => p.user === config.user);
  if (me) box.append(el("p", "", fmt(gettext("Returned to you: %(x)s xu. Your balance: %(b)s xu."), { x: xu(me.returned), b: xu(me.balance) })));
  const detail = el("a", "", gettext("Round details"));
  detail.href = `${config.history}${voided.round}/`;
  const links = el("p", "summary-links");
  links.append(detail);
  box.append(links);
  box.hidden = false;
  if (focus && !box.contains(document.activeElement)) box.focus({ preventScroll: true });
}
