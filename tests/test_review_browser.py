"""`groundset review` driven in a real headless Chromium: the server started here on 127.0.0.1, each action
done with its button or its key as a person does it, the files read back after it, and every saved state
still shown after a reload. Every test also checks that the page logged no error and fetched nothing from
outside the server.

One browser for the module (``browser_support``), a fresh test set and server per test.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from groundset.review import ReviewStore, create_app, running
from groundset.samples.rejected import rejected_path
from groundset.samples.testset import Testset, TestsetSample
from groundset.synthesizers.refresh.review_file import needs_review_path, read_records

from . import browser_support
from .test_review_server import (
    CONVERSATION,
    DECLINE,
    DISTRACTING,
    HAND_EDITED,
    PLAIN,
    SCRIPT,
    WAITING,
    write_testset,
)

browser = browser_support.browser  # the fixture: one headless Chromium for the module

TIMEOUT_MS = 5000


def samples(path: Path) -> dict[str, TestsetSample]:
    return {s.id: s for s in Testset.from_jsonl(path)}


class Tab:
    """One browser tab on the review, with what it did wrong recorded: console errors, page errors,
    dialogs, and any request to a URL outside the server."""

    def __init__(self, browser, url: str) -> None:
        self.origin = url.rstrip("/")
        self.problems: list[str] = []
        self.allowed: list[str] = []  # console errors a test expects (an HTTP 409 the page reports)
        self.context = browser.new_context(viewport={"width": 1200, "height": 900})
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("request", self._request)
        self.page.on("dialog", self._dialog)

    def _console(self, message) -> None:
        if message.type == "error" and not any(a in message.text for a in self.allowed):
            self.problems.append(f"console error: {message.text}")

    def _request(self, request) -> None:
        if not request.url.startswith(self.origin + "/"):
            self.problems.append(f"request outside the server: {request.url}")

    def _dialog(self, dialog) -> None:
        self.problems.append(f"dialog: {dialog.message}")
        dialog.dismiss()

    def open(self, query: str = "") -> None:
        self.page.goto(f"{self.origin}/{query}", wait_until="load")

    def at(self, sample: TestsetSample) -> None:
        self.open(f"?at={sample.id}")
        assert self.shown() == sample.id

    def shown(self) -> str:
        return self.page.locator("#sample").get_attribute("data-id") or ""

    def press(self, key: str) -> None:
        """Press ``key`` and wait for the page it loads (an action saved, then the next sample)."""
        with self.page.expect_navigation():
            self.page.keyboard.press(key)

    def click(self, selector: str) -> None:
        with self.page.expect_navigation():
            self.page.locator(selector).click()

    def escape(self) -> None:
        """Press Escape, and wait for the hidden form to lose the focus (the browser moves it at its next
        frame; a key pressed before then would still go to the hidden field)."""
        self.page.keyboard.press("Escape")
        self.page.wait_for_function("document.activeElement === document.body")

    def text(self, selector: str) -> str:
        return self.page.locator(selector).inner_text()

    def reload(self) -> None:
        self.page.reload(wait_until="load")

    def check_clean(self) -> None:
        self.page.wait_for_timeout(100)  # let late events arrive before judging
        assert self.problems == []
        assert self.page.locator("script").count() == 1  # the page's own, no text became one


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    path = write_testset(tmp_path)
    with running(create_app(ReviewStore(path))) as url:
        yield path, url


@pytest.fixture
def tab(browser, served) -> Iterator[Tab]:
    opened = Tab(browser, served[1])
    try:
        yield opened
    finally:
        opened.context.close()


def test_keep_with_the_button_and_the_key_moves_on(tab, served):
    path, _ = served
    tab.open()
    assert tab.shown() == PLAIN.id  # file order
    assert tab.text("#count") == "5 of 5 samples" and tab.text("#position") == "1 of 5"
    tab.click("#keep")
    assert tab.shown() == CONVERSATION.id and tab.text("#position") == "2 of 5"
    assert samples(path)[PLAIN.id].reviewed
    tab.press("k")
    assert tab.shown() == DISTRACTING.id
    assert samples(path)[CONVERSATION.id].reviewed and not samples(path)[DISTRACTING.id].reviewed
    tab.reload()
    tab.at(PLAIN)
    assert tab.text("#status") == "kept" and tab.text("#keep") == "take back keep (k)"
    tab.press("k")  # again: takes it back, and stays
    assert tab.shown() == PLAIN.id and tab.text("#status") == "pending"
    assert not samples(path)[PLAIN.id].reviewed
    tab.check_clean()


def test_page_shows_document_text_as_text(tab):
    tab.at(PLAIN)
    page = tab.page
    assert page.get_by_text(SCRIPT).first.is_visible()  # shown, not run
    assert page.get_by_text('"quotes" & <b>tags</b>', exact=False).first.is_visible()
    assert page.locator("#contexts b").count() == 0
    assert page.locator("#contexts .text mark").first.inner_text() == "The server listens on port 9090."
    tab.at(CONVERSATION)
    assert page.get_by_text("earlier question 1").is_visible()
    tab.at(DISTRACTING)
    assert page.locator("section.distractor").count() == 1
    tab.at(WAITING)
    assert page.locator("#why ins").first.inner_text() == "30"
    assert page.locator("#why del").first.inner_text() == "15"
    tab.check_clean()


def test_edit_with_e_and_ctrl_enter_keeps_the_id(tab, served):
    path, _ = served
    tab.at(PLAIN)
    assert tab.page.locator("#editor").is_hidden()
    tab.page.keyboard.press("e")
    assert tab.page.locator("#editor").is_visible()
    assert tab.page.evaluate("document.activeElement.id") == "edit-question"
    assert tab.page.locator("#edit-question").input_value() == PLAIN.user_input  # no stray "e"
    tab.page.locator("#edit-question").fill("On which port does the server listen?")
    tab.page.locator("#edit-reference").fill("It listens on port 9090.")
    tab.page.locator("#edit-reference").focus()
    tab.press("Control+Enter")
    assert tab.text("#question") == "On which port does the server listen?"
    assert tab.text("#reference") == "It listens on port 9090."
    assert tab.text("#status") == "edited"
    edited = samples(path)[PLAIN.id]  # under its old id
    assert edited.user_input == "On which port does the server listen?" and edited.edited and edited.reviewed
    assert [s.id for s in Testset.from_jsonl(path)] == [PLAIN.id, CONVERSATION.id, DISTRACTING.id, DECLINE.id]
    tab.reload()
    assert tab.text("#question") == "On which port does the server listen?"
    assert tab.text("#status") == "edited"
    tab.check_clean()


def test_a_hand_edited_text_can_be_edited(browser, tmp_path):
    """Line ends written on Windows and white space around a text, which a textarea gives back changed,
    are no edit by another tab."""
    path = tmp_path / "t.jsonl"
    Testset([HAND_EDITED], {}).to_jsonl(path)
    with running(create_app(ReviewStore(path))) as url:
        tab = Tab(browser, url)
        try:
            tab.open()
            tab.page.keyboard.press("e")
            assert tab.page.locator("#edit-reference").input_value() == "Line one.\nLine two.\n"
            tab.press("Control+Enter")  # saved unchanged: kept, not edited, the texts as they were
            assert tab.text("#status") == "kept"
            assert samples(path)[HAND_EDITED.id].reference == HAND_EDITED.reference
            tab.page.keyboard.press("e")
            tab.page.locator("#edit-reference").fill("Line one.\nLine three.")
            tab.press("Control+Enter")
            assert tab.text("#status") == "edited"
            assert samples(path)[HAND_EDITED.id].reference == "Line one.\nLine three."
            tab.check_clean()
        finally:
            tab.context.close()


def test_escape_cancels_an_edit(tab, served):
    path, _ = served
    before = path.read_bytes()
    tab.at(PLAIN)
    tab.page.keyboard.press("e")
    tab.page.locator("#edit-question").fill("Never saved?")
    tab.escape()
    assert tab.page.locator("#editor").is_hidden()
    tab.page.keyboard.press("r")
    assert tab.page.locator("#rejecter").is_visible()
    tab.page.locator("#rejecter .cancel").click()
    assert tab.page.locator("#rejecter").is_hidden()
    tab.page.wait_for_timeout(100)
    assert path.read_bytes() == before
    tab.check_clean()


def test_reject_with_a_reason_then_restore(tab, served):
    path, _ = served
    tab.at(PLAIN)
    tab.page.keyboard.press("r")
    assert tab.page.evaluate("document.activeElement.id") == "reject-reason"
    tab.page.keyboard.type("reference wrong: it is 9091")
    tab.press("Enter")
    assert tab.shown() == CONVERSATION.id  # moved on
    assert PLAIN.id not in samples(path)
    (record,) = (json.loads(line) for line in rejected_path(path).read_text().splitlines())
    assert record["id"] == PLAIN.id and record["reason"] == "reference wrong: it is 9091"
    with tab.page.expect_navigation():
        tab.page.locator("#f-status").select_option("rejected")  # the filter applies on change
    assert "status=rejected" in tab.page.url
    assert tab.text("#count") == "1 of 5 samples" and tab.shown() == PLAIN.id
    assert "reference wrong: it is 9091" in tab.text("#why")
    assert tab.text("#status") == "rejected" and tab.page.locator("#keep").count() == 0
    tab.reload()
    assert tab.shown() == PLAIN.id and tab.text("#status") == "rejected"
    tab.click("#restore")
    assert tab.text("#count") == "0 of 5 samples"  # not rejected any more
    assert tab.page.locator("#empty").inner_text() == "No sample matches these filters."
    assert samples(path)[PLAIN.id] == PLAIN and not rejected_path(path).exists()
    tab.click("#clear-filters")
    assert tab.text("#count") == "5 of 5 samples"
    tab.check_clean()


def test_tag_with_t_and_remove_it(tab, served):
    path, _ = served
    tab.at(CONVERSATION)
    tab.page.keyboard.press("t")
    assert tab.page.evaluate("document.activeElement.id") == "tag-input"
    tab.page.keyboard.type("critical")
    tab.press("Enter")
    assert tab.page.locator("#tags .tag").all_inner_texts() == ["critical×"]
    assert samples(path)[CONVERSATION.id].tags == ["critical"]
    tab.page.keyboard.press("t")
    tab.page.keyboard.type("ports, slow")
    tab.press("Enter")
    tab.reload()
    assert tab.page.locator("#tags .tag").all_inner_texts() == ["critical×", "ports×", "slow×"]
    tab.click("#tags button[data-tag='critical']")
    assert tab.page.locator("#tags .tag").all_inner_texts() == ["ports×", "slow×"]
    assert samples(path)[CONVERSATION.id].tags == ["ports", "slow"]
    tab.check_clean()


def test_note_with_n(tab, served):
    path, _ = served
    tab.at(DECLINE)
    tab.page.keyboard.press("n")
    assert tab.page.evaluate("document.activeElement.id") == "note-input"
    tab.page.keyboard.type("ask a pricing question in other words too")
    tab.press("Control+Enter")
    assert tab.text("#note-text") == "ask a pricing question in other words too"
    assert samples(path)[DECLINE.id].review_note == "ask a pricing question in other words too"
    tab.page.keyboard.press("n")  # the note opens with its text, to change it
    assert tab.page.locator("#note-input").input_value() == "ask a pricing question in other words too"
    tab.page.locator("#note-input").fill("changed")
    tab.press("Control+Enter")
    tab.reload()
    assert tab.text("#note-text") == "changed" and samples(path)[DECLINE.id].review_note == "changed"
    tab.check_clean()


def test_filters_apply_when_a_select_changes(tab, served):
    path, _ = served
    tab.open()
    with tab.page.expect_navigation():
        tab.page.locator("#f-kind").select_option("conversational")
    assert tab.text("#count") == "1 of 5 samples" and tab.shown() == CONVERSATION.id
    with tab.page.expect_navigation():
        tab.page.locator("#f-document").select_option("docs/a.md")
    assert tab.text("#count") == "0 of 5 samples"
    with tab.page.expect_navigation():
        tab.page.locator("#f-kind").select_option("")
    assert tab.text("#count") == "2 of 5 samples" and tab.shown() == PLAIN.id
    tab.press("j")
    assert tab.shown() == DISTRACTING.id and tab.text("#position") == "2 of 2"
    assert tab.page.locator("#f-document").input_value() == "docs/a.md"  # the filter stays on
    tab.click("#clear-filters")
    with tab.page.expect_navigation():
        tab.page.locator("#f-status").select_option("needs review")
    assert tab.text("#count") == "1 of 5 samples" and tab.shown() == WAITING.id
    tab.press("k")  # kept: the next refresh puts it back
    assert tab.text("#status") == "will be restored"
    assert read_records(needs_review_path(path))[0]["restore"] is True
    tab.click("#clear-filters")
    tab.at(PLAIN)
    tab.page.keyboard.press("t")
    tab.page.keyboard.type("critical")
    tab.press("Enter")
    tab.open()
    with tab.page.expect_navigation():
        tab.page.locator("#f-tag").select_option("critical")
    assert tab.text("#count") == "1 of 5 samples" and tab.shown() == PLAIN.id
    tab.check_clean()


def test_keys_move_help_and_summary(tab):
    tab.open()
    tab.press("j")
    assert tab.text("#position") == "2 of 5"
    tab.press("ArrowRight")
    assert tab.text("#position") == "3 of 5"
    tab.press("h")
    assert tab.text("#position") == "2 of 5"
    tab.press("ArrowLeft")
    assert tab.text("#position") == "1 of 5"
    tab.page.keyboard.press("h")  # nothing before the first
    tab.page.wait_for_timeout(100)
    assert tab.text("#position") == "1 of 5"
    help_box = tab.page.locator("#help")
    assert help_box.is_hidden()
    tab.page.keyboard.press("?")
    assert help_box.is_visible() and "show or hide these shortcuts" in help_box.inner_text()
    tab.page.keyboard.press("?")
    assert help_box.is_hidden()
    tab.page.locator("#help-toggle").click()
    assert help_box.is_visible()
    tab.press("s")
    assert tab.page.url.endswith("/summary")
    assert tab.text("#headline") == "no sample decided yet"
    tab.click("#back")
    assert tab.text("#position") == "1 of 5"
    tab.check_clean()


def test_every_saved_state_shows_after_a_reload_and_in_the_summary(tab, served):
    path, _ = served
    tab.open()
    tab.press("k")  # PLAIN kept
    tab.page.keyboard.press("e")  # CONVERSATION edited
    tab.page.locator("#edit-reference").fill("Every 15 seconds.")
    tab.press("Control+Enter")
    tab.press("j")
    tab.page.keyboard.press("r")  # DISTRACTING rejected
    tab.page.keyboard.type("duplicate of another sample")
    tab.press("Enter")
    assert tab.shown() == DECLINE.id
    tab.page.keyboard.press("t")
    tab.page.keyboard.type("pricing")
    tab.press("Enter")
    expected = {
        PLAIN.id: "kept",
        CONVERSATION.id: "edited",
        DISTRACTING.id: "rejected",
        DECLINE.id: "pending",
        WAITING.id: "needs review",
    }
    for sample_id, status in expected.items():
        tab.open(f"?at={sample_id}")
        tab.reload()
        assert tab.shown() == sample_id and tab.text("#status") == status
    tab.at(DECLINE)
    assert tab.page.locator("#tags .tag").all_inner_texts() == ["pricing×"]
    tab.press("s")
    assert tab.text("#headline").startswith("3 of 5 samples decided; kept 67%")
    assert tab.page.locator("#reasons").inner_text().startswith("reason")
    assert samples(path)[CONVERSATION.id].reference == "Every 15 seconds."
    tab.check_clean()


def test_a_stale_tab_cannot_undo_another_tabs_edit(browser, served):
    path, url = served
    first, second = Tab(browser, url), Tab(browser, url)
    try:
        first.at(PLAIN)
        second.at(PLAIN)
        first.page.keyboard.press("e")
        first.page.locator("#edit-question").fill("The first tab's question?")
        first.press("Control+Enter")
        second.page.keyboard.press("e")
        second.page.locator("#edit-question").fill("The second tab's question?")
        second.allowed.append("409")  # the browser logs the refused request
        second.page.keyboard.press("Control+Enter")
        message = second.page.locator("#message.bad")
        message.wait_for()
        assert "changed elsewhere" in message.inner_text()
        assert samples(path)[PLAIN.id].user_input == "The first tab's question?"
        second.escape()
        second.page.keyboard.press("t")  # a tag from the stale tab still goes in, beside the edit
        second.page.keyboard.type("critical")
        second.press("Enter")
        assert second.text("#question") == "The first tab's question?"
        assert samples(path)[PLAIN.id].tags == ["critical"]
        first.check_clean()
        second.check_clean()
    finally:
        first.context.close()
        second.context.close()
