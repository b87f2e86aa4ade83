"""A shared or uploaded file, kept with the drafts (and so the transactions) read from it."""

import uuid

from django.conf import settings
from django.db import models, transaction
from django.db.models.signals import post_delete
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _


def capture_path(capture, filename: str) -> str:
    """A stored name of Zeus's own: the user's file name never reaches the storage's paths."""
    extension = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif"}.get(
        capture.media_type, "pdf" if capture.kind == Capture.Kind.PDF else "xlsx"
    )
    return f"captures/{capture.user_id}/{uuid.uuid4().hex}.{extension}"


class Capture(models.Model):
    class Kind(models.TextChoices):
        IMAGE = "image"  # a receipt or a transfer screenshot, read by the model
        PDF = "pdf"  # a statement (or a receipt) as PDF, read by the model
        XLSX = "xlsx"  # a statement workbook, read by the statement importers

    class Status(models.TextChoices):
        DRAFTED = "drafted"  # read into drafts, each confirmed or discarded on its own
        PENDING = "pending"  # an XLSX waiting for its owner to import it
        IMPORTED = "imported"
        DISCARDED = "discarded"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="captures", verbose_name=_("user")
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, verbose_name=_("kind"))
    media_type = models.CharField(max_length=100, verbose_name=_("media type"))
    file = models.FileField(upload_to=capture_path, max_length=255, verbose_name=_("file"))
    name = models.CharField(max_length=200, blank=True, verbose_name=_("name"))  # as shared, shown to its owner only
    size = models.PositiveIntegerField(verbose_name=_("size"))
    sha256 = models.CharField(max_length=64, verbose_name=_("sha256"))
    read_as = models.CharField(
        max_length=20, blank=True, verbose_name=_("read as")
    )  # the model's word: receipt, transfer, statement
    status = models.CharField(max_length=10, choices=Status.choices, verbose_name=_("status"))
    imported = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("imported"))
    skipped = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("skipped"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("capture")
        verbose_name_plural = _("captures")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "sha256"])]

    def __str__(self):
        return f"{self.kind} {self.name or self.id}"


@receiver(post_delete, sender=Capture, dispatch_uid="capture_file_removed")
def _remove_file(sender, instance: Capture, **kwargs):
    """A capture deleted (by its owner's account going, or by the admin) takes its file with it, once the
    deletion is committed: a rolled-back deletion keeps the file its row still names."""
    name, storage = instance.file.name, instance.file.storage
    if name:
        transaction.on_commit(lambda: storage.delete(name))
