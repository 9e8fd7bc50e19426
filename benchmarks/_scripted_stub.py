"""The stub server with the scripted model, in its own process (for benchmarks)."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.openai_stub import StubServer  # noqa: E402
from tests.scripted_model import scripted  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--latency", type=float, default=0.0)
    args = parser.parse_args()
    server = StubServer(record=False).start()
    server.latency = args.latency
    server.on_chat(scripted)
    print(f"STUB_URL={server.base_url}", flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})
    server.stop()


if __name__ == "__main__":
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    main()
