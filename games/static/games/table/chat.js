// Table talk: the chat panel, quick phrases, reactions over the seats, mutes and reports.
// Everything a player wrote is put on the page with textContent, never as markup.
import { $, config, el, emit, fmt, gettext, on, reducedMotion, send, showError, state, toast } from "./core.js";

const chat = {
  ready: false,
  settings: null,
  host: false,
  private: false,
  post: [],
  phrases: new Map(),
  reactions: [],
  muted: new Set(),
  channel: "players",
  unread: 0,
  reporting: null,
};

const panel = () => $("chat");
const phone = () => window.matchMedia("(max-width: 700px)").matches;

function textOf(message) {
  return message.phrase ? chat.phrases.get(message.phrase) || message.phrase : message.text;
}

function line(message) {
  const item = el("li", `chat-line chat-${message.channel}`);
  item.dataset.id = String(message.id);
  item.dataset.user = String(message.user);
  const time = new Date(message.at);
  item.append(el("time", "chat-time", time.toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" })));
  item.append(el("strong", "chat-name", message.name));
  if (message.channel === "spectators") item.append(el("span", "chat-channel", gettext("spectator")));
  item.append(el("span", `chat-text${message.phrase ? " chat-phrase" : ""}`, textOf(message)));
  if (message.user !== config.user) {
    const mute = el("button", "chat-act", gettext("Mute"));
    mute.type = "button";
    mute.dataset.action = "mute";
    mute.setAttribute("aria-label", fmt(gettext("Mute %(name)s"), { name: message.name }));
    const report = el("button", "chat-act", gettext("Report"));
    report.type = "button";
    report.dataset.action = "report";
    report.setAttribute("aria-label", fmt(gettext("Report this message by %(name)s"), { name: message.name }));
    item.append(mute, report);
  }
  return item;
}

function showMessage(message) {
  if (chat.muted.has(message.user)) return;
  const log = $("chat-log");
  log.append(line(message));
  while (log.children.length > 100) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
  if (phone() && !panel().classList.contains("open") && message.user !== config.user) {
    chat.unread += 1;
    renderToggle();
  }
}

function renderToggle() {
  const badge = $("chat-unread");
  badge.hidden = chat.unread === 0;
  badge.textContent = String(chat.unread);
}

function renderControls() {
  const form = $("chat-form");
  const canPost = chat.post.length > 0;
  form.hidden = !canPost;
  $("chat-phrases").hidden = !canPost;
  $("chat-reactions").hidden = !state.you.seated;
  $("chat-readonly").hidden = canPost;
  chat.channel = chat.post[0] || "players";
  $("chat-host").hidden = !chat.host;
  $("chat-filter-field").hidden = !chat.private; // the filter is off only among friends
  if (chat.settings) {
    $("chat-spectators").value = chat.settings.spectators;
    $("chat-filter").checked = chat.settings.word_filter;
  }
  const mutedList = $("chat-muted");
  mutedList.replaceChildren();
  mutedList.hidden = chat.muted.size === 0;
  for (const user of chat.muted) {
    const again = el("button", "chat-act", fmt(gettext("Unmute #%(id)s"), { id: user }));
    again.type = "button";
    again.dataset.unmute = String(user);
    mutedList.append(again);
  }
}

function buildPickers() {
  const phrases = $("chat-phrases");
  phrases.replaceChildren();
  for (const [id, text] of chat.phrases) {
    const button = el("button", "chat-chip", text);
    button.type = "button";
    button.dataset.phrase = id;
    phrases.append(button);
  }
  const reactions = $("chat-reactions");
  reactions.replaceChildren();
  for (const { id, emoji } of chat.reactions) {
    const button = el("button", "chat-chip chat-emoji", emoji);
    button.type = "button";
    button.dataset.reaction = id;
    button.setAttribute("aria-label", fmt(gettext("React: %(emoji)s"), { emoji }));
    reactions.append(button);
  }
}

function floatReaction(message) {
  const felt = $("felt");
  const mine = state.seats.find((s) => s.user === config.user);
  const seat = mine && mine.position === message.position
    ? $("me-head")
    : document.querySelector(`#opponents .seat[data-position="${message.position}"]`);
  if (!felt || !seat) return;
  const box = felt.getBoundingClientRect();
  const at = seat.getBoundingClientRect();
  const bubble = el("span", "reaction-float", message.emoji);
  bubble.setAttribute("aria-hidden", "true");
  bubble.style.left = `${Math.max(0, at.left - box.left + at.width / 2 - 16)}px`;
  bubble.style.top = `${Math.max(0, at.top - box.top)}px`;
  felt.append(bubble);
  setTimeout(() => bubble.remove(), reducedMotion() ? 1500 : 2200);
}

async function request(message) {
  const reply = await send(message);
  if (reply.type === "error" && reply.code !== "disconnected" && reply.code !== "timeout") showError(reply.message);
  return reply;
}

on("message", (message) => {
  switch (message.type) {
    case "chat_state":
      chat.ready = true;
      chat.settings = message.settings;
      chat.host = message.host;
      chat.private = message.private;
      chat.post = message.post;
      chat.phrases = new Map(message.phrases.map((p) => [p.id, p.text]));
      chat.reactions = message.reactions;
      chat.muted = new Set(message.muted);
      $("chat-input").maxLength = message.max_length;
      buildPickers();
      $("chat-log").replaceChildren();
      message.history.forEach(showMessage);
      panel().hidden = false;
      $("chat-toggle").hidden = false;
      renderControls();
      break;
    case "chat_message":
      showMessage(message);
      break;
    case "chat_reaction":
      if (!chat.muted.has(message.user)) floatReaction(message);
      break;
    case "chat_settings":
      chat.settings = message.settings;
      renderControls();
      break;
    case "chat_role": // after a seat changed hands or the settings changed
      chat.host = message.host;
      chat.post = message.post;
      if (chat.ready) renderControls();
      break;
    default:
      break;
  }
});

$("chat-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text) return;
  const reply = await request({ type: "chat", text, channel: chat.channel });
  if (reply.type === "ok") input.value = "";
});

$("chat-phrases").addEventListener("click", (event) => {
  const button = event.target.closest("[data-phrase]");
  if (button) request({ type: "chat", phrase: button.dataset.phrase, channel: chat.channel });
});

$("chat-reactions").addEventListener("click", (event) => {
  const button = event.target.closest("[data-reaction]");
  if (button) request({ type: "react", reaction: button.dataset.reaction });
});

$("chat-log").addEventListener("click", async (event) => {
  const button = event.target.closest("[data-action]");
  if (!button) return;
  const item = button.closest(".chat-line");
  const user = Number(item.dataset.user);
  if (button.dataset.action === "mute") {
    const reply = await request({ type: "mute", user });
    if (reply.type !== "ok") return;
    chat.muted = new Set(reply.muted);
    for (const node of [...$("chat-log").children]) if (Number(node.dataset.user) === user) node.remove();
    renderControls();
    toast(gettext("Muted: you no longer see their messages."));
  } else {
    chat.reporting = Number(item.dataset.id);
    $("chat-report-text").value = "";
    $("chat-report-dialog").showModal();
  }
});

$("chat-muted").addEventListener("click", async (event) => {
  const button = event.target.closest("[data-unmute]");
  if (!button) return;
  const reply = await request({ type: "unmute", user: Number(button.dataset.unmute) });
  if (reply.type === "ok") {
    chat.muted = new Set(reply.muted);
    renderControls();
  }
});

$("chat-report-dialog").addEventListener("close", async () => {
  const dialog = $("chat-report-dialog");
  if (dialog.returnValue !== "report" || chat.reporting === null) return;
  const reply = await request({ type: "report_chat", message: chat.reporting, text: $("chat-report-text").value });
  chat.reporting = null;
  if (reply.type === "ok") toast(gettext("Thank you: the moderators will look at it."));
});

$("chat-host").addEventListener("change", () => {
  const change = { type: "chat_settings", spectators: $("chat-spectators").value };
  if (chat.private) change.word_filter = $("chat-filter").checked;
  request(change);
});

$("chat-toggle").addEventListener("click", () => {
  const open = !panel().classList.contains("open");
  panel().classList.toggle("open", open);
  $("chat-toggle").setAttribute("aria-expanded", String(open));
  if (open) {
    chat.unread = 0;
    renderToggle();
    $("chat-log").scrollTop = $("chat-log").scrollHeight;
  }
  emit("chat-toggled", open);
});
