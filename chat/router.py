"""The workflow router (docs/contract/websocket.md): regular expressions first, the router model only for the rest.

Texts are matched lower-cased and with Vietnamese diacritics folded away (đ → d), so one pattern serves
"xóa giao dịch" and "xoa giao dich". A terse reply ("cash", "yes", "có", "the second one", "150k", "Use my
asset #12 for that") carries no intent of its own: it is read with the user's previous text, then with the
assistant's question. See docs/chat-tools.md for the workflows and their tools.
"""

import json
import re
import unicodedata
from dataclasses import dataclass

from assets.banktexts.parsers import looks_like_bank_text
from chat.tools import CATALOG, WORKFLOW_TOOLS, WORKFLOWS
from chat.ui_events import event_of
from zeus.text import braced, parse_json

# The workflows and each one's tools come from the catalog: a tool declares the workflows that offer it.
__all__ = ["WORKFLOWS", "WORKFLOW_TOOLS", "Route", "route_by_patterns", "route_event", "route_from_model_reply"]


@dataclass(frozen=True)
class Route:
    workflow: str
    tools: tuple[str, ...]
    decided_by: str  # "pattern" | "model" | "default"


def _route(workflow: str, decided_by: str) -> Route:
    return Route(workflow=workflow, tools=WORKFLOW_TOOLS[workflow], decided_by=decided_by)


# What a turn reports before (or without) routing: the coach, decided by nothing.
DEFAULT_ROUTE = _route("coach", "default")


def fold(text: str) -> str:
    """Lower case, diacritics removed, đ → d, whitespace collapsed."""
    text = unicodedata.normalize("NFD", text.lower().replace("đ", "d"))
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
    return " ".join(text.split())


def _rx(*alternatives: str) -> re.Pattern:
    return re.compile("|".join(f"(?:{a})" for a in alternatives))


# Amounts as people type them: 150k, 1.5m, 2tr, 1tr2, 2 trieu, 3 ty, 150.000, 150,000d, $12.50, 15 dollars.
_AMOUNT = re.compile(
    r"\$\s?\d+(?:[.,]\d+)?"
    r"|(?<![\w#])\d+(?:[.,]\d+)?\s?(?:k|tr\d*|trieu|m|mil|million|millions|ty|ti|bn|billion|nghin|ngan|usd|vnd|dong"
    r"|dollars?|d|\$)(?![a-z])"
    r"|(?<![\w#.,])\d{1,3}(?:[.,]\d{3})+(?![\d])"
    r"|(?<![\w#.,-])\d{4,}(?![\d-])"
)
_ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")

