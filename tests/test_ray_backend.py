"""Where per-text work runs (issue 32): the local backend and Ray give the same graph, fingerprint for
fingerprint, because each batch is a pure function of its texts and the corpus-wide model is merged from
the batches in order. The Ray tests start a local Ray with 2 CPUs; without the ``ray`` extra they are
skipped, with the reason, and GROUNDSET_REQUIRE_RAY=1 (CI) turns that skip into a failure."""

from __future__ import annotations

import os
from collections.abc import Iterator

import numpy as np
import pytest

from groundset.cli import main
from groundset.core import CallEngine, ConfigError
from groundset.core.backends import LocalBackend, get_backend
from groundset.kg import build_knowledge_graph
from groundset.kg.persistence import load_graph
from groundset.kg.similarity import similar_pairs
from groundset.text.phrases import PhraseModel

from .corpora import SHARED, copy_example_pages

PAGES = ("concepts/data_model.md", "concepts/jobs_instances.md", "practices/naming.md",
         "practices/alerting.md", "introduction/overview.md")  # fmt: skip
HANDBOOK = SHARED / "handbook" / "docs"


def test_local_batches_run_in_order_and_a_bad_size_or_name_is_refused():
    backend = LocalBackend(batch_items=3)
    assert backend.map_batches(lambda batch: [x * 2 for x in batch], list(range(7))) == [
        [0, 2, 4],
        [6, 8, 10],
        [12],
    ]
    assert backend.map_batches(len, []) == []
    heard: list[int] = []  # a long stage's bar moves as each batch is done
    assert backend.map_batches(sum, list(range(7)), progress=heard.append) == [3, 12, 6] and heard == [
        3,
        3,
        1,
    ]
    with pytest.raises(ConfigError, match="batch_items"):
        LocalBackend(batch_items=0)
    with pytest.raises(ConfigError, match="unknown backend 'spark'"):
        get_backend("spark")
    with pytest.raises(ConfigError, match="--ray-address needs --backend ray"):
        get_backend("local", address="ray://head:10001")


def test_a_phrase_model_fitted_in_batches_is_the_one_fitted_at_once():
    """The batches' candidates and verb counts merge into the same vocabulary, counts and ranking."""
    texts = [path.read_text(encoding="utf-8") for path in sorted(HANDBOOK.rglob("*.md"))[:60]]
    whole = PhraseModel().fit_rank(texts, "en", keyphrases=6, themes=4)
    batched = PhraseModel().fit_rank(
        texts, "en", keyphrases=6, themes=4, map_batches=LocalBackend(batch_items=7).map_batches
    )
    assert batched == whole and any(whole[0])


def test_a_local_build_in_small_batches_has_the_same_fingerprint(tmp_path):
    docs = copy_pages(tmp_path)
    once = build_knowledge_graph(docs, engine=CallEngine(cache=False)).kg
    batched = build_knowledge_graph(
        docs, engine=CallEngine(cache=False), backend=LocalBackend(batch_items=5)
    ).kg
    assert batched.fingerprint() == once.fingerprint()


def ivf_input(n: int = 3000, dims: int = 24) -> np.ndarray:
    """Clustered vectors, so the IVF lists hold neighbours worth finding."""
    rng = np.random.default_rng(3)
    centres = rng.standard_normal((40, dims))
    return (centres[rng.integers(0, 40, n)] + 0.35 * rng.standard_normal((n, dims))).astype(np.float32)


def test_similarity_lists_searched_in_partitions_give_the_same_pairs(monkeypatch):
    """The IVF lists are partitions of the similarity search; however they are batched, and however often
    a partition keeps only each query's k best as it goes, the pairs are the ones one process finds."""
    from groundset.kg import similarity

    vectors = ivf_input()
    whole = similar_pairs(vectors, k=5, threshold=0.6, exact_below=100)
    parted = similar_pairs(
        vectors, k=5, threshold=0.6, exact_below=100, map_batches=LocalBackend(batch_items=4).map_batches
    )
    assert parted == whole and len(whole) > 3000
    monkeypatch.setattr(similarity, "MERGE_ENTRIES", 50)
    assert similar_pairs(vectors, k=5, threshold=0.6, exact_below=100) == whole


