"""End to end: headless Chromium against the running app (daphne serving zeus.asgi:application with the real
websocket consumer, agent loop, tool catalog and cards) and the offline Anthropic-compatible model server.
Nothing is faked in the page: the model's replies are scripted as a function of what it is sent.
"""

import json
import re
from datetime import date
from decimal import Decimal

import pytest

from assets.models import Asset, Transaction
from chat.admin_reply import admin_reply_send
from chat.models import Message
from chat.ui_events import GOAL_FORM_PREFIX
from goals.models import Goal
from tests import factories
from tests.chat import factories as chat_factories
from tests.chat.browser.conftest import ARTIFACTS, DESKTOP, watch_csp
from tests.chat.browser.e2e_server import free_port
from tests.chat.conftest import SERVER_KEY
from tests.chat.fake_anthropic import FakeAnthropic, text, tools
from zeus.services import notification_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "e2e"


@pytest.fixture
def model(settings):
    with FakeAnthropic(port=free_port()) as server:
        settings.ANTHROPIC_BASE_URL = server.url
        settings.ANTHROPIC_API_KEY = SERVER_KEY
        server.router_model = settings.ZEUS_ROUTER_MODEL
        yield server
        assert server.rejected == [], "the app sent the model a request the real API refuses"


def _blocks(message: dict) -> list[dict]:
    content = message["content"]
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def answering_tools(body: dict) -> bool:
    """The request carries tool results: the model is asked to go on after its own tool calls."""
    return any(block["type"] == "tool_result" for block in _blocks(body["messages"][-1]))


def last_user_text(body: dict) -> str:
    for message in reversed(body["messages"]):
        texts = [b["text"] for b in _blocks(message) if message["role"] == "user" and b["type"] == "text"]
        if texts:
            return texts[-1]
    return ""


def user_texts(model: FakeAnthropic) -> list[str]:
    """The newest user text of each main-model request that was not a tool follow-up."""
    return [last_user_text(r["body"]) for r in model.main_requests if not answering_tools(r["body"])]


class Browser:
    def __init__(self, page, server, user):
        self.page = page
        self.server = server
        self.user = user

    def login(self) -> "Browser":
        self.page.goto(f"{self.server.url}/accounts/login/?next=/chat")
        self.page.fill("#id_login", self.user.username)
        self.page.fill("#id_password", factories.PASSWORD)
        self.page.click("form button[type=submit]")
        self.wait_ready()
        return self

    def wait_ready(self) -> None:
        self.page.wait_for_selector("#chat-app[data-ready=true]")
        self.page.wait_for_selector("#conn-status[data-state=open]", state="attached")

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"))

    def say(self, words: str) -> None:
        self.page.fill("#input", words)
        self.page.press("#input", "Enter")

    def idle(self) -> None:
        self.page.wait_for_selector("#stop", state="hidden")

    @property
    def thread_id(self) -> str:
        return re.search(r"/chat/([0-9a-f-]{36})", self.page.url).group(1)

    def last_reply(self):
        return self.page.locator(".msg-assistant").last


@pytest.fixture
def open_app(browser, daphne_server, model):
    contexts = []

    def make(user, timezone_id="Asia/Ho_Chi_Minh") -> Browser:
        context = browser.new_context(viewport=DESKTOP, locale="en-US", timezone_id=timezone_id)
        contexts.append((context, watch_csp(context)))
        page = context.new_page()
        page.set_default_timeout(10000)
        return Browser(page, daphne_server, user).login()

    yield make
    seen = [v for _, found in contexts for v in found]
    for context, _ in contexts:
        context.close()
    assert not seen, f"Content-Security-Policy violations: {seen}"


