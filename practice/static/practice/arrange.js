// The daily hand and practice pages: the table's arranging board (games/arrange.js) over the
// 13 cards the server dealt; the submit button sends the three chi as a form field. The server
// checks and prices them (the page knows nothing of the answer: no spoilers).
import { Arrangement, ArrangeBoard } from "../games/arrange.js";
import { eval3, eval5, handName, isFoul } from "../games/hands.js";

const $ = (id) => document.getElementById(id);
const form = $("arrange-form");
const cards = JSON.parse($("practice-hand").textContent);
const submit = $("submit-arrangement");
const input = $("chi-input");

const board = new ArrangeBoard({
  rows: { 1: $("row-1-cards"), 2: $("row-2-cards"), 3: $("row-3-cards"), tray: $("tray") },
  labels: { 1: $("row-1-button"), 2: $("row-2-button"), 3: $("row-3-button"), tray: $("tray-button") },
  onChange: () => render(),
  say: (text) => { $("arrange-status").textContent = text; },
});

function render() {
  const a = board.arrangement;
  const chi = a.chi;
  [5, 5, 3].forEach((size, i) => {
    const part = chi[i];
    $(`row-${i + 1}-hand`).textContent = part.length === size ? handName(size === 5 ? eval5(part) : eval3(part)) : "";
  });
  const foul = a.complete && isFoul(chi[0], chi[1], chi[2]);
  $("foul-warning").hidden = !foul;
  form.classList.toggle("is-foul", foul);
  submit.disabled = !a.complete || foul;
  input.value = a.complete ? JSON.stringify(chi) : "";
}

$("sort-rank").addEventListener("click", () => { board.arrangement.sort("rank"); board.changed("sort"); });
$("clear").addEventListener("click", () => { board.arrangement.clear(); board.changed("clear"); });
// One submit: a double click or a second Enter does not send it twice (the server refuses a
// second attempt anyway).
form.addEventListener("submit", (event) => {
  if (form.dataset.sent) {
    event.preventDefault();
    return;
  }
  form.dataset.sent = "1";
  submit.disabled = true;
});

board.load(new Arrangement(cards));
render();
