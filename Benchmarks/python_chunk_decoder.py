#!/usr/bin/env python3
"""The straightforward Python decoder the Swift chunk decoder is compared with.

Reads a file of Drink Data chunks, each preceded by a u16 little-endian length, and decodes
them with struct: the 6-byte header, a length check, then struct.iter_unpack over the records.
Prints "records=N seconds=S" (best of three passes).

    python3 Benchmarks/python_chunk_decoder.py chunks.bin
"""
import struct
import sys
import time

HEADER = struct.Struct("<HHBB")
RECORD = struct.Struct("<IIhhBB")


def decode(payload):
    if len(payload) < 6:
        raise ValueError("short chunk")
    index, total, count, _ = HEADER.unpack_from(payload, 0)
    end = 6 + 14 * count
    if len(payload) < end:
        raise ValueError("truncated chunk")
    return index, total, list(RECORD.iter_unpack(payload[6:end]))


def main(path):
    data = open(path, "rb").read()
    chunks = []
    offset = 0
    while offset < len(data):
        (length,) = struct.unpack_from("<H", data, offset)
        chunks.append(data[offset + 2:offset + 2 + length])
        offset += 2 + length
    best = None
    records = 0
    for _ in range(3):
        start = time.perf_counter()
        records = 0
        for payload in chunks:
            records += len(decode(payload)[2])
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    print(f"records={records} seconds={best:.6f}")


if __name__ == "__main__":
    main(sys.argv[1])
