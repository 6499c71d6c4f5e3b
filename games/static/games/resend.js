// A request sent until the server answers it. An unanswered one (timeout), one the socket
// dropped (disconnected) or one the server failed (server_error) goes again with the same
// `ref`; the server treats a resend as the same request (docs/protocol.md: a resent
// `submit` counts once). Any other answer is final.

const RETRY = new Set(["timeout", "disconnected", "server_error"]);
const DELAYS_MS = [500, 1000, 2000, 4000];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves with the first final reply, or with the last failure once `stillWanted()`
 * says the request no longer matters (the round moved on).
 */
export async function untilAnswered(live, message, { stillWanted = () => true } = {}) {
  const ref = live.nextRef();
  for (let attempt = 0; ; attempt += 1) {
    const reply = await live.request(message, ref);
    if (reply.type === "ok" || !RETRY.has(reply.code) || !stillWanted()) return reply;
    await sleep(DELAYS_MS[Math.min(attempt, DELAYS_MS.length - 1)]);
    if (!stillWanted()) return reply;
  }
}
