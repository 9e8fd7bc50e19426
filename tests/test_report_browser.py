"""Reports opened in a real headless Chromium: nothing fetched, no error, no script run, plots drawn.

The string checks in test_report.py cannot see what a browser makes of the page (a broken SVG, a request
from CSS, a dialog from injected markup); this does. Skipped, with the reason, where Playwright or a
Chromium binary is missing (failed with GROUNDSET_REQUIRE_BROWSER=1; see browser_support); browsers are
never downloaded.
"""

from __future__ import annotations

from pathlib import Path

from groundset.scoring.report import write_comparison_report, write_run_report

from . import browser_support
from .test_report import SCRIPT, build_comparison, build_result

browser = browser_support.browser  # the fixture: one headless Chromium for the module


class Opened:
    """A report page with everything it did wrong recorded: errors, requests, dialogs."""

    def __init__(self, browser, path: Path) -> None:
        self.url = path.resolve().as_uri()
        self.problems: list[str] = []
        self.dialogs: list[str] = []
        self.page = browser.new_page()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("request", self._request)
        self.page.on("dialog", self._dialog)
        self.page.goto(self.url, wait_until="load")

    def _console(self, message) -> None:
        if message.type == "error":
            self.problems.append(f"console error: {message.text}")

    def _request(self, request) -> None:
        if request.url != self.url:
            self.problems.append(f"request: {request.url}")

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def open_all_details(self) -> None:
        """Open every collapsed block the way a reader does, by clicking its summary (no script needed)."""
        summaries = self.page.locator("details > summary")
        for index in range(summaries.count()):
            summaries.nth(index).click()
        assert self.page.locator("details:not([open])").count() == 0

    def drawn_svgs(self) -> int:
        boxes = [
            self.page.locator("svg").nth(i).bounding_box() for i in range(self.page.locator("svg").count())
        ]
        return sum(1 for box in boxes if box and box["width"] > 0 and box["height"] > 0)

    def check_clean(self) -> None:
        self.page.wait_for_timeout(200)  # let late events arrive before judging
        assert self.problems == []
        assert self.dialogs == []
        assert self.page.locator("script, img, iframe, object, embed").count() == 0


def test_run_report_renders_offline_without_errors(browser, tmp_path):
    result = build_result()
    path = write_run_report(result, tmp_path / "report.html", title=f"Run {SCRIPT}")
    opened = Opened(browser, path)
    page = opened.page
    assert page.locator("#summary").is_visible()
    assert page.locator("#summary tbody tr").count() == len(result.metrics)
    assert opened.drawn_svgs() >= 3
    assert page.get_by_text(f"Run {SCRIPT}", exact=True).first.is_visible()  # the h1, as text
    assert page.get_by_text(f"multi_hop {SCRIPT}", exact=True).first.is_visible()  # a group label
    response = page.get_by_text(f"It is {SCRIPT} done", exact=True).first
    assert not response.is_visible()  # inside a closed <details> until the reader opens it
    opened.open_all_details()
    assert response.is_visible()
    assert page.get_by_text("HTTP 500 " + SCRIPT, exact=True).first.is_visible()
    opened.check_clean()
    page.close()


def test_comparison_report_renders_offline_without_errors(browser, tmp_path):
    comparison = build_comparison()
    path = write_comparison_report(comparison, tmp_path / "compare.html")
    opened = Opened(browser, path)
    page = opened.page
    assert page.locator("#summary").is_visible()
    assert page.locator("#summary tbody tr").count() == len(comparison.metrics)
    assert opened.drawn_svgs() >= 1
    opened.open_all_details()
    assert page.get_by_text(f"broken {SCRIPT}", exact=True).first.is_visible()
    assert page.get_by_text(f"Why {SCRIPT}?", exact=True).first.is_visible()
    opened.check_clean()
    page.close()
