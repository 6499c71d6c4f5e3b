"""An independent Mậu Binh Online client, written from docs/api.md and the OpenAPI schema.

Standard library only, no project import. It sits at a table that lets bots in (or opens
one), follows the table's NDJSON stream, arranges each dealt hand by a brute-force search
(chi 1 >= chi 2 >= chi 3, ranked as docs/rules.md says), submits with ``round_submit`` and
a ``ref``, prints each settled round and leaves the table after N rounds.

    MAUBINH_URL=http://127.0.0.1:8765 MAUBINH_TOKEN=mbp_... \
        python examples/independent_client.py --rounds 3
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from typing import Any

RANKS = "23456789TJQKA"


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, retry_after: float | None):
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.retry_after = status, code, retry_after


class Client:
    def __init__(self, url: str, token: str) -> None:
        self.api = url.rstrip("/") + "/api"
        self.headers = {"Authorization": f"Bearer {token}", "Accept-Language": "en"}
        self.refusals: Counter[str] = Counter()

    def _request(self, method: str, path: str, body: Any = None, timeout: float = 20):
        data = None if body is None else json.dumps(body).encode()
        headers = dict(self.headers)
        if data is not None:
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(self.api + path, data=data, method=method, headers=headers)
        return urllib.request.urlopen(req, timeout=timeout)

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """One JSON operation; waits out 429 and 503 as the docs say, raises other refusals."""
        while True:
            try:
                with self._request(method, path, body) as resp:
                    raw = resp.read()
                    return json.loads(raw) if raw else None
            except urllib.error.HTTPError as exc:
                raw = exc.read()
                try:
                    err = json.loads(raw)["error"]
                    code, message = err["code"], err["message"]
                except (ValueError, KeyError, TypeError):
                    code, message = "?", raw[:200].decode("utf-8", "replace")
                retry = exc.headers.get("Retry-After")
                self.refusals[f"{exc.code} {code}"] += 1
                if exc.code == 429 or (exc.code == 503 and code == "table_busy"):
                    time.sleep(float(retry) if retry else 1.0)
                    continue
                raise ApiError(exc.code, code, message, float(retry) if retry else None) from None

    def stream(self, path: str):
        """Yield the stream's objects; None for each keep-alive (an empty line)."""
        resp = self._request("GET", path, timeout=30)  # silent for 30 s: broken
        with resp:
            for line in resp:
                line = line.strip()
                yield json.loads(line) if line else None


# --- Hand ranking (docs/rules.md sections 3 and 4) ---------------------------------------


def rank_of(card: str) -> int:
    return RANKS.index(card[0])


def key5(cards: tuple[str, ...]) -> tuple:
    """(category, tie-break ranks): category 1 high card ... 9 straight flush."""
    ranks = sorted((rank_of(c) for c in cards), reverse=True)
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    by_group = [r for r, _ in groups]
    flush = len({c[1] for c in cards}) == 1
    straight_top = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:  # A-2-3-4-5 tops at 5
            straight_top = 3
    shape = sorted(counts.values(), reverse=True)
    if straight_top is not None and flush:
        return (9, [straight_top])
    if shape[0] == 4:
        return (8, by_group)
    if shape == [3, 2]:
        return (7, by_group)
    if flush:
        return (6, ranks)
    if straight_top is not None:
        return (5, [straight_top])
    if shape[0] == 3:
        return (4, by_group)
    if shape == [2, 2, 1]:
        return (3, by_group)
    if shape[0] == 2:
        return (2, by_group)
    return (1, ranks)


def key3(cards: tuple[str, ...]) -> tuple:
    ranks = sorted((rank_of(c) for c in cards), reverse=True)
    counts = Counter(ranks)
    by_group = [r for r, _ in sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)]
    shape = max(counts.values())
    return ({3: 4, 2: 2, 1: 1}[shape], by_group)


def not_stronger(later: tuple, earlier: tuple) -> bool:
    """rules.md: category first, then tie-break ranks over the shorter list; equal is fine."""
    if later[0] != earlier[0]:
        return later[0] < earlier[0]
    if later[0] == 9:  # two straight flushes: presets order them differently; be safe
        return later[1] == earlier[1]
    n = min(len(later[1]), len(earlier[1]))
    return later[1][:n] <= earlier[1][:n]


def arrange(cards: list[str]) -> list[list[str]]:
    """The legal arrangement with the most category points (then the strongest chi 2, chi 3)."""
    best, best_score = None, None
    for chi1 in itertools.combinations(cards, 5):
        k1 = key5(chi1)
        rest = [c for c in cards if c not in chi1]
        for chi2 in itertools.combinations(rest, 5):
            k2 = key5(chi2)
            if not not_stronger(k2, k1):
                continue
            chi3 = tuple(c for c in rest if c not in chi2)
            k3 = key3(chi3)
            if not not_stronger(k3, k2):
                continue
            score = (k1[0] + k2[0] + k3[0], k2, k3, k1)
            if best_score is None or score > best_score:
                best, best_score = [list(chi1), list(chi2), list(chi3)], score
    assert best is not None  # a descending sort is always legal
    return best


