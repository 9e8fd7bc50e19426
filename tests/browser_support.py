"""A real headless Chromium for the browser tests (reports, review), driven through Playwright.

A test module takes the ``browser`` fixture with ``browser = browser_support.browser`` (an assignment, so
the test functions' ``browser`` argument is no redefined import to a linter): one browser per module.
Where Playwright or a Chromium binary is missing the tests are skipped, with the reason; browsers are never
downloaded. With ``GROUNDSET_REQUIRE_BROWSER=1`` (CI) a missing browser fails the tests instead, so a green
run there always means they ran.
"""

from __future__ import annotations

import os
import shutil

import pytest

__all__ = ["ARGS", "REQUIRE_BROWSER", "browser", "chromium", "missing"]

REQUIRE_BROWSER = "GROUNDSET_REQUIRE_BROWSER"

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium() -> str | None:
    """The Chromium binary on this machine: on the PATH, or at /usr/bin/chromium; None when there is none."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    return "/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None


def missing(reason: str) -> None:
    """Skip the test for ``reason``, or fail it where a browser is required."""
    if os.environ.get(REQUIRE_BROWSER) == "1":
        pytest.fail(f"{reason}, and {REQUIRE_BROWSER}=1 requires the browser tests to run")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium launched once for the module."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        missing(f"playwright is not importable: {exc}")
    executable = chromium()
    if executable is None:
        missing("no chromium binary (looked for chromium, chromium-browser, /usr/bin/chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()
