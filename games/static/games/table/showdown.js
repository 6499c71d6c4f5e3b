// The showdown and the summary: the steps (mậu binh, chi 1–3, summary), each chi's
// pairs, my rows' results, and the round's summary table.
import { cardElement } from "../cards.js";
import { instantName } from "../hands.js";
import { breakdownLine, pairFromMySide, scoopList, scoopName, scoopWhy, unitName } from "../results.js";
import { $, config, el, fmt, gettext, myRound, ngettext, now, send, signed, state, xu } from "./core.js";
import { nameOf } from "./seats.js";

// Bonus names in the page's language, from games.rules (games.views.table puts them in config).
const BONUS_NAMES = config.bonus_names || {};

export function renderStage() {
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
  if (reveal.withheld) {
    // A duplicate board I may still be dealt: its cards stay hidden (docs/duplicate.md).
    stage.append(el("div", "stage-panel withheld-panel", gettext("This board's cards are shown only to those who have played it: you may still be dealt it.")));
    return;
  }
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
  const unit = unitName(reveal.stakes_in);
  for (const pair of reveal.instant_pairs) {
    if (pair.units === 0) {
      list.append(el("li", "", fmt(gettext("%(a)s and %(b)s: tie"), { a: nameOf(pair.a), b: nameOf(pair.b) })));
      continue;
    }
    const [winner, loser] = pair.units > 0 ? [pair.a, pair.b] : [pair.b, pair.a];
    list.append(el("li", "", fmt(gettext("%(w)s wins %(x)s %(unit)s from %(l)s"), { w: nameOf(winner), l: nameOf(loser), x: xu(Math.abs(pair.xu)), unit })));
  }
  panel.append(list);
  return panel;
}

/** How many opponents each player had in the round (position → count), for the scoops' words. */
function opponentsBy(summary) {
  const playing = summary.players.length;
  return Object.fromEntries(summary.players.map((p) => [p.position, playing - 1]));
}

function opponentsOf(chi) {
  const hands = chi ? chi.hands.length : 0;
  return Object.fromEntries((chi ? chi.hands : []).map((h) => [h.position, hands - 1]));
}

const REASONS = () => ({ foul: gettext("binh lủng"), forfeit: gettext("left the table"), tie: gettext("tie"), both_out: gettext("both out") });

/** My result against each opponent: each chi (with its bonus or why it went that way),
 * the sập with its reason in words, the limit, and the pair's total, which is what the
 * ledger moved between us (issue 25: a breakdown a player can read). */
function versusList(summary, me, unit) {
  const pairs = summary.pairs || [];
  if (!pairs.length) return null;
  const points = summary.stakes_in === "points";
  const stake = state.info ? state.info.stake : 1;
  const section = el("section", "versus");
  section.dataset.testid = "versus";
  const title = el("h3", "", gettext("Against each opponent"));
  section.append(title);
  const list = el("ul", "versus-list");
  const opponents = summary.players.length - 1;
  for (const pair of pairs) {
    const mine = pairFromMySide(pair, me.position, { points, stake });
    if (!mine) continue;
    const li = el("li", "versus-line");
    li.dataset.opponent = String(mine.opponent);
    li.dataset.total = String(mine.total);
    const head = el("div", "versus-head");
    head.append(el("span", "versus-name", nameOf(mine.opponent)));
    head.append(el("b", `versus-total ${mine.total > 0 ? "win" : mine.total < 0 ? "lose" : ""}`, `${signed(mine.total)} ${unit}`));
    li.append(head);
    const items = [];
    let counted = 0;
    for (const part of mine.parts) {
      counted += part.amount;
      if (part.kind === "instant") {
        const kind = part.instant ? instantName(part.instant.kind) : gettext("Mậu binh");
        items.push(`${kind} ${signed(part.amount)}`);
        continue;
      }
      let why = "";
      if (part.bonus) why = fmt(gettext("%(name)s ×%(units)s"), { name: BONUS_NAMES[part.bonus] || part.bonus, units: Math.abs(part.units) });
      else if (part.reason && part.reason !== "compare") why = REASONS()[part.reason] || "";
      items.push(`${fmt(gettext("Chi %(n)s"), { n: part.chi })} ${signed(part.amount)}${why ? ` (${why})` : ""}`);
    }
    if (mine.scoop) {
      const extra = counted * (mine.scoop.x - 1);
      items.push(`${scoopName(mine.scoop.kind)} ×${mine.scoop.x}${extra ? ` ${signed(extra)}` : ""}`);
      counted += extra;
    }
    const cap = mine.total - counted;
    if (cap) items.push(fmt(gettext("limit %(xu)s"), { xu: signed(cap) }));
    li.append(el("p", "versus-parts", items.join(" · ")));
    if (mine.scoop) {
      const scoop = { loser: Number(mine.scoop.loser), kind: mine.scoop.kind, x: mine.scoop.x, by: [Number(mine.scoop.loser) === me.position ? mine.opponent : me.position] };
      const full = (summary.scoops || []).find((sc) => sc.loser === scoop.loser);
      li.append(el("p", "versus-why", scoopWhy(full || scoop, nameOf, opponents)));
    }
    list.append(li);
  }
  section.append(list);
  return section;
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
      li.append(el("b", "amount", ` ${xu(Math.abs(pair.xu))} ${unitName(reveal.stakes_in)}`));
      const why = reasonText(pair);
      if (why) li.append(el("span", "why", ` (${why})`));
    }
    list.append(li);
  }
  panel.append(list);
  if (n === 3 && reveal.scoops && reveal.scoops.length) panel.append(scoopList(reveal.scoops, nameOf, unitName(reveal.stakes_in), opponentsOf(reveal.chi[0])));
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
    out.textContent = `${signed(total)} ${unitName(reveal.stakes_in)}`;
    out.classList.add(total > 0 ? "win" : total < 0 ? "lose" : "even");
  }
}

