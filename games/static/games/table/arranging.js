// My cards while arranging: the board, the draft kept per round, live hand names and
// warnings, Gợi ý (suggestions), Xong (submit) and its automatic send near the deadline.
import { cardElement } from "../cards.js";
import { eval3, eval5, findInstant, handName, instantName, isFoul } from "../hands.js";
import { Arrangement, ArrangeBoard } from "../arrange.js";
import { DraftSender, deadlineOutcome, layoutToRestore, shouldAutoSubmit } from "../draft.js";
import { untilAnswered } from "../resend.js";
import {
  $, amPlaying, config, deadline, el, emit, fmt, gettext, live, myRound, ngettext, now, on, rules,
  showError, state, tableRules, toast, unit, xu,
} from "./core.js";

const AUTO_SUBMIT_MS = 2500;

export const board = new ArrangeBoard({
  rows: { 1: $("row-1-cards"), 2: $("row-2-cards"), 3: $("row-3-cards"), tray: $("tray") },
  labels: { 1: $("row-1-button"), 2: $("row-2-button"), 3: $("row-3-button"), tray: $("tray-button") },
  onChange: () => {
    saveDraft();
    drafts.changed(state.round, board.arrangement, state.version);
    renderArrangeInfo();
    renderActions();
    emit("board");
  },
  say: (text) => toast(text),
});

// Each new complete layout goes to the server as a draft: it is played if time runs out.
const drafts = new DraftSender(live);

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

/** (Re)build the board for my cards in the current round; `fresh`: they were just dealt. */
export function setupBoard(fresh = false) {
  const mine = myRound();
  if (!mine || !mine.cards) {
    board.load(null);
    return;
  }
  // A hand played for me at the deadline replaces whatever the board still shows.
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
  clearSuggestions();
  emit("dealt", { fresh });
}

/** My hand was played for me at the deadline: show what was played, locked. */
export function showPlayed(chi) {
  board.load(Arrangement.restore(myRound().cards, chi));
  board.setLocked(true);
}

/** A new round: the new cards follow in a private "cards" event. */
export function resetBoard() {
  state.autoSubmitted = null;
  board.roundId = null;
  board.load(null);
}

export function canArrange() {
  return state.round && state.round.state === "arranging" && amPlaying() && now() < deadline();
}

const sameChi = (a, b) => !!a && !!b && JSON.stringify(a) === JSON.stringify(b);

export function isDirty() {
  const mine = myRound();
  return !!board.arrangement && !sameChi(board.arrangement.chi, mine && mine.arrangement);
}

/** The board's layout is complete and binh lủng (it would lose every chi). */
export function boardIsFoul() {
  const a = board.arrangement;
  return !!a && a.complete && isFoul(a.chi[0], a.chi[1], a.chi[2], tableRules.preset);
}

/** What the deadline will do with my hand now (draft.js `deadlineOutcome`), or null. */
export function outcomeAtDeadline() {
  const mine = myRound();
  if (!mine || !state.round || state.round.state !== "arranging" || mine.status !== "playing") return null;
  return deadlineOutcome({
    sent: !!mine.arrangement,
    dirty: isDirty(),
    board: board.arrangement,
    lastDraft: drafts.lastChi(state.round.id),
    onTimeout: rules().on_timeout,
    preset: tableRules.preset,
  });
}

// --- Xong -------------------------------------------------------------------------------------

/** The others still arranging (my own "submitted" may not have come back yet). */
export function othersArranging() {
  const round = state.round;
  if (!round) return 0;
  return round.players.filter((p) => p.user !== config.user && p.status === "playing" && !p.submitted).length;
}

function sentNote({ auto, foul }) {
  if (auto) return gettext("Time is nearly up: your arrangement was sent.");
  if (foul) return gettext("Sent as it is: binh lủng.");
  // Only a table where someone is still arranging lets a sent hand change (docs/rules.md):
  // once everyone is done the showdown starts at once.
  return othersArranging() > 0 && deadline() > now()
    ? gettext("Sent. You can change it while others are still arranging and the time is not up.")
    : gettext("Sent. Everyone is done: the showdown starts now.");
}

