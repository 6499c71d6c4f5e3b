// The seats: opponents around the table (their chi face down, then revealed chi by chi)
// and my own seat's head, or the way to sit down when I am watching.
import { cardElement } from "../cards.js";
import { instantName } from "../hands.js";
import { autoArrangedBadge } from "../draft.js";
import {
  $, LANG, config, el, fmt, gettext, reducedMotion, roundPlayer, seatPlayer, setHeaderInPlay, signed,
  hasBalance, inXu, sitOnce, state, unit, xu,
} from "./core.js";

/** Seats placed around me: me at the bottom, the others clockwise from my left. */
function seatOrder() {
  const total = state.info ? state.info.seats : 4;
  const mine = state.seats.find((s) => s.user === config.user);
  const base = mine ? mine.position : 0;
  const order = [];
  for (let i = 1; i < total; i++) order.push((base + i) % total);
  return { me: mine ? base : null, others: mine ? order : [...Array(total).keys()] };
}

function seatStatus(seat, player) {
  const round = state.round;
  if (!seat.online) return ["away", gettext("Disconnected")];
  if (!player || !round || round.state === "settled" || round.state === "cancelled") return ["idle", gettext("Waiting")];
  if (player.status === "left") return ["left", gettext("Left")];
  if (round.state === "arranging") return player.submitted ? ["done", gettext("Done")] : ["busy", gettext("Arranging")];
  return ["show", gettext("Showdown")];
}

export function renderSeats() {
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
    const player = seatPlayer(seat);
    node.append(seatHead(seat, player));
    node.append(seatHand(player));
    box.append(node);
  });
}

function seatHead(seat, player) {
  const head = el("div", "seat-head");
  const avatar = el("span", "avatar", (seat.name || "?").trim().charAt(0).toUpperCase());
  avatar.setAttribute("aria-hidden", "true");
  const who = el("div", "who");
  // A long name is cut short (…) on its own; the bot badge beside it always shows.
  const line = el("span", "name-line");
  // The name opens the player's profile (profiles app) in a new tab: the table stays open.
  const name = el("a", "name", seat.name);
  name.href = `/players/${seat.user}/`;
  name.target = "_blank";
  name.rel = "noopener";
  name.title = seat.name;
  line.append(name);
  if (seat.is_bot) {
    // A bot says so on its seat, with its level (easy / normal) for the curious; a bot
    // account (docs/api.md) has no level: a program plays it.
    const level = seat.difficulty === "easy" ? gettext("easy") : gettext("normal");
    const tag = el("span", "badge bot-badge", gettext("Bot"));
    tag.title = seat.difficulty
      ? fmt(gettext("A bot (%(level)s level)"), { level })
      : gettext("A bot account, played by a program");
    tag.setAttribute("aria-label", tag.title);
    line.append(tag);
  }
  who.append(line);
  if (seat.user !== config.user) {
    const report = el("a", "report-link", gettext("Report"));
    report.href = `${config.report.replace("/0/", `/${seat.user}/`)}?table=${config.table}`;
    report.target = "_blank";
    report.rel = "noopener";
    who.append(report);
    if (!seat.is_bot && config.player) {
      // The player's card: send a friend request, or block them (the social app).
      const card = el("a", "report-link player-link", gettext("Befriend / block"));
      card.href = config.player.replace("/0/", `/${seat.user}/`);
      card.target = "_blank";
      card.rel = "noopener";
      who.append(card);
    }
  }
  const live = state.round && (state.round.state === "arranging" || state.round.state === "showdown");
  // Xu held at the deal are still the player's until the settlement: the seat shows them
  // with the wallet (chips are not moved at the deal; a points table holds nothing).
  const held = live && player && inXu() ? player.hold : 0;
  // No balance (null): a duplicate board's result it would tell me is still a secret.
  if (hasBalance() && seat.balance != null) {
    const balance = el("span", "balance", `${xu(seat.balance + held)} ${unit()}`);
    balance.dataset.balance = String(seat.balance + held);
    who.append(balance);
  }
  if (seat.user === config.user) setHeaderInPlay(held);
  if (live && player && player.hold > 0 && seat.user === config.user && hasBalance()) {
    // What this round can cost at most (the hold), in the table's unit: not money gone.
    const risk = el("span", "held", fmt(gettext("this round: you lose at most %(x)s %(unit)s"), { x: xu(player.hold), unit: unit() }));
    risk.dataset.testid = "at-risk";
    who.append(risk);
  }
  const [kind, label] = seatStatus(seat, player);
  const badge = el("span", `badge status-${kind}`, label);
  head.append(avatar, who, badge);
  const delta = playerDelta(player);
  if (delta !== null) head.append(el("span", `delta ${delta > 0 ? "win" : delta < 0 ? "lose" : ""}`, `${signed(delta)} ${unit()}`));
  return head;
}

