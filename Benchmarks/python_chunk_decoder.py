#!/usr/bin/env python3
"""The straightforward Python decoders the Swift chunk decoder is compared with.

Reads a file of Drink Data chunks, each preceded by a u16 little-endian length, and decodes
them with struct: the 6-byte header, a length check, then struct.iter_unpack over the records.
Two forms, best of three passes each:

  tuples   records as the tuples iter_unpack yields (the least a decoder can do)
  records  records as dicts with named fields (what a Python bridge would store or publish)

Prints "form=tuples records=N seconds=S" and "form=records records=N seconds=S".

    python3 Benchmarks/python_chunk_decoder.py chunks.bin
"""
import struct
import sys
import time

HEADER = struct.Struct("<HHBB")
RECORD = struct.Struct("<IIhhBB")
FIELDS = ("record_id", "timestamp", "amount_ml", "bottle_level_ml", "type", "flags")


def decode_tuples(payload):
    if len(payload) < 6:
        raise ValueError("short chunk")
    index, total, count, _ = HEADER.unpack_from(payload, 0)
    end = 6 + 14 * count
    if len(payload) < end:
        raise ValueError("truncated chunk")
    return index, total, list(RECORD.iter_unpack(payload[6:end]))


def decode_records(payload):
    index, total, rows = decode_tuples(payload)
    return index, total, [dict(zip(FIELDS, row)) for row in rows]


def best_of_three(decoder, chunks):
    best, records = None, 0
    for _ in range(3):
        start = time.perf_counter()
        records = 0
        for payload in chunks:
            records += len(decoder(payload)[2])
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return records, best


def main(path):
    data = open(path, "rb").read()
    chunks = []
    offset = 0
    while offset < len(data):
        (length,) = struct.unpack_from("<H", data, offset)
        chunks.append(data[offset + 2:offset + 2 + length])
        offset += 2 + length
    for form, decoder in (("tuples", decode_tuples), ("records", decode_records)):
        records, seconds = best_of_three(decoder, chunks)
        print(f"form={form} records={records} seconds={seconds:.6f}")


if __name__ == "__main__":
    main(sys.argv[1])
