// Cards: parsing "AS"-style codes, accessible names in the page language, and rendering.
// Names mirror games.rules.cards.card_name_vi / card_name_en.
export const RANKS = "23456789TJQKA";
export const SUITS = "SCDH";
export const SUIT_SYMBOL = { S: "♠", C: "♣", D: "♦", H: "♥" };
const RANK_LABEL = { T: "10" };
const RANK_NAMES_VI = ["Hai", "Ba", "Bốn", "Năm", "Sáu", "Bảy", "Tám", "Chín", "Mười", "J", "Q", "K", "Át"];
const RANK_NAMES_EN = ["Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"];
const SUIT_NAMES_VI = { S: "bích", C: "chuồn", D: "rô", H: "cơ" };
const SUIT_NAMES_EN = { S: "spades", C: "clubs", D: "diamonds", H: "hearts" };

export function parseCard(code) {
  const text = code.toUpperCase().replace(/^10/, "T");
  const rank = RANKS.indexOf(text[0]);
  const suit = text[1];
  if (rank < 0 || !SUITS.includes(suit) || text.length !== 2) throw new Error(`not a card: ${code}`);
  return { code: RANKS[rank] + suit, rank, suit };
}

export function cardName(code, lang = document.documentElement.lang) {
  const { rank, suit } = parseCard(code);
  return lang === "en" ? `${RANK_NAMES_EN[rank]} of ${SUIT_NAMES_EN[suit]}` : `${RANK_NAMES_VI[rank]} ${SUIT_NAMES_VI[suit]}`;
}

export function rankLabel(code) {
  const r = code[0];
  return RANK_LABEL[r] || r;
}

/** Strongest first: rank high to low, then suit ♥ ♦ ♣ ♠ (suits never decide strength). */
export function byRank(a, b) {
  const x = parseCard(a), y = parseCard(b);
  return y.rank - x.rank || SUITS.indexOf(y.suit) - SUITS.indexOf(x.suit);
}

/** Grouped by suit (♠ ♣ ♦ ♥ as in the deck), high to low within a suit. */
export function bySuit(a, b) {
  const x = parseCard(a), y = parseCard(b);
  return SUITS.indexOf(x.suit) - SUITS.indexOf(y.suit) || y.rank - x.rank;
}

/**
 * A card face. `tag` "button" makes it a control (the arranging area); "span" a picture.
 * Every card carries its accessible name; the visible glyphs are hidden from readers.
 */
export function cardElement(code, { tag = "span", size = "", faceDown = false } = {}) {
  const el = document.createElement(tag);
  el.className = `pcard${size ? ` pcard-${size}` : ""}`;
  if (faceDown) {
    el.classList.add("pcard-back");
    if (tag !== "button") el.setAttribute("aria-hidden", "true");
    return el;
  }
  const { suit } = parseCard(code);
  el.dataset.card = code;
  el.dataset.suit = suit;
  if (tag === "button") {
    el.type = "button";
    el.setAttribute("aria-label", cardName(code));
  } else {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", cardName(code));
  }
  const rank = rankLabel(code);
  const symbol = SUIT_SYMBOL[suit];
  // The glyphs are CSS-generated from data attributes: the accessible name is the card's
  // name alone ("Át bích"), with no visible text to contradict it.
  const corner = document.createElement("span");
  corner.className = "pcard-corner";
  corner.dataset.r = rank;
  corner.dataset.s = symbol;
  const pip = document.createElement("span");
  pip.className = "pcard-pip";
  pip.dataset.s = symbol;
  el.append(corner, pip);
  return el;
}
