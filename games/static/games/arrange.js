// The arranging area: 13 cards in an unplaced tray and three chi rows (5, 5, 3).
// Three ways to arrange, all on the same operations (move, swap):
//  - drag and drop (pointer events: mouse, pen and touch alike): drop a card on a chi or
//    the tray to move it, on another card to swap the two;
//  - tap: tap cards to select them, tap a chi to move them there; with one card selected,
//    tapping a card in another place swaps the two;
//  - keyboard: arrow keys move the focus, Space/Enter selects, 1/2/3 move the selection (or
//    the focused card) to a chi, 0 or Backspace back to the tray, S swaps two selected cards.
import { byRank, bySuit, cardElement } from "./cards.js";

const { gettext } = window;

export const CAPACITY = { 1: 5, 2: 5, 3: 3, tray: 13 };
const PLACES = ["1", "2", "3", "tray"];

export class Arrangement {
  constructor(cards) {
    this.cards = [...cards];
    this.places = { 1: [], 2: [], 3: [], tray: [...cards].sort(byRank) };
  }

  static restore(cards, chi) {
    const a = new Arrangement(cards);
    if (!chi) return a;
    const wanted = chi.flat();
    if (wanted.length > 13 || !wanted.every((c) => cards.includes(c)) || new Set(wanted).size !== wanted.length) return a;
    ["1", "2", "3"].forEach((place, i) => {
      a.places[place] = (chi[i] || []).slice(0, CAPACITY[place]);
    });
    const used = new Set(a.places[1].concat(a.places[2], a.places[3]));
    a.places.tray = cards.filter((c) => !used.has(c)).sort(byRank);
    return a;
  }

  placeOf(card) {
    return PLACES.find((p) => this.places[p].includes(card));
  }

  get complete() {
    return this.places.tray.length === 0;
  }

  get chi() {
    return [this.places[1], this.places[2], this.places[3]].map((row) => [...row]);
  }

  room(place) {
    return CAPACITY[place] - this.places[place].length;
  }

  /** Move cards to a place (appended). Returns false, changing nothing, if they do not fit. */
  move(cards, target) {
    const moving = cards.filter((c) => this.placeOf(c) !== target);
    if (moving.length > this.room(target)) return false;
    for (const card of moving) {
      const from = this.places[this.placeOf(card)];
      from.splice(from.indexOf(card), 1);
      this.places[target].push(card);
    }
    return true;
  }

  swap(a, b) {
    const pa = this.placeOf(a), pb = this.placeOf(b);
    const ia = this.places[pa].indexOf(a), ib = this.places[pb].indexOf(b);
    this.places[pa][ia] = b;
    this.places[pb][ib] = a;
  }

  sort(kind) {
    const order = kind === "suit" ? bySuit : byRank;
    for (const place of PLACES) this.places[place].sort(order);
  }

  clear() {
    this.places = { 1: [], 2: [], 3: [], tray: [...this.cards].sort(byRank) };
  }

  apply(chi) {
    this.places = { 1: [...chi[0]], 2: [...chi[1]], 3: [...chi[2]], tray: [] };
  }
}

/**
 * Binds an Arrangement to the DOM. `onChange(reason)` runs after every change;
 * `say(text)` announces a short message (status line / screen readers).
 */
export class ArrangeBoard {
  constructor({ rows, labels, onChange, say }) {
    this.rowEls = rows; // {1: el, 2: el, 3: el, tray: el}
    this.labels = labels; // buttons that move the selection to a place
    this.onChange = onChange;
    this.say = say;
    this.arrangement = null;
    this.selected = new Set();
    this.locked = false;
    this.focusCard = null;
    for (const [place, button] of Object.entries(labels)) {
      button.addEventListener("click", () => this.moveSelection(place));
    }
    for (const [place, el] of Object.entries(rows)) {
      el.addEventListener("click", (event) => {
        if (event.target === el) this.moveSelection(place);
      });
    }
    this.bindDrag();
    this.bindKeys();
  }

  load(arrangement) {
    this.arrangement = arrangement;
    this.selected.clear();
    this.render();
  }

  setLocked(locked) {
    this.locked = locked;
    this.render();
  }

