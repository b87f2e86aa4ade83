"""What every page's forms and buttons share: service errors shown next to their field, a form's POST through a
service, a button's POST through a service, and the page-route helper."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from zeus.errors import ZeusError
from zeus.money import DEFAULT_CURRENCY, InvalidAmount, parse_money


def add_service_error(form: forms.Form, exc: ZeusError, *, fields_map: dict | None = None) -> None:
    """Shows a service error on the form: on the field it names when the form has it, else on the form."""
    placed = False
    for name, texts in (exc.fields or {}).items():
        target = (fields_map or {}).get(name, name)
        if target in form.fields:
            for message in texts if isinstance(texts, list) else [texts]:
                form.add_error(target, str(message))
            placed = True
    if not placed:
        form.add_error(None, exc.message)


def query_int(value) -> int | None:
    """A row's id from a page's query string (`?edit=3`, `?delete=3`); anything else names no row."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def form_saved(request, form: forms.Form, save, *, done, to: str, on_error=add_service_error):
    """A page's form posted: when it is valid, `save()` calls the service; done, the `done` message and a redirect
    to `to`; refused, `on_error(form, exc)` puts the refusal on the form. None: draw the page again with the form
    (its errors, status 400)."""
    if not form.is_valid():
        return None
    try:
        save()
    except ZeusError as exc:
        on_error(form, exc)
        return None
    messages.success(request, done)
    return HttpResponseRedirect(to)


def service_action(service, *, done, to: str, refused=None):
    """A page's button: a POST that calls one service with the URL's ids (`/budgets/3/delete` →
    `budget_delete(user=…, budget_id=3)`) and goes back to `to` with `done` as its message, or with the refusal's:
    `refused(exc)` when given, else the error's own message."""

    @login_required
    @require_POST
    def view(request, **ids):
        try:
            service(user=request.user, **ids)
        except ZeusError as exc:
            messages.error(request, refused(exc) if refused else exc.message)
        else:
            messages.success(request, done)
        return HttpResponseRedirect(to)

    return view


def page_paths(route: str, view, name: str) -> list:
    """A page that answers at `route` and at `route/` alike (the pages' routes are documented in docs/pages.md):
    no redirect, so a bookmark, a typed URL and a link all get the page in one response."""
    paths = [path(route, view, name=name)]
    if route and not route.endswith("/"):
        paths.append(path(route + "/", view))
    return paths


class AmountField(forms.CharField):
    """An amount as people type it (`150k`, `2tr`, `1.250.000`, `$12.50`), checked with the one parser the
    services use and kept as text for them; the message is in the person's language."""

    def __init__(self, *args, allow_zero: bool = False, **kwargs):
        kwargs.setdefault("max_length", 64)
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}))
        super().__init__(*args, **kwargs)
        self.allow_zero = allow_zero
        self.currency = DEFAULT_CURRENCY

    def clean(self, value):
        value = super().clean(value)
        if value in self.empty_values:
            return value
        try:
            parse_money(value, self.currency, allow_zero=self.allow_zero)
        except InvalidAmount:
            raise forms.ValidationError(
                _("Enter an amount in %(currency)s, like 150k, 2tr or 1,250,000.") % {"currency": self.currency},
                code="invalid_amount",
            ) from None
        return value


def set_currency(form: forms.Form, currency: str) -> None:
    """Tells a form's amount fields which currency their amounts are in."""
    for field in form.fields.values():
        if isinstance(field, AmountField):
            field.currency = currency
