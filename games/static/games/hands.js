// Hand strength in the browser: a mirror of games/rules/hands.py (docs/rules.md#five-card, #three-card, #instant).
// A hand's value is (category << 20) plus up to five 4-bit tie-break ranks, most significant
// first, exactly as the server computes it; tests/browser/test_hands_parity.py holds the two
// together. Used for the live hand names, the binh lủng warning and the mậu binh notice; the
// server alone decides results.
import { parseCard } from "./cards.js";

export const CATEGORY = {
  high_card: 1, pair: 2, two_pair: 3, three_of_a_kind: 4, straight: 5,
  flush: 6, full_house: 7, four_of_a_kind: 8, straight_flush: 9, four_aces: 10,
};
const KEYS = Object.fromEntries(Object.entries(CATEGORY).map(([k, v]) => [v, k]));
const NAMES = {
  high_card: ["Mậu thầu", "High card"], pair: ["Đôi", "Pair"], two_pair: ["Thú", "Two pair"],
  three_of_a_kind: ["Sám cô", "Three of a kind"], straight: ["Sảnh", "Straight"],
  flush: ["Thùng", "Flush"], full_house: ["Cù lũ", "Full house"],
  four_of_a_kind: ["Tứ quý", "Four of a kind"], straight_flush: ["Thùng phá sảnh", "Straight flush"],
  four_aces: ["Tứ quý A", "Four aces"],
};
export const INSTANT_NAMES = {
  dragon_flush: ["Rồng cuốn", "Dragon flush"], dragon: ["Sảnh rồng", "Dragon"],
  three_straight_flushes: ["Ba thùng phá sảnh", "Three straight flushes"],
  all_one_color: ["Đồng màu 1", "Thirteen of one color"],
  twelve_one_color: ["Đồng màu 2", "Twelve of one color"],
  five_pairs_trips: ["Năm đôi một sám", "Five pairs and three of a kind"],
  six_pairs: ["Lục phé bôn", "Six pairs"], four_trips: ["Bốn sám chi", "Four threes of a kind"],
  three_quads: ["Ba tứ quý", "Three fours of a kind"], three_flushes: ["Ba thùng", "Three flushes"],
  three_straights: ["Ba sảnh", "Three straights"],
};
const SHIFT = 20;
const ACE = 12;

function value(category, ...ranks) {
  let v = category * 2 ** SHIFT;
  let shift = SHIFT;
  for (const r of ranks) { shift -= 4; v += r * 2 ** shift; }
  return v;
}

export function categoryOf(v) { return KEYS[Math.floor(v / 2 ** SHIFT)]; }

export function handName(v, lang = document.documentElement.lang) {
  const names = NAMES[categoryOf(v)];
  return lang === "en" ? names[1] : names[0];
}

export function instantName(kind, lang = document.documentElement.lang) {
  const names = INSTANT_NAMES[kind];
  return names ? (lang === "en" ? names[1] : names[0]) : kind;
}

const cardsOf = (codes) => codes.map((c) => (typeof c === "string" ? parseCard(c) : c));
const ranksDesc = (cards) => cards.map((c) => c.rank).sort((a, b) => b - a);

/** Top rank of a five-card straight (the wheel A-2-3-4-5 tops at 5, rank 3), else null. */
export function straightTop(desc) {
  if (desc.join() === "12,3,2,1,0") return 3;
  if (new Set(desc).size === 5 && desc[0] - desc[4] === 4) return desc[0];
  return null;
}

/** The value of a five-card chi under a preset ("portal" or "classic"). */
export function eval5(codes, preset = "portal") {
  const cards = cardsOf(codes);
  const desc = ranksDesc(cards);
  const flush = cards.every((c) => c.suit === cards[0].suit);
  const top = straightTop(desc);
  if (top !== null && flush) {
    if (preset === "portal") {
      // Portal: 10-J-Q-K-A (thượng) > A-2-3-4-5 (hạ) > the others by top card.
      return value(CATEGORY.straight_flush, top === ACE ? 13 : top === 3 ? 12 : top);
    }
    return value(CATEGORY.straight_flush, top);
  }
  if (flush) return value(CATEGORY.flush, ...desc);
  if (top !== null) return value(CATEGORY.straight, top);
  const counts = new Map();
  for (const r of desc) counts.set(r, (counts.get(r) || 0) + 1);
  const groups = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const shape = groups.map((g) => g[1]).join("");
  const order = groups.map((g) => g[0]);
  if (shape === "41") {
    if (preset === "portal" && order[0] === ACE) return value(CATEGORY.four_aces, ACE);
    return value(CATEGORY.four_of_a_kind, ...order);
  }
  const category = { 32: "full_house", 311: "three_of_a_kind", 221: "two_pair", 2111: "pair", 11111: "high_card" }[shape];
  return value(CATEGORY[category], ...order);
}

