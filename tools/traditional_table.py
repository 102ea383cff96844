"""Writes gate/lexicon/traditional.txt: each simplified character with the traditional characters
that fold to it, one character to one, as OpenCC's t2s conversion has them (OpenCC's data is
Apache-2.0). The gate reads the table; it does not depend on OpenCC.

    python -m venv /tmp/occ && /tmp/occ/bin/pip install opencc
    /tmp/occ/bin/python tools/traditional_table.py
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import opencc  # type: ignore[import-not-found]

UNIFIED = range(0x4E00, 0xA000)  # the CJK Unified Ideographs block: the characters answers are written in
TABLE = Path(__file__).resolve().parent.parent / "gate" / "lexicon" / "traditional.txt"


def main() -> None:
    chars = [chr(code) for code in UNIFIED]
    folded = opencc.OpenCC("t2s").convert("\n".join(chars)).split("\n")
    variants: dict[str, list[str]] = defaultdict(list)
    for traditional, simplified in zip(chars, folded, strict=True):
        if simplified != traditional and len(simplified) == 1 and ord(simplified) in UNIFIED:
            variants[simplified].append(traditional)
    lines = [f"{simplified} {''.join(sorted(set(found)))}" for simplified, found in sorted(variants.items())]
    header = ("# Simplified character, then the traditional characters that fold to it (OpenCC t2s, one to one).\n"
              "# Written by tools/traditional_table.py; do not edit by hand.\n")
    TABLE.write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} simplified characters, {sum(len(v) for v in variants.values())} traditional")


if __name__ == "__main__":
    main()
