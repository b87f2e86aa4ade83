import pytest

from suggestions.merchants import normalize_merchant


@pytest.mark.parametrize(
    ("description", "merchant"),
    [
        ("CGV Cinemas", "cgv cinemas"),
        ("CGV CINEMAS #0231", "cgv cinemas"),
        ("Refund: cgv cinemas", "cgv cinemas"),
        ("Hoàn tiền Shopee", "shopee"),
        ("Phở Thìn", "pho thin"),
        ("Đồng Xuân", "dong xuan"),
        ("GRAB*12345 HCM", "grab hcm"),
        ("", ""),
        ("12345", ""),
    ],
)
def test_descriptions_reduce_to_one_merchant_name(description, merchant):
    assert normalize_merchant(description) == merchant
