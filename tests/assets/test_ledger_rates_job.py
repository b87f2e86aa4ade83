"""The daily Vietcombank job, against its recorded XML served on loopback: the rates of the document's day
stored once, however often it runs, and read back as each row's rate."""

import datetime as dt
import http.server
import threading
from decimal import Decimal
from pathlib import Path

import pytest

from assets.ledger.models import ExchangeRate
from assets.ledger.vietcombank import RatesUnreadable, vietcombank_rates_parse
from assets.tasks import fetch_exchange_rates

RECORDED = (Path(__file__).parent / "fixtures" / "vietcombank_rates.xml").read_bytes()


@pytest.fixture
def served(settings):
    body = {"document": RECORDED}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/xml")
            self.end_headers()
            self.wfile.write(body["document"])

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.ZEUS_VCB_RATES_URL = f"http://127.0.0.1:{server.server_port}/pXML.aspx?b=10"
    yield body
    server.shutdown()
    server.server_close()


def test_the_document_reads_as_transfer_rates_of_its_day():
    published = vietcombank_rates_parse(RECORDED)
    assert published.day == dt.date(2026, 12, 3)
    assert published.rates["USD"] == Decimal("26138.00")
    assert published.rates["INR"] == Decimal("294.63")  # no cash quote ("-"): the transfer rate stands
    assert published.rates["DKK"] == Decimal("3938.57")  # every ISO 4217 currency the ledger keeps
    assert published.rates["KWD"] == Decimal("85570.95")  # three decimals: kept since the columns hold four


@pytest.mark.parametrize(
    "document", [b"<html>maintenance</html>", b"not xml", b"<ExrateList><DateTime>soon</DateTime></ExrateList>"]
)
def test_anything_else_is_refused(document):
    with pytest.raises(RatesUnreadable):
        vietcombank_rates_parse(document)


@pytest.mark.django_db
def test_the_daily_job_stores_the_days_rates_once(served):
    assert fetch_exchange_rates.apply().get() == 16
    assert fetch_exchange_rates.apply().get() == 16
    usd = ExchangeRate.objects.get(from_currency="USD", to_currency="VND")
    assert (usd.day, usd.rate, usd.source, usd.user_id) == (dt.date(2026, 12, 3), Decimal("26138"), "vietcombank", None)
    assert ExchangeRate.objects.count() == 16
    served["document"] = RECORDED.replace(b"26,138.00", b"26,150.00")
    fetch_exchange_rates.apply().get()
    assert ExchangeRate.objects.get(from_currency="USD").rate == Decimal("26150")