/** The value of a three-card chi: only trips > pair > high card count. */
export function eval3(codes) {
  const [a, b, c] = ranksDesc(cardsOf(codes));
  if (a === c) return value(CATEGORY.three_of_a_kind, a);
  if (a === b) return value(CATEGORY.pair, a, c);
  if (b === c) return value(CATEGORY.pair, b, a);
  return value(CATEGORY.high_card, a, b, c);
}

/** Binh lủng: a later chi strictly stronger than an earlier one. */
export function isFoul(chi1, chi2, chi3, preset = "portal") {
  const v2 = eval5(chi2, preset);
  return v2 > eval5(chi1, preset) || eval3(chi3) > v2;
}

function rankCounts(cards) {
  const counts = new Map();
  for (const c of cards) counts.set(c.rank, (counts.get(c.rank) || 0) + 1);
  return counts;
}

const FREE = {
  dragon_flush: (cards, counts) => counts.size === 13 && new Set(cards.map((c) => c.suit)).size === 1,
  dragon: (cards, counts) => counts.size === 13,
  five_pairs_trips: (cards, counts, split) => {
    const n = [...counts.values()];
    const evens = split ? [2, 4] : [2];
    return n.filter((x) => x === 3).length === 1 && n.every((x) => x === 3 || evens.includes(x));
  },
  six_pairs: (cards, counts, split) => {
    let pairs = 0;
    for (const n of counts.values()) if (!(n === 4 && !split)) pairs += Math.floor(n / 2);
    return pairs === 6;
  },
  four_trips: (cards, counts, split) =>
    [...counts.values()].filter((n) => n === 3 || (n === 4 && split)).length === 4,
  three_quads: (cards, counts) => [...counts.values()].filter((n) => n === 4).length === 3,
  all_one_color: (cards) => colorCount(cards) === 13,
  twelve_one_color: (cards) => colorCount(cards) === 12,
};

function colorCount(cards) {
  const red = cards.filter((c) => c.suit === "D" || c.suit === "H").length;
  return Math.max(red, cards.length - red);
}

function top3(desc) {
  if (desc.join() === "12,1,0") return 1;
  if (new Set(desc).size === 3 && desc[0] - desc[2] === 2) return desc[0];
  return null;
}

const allFlush = (chi) => chi.every((part) => part.every((c) => c.suit === part[0].suit));
const allStraight = (chi) =>
  straightTop(ranksDesc(chi[0])) !== null && straightTop(ranksDesc(chi[1])) !== null && top3(ranksDesc(chi[2])) !== null;

const ARRANGED = {
  three_flushes: (chi) => allFlush(chi),
  three_straights: (chi) => allStraight(chi),
  three_straight_flushes: (chi) => allFlush(chi) && allStraight(chi),
};

/**
 * The strongest enabled instant win (mậu binh) of 13 cards, or null.
 * `rules` is the table's rules dict (preset, instant payouts in strength order, quads_split);
 * `chi` an arrangement [[5], [5], [3]] or null: arrangement kinds need it complete and not foul.
 */
export function findInstant(codes, rules, chi = null) {
  const cards = cardsOf(codes);
  const counts = rankCounts(cards);
  let shown = null;
  if (chi && chi[0].length === 5 && chi[1].length === 5 && chi[2].length === 3) {
    if (!isFoul(chi[0], chi[1], chi[2], rules.preset)) shown = chi.map(cardsOf);
  }
  for (const [kind, payout] of Object.entries(rules.instant)) {
    if (payout <= 0) continue;
    if (kind in ARRANGED) {
      if (shown && ARRANGED[kind](shown)) return kind;
    } else if (FREE[kind] && FREE[kind](cards, counts, rules.quads_split)) {
      return kind;
    }
  }
  return null;
}
