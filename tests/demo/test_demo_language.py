"""The demo in its reader's language: for a `vi` profile (the default) the accounts, goals, insights and the
past conversation read Vietnamese with Vietnamese figures; `--language en` gives the same demo in English.
The conversation ends on an answer, not on a question."""

import re

import pytest
from django.core.management import call_command
from django.utils import translation

from assets.models import Asset, LinkedAccount
from chat.selectors import message_page, thread_list
from demo.seed import seed_demo
from goals.models import Goal
from plans.models import MonthlyPlan
from suggestions.models import Suggestion

pytestmark = pytest.mark.django_db
ENGLISH = re.compile(r"\b(wallet|Checking|savings|Emergency fund|Buy a house|Since|spent|month|food|on track)\b")
FOREIGN_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?!\d)|\d+\.\d+\s?%")


def _conversation(user):
    return message_page(thread=thread_list(user=user).get(), limit=50).messages


def _texts(messages) -> list[str]:
    return [p["text"] for m in messages if m.role == "assistant" for p in m.parts if p["type"] == "text"]


def test_the_vietnamese_demo_reads_vietnamese_everywhere():
    ctx = seed_demo()
    user = ctx.user
    assert user.profile.language == "vi"
    names = [a.name for a in Asset.objects.filter(user=user)] + [
        a.name for a in LinkedAccount.objects.filter(user=user)
    ]
    names += [g.name for g in Goal.objects.filter(user=user)]
    assert {"Ví tiền mặt", "Ví MoMo", "Tài khoản thanh toán Vietcombank", "Quỹ khẩn cấp", "Mua nhà"} <= set(names)
    assert [n for n in names if ENGLISH.search(n)] == []
    plan = MonthlyPlan.objects.get(user=user)
    assert [x.name for x in plan.fixed_expenses.order_by("position", "id")] == ["Tiền nhà", "Điện nước"]

    messages = _conversation(user)
    said = _texts(messages)
    assert said[0].startswith("Từ ") and "ăn uống" in said[0]
    assert [t for t in said if ENGLISH.search(t) or FOREIGN_NUMBER.search(t)] == []
    cards = [p["spec"] for m in messages for p in m.parts if p["type"] == "spec"]
    assert cards[0]["title"].startswith("Chi tiêu theo danh mục")
    actions = next(c["actions"] for c in cards if c["kind"] == "smart_actions")
    assert actions[0]["label"] == "Ghi một khoản chi"

    with translation.override("vi"):
        worded = [
            s.words for s in Suggestion.objects.filter(user=user, kind__in=["category_spike", "duplicate_charge"])
        ]
    assert worded and all(not FOREIGN_NUMBER.search(w.body) and "Possible" not in w.title for w in worded)


def test_the_conversation_ends_on_an_answer():
    messages = _conversation(seed_demo().user)
    last = messages[-1]
    assert last.role == "assistant"
    assert last.parts[-1]["type"] == "text" and not last.parts[-1]["text"].rstrip().endswith("?")


def test_the_english_demo_reads_english_and_switching_language_reseeds(capsys):
    call_command("seed_demo", "--language", "en")
    user = seed_demo(language="en").user
    assert user.profile.language == "en"
    assert {"Cash wallet", "MoMo wallet", "Emergency fund", "Buy a house"} <= {
        *Asset.objects.filter(user=user).values_list("name", flat=True),
        *Goal.objects.filter(user=user).values_list("name", flat=True),
    }
    assert _texts(_conversation(user))[0].startswith("Since ")

    vi = seed_demo(language="vi").user
    assert vi.profile.language == "vi" and Goal.objects.filter(user=vi, name="Quỹ khẩn cấp").exists()
    assert not Goal.objects.filter(name="Emergency fund").exists()
