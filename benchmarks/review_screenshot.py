"""The screenshot of `groundset review` in the docs (docs/img/review.png), taken from a real test set.

Generates nothing: reviews a copy of the given test set (and of the needs-review and rejected files beside
it), so the input is never changed. On the copy it tags one sample ``critical`` and opens that sample in
headless Chromium at 1200x900: by default a distracting sample whose context has a highlighted sentence
(what the reference rests on) and which fits the window, or the one named with ``--sample``. With ``--kg``
(the graph the set came from) each context shows its document and section. Prints what it took and the
file's size; fails when the page logged an error or asked for anything outside the server.

Run: .venv/bin/python benchmarks/review_screenshot.py TESTSET [--kg KG] [--sample ID] [--out PNG]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from groundset.kg.graph import KnowledgeGraph  # noqa: E402
from groundset.review import ReviewStore, Sources, create_app, running  # noqa: E402
from groundset.review.evidence import resting_spans  # noqa: E402
from groundset.samples.rejected import rejected_path  # noqa: E402
from groundset.samples.testset import TestsetSample  # noqa: E402
from groundset.synthesizers.refresh.review_file import needs_review_path  # noqa: E402
from tests.browser_support import ARGS, chromium  # noqa: E402

OUT = ROOT / "docs" / "img" / "review.png"
VIEWPORT = {"width": 1200, "height": 900}
TAG = "critical"
FITS = 1600  # characters of question, reference and contexts that still fit the window
MAX_BYTES = 250 * 1024


def highlighted(sample: TestsetSample) -> bool:
    return any(span.marked for c in sample.reference_contexts for span in resting_spans(c, sample.reference))


def pick(samples: list[TestsetSample]) -> TestsetSample:
    """A sample that shows the most at once: a highlighted context, then a distractor, then a short text."""

    def size(sample: TestsetSample) -> int:
        texts = [sample.user_input, sample.reference, *sample.reference_contexts, *sample.distractor_contexts]
        return sum(len(t) for t in texts)

    candidates = [s for s in samples if highlighted(s)]
    if not candidates:
        raise SystemExit("no sample of this test set has a highlighted context: name one with --sample")
    fitting = [s for s in candidates if size(s) <= FITS] or candidates
    return min(fitting, key=lambda s: (not s.distractor_contexts, -len(s.reference_contexts), size(s)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("testset", type=Path, help="a test set written by `generate` (left unchanged)")
    parser.add_argument("--kg", type=Path, help="the graph it was generated from")
    parser.add_argument("--sample", help="the id of the sample to show (default: picked, see above)")
    parser.add_argument("--out", type=Path, default=OUT, help=f"where to write the PNG (default: {OUT})")
    args = parser.parse_args(argv)
    executable = chromium()
    if executable is None:
        raise SystemExit("no chromium binary (looked for chromium, chromium-browser, /usr/bin/chromium)")
    from playwright.sync_api import sync_playwright

    graph = KnowledgeGraph.load(args.kg) if args.kg is not None else None
    with tempfile.TemporaryDirectory(prefix="review-screenshot-") as folder:
        copy = Path(folder) / args.testset.name
        for source, target in [
            (args.testset, copy),
            (needs_review_path(args.testset), needs_review_path(copy)),
            (rejected_path(args.testset), rejected_path(copy)),
        ]:
            if source.exists():
                shutil.copyfile(source, target)
        store = ReviewStore(copy)
        testset = [item.sample for item in store.items() if item.place == "testset"]
        sample = next((s for s in testset if s.id == args.sample), None) if args.sample else pick(testset)
        if sample is None:
            raise SystemExit(f"no sample {args.sample!r} in {args.testset}")
        store.tag(sample.id, add=[TAG])
        problems: list[str] = []
        with running(create_app(store, Sources(graph))) as url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=ARGS)
            try:
                page = browser.new_page(viewport=VIEWPORT, device_scale_factor=1)
                page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda error: problems.append(str(error)))
                page.on("request", lambda r: None if r.url.startswith(url) else problems.append(r.url))
                page.goto(f"{url}?at={sample.id}", wait_until="load")
                page.wait_for_timeout(200)
                args.out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(args.out))
            finally:
                browser.close()
    if problems:
        raise SystemExit("the page went wrong: " + "; ".join(problems))
    size = args.out.stat().st_size
    print(f"{args.out}: sample {sample.id} ({sample.synthesizer}), tagged {TAG}; {size / 1024:.0f} KB")
    if size > MAX_BYTES:
        raise SystemExit(f"{args.out} is {size / 1024:.0f} KB, over {MAX_BYTES // 1024} KB")


if __name__ == "__main__":
    main()
