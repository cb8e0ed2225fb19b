#!/usr/bin/env python3
"""Narrows the bridge's declarations from `public` to `package`.

Only AquavateProtocol is a library product (Package.swift); every other module is seen by the
bridge's own modules, executables and tests alone, so `package` is the widest access they need.
A `package` type still conforms to another package's public protocol (Hummingbird's
`ResponseGenerator`, swift-log's `LogHandler`, ServiceLifecycle's `Service`, ArgumentParser's
commands): a witness needs the access of the smaller of the type and the protocol.

    scripts/package-access.py [--check] [ROOT]

Rewrites, in place, every Swift file under ROOT's Sources/ (except Sources/AquavateProtocol),
Tests/ and Benchmarks/: the declaration modifier `public` becomes `package` (`public(set)` becomes
`package(set)`), an `@_spi(Name)` attribute on a declaration it narrows is dropped (SPI is for
public declarations only), and nothing else: comments, string literals, `.public`, argument labels
named `public` and backticked names are left alone. Running it again changes nothing.
--check rewrites nothing and exits 1, naming each file and line, when something is left to narrow.
Fuzz/ is not touched: its entry points are found by libFuzzer by their C names.
"""

import re
import sys
from pathlib import Path

# The one library product: its public declarations are the API another program uses.
KEPT_PUBLIC = {"AquavateProtocol"}
FOLDERS = ["Sources", "Tests", "Benchmarks"]

IDENT_START = re.compile(r"[A-Za-z_]")
IDENT = re.compile(r"[A-Za-z_0-9]+")
STRING_OPEN = re.compile(r'(#*)("""|")')
EXTENDED_REGEX_OPEN = re.compile(r"(#+)/")
SPI_BEFORE = re.compile(r"@_spi\s*\(\s*\w+\s*\)\s*$")


def modifier_sites(text):
    """Offsets of each `public` used as a declaration modifier in code (not in a comment,
    a string literal, a member access or an argument label)."""
    sites = []
    i = 0
    n = len(text)
    # A stack of contexts: ("code", paren depth) or ("string", hashes, multiline).
    # The code of an interpolation ends at the `)` that closes its `\(`.
    stack = [("code", 0)]
    # The last thing read in code (comments and white space aside): a word or one character.
    last = ""
    while i < n:
        context = stack[-1]
        c = text[i]
        if context[0] == "string":
            _, hashes, multiline = context
            closer = ('"""' if multiline else '"') + "#" * hashes
            if c == "\\" and text.startswith("#" * hashes, i + 1):
                after = i + 1 + hashes
                if after < n and text[after] == "(":
                    stack.append(("code", 0))
                    i = after + 1
                    continue
                if hashes == 0:
                    i += 2  # an escape: \" does not close the literal
                    continue
                i = after + 1
                continue
            if text.startswith(closer, i):
                stack.pop()
                i += len(closer)
                continue
            if c == "\n" and not multiline:
                stack.pop()  # an unterminated literal ends with its line
            i += 1
            continue

        # Code.
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if text.startswith("/*", i):
            depth = 0
            while i < n:
                if text.startswith("/*", i):
                    depth += 1
                    i += 2
                elif text.startswith("*/", i):
                    depth -= 1
                    i += 2
                    if depth == 0:
                        break
                else:
                    i += 1
            continue
        if c == "/" and starts_regex(text, i, last):
            i = regex_end(text, i, 0)
            last = "/"
            continue
        if c == "#" or c == '"':
            extended = EXTENDED_REGEX_OPEN.match(text, i)
            if extended:
                i = regex_end(text, extended.end() - 1, len(extended.group(1)))
                last = "/"
                continue
            match = STRING_OPEN.match(text, i)
            if match:
                stack.append(("string", len(match.group(1)), match.group(2) == '"""'))
                i = match.end()
                last = '"'
                continue
            last = c
            i += 1
            continue
        if c == "`":
            end = text.find("`", i + 1)
            i = n if end < 0 else end + 1
            last = "`"
            continue
        if c == "(":
            stack[-1] = ("code", context[1] + 1)
            last = c
            i += 1
            continue
        if c == ")":
            if context[1] == 0 and len(stack) > 1:
                stack.pop()  # back into the string around the interpolation
            else:
                stack[-1] = ("code", context[1] - 1)
            last = c
            i += 1
            continue
        if IDENT_START.match(c):
            word = IDENT.match(text, i).group(0)
            if word == "public" and is_modifier(text, i + len(word), last):
                sites.append(i)
            last = word
            i += len(word)
            continue
        if not c.isspace():
            last = c
        i += 1
    return sites


def starts_regex(text, i, last):
    """Whether the `/` at i opens a bare regex literal (`/a|b/`): it stands where an operand
    does and is no operator (`a / b`, `/=`), as Swift 6 reads it."""
    after = text[i + 1 : i + 2]
    if after in ("", " ", "\t", "\n", "/", "*", "="):
        return False
    if last == "" or last in "([{,=:;&|?^~+-*%<>":
        return True
    return last in ("return", "in", "of", "case", "where", "throw", "try", "await")


def regex_end(text, i, hashes):
    """The offset after the regex literal whose opening `/` is at i."""
    closer = "/" + "#" * hashes
    j = i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text.startswith(closer, j):
            return j + len(closer)
        if text[j] == "\n" and hashes == 0:
            return j  # not a regex after all: resume with the line's end
        j += 1
    return j


def is_modifier(text, end, last):
    if last in (".", "$", "#"):
        return False  # `.public`, a member or a case
    if end < len(text) and text[end] == "(":
        return text.startswith("(set)", end)  # public(set)
    rest = text[end:].lstrip()
    # A modifier is followed by a keyword, another modifier or an attribute; a label by `:`.
    return bool(rest) and (IDENT_START.match(rest[0]) is not None or rest[0] == "@")


def narrowed(text):
    sites = modifier_sites(text)
    if not sites:
        return text, 0
    pieces = []
    last = 0
    for site in sites:
        head = text[last:site]
        # `@_spi(Name) public func`: SPI applies to public declarations only.
        spi = SPI_BEFORE.search(head)
        if spi:
            head = head[: spi.start()]
        pieces.append(head)
        pieces.append("package")
        last = site + len("public")
    pieces.append(text[last:])
    return "".join(pieces), len(sites)


def files(root):
    for folder in FOLDERS:
        base = root / folder
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.swift")):
            relative = path.relative_to(root)
            if relative.parts[0] == "Sources" and len(relative.parts) > 2 and relative.parts[1] in KEPT_PUBLIC:
                continue
            yield path, relative


def main(argv):
    check = "--check" in argv
    rest = [a for a in argv if a != "--check"]
    if any(a.startswith("-") for a in rest) or len(rest) > 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = Path(rest[0] if rest else Path(__file__).resolve().parent.parent)
    if not (root / "Package.swift").is_file():
        print(f"package-access: no Package.swift in {root}", file=sys.stderr)
        return 2
    changed_files = 0
    changed_sites = 0
    for path, relative in files(root):
        text = path.read_text(encoding="utf-8")
        if check:
            for site in modifier_sites(text):
                line = text.count("\n", 0, site) + 1
                print(f"{relative}:{line}: public (run scripts/package-access.sh)")
                changed_sites += 1
            continue
        new, count = narrowed(text)
        if count:
            path.write_text(new, encoding="utf-8")
            changed_files += 1
            changed_sites += count
    if check:
        return 1 if changed_sites else 0
    print(f"package-access: {changed_sites} declarations narrowed to package in {changed_files} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
