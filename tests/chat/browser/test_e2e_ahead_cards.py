"""The looking-ahead cards drawn on /chat (chat/static/chat/cards_ahead.js, cards_forecast.js), end to end: a
Vietnamese reader asks, the scripted model calls get_plan, get_cash_forecast, list_debts or get_debt_vietqr through
the real app on daphne, and the card shows the figures in Vietnamese (1.250.000 ₫); a reload draws the same card
from the stored thread; axe finds nothing serious. A counterparty named like markup stays text."""

import datetime as dt
from decimal import Decimal

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.test import Client

from chat.models import Message
from goals.debts import services as debt_services
from suggestions.models import RecurringSeries
from tests import factories
from tests.chat.browser.conftest import DESKTOP, PHONE
from tests.chat.browser.e2e_requests import answering_tools, last_user_text
from tests.chat.fake_anthropic import text, tools
from zeus.timeutil import user_today

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOSTILE = "<img src=x onerror=alert(1)>"


def vnd(amount) -> str:
    """What the page shows for an amount of đồng in Vietnamese: dots between thousands, then ₫."""
    whole = int(Decimal(str(amount)))
    return f"{'-' if whole < 0 else ''}{abs(whole):,} ₫".replace(",", ".")


def shown(locator) -> str:
    return locator.inner_text().replace("\xa0", " ").strip()


def scripted(model, asked: dict) -> None:
    """The model calls the tool the user's words map to, then says one short sentence about it."""

    def reply(body):
        if answering_tools(body):
            return text("Đây là kết quả.")
        return tools(asked[last_user_text(body)])

    model.responder = reply


def stored_card(thread_id: str, kind: str) -> dict:
    parts = [p for m in Message.objects.filter(thread_id=thread_id, role="assistant") for p in m.parts]
    return next(p["spec"] for p in parts if p.get("type") == "spec" and p["spec"]["kind"] == kind)


def blocking_issues(page) -> list[str]:
    """axe's serious and critical findings at desktop width in the light theme, then on a phone in the dark one."""
    found = []
    for viewport, scheme in [(DESKTOP, "light"), (PHONE, "dark")]:
        page.set_viewport_size(viewport)
        page.emulate_media(color_scheme=scheme)
        results = Axe().run(page)
        found += [
            f"{scheme}: {v['id']}: {v['help']} {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"]
            if v["impact"] in {"serious", "critical"}
        ]
    page.set_viewport_size(DESKTOP)
    page.emulate_media(color_scheme="light")
    return found


def ask(app, words: str, selector: str):
    app.say(words)
    card = app.page.locator(f".msg-assistant {selector}")
    card.wait_for()
    app.idle()
    return card


def reloaded(app, selector: str):
    app.page.reload()
    app.wait_ready()
    card = app.page.locator(f"#messages {selector}")
    card.wait_for()
    return card


def test_the_plan_card_shows_todays_money_the_guide_and_the_bills_in_vietnamese(open_app, model):
    user = factories.user("ahead_plan", language="vi")
    today = user_today(user)
    RecurringSeries.objects.create(
        user=user, key="evn", direction="expense", merchant="EVN HCMC", kind="bill", amount=650_000,
        currency="VND", interval="monthly", last_on=today - dt.timedelta(days=30), next_on=today,
        category="utilities", occurrences=3, status="active",
    )  # fmt: skip
    api = Client()
    api.force_login(user)
    made = api.post(
        "/api/v1/plans",
        {"month": f"{today:%Y-%m}", "expected_income": "20tr", "fixed_expenses": [], "lifestyle_mode": "balanced"},
        content_type="application/json",
    ).json()
    assert api.post(f"/api/v1/plans/{made['id']}/activate").status_code == 200
    scripted(model, {"hôm nay tôi được chi bao nhiêu?": ("get_plan", {})})

    app = open_app(user)
    card = ask(app, "hôm nay tôi được chi bao nhiêu?", ".zcard-plan")
    spec = stored_card(app.thread_id, "plan")
    assert spec["daily_guide"] == made["daily_guide"]["guide"]
    expected = {
        ".card-title": f"Kế hoạch tháng {today.month} năm {today.year}",
        ".plan-today-label": "Hôm nay được chi",
        ".plan-safe": vnd(spec["safe_to_spend_today"]),
        ".plan-guide": vnd(made["daily_guide"]["guide"]),
        ".plan-days": str(spec["days_left"]),
    }
    assert {k: shown(card.locator(k)) for k in expected} == expected
    # From the month's seventh day a plan with nothing put toward its goal yet is behind on it (plans.math).
    warnings = {
        "on_track": "Đúng tiến độ",
        "spend_pace": "Đang chi nhanh hơn kế hoạch",
        "overspent": "Đã vượt số tiền được chi",
        "goal_drift": "Đang chậm so với mục tiêu",
    }
    assert shown(card.locator(".plan-warning")) == warnings[spec["warning"]]
    bills = card.locator("table.plan-bills")
    assert shown(bills.locator("caption")) == "Hóa đơn còn phải trả"
    assert [shown(c) for c in bills.locator("tbody tr").first.locator("th, td").all()][::2] == ["EVN HCMC", "650.000 ₫"]
    assert card.locator("a", has_text="Mở kế hoạch").get_attribute("href") == f"/plans/{made['id']}"
    app.shot("ahead_plan")
    assert blocking_issues(app.page) == []

    again = reloaded(app, ".zcard-plan")
    assert shown(again.locator(".plan-safe")) == expected[".plan-safe"]
    assert shown(again) == shown(card)


