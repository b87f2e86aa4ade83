import pytest

from chat.router import (
    ROUTER_SYSTEM_PROMPT,
    WORKFLOW_TOOLS,
    WORKFLOWS,
    Route,
    route_by_patterns,
    route_from_model_reply,
    router_user_prompt,
)
from chat.tools import TOOL_NAMES


def workflow(*texts, assistant=None):
    route = route_by_patterns(list(texts), assistant)
    return route.workflow if route else None


def test_every_workflow_exposes_real_catalog_tools():
    assert set(WORKFLOW_TOOLS) == set(WORKFLOWS)
    for tools in WORKFLOW_TOOLS.values():
        assert set(tools) <= set(TOOL_NAMES)
    assert "create_goal" in WORKFLOW_TOOLS["coach"]
    assert not {"create_manual_transaction", "delete_manual_transaction"} & set(WORKFLOW_TOOLS["inspect"])
    assert {"create_manual_transaction", "list_assets"} <= set(WORKFLOW_TOOLS["create"])
    assert WORKFLOW_TOOLS["delete"] == ("list_transactions", "delete_manual_transaction", "show_smart_actions")


def test_a_route_carries_its_tools_and_who_decided():
    route = route_by_patterns(["KFC 150k"])
    assert route == Route("create", WORKFLOW_TOOLS["create"], "pattern")


def test_diacritics_are_optional_but_respected_where_they_disambiguate():
    assert workflow("xóa giao dịch cà phê") == workflow("xoa giao dich ca phe") == "delete"
    assert workflow("trà sữa 40k") == "create"  # sữa is milk, not sửa (fix)
    assert workflow("sửa giao dịch trà sữa thành 45k") == "update"


def test_terse_replies_follow_the_earlier_request():
    assert workflow("KFC 150k", "cash") == "create"
    assert workflow("delete the KFC transaction", "yes") == "delete"
    assert workflow("Remove the motorbike asset", "có") == "asset_delete"
    assert workflow("update my cash wallet balance", "2tr") == "asset_update"
    assert workflow("KFC 150k", "cash", "yes") == "create"
    assert workflow("lunch 50k and coffee 30k", "Use my asset #3 for that") == "bundle_create"


def test_a_full_request_after_another_is_read_on_its_own():
    assert workflow("show my goals", "KFC 150k") == "create"
    assert workflow("KFC 150k", "delete the KFC transaction") == "delete"


def test_a_terse_reply_without_context_uses_the_assistants_question_or_defers():
    assert workflow("momo", assistant="Which wallet did you pay from?") == "create"
    assert workflow("cash") is None
    assert workflow("yes") is None
    assert workflow("150k") == "create"
    assert workflow("Use my asset #12 for that") == "create"


def test_nothing_or_conflicting_intents_defer_to_the_model():
    assert route_by_patterns([]) is None
    assert route_by_patterns(["   "]) is None
    assert workflow("delete the KFC transaction and change the grab one to 50k") is None
    assert workflow("hmm interesting") is None


def test_ui_event_texts_route_deterministically():
    assert workflow('Create a financial goal using this form data JSON exactly: {"name": "Nhà"}') == "coach"
    assert workflow('Create a manual asset named "Cash" (kind: cash).') == "asset_create"
    assert workflow('I approved the delete_manual_transaction confirmation. Result JSON: {"deleted": true}') == "delete"
    assert workflow("I rejected the delete_manual_asset confirmation, so nothing was deleted.") == "asset_delete"
    form = 'Submit the {} form with this form data JSON: {{"amount": "150k", "note": "lunch 50k"}}'
    assert workflow(form.format("create_expense")) == "create"
    assert workflow(form.format("update_asset_balance")) == "asset_update"
    assert workflow(form.format("new_asset")) == "asset_create"
    assert workflow(form.format("misc")) is None
    bare = 'I answered the confirmation (approve), but it did not go through. Result JSON: {"error": {}}'
    assert workflow("Remove the motorbike asset", bare) == "asset_delete"


def test_model_replies_are_parsed_or_fall_back_to_coach():
    assert route_from_model_reply('{"workflow": "bundle_create"}') == Route(
        "bundle_create", WORKFLOW_TOOLS["bundle_create"], "model"
    )
    assert route_from_model_reply('Sure! ```json\n{"workflow": "asset-delete"}\n```').workflow == "asset_delete"
    assert route_from_model_reply("inspect").workflow == "inspect"
    assert route_from_model_reply("asset_create").workflow == "asset_create"
    assert route_from_model_reply("") == Route("coach", WORKFLOW_TOOLS["coach"], "default")
    assert route_from_model_reply('{"workflow": "hack"}').decided_by == "default"
    assert route_from_model_reply("create or delete").decided_by == "default"