_DELETE = _rx(r"\b(delete|remove|erase|undo|get rid of)\b", r"\bcancel\b", r"\b(xoa|huy)\b")
_UPDATE = _rx(
    r"\b(update|change|edit|modify|correct|fix|adjust|rename|recategori[sz]e|move|link)\b",
    r"\bset\b(?! up)",
)
# Folding merges "sửa" (fix) with "sữa" (milk) and "đổi" (change) with "đói" (hungry): a text typed with
# diacritics is matched with them; only a text typed without any falls back to the folded words.
_UPDATE_VI = re.compile(r"\b(sửa|đổi|cập nhật|chỉnh|điều chỉnh)\b")
_UPDATE_VI_FOLDED = re.compile(r"\b(sua|doi|cap nhat|chinh|dieu chinh)\b")
_CORRECTION = _rx(r"\bwas\b.*\bnot\b", r"\bactually\b", r"\bshould be\b", r"\bnot \d")
_NOW_IS = _rx(r"\bis now\b", r"\bnow is\b", r"\bdropped to\b", r"\bwent up to\b", r"\bbay gio (la|con)\b")
_CREATE = _rx(
    r"\b(add|create|new|record|log|track|set up|open|enter)\b",
    r"\b(them|tao|ghi|ghi lai|ghi chep|nhap)\b",
)
_ASSET = _rx(
    r"\bassets?\b",
    r"\b(e-?)?wallets?\b",
    r"\b(savings|bank|checking) accounts?\b",
    r"\baccounts?\b",
    r"\b(momo|zalopay|motorbike|gold)\b",
    r"\bcar\b(?! (in|wash|park))",
    r"\b(apartment|property|vehicle)\b",
    r"\btai san\b",
    r"\bvi\b",
    r"\btai khoan\b",
    r"\bxe may\b",
)
_BALANCE = _rx(r"\b(balance|worth|value)\b", r"\bso du\b", r"\btri gia\b")
_TRANSACTION = _rx(
    r"\b(transactions?|expenses?|charges?|payments?|entry|entries|purchases?|spends?)\b",
    r"\b(giao dich|khoan chi|khoan thu)\b",
)
_COACH = _rx(
    r"\b(goals?|budgets?|ngan sach|muc tieu)\b",
    r"\b(save|saving for|retire|retirement|nghi huu|tiet kiem)\b",
    r"\b(plan|planning|ke hoach|afford|advice|tips?|suggestions?|goi y|tu van|on track|overspending)\b",
    r"\b(emergency fund|invest|investing|debt|wedding|financial|tai chinh|quan ly tien)\b",
    r"\b(want to|going to|plan to|muon) (buy|mua)\b",
    r"\bbuy(ing)? an? (house|home|car|apartment|flat)\b",
    r"\bmua (nha|xe|can ho)\b",
    r"\b(progress|what can you do|help me)\b",
)
_GREETING = re.compile(r"^(hi|hello|hey|xin chao|chao|thanks|thank you|cam on|good (morning|evening))\b")
_INSPECT = _rx(
    r"\b(show|list|view|display|chart|breakdown|summary|summari[sz]e|total|history|recent|biggest)\b",
    r"\bhow much (did|have|do|money)\b",
    r"\bwhat did i\b",
    r"\bdid i (pay|buy|spend)\b",
    r"\bwhat('s| is| are) my\b",
    r"\bwhich (transactions|accounts|assets)\b",
    r"\bspending (by|on|this|last|in)\b",
    r"\b(xem|danh sach|liet ke|bao nhieu|tong|o dau|gan day)\b",
    r"\bchi tieu\b",
)
# Recurring money: subscriptions, bills, what is due. A question about them is read-only (inspect) unless it
# carries an amount or another intent ("add my Netflix subscription 260k" is a create).
_RECURRING = _rx(
    r"\b(subscriptions?|recurring|standing orders?|direct debits?|bills?)\b",
    r"\b(what'?s|what is|what are|anything|is anything|whats) (coming )?due\b",
    r"\bdue (this|next) (week|month)\b|\bdue (soon|today|tomorrow)\b|\bcoming up\b",
    r"\b(pay|paying|charged|charges?) (for )?(every|each) (week|month|year)\b",
    r"\b(monthly|yearly|annual) (payments?|charges?|fees?|costs?)\b",
    r"\b(goi )?dang ky\b|\b(hoa don|dinh ky|den han|sap den han|phai tra|tra hang thang)\b",
)
# Transfers between the user's own accounts: marking one is a change to rows (update); asking about them reads.
_TRANSFER_MARK = _rx(
    r"\bmark\b.*\b(as )?(an? )?(internal )?transfers?\b",
    r"\b(is|was|are|were) (an? )?(internal )?transfers?\b",
    r"\bdanh dau\b.*\bchuyen (khoan|tien)\b",
    r"\b(la|chi la) chuyen (khoan|tien) (noi bo|giua)\b",
)
_TRANSFERS = _rx(
    r"\b(my )?transfers\b",
    r"\btransfers? between\b",
    r"\bchuyen (khoan|tien) (noi bo|giua)\b",
)
_SPENT = _rx(r"\b(spent|paid|bought|purchased|received|earned|got paid)\b")
# Looking ahead and what is owed (CONTRACT §9.3): the forecast, debts and IOUs, and the plan's figure for today.
# Folded Vietnamese "no" is also the English "no" and "nó" (it): only its debt phrases count.
_AHEAD = _rx(
    r"\b(forecast|cash ?flow|run (out|short)|short of (money|cash)|before (payday|pay ?day|my salary))\b",
    r"\b(thieu tien|het tien|can tien|du bao|dong tien|ngay (nhan )?luong|truoc (ngay )?luong)\b",
    r"\b(debts?|iou|ious|owes?|owed|owing|lent|lend|loan|borrow(ed)?|instal?lments?)\b",
    r"\b(cho vay|vay tien|di vay|khoan vay|tra gop|khoan no|so no|tra no|con no|doi no)\b",
    r"\b(ai|dang|van) no (toi|minh|ai)\b|\bno (toi|minh|anh|chi|em|ban) \d",
    r"\bvietqr\b|\bma qr\b",
    r"\bsafe to spend\b|\b(can|may) i spend today\b|\bduoc chi bao nhieu\b|\bhom nay .*\bchi (duoc )?bao nhieu\b",
)
_BUDGET = re.compile(r"\b(budgets?|ngan sach)\b")
# A budget said as a spending limit ("hạn mức chi tiêu", "giới hạn chi tiêu", "limit my dining spending"); a
# card's credit limit ("hạn mức thẻ", "hạn mức tín dụng") is none.
_SPENDING_LIMIT = _rx(
    r"\b(han muc|gioi han)\b(?! (the|tin dung|vay|rut))",
    r"\bspending (limit|cap)s?\b",
    r"\b(limit|cap) (my |the |our )?([a-z]+ ){0,2}spending\b",
)