def test_the_forecast_card_draws_the_line_its_lowest_point_and_the_named_events(open_app, model):
    user = factories.user("ahead_forecast", language="vi")
    today = user_today(user)
    factories.asset(user, name="VCB", kind="bank_account", balance="1000000")
    debt_services.debt_create(
        user=user, direction="i_owe", counterparty="Lan", principal="1500000", due_on=today + dt.timedelta(days=2)
    )
    words = "tôi có bị thiếu tiền trước ngày lương không?"
    scripted(model, {words: ("get_cash_forecast", {"days": 5})})

    app = open_app(user)
    card = ask(app, words, ".zcard-forecast")
    assert shown(card.locator(".card-title")) == "Tiền có thể chi, những ngày tới"
    lowest = shown(card.locator(".forecast-lowest"))
    assert lowest.startswith("Có thể thiếu tiền: thấp nhất -500.000 ₫ vào ")
    assert str((today + dt.timedelta(days=2)).day) in lowest
    assert "bad" in card.locator(".forecast-lowest").get_attribute("class")
    assert shown(card.locator(".forecast-start")) == "1.000.000 ₫"
    chart = card.locator("svg.chart-forecast")
    assert chart.get_attribute("role") == "img"
    assert "-500.000 ₫" in chart.get_attribute("aria-label").replace("\xa0", " ")
    assert chart.locator("circle.lowest").count() == 1
    assert chart.locator(".event-debt title").text_content().replace("\xa0", " ").endswith("Lan: -1.500.000 ₫")
    events = card.locator("table.forecast-events tbody tr")
    assert events.count() == 1
    assert [shown(c) for c in events.first.locator("th, td").all()][1:] == ["Lan · Kỳ trả nợ", "-1.500.000 ₫"]
    days = card.locator("table.forecast-days-table tbody tr")
    assert days.count() == 6
    assert [days.nth(i).locator("td").text_content().replace("\xa0", " ") for i in range(6)] == [
        "1.000.000 ₫", "1.000.000 ₫", "-500.000 ₫", "-500.000 ₫", "-500.000 ₫", "-500.000 ₫",
    ]  # fmt: skip
    app.shot("ahead_forecast")
    assert blocking_issues(app.page) == []

    again = reloaded(app, ".zcard-forecast")
    assert again.locator("svg.chart-forecast circle.lowest").count() == 1
    assert shown(again.locator(".forecast-lowest")) == lowest


def test_the_debt_card_shows_who_owes_what_and_when_and_a_markup_name_stays_text(open_app, model):
    user = factories.user("ahead_debts", language="vi")
    today = user_today(user)
    debt = debt_services.debt_create(
        user=user,
        direction="owed_to_me",
        counterparty=HOSTILE,
        principal="2000000",
        installments=4,
        first_due_on=today + dt.timedelta(days=10),
    )
    scripted(model, {"ai đang nợ tôi?": ("list_debts", {"direction": "owed_to_me"})})
    app = open_app(user)
    alerts = []
    app.page.on("dialog", lambda dialog: (alerts.append(dialog.message), dialog.dismiss()))

    card = ask(app, "ai đang nợ tôi?", ".zcard-debt")
    assert shown(card.locator(".card-title")) == "Ai đang nợ bạn"
    item = card.locator(f".debt-item[data-debt-id='{debt.id}']")
    assert item.locator(".debt-counterparty").inner_text() == HOSTILE
    assert card.locator("img").count() == 0
    assert shown(item.locator(".debt-direction")) == "nợ bạn"
    assert shown(item.locator(".debt-outstanding")) == "2.000.000 ₫"
    assert shown(item.locator(".debt-next")).startswith("500.000 ₫ vào ")
    assert shown(item.locator(".debt-code")) == debt.purpose
    schedule = item.locator("table.debt-schedule tbody tr")
    assert schedule.count() == 3
    assert [shown(schedule.nth(i).locator("td").first) for i in range(3)] == ["500.000 ₫"] * 3
    assert shown(card.locator(".debt-total-line")) == "Tổng người khác nợ bạn: 2.000.000 ₫"
    app.shot("ahead_debts")
    assert blocking_issues(app.page) == []

    again = reloaded(app, ".zcard-debt")
    assert again.locator(".debt-counterparty").inner_text() == HOSTILE
    assert again.locator("img").count() == 0
    assert alerts == []


