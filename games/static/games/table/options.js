// The table's tools: leaving (with what it costs right now), the four-colour deck and
// the provably-fair client seed.
import { $, amPlaying, config, fmt, gettext, send, state, toast, xu } from "./core.js";

// --- leaving ---------------------------------------------------------------------------------

$("leave-button").addEventListener("click", () => {
  $("leave-cost").textContent = leaveCost();
  $("leave-dialog").showModal();
});

$("leave-dialog").addEventListener("close", async () => {
  if ($("leave-dialog").returnValue !== "leave") return;
  if (!state.you.seated) {
    location.href = config.lobby;
    return;
  }
  const reply = await send({ type: "leave" });
  if (reply.type === "ok") location.href = config.lobby;
});

function leaveCost() {
  const round = state.round;
  const stake = state.info ? state.info.stake : 0;
  if (!state.you.seated) return gettext("You are watching; leaving costs nothing.");
  if (!round || !amPlaying() || round.state === "settled") return gettext("No round is being played: leaving now costs nothing.");
  const opponents = round.players.filter((p) => p.position !== round.you.position && p.status === "playing").length;
  const mine = round.players.find((p) => p.position === round.you.position);
  const hold = mine ? mine.hold : 0;
  if (round.state === "arranging") {
    return fmt(
      gettext("The round is being played. Leaving now forfeits all three chi to each of your %(n)s opponent(s): you lose at least %(min)s xu, and bonuses can make it more (never more than the %(hold)s xu held for this round)."),
      { n: opponents, min: xu(3 * stake * opponents), hold: xu(hold) },
    );
  }
  const left = 3 - (round.revealed || 0);
  if (left <= 0) return gettext("The showdown is almost over: leaving now changes nothing in this round's result.");
  return fmt(
    gettext("The showdown has started. Leaving now forfeits the %(left)s chi not yet revealed to each opponent (at most the %(hold)s xu held for this round)."),
    { left, hold: xu(hold) },
  );
}

// --- options -----------------------------------------------------------------------------------

const fourColor = $("four-color");
fourColor.checked = localStorage.getItem("maubinh:four-color") === "1";
document.body.classList.toggle("four-color", fourColor.checked);
fourColor.addEventListener("change", () => {
  document.body.classList.toggle("four-color", fourColor.checked);
  localStorage.setItem("maubinh:four-color", fourColor.checked ? "1" : "0");
});

$("seed-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const seed = $("client-seed").value.trim();
  if (!seed) return;
  const reply = await send({ type: "client_seed", seed });
  if (reply.type !== "ok") return;
  // A duplicate table deals each board with the board's own public seed (docs/duplicate.md).
  toast(config.is_duplicate ? gettext("Saved, but your client seed does nothing at a duplicate table.") : gettext("Your client seed will be used in the next deal."));
});
