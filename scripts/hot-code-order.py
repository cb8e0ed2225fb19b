#!/usr/bin/env python3
"""The symbols of the bridge's executable that a sync runs, from callgrind profiles, as a linker
symbol-ordering file (packaging/hot-code.order, read by scripts/release-build.sh).

Why: the release binary holds ~27 MB of code (the Swift runtime, the standard library, Foundation,
GRDB, NIO, ...), of which a one-shot sync runs ~1.8 MB spread over ~1,600 pages. The kernel maps
up to 64 KiB around every page fault on a cached file (fault-around), so those scattered touches
made ~15 MiB of the executable resident. Listing the functions a sync runs first, lld puts them
side by side (each function is its own section: -function-sections), and the same run then maps
a few MiB. Functions the list does not name keep their order after it; names that no longer
exist are skipped, so a stale list costs memory, never correctness.

    scripts/hot-code-order.py OUT BINARY LINK_MAP CALLGRIND_FILE [CALLGRIND_FILE ...]

Functions are ordered by the instructions the profiles spent in them (most first), so the
hottest code shares pages; every function that ran at all is listed, except those whose input
section is larger than 64 KiB (LINK_MAP, lld's -Map of the same build): the precompiled standard
library keeps ~1.6 MB of functions in one .text section, and naming one of them would move all of
it, mostly cold, into the hot region. Benchmarks/hot-code.sh makes the profiles (valgrind
--tool=callgrind --demangle=no) and calls this.
"""
import collections
import re
import subprocess
import sys


def executed_functions(path):
    """Self cost per function, from one callgrind output file (every object: the executable is
    picked out afterwards by its symbol table, since callgrind may not name its object)."""
    costs = collections.Counter()
    names = {}
    current_function = None
    in_call = False
    with open(path, errors="replace") as profile:
        for line in profile:
            if line.startswith("fn="):
                current_function = _name(line[3:], names)
                in_call = False
            elif line.startswith("cfn="):
                _name(line[4:], names)  # a callee's name may be defined here first
            elif line.startswith(("ob=", "cob=", "fl=", "fi=", "fe=", "cfi=", "cfl=")):
                continue  # objects and files: the executable is told by its symbol table
            elif line.startswith("calls="):
                in_call = True  # the next cost line is the call's inclusive cost, not self cost
            elif line[:1].isdigit() or line[:1] in "+-*":
                if in_call:
                    in_call = False
                    continue
                if current_function:
                    fields = line.split()
                    if len(fields) >= 2 and fields[1].isdigit():
                        costs[current_function] += int(fields[1])
    return costs


def _name(text, table):
    """callgrind's name compression: "(id) name" defines id, "(id)" refers to it."""
    text = text.strip()
    match = re.match(r"\((\d+)\)(?: (.*))?$", text)
    if not match:
        return text
    if match.group(2) is not None:
        table[match.group(1)] = match.group(2)
    return table.get(match.group(1), "")


def defined_functions(binary):
    """The function symbols the executable defines (nm), so that libraries' functions drop out."""
    listing = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True)
    return {fields[2] for fields in (line.split(None, 2) for line in listing.stdout.splitlines())
            if len(fields) == 3 and fields[1] in "tTwWiI"}


LARGEST_SECTION = 64 * 1024


def symbols_in_large_sections(link_map):
    """The symbols lld's map places in an input section larger than LARGEST_SECTION.

    The map lists each input section (`VMA LMA Size Align file:(section)`), then its symbols
    (`VMA LMA 0 1 name`, indented one column further: past the 60th character)."""
    large = set()
    section_size = 0
    with open(link_map, errors="replace") as lines:
        for line in lines:
            fields = line.split(None, 4)
            if len(fields) < 5:
                continue
            if ":(" in fields[4]:
                section_size = int(fields[2], 16)   # an input section: file:(section)
            elif line.find(fields[4]) > 60 and section_size > LARGEST_SECTION:
                large.add(fields[4].strip())        # a symbol, indented under its input section
    return large


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    out, binary, link_map, profiles = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    own = defined_functions(binary) - symbols_in_large_sections(link_map)
    total = collections.Counter()
    for path in profiles:
        for function, cost in executed_functions(path).items():
            total[function] += cost + 1  # +1: a function that ran is listed even at zero self cost
    # The executable's symbols only; "'2" marks a recursion level.
    symbols = []
    seen = set()
    for function, _ in total.most_common():
        symbol = re.sub(r"'\d+$", "", function)
        if symbol not in own or symbol in seen:
            continue
        seen.add(symbol)
        symbols.append(symbol)
    with open(out, "w") as order:
        order.write("\n".join(symbols) + "\n")
    print(f"{out}: {len(symbols)} symbols from {len(profiles)} profile(s)")


if __name__ == "__main__":
    main()
