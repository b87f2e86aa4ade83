"""Where the model that reads a capture is plugged in.

Reading an image or a PDF is a call to the model provider, and the provider's client lives in the chat app
(chat/provider), which the import order puts above assets: assets may not import it, and a second client here
would be a second set of keys, timeouts and error mappings to keep in step. So the chat app registers its
reader from its AppConfig.ready() (chat/capture.py), as the apps register their panels with zeus; assets calls
whatever is registered and never names chat. With no reader registered (chat not installed), a capture that
needs the model answers 503 CAPTURE_READER_MISSING, never a guess."""

from collections.abc import Callable
from typing import Protocol

from django.utils.translation import gettext as _

from zeus.errors import ZeusError


class CaptureReaderUnavailable(ZeusError):
    """The model could not be asked or did not answer (no key, the provider down, a timeout)."""

    status = 503
    code = "CAPTURE_READER_MISSING"


class Reader(Protocol):
    def __call__(self, *, user, kind: str, media_type: str, data: bytes) -> object:
        """The model's answer as parsed JSON (Decimal numbers); raises a ZeusError with a code when it cannot."""


_reader: list[Callable] = []


def register_reader(reader: Reader) -> None:
    """Idempotent: ready() may run more than once in tests."""
    _reader[:] = [reader]


def read(*, user, kind: str, media_type: str, data: bytes):
    if not _reader:
        raise CaptureReaderUnavailable(_("Reading images and PDFs is not available on this server."))
    return _reader[0](user=user, kind=kind, media_type=media_type, data=data)
