"""The Procfile's `ws` process: daphne's own command line, every flag as daphne documents it, with one option that
command line does not offer.

A frame over `--websocket-max-message-size` makes autobahn (daphne's websocket layer) fail the connection, and by
default (`failByDrop`) it drops the TCP connection: the browser sees 1006, a reset the page cannot explain and
retries. With `failByDrop` off it sends the close frame 1009 ("message too big") first, as the app's own check of
smaller frames does (chat/limits.py), so the page says the message was too large. daphne builds its factory from
the name `daphne.server.WebSocketFactory`, so that name is pointed at a subclass before daphne starts;
tests/zeus/test_proxy.py holds the close code at the process level, through the proxy.
"""


def main() -> None:
    # Imported here: the app itself never loads daphne (tests/test_startup.py).
    from daphne import server
    from daphne.cli import CommandLineInterface
    from daphne.ws_protocol import WebSocketFactory

    class ClosingWebSocketFactory(WebSocketFactory):
        def resetProtocolOptions(self):
            super().resetProtocolOptions()
            self.failByDrop = False

    server.WebSocketFactory = ClosingWebSocketFactory
    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
