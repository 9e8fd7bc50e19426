"""`groundset review`'s server driven over HTTP (Starlette's TestClient): pages render with every text
escaped, writes need the page's CSRF token and a request for this machine from this site, and each action
changes the files beside the test set as promised (read back from disk, not from the server's answer).

``write_testset`` builds the small test set the browser tests use too.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from groundset.review import ReviewStore, create_app, running
from groundset.samples.rejected import rejected_path
from groundset.samples.testset import Testset, TestsetSample
from groundset.synthesizers.refresh.review_file import needs_review_path, read_records, write_records

TOKEN = "t"
SCRIPT = "<script>alert(1)</script>"
MARKUP = '"quotes" & <b>tags</b>'
ESCAPED_SCRIPT = "&lt;script&gt;alert(1)&lt;/script&gt;"
ESCAPED_MARKUP = "&quot;quotes&quot; &amp; &lt;b&gt;tags&lt;/b&gt;"

PLAIN = TestsetSample.create(
    user_input="Which port does the server listen on?",
    reference="The server listens on port 9090.",
    reference_contexts=[
        f"Install it with {SCRIPT} and {MARKUP}. The server listens on port 9090. Logs go to stderr."
    ],
    reference_context_ids=["c-plain"],
    synthesizer="single_hop_specific",
    source_documents=["docs/a.md"],
    persona=f"operator {SCRIPT}",
    style="direct",
)
CONVERSATION = TestsetSample.create(
    user_input="And how often does it scrape them?",
    reference="It scrapes every target every 15 seconds.",
    reference_contexts=["By default it scrapes every target every 15 seconds."],
    reference_context_ids=["c-conv"],
    synthesizer="conversational",
    source_documents=["docs/b.md"],
    history=[
        {
            "user_input": f"What does it scrape? {SCRIPT}",
            "reference": f"It scrapes targets. {MARKUP}",
            "reference_contexts": ["Prometheus scrapes targets over HTTP."],
            "reference_context_ids": ["c-conv-0"],
        }
    ],
)
DISTRACTING = TestsetSample.create(
    user_input="Which port does the web UI use?",
    reference="The web UI uses port 9090.",
    reference_contexts=["The web UI uses port 9090 on every interface."],
    reference_context_ids=["c-ui"],
    synthesizer="distracting",
    source_documents=["docs/a.md"],
    distractor_contexts=[f"The push gateway port is 9091. {SCRIPT}"],
    distractor_context_ids=["c-push"],
)
DECLINE = TestsetSample.create(
    user_input="What does the enterprise edition cost?",
    reference="The documents do not say what anything costs.",
    reference_contexts=[],
    reference_context_ids=[],
    synthesizer="out_of_scope",
    expected_behaviour="refuse",
)
WAITING = TestsetSample.create(
    user_input="How long are samples kept by default?",
    reference="Samples are kept for 15 days by default.",
    reference_contexts=["Samples are kept for 15 days by default. Retention is set per server."],
    reference_context_ids=["c-old"],
    synthesizer="single_hop_specific",
    source_documents=["docs/c.md"],
).model_copy(update={"reviewed": True})
HAND_EDITED = TestsetSample.create(  # a text a page gives back otherwise: "\r\n" as "\n", no white around
    user_input="\nWhat is on the two lines? ",
    reference="Line one.\r\nLine two.\n",
    reference_contexts=["Line one. Line two."],
    reference_context_ids=["c-lines"],
    synthesizer="single_hop_specific",
).model_copy(update={"review_note": "a note\r\nof two lines "})
IN_TESTSET = [PLAIN, CONVERSATION, DISTRACTING, DECLINE]
ALL = [*IN_TESTSET, WAITING]


def write_testset(folder: Path) -> Path:
    """Four samples in ``folder/t.jsonl`` (with script and markup in their texts) and one waiting in its
    needs-review file, its context changed since."""
    path = folder / "t.jsonl"
    Testset(IN_TESTSET, {}).to_jsonl(path)
    record = {
        "id": WAITING.id,
        "reason": f"its contexts changed {SCRIPT}",
        "changed_documents": ["docs/c.md"],
        "removed_documents": [],
        "changed_context_ids": ["c-old"],
        "current_contexts": [
            {"replaces": "c-old", "id": "c-new", "text": f"Samples are kept for 30 days by default. {SCRIPT}"}
        ],
        "sample": json.loads(WAITING.model_dump_json()),
        "restore": False,
    }
    write_records(needs_review_path(path), [record])
    return path


def samples(path: Path) -> dict[str, TestsetSample]:
    return {s.id: s for s in Testset.from_jsonl(path)}


def jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def snapshot(path: Path) -> dict[str, bytes | None]:
    """The bytes of the test set and the two files beside it (None: absent)."""
    files = [path, needs_review_path(path), rejected_path(path)]
    return {f.name: f.read_bytes() if f.exists() else None for f in files}


@pytest.fixture
def testset(tmp_path: Path) -> Path:
    return write_testset(tmp_path)


@pytest.fixture
def client(testset: Path) -> TestClient:
    return TestClient(create_app(ReviewStore(testset), token=TOKEN), base_url="http://127.0.0.1")


def post(client: TestClient, sample_id: str, action: str, body: Any = None, **headers: str):
    sent = {"x-csrf-token": TOKEN, **{k.replace("_", "-").lower(): v for k, v in headers.items()}}
    return client.post(f"/api/samples/{sample_id}/{action}", json={} if body is None else body, headers=sent)


def count(html: str) -> str:
    found = re.search(r'<span class="muted" id="count">([^<]*)</span>', html)
    assert found, "no sample count on the page"
    return found.group(1)


class _Tables(HTMLParser):
    """Each table's rows as lists of cell texts, by the table's id."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._table: list[list[str]] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._table = self.tables.setdefault(dict(attrs).get("id") or "", [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table:
            self._table[-1].append("".join(self._cell))
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def tables(html: str) -> dict[str, dict[str, list[str]]]:
    parser = _Tables()
    parser.feed(html)
    return {name: {row[0]: row[1:] for row in rows[1:]} for name, rows in parser.tables.items()}