_YES_NO = re.compile(
    r"^(yes|yeah|yep|yup|sure|ok|okay|oke|do it|go ahead|please do|confirm(ed)?|no|nope|cancel|right|correct|"
    r"exactly|co|u|uh|um|vang|da|dung roi|dung|khong|ko|duoc|dong y)"
    r"(,? ?(please|do it|thanks|go ahead|luon|nhe|a))*[.!]*$"
)
_SELECTION = re.compile(
    r"^(the )?(first|second|third|fourth|last|other|1st|2nd|3rd)( one)?\b|^(both|all of them|that one|this one)\b"
    r"|^the one\b|^(number|option|#) ?\d+$|^\d$|^(cai|so) (dau|thu|cuoi)"
)
_USE_ASSET = re.compile(r"^use my asset #\d+ for that$")
_BARE_CONFIRMATION = re.compile(r"^i (approved|rejected|answered) the confirmation\b")
_FILLER = re.compile(r"\b(about|around|roughly|like|khoang|tam|chung)\b")

_ASSISTANT_HINTS = (
    (
        re.compile(r"\bwhich (asset|account|wallet|card)\b|\bpaid (with|from)\b|\b(tai san|tai khoan|vi) nao\b"),
        "create",
    ),
    (re.compile(r"\b(goal|muc tieu)\b"), "coach"),
)


def _amounts(folded: str) -> int:
    return len(_AMOUNT.findall(_ISO_DATE.sub(" ", folded)))


def _vietnamese_update(text: str, folded: str) -> bool:
    lowered = unicodedata.normalize("NFC", text.lower())
    if lowered.isascii():
        return bool(_UPDATE_VI_FOLDED.search(folded))
    return bool(_UPDATE_VI.search(lowered))


def route_event(event: str, facts: dict) -> Route | None:
    """The route of a UI event that names its workflow outright, read from the event itself; None when it
    does not (a picked prompt, a picked asset: their text is routed like the user's own)."""
    workflow = _event_workflow(event, facts)
    return _route(workflow, "pattern") if workflow else None


def _event_workflow(event: str, facts: dict) -> str | None:
    if event == "quick_create_selected":
        return "asset_create"
    if event == "draft_decision":
        return "bank_text"
    if event == "form_submit":
        intent = facts.get("intent") or ""
        if intent == "create_goal":
            return "coach"
        # A quick form's data carries no intent words of its own; its intent name ("create_expense") does.
        return _classify(intent.replace("_", " "))
    if event == "confirm":
        tool = CATALOG.get(facts.get("tool") or "")
        return tool.workflows[0] if tool is not None and tool.workflows else None
    return None


def _classify(text: str) -> str | None:
    """One text on its own: a workflow, or None when nothing or conflicting intents match."""
    t = fold(text)
    written = event_of(t)
    if written is not None:
        workflow = _event_workflow(*written)
        if workflow or written[0] == "form_submit":
            return workflow
    amounts = _amounts(t)
    delete = bool(_DELETE.search(t))
    update = bool(_UPDATE.search(t)) or _vietnamese_update(text, t)
    create = bool(_CREATE.search(t))
    asset, txn = bool(_ASSET.search(t)), bool(_TRANSACTION.search(t))
    coach = bool(_COACH.search(t))
    balance = bool(_BALANCE.search(t))
    correction = bool(_CORRECTION.search(t)) or (balance and bool(_NOW_IS.search(t)))

    if _TRANSFER_MARK.search(t) and not delete:
        return "update"
    ahead = _AHEAD.search(t) or _SPENDING_LIMIT.search(t) or (delete and _BUDGET.search(t))
    if not asset and not ((delete or update) and txn) and ahead:
        return "coach"  # the plan, the forecast, debts and budgets: the coach's tools (chat/tools/ahead.py)
    if delete:
        if update or (create and asset and not txn) or (coach and not (asset or txn)):
            return None
        return "asset_delete" if asset and not txn else "delete"
    if update or correction:
        if txn:
            return "update"
        if asset or balance:
            return "asset_update"
        if coach:
            return "coach"
        return "update"
    if create and asset and not txn:
        return "asset_create"
    if coach or _GREETING.search(t):
        return "coach"
    if (_RECURRING.search(t) or _TRANSFERS.search(t)) and not amounts and not create:
        return "inspect"
    if _INSPECT.search(t):
        return None if amounts and create else "inspect"
    if amounts >= 2:
        return "bundle_create"
    if amounts == 1 or _SPENT.search(t) or (create and txn):
        return "create"
    return None


