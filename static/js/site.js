// Every page: the phone menu, and forms that must not be sent twice. No inline handlers (CSP).

const header = document.querySelector("[data-menu]");
const toggle = header && header.querySelector(".menu-toggle");
const nav = header && header.querySelector(".site-nav");

if (header && toggle && nav) {
  // The nav is folded behind the button on narrow screens from the first paint (base.html,
  // CSS decides when); this script opens and closes it.
  const setOpen = (open) => {
    toggle.setAttribute("aria-expanded", String(open));
    header.classList.toggle("menu-open", open);
  };
  toggle.addEventListener("click", () => setOpen(toggle.getAttribute("aria-expanded") !== "true"));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && header.classList.contains("menu-open")) {
      setOpen(false);
      toggle.focus();
    }
  });
}

for (const form of document.querySelectorAll("form[data-submit-once]")) {
  form.addEventListener("submit", () => {
    for (const button of form.querySelectorAll("button[type=submit]")) button.disabled = true;
  });
}

for (const select of document.querySelectorAll("select[data-submit-on-change]")) {
  select.addEventListener("change", () => select.form.requestSubmit());
}

// The installable web app: a service worker that keeps only the offline page and the
// hashed static files (maubinh_site/pwa.py). Nothing depends on it.
const worker = document.documentElement.dataset.sw;
if (worker && "serviceWorker" in navigator) {
  navigator.serviceWorker.register(worker).catch(() => { /* private mode, or refused: the site works without */ });
}