# Pages.


def test_every_page_renders_with_all_text_escaped(client, testset):
    post(client, PLAIN.id, "tag", {"add": [SCRIPT, "critical"]})
    post(client, PLAIN.id, "note", {"note": f"check {SCRIPT} {MARKUP}"})
    post(client, DISTRACTING.id, "reject", {"reason": f"wrong {SCRIPT}"})
    pages = [f"/?at={s.id}" for s in ALL] + [
        "/",
        "/summary",
        "/?status=rejected",
        "/?status=needs+review",
        "/?kind=nothing",
        f"/?tag={SCRIPT}",
        f"/?document={SCRIPT}",
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["content-type"].startswith("text/html")
        assert SCRIPT not in response.text, url
        assert "<b>tags</b>" not in response.text, url
        assert response.text.count("<script") == 1, url  # the page's own script, nothing else
    shown = {s.id: client.get(f"/?at={s.id}").text for s in ALL}
    assert f'data-id="{PLAIN.id}"' in shown[PLAIN.id]
    for where in (PLAIN.id, CONVERSATION.id, DISTRACTING.id, WAITING.id):
        assert ESCAPED_SCRIPT in shown[where], where
    assert ESCAPED_MARKUP in shown[PLAIN.id]  # the context, and the note
    assert ESCAPED_MARKUP in shown[CONVERSATION.id]  # the earlier turn's answer
    assert f"tag {ESCAPED_SCRIPT}" in shown[PLAIN.id]  # the tag chip's button title
    assert f"wrong {ESCAPED_SCRIPT}" in shown[DISTRACTING.id]  # the rejection's reason
    assert ESCAPED_SCRIPT in client.get("/summary").text  # the reason in the summary


def test_sample_page_shows_what_a_reviewer_judges(client):
    plain = client.get(f"/?at={PLAIN.id}").text
    assert '<div id="question">Which port does the server listen on?</div>' in plain
    assert "<mark>The server listens on port 9090.</mark>" in plain  # what the reference rests on
    assert "Logs go to stderr." in plain and "<mark>Logs" not in plain
    assert "<b>style</b> direct" in plain and "docs/a.md" in plain
    conversation = client.get(f"/?at={CONVERSATION.id}").text
    assert "earlier question 1" in conversation and "Prometheus scrapes" not in conversation
    assert "What does it scrape?" in conversation
    distracting = client.get(f"/?at={DISTRACTING.id}").text
    assert "distractor 1: shares the question" in distracting
    assert 'class="context distractor"' in distracting and "push gateway port is 9091" in distracting
    decline = client.get(f"/?at={DECLINE.id}").text
    assert "the assistant declines" in decline
    waiting = client.get(f"/?at={WAITING.id}").text
    assert f"sent to review by a refresh: its contexts changed {ESCAPED_SCRIPT} (docs/c.md)</div>" in waiting
    assert "what its context c-old reads now" in waiting
    assert "<del>15</del>" in waiting and "<ins>30</ins>" in waiting  # the diff of its context
    assert 'id="status">needs review<' in waiting


def test_security_headers_on_every_response(client):
    responses = [
        client.get("/"),
        client.get("/summary"),
        client.get("/static/review.js"),
        client.get("/static/review.css"),
        client.get("/static/missing.js"),
        post(client, PLAIN.id, "keep"),
        post(client, "s-nope", "keep"),
    ]
    for response in responses:
        policy = response.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "script-src 'self'" in policy
        assert "connect-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert response.headers["x-content-type-options"] == "nosniff"
    assert responses[2].headers["content-type"].startswith("text/javascript")
    assert responses[3].headers["content-type"].startswith("text/css")
    assert responses[4].status_code == 404


# Who may write.


@pytest.mark.parametrize("token", [None, "", "wrong", TOKEN + "x"])
def test_a_write_without_the_pages_token_is_refused(client, testset, token):
    before = snapshot(testset)
    headers = {} if token is None else {"X-CSRF-Token": token}
    writes = [("keep", {}), ("reject", {"reason": "bad"}), ("edit", {"question": "Q?", "reference": "R."})]
    for action, body in writes:
        response = client.post(f"/api/samples/{PLAIN.id}/{action}", json=body, headers=headers)
        assert response.status_code == 403
        assert "reload" in response.json()["error"]
    assert snapshot(testset) == before


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "10.0.0.1"])
def test_a_request_for_another_host_is_refused(client, testset, host):
    before = snapshot(testset)
    assert client.get("/", headers={"host": host}).status_code == 421
    assert post(client, PLAIN.id, "keep", host=host).status_code == 421
    assert snapshot(testset) == before
    assert client.get("/", headers={"host": "localhost:8765"}).status_code == 200
    assert client.get("/", headers={"host": "127.0.0.1:8765"}).status_code == 200


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://localhost", "https://127.0.0.1"])
def test_a_cross_site_write_is_refused(client, testset, origin):
    before = snapshot(testset)
    response = post(client, PLAIN.id, "keep", origin=origin)
    assert response.status_code == 403 and "cross-site" in response.json()["error"]
    assert snapshot(testset) == before
    assert post(client, PLAIN.id, "keep", origin="http://127.0.0.1").status_code == 200
    assert samples(testset)[PLAIN.id].reviewed