def test_a_reply_streams_into_the_page_and_is_stored(open_app, model):
    user = factories.user("e2e_stream")
    answer = "You spent **1,250,000 ₫** on dining this month, which is a little more than in October."
    model.responder = lambda body: text(answer, token_delay=0.06)
    app = open_app(user)
    app.shot("01_logged_in")

    app.say("How much did I spend on dining this month?")
    live = app.page.locator(".msg-assistant.live .md")
    live.filter(has_text="You spent").wait_for()
    partial = live.inner_text()
    assert "October" not in partial, "the reply arrived whole, not streamed"
    app.shot("02_streaming")

    app.idle()
    reply = app.last_reply()
    assert reply.locator("strong").inner_text() == "1,250,000 ₫"
    assert "more than in October." in reply.inner_text()
    assert app.page.locator(".msg-user.pending").count() == 0
    app.shot("03_streamed")
    stored = list(Message.objects.filter(thread_id=app.thread_id).order_by("id"))
    assert [m.role for m in stored] == ["user", "assistant"]
    assert stored[0].parts == [{"type": "text", "text": "How much did I spend on dining this month?"}]
    assert stored[1].parts == [{"type": "text", "text": answer}]
    assert reply.get_attribute("data-id") == str(stored[1].id)


def test_picking_an_asset_on_the_selector_records_the_transaction_once(open_app, model):
    user = factories.user("e2e_asset")
    factories.asset(user, name="Cash wallet", kind="cash", balance="2000000")
    card = factories.asset(user, name="Techcombank Visa", kind="bank_account", balance="15000000")

    def reply(body):
        if answering_tools(body):
            outcome = json.dumps(_blocks(body["messages"][-1]))
            return text("Which asset did you pay from?" if "asset_required" in outcome else "Recorded.")
        picked = re.match(r"Use my asset #(\d+) for that", last_user_text(body))
        call = {"amount": "150k", "description": "KFC", "category": "dining"}
        return tools(("create_manual_transaction", call | ({"asset_id": int(picked[1])} if picked else {})))

    model.responder = reply
    app = open_app(user)
    app.say("KFC 150k")
    selector = app.page.locator(".msg-assistant .zcard-asset-selector")
    selector.wait_for()
    app.idle()
    assert selector.locator(".pending-line").inner_text() == "KFC · ₫150,000"
    assert not Transaction.objects.filter(user=user).exists(), "nothing is written before the pick"
    app.shot("04_asset_selector")

    selector.locator(f"button[data-asset-id='{card.id}']").click()
    summary = app.page.locator(".msg-assistant .zcard-result")
    summary.wait_for()
    app.idle()
    app.shot("05_asset_picked")

    assert user_texts(model)[-1] == f"Use my asset #{card.id} for that"
    [txn] = Transaction.objects.filter(user=user)
    assert txn.amount == Decimal("150000")
    assert txn.asset_id == card.id
    assert txn.description == "KFC"
    assert "Transaction created" in summary.inner_text()
    app.page.locator("#recent-list .recent-item", has_text="KFC").wait_for()

    # A reload renders the same conversation, cards included, from the REST history.
    app.page.reload()
    app.wait_ready()
    history = app.page.locator("#messages")
    history.locator(".zcard-result").wait_for()
    assert [m.inner_text() for m in history.locator(".msg-user .user-text").all()] == [
        "KFC 150k",
        f"Use my asset #{card.id} for that",
    ]
    # Answered by the next turn: picking again from history would record the purchase twice.
    picks = history.locator(".zcard-asset-selector button[data-asset-id]")
    assert picks.count() == 2
    assert all(button.is_disabled() for button in picks.all())
    assert "Recorded." in app.last_reply().inner_text()
    app.shot("06_history_after_reload")


