"""Lighthouse (mobile profile) on the landing, lobby, table and rules pages.

Run: make lighthouse      (installs tools/lighthouse from its lock file, then this script)
 or: .venv/bin/python benchmarks/lighthouse.py [--runs 1] [--keep DIR]

Starts the site on the embedded default (a scratch SQLite file, in-process channel layer
and timers, ``DEBUG`` off: hashed, compressed static files as in production), signs a
player up and logs in through the login form, opens a quick-play table (its round is
dealt at once, so the table page is measured as a player sees it while arranging), then
runs Lighthouse (``tools/lighthouse``, pinned in its package-lock.json) on Debian's
Chromium (``CHROME_PATH=/usr/bin/chromium``, ``--no-sandbox --headless=new --disable-gpu``)
against each page: the landing and the rules logged out, the lobby and the table logged in
(the session cookie passed as a header). Prints the load average first (``uptime``), then
the four scores of each page, and exits 1 if any is below its target: performance ≥ 95,
accessibility 100, best practices 100, SEO ≥ 95. With ``--runs N`` each page is measured N
times and its median scores count. docs/ui.md records the figures.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support import processes
from tests.support.processes import ROOT, daphne, site_env

LIGHTHOUSE = ROOT / "tools" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = "--no-sandbox --headless=new --disable-gpu"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 95}
USERNAME, PASSWORD = "lighthouse", "maubinh-Lighthouse-42"

SETUP = """
from accounts import services as accounts
from bots import services as bots
user = accounts.sign_up(username={username!r}, password={password!r}, display_name="Lan")
print(bots.quick_play(user).pk)
"""


def manage(env: dict[str, str], *args: str) -> str:
    done = processes.manage(env, *args)
    if done.returncode != 0:
        raise SystemExit(f"manage.py {args[0]} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def log_in(base: str) -> str:
    """Log in through the login form as a browser does; returns the session cookie."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(base + "/accounts/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token, "the login form has a CSRF token"
    form = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token.group(1), "username": USERNAME, "password": PASSWORD}
    ).encode()
    request = urllib.request.Request(
        base + "/accounts/login/", data=form, headers={"Referer": base + "/accounts/login/"}
    )
    opener.open(request).close()
    cookies = {c.name: c.value for c in jar}
    if "sessionid" not in cookies:
        raise SystemExit("could not log in")
    return "; ".join(f"{name}={value}" for name, value in cookies.items())


def lighthouse(url: str, cookie: str | None, out: Path) -> dict[str, float]:
    args = [
        str(LIGHTHOUSE),
        url,
        "--quiet",
        f"--only-categories={','.join(CATEGORIES)}",
        "--output=json",
        f"--output-path={out}",
        f"--chrome-flags={CHROME_FLAGS}",
    ]
    if cookie:
        args.append(f"--extra-headers={json.dumps({'Cookie': cookie})}")
    env = {**os.environ, "CHROME_PATH": CHROME}
    done = subprocess.run(args, env=env, capture_output=True, text=True)
    if done.returncode != 0 or not out.exists():
        raise SystemExit(f"lighthouse failed on {url}:\n{done.stderr[-3000:]}")
    report = json.loads(out.read_text())
    scores = {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}
    audits = report["audits"]
    scores["cls"] = audits["cumulative-layout-shift"]["numericValue"]
    scores["lcp_ms"] = audits["largest-contentful-paint"]["numericValue"]
    return scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="runs per page (median counts)")
    parser.add_argument("--keep", type=Path, help="keep the JSON reports in this folder")
    options = parser.parse_args()
    if not LIGHTHOUSE.exists():
        raise SystemExit("Lighthouse is not installed: run `make lighthouse`")
    print("load:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    with tempfile.TemporaryDirectory() as scratch:
        tmp = Path(scratch)
        reports = options.keep or tmp
        reports.mkdir(parents=True, exist_ok=True)
        env = site_env(DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}", LOG_LEVEL="WARNING")
        manage(env, "migrate", "--noinput", "-v0")
        table = manage(
            env, "shell", "-c", SETUP.format(username=USERNAME, password=PASSWORD)
        ).split()[-1]
        with daphne(env, tmp / "daphne.log") as base:
            cookie = log_in(base)
            pages = [
                ("landing", "/", None),
                ("lobby", "/lobby/", cookie),
                ("table", f"/tables/{table}/", cookie),
                ("rules", "/rules/", None),
            ]
            failed = []
            print(f"{'page':<8} {'perf':>5} {'a11y':>5} {'bp':>5} {'seo':>5} {'CLS':>6} {'LCP':>7}")
            for name, path, auth in pages:
                runs = [
                    lighthouse(base + path, auth, reports / f"{name}-{n}.json")
                    for n in range(options.runs)
                ]
                score = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
                print(
                    f"{name:<8} {score['performance']:>5.0f} {score['accessibility']:>5.0f}"
                    f" {score['best-practices']:>5.0f} {score['seo']:>5.0f}"
                    f" {score['cls']:>6.3f} {score['lcp_ms']:>5.0f}ms"
                )
                failed += [
                    f"{name} {c} {score[c]:.0f} < {t}" for c, t in TARGETS.items() if score[c] < t
                ]
    if failed:
        print("below target:", "; ".join(failed))
        return 1
    print("every page meets its targets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