# Actions, read back from the files.


def test_keep_marks_reviewed_and_can_be_taken_back(client, testset):
    response = post(client, PLAIN.id, "keep")
    assert response.status_code == 200
    assert response.json()["status"] == "kept" and response.json()["place"] == "testset"
    record = jsonl(testset)[1]
    assert record["id"] == PLAIN.id and record["reviewed"] is True and "edited" not in record
    assert not samples(testset)[CONVERSATION.id].reviewed  # only that sample
    assert 'id="status">kept<' in client.get(f"/?at={PLAIN.id}").text
    assert "take back keep (k)" in client.get(f"/?at={PLAIN.id}").text
    assert post(client, PLAIN.id, "keep", {"keep": False}).json()["status"] == "pending"
    assert samples(testset)[PLAIN.id] == PLAIN


def test_edit_keeps_the_id_and_marks_edited(client, testset):
    body = {
        "question": "  On which port does the server listen?  ",
        "reference": "Port 9090.",
        "base": {"question": PLAIN.user_input, "reference": PLAIN.reference},
    }
    response = post(client, PLAIN.id, "edit", body)
    assert response.status_code == 200 and response.json()["status"] == "edited"
    edited = samples(testset)[PLAIN.id]  # found under its old id
    assert edited.user_input == "On which port does the server listen?" and edited.reference == "Port 9090."
    assert edited.reviewed and edited.edited
    assert edited.reference_contexts == PLAIN.reference_contexts
    assert [r["id"] for r in jsonl(testset)[1:]] == [s.id for s in IN_TESTSET]  # same place, same ids
    page = client.get(f"/?at={PLAIN.id}").text
    assert "On which port does the server listen?" in page and 'id="status">edited<' in page


