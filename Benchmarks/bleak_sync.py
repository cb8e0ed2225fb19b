"""A one-shot sync of the Aquavate bottle with Python bleak: the baseline of Benchmarks/vs-bleak.sh.

It does what `aquavate-bridge run --once` does on a connection (docs/protocol.md 7.2), as closely as
bleak allows, so that the two whole processes can be compared:

  open the SQLite history (WAL, synchronous=FULL, the bridge's drink table and its unique key);
  scan filtered on the Aquavate service UUID, take the first device named "Aquavate-";
  connect (bleak waits for ServicesResolved and reads the GATT objects);
  subscribe to Current State and Drink Data;
  read the Device Information strings, Current State; write SET_TIME (UTC now); read Bottle
  Config and Device Settings; read Sync Control (the unsynced count);
  START (count = min(unsynced, 600), 17 records per chunk at MTU 247); for every chunk: check its
  length, INSERT OR IGNORE its records in ONE transaction, COMMIT (fsync of the WAL), THEN write
  one ACK; after the last ACK read Sync Control again;
  record the bottle's last sync, disconnect, exit.

  python bleak_sync.py DB_PATH        (BlueZ on DBUS_SYSTEM_BUS_ADDRESS; prints one summary line)
"""

import asyncio
import sqlite3
import struct
import sys
import time

from bleak import BleakClient, BleakScanner

SERVICE = "6f75616b-7661-7465-2d00-000000000000"


def characteristic(n: int) -> str:
    return SERVICE[:-1] + str(n)


CURRENT_STATE, BOTTLE_CONFIG, SYNC_CONTROL, DRINK_DATA, COMMAND, DEVICE_SETTINGS = (
    characteristic(1), characteristic(2), characteristic(3), characteristic(4), characteristic(5), characteristic(6))
DEVICE_INFORMATION = ["00002a29-0000-1000-8000-00805f9b34fb", "00002a24-0000-1000-8000-00805f9b34fb",
                      "00002a26-0000-1000-8000-00805f9b34fb", "00002a25-0000-1000-8000-00805f9b34fb"]
RECORD = struct.Struct("<IIhhBB")
ACK = bytes([0, 0, 0, 0, 2, 0, 0, 0])
FIRST_CHUNK_TIMEOUT, BETWEEN_CHUNKS_TIMEOUT = 3.0, 5.0


def open_history(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("""CREATE TABLE IF NOT EXISTS drink (
        bottle TEXT NOT NULL, record_id INTEGER NOT NULL, timestamp INTEGER NOT NULL,
        amount_ml INTEGER NOT NULL, bottle_level_ml INTEGER NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('gulp', 'pour')), type_raw INTEGER NOT NULL,
        flags INTEGER NOT NULL, deleted BOOLEAN NOT NULL DEFAULT 0, stored_at DOUBLE NOT NULL,
        deleted_at DOUBLE, UNIQUE (bottle, record_id, timestamp),
        CHECK ((deleted = 0) = (deleted_at IS NULL)))""")
    db.execute("CREATE INDEX IF NOT EXISTS drink_on_timestamp ON drink (timestamp)")
    db.execute("CREATE TABLE IF NOT EXISTS bottle (id TEXT PRIMARY KEY, last_sync DOUBLE)")
    return db


def store_chunk(db: sqlite3.Connection, bottle: str, payload: bytes, count: int) -> int:
    """One transaction per chunk, committed (synchronous=FULL) before the caller ACKs."""
    now = time.time()
    rows = []
    for offset in range(6, 6 + 14 * count, 14):
        record_id, timestamp, amount, level, type_raw, flags = RECORD.unpack_from(payload, offset)
        deleted = flags & 0x04 != 0
        rows.append((bottle, record_id, timestamp, amount, level, "pour" if type_raw == 1 else "gulp", type_raw,
                     flags, deleted, now, now if deleted else None))
    db.execute("BEGIN IMMEDIATE")
    before = db.total_changes
    db.executemany("""INSERT OR IGNORE INTO drink (bottle, record_id, timestamp, amount_ml, bottle_level_ml,
        type, type_raw, flags, deleted, stored_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", rows)
    new = db.total_changes - before
    db.execute("COMMIT")
    return new


async def sync(db_path: str) -> str:
    db = open_history(db_path)
    device = await BleakScanner.find_device_by_filter(
        lambda d, ad: (d.name or ad.local_name or "").startswith("Aquavate-"), timeout=20.0,
        service_uuids=[SERVICE])
    if device is None:
        raise SystemExit("no bottle found")
    chunks: asyncio.Queue[bytes] = asyncio.Queue()
    async with BleakClient(device) as client:
        await client.start_notify(CURRENT_STATE, lambda _, data: None)
        await client.start_notify(DRINK_DATA, lambda _, data: chunks.put_nowait(bytes(data)))
        serial = None
        for uuid in DEVICE_INFORMATION:
            value = bytes(await client.read_gatt_char(uuid)).split(b"\0", 1)[0].decode("utf-8", "replace")
            if uuid.startswith("00002a25"):
                serial = value
        bottle = serial or device.address
        await client.read_gatt_char(CURRENT_STATE)
        await client.write_gatt_char(COMMAND, struct.pack("<BI", 0x10, int(time.time())), response=True)
        await client.read_gatt_char(BOTTLE_CONFIG)
        await client.read_gatt_char(DEVICE_SETTINGS)
        unsynced = struct.unpack_from("<H", await client.read_gatt_char(SYNC_CONTROL), 2)[0]
        stored = new = received = 0
        if unsynced > 0:
            # BlueZ's MTU property (5.62+) as bleak exposes it: the largest write without response is MTU - 3.
            payload_limit = client.services.get_characteristic(DRINK_DATA).max_write_without_response_size
            chunk_size = max(1, min(17, (payload_limit - 6) // 14))
            await client.write_gatt_char(SYNC_CONTROL, struct.pack("<HHBBH", 0, min(unsynced, 600), 1, 0, chunk_size),
                                         response=True)
            expected, total, timeout = 0, None, FIRST_CHUNK_TIMEOUT
            while total is None or expected < total:
                payload = await asyncio.wait_for(chunks.get(), timeout)
                if len(payload) < 6:
                    continue
                index, total_chunks, count = struct.unpack_from("<HHB", payload)
                if total_chunks == 0 or index != expected or len(payload) < 6 + 14 * count:
                    continue  # placeholder, duplicate, or truncated (the bridge would read it back)
                total = total_chunks
                new += store_chunk(db, bottle, payload, count)
                stored += count
                await client.write_gatt_char(SYNC_CONTROL, ACK, response=True)
                expected += 1
                received += 1
                timeout = BETWEEN_CHUNKS_TIMEOUT
            await client.read_gatt_char(SYNC_CONTROL)
        db.execute("INSERT INTO bottle (id, last_sync) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET last_sync = excluded.last_sync",
                   (bottle, time.time()))
    db.close()
    return f"bleak: {bottle}: {received} chunks, {stored} records, {new} new (unsynced before: {unsynced})"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: bleak_sync.py DB_PATH")
    print(asyncio.run(sync(sys.argv[1])))
