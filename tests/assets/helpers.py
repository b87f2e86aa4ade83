"""Assertions on the API's error shape, shared by the ledger's API tests."""


def assert_error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:500])
    assert response["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert set(error) <= {"code", "message", "fields"}
    assert error["message"]
    if code:
        assert error["code"] == code, error
    return error