def test_edit_that_changes_nothing_is_a_keep(client, testset):
    body = {"question": PLAIN.user_input, "reference": PLAIN.reference, "base": {}}
    assert post(client, PLAIN.id, "edit", body).json()["status"] == "kept"
    assert samples(testset)[PLAIN.id].reviewed and not samples(testset)[PLAIN.id].edited


def test_texts_as_the_page_gives_them_back_are_no_conflict(tmp_path):
    path = tmp_path / "t.jsonl"
    Testset([HAND_EDITED], {}).to_jsonl(path)
    client = TestClient(create_app(ReviewStore(path), token=TOKEN), base_url="http://127.0.0.1")
    sample_id = HAND_EDITED.id
    # What the page's textareas and data attribute hold, and so send back as the base.
    base = {"question": "What is on the two lines? ", "reference": "Line one.\nLine two.\n"}
    unchanged = {"question": base["question"], "reference": base["reference"], "base": base}
    assert post(client, sample_id, "edit", unchanged).json()["status"] == "kept"
    assert samples(path)[sample_id] == HAND_EDITED.model_copy(update={"reviewed": True})  # texts as they were
    changed = {"question": base["question"], "reference": "Line one.\nLine three.", "base": base}
    assert post(client, sample_id, "edit", changed).json()["status"] == "edited"
    assert samples(path)[sample_id].reference == "Line one.\nLine three."
    noted = {"note": "new note", "base": "a note\nof two lines "}  # the data attribute: "\r\n" read as "\n"
    assert post(client, sample_id, "note", noted).status_code == 200
    assert samples(path)[sample_id].review_note == "new note"


@pytest.mark.parametrize(
    "body",
    [
        {"question": "", "reference": "R."},
        {"question": "Q?", "reference": "   "},
        {"question": 3, "reference": "R."},
        {"reference": "R."},
    ],
)
def test_edit_without_a_question_or_reference_is_refused(client, testset, body):
    before = snapshot(testset)
    response = post(client, PLAIN.id, "edit", body)
    assert response.status_code == 400 and response.json()["error"]
    assert snapshot(testset) == before


def test_reject_moves_the_sample_with_its_reason_and_restore_brings_it_back(client, testset):
    response = post(client, DISTRACTING.id, "reject", {"reason": " duplicate of another sample "})
    assert response.status_code == 200 and response.json()["status"] == "rejected"
    assert DISTRACTING.id not in samples(testset)
    assert len(samples(testset)) == 3
    (record,) = jsonl(rejected_path(testset))
    assert rejected_path(testset).name == "t.rejected.jsonl"
    assert record["id"] == DISTRACTING.id and record["reason"] == "duplicate of another sample"
    assert record["from"] == "testset" and record["rejected_at"]
    assert TestsetSample.model_validate(record["sample"]) == DISTRACTING  # as it was, distractors too
    page = client.get("/?status=rejected").text
    assert count(page) == "1 of 5 samples" and f'data-id="{DISTRACTING.id}"' in page
    assert "duplicate of another sample" in page and 'id="restore"' in page and 'id="keep"' not in page
    assert post(client, DISTRACTING.id, "reject", {"reason": "again"}).status_code == 200  # no-op
    assert len(jsonl(rejected_path(testset))) == 1

    response = post(client, DISTRACTING.id, "restore")
    assert response.status_code == 200 and response.json()["place"] == "testset"
    assert samples(testset)[DISTRACTING.id] == DISTRACTING  # back, id and all
    assert not rejected_path(testset).exists()
    assert count(client.get("/?status=rejected").text) == "0 of 5 samples"
    assert post(client, DISTRACTING.id, "restore").status_code == 200  # restoring a present one: no-op
    assert len(samples(testset)) == 4


@pytest.mark.parametrize("body", [{}, {"reason": ""}, {"reason": "  \n "}, {"reason": None}])
def test_reject_without_a_reason_is_refused(client, testset, body):
    before = snapshot(testset)
    response = post(client, PLAIN.id, "reject", body)
    assert response.status_code == 400 and response.json()["error"]
    assert snapshot(testset) == before


