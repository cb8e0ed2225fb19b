# What the test bed's two runs share (scenarios.py, the scenarios against the bridge binary;
# package_scenario.py, the Debian package under systemd): a failed check, a wait with a deadline,
# one timed entry of the report the host's suite reads, and the drinks a bridge's history holds.
import asyncio
import os
import sqlite3
import time
import traceback


class Failed(Exception):
    pass


def check(condition, what):
    if not condition:
        raise Failed(what)


async def wait_for(condition, seconds, what):
    """Polls the coroutine function `condition` until it is true; Failed after `seconds`."""
    deadline = time.monotonic() + seconds
    while not await condition():
        if time.monotonic() > deadline:
            raise Failed(f"timed out after {seconds} s waiting for {what}")
        await asyncio.sleep(0.5)


async def timed_entry(name, what, body):
    """Runs `body()` and returns the report's entry for it: what it checks, passed or why not (a
    failed check's message, anything else's traceback), its figures and its seconds."""
    entry = {"name": name, "checks": what}
    started = time.monotonic()
    try:
        entry["figures"] = await body()
        entry["passed"] = True
    except Failed as failure:
        entry["passed"], entry["failure"] = False, str(failure)
    except Exception:
        entry["passed"], entry["failure"] = False, traceback.format_exc()
    entry["seconds"] = round(time.monotonic() - started, 1)
    return entry


def stored_drinks(path):
    """(record_id, timestamp) of every drink in the history at `path`, repeats included; none
    while the bridge has not made it yet."""
    if not os.path.exists(path):
        return []
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        return db.execute("SELECT record_id, timestamp FROM drink").fetchall()
    except sqlite3.OperationalError:
        return []
    finally:
        db.close()
