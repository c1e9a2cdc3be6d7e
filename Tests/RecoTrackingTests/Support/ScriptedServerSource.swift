/// The Python (standard library only) HTTP server the tracking tests run on 127.0.0.1.
///
/// It stores Segmentify arrays and Reteno `{"events":[…]}` bodies as flat events and follows a script
/// of replies, one step per events request: `{"status":503}`, `{"status":429,"retryAfter":"2"}`,
/// `{"delay":1.5}` (slow reply), `{"reset":true}` (connection reset, nothing stored),
/// `{"storeThenReset":true}` (stored, then the reply is lost), `{"endless":true}` (nothing stored, and a
/// 200 whose body of spaces never ends, 25 MB a second, no length announced), `{"status":301,"location":
/// "/moved/add"}` (a redirect; any request to a path under `/moved`, as a web server that knows nothing of
/// events would, gets 200 `{"statusCode":"SUCCESS"}`, stores nothing, and is logged as `moved GET` or
/// `moved POST N` with its body's length; `GET /_redirect` is a 302 to `/moved/page`), `{"page":true}` (a
/// 200 whose body is a web page, nothing stored). With no step left it stores and answers
/// 200 `{"statusCode":"SUCCESS"}`. `POST /_config` sets `bad` (product ids whose batches get 400
/// `{"statusCode":"BAD_INPUT"}`, or the `badCode` and `badMessage` configured), `down` (reset every
/// connection) and `delay` (seconds every events reply waits). `GET /_received` answers every
/// stored event as `[id, product, kind, variant]` (for a Segmentify event other than INTERACTION:
/// `[id, productId, name, step]`), and `GET /_log` the status of each request.
enum ScriptedServerSource {
    static let python = #"""
import json, socket, struct, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
script = []
config = {"bad": [], "down": False, "badCode": "BAD_INPUT", "badMessage": None, "delay": 0}
events = []
log = []

def flatten(body):
    out = []
    if isinstance(body, list):
        for e in body:
            if e.get("name", "INTERACTION") == "INTERACTION":
                out.append([str((e.get("params") or {}).get("eventId")), e.get("interactionId"), e.get("type"), e.get("instanceId")])
            else:
                out.append([str((e.get("params") or {}).get("eventId")), e.get("productId"), e.get("name"), e.get("step")])
    elif isinstance(body, dict):
        for group in body.get("events", []):
            for kind in ("impressions", "clicks"):
                for e in group.get(kind, []):
                    out.append([str(e.get("eventId")), e.get("productId"), kind, group.get("recomVariantId")])
    return out

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args):
        pass

    def setup(self):
        BaseHTTPRequestHandler.setup(self)
        # Headers and body go out in two writes: without this, delayed ACKs add 40 ms per reply.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def reply(self, status, body, headers=None):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def reset(self):
        self.close_connection = True
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.connection.close()

    def endless(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        piece = b" " * 65536
        framed = b"%x\r\n" % len(piece) + piece + b"\r\n"
        started = time.monotonic()
        sent = 0
        try:
            while True:
                ahead = sent / 25e6 - (time.monotonic() - started)
                if ahead > 0:
                    time.sleep(ahead)
                self.wfile.write(framed)
                sent += len(piece)
        except OSError:
            pass
        self.close_connection = True

    def finish(self):
        try:
            BaseHTTPRequestHandler.finish(self)
        except OSError:
            pass

    def moved(self, length):
        with lock:
            log.append("moved " + self.command + ("" if self.command == "GET" else " %d" % length))
        self.reply(200, {"statusCode": "SUCCESS"})

    def do_GET(self):
        if self.path.startswith("/moved"):
            return self.moved(0)
        if self.path.startswith("/_redirect"):
            return self.reply(302, {"statusCode": "MOVED"}, {"Location": "/moved/page"})
        with lock:
            if self.path.startswith("/_received"):
                self.reply(200, events)
            elif self.path.startswith("/_log"):
                self.reply(200, log)
            else:
                self.reply(404, {"error": "no such path"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if self.path.startswith("/_script"):
            with lock:
                script.extend(json.loads(raw))
            return self.reply(200, {"ok": True})
        if self.path.startswith("/_config"):
            with lock:
                config.update(json.loads(raw))
            return self.reply(200, {"ok": True})
        if self.path.startswith("/moved"):
            return self.moved(len(raw))
        with lock:
            down = config["down"]
            step = script.pop(0) if script and not down else {}
        if down:
            with lock:
                log.append("down")
            return self.reset()
        if step.get("reset"):
            with lock:
                log.append("reset")
            return self.reset()
        if step.get("endless"):
            with lock:
                log.append("endless")
            return self.endless()
        if step.get("hugeLength"):
            # A length no body has: 2^63 - 1, which Foundation on Linux cannot take (see URLSessionTransport).
            with lock:
                log.append("hugeLength")
            self.close_connection = True
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "9223372036854775807")
            self.end_headers()
            return self.wfile.write(b'{"statusCode":"SUCCESS"}')
        if "delay" in step:
            time.sleep(step["delay"])
        elif config["delay"]:
            time.sleep(config["delay"])
        status = step.get("status", 200)
        if step.get("page"):
            with lock:
                log.append("page")
            data = b"\n<!DOCTYPE html><html><head><title>Shop</title></head><body>Welcome</body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            return self.wfile.write(data)
        if status != 200:
            with lock:
                log.append(str(status))
            headers = {"Retry-After": step["retryAfter"]} if "retryAfter" in step else {}
            if "location" in step:
                headers["Location"] = step["location"]
            return self.reply(status, {"statusCode": step.get("code", "ERROR")}, headers)
        try:
            body = json.loads(raw)
        except ValueError:
            with lock:
                log.append("400")
            return self.reply(400, {"statusCode": "BAD_INPUT"})
        flat = flatten(body)
        with lock:
            if any(e[1] in config["bad"] for e in flat):
                log.append("400-bad")
                refusal = {"statusCode": config["badCode"]}
                if config["badMessage"]:
                    refusal["message"] = config["badMessage"]
                return self.reply(400, refusal)
            events.extend(flat)
            log.append("200")
        if step.get("storeThenReset"):
            return self.reset()
        self.reply(200, {"statusCode": "SUCCESS"})

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