def test_a_goal_form_submitted_in_the_page_creates_the_goal(open_app, model):
    user = factories.user("e2e_goal")

    def reply(body):
        if answering_tools(body):
            outcome = json.dumps(_blocks(body["messages"][-1]))
            return text("Fill in the form and I will set it up." if "create_goal" in outcome else "Done!")
        said = last_user_text(body)
        if said.startswith(GOAL_FORM_PREFIX):
            return tools(("create_goal", json.loads(said[len(GOAL_FORM_PREFIX) :])))
        return tools(("show_goal_planning_form", {"kind": "house", "name": "Buy a house"}))

    model.responder = reply
    app = open_app(user)
    app.say("I want to buy a house in 10 years")
    app.page.locator(".zcard-goal-form form").wait_for()
    app.idle()
    # The form is filled in from the history a reload renders: the newest message's card is still live.
    app.page.reload()
    app.wait_ready()
    form = app.page.locator("#messages .from-history .zcard-goal-form form")
    form.wait_for()
    assert form.locator("[name=name]").input_value() == "Buy a house"
    assert form.locator("[name=kind]").input_value() == "house"
    form.locator("[name=target_amount]").fill("2 tỷ")
    form.locator("[name=deadline]").fill("2036-11-29")
    form.locator("[name=current_amount]").fill("150tr")
    app.shot("07_goal_form")
    form.locator("button[type=submit]").click()
    app.page.locator(".zcard-result").wait_for()
    app.idle()
    app.shot("08_goal_created")

    submitted = {
        "name": "Buy a house",
        "kind": "house",
        "target_amount": "2 tỷ",
        "deadline": "2036-11-29",
        "current_amount": "150tr",
    }
    assert user_texts(model)[-1] == GOAL_FORM_PREFIX + json.dumps(submitted, ensure_ascii=False)
    [goal] = Goal.objects.filter(user=user)
    assert goal.name == "Buy a house"
    assert goal.target_amount == Decimal("2000000000")
    assert goal.current_amount == Decimal("150000000")
    assert goal.deadline.isoformat() == "2036-11-29"


def test_a_delete_runs_once_after_the_user_approves_it(open_app, model):
    user = factories.user("e2e_delete")
    doomed = factories.txn(user, amount="99000", description="Duplicate lunch")
    kept = factories.txn(user, amount="12000", description="Keep me")

    def reply(body):
        said = last_user_text(body)
        if answering_tools(body):
            return text("Please confirm on the card.")
        if said.startswith("I approved"):
            return text("Deleted the duplicate lunch.")
        return tools(("delete_manual_transaction", {"transaction_id": doomed.id}))

    model.responder = reply
    app = open_app(user)
    app.say(f"delete transaction #{doomed.id}")
    confirm = app.page.locator(".zcard-confirm")
    confirm.wait_for()
    app.idle()
    assert Transaction.objects.filter(id=doomed.id).exists(), "nothing is deleted before the approval"
    app.shot("09_confirm_card")

    confirm.get_by_role("button", name="Delete").click()
    app.page.locator(".msg-assistant", has_text="Deleted the duplicate lunch.").wait_for()
    app.idle()
    assert not Transaction.objects.filter(id=doomed.id).exists()
    assert list(Transaction.objects.filter(user=user)) == [kept]
    app.page.locator("#recent-list .recent-item", has_text="Duplicate lunch").wait_for(state="detached")
    app.shot("10_deleted")
    assert confirm.get_by_role("button", name="Delete").is_disabled()
    approvals = [t for t in user_texts(model) if t.startswith("I approved")]
    assert len(approvals) == 1
    assert '"deleted": true' in approvals[0]


def test_a_rejected_delete_keeps_the_transaction(open_app, model):
    user = factories.user("e2e_reject")
    spared = factories.txn(user, amount="50000", description="Bánh mì")

    def reply(body):
        if answering_tools(body):
            return text("Please confirm on the card.")
        if last_user_text(body).startswith("I rejected"):
            return text("Fine, I kept it.")
        return tools(("delete_manual_transaction", {"transaction_id": spared.id}))

    model.responder = reply
    app = open_app(user)
    app.say(f"delete transaction #{spared.id}")
    confirm = app.page.locator(".zcard-confirm")
    confirm.wait_for()
    app.idle()
    confirm.get_by_role("button", name="Cancel").click()
    app.page.locator(".msg-assistant", has_text="Fine, I kept it.").wait_for()
    app.idle()
    assert "nothing was deleted" in app.last_reply().inner_text()
    assert Transaction.objects.filter(id=spared.id).exists()
    assert user_texts(model)[-1] == "I rejected the delete_manual_transaction confirmation, so nothing was deleted."


