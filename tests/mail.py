"""A real SMTP server on loopback (aiosmtpd) that keeps what it receives, for the mail tests."""

import email
import email.policy
import time
from email.message import EmailMessage

from aiosmtpd.controller import Controller

from tests.processes import free_port


class Inbox:
    def __init__(self, delay: float = 0.0):
        self.messages: list[EmailMessage] = []
        self.delay = delay

    async def handle_DATA(self, server, session, envelope):
        if self.delay:
            import asyncio

            await asyncio.sleep(self.delay)
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 Message accepted"


class SMTPServer:
    """Start and stop it at will; the port stays the same, so "down then back" is the same address."""

    def __init__(self, delay: float = 0.0):
        self.port = free_port()
        self.inbox = Inbox(delay)
        self.controller = None

    @property
    def messages(self) -> list[EmailMessage]:
        return self.inbox.messages

    def start(self) -> "SMTPServer":
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()
        return self

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None
            time.sleep(0.05)


def use_smtp(settings, port: int) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 5