def test_overlap_row_blocks_scored_in_partitions_give_the_same_pairs(monkeypatch):
    """Each row block of the overlap index is a partition; batched one block a task, the pairs are the
    ones one process finds."""
    from groundset.kg import overlap

    texts = [path.read_text(encoding="utf-8") for path in sorted(HANDBOOK.rglob("*.md"))[:80]]
    items = [sorted({w.strip(".,:;()*`#").casefold() for w in t.split() if len(w) > 6}) for t in texts]
    monkeypatch.setattr(overlap, "BLOCK_ROWS", 7)  # a dozen blocks
    whole = overlap.overlap_pairs(items, max_df=0.5, max_pairs_per_node=5)
    parted = overlap.overlap_pairs(
        items, max_df=0.5, max_pairs_per_node=5, map_batches=LocalBackend(batch_items=1).map_batches
    )
    assert parted == whole and len(whole) > 100


def copy_pages(root):
    return copy_example_pages(root, PAGES)


@pytest.fixture(scope="module")
def ray_backend() -> Iterator[object]:
    try:
        import ray
    except ImportError:
        if os.environ.get("GROUNDSET_REQUIRE_RAY") == "1":
            pytest.fail("the Ray tests must run here: ray is not installed (pip install -e '.[ray]')")
        pytest.skip("ray is not installed (pip install -e '.[ray]')")
    from groundset.core.backends import RayBackend

    backend = RayBackend(num_cpus=2, batch_items=5)  # several tasks even for a few pages
    try:
        yield backend
    finally:
        ray.shutdown()


def test_a_build_on_ray_is_the_local_build(ray_backend, tmp_path):
    docs = copy_pages(tmp_path)
    local = build_knowledge_graph(docs, engine=CallEngine(cache=False)).kg
    on_ray = build_knowledge_graph(docs, engine=CallEngine(cache=False), backend=ray_backend).kg
    assert on_ray.fingerprint() == local.fingerprint()
    assert len(local.nodes()) > len(PAGES)


def test_ray_batches_report_their_progress_as_they_finish(ray_backend):
    heard: list[int] = []
    total = lambda batch: sum(batch)  # noqa: E731 - a function Ray can ship by value
    # 12 items on 2 CPUs: two tasks a CPU, of 3 items each
    assert ray_backend.map_batches(total, list(range(12)), progress=heard.append) == [3, 12, 21, 30]
    assert heard == [3, 3, 3, 3]


def test_similarity_partitions_searched_on_ray_are_the_local_ones(ray_backend):
    vectors = ivf_input()
    local = similar_pairs(vectors, k=5, threshold=0.6, exact_below=100)
    assert (
        similar_pairs(vectors, k=5, threshold=0.6, exact_below=100, map_batches=ray_backend.map_batches)
        == local
    )


def test_kg_build_backend_ray_from_the_command_line(ray_backend, tmp_path, capsys):
    """`kg build --backend ray` uses the Ray this process already runs (as it would a cluster's)."""
    docs = copy_pages(tmp_path)
    assert main(["kg", "build", str(docs), "--out", str(tmp_path / "local"), "-q"]) == 0
    assert main(["kg", "build", str(docs), "--out", str(tmp_path / "ray"), "--backend", "ray", "-q"]) == 0
    assert load_graph(tmp_path / "ray").fingerprint() == load_graph(tmp_path / "local").fingerprint()
    assert "per-text work ran on Ray on this machine, 2 CPUs" in capsys.readouterr().out
    assert main(["kg", "build", str(docs), "--out", str(tmp_path / "x"), "--ray-address", "auto", "-q"]) == 1
    assert "--ray-address needs --backend ray" in capsys.readouterr().err
