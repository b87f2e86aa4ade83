"""The asset and goal kinds, as the owners' models define them, for everything the chat checks or shows:
tool schemas, UI events and cards."""

from assets.models import Asset
from goals.models import Goal

ASSET_KINDS: list[str] = list(Asset.Kind.values)
GOAL_KINDS: list[str] = list(Goal.Kind.values)