def test_a_reply_of_braces_is_read_in_one_pass():
    # `\{.*?\}` scanned to the end from each of these braces: seconds for this run before.
    assert route_from_model_reply("{" * 20_000) == Route("coach", WORKFLOW_TOOLS["coach"], "default")
    assert route_from_model_reply("{" * 20_000 + " inspect").workflow == "inspect"
    assert route_from_model_reply("{" * 20_000 + '{"workflow": "inspect"}').workflow == "inspect"
    assert route_from_model_reply('{"workflow": ' + "[" * 100_000 + "}").decided_by == "default"


def test_router_prompts_are_stable_and_carry_the_context():
    assert all(w in ROUTER_SYSTEM_PROMPT for w in WORKFLOWS)
    prompt = router_user_prompt(["xóa ví", "cái thứ hai"], "Bạn có hai ví. Ví nào?")
    assert prompt == router_user_prompt(["xóa ví", "cái thứ hai"], "Bạn có hai ví. Ví nào?")
    assert '"cái thứ hai"' in prompt and '"xóa ví"' in prompt and "Ví nào?" in prompt
    assert len(router_user_prompt(["x" * 5000], None)) < 700


@pytest.mark.parametrize(
    "text",
    [
        "what subscriptions am I paying for",
        "What subscriptions am I paying for?",
        "what's due this week",
        "What is due next week?",
        "show my bills",
        "any recurring payments?",
        "what do I pay every month",
        "tôi đang trả những gói đăng ký nào",
        "tuần này có hóa đơn nào đến hạn không",
        "khoản nào sắp đến hạn",
        "cac khoan dinh ky cua toi",
    ],
)
def test_recurring_questions_route_to_inspect_without_the_model(text):
    route = route_by_patterns([text])
    assert route is not None and (route.workflow, route.decided_by) == ("inspect", "pattern")
    assert "list_recurring" in route.tools


@pytest.mark.parametrize(
    ("text", "workflow"),
    [
        ("Netflix subscription 260k", "create"),
        ("I paid the internet bill, 300k", "create"),
        ("budget for bills", "coach"),
    ],
)
def test_recurring_words_with_another_intent_keep_it(text, workflow):
    assert route_by_patterns([text]).workflow == workflow


def test_a_ui_event_that_names_its_workflow_is_routed_from_the_event_itself():
    from chat.router import route_event

    assert route_event("quick_create_selected", {"kind": "cash", "name": "x"}).workflow == "asset_create"
    assert route_event("form_submit", {"intent": "create_goal", "values": {}}).workflow == "coach"
    assert route_event("form_submit", {"intent": "create_expense", "values": {}}).workflow == "create"
    assert route_event("confirm", {"tool": "delete_manual_transaction"}).workflow == "delete"
    assert route_event("confirm", {"tool": "delete_manual_asset"}).workflow == "asset_delete"
    assert route_event("confirm", {"tool": "delete_manual_asset"}).decided_by == "pattern"
    # These carry no workflow of their own: their text is routed like the user's.
    assert route_event("confirm", {"tool": None}) is None
    assert route_event("action_selected", {"prompt": "delete my lunch"}) is None
    assert route_event("existing_asset_selected", {"asset_id": 3}) is None
    assert route_event("form_submit", {"intent": "misc", "values": {}}) is None


@pytest.mark.parametrize(
    ("event", "payload", "workflow"),
    [
        ("quick_create_selected", {"kind": "e_wallet", "name": "MoMo"}, "asset_create"),
        ("form_submit", {"intent": "create_expense", "values": {"amount": "45k"}}, "create"),
        ("confirm_result", {"tool": "delete_manual_asset", "decision": "reject", "output": {}}, "asset_delete"),
    ],
)
def test_an_earlier_events_stored_text_routes_a_terse_reply_as_the_event_did(event, payload, workflow):
    from chat.ui_events import ui_event_to_turn

    stored = ui_event_to_turn(event, payload)

    assert route_by_patterns([stored, "yes"]).workflow == workflow


@pytest.mark.parametrize(
    "text",
    [
        "show my transfers",
        "list transfers between my accounts",
        "xem các khoản chuyển khoản nội bộ",
        "xem cac khoan chuyen khoan noi bo",
        "chuyển tiền giữa các tài khoản tháng này",
        "chuyen tien giua cac tai khoan thang nay",
    ],
)
def test_questions_about_transfers_route_to_inspect_with_list_transfers(text):
    route = route_by_patterns([text])
    assert route is not None and (route.workflow, route.decided_by) == ("inspect", "pattern")
    assert "list_transfers" in route.tools


@pytest.mark.parametrize(
    "text",
    [
        "mark the MoMo top-up as a transfer",
        "that 2tr was a transfer, not spending",
        "đánh dấu khoản nạp MoMo là chuyển khoản",
        "danh dau khoan nap MoMo la chuyen khoan",
        "khoản 2 triệu đó chỉ là chuyển tiền giữa hai ví",
        "khoan 2 trieu do chi la chuyen tien giua hai vi",
    ],
)
def test_marking_a_transfer_routes_to_update_with_mark_transfer(text):
    route = route_by_patterns([text])
    assert route is not None and (route.workflow, route.decided_by) == ("update", "pattern")
    assert "mark_transfer" in route.tools