def test_stop_keeps_the_partial_reply_as_aborted(open_app, model):
    user = factories.user("e2e_stop")
    words = " ".join(f"word{n}" for n in range(80))
    model.responder = lambda body: text(words, token_delay=0.08)
    app = open_app(user)
    app.say("Explain how budgets work")
    live = app.page.locator(".msg-assistant.live .md")
    live.filter(has_text="word3 ").wait_for()
    app.page.click("#stop")
    app.idle()
    stopped = app.last_reply()
    assert "Stopped." in stopped.locator(".error-note").inner_text()
    app.shot("11_stopped")

    shown = stopped.locator(".md").inner_text().strip()
    [assistant] = Message.objects.filter(thread_id=app.thread_id, role="assistant")
    assert assistant.metadata["aborted"] is True
    assert assistant.metadata["error"] == "STOPPED"
    stored = assistant.parts[0]["text"]
    assert words.startswith(stored) and stored != words
    assert stored.strip() == shown

    app.page.reload()
    app.wait_ready()
    again = app.page.locator("#messages .msg-assistant").last
    again.wait_for()
    assert again.locator(".md").inner_text().strip() == shown
    assert "stopped" in again.locator(".msg-meta").inner_text()
    app.shot("12_stopped_after_reload")


def test_the_ui_cards_of_one_response_render_and_answer_with_turns(open_app, model):
    user = factories.user("e2e_cards")
    factories.txn(user, amount="300000", category="dining", description="Dinner")
    factories.txn(user, amount="120000", category="transport", description="Grab")
    quick_form = {
        "title": "Add an expense",
        "intent": "create_expense",
        "fields": [
            {"name": "amount", "label": "Amount", "type": "text", "required": True},
            {"name": "description", "label": "What for", "type": "text", "required": True},
        ],
    }

    def reply(body):
        said = last_user_text(body)
        if answering_tools(body):
            return text("Here is where you stand.")
        asset = re.match(r'Create a manual asset named "(.+)" \(kind: (\w+)\)\.', said)
        if asset:
            return tools(("create_manual_asset", {"name": asset[1], "kind": asset[2], "balance": "2tr"}))
        if said.startswith("Submit the create_expense form with this form data JSON: "):
            values = json.loads(said.split("JSON: ", 1)[1])
            return tools(("create_manual_transaction", {**values, "asset_id": None}))
        return tools(
            ("show_welcome_suggestions", {}),
            ("summarize_spending", {"period": "this_month", "group_by": "category"}),
            ("suggest_asset_creation", {}),
            ("show_quick_form", quick_form),
            ("show_smart_actions", {"actions": [{"label": "Budgets", "prompt": "Show my budgets"}]}),
        )

    model.responder = reply
    app = open_app(user)
    app.say("Hi Zeus, what can you do?")
    app.page.locator(".msg-assistant", has_text="Here is where you stand.").wait_for()
    app.idle()
    turn = app.page.locator(".msg-assistant").first
    kinds = turn.locator(".zcard").evaluate_all("cards => cards.map(c => c.dataset.kind)")
    # The calls run concurrently and each card is sent as its tool finishes, so the live order may vary.
    assert sorted(kinds) == ["asset_suggestions", "chart", "quick_form", "smart_actions", "welcome"]
    chart = turn.locator(".zcard[data-kind=chart] [role=img]")
    assert "Dining" in chart.get_attribute("aria-label") and "Transport" in chart.get_attribute("aria-label")
    app.shot("18_cards")

    turn.locator(".zcard[data-kind=asset_suggestions] button", has_text="E-wallet").click()
    app.page.locator(".zcard-result", has_text="Asset created").wait_for()
    app.idle()
    [wallet] = Asset.objects.filter(user=user)
    assert (wallet.name, wallet.kind, wallet.balance) == ("E-wallet", "e_wallet", Decimal("2000000"))

    form = turn.locator(".zcard[data-kind=quick_form] form")
    form.locator("[name=amount]").fill("45k")
    form.locator("[name=description]").fill("Coffee")
    form.locator("button[type=submit]").click()
    app.page.locator(".zcard-result", has_text="Transaction created").wait_for()
    app.idle()
    app.shot("19_cards_answered")
    assert user_texts(model)[-1] == (
        'Submit the create_expense form with this form data JSON: {"amount": "45k", "description": "Coffee"}'
    )
    coffee = Transaction.objects.get(user=user, description="Coffee")
    assert coffee.amount == Decimal("45000")


