"""Prints a new VAPID key pair as the settings take it (docs/push.md): put the lines in the environment."""

import base64

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.core.management.base import BaseCommand


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Command(BaseCommand):
    help = "Print a new VAPID key pair for web push, as ZEUS_WEBPUSH_VAPID_* lines."

    def add_arguments(self, parser):
        parser.add_argument("--subject", default="mailto:admin@example.com", help="mailto: or https: contact.")

    def handle(self, *args, subject, **options):
        key = ec.generate_private_key(ec.SECP256R1())
        public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        self.stdout.write(f"ZEUS_WEBPUSH_VAPID_PUBLIC_KEY={b64url(public)}")
        self.stdout.write(
            f"ZEUS_WEBPUSH_VAPID_PRIVATE_KEY={b64url(key.private_numbers().private_value.to_bytes(32, 'big'))}"
        )
        self.stdout.write(f"ZEUS_WEBPUSH_VAPID_SUBJECT={subject}")
