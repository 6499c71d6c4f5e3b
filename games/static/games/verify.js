// The history page's Verify button: the server recomputes the deal from the revealed seeds.
const button = document.getElementById("verify-button");
if (button) {
  button.addEventListener("click", async () => {
    const out = document.getElementById("verify-result");
    const token = document.querySelector("input[name=csrfmiddlewaretoken]").value;
    button.disabled = true;
    try {
      const response = await fetch(button.dataset.url, { method: "POST", headers: { "X-CSRFToken": token, Accept: "application/json" }, credentials: "same-origin" });
      const data = await response.json();
      out.textContent = `${data.ok ? "✓" : "✗"} ${data.message}`;
      out.classList.toggle("win", !!data.ok);
      out.classList.toggle("lose", !data.ok);
    } finally {
      button.disabled = false;
    }
  });
}
