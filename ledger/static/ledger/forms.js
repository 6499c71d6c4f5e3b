// Behaviour the ledger's forms used to carry in inline handlers, which the
// Content-Security-Policy forbids: a form marked data-once disables its submit button
// as it is sent (a double click posts once); a select marked data-autosubmit sends its form.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-once")) return;
  for (const button of form.querySelectorAll("button, [type=submit]")) button.disabled = true;
});
document.addEventListener("change", (event) => {
  const select = event.target;
  if (select instanceof HTMLSelectElement && select.hasAttribute("data-autosubmit")) select.form.submit();
});
