// The table page's entry module: it wires the parts in table/ together and connects.
//   core.js        config, live state, the server's clock, the websocket, hooks
//   connection.js  snapshots and versioned events
//   arranging.js   my cards: board, draft, hand names, Gợi ý, Xong
//   seats.js       opponents' seats and mine
//   center.js      what is happening and what comes next; Start
//   clock.js       the countdown ring, the auto-send near the deadline
//   showdown.js    the showdown chi by chi and the summary
//   options.js     leaving, four-colour deck, client seed
//   feel.js        sounds and their mute switch, the deal and flip animations
//   chat.js        table talk: messages, quick phrases, reactions, mutes, reports
import { $, amPlaying, live, on, state } from "./table/core.js";
import "./table/connection.js";
import { renderActions, renderArrangeInfo } from "./table/arranging.js";
import { renderMe, renderSeats } from "./table/seats.js";
import { renderCenter } from "./table/center.js";
import { renderBetween, renderStage, renderSummaryNext } from "./table/showdown.js";
import "./table/options.js";
import "./table/feel.js";
import "./table/chat.js";

function render() {
  // While I arrange, the opponents shrink to one line each so that my cards, the clock and
  // the buttons fit on the screen; they grow again for the showdown.
  const round = state.round;
  const felt = $("felt");
  felt.dataset.phase = round ? round.state : "idle";
  felt.classList.toggle("arranging", !!round && round.state === "arranging" && amPlaying());
  renderSeats();
  renderCenter();
  renderMe();
  renderArrangeInfo();
  renderActions();
  renderStage();
  renderBetween();
  $("commitment").textContent = state.round ? state.round.commitment : "—";
}

on("change", render);
on("board", renderCenter);
on("status", renderActions);
on("tick", renderSummaryNext);

live.connect();
render();
