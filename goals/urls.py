from django.urls import path

from goals import api
from goals.debts import api as debts_api

urlpatterns = [
    path("budgets", api.BudgetListView.as_view()),
    path("budgets/<int:budget_id>", api.BudgetDetailView.as_view()),
    path("goals", api.GoalListView.as_view()),
    path("goals/<int:goal_id>", api.GoalDetailView.as_view()),
    path("debts", debts_api.DebtListView.as_view()),
    path("debts/<int:debt_id>", debts_api.DebtDetailView.as_view()),
    path("debts/<int:debt_id>/payments", debts_api.DebtPaymentView.as_view()),
    path("debts/<int:debt_id>/vietqr", debts_api.DebtVietQRView.as_view()),
]