def _is_terse(text: str, direct: str | None) -> bool:
    t = fold(text).strip(" .!?")
    if _YES_NO.match(t) or _SELECTION.search(t) or _USE_ASSET.match(t) or _BARE_CONFIRMATION.match(t):
        return True
    if _amounts(t) and not _FILLER.sub("", _AMOUNT.sub("", t)).strip(" ,.!?"):
        return True
    return direct is None and len(t.split()) <= 3


def route_by_patterns(user_texts: list[str], prior_assistant_text: str | None = None) -> Route | None:
    texts = [t for t in user_texts if isinstance(t, str) and t.strip()]
    if not texts:
        return None
    newest = texts[-1]
    if looks_like_bank_text(newest):
        # A pasted bank SMS or app notification: no intent words, and never worth a router model call.
        return _route("bank_text", "pattern")
    direct = _classify(newest)
    if not _is_terse(newest, direct):
        return _route(direct, "pattern") if direct else None
    # A terse reply continues the nearest earlier text that says what the user wants.
    for previous in reversed(texts[:-1]):
        earlier = _classify(previous)
        if earlier:
            return _route(earlier, "pattern")
        if not _is_terse(previous, earlier):
            break
    if prior_assistant_text:
        asked = fold(prior_assistant_text)
        for pattern, workflow in _ASSISTANT_HINTS:
            if pattern.search(asked):
                return _route(workflow, "pattern")
    if direct is None and _USE_ASSET.match(fold(newest).strip(" .!?")):
        direct = "create"  # only the asset selector of create_manual_transaction sends it
    return _route(direct, "pattern") if direct else None


ROUTER_SYSTEM_PROMPT = """\
You classify the newest message of a user of a personal-finance assistant into exactly one workflow.
The user may write in English or Vietnamese, with or without diacritics, and may use amount shorthand
(150k, 2tr, 1.5m). A short reply such as "yes", "cash" or "the second one" continues the earlier request.

Workflows:
- coach: goals, budgets (set, change, delete), saving, planning, affordability, advice, suggestions, the
  month's plan, the cash-flow forecast, debts and IOUs (who owes whom, loans, repayments, a VietQR),
  greetings and small talk.
- inspect: questions about their transactions, spending totals, accounts, assets or balances, and their
  subscriptions, bills and what is due.
- create: record one expense or income.
- bundle_create: record several expenses or incomes given in one message.
- update: change an existing transaction (amount, date, category, description, asset).
- delete: delete a transaction.
- asset_create: add an asset (cash, bank account, e-wallet, savings, property, vehicle...).
- asset_update: change an asset's name, kind or balance.
- asset_delete: delete an asset.
- bank_text: a pasted bank SMS or app notification to record, or a decision on such a draft.

Reply with JSON only: {"workflow": "<one of the names above>"}"""

_PROMPT_TEXTS = 3
_PROMPT_CHARS = 500


def router_user_prompt(user_texts: list[str], prior_assistant_text: str | None) -> str:
    texts = [t.strip()[:_PROMPT_CHARS] for t in user_texts if isinstance(t, str) and t.strip()][-_PROMPT_TEXTS:]
    lines = []
    if prior_assistant_text and prior_assistant_text.strip():
        lines.append(
            f"The assistant last said: {json.dumps(prior_assistant_text.strip()[:_PROMPT_CHARS], ensure_ascii=False)}"
        )
    if len(texts) > 1:
        lines.append("Earlier user messages, oldest first:")
        lines += [f"- {json.dumps(t, ensure_ascii=False)}" for t in texts[:-1]]
    lines.append(f"Newest user message: {json.dumps(texts[-1] if texts else '', ensure_ascii=False)}")
    lines.append('Reply with JSON only: {"workflow": "..."}')
    return "\n".join(lines)


_WORKFLOW_WORD = re.compile(r"\b(" + "|".join(w.replace("_", "[_ -]") for w in WORKFLOWS) + r")\b")


def route_from_model_reply(reply_text: str) -> Route:
    text = (reply_text or "").strip().lower()
    found = braced(text)
    if found:
        try:
            value = parse_json(found).get("workflow")
        except (ValueError, AttributeError):
            value = None
        if isinstance(value, str):
            value = re.sub(r"[ -]", "_", value.strip())
            if value in WORKFLOWS:
                return _route(value, "model")
    found = {re.sub(r"[ -]", "_", m) for m in _WORKFLOW_WORD.findall(text)}
    if len(found) == 1:
        return _route(found.pop(), "model")
    return _route("coach", "default")
