"""Bank-text drafts: read (parsers, then the model), matched to the user's accounts and ledger, then
confirmed into one transaction or discarded. Nothing reaches the ledger before confirmation."""

import datetime as dt

from django.db import transaction as db_transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from assets import categories
from assets.banktexts.model import read_with_model
from assets.banktexts.parsers import ParsedText, never_a_transaction, parse
from assets.banktexts.vietqr import vietqr_parsed
from assets.captures.closing import capture_close_if_all_discarded
from assets.models import Asset, BankTextDraft, LinkedAccount, Source, Transaction
from assets.rules.services import categorize, rules_for
from assets.services import transaction_create
from assets.vietqr.reading import looks_like_vietqr
from zeus.errors import Conflict, NotFound, ValidationFailed, ZeusError
from zeus.money import MAX_AMOUNT
from zeus.timeutil import user_tz
from zeus.validation import clean_text, record_id

MAX_TEXT = 1_000
# A feed or statement row is the same payment as a draft when it is this close in days (statement rows
# carry a date, not a time; a text can arrive the evening before the bank books it).
DUPLICATE_DAYS = 1
# The ledger's widest balance; a bank's clock and the user's zone may put a text's moment a little ahead.
MAX_BALANCE = MAX_AMOUNT
FUTURE_SLACK = dt.timedelta(days=1)


class Unreadable(ZeusError):
    status = 422
    code = "BANK_TEXT_UNREADABLE"


def _check_text(text) -> str:
    if not isinstance(text, str):
        raise ValidationFailed(_("text must be text."), fields={"text": [_("Must be text.")]})
    if "\x00" in text:
        raise ValidationFailed(_("text has characters that are not allowed."), fields={"text": [_("Not valid text.")]})
    text = text.strip()
    if not text:
        raise ValidationFailed(_("text is required."), fields={"text": [_("This field is required.")]})
    if len(text) > MAX_TEXT:
        raise ValidationFailed(
            _("text is at most %(MAX_TEXT)s characters.") % {"MAX_TEXT": format(MAX_TEXT, ",")},
            fields={"text": [_("At most %(MAX_TEXT)s characters.") % {"MAX_TEXT": MAX_TEXT}]},
        )
    clean_text(text, "text", max_length=MAX_TEXT, required=True)  # refuses lone surrogates
    return text


MAX_SENDER = 50


def _check_sender(sender) -> str:
    return clean_text(sender, "sender", max_length=MAX_SENDER, required=False)


def bank_text_read(*, user, text: str, now: dt.datetime | None = None, sender: str = "") -> tuple[ParsedText, str]:
    """(what the text says, "rule" or "model"); Unreadable when neither a parser nor the model knows it. `sender`
    is the SMS sender as the phone shows it, when known."""
    text = _check_text(text)
    sender = _check_sender(sender)
    now = now or timezone.now()
    if looks_like_vietqr(text):
        return vietqr_parsed(text, now=now), BankTextDraft.ParsedBy.VIETQR
    if never_a_transaction(text):  # never sent to the model either: it might read a promotion's figure as money
        raise Unreadable(_("This text is not a bank notification Zeus can read; add the transaction by hand."))
    tz = user_tz(user)
    parsed = parse(text, now=now, tz=tz, sender=sender)
    if parsed is not None:
        return _within_bounds(parsed, now), BankTextDraft.ParsedBy.RULE
    parsed = read_with_model(text, now=now, tz=tz)
    if parsed is not None:
        return _within_bounds(parsed, now), BankTextDraft.ParsedBy.MODEL
    raise Unreadable(_("This text is not a bank notification Zeus can read; add the transaction by hand."))


def _within_bounds(parsed: ParsedText, now: dt.datetime) -> ParsedText:
    """What any reader (a rule or the model) drew from a text, checked against what a draft can hold and what a
    bank can have reported: a balance the ledger's column holds, a moment no later than tomorrow."""
    if parsed.balance_after is not None and abs(parsed.balance_after) > MAX_BALANCE:
        raise ValidationFailed(
            _("The balance in this text is larger than any account holds."),
            code="AMOUNT_OUT_OF_RANGE",
            fields={"text": [_("The balance is too large.")]},
        )
    if parsed.occurred_at is not None and parsed.occurred_at > now + FUTURE_SLACK:
        raise ValidationFailed(
            _("This text is dated in the future; a bank reports what has happened."),
            code="DATE_OUT_OF_RANGE",
            fields={"text": [_("Dated in the future.")]},
        )
    return parsed


def bank_text_draft_create(*, user, text: str, now: dt.datetime | None = None, sender: str = "") -> BankTextDraft:
    parsed, parsed_by = bank_text_read(user=user, text=text, now=now, sender=sender)
    return bank_text_draft_from_parsed(user=user, parsed=parsed, parsed_by=parsed_by, text=_check_text(text))


