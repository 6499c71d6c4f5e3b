// How the table feels: sounds (generated with Web Audio, nothing downloaded) for the deal,
// the last 10 seconds, each reveal, a win and a loss, with a mute switch remembered per
// user (on the account, so a new device starts muted too; localStorage is the instant local
// copy); the deal and the chi-by-chi flip (CSS, off under prefers-reduced-motion); and
// bringing my cards, the clock and Xong into view when the cards arrive.
import { instantName } from "../hands.js";
import {
  $, config, deadline, fmt, gettext, myRound, now, on, reducedMotion, state,
} from "./core.js";
import { nameOf } from "./seats.js";
import { deadlineNote } from "../draft.js";
import { notifyAway } from "../../js/notify.js";

const MUTE_KEY = `maubinh:sound:${config.user}`;
// The account's choice, as the server rendered this page, wins over this browser's copy
// (the player may have switched on another device since); the copy follows it.
let muted = config.sound === undefined ? localStorage.getItem(MUTE_KEY) === "off" : !config.sound;
localStorage.setItem(MUTE_KEY, muted ? "off" : "on");
let audio = null;

// Browsers let a page make sound only after the player touched it: start then.
function unlock() {
  if (audio) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  audio = new Context();
}
for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, unlock, { once: true, capture: true });