def test_tags_are_added_and_removed(client, testset):
    assert post(client, PLAIN.id, "tag", {"add": ["critical", "billing-v2"]}).status_code == 200
    assert samples(testset)[PLAIN.id].tags == ["critical", "billing-v2"]
    assert post(client, PLAIN.id, "tag", {"add": ["critical"]}).status_code == 200  # no repeat
    assert post(client, PLAIN.id, "tag", {"remove": ["critical"]}).status_code == 200
    assert samples(testset)[PLAIN.id].tags == ["billing-v2"]
    assert not samples(testset)[PLAIN.id].reviewed  # a tag is not a decision
    page = client.get(f"/?at={PLAIN.id}").text
    assert 'data-tag="billing-v2"' in page and 'data-tag="critical"' not in page
    post(client, PLAIN.id, "tag", {"remove": ["billing-v2"]})
    assert "tags" not in jsonl(testset)[1]


@pytest.mark.parametrize(
    "body", [{"add": ["two words"]}, {"add": ["a,b"]}, {"add": ["a=b"]}, {"add": "critical"}, {"add": [1]}]
)
def test_a_bad_tag_is_refused(client, testset, body):
    before = snapshot(testset)
    assert post(client, PLAIN.id, "tag", body).status_code == 400
    assert snapshot(testset) == before


def test_note_is_written(client, testset):
    assert post(client, PLAIN.id, "note", {"note": "ask about TLS too", "base": ""}).status_code == 200
    assert samples(testset)[PLAIN.id].review_note == "ask about TLS too"
    assert 'id="note-text">ask about TLS too<' in client.get(f"/?at={PLAIN.id}").text
    assert post(client, PLAIN.id, "note", {"note": "", "base": "ask about TLS too"}).status_code == 200
    assert "review_note" not in jsonl(testset)[1]


def test_unknown_sample_action_or_body(client, testset):
    before = snapshot(testset)
    assert post(client, "s-0000000000000000", "keep").status_code == 404
    assert post(client, "s-0000000000000000", "reject", {"reason": "x"}).status_code == 404
    assert post(client, PLAIN.id, "delete").status_code == 404
    bad_json = client.post(
        f"/api/samples/{PLAIN.id}/keep",
        content=b"{not json",
        headers={"X-CSRF-Token": TOKEN, "Content-Type": "application/json"},
    )
    assert bad_json.status_code == 400
    assert post(client, PLAIN.id, "keep", ["a list"]).status_code == 400
    assert client.get(f"/api/samples/{PLAIN.id}/keep").status_code == 405
    assert snapshot(testset) == before


# Two tabs on one file.


def test_an_edit_from_a_stale_tab_is_refused_and_the_other_tabs_text_stays(client, testset):
    base = {"question": PLAIN.user_input, "reference": PLAIN.reference}
    first = {"question": "First tab's question?", "reference": PLAIN.reference, "base": base}
    assert post(client, PLAIN.id, "edit", first).status_code == 200
    second = {"question": "Second tab's question?", "reference": "Second tab's reference.", "base": base}
    response = post(client, PLAIN.id, "edit", second)
    assert response.status_code == 409 and "another tab" in response.json()["error"]
    kept = samples(testset)[PLAIN.id]
    assert kept.user_input == "First tab's question?" and kept.reference == PLAIN.reference
    # The same goes for a note.
    assert post(client, PLAIN.id, "note", {"note": "first", "base": ""}).status_code == 200
    assert post(client, PLAIN.id, "note", {"note": "second", "base": ""}).status_code == 409
    assert samples(testset)[PLAIN.id].review_note == "first"


def test_two_tabs_changing_different_things_both_persist(client, testset):
    base = {"question": PLAIN.user_input, "reference": PLAIN.reference}
    # Both tabs loaded the page before either wrote.
    assert post(client, PLAIN.id, "tag", {"add": ["critical"]}).status_code == 200  # tab 1
    edit = {"question": PLAIN.user_input, "reference": "Port 9090, on every interface.", "base": base}
    assert post(client, PLAIN.id, "edit", edit).status_code == 200  # tab 2
    assert post(client, PLAIN.id, "tag", {"add": ["ports"]}).status_code == 200  # tab 2
    assert post(client, PLAIN.id, "note", {"note": "from tab 1", "base": ""}).status_code == 200  # tab 1
    assert post(client, CONVERSATION.id, "keep").status_code == 200  # tab 1, another sample
    sample = samples(testset)[PLAIN.id]
    assert sample.tags == ["critical", "ports"]
    assert sample.reference == "Port 9090, on every interface." and sample.edited
    assert sample.review_note == "from tab 1"
    assert samples(testset)[CONVERSATION.id].reviewed


