// Drawing each game's table from its view (Game.table_view, heist_envs/<game>/table_view.py)
// as HTML.
// window.drawTable(view) returns the board's markup; hidden cards arrive as counts only
// (hand: null) and are drawn as card backs.
"use strict";

(function () {
  const esc = (text) =>
    String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  const repeat = (n, html) => Array.from({ length: n }, () => html).join("");
  const backs = (n) => (n ? `<span class="backs">${repeat(Math.min(n, 12), '<span class="card back"></span>')}<small>${n} hidden</small></span>` : "");

  // Who plays seat k: "you" for your seats in a game you play, else the agent's name.
  const playerLabel = (view, k) => (view.players[k] === "human" && view.mode === "play" ? "you" : view.players[k]);

  // A player's panel: name, who plays it, highlights for the actor and the last mover.
  function panel(view, k, body, extra = "") {
    const classes = ["player"];
    if (view.actor === k) classes.push("actor");
    if (view.last && view.last.seat === k) classes.push("last-mover");
    if (view.seat === k) classes.push("viewer");
    const who = playerLabel(view, k);
    return `<div class="${classes.join(" ")}" data-seat="${k}" ${extra}>
      <div class="who"><b>${esc(view.agents[k])}</b> <small>${esc(who)}</small>${view.actor === k ? ' <span class="turn">to act</span>' : ""}</div>
      ${body}</div>`;
  }

  // Art Robbery ------------------------------------------------------------------------------

  const ART_SHORT = { "Number 0": "0", "Number 1": "1", "Number 2": "2", "Number 3": "3", "Number 4": "4", "Number 5": "5", Boss: "Boss", "Guard Dog": "Dog", "Greedy Thief": "Greedy" };

  // texts: card name -> what it does (the view's card_names and card_texts)
  function artCard(name, texts) {
    const short = ART_SHORT[name] || name;
    const kind = /^\d$/.test(short) ? "number" : short.toLowerCase();
    return `<span class="card art ${kind}" title="${esc(name)}: ${esc(texts[name])}">${esc(short)}</span>`;
  }

  function artToken(t, extra = "") {
    const dots = repeat(t.alibis, '<i class="dot"></i>');
    return `<span class="token raid${t.raid} ${t.boss ? "boss" : ""} ${extra}" title="${t.boss ? "Boss token" : "value " + t.value}${t.alibis ? ", " + t.alibis + " alibi dot(s)" : ""}">${t.boss ? "B" : t.value}<span class="dots">${dots}</span></span>`;
  }

  function artRobbery(view) {
    const t = view.table;
    const texts = Object.fromEntries(t.card_names.map((name, i) => [name, t.card_texts[i]]));
    const raids = t.raid_names
      .map((name, r) => `<span class="raid ${r === t.raid ? "current" : r < t.raid ? "done" : ""}">${esc(name)}</span>`)
      .join("");
    const centre = t.centre
      .map((tok) => artToken(tok, t.offered.includes(tok.slot) ? "offered" : ""))
      .join("");
    const discard = Object.entries(t.discard)
      .filter(([, n]) => n)
      .map(([name, n]) => `${artCard(name, texts)}<small>×${n}</small>`)
      .join(" ");
    const players = t.players
      .map((p, k) => {
        const hand = p.hand ? p.hand.map((name) => artCard(name, texts)).join("") : backs(p.hand_size);
        const tokens = p.tokens.map((tok) => artToken(tok, tok.raid === t.raid ? "" : "banked")).join("");
        const final = t.final ? `<div class="final">score ${t.final.score[k]} · alibis ${t.final.alibis[k]}</div>` : "";
        return panel(view, k, `<div class="hand">${hand || "<small>no cards</small>"}</div>
          <div class="tokens">${tokens || "<small>no loot</small>"}${p.has_dog ? '<span class="dog-pawn" title="Guard Dog">Dog</span>' : ""}</div>${final}`);
      })
      .join("");
    const pending = t.pending_card ? `<div class="pending">Card played: ${artCard(t.pending_card, texts)}</div>` : "";
    const stealing = t.pending_token ? `<div class="pending">Being stolen: ${artToken(t.pending_token, "offered")}</div>` : "";
    return `<div class="art-robbery">
      <div class="raids">${raids}</div>
      <div class="centre">
        <div class="area"><h4>Centre · ${esc(t.phase)}</h4><div class="tokens">${centre || "<small>empty</small>"}${t.dog_in_centre ? '<span class="dog-pawn" title="Guard Dog in the centre">Dog</span>' : ""}</div>${pending}${stealing}</div>
        <div class="area"><h4>Draw pile</h4><span class="card back big">${t.draw_pile}</span></div>
        <div class="area"><h4>Discard</h4>${discard || "<small>empty</small>"}</div>
        ${t.boxed.length ? `<div class="area"><h4>In the box</h4>${t.boxed.map((r) => esc(r) + " Boss").join(", ")}</div>` : ""}
      </div>
      <div class="players">${players}</div></div>`;
  }

  // Les Toits de Paris -----------------------------------------------------------------------

  function toitsCard(card, colours) {
    if (!card) return '<span class="card toits empty"></span>';
    const symbols = [];
    if (card.arrows) symbols.push(`<span title="arrows">${repeat(card.arrows, "➜")}</span>`);
    if (card.bells) symbols.push(`<span title="bells">${repeat(card.bells, "♪")}</span>`);
    if (card.reserve) symbols.push(`<span title="reserve draw">${repeat(card.reserve, "✚")}</span>`);
    if (card.feathers) symbols.push(`<span title="feathers">${repeat(card.feathers, "❦")}</span>`);
    if (card.vp) symbols.push(`<span class="vp" title="victory points">${card.vp}${card.tiebreak ? "★" : ""}</span>`);
    return `<span class="card toits colour${card.colour}" title="${esc(colours[card.colour])} ${esc(card.kind)}: ${esc(card.text)}"><small>${esc(card.kind)}</small>${symbols.join("")}</span>`;
  }

  function toitsDeParis(view) {
    const t = view.table;
    const colours = t.colour_names;
    const spaces = t.board
      .map((card, i) => `<div class="space"><div class="inspector-slot">${t.inspector === i + 1 ? '<span class="inspector" title="inspector">♚</span>' : ""}</div>${toitsCard(card, colours)}<small>${i + 1} · need ${t.need[i]}</small></div>`)
      .join("");
    const notch = `<div class="space notch"><div class="inspector-slot">${t.inspector === 8 ? '<span class="inspector" title="inspector at the notch">♚</span>' : ""}</div><small>notch</small></div>`;
    const players = t.players
      .map((p, k) => {
        const columns = colours
          .map((name, c) => {
            const cards = p.cards.filter((card) => card.colour === c).map((card) => toitsCard(card, colours)).join("");
            const joker = p.joker === c ? `<span class="card toits joker colour${c}" title="character flipped into a joker">J</span>` : "";
            return cards || joker ? `<div class="colour-column"><small>${esc(name)}</small>${cards}${joker}</div>` : "";
          })
          .join("");
        const character = typeof p.joker === "number" ? "joker" : p.joker;
        const tokens = p.tokens.map((tok) => `<span class="award ${tok.high ? "high" : "low"}">${esc(tok.set)} ${tok.high ? "high" : "low"}</span>`).join("");
        const score = p.score !== null ? `<div class="final">score ${p.score} ${tokens}</div>` : "";
        return panel(view, k, `<div class="collection">${columns || "<small>no cards</small>"}</div>
          <div><small>character: ${esc(character)}${k === t.leader ? " · leader" : ""}</small></div>${score}`);
      })
      .join("");
    const discard = t.discard.map((n, c) => `<span class="chip colour${c}">${n}</span>`).join("");
    const upcoming = t.upcoming
      ? `<div class="upcoming"><small>next on the draw pile:</small> ${t.upcoming.draw.map((c) => toitsCard(c, colours)).join("") || "—"} <small>reserve, top first:</small> ${t.upcoming.reserve.map((c) => toitsCard(c, colours)).join("") || "—"}</div>`
      : "";
    return `<div class="toits-de-paris">
      <div class="info">Turn ${t.turn} · leader ${esc(view.agents[t.leader] || "")} · ${esc(t.phase)}${t.phase === "leader must take" ? ` (${t.need_left} more)` : ""}${t.outcome !== "none" ? ` · ${esc(t.outcome)}` : ""}${t.last_turn ? " · last turn" : ""}</div>
      ${t.board.length ? `<div class="board">${spaces}${notch}</div>` : ""}
      <div class="legend"><small>➜ arrow · ♪ bell · ✚ reserve draw · ❦ feather · n victory points (★ tie-breaker) · ♚ inspector · card codes: A arrows, R reserve, F feather, V points, TB tie-breaker, P plain, B bell, J joker (hover a card for what it does)</small></div>
      <div class="piles"><span>Draw pile <span class="card back">${t.draw_pile}</span></span><span>Reserve <span class="card back">${t.reserve}</span></span><span>Discard ${discard}</span></div>
      ${upcoming}
      <div class="players">${players}</div></div>`;
  }

  // How to Rob a Bank ------------------------------------------------------------------------

  function bankRoom(t, r) {
    const room = t.rooms[r];
    const pieces = [];
    t.guards.forEach((g, i) => {
      if (g.room === r) pieces.push(`<span class="piece guard ${g.awake ? "" : "down"}" title="guard ${i}${g.awake ? "" : " (unconscious)"}">G${i}</span>`);
    });
    t.robbers.forEach((x) => {
      if (x.room === r) pieces.push(`<span class="piece robber ${x.colour} ${x.awake ? "" : "down"}" title="${x.colour} robber${x.awake ? "" : " (unconscious)"}${x.carried ? ", carrying " + x.carried : ""}">${x.colour[0].toUpperCase()}${x.carried ? "<sup>+" + x.carried + "</sup>" : ""}</span>`);
    });
    const bags = repeat(room.bags, '<span class="bag" title="bag">$</span>') + repeat(room.locked_bags, '<span class="bag locked" title="locked bag">$</span>');
    const alarm = t.alarm.room === r && t.alarm.state !== "ringing" ? `<span class="alarm ${t.alarm.state === "on, locked" ? "locked" : ""}" title="alarm: ${esc(t.alarm.state)}">⚠ alarm</span>` : "";
    const symbols = [room.mask && "mask", room.badge && "badge", room.bag_symbol && "bag", room.alarm_symbol && "alarm"]
      .filter(Boolean)
      .map((s) => `<span class="symbol" title="${esc(t.symbol_texts[s])}">${s}</span>`)
      .join("");
    const wall = room.wall ? ` wall-${room.wall}` : "";
    const tile = `room ${r}, tile ${room.tile}${room.wall ? `, thick wall on the ${room.wall} side` : ""}`;
    return `<div class="room${wall}" data-room="${r}"><div class="tile"><small title="${esc(tile)}">${r} · ${esc(room.tile)}</small> ${symbols}</div><div class="pieces">${pieces.join("")}</div><div class="floor">${bags}${alarm}</div></div>`;
  }

  function streetCell(t, room, side) {
    const i = t.street.findIndex((s) => s.room === room && s.side === side);
    if (i < 0) return '<div class="street"></div>';
    const s = t.street[i];
    return `<div class="street ${s.candidate ? "candidate" : ""}" title="street space ${i}">${s.vehicle ? '<span class="vehicle" title="the robbers\' vehicle">VAN</span>' : s.candidate ? "?" : ""}<small>s${i}</small></div>`;
  }

  function howToRobABank(view) {
    const t = view.table;
    const cells = [];
    for (let row = -1; row <= 3; row++) {
      for (let col = -1; col <= 3; col++) {
        const inside = row >= 0 && row < 3 && col >= 0 && col < 3;
        if (inside) cells.push(bankRoom(t, 3 * row + col));
        else if ((row === -1 || row === 3) && col >= 0 && col < 3) cells.push(streetCell(t, row === -1 ? col : 6 + col, row === -1 ? "N" : "S"));
        else if ((col === -1 || col === 3) && row >= 0 && row < 3) cells.push(streetCell(t, 3 * row + (col === -1 ? 0 : 2), col === -1 ? "W" : "E"));
        else cells.push('<div class="corner"></div>');
      }
    }
    const seats = t.seats
      .map((p, k) => {
        const stack = p.stack.map((c) => `<span class="card plan ${k === 0 ? "bank" : "robber"} ${c.played ? "played" : ""}">${esc(c.card)}</span>`).join("");
        const hand = p.hand ? p.hand.map((c) => `<span class="card plan ${k === 0 ? "bank" : "robber"}">${esc(c)}</span>`).join("") : backs(p.hand_size);
        return panel(view, k, `<div><small>stack</small> ${stack || "<small>—</small>"}</div><div class="hand"><small>hand</small> ${hand || "<small>—</small>"}</div><div><small>pool ${p.pool}</small></div>`);
      })
      .join("");
    const card = t.card
      ? `<div class="pending">${esc(view.agents[t.card.seat])} plays <b>${esc(t.card.name)}</b>: ${t.card.slots.map((s) => `<span class="slot ${s.done ? "done" : ""}">${esc(s.kind)}</span>`).join(" ")}${t.card.extra_used === null ? "" : ` · extra action ${t.card.extra_used ? "used" : "unused"}`}</div>`
      : "";
    const winner = t.winner ? `<div class="final">The ${t.winner} won.</div>` : "";
    return `<div class="how-to-rob-a-bank">
      <div class="info">Round ${t.round}/3${t.cycle ? ` · cycle ${t.cycle}/5` : ""} · ${esc(t.phase)} · stolen <b>${t.stolen}</b> of ${t.target} · supply ${t.supply} · alarm ${esc(t.alarm.state)}</div>
      ${winner}
      <div class="bank-grid">${cells.join("")}</div>
      <dl class="legend">${Object.entries(t.legend).map(([code, meaning]) => `<dt>${esc(code)}</dt><dd>${esc(meaning)}</dd>`).join("")}${Object.entries(t.symbol_texts).map(([code, meaning]) => `<dt>${esc(code)}</dt><dd>${esc(meaning)}</dd>`).join("")}</dl>
      ${card}
      <div class="players">${seats}</div></div>`;
  }

  // Thief's Market ---------------------------------------------------------------------------

  const FACES = { G: "green gem", W: "white gem", B: "blue gem", R: "red gem", P: "purse", M: "mask" };

  function dice(counts, pawn) {
    const faces = Object.entries(counts)
      .flatMap(([face, n]) => Array.from({ length: n }, () => `<span class="die face${face}" title="${FACES[face]}">${face === "P" ? "$" : face === "M" ? "☠" : ""}</span>`))
      .join("");
    return faces + (pawn ? '<span class="pawn" title="first-player pawn">♟</span>' : "") || "<small>none</small>";
  }

  function marketCard(card, small = false) {
    if (!card) return '<span class="card market empty"></span>';
    const cost = Object.entries(card.cost)
      .flatMap(([gem, n]) => Array.from({ length: n }, () => `<i class="gem face${gem}"></i>`))
      .join("");
    const icons = card.icons.map((i) => `<span class="icon">${esc(i)}</span>`).join(" ");
    // an owned card shows what it scores now (end-game cards included), others their printed VP
    const vp = card.points ?? card.vp;
    const title = `${card.name} (deck ${card.deck}${card.icons.length ? ", " + card.icons.join(", ") : ""}): ${card.text}${card.points !== null ? ` · scores ${card.points} VP as things stand` : ""}${card.used ? " · used this round" : ""}`;
    return `<span class="card market deck${card.deck} ${small ? "small" : ""} ${card.used ? "used" : ""}" title="${esc(title)}"><b>${esc(card.name)}</b><span class="cost">${cost}</span>${small ? "" : `<span class="effect">${esc(card.text)}</span>`}${vp ? `<span class="vp">${vp} VP</span>` : ""}<span class="icons">${icons}</span></span>`;
  }

  function thiefsMarket(view) {
    const t = view.table;
    const rows = t.rows
      .map((row) => {
        const deck = row.deck ? `<div class="deck-list"><small>deck (top first): ${row.deck.map((c) => esc(c.name)).join(", ") || "—"}</small></div>` : "";
        return `<div class="market-row ${row.open ? "" : "closed"}"><div class="row-label">${row.letter}<small>deck ${row.deck_size}</small></div>${row.slots.map((c) => marketCard(c)).join("")}${deck}</div>`;
      })
      .join("");
    const players = t.players
      .map((p, k) => {
        const snap = p.snapshot
          ? `<div class="snapshot" title="what the pile held at the end of the divide (cards giving extra purchases or infamy read it), and the purchases allowed this turn"><small>after the divide: gems ${p.snapshot.gems.join(" ") || "none"}, ${p.snapshot.size} objects · purchases allowed ${p.snapshot.buys}</small></div>`
          : "";
        return panel(view, k, `<div><span class="gold">¤ ${p.gold} gold</span> · <span class="infamy">★ ${p.infamy} infamy</span> · <small>pile (${p.pile_size})</small> ${dice(p.pile, p.pawn)}</div>${snap}
          <div class="owned">${p.cards.map((c) => marketCard(c, true)).join("") || "<small>no cards</small>"}</div>`);
      })
      .join("");
    const steal = t.steal ? `<div class="pending">${esc(view.agents[view.actor] || "")} stole ${esc(view.agents[t.steal.victim])}'s pile; returning ${dice(t.steal.returning, t.steal.pawn)}</div>` : "";
    const paying = t.paying ? `<div class="pending">Paying for ${marketCard(t.paying.card, true)} still: ${Object.entries(t.paying.need).filter(([, n]) => n).map(([g, n]) => `${n}<i class="gem face${g}"></i>`).join(" ")}</div>` : "";
    const extra = [t.trimmed ? `trimmed to the box: ${t.trimmed.map(esc).join(", ")}` : "", t.discarded.length ? `discarded: ${t.discarded.map(esc).join(", ")}` : ""].filter(Boolean).join(" · ");
    return `<div class="thiefs-market">
      <div class="info">Round ${t.round} · ${esc(t.stage)}${t.buys_made !== null ? ` · purchases this turn ${t.buys_made}` : ""}</div>
      ${t.centre ? `<div class="centre"><h4>Centre</h4>${dice(t.centre, t.pawn_in_centre)}</div>` : ""}
      ${steal}${paying}
      <div class="market">${rows}</div>
      ${extra ? `<div><small>${extra}</small></div>` : ""}
      <div class="players">${players}</div></div>`;
  }

  const DRAW = {
    art_robbery: artRobbery,
    toits_de_paris: toitsDeParis,
    how_to_rob_a_bank: howToRobABank,
    thiefs_market: thiefsMarket,
  };

  // A game without a drawing of its own: its table view is its text render ({text}).
  const textTable = (view) => `<pre class="text-table">${esc(view.table.text)}</pre>`;

  window.drawTable = (view) => (DRAW[view.game] || textTable)(view);
  window.playerLabel = playerLabel;
  window.escapeHtml = esc;
})();
