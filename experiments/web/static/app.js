// The web table's page: forms, the position controls and the game loop. The tables
// themselves are drawn by games.js (window.drawTable, which also gives escapeHtml).
"use strict";

const $ = (id) => document.getElementById(id);
const escapeHtml = window.escapeHtml;
const ui = {
  setup: null, // /api/setup: games and the players a seat may have
  table: null, // the table's id
  view: null, // the last view drawn
  seat: null, // the seat whose view is shown; null: the spectator's
  step: null, // the position shown; null: the latest
  paused: false,
  timer: null,
  busy: false,
  views: 0, // views asked for so far: an answer to an older request is not drawn
};

async function api(path, options = {}) {
  const response = await fetch(path, { credentials: "same-origin", ...options });
  const data = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function post(path, body) {
  const isText = typeof body === "string";
  return api(path, {
    method: "POST",
    headers: { "Content-Type": isText ? "text/plain" : "application/json" },
    body: isText ? body : JSON.stringify(body || {}),
  });
}

function say(text) {
  const box = $("message");
  box.textContent = text || "";
  box.hidden = !text;
}

// Calls show(seconds) now and each second until the function returned is called: a wait
// the page names, with how long it has lasted.
function counting(show) {
  const start = Date.now();
  const tick = () => show(Math.floor((Date.now() - start) / 1000));
  tick();
  const timer = setInterval(tick, 1000);
  return () => clearInterval(timer);
}

// "ismcts for bank; ppo for robber_yellow, robber_red": each agent chosen and its seats.
function agentsBySeat(seats, players) {
  const seatsOf = new Map();
  players.forEach((who, k) => who !== "human" && seatsOf.set(who, [...(seatsOf.get(who) || []), seats[k]]));
  return [...seatsOf].map(([who, names]) => `${who} for ${names.join(", ")}`).join("; ");
}

// Setting up games ---------------------------------------------------------------------------

function fillSetup() {
  const game = ui.setup.games.find((g) => g.name === $("game").value);
  const counts = Object.keys(game.seats);
  const current = $("num-players").value;
  $("num-players").innerHTML = counts.map((n) => `<option>${n}</option>`).join("");
  $("num-players").value = counts.includes(current) ? current : String(game.default_players);
  fillSeats();
}

function fillSeats() {
  const game = ui.setup.games.find((g) => g.name === $("game").value);
  const seats = game.seats[$("num-players").value];
  $("seat-choices").innerHTML = seats
    .map((name, k) => {
      const options = ui.setup.players
        .map((p) => `<option value="${p}" ${p === "heuristic" ? "selected" : ""}>${p === "human" ? "you" : p}</option>`)
        .join("");
      return `<label>${escapeHtml(name)} <select class="seat-player" data-seat="${k}">${options}</select></label>`;
    })
    .join("");
  nameStart();
}

const chosenPlayers = () => [...document.querySelectorAll(".seat-player")].map((s) => s.value);

// Watching is the default (an agent in every seat); the button says what it will start.
// A server started with --save-games offers to save a game you play (ticked: starting it
// with that file named was the opt-in), and says which games rate.
function nameStart() {
  const playing = chosenPlayers().includes("human");
  $("start").textContent = playing ? "Play" : "Watch";
  const file = ui.setup.save_games;
  $("save-choice").hidden = !(file && playing);
  if (file) {
    $("save-label").innerHTML = `Save this game to <code>${escapeHtml(file)}</code> when it ends, for
      <code>heist eval --human</code> to rate. <small>A game rates where one reference agent
      holds every side but yours: ${ui.setup.references.map(escapeHtml).join(", ")}.</small>`;
  }
}

async function startGame(event) {
  event.preventDefault();
  const players = chosenPlayers();
  const game = ui.setup.games.find((g) => g.name === $("game").value);
  const agents = agentsBySeat(game.seats[$("num-players").value], players);
  const loading = $("loading");
  loading.hidden = false;
  const stop = counting((s) => {
    loading.innerHTML = `Setting up the table: loading ${escapeHtml(agents || "the game")}… ${s} s
      <small>The first table of a server takes longest: agents load their networks, and a
      search agent compiles its search at its first move.</small>`;
  });
  $("start").disabled = true;
  $("start").textContent = "Starting…";
  try {
    const seed = $("seed").value === "" ? null : Number($("seed").value);
    const table = await post("/api/tables", {
      game: $("game").value,
      num_players: Number($("num-players").value),
      players,
      seed,
      save: !$("save-choice").hidden && $("save").checked,
    });
    openTable(table.id);
  } catch (e) {
    say(e.message);
  } finally {
    stop();
    loading.hidden = true;
    $("start").disabled = false;
    nameStart();
  }
}

async function loadRecord(event) {
  event.preventDefault();
  const file = $("record-file").files[0];
  const limit = (await setupLoaded).max_record_bytes;
  if (file && file.size > limit) return say(`This record is larger than the limit of ${limit} bytes.`);
  const text = file ? await file.text() : $("record-text").value;
  if (new Blob([text]).size > limit) return say(`This record is larger than the limit of ${limit} bytes.`);
  if (!text.trim()) return say("Choose a record file or paste one.");
  try {
    const table = await post("/api/replay", text);
    openTable(table.id, 0);
  } catch (e) {
    say(`This record cannot be replayed: ${e.message}`);
  }
}

// A table in the "your tables" menu: its game, mode, moves so far and whether it is over.
const tableLabel = (t) => `${t.title}, ${t.mode}, ${t.steps} moves${t.over ? ", over" : ""}`;

async function refreshTables() {
  const tables = await api("/api/tables");
  $("tables").innerHTML =
    `<option value="">your tables…</option>` +
    tables.map((t) => `<option value="${t.id}">${escapeHtml(tableLabel(t))}</option>`).join("");
  $("tables").value = ui.table || "";
  return tables;
}

// A table ------------------------------------------------------------------------------------

function openTable(id, step = null) {
  ui.table = id;
  ui.seat = null;
  ui.step = step;
  ui.paused = false;
  ui.view = null;
  history.replaceState(null, "", `#table=${id}`);
  $("new-game").hidden = true;
  $("replay").hidden = true;
  $("game-area").hidden = false;
  say("");
  refreshTables();
  update();
}

// The view asked for: the seat chosen, or none (the server's default: your seat in a game
// you play, while it runs; the spectator's otherwise).
async function fetchView() {
  const params = new URLSearchParams();
  const playing = ui.view && ui.view.mode === "play" && !ui.view.over;
  if (ui.view && ui.view.id === ui.table && !playing) params.set("seat", ui.seat ?? "spectator");
  if (ui.step !== null) params.set("step", ui.step);
  return api(`/api/tables/${ui.table}/view?${params}`);
}

async function update() {
  clearTimeout(ui.timer);
  if (!ui.table) return;
  const request = ++ui.views;
  let view;
  try {
    view = await fetchView();
  } catch (e) {
    if (request === ui.views) say(e.message);
    return;
  }
  if (request !== ui.views) return; // a later position was asked for meanwhile
  ui.view = view;
  ui.seat = view.seat;
  draw(view);
  schedule(view);
}

function agentMoves(view) {
  const live = view.step === view.steps;
  return live && !view.over && view.actor !== null && view.players[view.actor] !== "human" && view.mode !== "replay";
}

function schedule(view) {
  if (!agentMoves(view) || ui.paused) return;
  ui.timer = setTimeout(advance, Number($("pace").value));
}

async function advance() {
  if (ui.busy) return;
  ui.busy = true;
  const status = $("status").textContent;
  let stop = () => {};
  const thinking = setTimeout(() => {
    stop = counting((s) => ($("status").textContent = `${status} · thinking…${s ? ` ${s} s` : ""}`));
  }, 300);
  try {
    await post(`/api/tables/${ui.table}/advance`);
  } catch (e) {
    ui.paused = true; // do not ask again and again
    say(e.message);
  } finally {
    clearTimeout(thinking);
    stop();
    ui.busy = false;
  }
  ui.step = null;
  await update();
}

async function playAction(action) {
  if (ui.busy) return;
  ui.busy = true;
  try {
    await post(`/api/tables/${ui.table}/move`, { action });
    say("");
  } catch (e) {
    say(e.message);
  } finally {
    ui.busy = false;
  }
  await update();
}

// The position last asked for: a click counts from it, not from the view still on its way.
const askedStep = () => ui.step ?? ui.view?.steps ?? 0;

function goTo(step) {
  if (!ui.view) return;
  const last = ui.view.steps;
  step = Math.max(0, Math.min(last, step));
  ui.step = step === last ? null : step;
  update();
}

function draw(view) {
  const names = view.agents;
  const label = (k) => `${names[k]} (${window.playerLabel(view, k)})`;
  $("title").textContent = `${view.title} · ${view.mode}${view.saved === "pending" ? " · saved when it ends" : ""}`;
  const menuEntry = [...$("tables").options].find((o) => o.value === view.id);
  if (menuEntry) menuEntry.textContent = tableLabel(view);
  $("slider").max = view.steps;
  $("slider").value = view.step;
  $("step-label").textContent = `move ${view.step} of ${view.steps}`;
  $("pace-controls").hidden = view.mode === "replay" || view.over;
  $("pause").textContent = ui.paused ? "Run" : "Pause";
  const playing = view.mode === "play" && !view.over;
  const seats = playing ? [view.seat] : [null, ...names.map((_, k) => k)];
  $("view-seat").innerHTML = seats
    .map((k) => `<option value="${k ?? ""}">${k === null ? "spectator" : escapeHtml(names[k])}</option>`)
    .join("");
  $("view-seat").value = view.seat ?? "";
  $("view-seat").disabled = playing;
  const canDownload = view.mode !== "play" || view.over;
  $("download").hidden = !canDownload;
  $("download").href = `/api/tables/${view.id}/record`;
  $("rules").href = `/rules/${view.game}`;

  let status;
  if (view.outcome) status = `Game over: ${view.outcome.breakdown.text}`;
  else {
    status = `To act: ${label(view.actor)}`;
    if (view.last) status += ` · last move: ${names[view.last.seat]} — ${view.last.name}`;
  }
  $("status").textContent = status;
  $("status").className = view.outcome ? "over" : "";

  const board = $("board");
  board.dataset.game = view.game;
  board.dataset.step = view.step;
  board.dataset.seat = view.seat ?? "spectator";
  board.innerHTML = window.drawTable(view);

  $("actions").innerHTML = view.legal.length
    ? `<h3>Your move as ${escapeHtml(names[view.actor])}</h3>` +
      view.legal.map((a) => `<button type="button" class="legal" data-action="${a.action}">${escapeHtml(a.name)}</button>`).join("")
    : view.mode === "play" && !view.over && view.step === view.steps
      ? `<p class="hint">Waiting for ${escapeHtml(label(view.actor))}…</p>`
      : "";
  $("outcome").innerHTML = view.outcome ? outcomeHtml(view) : "";
  $("log").innerHTML = view.log
    .map((m) => `<li value="${m.step}" class="${m.step === view.step ? "last" : ""}"><b>${escapeHtml(names[m.seat])}</b> ${escapeHtml(m.name)}</li>`)
    .join("");
}

// The result: the rules' scoring parts (rows) for each seat (columns), the winners starred.
function outcomeHtml(view) {
  const { breakdown, rewards } = view.outcome;
  const winner = (k) => breakdown.winners.includes(k);
  const head = view.agents
    .map((name, k) => `<th class="${winner(k) ? "winner" : ""}" title="${escapeHtml(name)}">${winner(k) ? "★ " : ""}${escapeHtml(name).replaceAll("_", "_<wbr>")}</th>`)
    .join("");
  const row = (label, help, values) =>
    `<tr><th title="${escapeHtml(help || label)}">${escapeHtml(label)}</th>${values.map((v, k) => `<td class="${winner(k) ? "winner" : ""}">${escapeHtml(v)}</td>`).join("")}</tr>`;
  const rows = breakdown.columns.map((c) => row(c.label, c.help, c.values)).join("");
  const saved = view.saved === "saved" ? `Saved to ${ui.setup.save_games} for rating.` : view.saved;
  return `<h3>Result</h3><p class="why">${escapeHtml(breakdown.text)}</p>
    ${saved ? `<p id="saved" class="hint">${escapeHtml(saved)}</p>` : ""}
    <div class="scroll"><table class="scores"><tr><th></th>${head}</tr>${rows}${row("reward", "the environment's reward", rewards)}</table></div>`;
}

// Wiring -------------------------------------------------------------------------------------

// Asked for at once; the controls are wired before it comes, so no early click is lost.
const setupLoaded = api("/api/setup");

async function init() {
  $("game").onchange = fillSetup;
  $("num-players").onchange = fillSeats;
  $("seat-choices").onchange = nameStart;
  $("new-form").onsubmit = startGame;
  $("replay-form").onsubmit = loadRecord;
  $("show-new").onclick = () => { $("new-game").hidden = false; $("replay").hidden = true; };
  $("show-replay").onclick = () => { $("replay").hidden = false; $("new-game").hidden = true; };
  $("tables").onchange = () => $("tables").value && openTable($("tables").value);
  $("first").onclick = () => goTo(0);
  $("back").onclick = () => goTo(askedStep() - 1);
  $("forward").onclick = () => goTo(askedStep() + 1);
  $("latest").onclick = () => goTo(ui.view?.steps ?? 0);
  $("slider").oninput = () => goTo(Number($("slider").value));
  $("pause").onclick = () => { ui.paused = !ui.paused; update(); };
  $("step-once").onclick = () => { ui.paused = true; if (ui.view && agentMoves(ui.view)) advance(); else update(); };
  $("pace").value = localStorage.getItem("pace") || $("pace").value;
  $("pace").onchange = () => { localStorage.setItem("pace", $("pace").value); update(); };
  $("view-seat").onchange = () => { ui.seat = $("view-seat").value === "" ? null : Number($("view-seat").value); update(); };
  $("actions").onclick = (event) => {
    const button = event.target.closest("button.legal");
    if (button) playAction(Number(button.dataset.action));
  };
  ui.setup = await setupLoaded;
  $("game").innerHTML = ui.setup.games.map((g) => `<option value="${g.name}">${escapeHtml(g.title)}</option>`).join("");
  fillSetup();
  const tables = await refreshTables();
  const wanted = new URLSearchParams(location.hash.slice(1)).get("table");
  if (wanted && tables.some((t) => t.id === wanted)) openTable(wanted);
  else $("new-game").hidden = false;
}

init().catch((e) => say(e.message));