function tone(freq, start, length, { type = "sine", volume = 0.12, to = null } = {}) {
  const t = audio.currentTime + start;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, t + length);
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(volume, t + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(gain).connect(audio.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

const SOUNDS = {
  deal: () => { for (let i = 0; i < 6; i++) tone(900 + 60 * i, i * 0.06, 0.05, { type: "triangle", volume: 0.06 }); },
  tick: () => tone(880, 0, 0.08, { type: "square", volume: 0.05 }),
  last: () => tone(1320, 0, 0.12, { type: "square", volume: 0.07 }),
  // The deadline warning: two rising notes, unlike the ticks that follow.
  warn: () => { tone(660, 0, 0.14, { type: "triangle", volume: 0.1 }); tone(990, 0.16, 0.2, { type: "triangle", volume: 0.1 }); },
  reveal: () => tone(520, 0, 0.16, { type: "triangle", volume: 0.09, to: 260 }),
  win: () => [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.1, 0.22, { volume: 0.1 })),
  loss: () => [392, 311, 262].forEach((f, i) => tone(f, i * 0.14, 0.28, { type: "triangle", volume: 0.1 })),
};

export function play(name) {
  if (muted) return;
  // What the player would have heard (tests read it): the last sound and the recent ones.
  const page = $("table-page");
  page.dataset.lastSound = name;
  page.dataset.sounds = [...(page.dataset.sounds || "").split(" ").filter(Boolean).slice(-19), name].join(" ");
  if (!audio || audio.state === "closed") return;
  if (audio.state === "suspended") audio.resume();
  SOUNDS[name]();
}

// --- the mute switch ---------------------------------------------------------------------

const toggle = $("sound-toggle");

function renderToggle() {
  toggle.setAttribute("aria-pressed", muted ? "false" : "true");
  toggle.title = muted ? gettext("Sound is off") : gettext("Sound is on");
}

// Saved on the account for the player's other devices; a lost request only costs them that
// (this page and this browser already follow the switch), so it is not retried.
async function remember() {
  const body = new URLSearchParams({ sound: muted ? "off" : "on" });
  try {
    await fetch(config.sound_url, {
      method: "POST", body, credentials: "same-origin", headers: { "X-CSRFToken": config.csrf },
    });
  } catch {
    // offline: the local copy still holds the choice on this device
  }
}

toggle.addEventListener("click", () => {
  muted = !muted;
  localStorage.setItem(MUTE_KEY, muted ? "off" : "on");
  renderToggle();
  remember();
});
renderToggle();

// --- the deal ------------------------------------------------------------------------------

let dealing = null;

on("dealt", ({ fresh }) => {
  if (fresh) play("deal");
  // A player whose tab is in the background learns of the deal (notifications on only).
  if (fresh && state.round) {
    notifyAway(gettext("Your cards are dealt"), fmt(gettext("Round %(n)s: arrange your cards."), { n: state.round.number }), { url: location.href, tag: `deal-${config.table}` });
  }
  // After this render: bring my cards, the clock and the buttons on screen together.
  requestAnimationFrame(() => {
    bringIntoView();
    if (!fresh || reducedMotion()) return;
    const me = $("me");
    $("tray").querySelectorAll(".pcard").forEach((card, i) => card.style.setProperty("--i", String(i)));
    me.classList.add("dealing");
    clearTimeout(dealing);
    dealing = setTimeout(() => me.classList.remove("dealing"), 800);
  });
});

function bringIntoView() {
  const felt = $("felt").getBoundingClientRect();
  const actions = $("actions").getBoundingClientRect();
  const height = window.innerHeight;
  if (felt.top >= 0 && actions.bottom <= height) return;
  // The felt's top, unless that still leaves the buttons below the fold.
  const by = actions.bottom - felt.top <= height ? felt.top : actions.bottom - height + 8;
  window.scrollBy({ top: by, behavior: "instant" });
}

// --- the clock, the reveals, the result ------------------------------------------------------

let lastSecond = null;

on("tick", () => {
  const round = state.round;
  const mine = myRound();
  if (!round || round.state !== "arranging" || !mine || mine.status !== "playing" || mine.arrangement) {
    lastSecond = null;
    return;
  }
  const seconds = Math.ceil((deadline() - now()) / 1000);
  if (seconds > 10 || seconds < 1 || seconds === lastSecond) return;
  const first = lastSecond === null;
  lastSecond = seconds;
  if (!first || warned !== round.id) play(seconds <= 3 ? "last" : "tick");
});

// The deadline warning (table/center.js) has its own cue, once a round.
let warned = null;
on("warning", (warn) => {
  if (!state.round || warned === state.round.id) return;
  warned = state.round.id;
  play("warn");
  notifyAway(fmt(gettext("%(n)s seconds left"), { n: warn.seconds }), deadlineNote(warn.outcome), { url: location.href, tag: `deadline-${config.table}` });
});

on("event", (event) => {
  if (event.type === "reveal") {
    play("reveal");
    showMoment(event);
    requestAnimationFrame(() => moveCoins(event.revealed));
  }
  if (event.type === "settled") {
    const me = event.players.find((p) => p.user === config.user);
    if (me && me.xu > 0) play("win");
    else if (me && me.xu < 0) play("loss");
  }
});

// --- the showdown's moments: instant wins and scoops, and xu moving between seats ---------

let momentTimer = null;

/** Mậu binh and sập are moments of their own: a banner over the felt for a few seconds
 * (still, without its entrance, under reduced motion). */
function showMoment(reveal) {
  const lines = [];
  if (reveal.revealed === 0) {
    for (const win of reveal.instants || []) lines.push(fmt(gettext("Mậu binh! %(name)s: %(kind)s"), { name: nameOf(win.position), kind: instantName(win.kind) }));
  }
  if (reveal.revealed === 3) {
    for (const scoop of reveal.scoops || []) {
      const text = scoop.kind === "all" ? gettext("Sập làng! %(name)s lost all three chi to everyone (×%(x)s)") : gettext("Sập 3 chi! %(name)s lost all three chi (×%(x)s)");
      lines.push(fmt(text, { name: nameOf(scoop.loser), x: scoop.x }));
    }
  }
  if (!lines.length) return;
  const box = $("moment");
  box.replaceChildren(...lines.map((text) => {
    const line = document.createElement("p");
    line.textContent = text;
    return line;
  }));
  box.dataset.kind = reveal.revealed === 3 ? "scoop" : "instant";
  box.hidden = false;
  box.classList.toggle("calm", reducedMotion());
  clearTimeout(momentTimer);
  momentTimer = setTimeout(() => { box.hidden = true; }, 3000);
}

/** A coin flies from the seat that lost a chi to the seat that won it (me or an opponent);
 * none under reduced motion, where the seats' numbers say the same. */
function moveCoins(chi) {
  if (reducedMotion() || chi < 1) return;
  const mine = document.querySelector("#me .seat-head");
  if (!mine) return;
  for (const chip of document.querySelectorAll(`#opponents .pair-chip[data-chi="${chi}"]`)) {
    const amount = Number(chip.dataset.xu);
    if (!amount) continue;
    const seat = chip.closest(".seat");
    const [from, to] = amount < 0 ? [seat, mine] : [mine, seat];
    const a = from.getBoundingClientRect();
    const b = to.getBoundingClientRect();
    const coin = document.createElement("span");
    coin.className = "coin";
    coin.setAttribute("aria-hidden", "true");
    coin.style.left = `${a.left + a.width / 2 - 10}px`;
    coin.style.top = `${a.top + a.height / 2 - 10}px`;
    document.body.append(coin);
    requestAnimationFrame(() => {
      coin.style.transform = `translate(${b.left - a.left + (b.width - a.width) / 2}px, ${b.top - a.top + (b.height - a.height) / 2}px)`;
      coin.classList.add("moving");
    });
    setTimeout(() => coin.remove(), 1200);
  }
}
