"""A user's data as one thing: export it, restore it into an empty account, erase it (docs/contract/account-data.md).

`zeus` is the bottom of the import order, yet an export must read every app's rows. So each app declares the
rows it owns in its `AppConfig.ready()` (registry.py, the same pattern as the home's panels): a `Record` per
model, naming the lookup from that model to its user, whether it is exported, and why not when it is not. The
generic code here reads the models through `django.apps.apps.get_model(label)`, never by importing them, so no
arrow points up; an app's own rules (its CSV, a code that must be fresh on restore, the webhooks that must answer
410 after an erasure) travel with its declaration. `tests/zeus/test_account_data_coverage.py` walks every
installed model that names the user and fails on one nobody declared, so a model added later cannot be
silently left out of an export or left behind by an erasure.
"""
