#!/usr/bin/env python3
"""The tables of docs/grid-census.md from a `bitgames grid-table --max N TABLE.csv` table.

    python3 scripts/census-report.py TABLE.csv

Prints, in Markdown: the losing rectangles (g = 0, a <= b), the largest value for sides up to
80, 128, 256, ... N, and every new record of the largest value by the largest side that
reaches it (the rectangle with the smallest other side). Reads the CSV that `grid-table` writes:
a header `a\\b,1,2,...,N`, then one line `a,g(a,1),...,g(a,N)` per a from 1.
"""

import sys


def main(path):
    rows = []
    with open(path, encoding="ascii") as f:
        header = f.readline().rstrip("\n").split(",")
        n = len(header) - 1
        if header[0] != "a\\b" or header[1:] != [str(b) for b in range(1, n + 1)]:
            sys.exit(f"{path}: line 1: expected the header a\\b,1,...,N")
        for a, line in enumerate(f, start=1):
            if not line.strip() and a > n:
                break
            fields = line.rstrip("\n").split(",")
            if len(fields) != n + 1 or fields[0] != str(a):
                sys.exit(f"{path}: line {a + 1}: expected {a} and {n} values")
            rows.append([0] + [int(v) for v in fields[1:]])
    if len(rows) != n:
        sys.exit(f"{path}: {len(rows)} rows, expected {n}")

    def g(a, b):
        return rows[a - 1][b]

    for a in range(1, n + 1):
        for b in range(a + 1, n + 1):
            if g(a, b) != g(b, a):
                sys.exit(f"{path}: g({a}, {b}) != g({b}, {a})")

    zeros = [(a, b) for a in range(1, n + 1) for b in range(a, n + 1) if g(a, b) == 0]
    print(f"Losing rectangles (g = 0), a <= b <= {n}: "
          + ", ".join(f"{a} × {b}" for a, b in zeros) + ".")
    print()
    best, records, by_side = -1, [], {}
    for side in range(1, n + 1):
        top = max(g(a, side) for a in range(1, side + 1))
        if top > best:
            best = top
            first = min(a for a in range(1, side + 1) if g(a, side) == top)
            records.append((side, top, first))
        by_side[side] = best
    print("| N | largest g(a, b), a, b ≤ N |")
    print("| --- | --- |")
    marks = [80] + [1 << k for k in range(7, 16) if (1 << k) <= n]
    if n not in marks:
        marks.append(n)
    for side in marks:
        if side <= n:
            print(f"| {side} | {by_side[side]} |")
    print()
    print("| N | new largest value | at a × b |")
    print("| --- | --- | --- |")
    for side, top, first in records:
        print(f"| {side} | {top} | {first} × {side} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: census-report.py TABLE.csv")
    main(sys.argv[1])