def test_a_notification_arrives_live_as_a_toast_and_on_the_bell(open_app, model, daphne_server, settings):
    user = factories.user("e2e_notify")
    app = open_app(user)
    assert app.page.locator("#bell-count").is_hidden()
    _everywhere(daphne_server, settings, notification_create, user=user, kind="reminder", title="Rent is due")
    toast = app.page.locator(".toast", has_text="Rent is due")
    toast.wait_for()
    assert app.page.locator("#bell-count").inner_text() == "1"
    app.shot("13_notification")

    # The inbox the page reads over REST agrees after a reload.
    app.page.reload()
    app.wait_ready()
    app.page.wait_for_function("() => document.getElementById('bell-count').textContent === '1'")
    app.page.click("#bell")
    assert "Rent is due" in app.page.locator("#inbox-list").inner_text()
    app.shot("14_inbox_after_reload")


def test_a_staff_reply_reaches_the_open_page_and_its_notification_opens_that_thread(
    open_app, model, daphne_server, settings
):
    user = factories.user("e2e_staff_reply")
    # Staff who hold the reply permission (chat.admin_reply.may_reply).
    staff = factories.user("e2e_staff", is_staff=True, is_superuser=True)
    older = chat_factories.thread(user)
    chat_factories.user_message(older, "Why was my card declined?")
    model.responder = lambda body: text("Our team checked: the bank declined it; nothing was charged.")
    app = open_app(user)
    app.page.click("#new-thread")
    app.page.wait_for_url(re.compile(rf"/chat/(?!{older.id})"))
    app.wait_ready()

    _everywhere(daphne_server, settings, admin_reply_send, staff_user=staff, thread_id=older.id, prompt="Explain")
    app.page.locator(".toast", has_text="Zeus has a new reply for you").wait_for()
    app.page.click("#bell")
    app.page.locator("#inbox-list a", has_text="Open").click()
    app.page.wait_for_url(f"**/chat/{older.id}")
    app.wait_ready()
    reply = app.page.locator("#messages .msg-assistant.from-staff")
    reply.wait_for()
    assert "nothing was charged" in reply.inner_text()
    assert "from the Zeus team" in reply.locator(".msg-meta").inner_text()
    app.shot("17_staff_reply")

    # Open on that thread, the next staff reply arrives live as a message.
    model.responder = lambda body: text("One more thing: the refund is on its way.")
    _everywhere(daphne_server, settings, admin_reply_send, staff_user=staff, thread_id=older.id, prompt="More")
    app.page.locator(".msg-assistant.from-staff", has_text="refund is on its way").wait_for()
    assert app.page.locator(".msg-assistant.from-staff").count() == 2


