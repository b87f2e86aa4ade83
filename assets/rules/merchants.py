"""The first guess when no rule of the user's matches: common Vietnamese and international merchants.

Deterministic: the folded description is searched for each keyword as whole words, longest keyword first,
so "grab food" (dining) wins over "grab" (transport). Keywords are written folded (no diacritics).
"""

from assets.rules.text import fold, padded_words, words

_BY_CATEGORY: dict[str, tuple[str, ...]] = {
    "dining": (
        "grabfood", "grab food", "shopeefood", "shopee food", "baemin", "gofood", "kfc", "lotteria", "jollibee",
        "mcdonald", "mcdonalds", "burger king", "pizza hut", "domino", "dominos", "highlands", "highlands coffee",
        "starbucks", "phuc long", "the coffee house", "trung nguyen", "cong caphe", "katinat", "tocotoco",
        "gong cha", "popeyes", "texas chicken", "pho 24", "bun cha", "com tam", "banh mi", "nha hang", "quan an",
        "restaurant", "cafe", "coffee", "subway", "dunkin", "uber eats", "deliveroo", "doordash",
    ),
    "groceries": (
        "winmart", "vinmart", "bach hoa xanh", "bhx", "co.op", "coopmart", "co op mart", "big c", "go mart",
        "lotte mart", "aeon", "mega market", "emart", "circle k", "family mart", "familymart", "ministop",
        "gs25", "7 eleven", "7-eleven", "satrafoods", "tesco", "walmart", "costco", "aldi", "lidl", "carrefour",
        "whole foods", "sieu thi",
    ),
    "transport": (
        "grab", "be group", "xanh sm", "gsm", "gojek", "mai linh", "vinasun", "uber", "lyft", "vetc", "epass",
        "petrolimex", "pvoil", "xang dau", "xang", "shell", "caltex", "parking", "gui xe", "vexere", "futa",
        "phuong trang", "metro",
    ),
    "travel": (
        "vietnam airlines", "vietjet", "bamboo airways", "vietravel", "agoda", "booking.com", "booking com",
        "traveloka", "airbnb", "expedia", "klook", "hotel", "khach san", "airasia", "singapore airlines",
    ),
    "shopping": (
        "shopee", "lazada", "tiki", "sendo", "tiktok shop", "amazon", "uniqlo", "zara", "h&m", "ikea",
        "the gioi di dong", "thegioididong", "dien may xanh", "fpt shop", "cellphones", "nguyen kim", "apple store",
        "decathlon", "ebay", "aliexpress", "temu",
    ),
    "subscriptions": (
        "netflix", "spotify", "youtube premium", "youtube", "apple.com", "icloud", "google one", "google storage",
        "microsoft 365", "office 365", "disney", "fpt play", "vieon", "galaxy play", "zing mp3", "chatgpt",
        "openai", "anthropic", "claude", "github", "adobe", "canva", "dropbox", "notion",
    ),
    "utilities": (
        "evn", "dien luc", "tien dien", "nuoc sach", "tien nuoc", "sawaco", "cap nuoc", "viettel", "vnpt",
        "mobifone", "vinaphone", "fpt telecom", "internet", "cuoc dien thoai", "nap tien dien thoai", "topup",
    ),
    "health": (
        "pharmacity", "long chau", "an khang", "nha thuoc", "benh vien", "hospital", "vinmec", "fv hospital",
        "phong kham", "clinic", "pharmacy", "guardian", "medicare",
    ),
    "entertainment": (
        "cgv", "lotte cinema", "galaxy cinema", "bhd", "beta cinemas", "cinema", "steam", "playstation", "xbox",
        "nintendo", "garena", "vinwonders", "karaoke",
    ),
    "education": ("hoc phi", "tuition", "udemy", "coursera", "ila", "apollo english", "vus", "fahasa"),
    "insurance": ("bao hiem", "bao viet", "prudential", "manulife", "aia", "dai-ichi", "insurance", "bhxh"),
    "housing": ("tien nha", "tien thue nha", "rent", "phi quan ly", "chung cu", "vinhomes"),
    "personal_care": ("spa", "salon", "cat toc", "barber", "30shine", "nail", "gym", "california fitness"),
    "debt_payment": ("tra no", "tra gop", "home credit", "fe credit", "thanh toan the tin dung", "credit card"),
    "gifts": ("qua tang", "mung cuoi", "li xi", "lixi"),
    "salary": ("luong", "salary", "payroll", "tra luong", "chi luong"),
    "bonus": ("tien thuong", "thuong tet", "bonus"),
    "interest": ("lai tien gui", "tra lai", "interest", "lai tiet kiem"),
}  # fmt: skip

# (padded keyword, category), longest first: the most specific name wins.
_KEYWORDS = sorted(
    ((words(keyword), category) for category, keywords in _BY_CATEGORY.items() for keyword in keywords),
    key=lambda pair: len(pair[0]),
    reverse=True,
)


def _by_first_word() -> dict[str, list[int]]:
    """A keyword can only be in a text holding its first word: each word's keywords, by their place in
    _KEYWORDS, so a text is checked against the few keywords it could hold (an import guesses every row)."""
    index: dict[str, list[int]] = {}
    for place, (keyword, _) in enumerate(_KEYWORDS):
        index.setdefault(keyword.split()[0], []).append(place)
    return index


_BY_FIRST_WORD = _by_first_word()


def guess(text: str, *, fits, folded: str | None = None) -> tuple[str, str] | None:
    """(category, the keyword that named it) for the first known merchant in `text` whose category `fits`
    (a predicate on a category, so an income never gets an expense category), else None. `folded`: the text
    already folded, when the caller has it."""
    haystack = padded_words(fold(text) if folded is None else folded)
    places = sorted({place for word in haystack.split() for place in _BY_FIRST_WORD.get(word, ())})
    for place in places:
        keyword, category = _KEYWORDS[place]
        if keyword in haystack and fits(category):
            return category, keyword.strip()
    return None
