// Where a round's result came from, in words that agree with the chi badges and the ledger:
// each scoop is named once per scooped player (reveal / summary `scoops`), and a player's
// result is the sum of its instant wins, its three chi, the scoop multipliers and the caps
// (summary `breakdown`, games.selectors.result_breakdown). Amounts are in what the round
// was played for: the payload's `stakes_in` (games.stakes), named by unitName.
const { gettext } = window;
const fmt = (text, values) => window.interpolate(text, values, true);
const number = new Intl.NumberFormat((document.documentElement.lang || "vi") === "en" ? "en-US" : "vi-VN");
const signed = (n) => `${n > 0 ? "+" : n < 0 ? "−" : "±"}${number.format(Math.abs(n))}`;

function node(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text != null) el.textContent = text;
  return el;
}

/** What a round's amounts count, from its payload's `stakes_in`: xu, chips or points. */
export function unitName(stakesIn) {
  if (stakesIn === "chips") return gettext("chips");
  if (stakesIn === "points") return gettext("points");
  return "xu";
}

export function scoopName(kind) {
  return kind === "all" ? gettext("sập làng") : gettext("sập 3 chi");
}

/** One line per scooped player: "An: sập làng ×3 (by Bình, Chi, Dũng): −180 xu", and why
 * it counts that (``opponents``: position → how many opponents that player had). */
export function scoopList(scoops, nameOf, unit = "xu", opponents = {}) {
  const list = node("ul", "pair-list scoop-list");
  for (const scoop of scoops || []) {
    const by = scoop.by.map(nameOf).join(", ");
    const text = scoop.xu
      ? fmt(gettext("%(name)s: %(kind)s ×%(x)s (by %(by)s): %(xu)s %(unit)s"), { name: nameOf(scoop.loser), kind: scoopName(scoop.kind), x: scoop.x, by, xu: signed(-scoop.xu), unit })
      : fmt(gettext("%(name)s: %(kind)s ×%(x)s (by %(by)s)"), { name: nameOf(scoop.loser), kind: scoopName(scoop.kind), x: scoop.x, by });
    const li = node("li", "", text);
    li.dataset.loser = String(scoop.loser);
    const count = opponents[scoop.loser];
    if (count !== undefined) li.append(node("span", "scoop-why", ` ${scoopWhy(scoop, nameOf, count)}`));
    list.append(li);
  }
  return list;
}

/** "Chi 1 −30 · Chi 2 −30 · Chi 3 −30 · sập làng ×3 −180 = −270 xu": the parts of a result. */
export function breakdownLine(row, scoops, unit = "xu") {
  const parts = row && row.breakdown;
  if (!parts) return null;
  const items = [];
  if (parts.instant) items.push(fmt(gettext("Mậu binh %(xu)s"), { xu: signed(parts.instant) }));
  parts.chi.forEach((amount, i) => {
    if (amount || !parts.instant) items.push(fmt(gettext("Chi %(n)s %(xu)s"), { n: i + 1, xu: signed(amount) }));
  });
  if (parts.scoop) {
    const mine = (scoops || []).find((s) => s.loser === row.position);
    const label = mine ? `${scoopName(mine.kind)} ×${mine.x}` : gettext("from sập");
    items.push(`${label} ${signed(parts.scoop)}`);
  }
  if (parts.cap) items.push(fmt(gettext("limit %(xu)s"), { xu: signed(parts.cap) }));
  const line = node("p", "breakdown", `${items.join(" · ")} = ${signed(row.xu || 0)} ${unit}`);
  line.dataset.position = String(row.position);
  return line;
}

/** Why a scoop counts what it does, in words beside its number (docs/rules.md, scoops):
 * sập 3 chi is one opponent's three chi; sập làng, every opponent's. `opponents`: how many
 * opponents the scooped player had in the round. */
export function scoopWhy(scoop, nameOf, opponents) {
  const values = { loser: nameOf(scoop.loser), by: scoop.by.map(nameOf).join(", "), x: scoop.x };
  if (scoop.kind === "all") {
    return opponents <= 1
      ? fmt(gettext("%(loser)s lost all three chi to the only opponent at the table, %(by)s: that is sập làng, so the pair counts ×%(x)s."), values)
      : fmt(gettext("%(loser)s lost all three chi to every opponent: that is sập làng, so each of those pairs counts ×%(x)s."), values);
  }
  return scoop.x === 1
    ? fmt(gettext("%(loser)s lost all three chi to %(by)s (sập 3 chi); these rules pay nothing extra for it (×1), only sập làng is multiplied."), values)
    : fmt(gettext("%(loser)s lost all three chi to %(by)s (sập 3 chi): that pair counts ×%(x)s."), values);
}

/** A pair's result from `me`'s side (settlement `pairs`, docs/rules.md "Settlement"): the
 * opponent, each part in the round's unit and the total, which is what the ledger moved
 * between the two (before any house fee). `points`: amounts are units. */
export function pairFromMySide(pair, me, { points = false, stake = 1 } = {}) {
  const a = Number(pair.a);
  const b = Number(pair.b);
  if (a !== me && b !== me) return null;
  const sign = a === me ? 1 : -1;
  const total = sign * (points ? pair.units : pair.xu);
  // What one unit was worth in this pair: exact from the pair itself when nothing capped it.
  const perUnit = points ? 1 : pair.units && !pair.capped ? Math.abs(pair.xu / pair.units) : stake;
  const parts = [];
  if (pair.kind === "instant") {
    parts.push({ kind: "instant", amount: total, instant: pair.instant || null });
  } else {
    (pair.chi_detail || []).forEach((chi, i) => {
      const amount = sign * chi.units * perUnit;
      parts.push({ kind: "chi", chi: i + 1, amount, units: chi.units, bonus: chi.bonus, reason: chi.reason });
    });
  }
  return { opponent: a === me ? b : a, total, parts, scoop: pair.scoop || null, capped: !!pair.capped };
}
