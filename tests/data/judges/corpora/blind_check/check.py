"""Score a blind reader's answers against the key: python check.py answers_*.csv"""

import collections
import csv
import json
import sys
from pathlib import Path

key = json.loads((Path(__file__).parent / "key.json").read_text(encoding="utf-8"))
for name in sys.argv[1:]:
    stats: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    with open(name, encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            label = key[f"{row['set']}:{row['item']}"]
            choice = row["choice"].strip().upper()
            result = "agree" if choice == label["better"] else ("same" if choice == "SAME" else "disagree")
            stats[row["set"]][result] += 1
            stats[f"{row['set']}:{label['kind']}"][result] += 1
    for group, counts in sorted(stats.items()):
        print(group, dict(counts))