/** An opponent's three chi: face down while arranging, revealed chi by chi. */
function seatHand(player) {
  const wrap = el("div", "mini-rows");
  const round = state.round;
  if (!round || !player) return wrap;
  const position = player.position;
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
      if (i === round.revealed - 1) {
        line.classList.add("current");
        // The chi just shown turns over once (not on every later redraw).
        if (state.flip && state.flip.round === round.id && state.flip.chi === i + 1 && Date.now() < state.flip.until && !reducedMotion()) line.classList.add("flip");
      }
    } else {
      for (let k = 0; k < count; k++) cards.append(cardElement("", { size: "xs", faceDown: true }));
      line.append(cards);
      if (shown && !shown.hand) line.append(el("span", "hand-name muted", player.status === "left" ? gettext("Left") : gettext("No arrangement")));
    }
    wrap.append(line);
  });
  const chip = pairChip(reveal, position);
  if (chip) wrap.append(chip);
  if (reveal && reveal.fouls.includes(position)) wrap.append(el("span", "badge danger", gettext("Binh lủng")));
  if (reveal && (reveal.auto_arranged || {})[position]) wrap.append(autoArrangedBadge(reveal.auto_arranged[position]));
  return wrap;
}

/** The chi just shown between this opponent and me, where they sit: what moved between
 * our seats (from their side: "−10" went from them to me), the same number as the list's. */
function pairChip(reveal, position) {
  const mine = state.round && state.round.you;
  if (!reveal || reveal.withheld || !mine || position === mine.position) return null;
  const n = reveal.revealed;
  const chi = n >= 1 ? reveal.chi[n - 1] : null;
  const pair = chi && chi.pairs.find((p) => (p.a === position && p.b === mine.position) || (p.b === position && p.a === mine.position));
  if (!pair) return null;
  const theirs = pair.a === position ? pair.xu : -pair.xu;
  const chip = el("span", `pair-chip ${theirs > 0 ? "win" : theirs < 0 ? "lose" : "even"}`);
  chip.dataset.chi = String(n);
  chip.dataset.xu = String(theirs);
  chip.append(el("span", "pair-chip-label", fmt(gettext("Chi %(n)s with you"), { n })));
  chip.append(el("b", "", `${signed(theirs)} ${unit()}`));
  return chip;
}

/** Net xu of a round's player over the chi revealed so far (sập once every chi is shown; before limits). */
function playerDelta(player) {
  const round = state.round;
  if (!round || !player) return null;
  const position = player.position;
  if (round.summary) {
    const row = round.summary.players.find((p) => p.user === player.user);
    return row && row.xu != null ? row.xu : null; // none in a withheld summary
  }
  const reveal = round.reveal;
  if (!reveal || reveal.withheld) return null;
  let total = 0;
  for (const pair of reveal.instant_pairs) {
    if (pair.a === position) total += pair.xu;
    if (pair.b === position) total -= pair.xu;
  }
  for (const chi of reveal.chi) {
    for (const pair of chi.pairs) {
      if (pair.a === position) total += pair.xu;
      if (pair.b === position) total -= pair.xu;
    }
  }
  return total + ((reveal.scoop_xu || {})[position] || 0); // what the sập multipliers add
}

export function nameOf(position) {
  const p = roundPlayer(position);
  const seat = state.seats.find((s) => (p ? s.user === p.user : s.position === position));
  if (p && p.user === config.user) return gettext("You");
  if (seat) return seat.name;
  const row = state.round && state.round.summary && state.round.summary.players.find((r) => r.position === position);
  return row ? row.name : fmt(gettext("Seat %(n)s"), { n: position + 1 });
}

export function renderMe() {
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
    // Before the first snapshot the page knows nothing to sit at.
    sit.disabled = !state.info || state.seats.length >= state.info.seats;
    sit.addEventListener("click", () => sitOnce({ type: "sit" }));
    head.append(sit);
    return;
  }
  head.append(seatHead(mine, seatPlayer(mine)));
  const by = state.round && state.round.you && state.round.you.auto_arranged;
  if (by && state.round.state !== "arranging") head.append(autoArrangedBadge(by));
}
