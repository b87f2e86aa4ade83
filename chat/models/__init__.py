from chat.models.audit import *  # noqa: F403
from chat.models.conversation import *  # noqa: F403
from chat.models.mcp import *  # noqa: F403
from chat.models.tools import *  # noqa: F403
