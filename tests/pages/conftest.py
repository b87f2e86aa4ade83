import pytest


@pytest.fixture
def alice_web(client, alice):
    client.force_login(alice)
    return client
