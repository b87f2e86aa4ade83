"""Months of each length and allocations and actuals written short, for the plan arithmetic's table tests."""

import datetime as dt

from plans import math as pm

D = dt.date
NOV = D(2026, 11, 1)  # 30 days
FEB = D(2026, 2, 1)  # 28 days
FEB_LEAP = D(2028, 2, 1)  # 29 days
JAN = D(2027, 1, 1)  # 31 days
ESSENTIAL = ("housing", "utilities", "groceries", "transport")
DISCRETIONARY = ("dining", "shopping", "subscriptions", "other")


def alloc(fixed=0, essential=0, goal=0, safe=0):
    return pm.Allocations(fixed=fixed, essential=essential, goal=goal, safe=safe)


def act(fixed=0, essential=0, discretionary=0, goal=0):
    return pm.Actuals(fixed=fixed, essential=essential, discretionary=discretionary, goal=goal)
