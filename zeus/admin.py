"""The admin for support staff: people (with their profile inline), their notifications, API tokens and consents.

Edits go through the services, so the admin obeys the same rules as the API and the chat tools: forms check
those rules in `clean` (pure, nothing written), `save_model` calls the service with the changed fields.
"""

import datetime as dt
from contextlib import contextmanager
from decimal import Decimal

from allauth.mfa.admin import AuthenticatorAdmin
from allauth.mfa.models import Authenticator
from allauth.usersessions.admin import UserSessionAdmin
from allauth.usersessions.models import UserSession
from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.text import capfirst
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from zeus.errors import ZeusError
from zeus.models import DeviceToken, ModelConsent, Notification, Profile, SecondFactor, SignedInSession
from zeus.money import format_amount, quantize
from zeus.services import notification_create, profile_update
from zeus.timeutil import user_today, validate_timezone

User = get_user_model()


@contextmanager
def service_errors(form: forms.Form, field: str | None = None):
    """Turns a service's ZeusError into form errors: on `field` inside a `clean_<field>` method, otherwise on
    the fields the error names (the rest on the form)."""
    try:
        yield
    except ZeusError as exc:
        if field is not None:
            raise forms.ValidationError(exc.fields.get(field) or exc.message) from None
        named = {name: messages for name, messages in exc.fields.items() if name in form.fields}
        raise forms.ValidationError(named or exc.message) from None


def owner_today(user) -> dt.date:
    """The owner's today without a query when the changelist selected `user__profile` with the row."""
    if not hasattr(user, "_zeus_profile"):
        try:
            user._zeus_profile = user.profile
        except Profile.DoesNotExist:
            pass
    return user_today(user)


def money(amount: Decimal | None, currency: str) -> str:
    """An amount as the staff member reads it, in their language: "150.000 ₫" in Vietnamese."""
    return "" if amount is None else format_amount(amount, currency, locale=get_language() or "vi")


def row_currency(obj, path: str) -> str | None:
    """The currency a row's amounts are in: its own field or a related row's ("plan__currency")."""
    for name in path.split("__"):
        obj = getattr(obj, name, None)
    return obj


def money_column(field: str, description, *, currency: str = "currency"):
    """A changelist column showing a money field as its reader writes it in the row's currency ("150.000 ₫",
    not the column's four stored decimals). In a ModelAdmin's body: `amount_display = money_column(...)`."""

    @admin.display(description=description, ordering=field)
    def column(model_admin, obj):
        return money(getattr(obj, field), row_currency(obj, currency))

    return column


class MoneyInitial:
    """A ModelForm mixin: the row's money inputs show its amounts to the currency's exponent ("150000" for VND,
    "12.50" for USD), not the column's four stored decimals. `money_currency`: where the row's currency is."""

    money_currency = "currency"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        currency = row_currency(self.instance, self.money_currency) if self.instance.pk else None
        if not currency:
            return
        for name, field in self.fields.items():
            if isinstance(field, forms.DecimalField) and self.initial.get(name) is not None:
                self.initial[name] = quantize(self.initial[name], currency)


class MoneyShown:
    """A ModelAdmin or inline mixin: the money fields named in `money_fields` read as money in the row's currency
    ("150.000 ₫") wherever the change page shows them read-only (in `readonly_fields`, or the whole page when
    staff may only view it), not as the column's four stored decimals. Each is shown by a `<name>_shown`
    display made here; where the page may edit a field it stays an input (MoneyInitial trims it)."""

    money_fields: tuple[str, ...] = ()
    money_currency = "currency"

    def __getattr__(self, name: str):
        field = name.removesuffix("_shown")
        if field == name or field not in type(self).money_fields:
            raise AttributeError(name)

        @admin.display(description=self.model._meta.get_field(field).verbose_name)
        def shown(obj):
            return money(getattr(obj, field), row_currency(obj, self.money_currency))

        return shown

    def _read_only_money(self, request, obj) -> set[str]:
        if obj is not None and not self.has_change_permission(request, obj):
            return set(self.money_fields)
        return set(super().get_readonly_fields(request, obj)) & set(self.money_fields)

    def get_readonly_fields(self, request, obj=None):
        shown = self._read_only_money(request, obj)
        return [f"{n}_shown" if n in shown else n for n in super().get_readonly_fields(request, obj)]

    def get_exclude(self, request, obj=None):
        # Out of the form: a read-only money field (its display stands in) and every display's name (a view-only
        # page builds its form from the names it shows).
        read_only = set(super().get_readonly_fields(request, obj)) & set(self.money_fields)
        excluded = super().get_exclude(request, obj)
        if excluded is None:  # as Django would: the form's own Meta.exclude
            excluded = getattr(getattr(self.form, "_meta", None), "exclude", None) or ()
        return [*excluded, *read_only, *(f"{n}_shown" for n in self.money_fields)]

    def get_fields(self, request, obj=None):
        shown = self._read_only_money(request, obj)
        return [f"{n}_shown" if n in shown else n for n in super().get_fields(request, obj)]