/** The new rating and its change ("1 012 (+12)"); a dash for a player not rated. */
function ratingCell(rating) {
  if (!rating) return el("td", "num", "—");
  const change = rating.after - rating.before;
  const td = el("td", "num rating", `${xu(rating.after)} `);
  td.dataset.ratingChange = String(change);
  td.append(el("small", change > 0 ? "win" : change < 0 ? "lose" : "", `(${signed(change)})`));
  return td;
}

export function renderSummary(focus) {
  const round = state.round;
  const box = $("summary");
  if (round && round.state === "cancelled" && round.voided) return renderVoided(box, round.voided, focus);
  if (!round || !round.summary) {
    box.hidden = true;
    return;
  }
  const summary = round.summary;
  const me = summary.players.find((p) => p.user === config.user);
  // What the round was played for (games.stakes): xu, a tournament's chips, or points,
  // which leave no balance; only xu touch the statement.
  const unit = unitName(summary.stakes_in);
  const inXu = (summary.stakes_in || "xu") === "xu";
  const balances = summary.stakes_in !== "points";
  box.dataset.unit = summary.stakes_in || "xu";
  box.replaceChildren();
  // A round I did not play in (it ended before I came, or I sat out) is the previous one.
  const heading = el("h2", "", me
    ? fmt(gettext("Round %(n)s: results"), { n: summary.number })
    : fmt(gettext("Previous round (%(n)s): results"), { n: summary.number }));
  heading.id = "summary-title";
  box.dataset.played = me ? "yes" : "no";
  box.append(heading);
  if (me) {
    const big = el("p", `result-big ${me.xu > 0 ? "win" : me.xu < 0 ? "lose" : "even"}`);
    big.textContent = me.xu > 0 ? fmt(gettext("You won %(x)s %(unit)s"), { x: xu(me.xu), unit }) : me.xu < 0 ? fmt(gettext("You lost %(x)s %(unit)s"), { x: xu(-me.xu), unit }) : gettext("You broke even");
    box.append(big);
    const parts = breakdownLine(me, summary.scoops, unit);
    if (parts) box.append(parts);
    const versus = versusList(summary, me, unit);
    if (versus) box.append(versus);
  }
  const table = el("table", "summary-table");
  const head = el("tr");
  const labels = [gettext("Player"), gettext("Chi won"), gettext("Chi lost"), fmt(gettext("Result (%(unit)s)"), { unit })];
  if (balances) labels.push(gettext("New balance"));
  // Rated rounds (people only, docs/ratings.md) show each player's rating and its change.
  if (summary.rated) labels.push(gettext("Rating"));
  for (const label of labels) {
    const th = el("th", "", label);
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  // A withheld summary (a duplicate board I may still be dealt) names the players and no
  // result: a result would tell how good the hand each one held was.
  const results = !summary.withheld;
  for (const row of summary.players) {
    const tr = el("tr", row.user === config.user ? "is-you" : "");
    tr.dataset.user = String(row.user);
    if (results) {
      tr.dataset.xu = String(row.xu || 0);
      tr.dataset.balance = String(row.balance);
      tr.dataset.status = row.status;
    }
    const th = el("th");
    const label = row.user === config.user ? fmt(gettext("%(name)s (you)"), { name: row.name }) : row.name;
    const name = el("span", "name", label);
    name.title = label;
    th.append(name);
    th.scope = "row";
    const notes = [];
    if (row.instant) notes.push(instantName(row.instant));
    if (row.foul && row.status !== "left") notes.push(gettext("binh lủng"));
    // The multiplier beside the word: sập 3 chi may count ×1 here and ×2 at a classic table.
    const scoop = (summary.scoops || []).find((sc) => sc.loser === row.position);
    if (row.scooped) notes.push(scoop ? `${scoopName(row.scooped)} ×${scoop.x}` : scoopName(row.scooped));
    if (row.status === "left") notes.push(gettext("left"));
    if (row.auto_arranged) notes.push(gettext("Auto-arranged"));
    if (notes.length) th.append(el("span", "notes", ` · ${notes.join(" · ")}`));
    tr.append(th);
    tr.append(el("td", "num", row.chi_won ?? "—"));
    tr.append(el("td", "num", row.chi_lost ?? "—"));
    tr.append(results ? el("td", `num ${row.xu > 0 ? "win" : row.xu < 0 ? "lose" : ""}`, signed(row.xu || 0)) : el("td", "num", "—"));
    if (balances) tr.append(el("td", "num", results ? xu(row.balance) : "—"));
    if (summary.rated) tr.append(ratingCell(results ? row.rating : null));
    body.append(tr);
  }
  table.append(thead, body);
  const scroll = el("div", "table-scroll");
  // A narrow screen may scroll the table sideways: keyboard users can too.
  scroll.tabIndex = 0;
  scroll.setAttribute("role", "region");
  scroll.setAttribute("aria-labelledby", "summary-title");
  scroll.append(table);
  box.append(scroll);
  if (summary.scoops && summary.scoops.length) box.append(scoopList(summary.scoops, nameOf, unit, opponentsBy(summary)));
  if (summary.unrated_reason === "bots") box.append(el("p", "muted summary-unrated", gettext("Rounds with a bot are not rated.")));
  if (summary.withheld) box.append(el("p", "muted summary-withheld", gettext("This board's cards are shown only to those who have played it: you may still be dealt it.")));
  box.append(seedLine(summary));
  const links = el("p", "summary-links");
  const ledger = el("a", "", gettext("Statement"));
  ledger.href = config.statement;
  // A dispute is one click away (the form explains the window).
  const dispute = el("a", "dispute-link", gettext("File a dispute"));
  dispute.href = config.dispute.replace("/0/", `/${summary.round}/`);
  // Someone who may still be dealt a duplicate board cannot open its rounds (404).
  if (!summary.withheld) {
    const detail = el("a", "", gettext("Round details"));
    detail.href = `${config.history}${summary.round}/`;
    links.append(detail, document.createTextNode(" · "));
  }
  if (inXu) links.append(ledger, document.createTextNode(" · "));
  links.append(dispute);
  box.append(links);
  showSummary(box, focus);
}

/** The deal's proof: the server seed and a link to verify it, or, for a duplicate board
 * still in play, the board's published hash and when its seed comes out. */
function seedLine(summary) {
  const line = el("p", "muted summary-seed");
  line.dataset.testid = "summary-seed";
  line.append(document.createTextNode(`${gettext("Server seed")}: `));
  if (summary.server_seed) {
    line.append(el("code", "mono", summary.server_seed), document.createTextNode(" · "));
    const verify = el("a", "", gettext("Verify this deal"));
    verify.href = `${config.history}${summary.round}/#fair-title`;
    line.append(verify);
    return line;
  }
  line.append(el("span", "seed-pending", gettext("revealed when the board closes")));
  line.append(document.createTextNode(" · SHA-256: "), el("code", "mono", summary.commitment));
  if (summary.board) {
    const hashes = el("a", "", fmt(gettext("Board %(n)s's published hash"), { n: summary.board.number }));
    hashes.href = config.duplicate.replace("/0/", `/${summary.board.schedule}/`);
    line.append(document.createTextNode(" · "), hashes);
  }
  return line;
}

/** A voided round: no results, every stake back (docs/protocol.md, "voided"). */
function renderVoided(box, voided, focus) {
  const me = voided.players.find((p) => p.user === config.user);
  box.replaceChildren();
  const heading = el("h2", "", fmt(gettext("Round %(n)s was voided"), { n: voided.number }));
  heading.id = "summary-title";
  box.dataset.played = me ? "yes" : "no";
  box.append(heading);
  const why = {
    settlement_failed: gettext("The round could not be settled, so it was cancelled."),
    tournament_stalled: gettext("The tournament made no progress for too long: the server ended it and cancelled this round."),
  }[voided.reason] || gettext("A moderator cancelled the round.");
  box.append(el("p", "result-big even", gettext("Every stake was returned: nobody won or lost.")));
  box.append(el("p", "", why));
  // Only xu are held at the deal: chips and points have nothing to return (games.stakes).
  if (me && (voided.stakes_in || "xu") === "xu") box.append(el("p", "", fmt(gettext("Returned to you: %(x)s xu. Your balance: %(b)s xu."), { x: xu(me.returned), b: xu(me.balance) })));
  // Someone who may still be dealt a duplicate board cannot open its rounds (404).
  if (!voided.withheld) {
    const detail = el("a", "", gettext("Round details"));
    detail.href = `${config.history}${voided.round}/`;
    const links = el("p", "summary-links");
    links.append(detail);
    box.append(links);
  }
  showSummary(box, focus);
}

/** The summary's last lines (when the next round starts; Ready, and Wait at a private
 * table: games.services.between), then show it. */
function showSummary(box, focus) {
  const row = el("div", "summary-next-row");
  const next = el("p", "summary-next");
  next.id = "summary-next";
  const actions = el("div", "between-actions");
  actions.id = "between-actions";
  const who = el("p", "between-who");
  who.id = "between-who";
  row.append(next, actions, who);
  box.append(row);
  renderSummaryNext();
  renderBetween();
  box.hidden = false;
  if (focus && !box.contains(document.activeElement)) box.focus({ preventScroll: true });
}

/** The summary stays until the next deal and says when that is. */
export function renderSummaryNext() {
  const line = $("summary-next");
  if (!line || $("summary").hidden) return;
  let text;
  if (state.startAt) {
    const seconds = Math.max(0, Math.ceil((Date.parse(state.startAt) - now()) / 1000));
    text = fmt(ngettext("The next round starts in %(n)s second.", "The next round starts in %(n)s seconds.", seconds), { n: seconds });
  } else if (state.seats.length < 2) {
    text = gettext("Waiting for players for the next round.");
  } else {
    text = ""; // no countdown yet (the host starts, or the server is about to)
  }
  if (line.textContent !== text) line.textContent = text;
}

/** Ready (the next deal comes as soon as every person seated is) and, at a private table,
 * Wait for me (more time, once a round; the server bounds it). */
export function renderBetween() {
  const actions = $("between-actions");
  const who = $("between-who");
  if (!actions || !who) return;
  const round = state.round;
  const over = round && (round.state === "settled" || round.state === "cancelled");
  const seated = state.seats.some((s) => s.user === config.user);
  if (!over || !seated || !state.startAt) {
    actions.replaceChildren();
    who.textContent = "";
    return;
  }
  const between = state.between && state.between.round === round.id ? state.between : { ready: [], waited: [] };
  const ready = between.ready.includes(config.user);
  const buttons = [];
  const readyButton = el("button", "button primary", ready ? gettext("Ready ✓") : gettext("Ready"));
  readyButton.type = "button";
  readyButton.id = "ready-button";
  readyButton.disabled = ready;
  readyButton.title = gettext("The next round is dealt as soon as everyone at the table is ready.");
  readyButton.addEventListener("click", () => send({ type: "ready", round: round.id }));
  buttons.push(readyButton);
  if (state.info && state.info.private && !between.waited.includes(config.user)) {
    const wait = el("button", "button ghost", gettext("Wait for me"));
    wait.type = "button";
    wait.id = "wait-button";
    wait.title = gettext("Asks the table for more time before the next deal (once a round).");
    wait.addEventListener("click", () => send({ type: "wait", round: round.id }));
    buttons.push(wait);
  }
  const same = actions.children.length === buttons.length
    && [...actions.children].every((b, i) => b.id === buttons[i].id && b.textContent === buttons[i].textContent);
  if (!same) actions.replaceChildren(...buttons); // focus stays on a button that did not change
  const name = (user) => {
    if (user === config.user) return gettext("you");
    const seat = state.seats.find((s) => s.user === user);
    return seat ? seat.name : "";
  };
  const parts = [];
  if (between.ready.length) parts.push(fmt(gettext("Ready: %(names)s"), { names: between.ready.map(name).filter(Boolean).join(", ") }));
  if (between.waited.length) parts.push(fmt(gettext("Asked to wait: %(names)s"), { names: between.waited.map(name).filter(Boolean).join(", ") }));
  who.textContent = parts.join(" · ");
}
