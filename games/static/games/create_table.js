// The create-table form's rules box follows the form: as the preset or a house rule changes,
// the server (games.rules, the code that will make the table) computes the rules of the table
// being made and this puts its answer in place of the box. The page never computes rules itself,
// so it cannot show rules the table would not get.
const box = document.getElementById("effective-rules");
const form = box && box.closest("form");
const DELAY_MS = 250; // one request once the player stops typing, not one per key

let timer = null;
let asked = 0;

function isRule(field) {
  return field.name === "preset" || Boolean(field.closest(".house-rules"));
}

async function refresh() {
  const number = ++asked;
  const query = new URLSearchParams(new FormData(form));
  query.delete("csrfmiddlewaretoken");
  let html;
  try {
    const response = await fetch(`${box.dataset.url}?${query}`, { credentials: "same-origin" });
    html = response.ok ? await response.text() : "";
  } catch {
    html = ""; // offline: the box keeps its last answer, and the server checks the form anyway
  }
  if (number !== asked) return; // a later change has asked again
  const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("effective-rules");
  if (fresh) box.replaceChildren(...fresh.childNodes);
  box.removeAttribute("aria-busy");
}

function changed(event) {
  if (!isRule(event.target)) return;
  box.setAttribute("aria-busy", "true"); // until the answer to the last change is in
  clearTimeout(timer);
  timer = setTimeout(refresh, DELAY_MS);
}

if (form) {
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
}
