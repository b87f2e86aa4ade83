"""Every model that names a user is declared (exported, or left out with a reason) so an export misses nothing
and an erasure leaves nothing behind: a model another app adds later fails here until its app declares it."""

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models

from zeus.account_data.registry import records


def models_naming_the_user() -> set[str]:
    """Installed concrete models with a ForeignKey, OneToOneField or ManyToManyField to the user model."""
    user_model = get_user_model()
    found = set()
    for model in apps.get_models():
        if model._meta.proxy or model is user_model:
            continue
        for f in model._meta.get_fields():
            if f.concrete and f.is_relation and f.related_model is user_model:
                found.add(model._meta.label)
    return found


def models_hanging_off(declared: set[str]) -> set[str]:
    """Models whose rows are deleted with a declared model's rows (CASCADE): they belong to the same user."""
    found = set()
    for model in apps.get_models():
        for f in model._meta.concrete_fields:
            if (
                f.is_relation
                and f.related_model._meta.label in declared
                and getattr(f.remote_field, "on_delete", None) is models.CASCADE
            ):
                found.add(model._meta.label)
    return found


def undeclared(declared: set[str]) -> set[str]:
    return (models_naming_the_user() | models_hanging_off(declared)) - declared


def test_every_model_that_names_a_user_is_exported_or_excluded_with_a_reason():
    declared = {r.label for r in records()}
    missing = undeclared(declared)
    assert missing == set(), (
        f"declare these in their app's account_data.py (exported, or exported=False with a reason): {sorted(missing)}"
    )
    for record in records():
        assert record.exported or len(record.reason) > 10, record.label


def test_the_walk_would_catch_a_model_nobody_declared():
    declared = {r.label for r in records()}
    assert undeclared(declared - {"assets.Transaction"}) == {"assets.Transaction"}
    assert "chat.Message" in undeclared(declared - {"chat.Message"})  # no user key: it hangs off a thread


def test_each_declared_owner_lookup_ends_at_the_user(alice, bob):
    for record in records():
        path = record.owner.split("__")
        model = record.model
        for step in path:
            model = model._meta.get_field(step).related_model
        assert model is get_user_model(), record.label
        assert record.rows(alice).count() >= 0


def test_declared_fields_exist():
    for record in records():
        names = {f.name for f in record.model._meta.concrete_fields} | {
            f.attname for f in record.model._meta.concrete_fields
        }
        for field in (*record.omit, *record.references, *record.fresh, *filter(None, [record.webhook_token])):
            assert field in names, f"{record.label}.{field}"
        for target in record.references.values():
            assert apps.get_model(target) is not None
