"""The modified z-score of a week's spending against the weeks before it. Pure: numbers in, verdict out."""

from dataclasses import dataclass
from decimal import Decimal
from statistics import median

from suggestions.thresholds import SPIKE_Z

# 0.6745 is the 0.75 quantile of the standard normal: MAD / 0.6745 estimates the standard deviation.
# 1.253314 (sqrt(pi/2)) does the same for the mean absolute deviation (IBM SPSS's fallback when MAD = 0).
_MAD_FACTOR = Decimal("0.6745")
_MEAN_AD_FACTOR = Decimal("1.253314")


@dataclass(frozen=True)
class Spike:
    score: Decimal | None  # None: infinitely unusual (every earlier week was the same)
    median: Decimal
    excess: Decimal


def detect_spike(x: Decimal, history: list[Decimal], *, minimum: Decimal) -> Spike | None:
    """A spike when the modified z-score is above 3.5 and the excess over the median is at least `minimum`.

    When MAD = 0 (the category is empty, or the same, in most weeks) the median says nothing about how large
    a week with spending is: the score falls back to the mean absolute deviation, and the week must also be
    larger than every earlier week, so a monthly rent or a periodic charge at its usual size is never a
    spike. When every earlier week is the same, any week above them all by `minimum` is one.
    """
    if not history:
        return None
    med = Decimal(median(history))
    excess = x - med
    if excess < minimum or excess <= 0:
        return None
    mad = Decimal(median([abs(h - med) for h in history]))
    if mad > 0:
        score = _MAD_FACTOR * excess / mad
        return Spike(score=score.quantize(Decimal("0.01")), median=med, excess=excess) if score > SPIKE_Z else None
    if x <= max(history):
        return None
    mean_ad = sum((abs(h - med) for h in history), Decimal(0)) / len(history)
    if mean_ad == 0:
        return Spike(score=None, median=med, excess=excess)
    score = excess / (_MEAN_AD_FACTOR * mean_ad)
    return Spike(score=score.quantize(Decimal("0.01")), median=med, excess=excess) if score > SPIKE_Z else None
