#!/usr/bin/env python3
"""Sync 40 drink records from a simulated Aquavate bottle with bleak, the Python BLE library Home
Assistant uses, exactly as it would drive a real bottle through bluetoothd.

Run it with DBUS_SYSTEM_BUS_ADDRESS pointing at the bus where `aquavate-sim --records 40` serves
org.bluez. It scans with the Aquavate service-UUID filter, connects, subscribes to Drink Data and
Current State, writes START (count 40, chunk size 17) with response, ACKs each chunk after it has
arrived and decoded, checks the 40 records and the final Current State, disconnects and exits 0.
Any failure exits non-zero with one line saying what went wrong.
"""

import asyncio
import struct
import sys

from bleak import BleakClient, BleakScanner

SERVICE = "6f75616b-7661-7465-2d00-000000000000"
CURRENT_STATE = "6f75616b-7661-7465-2d00-000000000001"
SYNC_CONTROL = "6f75616b-7661-7465-2d00-000000000003"
DRINK_DATA = "6f75616b-7661-7465-2d00-000000000004"
COMMAND = "6f75616b-7661-7465-2d00-000000000005"
MANUFACTURER = "00002a29-0000-1000-8000-00805f9b34fb"

EXPECTED = 40
CHUNK_SIZE = 17
TIMEOUT = 20.0


def fail(message):
    print(f"sync_40: FAILED: {message}", flush=True)
    sys.exit(1)


def decode_chunk(data):
    """docs/protocol.md 3.5: header u16 index, u16 total, u8 count, u8 reserved, then 14-byte records."""
    if len(data) < 6:
        raise ValueError(f"chunk of {len(data)} bytes is shorter than its header")
    index, total, count, _ = struct.unpack_from("<HHBB", data, 0)
    if len(data) < 6 + 14 * count:
        raise ValueError(f"chunk {index} declares {count} records but has {len(data)} bytes")
    records = []
    for i in range(count):
        record_id, timestamp, amount, level, kind, flags = struct.unpack_from("<IIhhBB", data, 6 + 14 * i)
        records.append((record_id, timestamp, amount, level, kind, flags))
    return index, total, records


def decode_state(data):
    if len(data) != 14:
        raise ValueError(f"Current State of {len(data)} bytes")
    return struct.unpack("<IhHHBBH", bytes(data))


async def main():
    found = asyncio.Event()
    holder = {}

    def seen(device, advertisement):
        if (advertisement.local_name or device.name or "").startswith("Aquavate-"):
            holder["device"] = device
            found.set()

    async with BleakScanner(detection_callback=seen, service_uuids=[SERVICE]):
        try:
            await asyncio.wait_for(found.wait(), TIMEOUT)
        except asyncio.TimeoutError:
            fail("no Aquavate-… device found by a scan filtered on the service UUID")
    device = holder["device"]
    print(f"sync_40: found {device.name} at {device.address}", flush=True)

    chunks = asyncio.Queue()
    states = asyncio.Queue()

    async with BleakClient(device, timeout=TIMEOUT) as client:
        manufacturer = bytes(await client.read_gatt_char(MANUFACTURER)).split(b"\0")[0].decode()
        if manufacturer != "Aquavate":
            fail(f"manufacturer is {manufacturer!r}")
        await client.start_notify(DRINK_DATA, lambda _, data: chunks.put_nowait(bytes(data)))
        await client.start_notify(CURRENT_STATE, lambda _, data: states.put_nowait(bytes(data)))

        sync = bytes(await client.read_gatt_char(SYNC_CONTROL))
        _, unsynced, _, status, _ = struct.unpack("<HHBBH", sync)
        if unsynced != EXPECTED:
            fail(f"Sync Control reports {unsynced} unsynced records, expected {EXPECTED}")
        # SET_TIME, as every client should on connect.
        await client.write_gatt_char(COMMAND, struct.pack("<BI", 0x10, 1_763_712_000), response=True)

        start = struct.pack("<HHBBH", 0, EXPECTED, 1, 0, CHUNK_SIZE)
        await client.write_gatt_char(SYNC_CONTROL, start, response=True)

        records = []
        expected_index = 0
        total = None
        while total is None or expected_index < total:
            try:
                data = await asyncio.wait_for(chunks.get(), 5.0)
            except asyncio.TimeoutError:
                fail(f"no chunk {expected_index} within 5 s")
            index, total, chunk_records = decode_chunk(data)
            if index < expected_index:
                continue  # an echo of an earlier chunk (docs/bluez.md 7.2)
            if index != expected_index:
                fail(f"chunk {index} arrived while {expected_index} was expected")
            records.extend(chunk_records)
            expected_index += 1
            ack = struct.pack("<HHBBH", 0, 0, 2, 0, 0)
            await client.write_gatt_char(SYNC_CONTROL, ack, response=True)

        ids = [r[0] for r in records]
        if ids != list(range(1, EXPECTED + 1)):
            fail(f"record ids {ids}")
        if any(r[2] < 30 or r[5] != 0 for r in records):
            fail("a record has an amount under 30 ml or non-zero flags")
        if any(b[1] < a[1] for a, b in zip(records, records[1:])):
            fail("timestamps go backwards")

        # The final ACK ends the sync with a forced Current State showing nothing unsynced.
        deadline = asyncio.get_running_loop().time() + 5.0
        while True:
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                fail("no Current State with unsynced_count 0 after the final ACK")
            try:
                state = decode_state(await asyncio.wait_for(states.get(), remaining))
            except asyncio.TimeoutError:
                fail("no Current State with unsynced_count 0 after the final ACK")
            if state[6] == 0:
                break

        print(f"sync_40: OK: {len(records)} records in {total} chunks, unsynced_count 0", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
