#!/usr/bin/env python3
"""Writes the sample captures in captures/ (deterministic: same bytes every run).

The captures follow docs/protocol.md 4.2 as a well-behaved bridge sees it at MTU 247: connect,
subscribe, SET_TIME, Sync Control read, START with chunk_size 17, one ACK per chunk after the
records are stored, the forced Current State notification, disconnect.

    python3 scripts/make_captures.py            # rewrites captures/*.aqcap
"""
import json
import os
import random
import struct
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "captures")


def utc(text):
    """Epoch seconds of an ISO 8601 UTC time such as 2026-11-20T00:00:00."""
    return int(datetime.fromisoformat(text).replace(tzinfo=timezone.utc).timestamp())


DEVICE = {"name": "Aquavate-A3F2", "address": "F4:12:FA:00:A3:F4"}


class Bottle:
    """Just enough of the bottle to produce consistent records and states."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.level = 830
        self.next_id = 1
        self.records = []  # [id, ts, amount, level, type, flags]

    def drink(self, ts, amount=None):
        if amount is None:
            amount = self.rng.choice([35, 45, 60, 80, 120, 150, 200, 250])
        if self.level - amount < 0:
            self.level = 830  # refill: moves the baseline, creates no record (B8)
        self.level -= amount
        rec = [self.next_id, ts, amount, self.level, 1 if amount >= 100 else 0, 0]
        self.next_id += 1
        self.records.append(rec)
        return rec

    def unsynced(self):
        return [r for r in self.records if not r[5] & 0x01]

    def current_state(self, ts, daily_total):
        unsynced = len(self.unsynced())
        return struct.pack("<IhHHBBH", ts, self.level, self.level, daily_total & 0xFFFF, 87, 0x07, unsynced)


def record_bytes(r):
    return struct.pack("<IIhHBB", r[0], r[1], r[2], r[3] & 0xFFFF, r[4], r[5])


def chunk_bytes(index, total, recs):
    return struct.pack("<HHBB", index, total, len(recs), 0) + b"".join(record_bytes(r) for r in recs)


class Capture:
    def __init__(self, path, created):
        self.path = path
        self.lines = [json.dumps({"aqcap": 1, "created": created, "source": "aquavate-bridge 0.1.0",
                                  "device": DEVICE, "mtu": 247}, separators=(",", ":"))]

    def ev(self, t, op, char=None, value=None, **extra):
        e = {"t": round(t, 3), "op": op}
        if char:
            e["char"] = char
        if value is not None:
            e["value"] = value.hex()
        e.update(extra)
        self.lines.append(json.dumps(e, separators=(",", ":")))

    def save(self):
        with open(self.path, "w") as f:
            f.write("\n".join(self.lines) + "\n")


def sync_session(cap, bottle, t, daily_total, chunk_size=17, drop_after_chunk=None):
    """One connection: returns the time after it. drop_after_chunk=k: the link drops after
    chunk k arrived and before its ACK (TV31)."""
    cap.ev(t, "connect")
    t += 0.35
    cap.ev(t, "write", "command", b"\x10" + struct.pack("<I", int(t)))
    t += 0.05
    cap.ev(t, "read", "current-state", bottle.current_state(int(t) - 3, daily_total))
    t += 0.04
    pending = bottle.unsynced()
    cap.ev(t, "read", "sync-control", struct.pack("<HHBBH", 0, len(pending), 0, 0, 20))
    if pending:
        t += 0.03
        cap.ev(t, "write", "sync-control", struct.pack("<HHBBH", 0, min(len(pending), 600), 1, 0, chunk_size))
        batch = pending[:600]
        total = (len(batch) + chunk_size - 1) // chunk_size
        for index in range(total):
            recs = batch[index * chunk_size:(index + 1) * chunk_size]
            t += 0.028
            cap.ev(t, "notify", "drink-data", chunk_bytes(index, total, recs))
            if drop_after_chunk == index:
                t += 1.2
                cap.ev(t, "disconnect", reason="timeout")
                return t
            t += 0.006
            cap.ev(t, "write", "sync-control", struct.pack("<HHBBH", 0, 0, 2, 0, 0))
        for r in batch:  # the final ACK marks the batch synced
            r[5] |= 0x01
        t += 0.03
        cap.ev(t, "notify", "current-state", bottle.current_state(int(t) - 2, daily_total))
    t += 0.25
    cap.ev(t, "disconnect", reason="local")
    return t


def day_of_syncs():
    """2026-11-20 in Madrid (UTC+1): drinks through the day, the bottle synced when handled."""
    cap = Capture(os.path.join(OUT, "day-of-syncs.aqcap"), "2026-11-20T06:30:00Z")
    bottle = Bottle(2026)
    day0 = utc("2026-11-20T00:00:00")
    rng = random.Random(7)
    total = 0
    t = None
    # (UTC hour:minute of the sync, drinks taken since the previous one)
    plan = [(6, 40, 1), (8, 15, 3), (10, 5, 2), (12, 30, 4), (14, 10, 2), (16, 45, 3), (19, 20, 2), (21, 50, 2)]
    previous = day0 + 6 * 3600
    for hour, minute, drinks in plan:
        sync_at = day0 + hour * 3600 + minute * 60
        for i in range(drinks):
            ts = previous + (sync_at - previous) * (i + 1) // (drinks + 1)
            rec = bottle.drink(ts)
            total += rec[2]
        t = sync_session(cap, bottle, sync_at + rng.random(), total)
        previous = sync_at
    cap.ev(t + 0.01, "note", text="end of the day")
    cap.save()


def interrupted_sync():
    """TV31: 30 unsynced, chunk 0 (17) ACKed, chunk 1 (13) received, link drops before its ACK.
    Nothing is marked; the next connection resends all 30 and completes."""
    cap = Capture(os.path.join(OUT, "interrupted-sync.aqcap"), "2026-11-19T18:00:00Z")
    bottle = Bottle(31)
    start = utc("2026-11-19T16:00:00")
    total = 0
    for i in range(30):
        total += bottle.drink(start - 30 * 1200 + i * 1200)[2]
    t = sync_session(cap, bottle, start + 120.5, total, drop_after_chunk=1)
    sync_session(cap, bottle, t + 95.0, total)
    cap.save()


def backlog_600():
    """A bottle left alone for weeks: a full ring of 600 unsynced drinks, 36 chunks."""
    cap = Capture(os.path.join(OUT, "backlog-600.aqcap"), "2026-11-21T07:00:00Z")
    bottle = Bottle(600)
    first = utc("2026-11-01T00:00:00")
    for i in range(600):
        day, slot = divmod(i, 30)
        bottle.drink(first + day * 86400 + 7 * 3600 + slot * 1500)
    sync_session(cap, bottle, utc("2026-11-21T07:00:00") + 0.25, 0)
    cap.save()


def truncated_readback():
    """B1: a client asking for 20-record chunks at MTU 247 gets 244-byte notifications; the
    bridge rejects the truncated chunk, reads the characteristic back (long read, 286 bytes),
    and ACKs only then. The read echo arrives as a notification too (docs/bluez.md 7.2)."""
    cap = Capture(os.path.join(OUT, "truncated-readback.aqcap"), "2026-11-21T09:00:00Z")
    bottle = Bottle(17)
    start = utc("2026-11-21T09:00:00")
    for i in range(25):
        bottle.drink(start - 25 * 900 + i * 900)
    t = start + 10.0
    cap.ev(t, "connect")
    pending = bottle.unsynced()
    t += 0.1
    cap.ev(t, "read", "sync-control", struct.pack("<HHBBH", 0, len(pending), 0, 0, 20))
    t += 0.03
    cap.ev(t, "write", "sync-control", struct.pack("<HHBBH", 0, len(pending), 1, 0, 20))
    full = chunk_bytes(0, 2, pending[:20])
    t += 0.03
    cap.ev(t, "notify", "drink-data", full[:244])
    t += 0.05
    cap.ev(t, "read", "drink-data", full)
    cap.ev(t + 0.001, "notify", "drink-data", full)
    t += 0.01
    cap.ev(t, "write", "sync-control", struct.pack("<HHBBH", 0, 0, 2, 0, 0))
    t += 0.03
    cap.ev(t, "notify", "drink-data", chunk_bytes(1, 2, pending[20:]))
    t += 0.01
    cap.ev(t, "write", "sync-control", struct.pack("<HHBBH", 0, 0, 2, 0, 0))
    for r in pending:
        r[5] |= 0x01
    t += 0.03
    cap.ev(t, "notify", "current-state", bottle.current_state(int(t), 0))
    t += 0.2
    cap.ev(t, "disconnect", reason="local")
    cap.save()


def wedge():
    """TV32: ring tail [#6 live, #7 live, #8 deleted], all unsynced. The first sync delivers
    #6 and #7; the second START loads nothing and the bottle stays silent (B2)."""
    cap = Capture(os.path.join(OUT, "wedge.aqcap"), "2026-11-21T12:00:00Z")
    bottle = Bottle(32)
    base = utc("2026-11-21T12:00:00")
    for i in range(8):
        bottle.drink(base - 8 * 600 + i * 600)
    for r in bottle.records[:5]:
        r[5] |= 0x01
    bottle.records[7][5] |= 0x04
    t = base + 5.0
    cap.ev(t, "connect")
    t += 0.1
    cap.ev(t, "read", "sync-control", struct.pack("<HHBBH", 0, 3, 0, 0, 20))
    t += 0.03
    cap.ev(t, "write", "sync-control", struct.pack("<HHBBH", 0, 3, 1, 0, 17))
    t += 0.03
    cap.ev(t, "notify", "drink-data", chunk_bytes(0, 1, bottle.records[5:7]))
    t += 0.01
    cap.ev(t, "write", "sync-control", struct.pack("<HHBBH", 0, 0, 2, 0, 0))
    bottle.records[5][5] |= 0x01
    bottle.records[6][5] |= 0x01
    t += 0.03
    cap.ev(t, "notify", "current-state", bottle.current_state(int(t), 0))
    t += 0.05
    cap.ev(t, "write", "sync-control", struct.pack("<HHBBH", 0, 1, 1, 0, 17))
    t += 3.0
    cap.ev(t, "read", "sync-control", struct.pack("<HHBBH", 0, 1, 0, 1, 17))
    cap.ev(t + 0.01, "note", text="no chunk 3 s after START: empty sync; unsynced_count 1 remembered, no retry")
    t += 0.2
    cap.ev(t, "disconnect", reason="local")
    cap.save()


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    day_of_syncs()
    interrupted_sync()
    backlog_600()
    truncated_readback()
    wedge()
    print("captures written to", OUT)
