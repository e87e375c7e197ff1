"""The web table's HTTP server (Starlette): the page, its static files and a small JSON API.

``heist serve`` runs it with uvicorn on 127.0.0.1 unless told otherwise. Only files inside
``static/`` are served (Starlette's ``StaticFiles`` refuses paths that leave it), besides each
game's rules page (``/rules/<game>``: ``docs/games/<game>.md`` as HTML, reached through the
``rules`` link beside this module so that an installed wheel carries them), every move
and uploaded record goes through the Python API's checks, and uploads are read as JSON text
only, up to ``MAX_RECORD_BYTES``. Games are saved only where ``heist serve --save-games FILE``
names a file (the browser never names one), and only those the person asks to save.
"""

from __future__ import annotations

import errno
import ipaddress
import json
import socket
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import heist_envs
from agents.arena import parse_entrant
from experiments.tools.protocol import POOL
from experiments.web.saved_games import GameSaver
from experiments.web.tables import (
    DEFAULT_SEAT,
    MAX_RECORD_BYTES,
    NoSuchTable,
    NotAllowed,
    ServerFull,
    SessionStore,
    TableError,
    menu_players,
    new_table,
    replay_table,
)

STATIC = Path(__file__).parent / "static"
#: docs/games, through a symbolic link, so that the pages are package data in a wheel
RULES = Path(__file__).parent / "rules"
COOKIE = "heist_session"
RULES_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}: rules</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body class="rules-page"><main>{body}</main></body></html>"""


class RequestTooLarge(TableError):
    pass


def error(message, status=400) -> JSONResponse:
    return JSONResponse({"error": str(message)}, status_code=status)


async def read_body(request: Request, limit=MAX_RECORD_BYTES) -> bytes:
    """The request body, refused once it passes ``limit`` bytes (without reading the rest)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise RequestTooLarge(f"the upload is larger than the limit of {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise RequestTooLarge(f"the upload is larger than the limit of {limit} bytes")
    return bytes(body)


async def read_json(request: Request, limit=64 << 10) -> dict:
    try:
        data = json.loads(await read_body(request, limit))
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise TableError("the request must be a JSON object") from None
    except RecursionError:
        raise TableError("the request must be a JSON object, not nested this deeply") from None
    if not isinstance(data, dict):
        raise TableError("the request must be a JSON object")
    return data


def whole_number(text) -> bool:
    """``text`` is written in the digits 0-9 (``str.isdigit`` also takes "²", which ``int``
    refuses)."""
    return text.isascii() and text.isdigit()


def parse_seat(table, text):
    """A seat from the ``seat`` query parameter: an index, an agent name or "spectator"
    (None); without one, the table's default view."""
    if text is None:
        return DEFAULT_SEAT
    if text == "spectator":
        return None
    names = table.env.possible_agents
    if text in names:
        return names.index(text)
    if whole_number(text) and int(text) < len(names):
        return int(text)
    raise TableError(f"unknown seat {text!r}; seats: spectator, {', '.join(names)}")


# Requests ----------------------------------------------------------------------------------------
# The app's state holds its session store (``store``), the agent specs its menu offers
# besides the registry's (``agents``) and where it saves the games asked to be saved
# (``saver``, a GameSaver; None: it saves none).


def session(request: Request) -> str | None:
    """The browser's session key, None for a client without one."""
    return request.state.session


def own_session(request: Request) -> str:
    """The browser's session, made now for a client without one: only a request that makes
    a table starts a session, so cookie-less requests hold no room."""
    if request.state.session is None:
        request.state.session = request.app.state.store.new_session()
        request.state.fresh = True
    return request.state.session


def table_of(request):
    return request.app.state.store.get(session(request), request.path_params["table_id"])


async def sessions(request, call_next):
    """A browser gets a random session key in a cookie when it makes its first table; its
    tables live under it."""
    key = request.cookies.get(COOKIE)
    request.state.session = key if key and request.app.state.store.known(key) else None
    request.state.fresh = False
    response = await call_next(request)
    if request.state.fresh:
        response.set_cookie(COOKIE, request.state.session, httponly=True, samesite="strict")
    return response


# Pages -----------------------------------------------------------------------------------------


async def index(request):
    return FileResponse(STATIC / "index.html")


async def favicon(request):
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


async def rules_page(request):
    """A game's rules page, docs/games/<game>.md, as HTML (the Markdown is the project's own,
    so its HTML comments are kept as comments)."""
    from markdown_it import MarkdownIt

    name = request.path_params["game"]
    if name not in heist_envs.game_names():
        return error(f"no game {name!r}; games: {', '.join(heist_envs.game_names())}", 404)
    path = RULES / f"{name}.md"
    if not path.is_file():
        return error(f"no rules page at {path} (it comes with the repository's docs)", 404)
    body = MarkdownIt("commonmark").enable("table").render(path.read_text(encoding="utf-8"))
    return HTMLResponse(RULES_PAGE.format(title=heist_envs.get_game(name).title, body=body))


# The API ---------------------------------------------------------------------------------------


def game_setup(game) -> dict:
    """What the menu shows of a game: its title, player counts and their seats."""
    return {
        "name": game.name,
        "title": game.title,
        "default_players": game.default_players,
        "seats": {n: game.agent_names(n) for n in range(game.min_players, game.max_players + 1)},
    }


async def setup(request):
    saver = request.app.state.saver
    return JSONResponse(
        {
            "games": [game_setup(heist_envs.get_game(name)) for name in heist_envs.game_names()],
            "players": menu_players(request.app.state.agents),
            "references": list(POOL),
            "save_games": None if saver is None else saver.path.name,
            "max_record_bytes": MAX_RECORD_BYTES,
        }
    )


async def list_tables(request):
    return JSONResponse([t.summary() for t in request.app.state.store.tables(session(request))])


def create_table(data, agents, saver):
    seed = data.get("seed")
    if seed in ("", None):
        seed = None
    players = data.get("players", [])
    save = data.get("save", False)
    if not isinstance(save, bool):
        raise TableError(f"save must be true or false, got {save!r:.80}")
    if save and saver is None:
        raise TableError(
            "this server saves no games; start it with heist serve --save-games FILE to save yours"
        )
    return new_table(
        data.get("game"), data.get("num_players"), players, seed, agents, saver if save else None
    )


async def post_table(request):
    data = await read_json(request)
    state = request.app.state
    table = await run_in_threadpool(create_table, data, state.agents, state.saver)
    request.app.state.store.add(own_session(request), table)
    return JSONResponse(table.summary())


async def post_replay(request):
    table = await run_in_threadpool(replay_table, await read_body(request))
    request.app.state.store.add(own_session(request), table)
    return JSONResponse(table.summary())


async def get_view(request):
    table = table_of(request)
    step = request.query_params.get("step", "")
    if step and not whole_number(step):
        raise TableError(
            f"step must be a whole number 0 to {len(table.moves)} (the moves played), got {step!r}"
        )
    seat = parse_seat(table, request.query_params.get("seat"))
    view = await locked(table, table.view, seat, int(step) if step else None)
    return JSONResponse(view)


async def post_move(request):
    table = table_of(request)
    data = await read_json(request)
    if "action" not in data:
        raise TableError('send the move as {"action": <action id>}')
    await locked(table, table.play, data["action"])
    return JSONResponse(table.summary())


async def post_advance(request):
    table = table_of(request)
    await locked(table, table.advance)
    return JSONResponse(table.summary())


async def get_record(request):
    table = table_of(request)
    text = await locked(table, table.record_json)
    filename = f"{table.game.name}-{table.id}.json"
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


#: the error each refusal answers with
ERROR_STATUS = {
    RequestTooLarge: 413,
    ServerFull: 503,
    NotAllowed: 403,
    NoSuchTable: 404,
    ValueError: 400,
}


def create_app(
    store: SessionStore | None = None, allowed_hosts=None, agents=(), saver=None
) -> Starlette:
    """The web table as an ASGI app. ``allowed_hosts`` limits the Host header (a guard
    against DNS rebinding when served on loopback); None allows any. ``agents``: agent specs
    the menu offers besides the registry's (outside agents: docs/agents.md). ``saver``: a
    :class:`~experiments.web.saved_games.GameSaver` for the games a person asks to save."""
    app = Starlette(
        routes=[
            Route("/", index),
            Route("/favicon.ico", favicon),
            Route("/rules/{game}", rules_page),
            Route("/api/setup", setup),
            Route("/api/tables", list_tables),
            Route("/api/tables", post_table, methods=["POST"]),
            Route("/api/replay", post_replay, methods=["POST"]),
            Route("/api/tables/{table_id}/view", get_view),
            Route("/api/tables/{table_id}/move", post_move, methods=["POST"]),
            Route("/api/tables/{table_id}/advance", post_advance, methods=["POST"]),
            Route("/api/tables/{table_id}/record", get_record),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=[
            Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts or ["*"]),
            Middleware(BaseHTTPMiddleware, dispatch=sessions),
        ],
        exception_handlers={
            kind: lambda request, e, status=status: error(e, status)
            for kind, status in ERROR_STATUS.items()
        },
    )
    app.state.store = store or SessionStore()
    app.state.agents = tuple(agents)
    app.state.saver = saver
    return app


async def locked(table, method, *args):
    """``method(*args)`` of a table, alone at it, off the event loop: an agent's move or a
    replay may compute for a while (ISMCTS, loading a policy)."""

    def call():
        with table.lock:
            return method(*args)

    return await run_in_threadpool(call)


def is_loopback(host) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listening_socket(host, port) -> socket.socket:
    """A socket bound to ``host:port`` as uvicorn binds one, or a ValueError saying why not
    (uvicorn would log the error and exit, or print a traceback for a port out of range)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        why = error.strerror or str(error)
        if error.errno == errno.EADDRINUSE:
            why += ": another program listens there; choose another --port"
        raise ValueError(f"cannot listen on {host}:{port}: {why}") from None
    return sock


def serve(host="127.0.0.1", port=8000, agents=(), save_games=None):
    """Run the web table until interrupted; ``agents``: specs its menu offers besides;
    ``save_games``: the file to which it appends the games a person asks to save."""
    import uvicorn

    for spec in agents:
        # The table plays its agents in this process, so their code loads now (trusted): a
        # bad spec, or a file without the class it names, stops here in one line.
        parse_entrant(spec, trusted=True)
    saver = None if save_games is None else GameSaver(save_games)

    sock = listening_socket(host, port)
    allowed = ["127.0.0.1", "localhost", host] if is_loopback(host) else None
    print(f"heist web table on http://{host}:{port}/ (Ctrl-C stops it)")
    if saver:
        print(f"saving the games you ask to save to {saver.path} (heist eval --human rates them)")
    app = create_app(allowed_hosts=allowed, agents=tuple(agents), saver=saver)
    uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning")).run([sock])
