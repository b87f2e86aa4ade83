import pytest

from tests.chat.tools.helpers import ctx_for


@pytest.fixture
def alice_ctx(alice):
    return ctx_for(alice)


@pytest.fixture
def bob_ctx(bob):
    return ctx_for(bob)