def test_the_vietqr_card_shows_the_servers_qr_as_an_image_with_the_amount_and_code(open_app, model):
    user = factories.user("ahead_vietqr", language="vi")
    account = factories.asset(
        user, name="Vietcombank", kind="bank_account", bank_bin="970436", account_number="0071000012345"
    )
    debt = debt_services.debt_create(user=user, direction="owed_to_me", counterparty="Tú", principal="250000")
    words = "make a VietQR for Tú's debt"
    scripted(model, {words: ("get_debt_vietqr", {"debt_id": debt.id, "account_id": account.id})})

    app = open_app(user)
    card = ask(app, words, ".zcard-vietqr")
    assert shown(card.locator(".card-title")) == "VietQR cho Tú"
    image = card.locator("img.vietqr-image")
    image.wait_for()
    assert image.get_attribute("src").startswith("data:image/svg+xml;charset=utf-8,%3Csvg")
    assert image.evaluate("img => img.complete && img.naturalWidth > 0"), "the QR image did not load"
    assert image.get_attribute("alt").replace("\xa0", " ") == "Mã VietQR: 250.000 ₫ vào Vietcombank"
    assert shown(card.locator(".vietqr-amount")) == "250.000 ₫"
    assert shown(card.locator(".vietqr-account")) == "Vietcombank"
    assert shown(card.locator(".vietqr-code")) == debt.purpose
    spec = stored_card(app.thread_id, "vietqr")
    assert card.locator(".vietqr-payload code").text_content() == spec["payload"]
    assert debt.purpose in spec["payload"]
    app.shot("ahead_vietqr")
    assert blocking_issues(app.page) == []

    again = reloaded(app, ".zcard-vietqr")
    assert again.locator("img.vietqr-image").evaluate("img => img.complete && img.naturalWidth > 0")
    assert shown(again.locator(".vietqr-code")) == debt.purpose


def test_a_card_built_from_hostile_fields_shows_them_as_text(open_app, model):
    """The renderers themselves, given a card whose every string is markup: the page gets text, an SVG that is not
    a bare <svg> document is not shown, and no script runs."""
    app = open_app(factories.user("ahead_hostile", language="vi"))
    alerts = []
    app.page.on("dialog", lambda dialog: (alerts.append(dialog.message), dialog.dismiss()))
    drawn = app.page.evaluate(
        """async (hostile) => {
          const src = document.querySelector("script[type=module]").src;
          const { renderCard } = await import(new URL("cards.js", src).href);
          const ctx = { currency: "VND", send: () => false };
          const cards = [
            { kind: "debt", version: 1, title: hostile, items: [{ id: 1, direction: "i_owe", counterparty: hostile,
              outstanding: "1250000", total: "1250000", currency: "VND", next_due: null, schedule: [] }], totals: [] },
            { kind: "vietqr", version: 1, counterparty: hostile, svg: `<img src=x onerror=alert(2)>`, payload: hostile,
              code: hostile, amount: "1250000", currency: "VND", account: { name: hostile } },
            { kind: "plan", version: 1, month: "2026-12", currency: "VND", safe_to_spend_today: "1250000",
              daily_guide: "48482", days_left: 29, warning: hostile, bills_still_due: [{ name: hostile, amount: "1",
              due_on: "2026-12-05" }], cta_url: "javascript:alert(3)" },
            { kind: "forecast", version: 1, currency: "VND", start_balance: "1250000", cushion: "0",
              lowest: { date: "2026-12-04", balance: "-5" }, shortfall: true,
              series: [{ key: "2026-12-03", amount: "1250000" }, { key: "2026-12-04", amount: "-5" }],
              events: [{ date: "2026-12-04", kind: "bill", label: hostile, amount: "-1250005" }] },
          ];
          const box = document.createElement("div");
          document.body.append(box);
          for (const card of cards) box.append(renderCard(card, ctx));
          return {
            images: box.querySelectorAll("img").length,
            links: [...box.querySelectorAll("a")].map((a) => a.getAttribute("href")),
            text: box.textContent,
            money: box.querySelector(".debt-outstanding").textContent,
          };
        }""",
        HOSTILE,
    )
    assert drawn["images"] == 0
    assert drawn["links"] == ["/debts"]
    assert drawn["text"].count(HOSTILE) >= 8
    assert drawn["money"].replace("\xa0", " ") == "1.250.000 ₫"
    app.page.wait_for_timeout(200)
    assert alerts == []
