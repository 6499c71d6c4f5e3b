// The arrangement in progress, kept by the server (docs/rules.md#timing, docs/protocol.md
// "draft"): at the deadline a hand that was never sent plays its last complete draft if it
// is not binh lủng, else the engine's best arrangement (on_timeout "auto"). The page sends
// each new complete layout, at most one message every DRAFT_MS (the latest layout always
// goes out), and restores the server's draft after a reconnect.
import { isFoul } from "./hands.js";

const { gettext } = window;
const DRAFT_MS = 1000;
/** The `ref` of draft messages: their replies are not the player's business. */
export const DRAFT_REF = "draft";

export class DraftSender {
  constructor(live) {
    this.live = live;
    this.sent = null; // "round:layout" of the last draft the server has
    this.sentChi = null; // ... and that layout, for what the deadline will play
    this.pending = null;
    this.timer = null;
    this.last = 0;
  }

  /** The board changed: send its layout soon, if it is complete and not sent yet. */
  changed(round, arrangement, version) {
    if (!round || round.state !== "arranging" || !round.you || !arrangement || !arrangement.complete) return;
    const chi = arrangement.chi;
    const key = `${round.id}:${JSON.stringify(chi)}`;
    if (key === this.sent) {
      this.pending = null;
      return;
    }
    this.pending = { key, message: { type: "draft", round: round.id, chi, version, ref: DRAFT_REF } };
    if (!this.timer) this.timer = setTimeout(() => this.flush(), Math.max(0, this.last + DRAFT_MS - Date.now()));
  }

  flush() {
    this.timer = null;
    const pending = this.pending;
    this.pending = null;
    if (!pending || !this.live.open) return;
    this.last = Date.now();
    this.sent = pending.key;
    this.sentChi = { round: pending.message.round, chi: pending.message.chi };
    this.live.send(pending.message);
  }

  /** The server already holds this layout (a snapshot gave it back): nothing to send. */
  known(roundId, chi) {
    if (!chi) return;
    this.sent = `${roundId}:${JSON.stringify(chi)}`;
    this.sentChi = { round: roundId, chi };
  }

  /** The last complete layout the server holds for this round (a draft or pending one). */
  lastChi(roundId) {
    if (this.pending && this.pending.message.round === roundId) return this.pending.message.chi;
    return this.sentChi && this.sentChi.round === roundId ? this.sentChi.chi : null;
  }
}

/** What the deadline will do with my hand, as the server decides it (docs/rules.md, the
 * deadline): `resend` (a changed submission goes out by itself), `keep` (the submission
 * stands; the change is incomplete or binh lủng), `foul` (a strict table), `draft` (the
 * layout on the board is played), `last_draft` (the last complete one sent), `engine`. */
export function deadlineOutcome({ sent, dirty, board, lastDraft, onTimeout, preset }) {
  const legal = (chi) => !!chi && chi.flat().length === 13 && !isFoul(chi[0], chi[1], chi[2], preset);
  const complete = !!board && board.complete;
  if (sent) {
    if (!dirty) return null;
    return complete && legal(board.chi) ? "resend" : "keep";
  }
  if (onTimeout === "foul") return "foul";
  if (complete && legal(board.chi)) return "draft";
  if (!complete && legal(lastDraft)) return "last_draft";
  return "engine";
}

/** The centre's words for an outcome of `deadlineOutcome`, short enough for a phone. */
export function deadlineNote(outcome) {
  return {
    resend: gettext("Your changes are sent by themselves just before the end."),
    keep: gettext("Your changes are not sent (incomplete or binh lủng): the arrangement you sent is played."),
    foul: gettext("At this table a hand not sent in time is binh lủng: press Done now!"),
    draft: gettext("If you do not press Done, your cards are played as they are laid out now."),
    last_draft: gettext("If you do not press Done, the last complete layout you had is played."),
    engine: gettext("If you do not press Done, your cards are arranged for you (the engine's best)."),
  }[outcome] || "";
}

/** The layout to show after a (re)load: once arranging is over (or the hand was played for
 * its owner), what was played; before, this tab's own (possibly unfinished) layout, else the
 * server's draft (the last complete one, from any tab or device), else the submission. */
export function layoutToRestore(local, mine, round) {
  if (mine.arrangement && (mine.auto_arranged || round.state !== "arranging")) return mine.arrangement;
  if (local && local.flat().length) return local;
  return mine.draft || mine.arrangement;
}

/** Near the deadline the page re-sends a changed arrangement only for a player who already
 * sent one (a hand never sent is played from its draft by the server), never a binh lủng. */
export function shouldAutoSubmit(mine, arrangement, preset) {
  if (!mine || !mine.arrangement || !arrangement || !arrangement.complete) return false;
  const [c1, c2, c3] = arrangement.chi;
  return !isFoul(c1, c2, c3, preset);
}

/** What happens when the time runs out, as the table's rules say. */
export function timeoutNote(rules) {
  return rules && rules.on_timeout === "foul"
    ? gettext("Press Done to send your arrangement. At this table a hand not sent in time is binh lủng.")
    : gettext("Press Done to send your arrangement. If the time runs out, your arrangement is played for you if it is legal, otherwise the best arrangement of your cards.");
}

/** The "tự xếp" badge of a hand played for its owner, saying by what (its draft or the engine). */
export function autoArrangedBadge(by) {
  const badge = document.createElement("span");
  badge.className = "badge auto-badge";
  badge.dataset.by = by;
  badge.textContent = gettext("Auto-arranged");
  badge.title = by === "draft"
    ? gettext("Not sent in time: the arrangement laid out was played.")
    : gettext("Not sent in time: the best arrangement of these cards was played.");
  return badge;
}

/** Told once to the player whose hand was played for them. */
export function autoArrangedNote(by) {
  return by === "draft"
    ? gettext("Time ran out: the arrangement you had laid out was played for you (tự xếp).")
    : gettext("Time ran out: your cards were arranged for you (tự xếp), in the best arrangement.");
}
