"""A plain JSON HTTP API on 127.0.0.1 for the federation tests: items with ETags, a slow body,
a huge body, a failing endpoint and redirects; it records the headers of each request.  It
serves https instead when given a certificate and its key (``serving(api, tls=...)``)."""

from __future__ import annotations

import hashlib
import json
import ssl
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class Api:
    """What the fixture serves and what it saw."""

    collections: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    answered: list[int] = field(default_factory=list)
    port: int = 0
    etags: bool = True
    """Whether an item or a collection is answered with an ETag (and a 304 when it matches)."""
    scheme: str = "http"

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}"


def _handler(api: Api) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None
                  ) -> None:
            api.answered.append(status)
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            api.requests.append((parts.path, {k.lower(): v for k, v in self.headers.items()}))
            query = parse_qs(parts.query)
            if parts.path == "/redirect":
                self._send(302, b"", {"Location": query["to"][0]})
            elif parts.path == "/loop":
                self._send(302, b"", {"Location": "/loop"})
            elif parts.path == "/pages":
                # The customers one per page, as {"items", "_links": {"next"}}.
                page = int(query.get("page", ["0"])[0])
                items = api.collections["customers"]
                links = {"next": {"href": f"/pages?page={page + 1}"}} \
                    if page + 1 < len(items) else {}
                body = {"items": items[page:page + 1], "total": len(items), "_links": links}
                self._send(200, json.dumps(body).encode())
            elif parts.path == "/elsewhere":
                body = {"items": [], "_links": {"next": {
                    "href": f"http://localhost:{api.port}/customers"}}}
                self._send(200, json.dumps(body).encode())
            elif parts.path == "/fail":
                self._send(500, b'{"error": "down"}', {"Content-Type": "application/json"})
            elif parts.path == "/huge":
                self._send(200, b"[" + b" " * (1 << 20) + b"]")
            elif parts.path == "/huge-chunked":
                self.send_response(200)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                chunk = b" " * 65536
                for _ in range(32):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.write(b"0\r\n\r\n")
            elif parts.path == "/slow":
                self.send_response(200)
                self.send_header("Content-Length", "100")
                self.end_headers()
                try:
                    for _ in range(100):
                        self.wfile.write(b" ")
                        self.wfile.flush()
                        time.sleep(0.1)
                except OSError:
                    pass
            else:
                self._collection(parts.path)

        def _collection(self, path: str) -> None:
            name, _, item = path.strip("/").partition("/")
            if name not in api.collections:
                self._send(404, b'{"error": "no such collection"}')
                return
            items = api.collections[name]
            if item:
                found = [each for each in items if str(each.get("id")) == item]
                if not found:
                    self._send(404, b'{"error": "no such item"}')
                    return
                body = json.dumps(found[0]).encode()
            else:
                body = json.dumps(items).encode()
            if not api.etags:
                self._send(200, body, {"Content-Type": "application/json"})
                return
            etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
            if self.headers.get("If-None-Match") == etag:
                self._send(304, b"", {"ETag": etag})
                return
            self._send(200, body, {"Content-Type": "application/json", "ETag": etag})

    return Handler


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that stops reading (a cut-off body) is what the tests do on purpose


@contextmanager
def serving(api: Api, tls: tuple[str, str] | None = None) -> Iterator[Api]:
    """The fixture API on a free port of 127.0.0.1 while the block runs; over https when
    ``tls`` names a certificate file and its key file."""
    server = _Server(("127.0.0.1", 0), _handler(api))
    server.daemon_threads = True
    if tls is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        api.scheme = "https"
    api.port = server.server_address[1]
    # shutdown() waits for the loop to look at its flag: every 20 ms, not the default 0.5 s.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02},
                              daemon=True)
    thread.start()
    try:
        yield api
    finally:
        server.shutdown()
        server.server_close()
