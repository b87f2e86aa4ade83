"""Reads of SePay connections, scoped to one user."""

from django.db.models import QuerySet

from assets.models import SepayConnection


def sepay_connection_list(*, user) -> QuerySet[SepayConnection]:
    return SepayConnection.objects.filter(user=user)
