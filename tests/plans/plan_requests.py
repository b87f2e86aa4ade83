"""The plan the API tests create through /api/v1/plans, and the keys a plan answers with."""

BODY = {
    "month": "2026-11",
    "expected_income": "25tr",
    "fixed_expenses": [
        {"name": "Rent", "amount": "6,500,000", "category": "housing"},
        {"name": "Utilities", "amount": 800000, "category": "utilities"},
    ],
    "lifestyle_mode": "balanced",
}
PLAN_KEYS = {
    "id", "month", "status", "currency", "lifestyle_mode", "expected_income", "fixed_expenses", "primary_goal_id",
    "reminders_enabled", "reminder_time", "allocations", "actuals", "daily_guide", "warning", "streak",
    "recommendation", "summary", "converted", "rate_missing",
}  # fmt: skip


def create_plan(api, **changes):
    response = api.post("/api/v1/plans", {**BODY, **changes}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()
