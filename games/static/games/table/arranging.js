// My cards while arranging: the board, the draft kept per round, live hand names and
// warnings, Gợi ý (suggestions), Xong (submit) and its automatic send near the deadline.
import { cardElement } from "../cards.js";
import { eval3, eval5, findInstant, handName, instantName } from "../hands.js";
import { Arrangement, ArrangeBoard } from "../arrange.js";
import { DraftSender, layoutToRestore, shouldAutoSubmit } from "../draft.js";
import { untilAnswered } from "../resend.js";
import {
  $, amPlaying, config, deadline, el, emit, fmt, gettext, live, myRound, ngettext, now, rules,
  showError, state, tableRules, toast,
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
  state.suggestions = null;
  renderSuggestions();
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

// --- Xong -------------------------------------------------------------------------------------

async function submit({ auto = false } = {}) {
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
    toast(auto ? gettext("Time is nearly up: your arrangement was sent.") : gettext("Sent. You can still change it until the time is up."));
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
  }
}

$("submit").addEventListener("click", () => submit());
$("sort-rank").addEventListener("click", () => { board.arrangement.sort("rank"); board.changed("sort"); });
$("sort-suit").addEventListener("click", () => { board.arrangement.sort("suit"); board.changed("sort"); });
$("clear").addEventListener("click", () => { board.arrangement.clear(); board.selected.clear(); board.changed("clear"); });
$("suggest").addEventListener("click", loadSuggestions);

// --- Gợi ý ---------------------------------------------------------------------------------------

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

export function renderSuggestions() {
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

export function clearSuggestions() {
  state.suggestions = null;
  renderSuggestions();
}

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
}
