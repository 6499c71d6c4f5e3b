// The host's invite links: copy to the clipboard, or share through the system sheet
// (the Web Share API) where the browser has one. No inline script: the CSP forbids it.
const gettext = window.gettext || ((text) => text);
const status = document.querySelector("[data-copy-status]");

function say(text) {
  if (status) status.textContent = text;
}

async function copy(input) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select(); // no clipboard access (an insecure origin): the link is selected to copy
    document.execCommand("copy");
  }
  say(gettext("Link copied."));
}

for (const row of document.querySelectorAll(".invite-link")) {
  const input = row.querySelector("[data-invite-url]");
  row.querySelector("[data-copy]").addEventListener("click", () => copy(input));
  const share = row.querySelector("[data-share]");
  const data = { title: row.dataset.shareTitle, url: input.value };
  if (navigator.share && (!navigator.canShare || navigator.canShare(data))) {
    share.hidden = false;
    share.addEventListener("click", () => {
      navigator.share(data).catch(() => {}); // closed by the user: nothing to do
    });
  }
}