def bank_text_draft_from_parsed(
    *, user, parsed: ParsedText, parsed_by: str, text: str = "", capture=None
) -> BankTextDraft:
    """A draft of what a reader drew (a parser, the model from a text, or the model from a capture's file),
    matched to the user's accounts and ledger like every draft."""
    # A VietQR names whom the user pays, not the account they pay from: they choose that on confirming.
    account = _matching_account(user, parsed) if parsed_by != BankTextDraft.ParsedBy.VIETQR else None
    asset = Asset.objects.filter(user=user, linked_account=account).order_by("id").first() if account else None
    category = categorize(
        rules=rules_for(user=user), text=parsed.description, amount=parsed.amount, direction=parsed.direction
    ).category
    return BankTextDraft.objects.create(
        user=user,
        text=text,
        capture=capture,
        parsed_by=parsed_by,
        bank=parsed.bank,
        amount=parsed.amount,
        currency=parsed.currency,
        direction=parsed.direction,
        occurred_at=parsed.occurred_at,
        description=parsed.description,
        category=category,
        account_mask=parsed.account_mask,
        balance_after=parsed.balance_after,
        asset=asset,
        linked_account=account,
        duplicate_of=_duplicate(user, parsed, asset),
    )


def _matching_account(user, parsed: ParsedText) -> LinkedAccount | None:
    """The user's linked account whose masked number ends as the text's does (and at the same bank when
    the text names one). None when the text names no account or several accounts fit."""
    tail = parsed.account_mask[-3:] if parsed.account_mask else ""
    if not tail or not tail.isdigit():
        return None
    candidates = [a for a in LinkedAccount.objects.filter(user=user) if a.masked_number.endswith(tail)]
    if parsed.bank and len(candidates) > 1:
        same_bank = [a for a in candidates if parsed.bank.casefold() in a.institution.casefold()]
        candidates = same_bank or candidates
    return candidates[0] if len(candidates) == 1 else None


def _duplicate(user, parsed: ParsedText, asset: Asset | None) -> Transaction | None:
    """A feed or statement row already in the ledger for this payment: same amount and direction, on the
    same asset when the draft has one, within a day."""
    day = parsed.occurred_at.astimezone(user_tz(user)).date()
    qs = Transaction.objects.filter(
        user=user,
        source=Source.SYNCED,
        amount=parsed.amount,
        currency=parsed.currency,
        direction=parsed.direction,
        occurred_on__gte=day - dt.timedelta(days=DUPLICATE_DAYS),
        occurred_on__lte=day + dt.timedelta(days=DUPLICATE_DAYS),
    )
    if asset is not None:
        qs = qs.filter(asset=asset)
    return qs.order_by("-occurred_on", "-id").first()


def _open_draft(user, draft_id) -> BankTextDraft:
    draft = BankTextDraft.objects.select_for_update().filter(user=user, id=record_id(draft_id)).first()
    if draft is None:
        raise NotFound(_("No such draft."))
    if draft.status != BankTextDraft.Status.DRAFT:
        raise Conflict(_("This draft was already %(status)s.") % {"status": draft.status}, code="DRAFT_CLOSED")
    return draft


_CORRECTABLE = {"amount", "direction", "occurred_on", "description", "category", "asset"}


def bank_text_draft_confirm(*, user, draft_id, values: dict | None = None, save_anyway: bool = False) -> Transaction:
    """One transaction from the draft, with the user's corrections (`values`: amount, direction, occurred_on,
    description, category, asset). A draft the ledger already holds is refused unless `save_anyway`."""
    values = dict(values or {})
    unknown = set(values) - _CORRECTABLE
    if unknown:
        raise ValidationFailed(_("Unknown fields: %(value)s.") % {"value": ", ".join(sorted(unknown))})
    with db_transaction.atomic():
        draft = _open_draft(user, draft_id)
        if draft.duplicate_of_id and not save_anyway:
            raise Conflict(
                _(
                    "The ledger already holds this payment (from your bank feed or a statement); discard the draft, "
                    "or confirm with save_anyway."
                ),
                code="DRAFT_DUPLICATE",
                fields={"duplicate_of": [str(draft.duplicate_of_id)]},
            )
        direction = values.get("direction", draft.direction)
        category = values.get("category") or draft.category
        if "direction" in values and "category" not in values and not categories.fits(category, direction):
            category = None
        txn = transaction_create(
            user=user,
            amount=values.get("amount", draft.amount),
            description=values.get("description", draft.description),
            direction=direction,
            category=category,
            occurred_on=values.get("occurred_on") or draft.occurred_at.astimezone(user_tz(user)).date(),
            currency=draft.currency,
            asset_id=values.get("asset", draft.asset_id),
        )
        draft.status = BankTextDraft.Status.CONFIRMED
        draft.transaction = txn
        draft.save(update_fields=["status", "transaction"])
    return txn


def bank_text_draft_discard(*, user, draft_id) -> BankTextDraft:
    """The last open draft of a photo or PDF capture discarded, with none confirmed, takes the file along."""
    with db_transaction.atomic():
        draft = _open_draft(user, draft_id)
        draft.status = BankTextDraft.Status.DISCARDED
        draft.save(update_fields=["status"])
        if draft.capture_id is not None:
            capture_close_if_all_discarded(capture_id=draft.capture_id)
    return draft


def bank_text_draft_get(*, user, draft_id) -> BankTextDraft:
    draft = BankTextDraft.objects.filter(user=user, id=record_id(draft_id)).first()
    if draft is None:
        raise NotFound(_("No such draft."))
    return draft
