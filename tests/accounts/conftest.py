import pytest
from django.core.cache import cache

from tests.mail import SMTPServer, use_smtp


@pytest.fixture
def smtp(settings):
    """The real SMTP server on loopback: allauth's mails (confirmation, password reset) land in its inbox."""
    server = SMTPServer().start()
    use_smtp(settings, server.port)
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """allauth keeps its rate limits (one confirmation mail per address per 3 minutes, code guesses) in the
    cache, which is Redis and outlives a test."""
    cache.clear()
    yield
    cache.clear()