  render() {
    const a = this.arrangement;
    for (const place of PLACES) {
      const el = this.rowEls[place];
      el.replaceChildren();
      if (!a) continue;
      for (const card of a.places[place]) {
        const button = cardElement(card, { tag: "button", size: place === "tray" ? "" : "" });
        button.classList.toggle("selected", this.selected.has(card));
        button.setAttribute("aria-pressed", this.selected.has(card) ? "true" : "false");
        button.disabled = this.locked;
        button.tabIndex = -1;
        button.addEventListener("click", () => this.tap(card));
        el.append(button);
      }
      if (place !== "tray") {
        for (let i = a.places[place].length; i < CAPACITY[place]; i++) {
          const slot = document.createElement("span");
          slot.className = "slot";
          slot.setAttribute("aria-hidden", "true");
          el.append(slot);
        }
      }
      if (place === "tray") el.closest(".tray-wrap").classList.toggle("empty", a.places.tray.length === 0);
      else el.closest(".row").classList.toggle("full", a.room(place) === 0);
    }
    for (const button of Object.values(this.labels)) button.disabled = this.locked;
    this.rovingFocus();
  }

  /** One tab stop for all 13 cards (roving tabindex); arrows move within it. */
  rovingFocus() {
    const buttons = this.buttons();
    if (!buttons.length) return;
    const current = buttons.find((b) => b.dataset.card === this.focusCard) || buttons[0];
    current.tabIndex = 0;
  }

  buttons() {
    return PLACES.flatMap((p) => [...this.rowEls[p].querySelectorAll("button.pcard")]);
  }

  changed(reason) {
    this.render();
    this.onChange(reason);
  }

  tap(card) {
    if (this.locked) return;
    const a = this.arrangement;
    if (this.selected.has(card)) {
      this.selected.delete(card);
    } else if (this.selected.size === 1) {
      const [other] = this.selected;
      if (a.placeOf(other) !== a.placeOf(card)) {
        a.swap(other, card);
        this.selected.clear();
        this.focusCard = card;
        this.changed("swap");
        return;
      }
      this.selected.add(card);
    } else {
      this.selected.add(card);
    }
    this.focusCard = card;
    this.render();
    this.focus(card);
  }

  moveSelection(place, cards = null) {
    if (this.locked || !this.arrangement) return;
    const moving = cards || [...this.selected];
    if (!moving.length) {
      this.say(gettext("Select one or more cards first."));
      return;
    }
    if (!this.arrangement.move(moving, place)) {
      const room = this.arrangement.room(place);
      const name = place === "tray" ? gettext("the unplaced cards") : window.interpolate(gettext("chi %s"), [place]);
      this.say(window.interpolate(gettext("Not enough room in %(place)s: %(room)s free."), { place: name, room }, true));
      return;
    }
    this.selected.clear();
    this.changed("move");
    if (moving.length) this.focus(moving[moving.length - 1]);
  }

  focus(card) {
    this.focusCard = card;
    const buttons = this.buttons();
    for (const b of buttons) b.tabIndex = b.dataset.card === card ? 0 : -1;
    const el = buttons.find((b) => b.dataset.card === card);
    if (el) el.focus();
  }

  bindKeys() {
    const root = this.rowEls[1].closest("section");
    root.addEventListener("keydown", (event) => {
      const target = event.target;
      if (!(target instanceof HTMLElement) || !target.matches("button.pcard") || this.locked) return;
      const card = target.dataset.card;
      const buttons = this.buttons();
      const index = buttons.indexOf(target);
      const key = event.key;
      if (key === "ArrowRight" || key === "ArrowDown" || key === "ArrowLeft" || key === "ArrowUp") {
        event.preventDefault();
        const step = key === "ArrowRight" || key === "ArrowDown" ? 1 : -1;
        const next = buttons[(index + step + buttons.length) % buttons.length];
        this.focus(next.dataset.card);
      } else if (key === "Home" || key === "End") {
        event.preventDefault();
        this.focus(buttons[key === "Home" ? 0 : buttons.length - 1].dataset.card);
      } else if (key === " " || key === "Enter") {
        event.preventDefault();
        if (this.selected.has(card)) this.selected.delete(card);
        else this.selected.add(card);
        this.render();
        this.focus(card);
      } else if (["1", "2", "3", "0", "Backspace", "Delete"].includes(key)) {
        event.preventDefault();
        const place = ["1", "2", "3"].includes(key) ? key : "tray";
        const cards = this.selected.size ? [...this.selected] : [card];
        this.moveSelection(place, cards);
      } else if (key === "s" || key === "S") {
        if (this.selected.size === 2) {
          event.preventDefault();
          const [x, y] = this.selected;
          this.arrangement.swap(x, y);
          this.selected.clear();
          this.changed("swap");
          this.focus(x);
        }
      }
    });
  }

