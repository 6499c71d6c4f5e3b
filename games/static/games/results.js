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

/** One line per scooped player: "An: sập làng ×3 (by Bình, Chi, Dũng): −180 xu". */
export function scoopList(scoops, nameOf, unit = "xu") {
  const list = node("ul", "pair-list scoop-list");
  for (const scoop of scoops || []) {
    const by = scoop.by.map(nameOf).join(", ");
    const text = scoop.xu
      ? fmt(gettext("%(name)s: %(kind)s ×%(x)s (by %(by)s): %(xu)s %(unit)s"), { name: nameOf(scoop.loser), kind: scoopName(scoop.kind), x: scoop.x, by, xu: signed(-scoop.xu), unit })
      : fmt(gettext("%(name)s: %(kind)s (by %(by)s)"), { name: nameOf(scoop.loser), kind: scoopName(scoop.kind), by });
    const li = node("li", "", text);
    li.dataset.loser = String(scoop.loser);
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