class MoneyForm(MoneyInitial, forms.ModelForm):
    """An admin's form when it needs nothing but MoneyInitial (the admin adds the model and its fields)."""


class RecordInline(admin.TabularInline):
    """Rows the services write, listed on their parent's page: never added or deleted there."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


def adopt(obj, saved) -> None:
    """Makes the admin's unsaved instance the row a service created, so the admin's redirects and log work."""
    obj.__dict__.update(saved.__dict__)


class SavedThroughServices:
    """A ModelAdmin mixin: rows are saved by the services. An added row goes to `create` with the form's
    `create_fields`; a changed one to `update` with the changed ones among `update_fields`, its owner and its id as
    `<model>_id` (`goal_update(user=…, goal_id=…, name=…)`). Give the services as `staticmethod(goal_create)`."""

    create = update = None
    create_fields: tuple[str, ...] = ()
    update_fields: tuple[str, ...] = ()

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        if change:
            changes = {name: data[name] for name in self.update_fields if name in form.changed_data}
            saved = self.update(user=obj.user, **{f"{self.opts.model_name}_id": obj.pk}, **changes)
        else:
            saved = self.create(**{name: data.get(name) for name in self.create_fields})
        adopt(obj, saved)


def deleting_with_owner(request, model_admin: admin.ModelAdmin) -> bool:
    """True when the request deletes something else (a user) and this row goes with it by cascade.

    Rows that refuse deletion on their own (synced records, linked accounts) must still let support staff
    delete the person who owns them.
    """
    match = getattr(request, "resolver_match", None)
    if match is None or not match.url_name:
        return False
    opts = model_admin.opts
    return not match.url_name.startswith(f"{opts.app_label}_{opts.model_name}_")


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["display_name", "currency", "timezone"]

    def clean_timezone(self):
        with service_errors(self, field="timezone"):
            return validate_timezone(self.cleaned_data["timezone"])


def _profile_save(user, form: ProfileForm) -> Profile:
    data = form.cleaned_data
    return profile_update(
        user=user, currency=data["currency"], timezone_name=data["timezone"], display_name=data["display_name"]
    )


class ProfileInline(admin.StackedInline):
    model = Profile
    form = ProfileForm
    can_delete = False
    max_num = 1
    min_num = 1


admin.site.unregister(User)


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    inlines = [ProfileInline]
    list_display = ("username", "email", "currency", "timezone", "is_staff", "is_active", "date_joined", "last_login")
    list_select_related = ("profile",)
    list_filter = ("is_staff", "is_superuser", "is_active", "profile__currency", "date_joined")

    def get_inline_instances(self, request, obj=None):
        # A new user gets their profile from the post_save signal; an inline on the add page would make a second.
        return super().get_inline_instances(request, obj) if obj is not None else []

    def save_formset(self, request, form, formset, change):
        if formset.model is not Profile:
            return super().save_formset(request, form, formset, change)
        # The admin's change message reads what formset.save() would have recorded.
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        for profile_form in formset.forms:
            if profile_form.has_changed():
                profile = _profile_save(form.instance, profile_form)
                formset.changed_objects.append((profile, profile_form.changed_data))

    @admin.display(description=_("currency"), ordering="profile__currency")
    def currency(self, obj):
        return _profile_of(obj, "currency")

    @admin.display(description=_("timezone"), ordering="profile__timezone")
    def timezone(self, obj):
        return _profile_of(obj, "timezone")


def _profile_of(user, attribute: str) -> str:
    try:
        return getattr(user.profile, attribute)
    except Profile.DoesNotExist:
        return "—"


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    form = ProfileForm
    list_display = ("user", "display_name", "currency", "timezone", "created_at")
    list_filter = ("currency", "timezone")
    list_select_related = ("user",)
    search_fields = ("user__username", "user__email", "display_name")
    readonly_fields = ("user", "created_at", "updated_at")
    fields = ("user", "display_name", "currency", "timezone", "created_at", "updated_at")

    def has_add_permission(self, request):
        return False  # every user gets one when created

    def save_model(self, request, obj, form, change):
        adopt(obj, _profile_save(obj.user, form))


class NotificationForm(forms.ModelForm):
    class Meta:
        model = Notification
        fields = ["user", "kind", "title", "body", "cta_url"]


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """Sent notifications are a record: read only. A new one goes out through the service, live to open sockets."""

    form = NotificationForm
    list_display = ("title", "user", "kind", "read_at", "created_at")
    list_filter = ("kind", ("read_at", admin.EmptyFieldListFilter), "created_at")
    list_select_related = ("user",)
    search_fields = ("title", "body", "user__username")
    date_hierarchy = "created_at"
    autocomplete_fields = ("user",)
    readonly_fields = ("dedupe_key", "read_at", "created_at")

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request)

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        created = notification_create(
            user=data["user"], kind=data["kind"], title=data["title"], body=data["body"], cta_url=data["cta_url"]
        )
        adopt(obj, created)


@admin.register(DeviceToken)
class DeviceTokenAdmin(admin.ModelAdmin):
    """Support can see and revoke (delete) a person's API tokens; the keys themselves are never stored."""

    list_display = ["name", "user", "prefix", "created_at", "last_used_at"]
    list_select_related = ["user"]
    search_fields = ["user__username", "name", "prefix"]
    readonly_fields = ["user", "name", "prefix", "key_hash", "created_at", "last_used_at"]

    def has_add_permission(self, request):
        return False


