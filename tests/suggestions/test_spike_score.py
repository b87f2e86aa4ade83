from decimal import Decimal

import pytest

from suggestions.insights.spikes import detect_spike

D = Decimal
MIN = D(500_000)


def weeks(*values) -> list[Decimal]:
    return [D(v) for v in values]


@pytest.mark.parametrize(
    ("x", "history", "spike"),
    [
        # A busy category with the usual spread: a week far above it is a spike, a high but ordinary one is not.
        (7_500_000, weeks(200_000, 350_000, 150_000, 300_000, 250_000, 400_000, 100_000) * 2, True),
        (600_000, weeks(200_000, 350_000, 150_000, 300_000, 250_000, 400_000, 100_000) * 2, False),
        # Unusual by the score but the excess over the median is just under the minimum.
        (599_000, weeks(100_000, 120_000) * 6, False),
        (611_000, weeks(100_000, 120_000) * 6, True),
        # MAD = 0, empty most weeks: a monthly rent at its usual size is not a spike ...
        (6_500_000, weeks(0, 0, 0, 6_500_000, 0, 0, 0, 0, 6_500_000, 0, 0, 0), False),
        # ... a week above every earlier one, far above the mean deviation, is.
        (3_000_000, weeks(0, 0, 800_000, 0, 0, 0, 0, 800_000, 0, 0, 0, 0), True),
        # MAD = 0 and the mean-deviation score is under 3.5: frequent enough not to be unusual.
        (1_600_000, weeks(0, 1_500_000, 0, 1_500_000, 0, 0, 1_500_000, 0, 1_500_000, 0, 1_500_000, 0), False),
        # Every earlier week the same: any rise of at least the minimum counts, a smaller one does not.
        (900_000, weeks(*[0] * 12), True),
        (400_000, weeks(*[0] * 12), False),
        (1_000_000, weeks(*[300_000] * 12), True),
        # Spending less than usual is never a spike.
        (0, weeks(900_000, 1_000_000) * 6, False),
    ],
)
def test_the_modified_z_score_flags_only_real_spikes(x, history, spike):
    assert (detect_spike(D(x), history, minimum=MIN) is not None) is spike


def test_a_spike_reports_its_median_and_score():
    found = detect_spike(D(7_500_000), weeks(200_000, 300_000, 250_000) * 4, minimum=MIN)
    assert found.median == D(250_000)
    assert found.excess == D(7_250_000)
    assert found.score > D("3.5")


def test_a_flat_history_scores_as_infinitely_unusual():
    assert detect_spike(D(900_000), weeks(*[0] * 12), minimum=MIN).score is None