def test_load_older_pages_through_the_stored_history(open_app, model):
    user = factories.user("e2e_history")
    thread = chat_factories.thread(user)
    for n in range(18):
        chat_factories.user_message(thread, f"question {n}")
        chat_factories.assistant_message(thread, f"answer {n}")
    app = open_app(user)
    bubbles = app.page.locator("#messages .msg .bubble")
    app.page.locator("#messages .msg-assistant", has_text="answer 17").wait_for()
    assert bubbles.count() == 30
    app.page.click("#load-older")
    app.page.locator("#messages .msg-user", has_text="question 0").wait_for()
    app.page.locator("#load-older").wait_for(state="hidden")
    expected = [f"{kind} {n}" for n in range(18) for kind in ("question", "answer")]
    # textContent: off-screen messages skip rendering (content-visibility), so innerText is empty there.
    assert [b.strip() for b in bubbles.all_text_contents()] == expected


def test_a_transactions_date_is_its_own_day_west_of_greenwich(open_app, model):
    user = factories.user("e2e_west", currency="USD", timezone="America/Los_Angeles")
    factories.txn(user, amount="12.5", currency="USD", description="Tacos", occurred_on=date(2026, 11, 29))
    app = open_app(user, timezone_id="America/Los_Angeles")
    app.page.locator("#recent-list .recent-item").wait_for()
    recent = app.page.locator("#recent-list").inner_text()
    assert "Nov 29, 2026" in recent and "$12.50" in recent


def test_without_any_key_the_dialog_saves_the_users_key_and_the_retry_uses_it(open_app, model, settings):
    settings.ANTHROPIC_API_KEY = ""
    user = factories.user("e2e_key")
    model.responder = lambda body: text("Hello! Your own key works.")
    app = open_app(user)
    app.say("Hello Zeus")
    dialog = app.page.locator("#key-dialog")
    dialog.wait_for()
    assert model.requests == []
    app.page.fill("#key-input", "sk-ant-user-key-0123456789")
    app.shot("15_key_dialog")
    app.page.click("#key-save")
    dialog.wait_for(state="hidden")
    app.page.locator(".msg-assistant", has_text="Your own key works.").wait_for()
    app.idle()
    app.shot("16_answered_with_the_users_key")
    assert [r["api_key"] for r in model.main_requests] == ["sk-ant-user-key-0123456789"]
    assert app.page.locator(".msg-assistant.failed").count() == 0


def _everywhere(daphne_server, settings, fn, **kwargs):
    """Runs a service whose push travels the channel layer to the server's sockets: through Redis when it is
    configured (from a thread of its own, like a Celery worker), else on the server's loop, where the
    in-memory layer lives."""
    if settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("RedisChannelLayer"):
        return _in_a_worker_thread(fn, **kwargs)
    return daphne_server.call(fn, **kwargs)


def _in_a_worker_thread(fn, **kwargs):
    # Playwright keeps an event loop on the test's thread, where async_to_sync (the push) cannot run.
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connections

    def run():
        try:
            return fn(**kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result(10)


def test_a_figure_no_tool_gave_gets_a_quiet_marker_with_its_tooltip(open_app, model):
    user = factories.user("e2e_figures")
    factories.txn(user, amount="85000", description="Phở Hòa", category="dining")

    def reply(body):
        if answering_tools(body):
            return text("You spent 85,000 ₫ on phở, and about 2,400,000 ₫ in total this month.")
        return tools(("list_transactions", {"limit": 5}))

    model.responder = reply
    app = open_app(user)
    app.say("show my transactions")
    app.idle()
    marker = app.last_reply().locator(".msg-meta .unverified")
    marker.wait_for()
    tip = marker.get_attribute("title")
    assert "2,400,000 ₫" in tip and "85,000" not in tip
    assert marker.get_attribute("data-unverified") == "1"
    app.shot("figures_marker")
    # the stored message carries it too: a reload renders the same marker from history
    app.page.reload()
    app.wait_ready()
    assert "2,400,000 ₫" in app.last_reply().locator(".msg-meta .unverified").get_attribute("title")
    # a reply whose figures all come from the tools has none
    model.responder = lambda body: text("You spent 85,000 ₫ on phở.") if answering_tools(body) else reply(body)
    app.say("show my transactions again")
    app.idle()
    assert app.last_reply().locator(".msg-meta .unverified").count() == 0