@admin.register(ModelConsent)
class ModelConsentAdmin(admin.ModelAdmin):
    """Who agreed (or withdrew) to which version of the model-provider consent, and when. A record of what the
    user decided: support reads it and never edits, adds or deletes one (only the user decides, zeus/consent.py)."""

    list_display = ["user", "granted", "version", "created_at"]
    list_filter = ["granted", "version", "created_at"]
    list_select_related = ["user"]
    search_fields = ["user__username", "user__email"]
    date_hierarchy = "created_at"
    fields = readonly_fields = ["user", "granted", "version", "created_at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        # Never from its own pages. A person deleted in the admin takes their decisions along (the cascade), and
        # Django asks this same permission for each row that cascade would delete, so it holds everywhere else.
        match = getattr(request, "resolver_match", None)
        own_page = match is not None and (match.url_name or "").startswith("zeus_modelconsent_")
        return not own_page and super().has_delete_permission(request, obj)


# allauth's own admin pages under names the admin can translate (zeus/accounts/models.py). Importing allauth's
# admin modules registers their models first, whichever app the admin discovers first.
# Their fields' names are allauth's plain English strings: the forms label them from our catalog instead.
class TranslatedLabels:
    labels = {
        "user": _("user"),
        "type": _("kind"),
        "data": _("data"),
        "created_at": _("created at"),
        "last_used_at": _("last used at"),
        "last_seen_at": _("last seen at"),
        "ip": _("IP address"),
        "user_agent": _("browser"),
    }

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if field is not None and db_field.name in self.labels:
            field.label = capfirst(self.labels[db_field.name])
        return field


def labelled_column(name: str, shown=None):
    """A changelist column for one of allauth's fields under our translated heading (its own is plain English)."""

    @admin.display(description=TranslatedLabels.labels[name], ordering=name)
    def column(model_admin, obj):
        return shown(obj) if shown else getattr(obj, name)

    return column


class SecondFactorAdmin(TranslatedLabels, AuthenticatorAdmin):
    list_display = ("user_column", "type_column", "created_column", "last_used_column")
    user_column = labelled_column("user")
    type_column = labelled_column("type", lambda factor: factor.get_type_display())
    created_column = labelled_column("created_at")
    last_used_column = labelled_column("last_used_at")


class SignedInSessionAdmin(TranslatedLabels, UserSessionAdmin):
    list_display = ("user_column", "created_column", "last_seen_column", "ip_column", "browser_column")
    user_column = labelled_column("user")
    created_column = labelled_column("created_at")
    last_seen_column = labelled_column("last_seen_at")
    ip_column = labelled_column("ip")
    browser_column = labelled_column("user_agent")


admin.site.unregister(Authenticator)
admin.site.register(SecondFactor, SecondFactorAdmin)
admin.site.unregister(UserSession)
admin.site.register(SignedInSession, SignedInSessionAdmin)
