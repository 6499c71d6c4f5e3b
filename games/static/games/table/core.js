// What every part of the table page shares: the page's config, the live state, the
// server's clock, the websocket, formatting and a few hooks. Every module takes these
// from here, and no two modules need each other (hashed static names need a tree).
import { Live } from "../live.js";
import { unitName } from "../results.js";

// Django's JavaScript catalog (/jsi18n/) defines gettext, ngettext and interpolate.
export const { gettext, ngettext } = window;
export const fmt = (text, values) => window.interpolate(text, values, true);
export const LANG = document.documentElement.lang || "vi";
const number = new Intl.NumberFormat(LANG === "en" ? "en-US" : "vi-VN");
export const xu = (n) => `${n < 0 ? "−" : ""}${number.format(Math.abs(n))}`;
export const signed = (n) => `${n > 0 ? "+" : n < 0 ? "−" : "±"}${number.format(Math.abs(n))}`;
export const $ = (id) => document.getElementById(id);
export const el = (tag, className = "", text = null) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null) node.textContent = text;
  return node;
};

export const config = JSON.parse($("table-config").textContent);
export const tableRules = JSON.parse($("table-rules").textContent);
export const rules = () => (state.info ? state.info.rules : tableRules);

export const state = {
  version: -1,
  offset: 0,
  info: null,
  seats: [],
  you: { user: config.user, seated: false },
  startAt: null,
  between: null, // who said ready / asked to wait for the next deal (games.services.between)
  botsAt: null, // when bots take the free seats (a wait the page counts down)
  round: null,
  connected: false,
  submitting: false,
  autoSubmitted: null,
  suggestions: null,
  flip: null, // the chi just revealed: it turns over once
};

// --- hooks ------------------------------------------------------------------------------
// The page's parts talk through named hooks instead of importing each other:
//   "message" (every server message), "status" (socket status, detail),
//   "event" (a table event, once applied), "change" (state changed: render),
//   "dealt" (my cards for a new round are on the board), "board" (I moved cards),
//   "tick" (4 a second).
const hooks = new Map();

export function on(name, fn) {
  if (!hooks.has(name)) hooks.set(name, []);
  hooks.get(name).push(fn);
}

export function emit(name, ...args) {
  for (const fn of hooks.get(name) || []) fn(...args);
}

// --- the round, from my side -------------------------------------------------------------

export function myRound() {
  return state.round && state.round.you ? state.round.you : null;
}

export function amPlaying() {
  const mine = myRound();
  return !!mine && mine.status === "playing";
}

export function roundPlayer(position) {
  return state.round ? state.round.players.find((p) => p.position === position) : null;
}

/** The round's player on this seat: the same user, not whoever played from that chair. */
export function seatPlayer(seat) {
  const player = roundPlayer(seat.position);
  return player && player.user === seat.user ? player : null;
}

/** Am I one of the players of the round on the table now? */
export function playedIn(round) {
  return !!round && round.players.some((p) => p.user === config.user);
}

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// --- time: the server's clock --------------------------------------------------------------

export const now = () => Date.now() + state.offset;
export const deadline = () => (state.round && state.round.deadline ? Date.parse(state.round.deadline) : 0);

export function syncClock(serverNow, sentAt = null) {
  const received = Date.now();
  const middle = sentAt === null ? received : (sentAt + received) / 2;
  state.offset = Date.parse(serverNow) - middle;
}

// --- the websocket -------------------------------------------------------------------------

export const live = new Live(config.ws, {
  onMessage: (message) => emit("message", message),
  onStatus: (status, detail) => {
    state.connected = status === "open";
    emit("status", status, detail);
  },
});

export function requestSnapshot() {
  live.send({ type: "snapshot" });
}

export async function send(message) {
  const reply = await live.request(message);
  if (reply.type === "error" && reply.code === "disconnected") showError(gettext("Not connected. Reconnecting…"));
  else if (reply.type === "error" && reply.code === "timeout") showError(gettext("The server did not answer. Please try again."));
  return reply;
}

// One `sit` per intent: clicks while a sit is on its way send nothing more.
let sitting = null;
export function sitOnce(message) {
  if (!sitting) sitting = send(message).finally(() => { sitting = null; });
  return sitting;
}

// --- messages to the player ------------------------------------------------------------------

export function showError(text) {
  const banner = $("error-banner");
  banner.textContent = text;
  banner.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { banner.hidden = true; }, 6000);
}

export function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => box.classList.remove("show"), 3500);
}

/** End the toast now (what it said no longer holds). */
export function endToast() {
  clearTimeout(toast.timer);
  $("toast").classList.remove("show");
}

// What balances and results count at this table (games.stakes): xu, a tournament's chips,
// or points (nothing held: a seat at a points table has no balance to show).
export const inXu = () => !config.stakes_in || config.stakes_in === "xu";
export const unit = () => unitName(config.stakes_in);
export const hasBalance = () => config.stakes_in !== "points";

// The header shows what is mine: the wallet and the xu a round holds of it, together, with
// the held part named as held ("including 540 held"): a hold is not a loss
// (base.html's ledger wallet renders the same from the server).
const header = { balance: null, hold: 0 };

function renderHeader() {
  const total = document.querySelector("[data-testid=header-balance]");
  if (total && header.balance !== null) {
    total.textContent = fmt(gettext("%(balance)s xu"), { balance: xu(header.balance + header.hold) });
    total.dataset.wallet = String(header.balance);
  }
  const held = document.querySelector("[data-testid=header-in-play]");
  if (!held) return;
  held.hidden = !(header.hold > 0);
  if (header.hold > 0) held.textContent = fmt(gettext("including %(x)s held"), { x: xu(header.hold) });
}

/** My wallet as the server says (the held xu not included). */
export function setHeaderBalance(balance) {
  if (!inXu()) return; // the header shows the wallet, never tournament chips
  header.balance = balance;
  renderHeader();
}

/** The xu a round holds of my wallet now (0 between rounds). */
export function setHeaderInPlay(hold) {
  if (!inXu()) return;
  header.hold = hold > 0 ? hold : 0;
  renderHeader();
}
