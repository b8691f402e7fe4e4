#!/usr/bin/env python3
"""Check a Palace game export (``GET /api/v1/games/{id}/export/``): ``python3 tools/verify_palace.py FILE...``.

No Django, no database: it needs only this checkout's ``games/engine`` (pure Python 3.11) and the export.
A file may hold one export (JSON) or several, one a line (``GET /api/v1/me/games/export/``, NDJSON). Exit status
0 when every game checks, 1 at the first mismatch (named on stderr), 2 for an unreadable file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.verify import Mismatch, verify


def main(paths: list[str]) -> int:
    if not paths:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8")
            exports = (
                [json.loads(line) for line in text.splitlines() if line.strip()]
                if path.endswith(".ndjson")
                else [json.loads(text)]
            )
        except (OSError, ValueError) as error:
            print(f"{path}: cannot read: {error}", file=sys.stderr)
            return 2
        for export in exports:
            try:
                report = verify(export)
            except Mismatch as error:
                print(f"{path}: game {export.get('id')}: MISMATCH: {error}", file=sys.stderr)
                return 1
            for line in report.lines():
                print(f"{path}: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