  bindDrag() {
    const root = this.rowEls[1].closest("section");
    let drag = null;
    root.addEventListener("pointerdown", (event) => {
      const el = event.target.closest?.("button.pcard");
      if (!el || this.locked || event.button !== 0) return;
      drag = { el, card: el.dataset.card, x: event.clientX, y: event.clientY, ghost: null, id: event.pointerId };
    });
    root.addEventListener("pointermove", (event) => {
      if (!drag || event.pointerId !== drag.id) return;
      const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
      if (!drag.ghost) {
        if (Math.hypot(dx, dy) < 8) return;
        drag.ghost = drag.el.cloneNode(true);
        drag.ghost.classList.add("ghost");
        drag.ghost.removeAttribute("id");
        drag.ghost.setAttribute("aria-hidden", "true");
        const box = drag.el.getBoundingClientRect();
        drag.ghost.style.width = `${box.width}px`;
        drag.ghost.style.height = `${box.height}px`;
        drag.offset = { x: drag.x - box.left, y: drag.y - box.top };
        document.body.append(drag.ghost);
        drag.el.classList.add("dragging");
        try { root.setPointerCapture(event.pointerId); } catch { /* some pointers cannot be captured */ }
      }
      event.preventDefault();
      drag.ghost.style.transform = `translate(${event.clientX - drag.offset.x}px, ${event.clientY - drag.offset.y}px)`;
      this.highlightDrop(this.dropTarget(event.clientX, event.clientY));
    });
    const finish = (event) => {
      if (!drag || event.pointerId !== drag.id) return;
      const { ghost, card, el } = drag;
      drag = null;
      if (!ghost) return; // a plain click: handled by the click listener
      ghost.remove();
      el.classList.remove("dragging");
      this.highlightDrop(null);
      // The click that follows a drag must not also select the card.
      const swallow = (e) => { e.stopPropagation(); e.preventDefault(); };
      window.addEventListener("click", swallow, { capture: true, once: true });
      setTimeout(() => window.removeEventListener("click", swallow, { capture: true }), 0);
      if (event.type === "pointercancel") return;
      const target = this.dropTarget(event.clientX, event.clientY);
      if (!target) return;
      if (target.card && target.card !== card) {
        this.arrangement.swap(card, target.card);
        this.selected.clear();
        this.changed("swap");
      } else if (target.place) {
        const cards = this.selected.has(card) ? [...this.selected] : [card];
        this.moveSelection(target.place, cards);
      }
    };
    root.addEventListener("pointerup", finish);
    root.addEventListener("pointercancel", finish);
  }

  dropTarget(x, y) {
    const hit = document.elementsFromPoint(x, y).filter((el) => !el.classList.contains("ghost"));
    const cardEl = hit.find((el) => el.matches?.("button.pcard:not(.dragging)") && el.closest("[data-drop]"));
    if (cardEl) return { card: cardEl.dataset.card, el: cardEl };
    const zone = hit.map((el) => el.closest?.("[data-drop], .row, .tray-wrap")).find(Boolean);
    if (!zone) return null;
    const drop = zone.matches("[data-drop]") ? zone : zone.querySelector("[data-drop]");
    return drop ? { place: drop.dataset.drop, el: drop } : null;
  }

  highlightDrop(target) {
    for (const el of document.querySelectorAll(".drop-over")) el.classList.remove("drop-over");
    if (target) target.el.classList.add("drop-over");
  }
}