async function submit({ auto = false, foul = false } = {}) {
  if (!board.arrangement || !board.arrangement.complete || !state.round) return;
  state.submitting = true;
  renderActions();
  const chi = board.arrangement.chi;
  const round = state.round.id;
  // An unanswered or failed submit goes again with the same ref; the server counts it once.
  const reply = await untilAnswered(live, { type: "submit", round, chi, version: state.version }, {
    stillWanted: () => state.round && state.round.id === round && state.round.state !== "settled",
  });
  state.submitting = false;
  if (reply.type === "error" && (reply.code === "timeout" || reply.code === "disconnected")) showError(gettext("The server did not answer. Please try again."));
  if (reply.type === "ok") {
    const mine = myRound();
    if (mine) mine.arrangement = chi;
    toast(sentNote({ auto, foul }));
  }
  emit("change");
}

/** Near the deadline, send a complete arrangement that differs from the one sent. */
export function maybeAutoSubmit() {
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

/** Lock the board once the clock ran out (the server decides, this only stops the hands). */
export function lockWhenLate() {
  if (state.round && state.round.state === "arranging" && !canArrange() && !board.locked && board.arrangement) {
    board.setLocked(true);
    renderActions();
    renderSuggestions();
  }
}

// A binh lủng layout takes a second, deliberate step (the leave dialog's pattern): one tap
// on Xong never sends a hand that loses every chi.
$("submit").addEventListener("click", () => {
  if (boardIsFoul()) confirmFoul();
  else submit();
});

function confirmFoul() {
  const dialog = $("foul-dialog");
  $("foul-cost").textContent = foulCost();
  dialog.returnValue = "";
  dialog.showModal();
}

/** What a binh lủng costs here: all three chi to each opponent, before bonuses and sập. */
function foulCost() {
  const round = state.round;
  const mine = myRound();
  const opponents = round ? round.players.filter((p) => p.position !== (mine && mine.position) && p.status === "playing").length : 0;
  const points = config.stakes_in === "points";
  const stake = state.info ? state.info.stake : 0;
  const least = points ? 3 * opponents : 3 * stake * opponents;
  return fmt(ngettext(
    "Binh lủng loses all three chi to your %(n)s opponent: at least %(x)s %(unit)s, more if they have bonuses or sập.",
    "Binh lủng loses all three chi to each of your %(n)s opponents: at least %(x)s %(unit)s, more if they have bonuses or sập.",
    opponents), { n: opponents, x: xu(least), unit: unit() });
}

$("foul-dialog").addEventListener("close", () => {
  const send = $("foul-dialog").returnValue === "send";
  // Sent only if the board is still the binh lủng the dialog described and time remains.
  if (send && boardIsFoul() && canArrange()) submit({ foul: true });
  else if (!$("submit").disabled) $("submit").focus();
});

// The round moved on (the showdown began, the time ran out): the question no longer holds.
on("change", () => {
  const dialog = $("foul-dialog");
  if (dialog.open && !canArrange()) dialog.close("stale");
});
$("sort-rank").addEventListener("click", () => { board.arrangement.sort("rank"); board.changed("sort"); });
$("sort-suit").addEventListener("click", () => { board.arrangement.sort("suit"); board.changed("sort"); });
$("clear").addEventListener("click", () => { board.arrangement.clear(); board.selected.clear(); board.changed("clear"); });
$("suggest").addEventListener("click", loadSuggestions);

// --- Gợi ý ---------------------------------------------------------------------------------------
// The suggestions open over the hand itself (its rows and tray), where the thumb is, so
// something visible changes at once on a phone; the buttons (Xong) stay uncovered beside
// or below them. Choosing one lays it out and closes the panel: the hand shows it.

let suggestionsOpen = false;

async function loadSuggestions() {
  if (!state.round) return;
  const box = $("suggestions");
  suggestionsOpen = true;
  if (state.suggestions) {
    renderSuggestions();
    focusSuggestion();
    return;
  }
  box.hidden = false;
  box.replaceChildren(suggestionsHead(), el("p", "muted", gettext("Looking for the best arrangements…")));
  box.setAttribute("aria-busy", "true");
  placeSuggestions();
  $("suggest").disabled = true;
  try {
    const url = config.suggest.replace("/0/", `/${state.round.id}/`);
    const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    const data = await response.json();
    if (!response.ok) {
      box.replaceChildren(suggestionsHead(), el("p", "error", data.message || gettext("No suggestions right now.")));
      return;
    }
    if (!suggestionsOpen) return; // closed meanwhile (or a new deal)
    state.suggestions = data.suggestions;
    renderSuggestions();
    focusSuggestion();
  } catch {
    box.replaceChildren(suggestionsHead(), el("p", "error", gettext("No suggestions right now.")));
  } finally {
    box.removeAttribute("aria-busy");
    placeSuggestions();
    $("suggest").disabled = !canArrange();
  }
}

function suggestionsHead() {
  const head = el("div", "suggestions-head");
  const title = el("h3", "", gettext("Suggestions"));
  title.id = "suggestions-title";
  const close = el("button", "button ghost suggestions-close", gettext("Close"));
  close.type = "button";
  close.id = "suggestions-close";
  close.addEventListener("click", () => closeSuggestions(true));
  head.append(title, close);
  return head;
}

function closeSuggestions(focus = false) {
  suggestionsOpen = false;
  renderSuggestions();
  if (focus) $("suggest").focus();
}

function focusSuggestion() {
  const first = $("suggestions").querySelector("button.suggestion");
  if (first) first.focus({ preventScroll: true });
}

/** Lay the panel over the hand (rows and tray), wherever the layout puts them. */
export function placeSuggestions() {
  const box = $("suggestions");
  if (box.hidden) return;
  const me = $("me").getBoundingClientRect();
  const parts = [$("rows"), document.querySelector("#me .tray-wrap")].filter((n) => n && n.checkVisibility());
  if (!parts.length) return;
  const rects = parts.map((n) => n.getBoundingClientRect());
  const top = Math.min(...rects.map((r) => r.top)) - me.top;
  const bottom = Math.max(...rects.map((r) => r.bottom)) - me.top;
  const left = Math.min(...rects.map((r) => r.left)) - me.left;
  const right = Math.max(...rects.map((r) => r.right)) - me.left;
  box.style.top = `${top}px`;
  box.style.left = `${left}px`;
  box.style.width = `${right - left}px`;
  box.style.height = `${Math.max(bottom - top, 180)}px`;
  // Opened from a page scrolled past the hand: bring the panel (and the hand) in view.
  const shown = box.getBoundingClientRect();
  if (shown.top < 0 || shown.bottom > window.innerHeight) box.scrollIntoView({ block: "nearest", behavior: "instant" });
}

export function renderSuggestions() {
  const box = $("suggestions");
  const list = state.suggestions;
  $("me").classList.toggle("suggesting", suggestionsOpen && canArrange());
  if (!list || !suggestionsOpen || !canArrange()) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
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
      closeSuggestions();
      board.changed("suggestion");
      toast(gettext("Suggestion applied. Press Done to send it."));
      $("submit").focus();
    });
    li.append(button);
    items.append(li);
  });
  box.replaceChildren(suggestionsHead(), items);
  placeSuggestions();
}

