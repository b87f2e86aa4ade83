from django.urls import path

from goals import api

urlpatterns = [
    path("budgets", api.BudgetListView.as_view()),
    path("budgets/<int:budget_id>", api.BudgetDetailView.as_view()),
    path("goals", api.GoalListView.as_view()),
    path("goals/<int:goal_id>", api.GoalDetailView.as_view()),
]
