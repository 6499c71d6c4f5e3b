// A tournament's live state (its page and the panel on its tables): every message on the
// tournament socket is the whole public state with a version; the highest version wins.
import { STATE_LABELS, announceMyTable, cell, fmt, follow, number, resultLine, set as setIn, showOutcome } from "./common.js";
import { notifyAway } from "../js/notify.js";

const root = document.getElementById("tournament") || document.getElementById("tournament-info");
const { gettext } = window;
const set = (testid, text) => setIn(root, testid, text);
const here = root.dataset.table ? Number(root.dataset.table) : null; // a table page's table

let myTable; // the table I was seen playing at (undefined: nothing seen yet)

function render(s) {
  set("level", fmt(gettext("Level %(level)s: %(stake)s chips a chi"), { level: s.level, stake: number.format(s.stake) }));
  // Before the start nobody is "left": say who registered, and what everyone will have.
  set("players-left", s.state === "registering"
    ? fmt(gettext("%(registered)s of %(players)s registered: it starts when full"), { registered: s.registered, players: s.players })
    : fmt(gettext("%(left)s of %(players)s left"), { left: s.left, players: s.players }));
  set("tournament-state", STATE_LABELS[s.state] || s.state);
  const me = s.standings.find((r) => String(r.user) === root.dataset.me);
  const myChips = root.querySelector('[data-testid="my-chips"]');
  if (myChips) {
    myChips.textContent = !me ? ""
      : s.state === "registering" ? fmt(gettext("you start with %(chips)s chips"), { chips: number.format(s.starting_stack) })
      : fmt(gettext("your chips: %(chips)s"), { chips: number.format(me.stack) });
  }
  const body = document.getElementById("standings-body");
  if (body) {
    body.replaceChildren(...s.standings.map((r) => {
      const tr = document.createElement("tr");
      tr.dataset.user = r.user;
      if (me && r.user === me.user) tr.className = "me";
      tr.append(
        cell(r.rank ? String(r.rank) : "", "num"),
        cell(r.name + (r.is_bot ? " (bot)" : "")),
        cell(number.format(r.stack), "num"),
        cell(r.table_number ? String(r.table_number) : ""),
        cell(r.prize ? `${number.format(r.prize)} xu` : "", "num"),
      );
      return tr;
    }));
  }
  const busts = document.getElementById("bust-order");
  if (busts) {
    const names = new Map(s.standings.map((r) => [r.user, r.name]));
    busts.textContent = s.bust_order.map((u) => names.get(u)).join(", ");
  }
  const link = document.getElementById("my-table-link");
  if (link && me) {
    const playing = me.state === "playing" && me.table;
    link.hidden = !playing;
    if (playing) link.href = `/tables/${me.table}/`;
  }
  // My table starts, or I am moved to another one, while this page is open: announce it
  // (a countdown, a sound) and open the table; in the background, a notification too.
  if (me && me.state === "playing" && me.table && me.table !== myTable) {
    const firstDeal = (s.tables || []).some((t) => t.table === me.table && !t.dealt);
    if ((myTable !== undefined || firstDeal) && me.table !== here) {
      notifyAway(gettext("Your tournament table starts"), fmt(gettext("Table %(n)s: your cards are about to be dealt."), { n: me.table_number || "" }), { url: `/tables/${me.table}/`, tag: `tournament-${s.tournament}` });
      // From a table page (a move): go there; on the tournament's page: the link, counted down.
      announceMyTable(root, s, me, here, { moved: Boolean(myTable), go: Boolean(here) });
    }
    myTable = me.table;
  } else if (me && myTable === undefined) {
    myTable = null;
  }
  const result = root.querySelector('[data-testid="result"]');
  if (result && s.state === "finished") {
    result.textContent = resultLine(s, s.standings.find((r) => r.place === 1));
  }
  showOutcome(root, s);
}

follow(root, render);