# --- Playing --------------------------------------------------------------------------


def find_table(client: Client, want: int | None) -> int:
    me = client.call("GET", "/account")
    if me.get("seat"):
        return int(me["seat"]["table"])
    if want is None:
        page = client.call("GET", "/tables?bots=true&free=true")
        for row in page.get("tables", []):
            try:
                client.call("POST", f"/tables/{row['id']}/sit", {})
                return int(row["id"])
            except ApiError as exc:
                print(f"could not sit at table {row['id']}: {exc}", file=sys.stderr)
        made = client.call(
            "POST",
            "/tables",
            {"name": "Independent client", "stake": 10, "seats": 2, "allow_bots": True},
        )
        table = made["table"]
        table_id = int(table["id"] if isinstance(table, dict) else table)
        if not made.get("seated"):
            client.call("POST", f"/tables/{table_id}/sit", {})
        return table_id
    client.call("POST", f"/tables/{want}/sit", {})
    return want


def submit(client: Client, round_id: int, version: int | None, chi: list[list[str]]) -> dict:
    body: dict[str, Any] = {"chi": chi, "ref": f"ic-{round_id}", "draft": False}
    if version is not None:
        body["version"] = version
    for attempt in range(5):
        try:
            return client.call("POST", f"/rounds/{round_id}/submit", body)
        except (TimeoutError, urllib.error.URLError, ConnectionError) as exc:
            print(f"submit {round_id}: network error {exc}, resending", file=sys.stderr)
            time.sleep(1 + attempt)
    raise RuntimeError(f"could not submit round {round_id}")


def settled(detail: dict) -> bool:
    return bool(detail.get("finished"))  # RoundFull.finished in the schema


def summarise(detail: dict, my_id: int) -> str:
    posts = detail.get("postings") or []
    delta = sum(int(p.get("delta", 0)) for p in posts)
    after = posts[-1].get("balance_after", posts[-1].get("balance")) if posts else "?"
    units = "?"
    for player in detail.get("players") or []:
        if player.get("user") == my_id or player.get("id") == my_id:
            units = player.get("units", "?")
    return f"units {units}, xu {delta:+d}, balance after {after}"


def play(client: Client, rounds: int, want: int | None) -> int:
    me = client.call("GET", "/account")
    my_id = int(me["id"])
    print(f"I am {me['username']} (id {my_id}, bot {me['is_bot']}), balance {me['balance']}")
    table = find_table(client, want)
    print(f"seated at table {table}")
    submitted: dict[int, float] = {}  # round id -> when
    done: set[int] = set()
    last_poll = 0.0
    try:
        while len(done) < rounds:
            try:
                for msg in client.stream(f"/tables/{table}/stream"):
                    if msg is not None and msg.get("type") == "end":
                        print(f"stream ended: {msg.get('reason')}", file=sys.stderr)
                        if msg.get("reason") in ("revoked", "forbidden"):
                            return 1
                        break
                    if time.monotonic() - last_poll < 1.0 and msg is None:
                        continue
                    last_poll = time.monotonic()
                    me = client.call("GET", "/account")
                    rnd = me.get("round")
                    if rnd and rnd["id"] not in submitted and not rnd.get("submitted"):
                        rid = int(rnd["id"])
                        cards = client.call("GET", f"/rounds/{rid}")["view"]["you"]["cards"]
                        chi = arrange(cards)
                        answer = submit(client, rid, rnd.get("version"), chi)
                        submitted[rid] = time.monotonic()
                        print(f"round {rid}: submitted {chi} -> foul {answer.get('foul')}")
                    for rid in [r for r in submitted if r not in done]:
                        detail = client.call("GET", f"/rounds/{rid}")
                        if settled(detail):
                            done.add(rid)
                            print(f"round {rid} settled: {summarise(detail, my_id)}")
                    if len(done) >= rounds:
                        break
            except (TimeoutError, urllib.error.URLError, ConnectionError) as exc:
                print(f"stream broke ({exc}); reconnecting", file=sys.stderr)
                time.sleep(1)
    finally:
        try:
            client.call("POST", f"/tables/{table}/leave")
            print(f"left table {table}")
        except ApiError as exc:
            print(f"leave refused: {exc}", file=sys.stderr)
        print(f"rounds played {len(done)}; refusals {dict(client.refusals) or 'none'}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--table", type=int, default=None, help="sit at this table")
    args = parser.parse_args()
    client = Client(os.environ["MAUBINH_URL"], os.environ["MAUBINH_TOKEN"])
    return play(client, args.rounds, args.table)


if __name__ == "__main__":
    sys.exit(main())