def test_a_second_server_on_the_same_file_sees_the_first_ones_writes(client, testset):
    other = TestClient(create_app(ReviewStore(testset), token="other"), base_url="http://127.0.0.1")
    assert post(client, PLAIN.id, "tag", {"add": ["one"]}).status_code == 200
    assert post(other, PLAIN.id, "tag", {"add": ["two"]}, x_csrf_token="other").status_code == 200
    assert samples(testset)[PLAIN.id].tags == ["one", "two"]
    assert post(client, PLAIN.id, "tag", {"add": ["two"]}, x_csrf_token="other").status_code == 403


def test_simultaneous_writes_over_http_all_persist(testset):
    """Many tabs at once on a served review: every tag, note and keep lands (each write starts from the
    file as the one before it left it)."""
    tags = [f"tag-{n}" for n in range(12)]
    with running(create_app(ReviewStore(testset), token=TOKEN)) as url:

        def send(action: str, sample_id: str, body: dict[str, Any]) -> int:
            with httpx.Client(base_url=url, headers={"X-CSRF-Token": TOKEN}, timeout=30) as http:
                return http.post(f"/api/samples/{sample_id}/{action}", json=body).status_code

        jobs = [("tag", PLAIN.id, {"add": [tag]}) for tag in tags]
        jobs += [("note", CONVERSATION.id, {"note": "at once"}), ("keep", DISTRACTING.id, {})]
        jobs += [("tag", CONVERSATION.id, {"add": [tag]}) for tag in tags[:4]]
        with ThreadPoolExecutor(max_workers=8) as pool:
            codes = list(pool.map(lambda job: send(*job), jobs))
    assert codes == [200] * len(jobs)
    found = samples(testset)
    assert sorted(found[PLAIN.id].tags) == sorted(tags)
    assert sorted(found[CONVERSATION.id].tags) == sorted(tags[:4])
    assert found[CONVERSATION.id].review_note == "at once" and found[DISTRACTING.id].reviewed


# The needs-review file.


def test_keeping_a_sample_waiting_for_review_restores_it_at_the_next_refresh(client, testset):
    waiting = needs_review_path(testset)
    response = post(client, WAITING.id, "keep")
    assert response.status_code == 200 and response.json()["place"] == "needs_review"
    (record,) = read_records(waiting)
    assert record["restore"] is True and record["sample"]["reviewed"] is True
    assert record["current_contexts"][0]["id"] == "c-new"  # the rest of the record stays
    assert WAITING.id not in samples(testset)  # the refresh puts it back, not the review
    page = client.get(f"/?at={WAITING.id}").text
    assert 'id="status">will be restored<' in page and "take back keep (k)" in page
    assert post(client, WAITING.id, "keep", {"keep": False}).status_code == 200
    assert read_records(waiting)[0]["restore"] is False
    edit = {"question": "How long are samples kept?", "reference": "30 days.", "base": {}}
    assert post(client, WAITING.id, "edit", edit).status_code == 200
    (record,) = read_records(waiting)
    assert record["restore"] is True and record["sample"]["reference"] == "30 days."
    assert record["sample"]["id"] == WAITING.id and record["sample"]["edited"] is True


def test_a_rejected_sample_from_review_goes_back_to_review(client, testset):
    waiting = needs_review_path(testset)
    assert post(client, WAITING.id, "reject", {"reason": "stale"}).status_code == 200
    assert not waiting.exists()
    (record,) = jsonl(rejected_path(testset))
    assert record["from"] == "needs_review" and record["needs_review"]["current_contexts"]
    assert post(client, WAITING.id, "restore").json()["place"] == "needs_review"
    (back,) = read_records(waiting)
    assert back["id"] == WAITING.id and back["current_contexts"][0]["id"] == "c-new"
    assert back["restore"] is False
    assert not rejected_path(testset).exists()
    assert WAITING.id not in samples(testset)


