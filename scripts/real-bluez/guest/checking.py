# What the two programs of the guest (scenarios.py, package_scenario.py) check with, alike: a
# failed check, a wait for a condition with a deadline, the drinks a history holds, and one
# scenario or step run into its entry of the results (its figures, whether it passed and why
# not, its seconds).
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
    deadline = time.monotonic() + seconds
    while not await condition():
        if time.monotonic() > deadline:
            raise Failed(f"timed out after {seconds} s waiting for {what}")
        await asyncio.sleep(0.5)


def stored(history):
    """(record_id, timestamp) of every drink in the bridge's history, repeats included."""
    if not os.path.exists(history):
        return []
    db = sqlite3.connect(f"file:{history}?mode=ro", uri=True, timeout=5)
    try:
        return db.execute("SELECT record_id, timestamp FROM drink").fetchall()
    except sqlite3.OperationalError:
        return []
    finally:
        db.close()


async def run_into(entry, work):
    """Awaits `work` and writes into `entry` its figures, `passed` (and `failure`) and `seconds`."""
    started = time.monotonic()
    try:
        entry["figures"] = await work
        entry["passed"] = True
    except Failed as failure:
        entry["passed"], entry["failure"] = False, str(failure)
    except Exception:
        entry["passed"], entry["failure"] = False, traceback.format_exc()
    entry["seconds"] = round(time.monotonic() - started, 1)
