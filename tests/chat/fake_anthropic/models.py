"""How each model generation behaves: the minimum cacheable prefix, thinking by default, what it refuses."""

from dataclasses import dataclass

EFFORTS = ("low", "medium", "high", "xhigh", "max")


@dataclass(frozen=True)
class ModelProfile:
    min_cacheable: int  # tokens: a breakpoint whose prefix is shorter caches nothing
    thinks_by_default: bool = False  # adaptive thinking when the request says nothing
    strict: bool = False  # refuses sampling, forced tool choice, prefill, budgets and disabled thinking
    between_tools: bool = False  # accepts thinking {"type": "between_tools"}
    efforts: tuple[str, ...] = ()


MODELS = {
    "claude-sonnet-5-5": ModelProfile(512, True, True, True, EFFORTS),
    "claude-haiku-5-5": ModelProfile(512, True, True, False, EFFORTS),
    "claude-opus-5-5": ModelProfile(512, True, True, True, EFFORTS),
    "claude-sonnet-4-6": ModelProfile(2048, efforts=("low", "medium", "high", "max")),
    "claude-haiku-4-5": ModelProfile(4096),
    "claude-opus-4-5": ModelProfile(4096, efforts=("low", "medium", "high")),
}
# Unknown names (tests use "m") behave as a 4.x model with Sonnet 4.5's minimum.
LEGACY = ModelProfile(1024)
RETIRED = frozenset({"claude-sonnet-4-5", "claude-sonnet-4-5-20250929", "claude-sonnet-4-0", "claude-opus-4-0"})


def profile(model: str) -> ModelProfile:
    return MODELS.get(model, LEGACY)
