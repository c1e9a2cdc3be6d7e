/// The Python (standard library only) HTTP server standing in for vendors on 127.0.0.1.
///
/// Each path follows a script: `POST /_route` with `{"path":"/seg/add/events/v1.json","steps":[…],
/// "default":{…}}` queues reply steps for that path (one per request) and sets the reply once they run
/// out. A step is `{"status":200,"body":"…","headerDelay":2.0,"bodyDelay":2.0,"gate":"name"}`:
/// `headerDelay` waits before the status line, `bodyDelay` sends the headers and the first half of the
/// body, waits, then sends the rest; `gate` holds the reply until `POST /_open {"gate":"name"}`, and `bodyGate` holds the second half of
/// the body the same way. `"chunked":true` sends the body in chunks of `"chunkSize"` bytes with no
/// length; `"endless":"length"` (a length of 1 TiB announced) or `"endless":"chunked"` streams spaces
/// until the client goes, at `"rate"` bytes a second when given. `"length":"…"` announces that
/// `Content-Length` (any text) instead of the body's, and closes the connection after the body. `GET /_stats` answers `{"counts":{path:n},"maxConcurrent":{path:n},
/// "last":{path:body},"sent":{path:bytes of endless bodies},"streaming":{path:endless bodies under way}}`.
enum VendorServerSource {
    static let python = #"""
import json, socket, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
routes = {}
counts = {}
running = {}
max_running = {}
last = {}
gates = {}
sent = {}
streaming = {}

def gate(name):
    with lock:
        if name not in gates:
            gates[name] = threading.Event()
        return gates[name]

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args):
        pass

    def setup(self):
        BaseHTTPRequestHandler.setup(self)
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def send_json(self, status, value):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_GET(self):
        self.handle_any()

    def do_POST(self):
        self.handle_any()

    def handle_any(self):
        path = self.path.split("?")[0]
        body = self.body()
        if path == "/_route":
            config = json.loads(body)
            with lock:
                routes[config["path"]] = {"steps": config.get("steps", []), "default": config.get("default", {"status": 404, "body": ""})}
            return self.send_json(200, {"ok": True})
        if path == "/_open":
            gate(json.loads(body)["gate"]).set()
            return self.send_json(200, {"ok": True})
        if path == "/_stats":
            with lock:
                return self.send_json(200, {"counts": counts, "maxConcurrent": max_running, "last": last,
                                            "sent": sent, "streaming": streaming})
        with lock:
            counts[path] = counts.get(path, 0) + 1
            running[path] = running.get(path, 0) + 1
            max_running[path] = max(max_running.get(path, 0), running[path])
            last[path] = body.decode("utf-8", "replace")
            route = routes.get(path, {"steps": [], "default": {"status": 404, "body": ""}})
            step = route["steps"].pop(0) if route["steps"] else route["default"]
        try:
            if step.get("gate"):
                gate(step["gate"]).wait(60)
            if step.get("headerDelay"):
                time.sleep(step["headerDelay"])
            data = step.get("body", "").encode()
            self.send_response(step.get("status", 200))
            self.send_header("Content-Type", "application/json")
            if step.get("location"):
                self.send_header("Location", step["location"])
            if step.get("endless"):
                return self.stream_endless(path, step["endless"] == "length", step.get("rate", 0))
            if step.get("chunked"):
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                size = step.get("chunkSize", 65536)
                for start in range(0, len(data), size):
                    piece = data[start:start + size]
                    self.wfile.write(b"%x\r\n" % len(piece) + piece + b"\r\n")
                self.wfile.write(b"0\r\n\r\n")
                return
            if "length" in step:
                self.send_header("Content-Length", step["length"])
                self.close_connection = True
            else:
                self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if step.get("bodyDelay") or step.get("bodyGate"):
                half = len(data) // 2
                self.wfile.write(data[:half])
                self.wfile.flush()
                if step.get("bodyGate"):
                    gate(step["bodyGate"]).wait(60)
                else:
                    time.sleep(step["bodyDelay"])
                self.wfile.write(data[half:])
            else:
                self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError):
            pass
        finally:
            with lock:
                running[path] -= 1

    def stream_endless(self, path, announced, rate):
        if announced:
            self.send_header("Content-Length", str(1 << 40))
        else:
            self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        piece = b" " * 65536
        framed = piece if announced else b"%x\r\n" % len(piece) + piece + b"\r\n"
        with lock:
            streaming[path] = streaming.get(path, 0) + 1
        started = time.monotonic()
        written = 0
        try:
            while True:
                if rate:
                    ahead = written / rate - (time.monotonic() - started)
                    if ahead > 0:
                        time.sleep(ahead)
                self.wfile.write(framed)
                written += len(piece)
                with lock:
                    sent[path] = sent.get(path, 0) + len(piece)
        finally:
            with lock:
                streaming[path] -= 1
            self.close_connection = True

class Server(ThreadingHTTPServer):
    # A client that goes away mid-exchange (tests cut connections and give up on purpose) is not the
    # stand-in's failure: no traceback for it. Any other error still prints one.
    def handle_error(self, request, client_address):
        kind = sys.exc_info()[0]
        if kind is not None and issubclass(kind, (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)

server = Server(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
"""#
}