# Filters and summary.


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", "5 of 5 samples"),
        ("?kind=conversational", "1 of 5 samples"),
        ("?kind=single_hop_specific", "2 of 5 samples"),
        ("?status=pending", "4 of 5 samples"),
        ("?status=needs+review", "1 of 5 samples"),
        ("?status=kept", "0 of 5 samples"),
        ("?document=docs/a.md", "2 of 5 samples"),
        ("?document=docs/a.md&kind=distracting", "1 of 5 samples"),
        ("?kind=single_hop_specific&status=needs+review&document=docs/c.md", "1 of 5 samples"),
        ("?status=&kind=&tag=&document=", "5 of 5 samples"),  # the form sends the empty ones
        ("?tag=critical", "0 of 5 samples"),
    ],
)
def test_filters_count_what_they_show(client, query, expected):
    page = client.get("/" + query).text
    assert count(page) == expected
    if expected.startswith("0 "):
        assert "No sample matches these filters." in page


def test_filters_after_actions(client, testset):
    post(client, PLAIN.id, "tag", {"add": ["critical"]})
    post(client, DECLINE.id, "tag", {"add": ["critical"]})
    post(client, PLAIN.id, "keep")
    post(client, CONVERSATION.id, "reject", {"reason": "unclear"})
    page = client.get("/?tag=critical").text
    assert count(page) == "2 of 5 samples" and '<option value="critical" selected="selected">' in page
    assert 'id="position">1 of 2<' in page
    assert f'href="/?tag=critical&amp;at={DECLINE.id}" id="next"' in page  # the filter stays on
    assert count(client.get("/?tag=critical&status=kept").text) == "1 of 5 samples"
    assert count(client.get("/?status=rejected&kind=conversational").text) == "1 of 5 samples"
    assert count(client.get("/?status=pending").text) == "2 of 5 samples"
    assert f'data-id="{DECLINE.id}"' in client.get(f"/?tag=critical&at={DECLINE.id}").text
    assert f'data-id="{PLAIN.id}"' in client.get(f"/?tag=critical&at={CONVERSATION.id}").text  # not shown


def test_summary_counts_per_kind_and_document(client, testset):
    assert "no sample decided yet" in client.get("/summary").text
    post(client, PLAIN.id, "keep")
    post(client, CONVERSATION.id, "edit", {"question": "How often?", "reference": "Every 15 s.", "base": {}})
    post(client, DISTRACTING.id, "reject", {"reason": "duplicate of another sample"})
    post(client, WAITING.id, "keep")  # counts as kept: it will be restored
    response = client.get("/summary")
    assert response.status_code == 200
    page = response.text
    assert '<p id="headline" class="headline">4 of 5 samples decided; kept 75%' in page
    found = tables(page)
    # columns: pending, kept, edited, needs review, rejected, kept share
    assert found["by-kind"] == {
        "conversational": ["0", "0", "1", "0", "0", "100%"],
        "distracting": ["0", "0", "0", "0", "1", "0%"],
        "out_of_scope": ["1", "0", "0", "0", "0", "–"],
        "single_hop_specific": ["0", "2", "0", "0", "0", "100%"],
        "all": ["1", "2", "1", "0", "1", "75%"],
    }
    assert found["by-document"] == {
        "(no document)": ["1", "0", "0", "0", "0", "–"],
        "docs/a.md": ["0", "1", "0", "0", "1", "50%"],
        "docs/b.md": ["0", "0", "1", "0", "0", "100%"],
        "docs/c.md": ["0", "1", "0", "0", "0", "100%"],
        "all": ["1", "2", "1", "0", "1", "75%"],
    }
    assert found["reasons"] == {"duplicate of another sample": ["1"]}


def test_a_csv_test_set_is_reviewed_in_place(tmp_path):
    path = tmp_path / "t.csv"
    Testset(IN_TESTSET, {"note": "kept"}).to_csv(path)
    client = TestClient(create_app(ReviewStore(path), token=TOKEN), base_url="http://127.0.0.1")
    assert count(client.get("/").text) == "4 of 4 samples"
    assert post(client, CONVERSATION.id, "keep").status_code == 200
    assert post(client, CONVERSATION.id, "tag", {"add": ["critical"]}).status_code == 200
    assert post(client, PLAIN.id, "reject", {"reason": "unclear"}).status_code == 200
    loaded = {s.id: s for s in Testset.from_csv(path)}
    assert PLAIN.id not in loaded and loaded[CONVERSATION.id].reviewed
    assert loaded[CONVERSATION.id].tags == ["critical"] and loaded[CONVERSATION.id].history
    assert Testset.from_csv(path).metadata == {"note": "kept"}
    assert [r["id"] for r in jsonl(tmp_path / "t.rejected.jsonl")] == [PLAIN.id]