export function clearSuggestions() {
  state.suggestions = null;
  suggestionsOpen = false;
  renderSuggestions();
}

$("suggestions").addEventListener("keydown", (event) => {
  if (event.key === "Escape") closeSuggestions(true);
});
window.addEventListener("resize", placeSuggestions);

// --- hand names, warnings and buttons --------------------------------------------------------------

function rowValues(chi) {
  return [
    chi[0].length === 5 ? eval5(chi[0], tableRules.preset) : null,
    chi[1].length === 5 ? eval5(chi[1], tableRules.preset) : null,
    chi[2].length === 3 ? eval3(chi[2]) : null,
  ];
}

export function renderArrangeInfo() {
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
  const kind = findInstant(a.cards, rules(), a.complete ? chi : null);
  instantBox.hidden = !kind;
  if (kind) {
    const payout = rules().instant[kind];
    instantBox.replaceChildren(
      el("strong", "", fmt(gettext("Mậu binh: %(name)s!"), { name: instantName(kind) })),
      el("span", "", fmt(ngettext(
        "You win %(units)s chi from every opponent at the showdown, before any chi is compared.",
        "You win %(units)s chi from every opponent at the showdown, before any chi is compared.", payout), { units: payout },
      )),
    );
  }
}

export function renderActions() {
  const a = board.arrangement;
  const arranging = canArrange();
  const mine = myRound();
  for (const id of ["sort-rank", "sort-suit", "clear", "suggest"]) $(id).disabled = !arranging || !a;
  $("suggest").hidden = !config.can_suggest;
  const submitButton = $("submit");
  submitButton.disabled = !arranging || !a || !a.complete || state.submitting || !state.connected;
  const sent = mine && mine.arrangement;
  submitButton.textContent = sent && isDirty() ? gettext("Done: send changes") : sent ? gettext("Sent ✓") : gettext("Done");
  if (sent && !isDirty()) submitButton.disabled = true;
  $("actions").hidden = !a || !(state.round && state.round.state === "arranging" && amPlaying());
  $("arrange-hint").hidden = !arranging;
  $("rows").parentElement.classList.toggle("locked", !arranging);
  placeSuggestions();
}
