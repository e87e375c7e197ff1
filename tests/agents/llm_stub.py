"""A stand-in for a language model's chat-completions endpoint, on 127.0.0.1 only.

The model a request names picks how the stub answers, so one server plays every case:

- ``first``: the id of the first legal move of the prompt (well-formed);
- ``by-name``: the name of the last legal move, after a line of reasoning;
- ``malformed``: prose without a move first, the first legal id once re-asked;
- ``illegal``: an id that is not a legal move first, the first legal id once re-asked;
- ``stubborn``: prose without a move, however often it is asked;
- ``slow``: the first legal id after :data:`SLOW_SECONDS`;
- ``failing``: HTTP 500 with an error body;
- ``garbage``: HTTP 200 with a body that is not JSON;
- ``no-choices``: HTTP 200 with JSON that is not a chat completion.

Every request's body is recorded (``server.requests``), and the key it carried
(``server.keys``), so tests can see what was sent.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

#: how long the ``slow`` model takes to answer
SLOW_SECONDS = 1.0
#: a legal move's line of the decision text: ``id: name``
MOVE_LINE = re.compile(r"^(\d+): (.+)$", re.M)


def legal_moves(prompt: str) -> list[tuple[int, str]]:
    """The (id, name) lines after the prompt's "legal moves" heading."""
    moves = prompt.rpartition("legal moves")[2]
    return [(int(a), name) for a, name in MOVE_LINE.findall(moves)]


def reply(model: str, messages: list[dict]) -> str:
    """What ``model`` says to a conversation (its first user message holds the moves)."""
    prompt = next(m["content"] for m in messages if m["role"] == "user")
    moves = legal_moves(prompt)
    reasked = len(messages) > 2
    if model == "by-name":
        return f"The last one looks best.\n{moves[-1][1]}"
    if model == "stubborn" or (model == "malformed" and not reasked):
        return "I would rather think about it some more."
    if model == "illegal" and not reasked:
        legal = {a for a, _ in moves}
        return str(next(a for a in range(10_000) if a not in legal))
    return str(moves[0][0])


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(body)
        self.server.keys.append(self.headers["Authorization"].removeprefix("Bearer "))
        model = body["model"]
        if model == "failing":
            return self.send(500, json.dumps({"error": {"message": "the model is down"}}))
        if model == "garbage":
            return self.send(200, "<html>not a completion</html>", "text/html")
        if model == "no-choices":
            return self.send(200, json.dumps({"id": "stub", "object": "chat.completion"}))
        if model == "slow":
            time.sleep(SLOW_SECONDS)
        content = reply(model, body["messages"])
        completion = {
            "id": "stub",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": content},
                }
            ],
            "usage": {"prompt_tokens": 100, "completion_tokens": 3, "total_tokens": 103},
        }
        self.send(200, json.dumps(completion))

    def send(self, status, text, content_type="application/json"):
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up
            self.wfile.write(data)

    def log_message(self, format, *args):  # quiet: the tests read server.requests
        pass


class StubServer(ThreadingHTTPServer):
    """The stub on a free port of 127.0.0.1, serving from a thread until :meth:`stop`."""

    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.requests: list[dict] = []
        self.keys: list[str] = []
        self.base_url = f"http://127.0.0.1:{self.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.shutdown()
        self.server_close()
        self.thread.join()
