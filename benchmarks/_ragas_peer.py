"""The peer (ragas) on the same rows and server, run by benchmarks/local_model.py with a side Python.

ragas is never a dependency of groundset: this file imports nothing of ours and runs only in an
environment where ragas is installed. Prints one line: cells scored of cells, wall seconds, and NaN
cells by metric.

Usage: python _ragas_peer.py ROWS.jsonl BASE_URL [IN_FLIGHT]

IN_FLIGHT (default 2, as our runs) is ragas's ``max_workers``: its default of 16 against a server that
answers one request at a time spends the run in timeouts and retries.
"""

import json
import re
import sys
import time
import zlib

import numpy as np
from datasets import Dataset
from langchain_core.embeddings import Embeddings
from langchain_openai import ChatOpenAI
from ragas import RunConfig, evaluate
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
# the same answer limit as our runs (max_tokens=256 in their --llm spec); llama.cpp's server reads
# max_tokens, not the max_completion_tokens the OpenAI client may send, so it goes in the body too
llm = ChatOpenAI(
    model="smollm2", base_url=sys.argv[2], api_key="sk-local", max_tokens=256, extra_body={"max_tokens": 256}
)


class HashedWords(Embeddings):
    """Offline embeddings for the peer, which otherwise asks OpenAI's: hashed word counts, normalised.
    (Our runs use wordllama's static vectors; the peer's wordllama loader downloads, so it gets these.)"""

    def embed_query(self, text: str) -> list[float]:
        vector = np.zeros(512)
        for word in re.findall(r"\w+", text.lower()):
            vector[zlib.crc32(word.encode()) % 512] += 1.0
        norm = np.linalg.norm(vector)
        return (vector / norm if norm else vector).tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_query(text) for text in texts]


workers = int(sys.argv[3]) if len(sys.argv) > 3 else 2
config = RunConfig(max_workers=workers)
start = time.perf_counter()
frame = evaluate(data, metrics=METRICS, llm=llm, embeddings=HashedWords(), run_config=config).to_pandas()
cells = frame[[m.name for m in METRICS if m.name in frame.columns]]
scored = cells.size - int(cells.isna().sum().sum())
nan = {name: int(cells[name].isna().sum()) for name in cells.columns}
seconds = time.perf_counter() - start
print(f"ragas: {scored} of {cells.size} cells scored, {seconds:.0f} s; NaN by metric {nan}")
