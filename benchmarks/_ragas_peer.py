"""The peer (ragas) on the same rows and server, run by benchmarks/local_model.py with a side Python.

ragas is never a dependency of groundset: this file imports nothing of ours and runs only in an
environment where ragas is installed. Prints one line: cells scored of cells, and wall seconds.

Usage: python _ragas_peer.py ROWS.jsonl BASE_URL
"""

import json
import sys
import time

from datasets import Dataset
from langchain_openai import ChatOpenAI
from ragas import evaluate
from ragas.metrics import (
    answer_correctness,
    answer_relevancy,
    context_precision,
    context_recall,
    faithfulness,
)

METRICS = [faithfulness, answer_relevancy, context_precision, context_recall, answer_correctness]
with open(sys.argv[1], encoding="utf-8") as handle:
    rows = [json.loads(line) for line in handle]
data = Dataset.from_list(
    [
        {
            "question": r["user_input"],
            "answer": r["response"],
            "contexts": r["retrieved_contexts"],
            "ground_truth": r["reference"],
        }
        for r in rows
    ]
)
llm = ChatOpenAI(model="smollm2", base_url=sys.argv[2], api_key="sk-local")
start = time.perf_counter()
frame = evaluate(data, metrics=METRICS, llm=llm).to_pandas()
cells = frame[[m.name for m in METRICS if m.name in frame.columns]]
scored = cells.size - int(cells.isna().sum().sum())
print(f"ragas: {scored} of {cells.size} cells scored, {time.perf_counter() - start:.0f} s")
